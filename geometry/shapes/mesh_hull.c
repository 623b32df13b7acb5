/* Convex hulls of meshes through qhull, and the shapes of a model's mesh
 * element (see mesh_hull.h). */
#include "geometry/shapes/mesh_hull.h"

#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "geometry/shapes/mesh_properties.h"

/* The hull's vertices (and volume) from a finished qhull run into hull. */
static int hull_vertices(qhT *qh, const teal_mesh *mesh, teal_shape *hull, teal_error *err) {
  teal_vec3 *v = teal_calloc((size_t)qh->num_vertices + 1, sizeof(*v));
  if (!v) {
    return teal_error_set(err, TEAL_ENOMEM, "mesh: convex hull: out of memory");
  }
  int n = 0;
  vertexT *vertex;
  FORALLvertices {
    int id = qh_pointid(qh, vertex->point);
    if (id >= 0 && id < mesh->num_vertices && n < qh->num_vertices) {
      v[n++] = mesh->vertices[id];
    }
  }
  int rc = teal_shape_convex(v, n, hull, err);
  teal_free(v);
  return rc;
}

/* qhull's volume of its hull (qh_getarea), under qhull's own error exit. */
static double hull_volume(qhT *qh) {
  volatile double volume = NAN;
  qh->NOerrexit = False;
  if (!setjmp(qh->errexit)) {
    qh_getarea(qh, qh->facet_list);
    volume = qh->totvol;
  }
  qh->NOerrexit = True;
  return volume;
}

/* Runs qhull on the mesh's vertices (copied into points) with its messages
 * sent to sink. */
static int run_qhull(qhT *qh, const teal_mesh *mesh, double *points, FILE *sink, teal_shape *hull,
                     double *volume, teal_error *err) {
  for (int i = 0; i < mesh->num_vertices; i++) {
    memcpy(points + 3 * i, mesh->vertices[i].v, 3 * sizeof(double));
  }
  char command[] = "qhull";
  qh_zero(qh, sink);
  int exit_code = qh_new_qhull(qh, 3, mesh->num_vertices, points, False, command, NULL, sink);
  int rc;
  if (exit_code != 0) {
    rc = teal_error_set(err, TEAL_EINVAL,
                        "mesh: convex hull: qhull failed (code %d): the %d vertices span no "
                        "volume",
                        exit_code, mesh->num_vertices);
  } else {
    rc = hull_vertices(qh, mesh, hull, err);
    if (rc == TEAL_OK && volume) {
      *volume = hull_volume(qh);
    }
  }
  int curlong, totlong;
  qh_freeqhull(qh, !qh_ALL);
  qh_memfreeshort(qh, &curlong, &totlong);
  return rc;
}

int teal_mesh_convex_hull(const teal_mesh *mesh, teal_shape *hull, double *volume,
                          teal_error *err) {
  if (!mesh || !hull || !mesh->vertices) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: convex hull: %s is NULL",
                          !hull ? "hull" : "the mesh");
  }
  if (mesh->num_vertices < 4) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: convex hull: needs >= 4 vertices (got %d)",
                          mesh->num_vertices);
  }
  for (int i = 0; i < mesh->num_vertices; i++) {
    if (!teal_vec3_is_finite(mesh->vertices[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "mesh: convex hull: vertex %d is not finite", i);
    }
  }
  /* qhull writes its warnings and errors to a FILE; they go nowhere */
  FILE *sink = fopen("/dev/null", "w");
  double *points = teal_calloc(3 * (size_t)mesh->num_vertices, sizeof(double));
  int rc;
  if (!sink || !points) {
    rc = teal_error_set(err, !points ? TEAL_ENOMEM : TEAL_EIO,
                        "mesh: convex hull: cannot set up qhull");
  } else {
    qhT qh_storage;
    rc = run_qhull(&qh_storage, mesh, points, sink, hull, volume, err);
  }
  teal_free(points);
  if (sink) {
    fclose(sink);
  }
  return rc;
}

int teal_mesh_nonconvexity(const teal_mesh *mesh, double *out, teal_error *err) {
  if (!out) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: nonconvexity: out is NULL");
  }
  teal_mesh_mass_properties props;
  int rc = teal_mesh_calc_mass_properties(mesh, &props, err);
  teal_shape hull;
  double hull_vol = NAN;
  if (rc == TEAL_OK && (rc = teal_mesh_convex_hull(mesh, &hull, &hull_vol, err)) == TEAL_OK) {
    teal_shape_release(&hull);
    *out = isfinite(hull_vol) && hull_vol > 0.0 ? fmax(0.0, 1.0 - props.volume / hull_vol) : 0.0;
  }
  return rc;
}

void teal_mesh_shapes_release(teal_mesh_shapes *shapes) {
  if (shapes) {
    teal_shape_release(&shapes->collision);
    teal_shape_release(&shapes->visual);
  }
}

/* The warning for a mesh far from convex or open ("" when neither). */
static void shapes_warning(teal_mesh_shapes *out, const char *path) {
  out->warning[0] = '\0';
  if (out->nonconvexity < 0.0) {
    snprintf(out->warning, sizeof(out->warning),
             "mesh %s is not closed: it collides as its convex hull", path);
  } else if (out->nonconvexity > TEAL_MESH_NONCONVEXITY_WARN) {
    snprintf(out->warning, sizeof(out->warning),
             "mesh %s is far from convex (fills %.0f%% of its hull): it collides as its hull", path,
             100.0 * (1.0 - out->nonconvexity));
  }
}

int teal_mesh_shapes_from_file(const char *path, double scale, teal_mesh_shapes *out,
                               teal_error *err) {
  if (!out) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: shapes: out is NULL");
  }
  memset(out, 0, sizeof(*out));
  teal_mesh mesh;
  int rc = teal_mesh_load_file(path, scale, &mesh, err);
  if (rc != TEAL_OK) {
    return rc;
  }
  double hull_vol = NAN;
  rc = teal_mesh_convex_hull(&mesh, &out->collision, &hull_vol, err);
  if (rc == TEAL_OK) {
    rc = teal_shape_mesh(path, scale, &out->visual, err);
  }
  teal_mesh_mass_properties props;
  out->nonconvexity = -1.0;
  if (rc == TEAL_OK && teal_mesh_calc_mass_properties(&mesh, &props, NULL) == TEAL_OK &&
      hull_vol > 0.0) {
    out->nonconvexity = fmax(0.0, 1.0 - props.volume / hull_vol);
  }
  teal_mesh_release(&mesh);
  if (rc != TEAL_OK) {
    teal_mesh_shapes_release(out);
    return rc;
  }
  shapes_warning(out, path);
  return TEAL_OK;
}
