/* Soft volume meshes: regular tetrahedral grids with the extent field of
 * their shape (see volume_mesh.h). */
#include "geometry/hydroelastic/volume_mesh.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "geometry/hydroelastic/volume_mesh_internal.h"

/* The six tetrahedra of a cube (Kuhn's split): each walks from corner 000
 * to corner 111 along the axes in one order. */
static const int kAxisOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                      {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static double tet_volume(const teal_vec3 *v, const int t[4]) {
  teal_vec3 a = teal_vec3_sub(v[t[1]], v[t[0]]), b = teal_vec3_sub(v[t[2]], v[t[0]]);
  teal_vec3 c = teal_vec3_sub(v[t[3]], v[t[0]]);
  return teal_vec3_dot(a, teal_vec3_cross(b, c)) / 6.0;
}

static teal_volume_mesh *mesh_alloc(int num_vertices, int num_tets, double modulus) {
  teal_volume_mesh *m = teal_calloc(1, sizeof(*m));
  if (!m) {
    return NULL;
  }
  m->num_vertices = num_vertices;
  m->num_tets = num_tets;
  m->modulus = modulus;
  m->vertices = teal_calloc((size_t)m->num_vertices, sizeof(*m->vertices));
  m->pressure = teal_calloc((size_t)m->num_vertices, sizeof(*m->pressure));
  m->tets = teal_calloc((size_t)m->num_tets, sizeof(*m->tets));
  if (!m->vertices || !m->pressure || !m->tets) {
    teal_volume_mesh_free(m);
    return NULL;
  }
  return m;
}

/* The grid's vertex at lattice point (i, j, k) in the cube [-1, 1]^3. */
static int grid_index(const int n[3], int i, int j, int k) {
  return (k * (n[1] + 1) + j) * (n[0] + 1) + i;
}

/* A grid of n[0] x n[1] x n[2] cells over [-1, 1]^3 (vertices in cube
 * coordinates; the caller maps them and sets the pressure). */
static teal_volume_mesh *grid_new(const int n[3], double modulus) {
  teal_volume_mesh *m =
      mesh_alloc((n[0] + 1) * (n[1] + 1) * (n[2] + 1), 6 * n[0] * n[1] * n[2], modulus);
  for (int k = 0; m && k <= n[2]; k++) {
    for (int j = 0; j <= n[1]; j++) {
      for (int i = 0; i <= n[0]; i++) {
        m->vertices[grid_index(n, i, j, k)] =
            teal_vec3_make(-1.0 + 2.0 * i / n[0], -1.0 + 2.0 * j / n[1], -1.0 + 2.0 * k / n[2]);
      }
    }
  }
  int t = 0;
  for (int c = 0; m && c < n[0] * n[1] * n[2]; c++) {
    int ijk[3] = {c % n[0], (c / n[0]) % n[1], c / (n[0] * n[1])};
    for (int o = 0; o < 6; o++) {
      int at[3] = {ijk[0], ijk[1], ijk[2]};
      m->tets[t][0] = grid_index(n, at[0], at[1], at[2]);
      for (int s = 0; s < 3; s++) {
        at[kAxisOrders[o][s]] += 1;
        m->tets[t][s + 1] = grid_index(n, at[0], at[1], at[2]);
      }
      t++;
    }
  }
  return m;
}

/* Once the vertices are in place: makes every tetrahedron positively
 * oriented and builds the hierarchy. NULL (m freed) without memory. */
static teal_volume_mesh *finish(teal_volume_mesh *m) {
  for (int t = 0; m && t < m->num_tets; t++) {
    if (tet_volume(m->vertices, m->tets[t]) < 0.0) {
      int swap = m->tets[t][2];
      m->tets[t][2] = m->tets[t][3];
      m->tets[t][3] = swap;
    }
  }
  if (m && teal_volume_mesh_build_bvh(m) != TEAL_OK) {
    teal_volume_mesh_free(m);
    return NULL;
  }
  return m;
}

static int cells(double length, double hint) {
  double n = ceil(length / hint - 1e-9);
  return n < 2.0 ? 2 : (n > 64.0 ? 64 : (int)n);
}

static double max_abs(teal_vec3 u) {
  return fmax(fabs(u.v[0]), fmax(fabs(u.v[1]), fabs(u.v[2])));
}

teal_volume_mesh *teal_volume_mesh_soft_sphere(double radius, double modulus,
                                               double resolution_hint, teal_error *err) {
  if (!(isfinite(radius) && radius > 0.0 && isfinite(modulus) && modulus > 0.0) ||
      !(isnan(resolution_hint) || (isfinite(resolution_hint) && resolution_hint >= 0.0))) {
    teal_error_set(err, TEAL_EINVAL,
                   "soft sphere: radius (%g) and hydroelastic modulus (%g) must be finite and > "
                   "0, the resolution hint (%g) finite and >= 0 or NaN",
                   radius, modulus, resolution_hint);
    return NULL;
  }
  double hint = resolution_hint > 0.0 ? resolution_hint : 0.25 * radius;
  int c = cells(2.0 * radius, hint);
  c += c % 2; /* an even count puts a vertex at the centre, where e = 1 */
  int n[3] = {c, c, c};
  teal_volume_mesh *m = grid_new(n, modulus);
  for (int v = 0; m && v < m->num_vertices; v++) {
    teal_vec3 u = m->vertices[v];
    double inf = max_abs(u), two = teal_vec3_norm(u);
    m->vertices[v] = two > 0.0 ? teal_vec3_scale(u, radius * inf / two) : u;
    m->pressure[v] = modulus * (1.0 - inf);
  }
  m = finish(m);
  if (!m) {
    teal_error_set(err, TEAL_ENOMEM, "soft sphere: out of memory for its %d^3 cells", c);
    return NULL;
  }
  return m;
}

/* Maps the cube grid's vertices [first, first + count) trilinearly onto the
 * hexahedron with corners c (indexed by the bits x + 2 y + 4 z of the
 * cube's corner) and shifts its tetrahedra's indices by first. */
static void map_block(teal_volume_mesh *m, int first, int count, int tet0, int ntets,
                      const teal_vec3 c[8]) {
  for (int v = first; v < first + count; v++) {
    teal_vec3 u = m->vertices[v], x = teal_vec3_zero();
    for (int k = 0; k < 8; k++) {
      double w = 0.125 * (1.0 + ((k & 1) ? u.v[0] : -u.v[0])) *
                 (1.0 + ((k & 2) ? u.v[1] : -u.v[1])) * (1.0 + ((k & 4) ? u.v[2] : -u.v[2]));
      x = teal_vec3_add(x, teal_vec3_scale(c[k], w));
    }
    m->vertices[v] = x;
  }
  for (int t = tet0; t < tet0 + ntets; t++) {
    for (int i = 0; i < 4; i++) {
      m->tets[t][i] += first;
    }
  }
}

/* The hexahedron between face (axis k, side sign) of the box with half
 * sizes h and its part of the medial axis: the face's corners and the
 * corresponding points at depth hmin, where every face is hmin away. In it
 * the nearest face is that face, so the extent is linear there. */
static void face_block(const double h[3], double hmin, int k, double sign, teal_vec3 c[8]) {
  int i = (k + 1) % 3, j = (k + 2) % 3;
  for (int corner = 0; corner < 8; corner++) {
    double si = (corner & 1) ? 1.0 : -1.0, sj = (corner & 2) ? 1.0 : -1.0;
    double inner = (corner & 4) ? 0.0 : hmin; /* layer 0: medial, layer 1: face */
    c[corner].v[i] = si * (h[i] - inner);
    c[corner].v[j] = sj * (h[j] - inner);
    c[corner].v[k] = sign * (h[k] - inner);
  }
}

/* The box's mesh: six face blocks, each a grid of n x n x layers cells;
 * the tetrahedra of a block interpolate the exact (linear) extent. */
static teal_volume_mesh *box_blocks(const double h[3], double hmin, int n, int layers,
                                    double modulus) {
  int g[3] = {n, n, layers};
  teal_volume_mesh *one = grid_new(g, modulus), *m = NULL;
  if (one) {
    m = mesh_alloc(6 * one->num_vertices, 6 * one->num_tets, modulus);
  }
  for (int b = 0; m && b < 6; b++) {
    int nv = one->num_vertices, nt = one->num_tets;
    memcpy(m->vertices + b * nv, one->vertices, (size_t)nv * sizeof(*m->vertices));
    memcpy(m->tets + b * nt, one->tets, (size_t)nt * sizeof(*m->tets));
    teal_vec3 c[8];
    face_block(h, hmin, b / 2, (b % 2) ? -1.0 : 1.0, c);
    map_block(m, b * nv, nv, b * nt, nt, c);
  }
  teal_volume_mesh_free(one);
  return m;
}

teal_volume_mesh *teal_volume_mesh_soft_box(teal_vec3 size, double modulus, double resolution_hint,
                                            teal_error *err) {
  double h[3] = {0.5 * size.v[0], 0.5 * size.v[1], 0.5 * size.v[2]};
  double hmin = fmin(h[0], fmin(h[1], h[2])), hmax = fmax(h[0], fmax(h[1], h[2]));
  if (!(teal_vec3_is_finite(size) && hmin > 0.0 && isfinite(modulus) && modulus > 0.0) ||
      !(isnan(resolution_hint) || (isfinite(resolution_hint) && resolution_hint >= 0.0))) {
    teal_error_set(err, TEAL_EINVAL,
                   "soft box: sides (%g, %g, %g) and hydroelastic modulus (%g) must be finite "
                   "and > 0, the resolution hint (%g) finite and >= 0 or NaN",
                   size.v[0], size.v[1], size.v[2], modulus, resolution_hint);
    return NULL;
  }
  double hint = resolution_hint > 0.0 ? resolution_hint : hmin;
  int n = cells(2.0 * hmax, hint), layers = cells(hmin, hint) / 2;
  teal_volume_mesh *m = box_blocks(h, hmin, n, layers, modulus);
  for (int v = 0; m && v < m->num_vertices; v++) {
    teal_vec3 x = m->vertices[v];
    double depth = fmin(h[0] - fabs(x.v[0]), fmin(h[1] - fabs(x.v[1]), h[2] - fabs(x.v[2])));
    m->pressure[v] = modulus * fmin(1.0, fmax(0.0, depth / hmin));
  }
  m = finish(m);
  if (!m) {
    teal_error_set(err, TEAL_ENOMEM, "soft box: out of memory for its 6 x %d x %d x %d cells", n, n,
                   layers);
    return NULL;
  }
  return m;
}

double teal_volume_mesh_volume(const teal_volume_mesh *m) {
  double vol = 0.0;
  for (int t = 0; m && t < m->num_tets; t++) {
    vol += tet_volume(m->vertices, m->tets[t]);
  }
  return vol;
}

void teal_volume_mesh_free(teal_volume_mesh *m) {
  if (m) {
    teal_free(m->vertices);
    teal_free(m->pressure);
    teal_free(m->tets);
    teal_free(m->bvh);
    teal_free(m);
  }
}
