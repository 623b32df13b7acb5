/* The constraint rows of the discrete step (see
 * discrete_constraints_internal.h). */
#include "multibody/plant/discrete_constraints.h"
#include "multibody/plant/discrete_constraints_internal.h"

#include <math.h>
#include <string.h>

#include "math/small_dense.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/tree/forest.h"
#include "solvers/dense_lu.h"

/* SAP's near-rigid threshold: a rigid row's period is beta time steps */
#define NEAR_RIGID_BETA 1.0
/* the inline LU up to this many rows, LAPACK's beyond */
#define SMALL_SOLVE_MAX 24
/* a row whose w is below this fraction of the largest moves no velocity */
#define ROW_RANK_TOLERANCE 1e-12
#define TWO_PI 6.28318530717958647692

/* ---- rows at the step's q --------------------------------------------------------- */

int teal_discrete_rows_capacity(const teal_plant *p) {
  int n = p->nc_rows;
  for (int i = 0; i < p->constraints.n; i++) {
    n += CONSTRAINT(p)[i].force_element >= 0; /* a compliant distance's row */
  }
  return n;
}

int teal_discrete_compliant_rows(const teal_plant *p) {
  return teal_discrete_rows_capacity(p) - p->nc_rows;
}

/* The body poses by body index (the world's the identity) from the
 * position stage of s->data. */
static void gather_poses(const teal_plant_scratch *s) {
  const teal_mb_data *d = s->data;
  s->step.Xc[TEAL_WORLD_BODY] = teal_transform_identity();
  for (int k = 1; k < d->nn; k++) {
    s->step.Xc[d->body[k]] = d->X[k];
  }
}

/* The rows of constraint c: its position errors and G (the kernels give
 * the forces of unit multipliers). */
static void constraint_rows(const teal_plant *p, teal_plant_scratch *s, const constraint_rec *c,
                            const double *q) {
  teal_constraint_kernel_errors(p, c, s->step.Xc, q, s->step.gr + c->row_start);
  teal_constraint_kernel_g_rows(p, c, s->step.Xc, s->data, s->step.Fc,
                                s->step.Gr + (size_t)c->row_start * p->nv);
}

int teal_discrete_rows_fill(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                            const double *q) {
  int m = s->step.nrows_cap;
  const double *enabled = teal_context_numeric_parameter(ctx, p->sys.param_constraints);
  memset(s->step.Gr, 0, (size_t)m * (size_t)p->nv * sizeof(double));
  memset(s->step.gr, 0, (size_t)m * sizeof(double));
  gather_poses(s);
  for (int i = 0; i < m; i++) {
    s->step.kr[i] = INFINITY;
    s->step.cr[i] = 0.0;
  }
  /* a disabled constraint keeps zero rows (no force); a compliant distance,
   * a force element in a continuous plant, gets one row after the rigid
   * ones with its spring's stiffness and damping */
  int extra = p->nc_rows;
  for (int i = 0; i < p->constraints.n; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->force_element < 0) {
      if (c->rows > 0 && enabled[i] != 0.0) {
        constraint_rows(p, s, c, q);
      }
      continue;
    }
    constraint_rec row = *c;
    row.rows = 1;
    row.row_start = extra++;
    if (enabled[i] != 0.0) {
      constraint_rows(p, s, &row, q);
      s->step.kr[row.row_start] = FORCE(p)[c->force_element].k;
      s->step.cr[row.row_start] = FORCE(p)[c->force_element].d;
    }
  }
  s->step.nrows = m;
  return TEAL_OK;
}

/* Y_i = M^-1 G_i' (row i of Y) and w = G_i Y_i for row i, by the
 * factorization in s->data. */
static int row_delassus(const teal_plant *p, teal_plant_scratch *s, int i, double *w) {
  const double *Gi = s->step.Gr + (size_t)i * p->nv;
  double *Yi = s->step.Yr + (size_t)i * p->nv;
  int rc = teal_mb_mass_inverse(p, s->data, Gi, Yi);
  *w = 0.0;
  for (int j = 0; rc == TEAL_OK && j < p->nv; j++) {
    *w += Gi[j] * Yi[j];
  }
  return rc;
}

/* Clamps row i's stiffness and damping to the near-rigid regime: the
 * compliance R = 1 / (h (h k + c)) is kept at or above beta^2 w / (4 pi^2),
 * with the relaxation time c / k of a compliant row kept. */
static void near_rigid(teal_plant_scratch *s, int i, double h, double w) {
  double R_min = NEAR_RIGID_BETA * NEAR_RIGID_BETA * w / (TWO_PI * TWO_PI);
  double k = s->step.kr[i], c = s->step.cr[i];
  double tau = isfinite(k) && k > 0.0 ? c / k : 0.0;
  double R = isfinite(k) ? 1.0 / (h * (h * k + c)) : 0.0;
  if (w <= 0.0) {
    s->step.kr[i] = s->step.cr[i] = 0.0;
    return;
  }
  if (R >= R_min) {
    return; /* softer than the step resolves: kept as it is */
  }
  s->step.kr[i] = 1.0 / (R_min * h * (h + tau));
  s->step.cr[i] = s->step.kr[i] * tau;
}

int teal_discrete_rows_regularize(const teal_plant *p, teal_plant_scratch *s) {
  int rc = TEAL_OK;
  double w_max = 0.0, *w = s->step.lambda_r; /* the multipliers' room holds w meanwhile */
  for (int i = 0; rc == TEAL_OK && i < s->step.nrows; i++) {
    rc = row_delassus(p, s, i, &w[i]);
    w_max = fmax(w_max, w[i]);
  }
  for (int i = 0; rc == TEAL_OK && i < s->step.nrows; i++) {
    /* a row no velocity moves, up to round-off (a planar mechanism's
     * out-of-plane row of a ball constraint), takes no force */
    near_rigid(s, i, p->time_step, w[i] > ROW_RANK_TOLERANCE * w_max ? w[i] : 0.0);
    w[i] = 0.0;
  }
  return rc;
}

/* ---- without contact: the rows alone, by the Woodbury identity ------------------------ */

/* With e = h k g and D = diag(h (k h + c)), the step is M (v - v*) + G' (e +
 * D G v) = 0. Its solution is v = v* - Y (e + D u), Y = M^-1 G' (kept by the
 * regularization), where u = G v solves the m x m system
 * (I + W D) u = G v* - W e, W = G Y. I + W D is nonsingular: W D is similar
 * to the semidefinite D^1/2 W D^1/2. O(m nv + m^3), no nv x nv matrix. */
static void woodbury_system(const teal_plant *p, teal_plant_scratch *s, const double *vstar) {
  int m = s->step.nrows, nv = p->nv;
  double h = p->time_step, *W = s->step.Wr;
  /* W = G Y' is symmetric: its upper triangle, mirrored (Wr holds W first) */
  for (int i = 0; i < m; i++) {
    const double *Gi = s->step.Gr + (size_t)i * nv;
    for (int l = i; l < m; l++) {
      const double *Yl = s->step.Yr + (size_t)l * nv;
      double w = 0.0;
      for (int j = 0; j < nv; j++) {
        w += Gi[j] * Yl[j];
      }
      W[(size_t)i * m + l] = W[(size_t)l * m + i] = w;
    }
  }
  for (int i = 0; i < m; i++) {
    const double *Gi = s->step.Gr + (size_t)i * nv;
    double rhs = 0.0;
    for (int j = 0; j < nv; j++) {
      rhs += Gi[j] * vstar[j];
    }
    for (int l = 0; l < m; l++) {
      double w = W[(size_t)i * m + l];
      rhs -= w * h * s->step.kr[l] * s->step.gr[l];
      W[(size_t)i * m + l] = (i == l) + w * h * (s->step.kr[l] * h + s->step.cr[l]);
    }
    s->step.ur[i] = rhs;
  }
}

int teal_discrete_rows_solve(const teal_plant *p, teal_plant_scratch *s, const double *vstar,
                             double *vnext) {
  int m = s->step.nrows, nv = p->nv, rc = TEAL_OK;
  double h = p->time_step;
  woodbury_system(p, s, vstar);
  if (m <= SMALL_SOLVE_MAX) {
    rc = teal_small_lu_factor(s->step.Wr, m, s->step.pivr) ? TEAL_ESINGULAR : TEAL_OK;
    if (rc == TEAL_OK) {
      teal_small_lu_solve(s->step.Wr, m, s->step.pivr, s->step.ur);
    }
  } else if ((rc = teal_dense_lu_factor(s->step.Wr, m, s->step.pivr, NULL)) == TEAL_OK) {
    rc = teal_dense_lu_solve(s->step.Wr, m, s->step.pivr, s->step.ur, NULL);
  }
  memcpy(vnext, vstar, (size_t)nv * sizeof(double));
  for (int i = 0; rc == TEAL_OK && i < m; i++) {
    double hl = h * s->step.kr[i] * s->step.gr[i] +
                h * (s->step.kr[i] * h + s->step.cr[i]) * s->step.ur[i]; /* h lambda_i */
    const double *Yi = s->step.Yr + (size_t)i * nv;
    for (int j = 0; j < nv; j++) {
      vnext[j] -= Yi[j] * hl;
    }
    s->step.lambda_r[i] = hl / h;
  }
  return rc;
}

/* ---- islands ---------------------------------------------------------------------- */

/* The first tree row i touches (-1 when none). */
static int row_tree(const teal_plant_scratch *s, int nv, int i) {
  const double *Gi = s->step.Gr + (size_t)i * nv;
  for (int j = 0; j < nv; j++) {
    if (Gi[j] != 0.0) {
      return s->step.trees->dof_tree[j];
    }
  }
  return -1;
}

void teal_discrete_rows_join(teal_plant_scratch *s) {
  int nv = s->step.trees->nv;
  for (int i = 0; i < s->step.nrows; i++) {
    const double *Gi = s->step.Gr + (size_t)i * nv;
    int t0 = row_tree(s, nv, i);
    for (int j = 0; t0 >= 0 && j < nv; j++) {
      if (Gi[j] != 0.0) {
        int *uf = s->step.uf;
        uf[teal_island_find(uf, s->step.trees->dof_tree[j])] = teal_island_find(uf, t0);
      }
    }
  }
}

void teal_discrete_rows_bucket(teal_plant_scratch *s) {
  int nt = s->step.trees->ntrees, nv = s->step.trees->nv, *off = s->step.row_off;
  memset(off, 0, (size_t)(nt + 1) * sizeof(int));
  for (int i = 0; i < s->step.nrows; i++) {
    int t = row_tree(s, nv, i);
    off[(t >= 0 ? teal_island_find(s->step.uf, t) : -1) + 1] += t >= 0;
  }
  for (int t = 0; t < nt; t++) {
    off[t + 1] += off[t];
  }
  memcpy(s->step.cursor, off, (size_t)nt * sizeof(int));
  for (int i = 0; i < s->step.nrows; i++) {
    int t = row_tree(s, nv, i);
    if (t >= 0) {
      s->step.island_rows[s->step.cursor[teal_island_find(s->step.uf, t)]++] = i;
    }
  }
}

/* ---- the rows in an island's Newton problem ------------------------------------------ */

/* The island's local index of plant dof j. */
static int local_dof(const teal_plant_scratch *s, int j) {
  return s->step.tree_off[s->step.trees->dof_tree[j]] + s->step.trees->dof_local[j];
}

/* G_i v over the island's local velocities v. */
static double row_velocity(const teal_plant_scratch *s, int nv, int i, const double *v) {
  const double *Gi = s->step.Gr + (size_t)i * nv;
  double acc = 0.0;
  for (int j = 0; j < nv; j++) {
    if (Gi[j] != 0.0) { /* the island holds only the trees of nonzero columns */
      acc += Gi[j] * v[local_dof(s, j)];
    }
  }
  return acc;
}

/* lambda_i = k (g + h G_i v) + c G_i v. */
static double row_force(const teal_plant_scratch *s, int i, double h, double Gv) {
  return s->step.kr[i] * (s->step.gr[i] + h * Gv) + s->step.cr[i] * Gv;
}

/* A += a G_i' G_i over the island's local dofs. */
static void add_row_outer(const teal_plant_scratch *s, int nv, int i, double a, double *A, int m) {
  const double *Gi = s->step.Gr + (size_t)i * nv;
  for (int j = 0; j < nv; j++) {
    if (Gi[j] == 0.0) {
      continue;
    }
    double *Aj = A + (size_t)local_dof(s, j) * m;
    for (int l = 0; l < nv; l++) {
      if (Gi[l] != 0.0) {
        Aj[local_dof(s, l)] += a * Gi[j] * Gi[l];
      }
    }
  }
}

void teal_discrete_rows_add(const teal_plant *p, const teal_plant_scratch *s, const int *rows,
                            int nr, const double *v, double *r, double *A, int m) {
  int nv = p->nv;
  double h = p->time_step;
  for (int k = 0; k < nr; k++) {
    int i = rows[k];
    const double *Gi = s->step.Gr + (size_t)i * nv;
    double f = h * row_force(s, i, h, row_velocity(s, nv, i, v));
    for (int j = 0; j < nv; j++) {
      if (Gi[j] != 0.0) {
        r[local_dof(s, j)] += Gi[j] * f;
      }
    }
    if (A) {
      add_row_outer(s, nv, i, h * (s->step.kr[i] * h + s->step.cr[i]), A, m);
    }
  }
}

void teal_discrete_rows_multipliers(const teal_plant *p, teal_plant_scratch *s, const int *rows,
                                    int nr, const double *v) {
  for (int k = 0; k < nr; k++) {
    int i = rows[k];
    s->step.lambda_r[i] = row_force(s, i, p->time_step, row_velocity(s, p->nv, i, v));
  }
}

/* ---- the multipliers after the step ------------------------------------------------- */

int teal_plant_get_discrete_constraint_multipliers(const teal_plant *plant, const teal_context *ctx,
                                                   double *lambda) {
  const char *fn = "teal_plant_get_discrete_constraint_multipliers";
  const teal_context *own = plant && ctx ? teal_plant_own_context(plant, ctx) : NULL;
  if (!own) {
    return teal_plant_bad_call(plant, ctx, fn);
  }
  if (!lambda || !plant->sys.discrete) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s", fn,
                                     lambda ? "the plant is continuous (its multipliers are "
                                              "teal_plant_get_constraint_multipliers')"
                                            : "lambda is NULL");
  }
  const double *next;
  int rc = teal_plant_sync_contact_settings(plant, own);
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(plant->system, own, plant->sys.ce_step, (const void **)&next);
  }
  if (rc == TEAL_OK) {
    memcpy(lambda, next + plant->nq + plant->nv, (size_t)plant->nc_rows * sizeof(double));
  }
  return rc;
}

/* Why constraint c has no discrete tension, or NULL when it has one. */
static const char *no_tension(const teal_plant *p, int c) {
  if (c < 0 || c >= p->constraints.n) {
    return "is not a constraint of the plant";
  }
  return CONSTRAINT(p)[c].force_element < 0 ? "is not a compliant distance constraint" : NULL;
}

int teal_plant_get_discrete_constraint_tension(const teal_plant *plant, const teal_context *ctx,
                                               int c, double *tension) {
  const char *fn = "teal_plant_get_discrete_constraint_tension";
  const teal_context *own = plant && ctx ? teal_plant_own_context(plant, ctx) : NULL;
  if (!own) {
    return teal_plant_bad_call(plant, ctx, fn);
  }
  if (!tension || !plant->sys.discrete) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s", fn,
                                     tension ? "the plant is continuous (a compliant distance "
                                               "is a force element there)"
                                             : "tension is NULL");
  }
  const char *why = no_tension(plant, c);
  if (why) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: constraint %d %s", fn, c, why);
  }
  /* the compliant rows follow the held dofs' forces, in constraint order */
  int row = 0;
  for (int i = 0; i < c; i++) {
    row += CONSTRAINT(plant)[i].force_element >= 0;
  }
  const double *next;
  int rc = teal_plant_eval_discrete_step(plant, own, &next);
  if (rc == TEAL_OK) {
    *tension = next[plant->nq + plant->nv + plant->nc_rows + plant->nv + row];
  }
  return rc;
}
