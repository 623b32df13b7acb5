/* The mass matrix by the composite-rigid-body algorithm (see data.h; the
 * formulation about a tree point O is in data_internal.h). */
#include <string.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/tree/forest.h"

/* Ic_k = I_k + the composite inertias of k's children (one inward pass). */
static void composite_inertias(teal_mb_data *data, const teal_plant_tree *t) {
  memcpy(data->Ic, data->I, sizeof(*data->Ic) * (size_t)t->num_nodes);
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int pk = t->parent[k];
    if (pk > 0) {
      teal_mb_inertia_add_to(&data->Ic[pk], &data->Ic[k]);
    }
  }
}

/* Where crba_column writes: entry (row, col) of M is M[idx[row] * ld +
 * idx[col]], with idx NULL meaning the identity (the dense matrix) or the
 * dofs' local indices in their tree's block. */
typedef struct mass_sink {
  double *M;
  int ld;
  const int *idx;
} mass_sink;

static inline double *sink_at(const mass_sink *s, int row, int col) {
  size_t r = (size_t)(s->idx ? s->idx[row] : row), c = (size_t)(s->idx ? s->idx[col] : col);
  return s->M + r * (size_t)s->ld + c; /* nv^2 can pass INT_MAX */
}

/* Column v0 + j of M for node k: F = Ic_k s_j, then M(a, k) = S_a' F for k
 * and each of its ancestors a (the same F: all are about O), mirrored.
 * Ancestors outside k's tree have no dofs, so every entry lands in the
 * tree's block. */
static void crba_column(const teal_mb_data *data, const teal_plant_tree *t, int k, int j,
                        const mass_sink *out) {
  int n = t->nv[k], col = t->v_start[k] + j;
  teal_spatial_vector s;
  memcpy(s.v, teal_mb_data_S(data, t, k) + 6 * j, sizeof s.v);
  teal_spatial_vector F = teal_mb_inertia_apply(&data->Ic[k], s);
  const double *S = teal_mb_data_S(data, t, k);
  for (int i = 0; i < n; i++) {
    *sink_at(out, t->v_start[k] + i, col) = teal_mb_s_dot(S + 6 * i, F);
  }
  *sink_at(out, col, col) += data->reflected[col]; /* the actuators' reflected inertia */
  for (int a = t->parent[k]; a > 0; a = t->parent[a]) {
    const double *Sa = teal_mb_data_S(data, t, a);
    for (int i = 0; i < t->nv[a]; i++) {
      int row = t->v_start[a] + i;
      double m = teal_mb_s_dot(Sa + 6 * i, F);
      *sink_at(out, row, col) = m;
      *sink_at(out, col, row) = m;
    }
  }
}

int teal_mb_mass_matrix(const teal_plant *plant, teal_mb_data *data, const double *q, double *M) {
  static const char fn[] = "teal_mb_mass_matrix";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, M, "M", &st);
  if (!t || (st = teal_mb_data_position(data, t, q))) {
    return st;
  }
  composite_inertias(data, t);
  memset(M, 0, sizeof(double) * (size_t)data->nv * (size_t)data->nv);
  mass_sink out = {M, data->nv, NULL};
  for (int k = 1; k < t->num_nodes; k++) {
    for (int j = 0; j < t->nv[k]; j++) {
      crba_column(data, t, k, j, &out);
    }
  }
  return TEAL_OK;
}

int teal_mb_mass_matrix_blocks(const teal_plant *plant, teal_mb_data *data,
                               const teal_mb_trees *trees, const double *q, double *blocks) {
  static const char fn[] = "teal_mb_mass_matrix_blocks";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if (!trees || trees->nb != data->nb || trees->nv != data->nv) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: %s", fn,
                          trees ? "trees made for another plant" : "NULL trees");
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_out(data, fn, "blocks", blocks)) ||
      (st = teal_mb_data_position(data, t, q))) {
    return st;
  }
  composite_inertias(data, t);
  memset(blocks, 0, sizeof(double) * teal_mb_trees_block_size(trees));
  for (int k = 1; k < t->num_nodes; k++) {
    int tree = t->nv[k] > 0 ? trees->dof_tree[t->v_start[k]] : -1;
    mass_sink out = {tree >= 0 ? blocks + trees->block_start[tree] : NULL,
                     teal_mb_trees_tree_nv(trees, tree), trees->dof_local};
    for (int j = 0; j < t->nv[k]; j++) {
      crba_column(data, t, k, j, &out);
    }
  }
  return TEAL_OK;
}
