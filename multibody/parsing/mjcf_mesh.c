/* MJCF meshes: <asset><mesh name file scale> found through the compiler's
 * meshdir, each file read once (geometry/shapes/mesh_hull.h: the convex
 * hull collides, the mesh itself is the visual) and, for a body whose
 * inertia comes from its geoms, the solid's mass properties
 * (mesh_properties.h), as MuJoCo computes them for a closed mesh. */
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/mjcf_internal.h"

/* The file's name without its directory and extension (MuJoCo's default
 * mesh name), kept by the model. */
static const char *file_stem(mjcf_model *m, const char *file) {
  const char *slash = strrchr(file, '/'), *base = slash ? slash + 1 : file;
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  char *s = teal_alloc(n + 1);
  if (s) {
    memcpy(s, base, n);
    s[n] = '\0';
  }
  return urdf_keep(&m->u, s);
}

/* The file's path: absolute as written, else under meshdir (itself under
 * the model file's directory unless absolute). */
static const char *mesh_path(mjcf_model *m, const char *file) {
  if (file[0] == '/') {
    return file;
  }
  const char *md = m->meshdir ? m->meshdir : "";
  const char *dir = md[0] == '/' || !m->u.dir ? "" : m->u.dir;
  const char *sep = md[0] && md[strlen(md) - 1] != '/' ? "/" : "";
  size_t n = strlen(dir) + strlen(md) + strlen(sep) + strlen(file) + 1;
  char *s = teal_alloc(n);
  if (s) {
    snprintf(s, n, "%s%s%s%s", dir, md, sep, file);
  }
  return urdf_keep(&m->u, s);
}

static int parse_mesh_asset(mjcf_model *m, urdf_node *node) {
  const char *file = NULL, *name = NULL;
  double scale[3] = {1, 1, 1};
  int n = 0;
  int rc = urdf_attr_required(&m->u, node, "file", &file);
  rc = rc ? rc : mjcf_numbers(m, node, "mesh", -1, "scale", 3, scale, &n);
  if (rc) {
    return rc;
  }
  if ((n != 0 && n != 3) || scale[0] != scale[1] || scale[0] != scale[2] || !(scale[0] > 0.0)) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "only uniform positive mesh scales are supported");
  }
  mjcf_mesh *mesh = urdf_push(&m->u, &m->meshes, sizeof(mjcf_mesh));
  if (!mesh) {
    return m->u.err->code;
  }
  name = urdf_attr(&m->u, node, "name");
  mesh->name = name && *name ? name : file_stem(m, file);
  mesh->node = node;
  mesh->scale = scale[0];
  mesh->path = mesh_path(m, file);
  return m->u.err->code;
}

int mjcf_parse_asset(mjcf_model *m, urdf_node *node) {
  int rc = TEAL_OK;
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    rc = urdf_is(c, "mesh") ? parse_mesh_asset(m, c) : TEAL_OK;
  }
  return rc;
}

int mjcf_index_meshes(mjcf_model *m) {
  return urdf_index_names(&m->u, &m->meshes, sizeof(mjcf_mesh), &m->mesh_index, "mesh");
}

/* Reads the mesh's file once: the hull and the visual; the solid when
 * asked for (a closed mesh only). Errors are reported at the geom. */
static int load_mesh(mjcf_model *m, urdf_node *geom, mjcf_mesh *mesh, int solid) {
  teal_error e = {TEAL_OK, ""};
  int rc = TEAL_OK;
  if (!mesh->loaded) {
    rc = teal_mesh_shapes_from_file(mesh->path, mesh->scale, &mesh->shapes, &e);
    mesh->loaded = rc == TEAL_OK;
    if (rc == TEAL_OK && mesh->shapes.warning[0]) {
      urdf_warn(&m->u, geom, &m->report->nonconvex_meshes, "%s", mesh->shapes.warning);
    }
  }
  if (rc == TEAL_OK && solid && !mesh->has_solid) {
    teal_mesh tri;
    rc = teal_mesh_load_file(mesh->path, mesh->scale, &tri, &e);
    if (rc == TEAL_OK && !teal_mesh_is_closed(&tri)) {
      rc = teal_error_set(&e, TEAL_EINVAL,
                          "mesh '%s' is not closed: it bounds no solid whose inertia the body "
                          "could take (give the body an <inertial>)",
                          mesh->name);
    }
    rc = rc ? rc : teal_mesh_calc_mass_properties(&tri, &mesh->solid, &e);
    mesh->has_solid = rc == TEAL_OK;
    teal_mesh_release(&tri);
  }
  return rc ? urdf_fail(&m->u, geom, rc, "%s", e.message) : TEAL_OK;
}

int mjcf_mesh_geom(mjcf_model *m, urdf_node *node, int cls, int solid, mjcf_geom *g,
                   const mjcf_mesh **out) {
  const char *name = mjcf_attr(m, node, "geom", cls, "mesh");
  *out = NULL;
  if (!name) {
    return m->u.err->code ? m->u.err->code
                          : urdf_fail(&m->u, node, TEAL_EPARSE, "a mesh geom needs a mesh");
  }
  int k = urdf_index_find(&m->mesh_index, &m->meshes, sizeof(mjcf_mesh), name);
  if (k < 0) {
    return urdf_fail(&m->u, node, TEAL_ENOTFOUND, "unknown mesh '%.80s'", name);
  }
  mjcf_mesh *mesh = &((mjcf_mesh *)m->meshes.data)[k];
  int rc = load_mesh(m, node, mesh, solid);
  if (rc == TEAL_OK && teal_shape_copy(&g->shape, &mesh->shapes.collision) == TEAL_OK) {
    g->has_shape = 1;
    rc = teal_shape_copy(&g->visual, &mesh->shapes.visual);
    g->has_visual = rc == TEAL_OK;
  } else if (rc == TEAL_OK) {
    rc = TEAL_ENOMEM;
  }
  if (rc == TEAL_ENOMEM) {
    return urdf_fail(&m->u, node, rc, "out of memory");
  }
  m->report->mesh_collisions += rc == TEAL_OK && g->collide;
  *out = mesh;
  return rc;
}

void mjcf_free_meshes(mjcf_model *m) {
  for (int i = 0; i < m->meshes.n; i++) {
    mjcf_mesh *mesh = &((mjcf_mesh *)m->meshes.data)[i];
    if (mesh->loaded) {
      teal_mesh_shapes_release(&mesh->shapes);
    }
  }
}
