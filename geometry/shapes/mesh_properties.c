/* Closedness and mass properties of triangle meshes (see mesh_properties.h). */
#include "geometry/shapes/mesh_properties.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"

/* A directed edge a -> b, keyed by its endpoints in increasing order. */
typedef struct mesh_edge {
  int lo, hi;
  int forward; /* 1 when a < b */
} mesh_edge;

static int edge_order(const void *pa, const void *pb) {
  const mesh_edge *a = pa, *b = pb;
  if (a->lo != b->lo) {
    return a->lo < b->lo ? -1 : 1;
  }
  if (a->hi != b->hi) {
    return a->hi < b->hi ? -1 : 1;
  }
  return a->forward - b->forward;
}

static int degenerate(const int *t) {
  return t[0] == t[1] || t[1] == t[2] || t[2] == t[0];
}

static int indices_valid(const teal_mesh *m) {
  for (int i = 0; i < 3 * m->num_triangles; i++) {
    if (m->triangles[i] < 0 || m->triangles[i] >= m->num_vertices) {
      return 0;
    }
  }
  return 1;
}

/* The directed edges of the non-degenerate triangles; NULL when out of
 * memory. */
static mesh_edge *collect_edges(const teal_mesh *m, int *count) {
  mesh_edge *e = teal_calloc(3 * (size_t)m->num_triangles + 1, sizeof(*e));
  int n = 0;
  for (int t = 0; e && t < m->num_triangles; t++) {
    const int *tri = m->triangles + 3 * t;
    if (degenerate(tri)) {
      continue;
    }
    for (int k = 0; k < 3; k++) {
      int a = tri[k], b = tri[(k + 1) % 3];
      e[n].lo = a < b ? a : b;
      e[n].hi = a < b ? b : a;
      e[n++].forward = a < b;
    }
  }
  *count = n;
  return e;
}

int teal_mesh_is_closed(const teal_mesh *m) {
  if (!m || !m->vertices || !m->triangles || m->num_triangles <= 0 || !indices_valid(m)) {
    return 0;
  }
  int n = 0;
  mesh_edge *e = collect_edges(m, &n);
  if (!e) {
    return 0;
  }
  qsort(e, (size_t)n, sizeof(*e), edge_order);
  /* sorted, each undirected edge must come as exactly one pair: backward
   * then forward */
  int closed = n > 0 && n % 2 == 0;
  for (int i = 0; closed && i < n; i += 2) {
    closed = e[i].lo == e[i + 1].lo && e[i].hi == e[i + 1].hi && !e[i].forward &&
             e[i + 1].forward && (i + 2 >= n || e[i + 2].lo != e[i].lo || e[i + 2].hi != e[i].hi);
  }
  teal_free(e);
  return closed;
}

/* Sums over the tetrahedra (c, a, b, d) of the volume (times 6), the first
 * moment (times 24) and the second moment integral of x x^T (times 120),
 * with coordinates taken relative to c, a point near the mesh. */
static void tetra_sums(const teal_mesh *m, teal_vec3 c, double *v6, teal_vec3 *s24,
                       teal_mat3 *c120) {
  *v6 = 0.0;
  *s24 = teal_vec3_zero();
  *c120 = teal_mat3_zero();
  for (int t = 0; t < m->num_triangles; t++) {
    const int *tri = m->triangles + 3 * t;
    teal_vec3 a = teal_vec3_sub(m->vertices[tri[0]], c);
    teal_vec3 b = teal_vec3_sub(m->vertices[tri[1]], c);
    teal_vec3 d = teal_vec3_sub(m->vertices[tri[2]], c);
    double det = teal_vec3_dot(a, teal_vec3_cross(b, d));
    teal_vec3 sum = teal_vec3_add(a, teal_vec3_add(b, d));
    *v6 += det;
    *s24 = teal_vec3_add(*s24, teal_vec3_scale(sum, det));
    /* integral over the tetrahedron (0, a, b, d) of x x^T:
     * det / 120 (a a' + b b' + d d' + s s') */
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        c120->m[3 * i + j] +=
            det * (a.v[i] * a.v[j] + b.v[i] * b.v[j] + d.v[i] * d.v[j] + sum.v[i] * sum.v[j]);
      }
    }
  }
}

/* The mean of the vertices: the reference point that keeps the sums small. */
static teal_vec3 vertex_mean(const teal_mesh *m) {
  teal_vec3 c = teal_vec3_zero();
  for (int i = 0; i < m->num_vertices; i++) {
    c = teal_vec3_add(c, m->vertices[i]);
  }
  return teal_vec3_scale(c, 1.0 / m->num_vertices);
}

int teal_mesh_calc_mass_properties(const teal_mesh *m, teal_mesh_mass_properties *out,
                                   teal_error *err) {
  if (!m || !out || !m->vertices || !m->triangles) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: mass properties: %s is NULL or empty",
                          !out ? "out" : "the mesh");
  }
  if (!teal_mesh_is_closed(m)) {
    return teal_error_set(err, TEAL_EINVAL,
                          "mesh: mass properties need a closed, consistently oriented mesh "
                          "(%d triangles)",
                          m->num_triangles);
  }
  teal_vec3 c = vertex_mean(m);
  double v6;
  teal_vec3 s24;
  teal_mat3 c120;
  tetra_sums(m, c, &v6, &s24, &c120);
  double scale = 0.0;
  for (int i = 0; i < m->num_vertices; i++) {
    scale = fmax(scale, teal_vec3_norm(teal_vec3_sub(m->vertices[i], c)));
  }
  /* an inward-facing mesh flips every sign */
  double sign = v6 < 0.0 ? -1.0 : 1.0, volume = fabs(v6) / 6.0;
  if (!(volume > 1e-12 * scale * scale * scale)) {
    return teal_error_set(err, TEAL_EINVAL, "mesh: mass properties: the mesh bounds no volume");
  }
  teal_vec3 p = teal_vec3_scale(s24, sign / (24.0 * volume));        /* centroid relative to c */
  teal_mat3 second = teal_mat3_scale(c120, sign / (120.0 * volume)); /* per unit volume */
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      second.m[3 * i + j] -= p.v[i] * p.v[j]; /* about the centroid */
    }
  }
  double tr = teal_mat3_trace(second);
  out->volume = volume;
  out->center_of_mass = teal_vec3_add(c, p);
  out->unit_inertia = teal_mat3_sub(teal_mat3_diag(tr, tr, tr), second);
  return TEAL_OK;
}
