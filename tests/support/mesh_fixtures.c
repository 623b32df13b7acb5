/* Meshes and mesh file writers for the tests (see mesh_fixtures.h). */
#include "support/mesh_fixtures.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"

/* LeakSanitizer's suppressions for the programs that use these fixtures:
 * assimp 5.2 (Debian's libassimp5) leaks the mesh it was building when its
 * ASCII STL reader throws on a malformed file (about 2.5 KB a file, outside
 * the teal_alloc hooks), which the fuzz test does thousands of times. Only
 * assimp's own leaks are suppressed; Teal's are still reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
  return "leak:libassimp.so\n";
}

static teal_mesh mesh_alloc(int nv, int nt) {
  teal_mesh m = {nv, teal_calloc((size_t)nv, sizeof(teal_vec3)), nt,
                 teal_calloc(3 * (size_t)nt, sizeof(int))};
  return m;
}

teal_mesh ts_mesh_box(double a, double b, double c) {
  static const int tris[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                  {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  teal_mesh m = mesh_alloc(8, 12);
  for (int i = 0; i < 8; i++) {
    /* bottom face 0..3 counter-clockwise seen from above, top face 4..7 */
    int x = (i & 3) == 1 || (i & 3) == 2, y = (i & 3) >= 2;
    m.vertices[i] = teal_vec3_make((x - 0.5) * a, (y - 0.5) * b, (i >= 4 ? 0.5 : -0.5) * c);
  }
  memcpy(m.triangles, tris, sizeof(tris));
  return m;
}

/* The index of the midpoint of edge (a, b), added to m when new (a small
 * linear search: the meshes are small). */
static int midpoint(teal_mesh *m, int a, int b, int (*edges)[3], int *num_edges, double r) {
  int lo = a < b ? a : b, hi = a < b ? b : a;
  for (int e = 0; e < *num_edges; e++) {
    if (edges[e][0] == lo && edges[e][1] == hi) {
      return edges[e][2];
    }
  }
  teal_vec3 p = teal_vec3_add(m->vertices[a], m->vertices[b]);
  m->vertices[m->num_vertices] = teal_vec3_scale(p, r / teal_vec3_norm(p));
  edges[*num_edges][0] = lo;
  edges[*num_edges][1] = hi;
  edges[(*num_edges)++][2] = m->num_vertices;
  return m->num_vertices++;
}

static void subdivide(teal_mesh *m, double r) {
  int nt = m->num_triangles;
  int *old = malloc(3 * (size_t)nt * sizeof(int));
  int(*edges)[3] = malloc(3 * (size_t)nt * sizeof(*edges));
  int num_edges = 0;
  memcpy(old, m->triangles, 3 * (size_t)nt * sizeof(int));
  for (int t = 0; t < nt; t++) {
    int a = old[3 * t], b = old[3 * t + 1], c = old[3 * t + 2];
    int ab = midpoint(m, a, b, edges, &num_edges, r), bc = midpoint(m, b, c, edges, &num_edges, r);
    int ca = midpoint(m, c, a, edges, &num_edges, r);
    int quad[4][3] = {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}};
    memcpy(m->triangles + 12 * t, quad, sizeof(quad));
  }
  m->num_triangles = 4 * nt;
  free(old);
  free(edges);
}

teal_mesh ts_mesh_icosphere(int levels, double r) {
  static const int tris[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                  {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                  {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                  {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  double t = 0.5 * (1.0 + sqrt(5.0));
  double v[12][3] = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                     {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  int nt = 20, nv = 12;
  for (int l = 0; l < levels; l++) {
    nv += 3 * nt / 2;
    nt *= 4;
  }
  teal_mesh m = mesh_alloc(nv, nt);
  m.num_vertices = 12;
  m.num_triangles = 20;
  for (int i = 0; i < 12; i++) {
    teal_vec3 p = teal_vec3_make(v[i][0], v[i][1], v[i][2]);
    m.vertices[i] = teal_vec3_scale(p, r / teal_vec3_norm(p));
  }
  memcpy(m.triangles, tris, sizeof(tris));
  for (int l = 0; l < levels; l++) {
    subdivide(&m, r);
  }
  return m;
}

teal_mesh ts_mesh_l_prism(void) {
  static const double xy[6][2] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  /* caps: a fan from the reflex corner 3 */
  static const int cap[4][3] = {{3, 4, 5}, {3, 5, 0}, {3, 0, 1}, {3, 1, 2}};
  teal_mesh m = mesh_alloc(12, 20);
  for (int i = 0; i < 6; i++) {
    m.vertices[i] = teal_vec3_make(xy[i][0], xy[i][1], 0.0);
    m.vertices[i + 6] = teal_vec3_make(xy[i][0], xy[i][1], 1.0);
  }
  int *t = m.triangles;
  for (int k = 0; k < 4; k++, t += 6) {
    int top[3] = {cap[k][0] + 6, cap[k][1] + 6, cap[k][2] + 6};
    int bottom[3] = {cap[k][0], cap[k][2], cap[k][1]};
    memcpy(t, top, sizeof(top));
    memcpy(t + 3, bottom, sizeof(bottom));
  }
  for (int i = 0; i < 6; i++, t += 6) {
    int j = (i + 1) % 6;
    int side[6] = {i, j, j + 6, i, j + 6, i + 6};
    memcpy(t, side, sizeof(side));
  }
  return m;
}

static teal_vec3 tri_normal(const teal_mesh *m, int t) {
  const int *k = m->triangles + 3 * t;
  teal_vec3 n = teal_vec3_cross(teal_vec3_sub(m->vertices[k[1]], m->vertices[k[0]]),
                                teal_vec3_sub(m->vertices[k[2]], m->vertices[k[0]]));
  return teal_vec3_scale(n, 1.0 / teal_vec3_norm(n));
}

static void put_floats(unsigned char *p, teal_vec3 v) {
  for (int i = 0; i < 3; i++) {
    float f = (float)v.v[i];
    memcpy(p + 4 * i, &f, 4);
  }
}

int ts_mesh_write_stl_binary(const char *path, const teal_mesh *m) {
  size_t n = 84 + 50 * (size_t)m->num_triangles;
  unsigned char *buf = calloc(n, 1);
  memcpy(buf, "binary stl written by the teal tests", 36);
  uint32_t count = (uint32_t)m->num_triangles;
  memcpy(buf + 80, &count, 4);
  for (int t = 0; t < m->num_triangles; t++) {
    unsigned char *rec = buf + 84 + 50 * (size_t)t;
    put_floats(rec, tri_normal(m, t));
    for (int k = 0; k < 3; k++) {
      put_floats(rec + 12 + 12 * k, m->vertices[m->triangles[3 * t + k]]);
    }
  }
  int rc = ts_write_bytes(path, buf, n);
  free(buf);
  return rc;
}

int ts_mesh_write_stl_ascii(const char *path, const teal_mesh *m) {
  FILE *f = fopen(path, "w");
  if (!f) {
    return -1;
  }
  fprintf(f, "solid teal\n");
  for (int t = 0; t < m->num_triangles; t++) {
    teal_vec3 n = tri_normal(m, t);
    fprintf(f, "facet normal %.17g %.17g %.17g\nouter loop\n", n.v[0], n.v[1], n.v[2]);
    for (int k = 0; k < 3; k++) {
      const double *p = m->vertices[m->triangles[3 * t + k]].v;
      fprintf(f, "vertex %.17g %.17g %.17g\n", p[0], p[1], p[2]);
    }
    fprintf(f, "endloop\nendfacet\n");
  }
  fprintf(f, "endsolid teal\n");
  return fclose(f) == 0 ? 0 : -1;
}

int ts_mesh_write_obj(const char *path, const teal_mesh *m) {
  FILE *f = fopen(path, "w");
  if (!f) {
    return -1;
  }
  fprintf(f, "# written by the teal tests\n");
  for (int i = 0; i < m->num_vertices; i++) {
    fprintf(f, "v %.17g %.17g %.17g\n", m->vertices[i].v[0], m->vertices[i].v[1],
            m->vertices[i].v[2]);
  }
  for (int t = 0; t < m->num_triangles; t++) {
    const int *k = m->triangles + 3 * t;
    fprintf(f, "f %d %d %d\n", k[0] + 1, k[1] + 1, k[2] + 1);
  }
  return fclose(f) == 0 ? 0 : -1;
}

int ts_write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    return -1;
  }
  size_t w = fwrite(data, 1, n, f);
  return fclose(f) == 0 && w == n ? 0 : -1;
}

unsigned char *ts_read_bytes(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)size + 1);
  *n = fread(buf, 1, (size_t)size, f);
  fclose(f);
  return buf;
}
