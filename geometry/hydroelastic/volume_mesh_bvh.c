/* The bounding volume hierarchy of a soft mesh: median-split build and
 * traversal (see volume_mesh_bvh.h). */
#include "geometry/hydroelastic/volume_mesh_bvh.h"

#include <math.h>

#include "framework/alloc.h"
#include "geometry/hydroelastic/volume_mesh_internal.h"

/* The build's scratch: the mesh, its tetrahedra's centroids (permuted with
 * them) and the nodes written so far. */
typedef struct bvh_build {
  teal_volume_mesh *m;
  teal_vec3 *centroid;
  teal_bvh_node *nodes;
  int num_nodes;
} bvh_build;

static void swap_tets(bvh_build *b, int i, int j) {
  int t[4] = {b->m->tets[i][0], b->m->tets[i][1], b->m->tets[i][2], b->m->tets[i][3]};
  for (int k = 0; k < 4; k++) {
    b->m->tets[i][k] = b->m->tets[j][k];
    b->m->tets[j][k] = t[k];
  }
  teal_vec3 c = b->centroid[i];
  b->centroid[i] = b->centroid[j];
  b->centroid[j] = c;
}

/* Reorders tetrahedra [lo, hi) so the one at mid has the median centroid
 * coordinate along axis, none before it larger, none after it smaller
 * (Hoare's selection). */
static void select_median(bvh_build *b, int lo, int hi, int mid, int axis) {
  while (hi - lo > 1) {
    double pivot = b->centroid[lo + (hi - lo) / 2].v[axis];
    int i = lo, j = hi - 1;
    while (i <= j) {
      while (b->centroid[i].v[axis] < pivot) {
        i++;
      }
      while (b->centroid[j].v[axis] > pivot) {
        j--;
      }
      if (i <= j) {
        swap_tets(b, i++, j--);
      }
    }
    if (mid <= j) {
      hi = j + 1;
    } else if (mid >= i) {
      lo = i;
    } else {
      return; /* mid lies between the parts: equal to the pivot */
    }
  }
}

/* The box of tetrahedra [first, first + count)'s vertices. */
static void bound(const teal_volume_mesh *m, int first, int count, teal_bvh_node *node) {
  node->lo = node->hi = m->vertices[m->tets[first][0]];
  for (int t = first; t < first + count; t++) {
    for (int i = 0; i < 4; i++) {
      teal_vec3 x = m->vertices[m->tets[t][i]];
      for (int a = 0; a < 3; a++) {
        node->lo.v[a] = x.v[a] < node->lo.v[a] ? x.v[a] : node->lo.v[a];
        node->hi.v[a] = x.v[a] > node->hi.v[a] ? x.v[a] : node->hi.v[a];
      }
    }
  }
}

/* Writes the subtree of tetrahedra [first, first + count) depth first. */
static void build_node(bvh_build *b, int first, int count) {
  int at = b->num_nodes++;
  teal_bvh_node *node = &b->nodes[at];
  bound(b->m, first, count, node);
  node->right = -1;
  node->first = first;
  node->count = count;
  if (count <= TEAL_VOLUME_MESH_BVH_LEAF) {
    return;
  }
  teal_vec3 size = teal_vec3_sub(node->hi, node->lo);
  int axis = size.v[0] >= size.v[1] ? (size.v[0] >= size.v[2] ? 0 : 2)
                                    : (size.v[1] >= size.v[2] ? 1 : 2);
  int half = count / 2;
  select_median(b, first, first + count, first + half, axis);
  node->count = 0;
  build_node(b, first, half);
  b->nodes[at].right = b->num_nodes; /* node may have moved: index again */
  build_node(b, first + half, count - half);
}

int teal_volume_mesh_build_bvh(teal_volume_mesh *m) {
  if (m->num_tets == 0) {
    return TEAL_OK;
  }
  bvh_build b = {m, teal_calloc((size_t)m->num_tets, sizeof(teal_vec3)),
                 teal_calloc(2 * (size_t)m->num_tets, sizeof(teal_bvh_node)), 0};
  if (!b.centroid || !b.nodes) {
    teal_free(b.centroid);
    teal_free(b.nodes);
    return TEAL_ENOMEM;
  }
  for (int t = 0; t < m->num_tets; t++) {
    teal_vec3 c = teal_vec3_zero();
    for (int i = 0; i < 4; i++) {
      c = teal_vec3_add(c, m->vertices[m->tets[t][i]]);
    }
    b.centroid[t] = teal_vec3_scale(c, 0.25);
  }
  build_node(&b, 0, m->num_tets);
  teal_free(b.centroid);
  teal_free(m->bvh);
  m->bvh = b.nodes;
  m->num_bvh_nodes = b.num_nodes;
  return TEAL_OK;
}

int teal_bvh_box_misses_plane(teal_vec3 n, teal_vec3 o, teal_vec3 lo, teal_vec3 hi) {
  double s = 0.0, r = 0.0;
  for (int a = 0; a < 3; a++) {
    s += n.v[a] * (0.5 * (lo.v[a] + hi.v[a]) - o.v[a]);
    r += fabs(n.v[a]) * 0.5 * (hi.v[a] - lo.v[a]);
  }
  return fabs(s) > r;
}

static int visit_all(const teal_volume_mesh *m, int (*visit)(void *, int), void *query) {
  int rc = 0;
  for (int t = 0; rc == 0 && t < m->num_tets; t++) {
    rc = visit(query, t);
  }
  return rc;
}

int teal_volume_mesh_bvh_visit(const teal_volume_mesh *m, teal_bvh_box_misses misses,
                               int (*visit)(void *query, int tet), void *query, teal_error *err) {
  if (!m || !misses || !visit) {
    return teal_error_set(err, TEAL_EINVAL, "volume mesh hierarchy: NULL %s",
                          !m ? "mesh" : !misses ? "box test" : "visitor");
  }
  if (m->num_bvh_nodes == 0) {
    return visit_all(m, visit, query);
  }
  int stack[TEAL_VOLUME_MESH_BVH_MAX_DEPTH + 1], top = 0, rc = 0;
  stack[top++] = 0;
  while (top > 0 && rc == 0) {
    const teal_bvh_node *node = &m->bvh[stack[--top]];
    if (misses(query, node->lo, node->hi)) {
      continue;
    }
    if (node->right < 0) {
      for (int t = node->first; rc == 0 && t < node->first + node->count; t++) {
        rc = visit(query, t);
      }
    } else if (top + 2 <= TEAL_VOLUME_MESH_BVH_MAX_DEPTH + 1) {
      stack[top++] = node->right;
      stack[top++] = (int)(node - m->bvh) + 1; /* the left child follows its parent */
    } else {
      return teal_error_set(err, TEAL_EINVAL, "volume mesh hierarchy: deeper than %d levels",
                            TEAL_VOLUME_MESH_BVH_MAX_DEPTH);
    }
  }
  return rc;
}
