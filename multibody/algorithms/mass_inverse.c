/* M(q)^-1 by whichever factorization data holds (see mass_inverse.h). */
#include "multibody/algorithms/mass_inverse.h"

#include <string.h>

#include "math/small_dense.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/plant_internal.h"

/* 1 if a factorization made at stamp belongs to data's position stage. */
static int current(const teal_mb_data *data, unsigned long stamp) {
  return data->pos_valid && stamp != 0 && stamp == data->pos_stamp;
}

/* TEAL_ESIZE for data made without the blocks (data.c: beyond
 * TEAL_PLANT_DENSE_MAX_BYTES), naming their size. */
static int blocks_not_kept(teal_mb_data *data) {
  const teal_mb_trees *tr = data->trees;
  double mib = (double)teal_mb_trees_block_size(tr) * (double)sizeof(double) / (1024.0 * 1024.0);
  return teal_error_set(&data->err, TEAL_ESIZE,
                        "teal_mb_mass_blocks_factorize: the blocks of M by tree (the largest of "
                        "%d dofs, %d tree%s in all) would take %.0f MiB, more than the %d MiB "
                        "data keeps for them; use the articulated-body factorization "
                        "(teal_mb_articulated_factor)",
                        tr->max_nv, tr->ntrees, tr->ntrees == 1 ? "" : "s", mib,
                        (int)(TEAL_PLANT_DENSE_MAX_BYTES >> 20));
}

/* Mb += diag(added_diagonal), tree by tree (see data_internal.h). */
static void add_diagonal(teal_mb_data *data) {
  const teal_mb_trees *tr = data->trees;
  for (int t = 0; data->added_diagonal && t < tr->ntrees; t++) {
    int m = teal_mb_trees_tree_nv(tr, t);
    const int *dofs = tr->dofs + tr->dof_start[t];
    double *Mt = data->Mb + tr->block_start[t];
    for (int j = 0; j < m; j++) {
      Mt[j * m + j] += data->added_diagonal[dofs[j]];
    }
  }
}

/* Trees up to this many dofs keep their block's inverse in Lb instead of
 * its Cholesky factor: a solve is then one small matrix-vector product,
 * without the substitutions' chain of divisions (the constraint rows of
 * a step solve once per row). */
#define INVERTED_BLOCK_NV 8

/* L (m x m, lower, row-major) replaced by (L L')^-1 = L^-T L^-1: L^-1 by
 * forward substitution with m divisions only, then its Gram product. */
static void invert_factor(double *L, int m) {
  double Li[INVERTED_BLOCK_NV * INVERTED_BLOCK_NV] = {0};
  for (int c = 0; c < m; c++) {
    Li[c * m + c] = 1.0 / L[c * m + c];
  }
  for (int c = 0; c < m; c++) {
    for (int i = c + 1; i < m; i++) {
      double s = 0.0;
      for (int k = c; k < i; k++) {
        s += L[i * m + k] * Li[k * m + c];
      }
      Li[i * m + c] = -s * Li[i * m + i];
    }
  }
  for (int i = 0; i < m; i++) {
    for (int j = 0; j <= i; j++) {
      double s = 0.0;
      for (int k = i; k < m; k++) { /* Li[k][i] and Li[k][j] are nonzero for k >= i >= j */
        s += Li[k * m + i] * Li[k * m + j];
      }
      L[i * m + j] = L[j * m + i] = s;
    }
  }
}

/* Replaces the factors of the small trees' blocks in Lb by the blocks'
 * inverses (blocks_solve tells them apart by size). */
static void invert_small_blocks(teal_mb_data *data) {
  const teal_mb_trees *tr = data->trees;
  for (int t = 0; t < tr->ntrees; t++) {
    int m = teal_mb_trees_tree_nv(tr, t);
    if (m <= INVERTED_BLOCK_NV) {
      invert_factor(data->Lb + tr->block_start[t], m);
    }
  }
}

int teal_mb_mass_blocks_factorize(const teal_plant *plant, teal_mb_data *data, const double *q) {
  if (data && !data->blocks_kept) {
    return blocks_not_kept(data);
  }
  int rc = teal_mb_mass_matrix_blocks(plant, data, data ? data->trees : NULL, q,
                                      data ? data->Mb : NULL);
  if (rc) {
    return rc;
  }
  data->blocks_stamp = 0;
  add_diagonal(data);
  memcpy(data->Lb, data->Mb, teal_mb_trees_block_size(data->trees) * sizeof(double));
  rc = teal_mb_mass_blocks_factor(data->trees, data->Lb, &data->err);
  if (rc == TEAL_OK) {
    invert_small_blocks(data);
    data->blocks_stamp = data->pos_stamp;
    data->minv_blocks = 1;
  }
  return rc;
}

const double *teal_mb_data_mass_blocks(const teal_mb_data *data) {
  return data && current(data, data->blocks_stamp) ? data->Mb : NULL;
}

/* y = A b for the m x m A (a small tree's inverted block). */
static void small_product(const double *A, int m, const double *b, double *y) {
  for (int i = 0; i < m; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++) {
      s += A[i * m + j] * b[j];
    }
    y[i] = s;
  }
}

/* x = M^-1 b tree by tree with the blocks' inverses or factors (x may
 * alias b); a tree whose part of b is zero (a constraint row off it) gets
 * zero without a solve. */
static void blocks_solve(teal_mb_data *data, const double *b, double *x) {
  const teal_mb_trees *tr = data->trees;
  double *y = data->minv_x, bt[INVERTED_BLOCK_NV];
  for (int t = 0; t < tr->ntrees; t++) {
    int m = teal_mb_trees_tree_nv(tr, t), nonzero = 0;
    const int *dofs = tr->dofs + tr->dof_start[t];
    for (int j = 0; j < m; j++) {
      y[j] = b[dofs[j]];
      nonzero |= y[j] != 0.0;
    }
    if (nonzero && m <= INVERTED_BLOCK_NV) {
      memcpy(bt, y, (size_t)m * sizeof(double));
      small_product(data->Lb + tr->block_start[t], m, bt, y);
    } else if (nonzero) {
      teal_mb_mass_block_solve(tr, data->Lb, t, y, NULL);
    }
    for (int j = 0; j < m; j++) {
      x[dofs[j]] = y[j];
    }
  }
}

int teal_mb_forward_dynamics_blocks(const teal_plant *plant, teal_mb_data *data,
                                    const double *q, const double *v, const double *tau,
                                    const teal_spatial_vector *F_app_Bo_W, double *vdot) {
  int rc = teal_mb_mass_blocks_factorize(plant, data, q);
  if (rc == TEAL_OK) {
    rc = teal_mb_inverse_dynamics_ex(plant, data, q, v, data->zero_nv, tau, F_app_Bo_W,
                                     data->bias);
  }
  for (int i = 0; rc == TEAL_OK && i < data->nv; i++) {
    data->bias[i] = -data->bias[i];
  }
  return rc ? rc : teal_mb_mass_inverse(plant, data, data->bias, vdot);
}

int teal_mb_mass_inverse(const teal_plant *plant, teal_mb_data *data, const double *b,
                         double *x) {
  static const char fn[] = "teal_mb_mass_inverse";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "b", b, data->nv, 0)) ||
      (st = teal_mb_data_check_out(data, fn, "x", x))) {
    return st;
  }
  int blocks = current(data, data->blocks_stamp), aba = current(data, data->factor_stamp);
  if (blocks && (data->minv_blocks || !aba)) {
    blocks_solve(data, b, x);
    return TEAL_OK;
  }
  if (aba) {
    return teal_mb_articulated_solve(plant, data, b, NULL, x);
  }
  return teal_error_set(&data->err, TEAL_ESTATE,
                        "%s: data holds no factorization of M at its q (factor first)", fn);
}
