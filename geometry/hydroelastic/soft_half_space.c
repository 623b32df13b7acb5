/* Soft mesh against a rigid half-space: slicing the tetrahedra with the
 * half-space's plane (see soft_half_space.h). */
#include "geometry/hydroelastic/soft_half_space.h"

#include <math.h>

/* A polygon under construction: up to 4 points in W with their pressure. */
typedef struct cut_polygon {
  int n;
  teal_vec3 q[4];
  double p[4];
} cut_polygon;

/* The cut's geometry: the plane in the soft frame S and the maps to W. */
typedef struct cut_frame {
  teal_vec3 n_S, o_S; /* plane normal and a point on it, in S */
  teal_vec3 n_W;      /* the normal in W */
  teal_transform X_WS;
} cut_frame;

/* Gradient of the linear field through the tetrahedron's vertices, in S. */
static teal_vec3 tet_gradient(const teal_volume_mesh *m, const int t[4]) {
  teal_vec3 e1 = teal_vec3_sub(m->vertices[t[1]], m->vertices[t[0]]);
  teal_vec3 e2 = teal_vec3_sub(m->vertices[t[2]], m->vertices[t[0]]);
  teal_vec3 e3 = teal_vec3_sub(m->vertices[t[3]], m->vertices[t[0]]);
  double det = teal_vec3_dot(e1, teal_vec3_cross(e2, e3));
  double p0 = m->pressure[t[0]];
  teal_vec3 g = teal_vec3_scale(teal_vec3_cross(e2, e3), m->pressure[t[1]] - p0);
  g = teal_vec3_add(g, teal_vec3_scale(teal_vec3_cross(e3, e1), m->pressure[t[2]] - p0));
  g = teal_vec3_add(g, teal_vec3_scale(teal_vec3_cross(e1, e2), m->pressure[t[3]] - p0));
  return det != 0.0 ? teal_vec3_scale(g, 1.0 / det) : teal_vec3_zero();
}

/* Adds the point where edge (a, b) of tetrahedron t crosses the plane (a,
 * b local corners 0..3, s their signed distances). */
static void add_crossing(const teal_volume_mesh *m, const cut_frame *f, const int t[4], int a,
                         int b, const double s[4], cut_polygon *poly) {
  double w = s[a] / (s[a] - s[b]);
  teal_vec3 xa = m->vertices[t[a]], xb = m->vertices[t[b]];
  teal_vec3 x = teal_vec3_add(xa, teal_vec3_scale(teal_vec3_sub(xb, xa), w));
  poly->q[poly->n] = teal_transform_apply(f->X_WS, x);
  poly->p[poly->n] = m->pressure[t[a]] + w * (m->pressure[t[b]] - m->pressure[t[a]]);
  poly->n++;
}

/* The polygon where the plane cuts tetrahedron t (its corners' signed
 * distances s, > 0 above the plane); n = 0 when the plane misses it. */
static void cut_tet(const teal_volume_mesh *m, const cut_frame *f, const int t[4],
                    const double s[4], cut_polygon *poly) {
  int up[4], down[4], nu = 0, nd = 0;
  for (int i = 0; i < 4; i++) {
    if (s[i] > 0.0) {
      up[nu++] = i;
    } else {
      down[nd++] = i;
    }
  }
  poly->n = 0;
  if (nu == 0 || nd == 0) {
    return;
  }
  if (nu == 2) { /* a quadrilateral, its edges in cyclic order */
    add_crossing(m, f, t, up[0], down[0], s, poly);
    add_crossing(m, f, t, up[0], down[1], s, poly);
    add_crossing(m, f, t, up[1], down[1], s, poly);
    add_crossing(m, f, t, up[1], down[0], s, poly);
    return;
  }
  const int *lone = nu == 1 ? up : down, *rest = nu == 1 ? down : up;
  for (int i = 0; i < 3; i++) {
    add_crossing(m, f, t, lone[0], rest[i], s, poly);
  }
}

/* Area, centroid and mean pressure of a convex polygon (fan from q[0]),
 * its orientation made counter-clockwise about n. */
static double polygon_summary(cut_polygon *poly, teal_vec3 n, teal_vec3 *centroid, double *p) {
  double area = 0.0, pint = 0.0;
  teal_vec3 c = teal_vec3_zero();
  for (int i = 1; i + 1 < poly->n; i++) {
    teal_vec3 e1 = teal_vec3_sub(poly->q[i], poly->q[0]);
    teal_vec3 e2 = teal_vec3_sub(poly->q[i + 1], poly->q[0]);
    double a = 0.5 * teal_vec3_dot(teal_vec3_cross(e1, e2), n);
    teal_vec3 ci = teal_vec3_scale(
        teal_vec3_add(poly->q[0], teal_vec3_add(poly->q[i], poly->q[i + 1])), 1.0 / 3.0);
    area += a;
    c = teal_vec3_add(c, teal_vec3_scale(ci, a));
    pint += a * (poly->p[0] + poly->p[i] + poly->p[i + 1]) / 3.0;
  }
  if (area < 0.0) { /* clockwise: reverse the order */
    for (int i = 1, j = poly->n - 1; i < j; i++, j--) {
      teal_vec3 q = poly->q[i];
      double pv = poly->p[i];
      poly->q[i] = poly->q[j];
      poly->p[i] = poly->p[j];
      poly->q[j] = q;
      poly->p[j] = pv;
    }
  }
  *centroid = area != 0.0 ? teal_vec3_scale(c, 1.0 / area) : poly->q[0];
  *p = area != 0.0 ? pint / area : poly->p[0];
  return fabs(area);
}

/* Appends a face of k points to out (room checked by the caller). */
static void emit_face(teal_contact_surface *out, const teal_vec3 *q, const double *p, int k,
                      teal_vec3 n, teal_vec3 grad) {
  cut_polygon poly = {
      k, {q[0], q[1], q[2], k > 3 ? q[3] : q[0]}, {p[0], p[1], p[2], k > 3 ? p[3] : 0}};
  teal_contact_polygon *face = &out->faces[out->num_faces];
  face->area = polygon_summary(&poly, n, &face->centroid, &face->pressure);
  if (!(face->area > 0.0)) {
    return;
  }
  face->first = out->num_vertices;
  face->count = k;
  face->normal = n;
  face->grad_p = grad;
  for (int i = 0; i < k; i++) {
    out->vertices[out->num_vertices] = poly.q[i];
    out->pressure[out->num_vertices++] = poly.p[i];
  }
  out->area += face->area;
  out->centroid = teal_vec3_add(out->centroid, teal_vec3_scale(face->centroid, face->area));
  out->num_faces++;
}

/* Adds a cut polygon as one face or as a fan of triangles about its centroid. */
static void add_polygon(teal_contact_surface *out, cut_polygon *poly, teal_vec3 n, teal_vec3 grad,
                        teal_contact_surface_representation rep) {
  if (rep == TEAL_CONTACT_SURFACE_POLYGONS || poly->n == 3) {
    emit_face(out, poly->q, poly->p, poly->n, n, grad);
    return;
  }
  teal_vec3 c;
  double pc;
  if (!(polygon_summary(poly, n, &c, &pc) > 0.0)) {
    return;
  }
  for (int i = 0; i < poly->n; i++) {
    int j = (i + 1) % poly->n;
    teal_vec3 q[3] = {c, poly->q[i], poly->q[j]};
    double p[3] = {pc, poly->p[i], poly->p[j]};
    emit_face(out, q, p, 3, n, grad);
  }
}

int teal_soft_half_space_capacity(const teal_volume_mesh *m,
                                  teal_contact_surface_representation rep, int *faces,
                                  int *vertices) {
  if (!m || !faces || !vertices) {
    return TEAL_EINVAL;
  }
  int tri = rep == TEAL_CONTACT_SURFACE_TRIANGLES;
  *faces = (tri ? 4 : 1) * m->num_tets;
  *vertices = (tri ? 12 : 4) * m->num_tets;
  return TEAL_OK;
}

static int check_args(const teal_volume_mesh *m, teal_transform X_WS, teal_transform X_WH,
                      teal_contact_surface_representation rep, const teal_contact_surface *out,
                      teal_error *err) {
  if (!m || !out ||
      (rep != TEAL_CONTACT_SURFACE_POLYGONS && rep != TEAL_CONTACT_SURFACE_TRIANGLES)) {
    return teal_error_set(err, TEAL_EINVAL, "soft half-space contact: %s",
                          !m     ? "NULL mesh"
                          : !out ? "NULL surface"
                                 : "unknown representation");
  }
  int finite = teal_vec3_is_finite(X_WS.p) && teal_vec3_is_finite(X_WH.p);
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(X_WS.R.m[i]) && isfinite(X_WH.R.m[i]);
  }
  return finite ? TEAL_OK
                : teal_error_set(err, TEAL_ENONFINITE, "soft half-space contact: pose not finite");
}

/* Room for one more cut polygon in out (4 triangles of 3 vertices at
 * most), doubling the capacity when short. */
static int make_room(teal_contact_surface *out) {
  if (out->num_faces + 4 <= out->face_cap && out->num_vertices + 12 <= out->vertex_cap) {
    return TEAL_OK;
  }
  return teal_contact_surface_reserve(out, 2 * out->face_cap + 64, 2 * out->vertex_cap + 192);
}

/* One query's state while the hierarchy hands it tetrahedra. */
typedef struct cut_query {
  const teal_volume_mesh *m;
  const cut_frame *f;
  teal_contact_surface_representation rep;
  teal_contact_surface *out;
} cut_query;

static int plane_misses(const void *query, teal_vec3 lo, teal_vec3 hi) {
  const cut_frame *f = ((const cut_query *)query)->f;
  return teal_bvh_box_misses_plane(f->n_S, f->o_S, lo, hi);
}

/* Cuts tetrahedron t into the query's surface if the plane crosses it. */
static int cut_one(void *query, int t) {
  cut_query *q = query;
  const int *tet = q->m->tets[t];
  double s[4];
  for (int i = 0; i < 4; i++) {
    s[i] = teal_vec3_dot(q->f->n_S, teal_vec3_sub(q->m->vertices[tet[i]], q->f->o_S));
  }
  cut_polygon poly;
  cut_tet(q->m, q->f, tet, s, &poly);
  int rc = poly.n ? make_room(q->out) : TEAL_OK;
  if (poly.n && rc == TEAL_OK) {
    teal_vec3 grad = teal_rotation_apply(q->f->X_WS.R, tet_gradient(q->m, tet));
    add_polygon(q->out, &poly, q->f->n_W, grad, q->rep);
  }
  return rc;
}

/* Cuts every tetrahedron of m that the plane of f crosses into out,
 * visiting only the hierarchy's boxes the plane crosses. */
static int cut_mesh(const teal_volume_mesh *m, const cut_frame *f,
                    teal_contact_surface_representation rep, teal_contact_surface *out) {
  cut_query q = {m, f, rep, out};
  return teal_volume_mesh_bvh_visit(m, plane_misses, cut_one, &q, NULL);
}

int teal_soft_half_space_contact_surface(const teal_volume_mesh *m, teal_transform X_WS,
                                         teal_transform X_WH,
                                         teal_contact_surface_representation rep,
                                         teal_contact_surface *out, teal_error *err) {
  int rc = check_args(m, X_WS, X_WH, rep, out, err);
  teal_contact_surface_clear(out);
  if (rc) {
    return rc;
  }
  cut_frame f = {.X_WS = X_WS, .n_W = teal_rotation_apply(X_WH.R, teal_vec3_make(0, 0, 1))};
  teal_transform X_SW = teal_transform_inverse(X_WS);
  f.n_S = teal_rotation_apply(X_SW.R, f.n_W);
  f.o_S = teal_transform_apply(X_SW, X_WH.p);
  rc = cut_mesh(m, &f, rep, out);
  if (rc) {
    teal_contact_surface_clear(out);
    return teal_error_set(err, rc, "soft half-space contact: out of memory");
  }
  if (out->area > 0.0) {
    out->centroid = teal_vec3_scale(out->centroid, 1.0 / out->area);
  }
  return out->num_faces;
}
