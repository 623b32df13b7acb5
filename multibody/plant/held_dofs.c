/* The held dofs' rows in the dynamics (see held_dofs_internal.h): with
 * Y = M^-1 E' and the unconstrained vdot0, the multipliers solve
 * (E M^-1 E') lambda = E vdot0 - a, and vdot = vdot0 - Y lambda. E M^-1 E'
 * is the held block of M^-1; the columns of Y come from the factorization
 * the forward dynamics leaves behind, O(n) each. A discrete step applies
 * the same to its velocity v* with the target v+ = 0 and M + h D for M. */
#include "multibody/plant/held_dofs_internal.h"

#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/constraints/rank_revealing_solve.h"
#include "multibody/tree/joints.h"

int teal_plant_num_prescribed(const teal_plant *p) {
  int n = 0;
  for (int j = 0; j < p->joints.n; j++) {
    n += JOINT(p)[j].motion != NULL;
  }
  return n;
}

/* Y, S, the multipliers, indices and targets, then nv doubles for
 * teal_plant_calc_motion_forces' unconstrained accelerations. */
static size_t held_doubles(const teal_plant *p, int k) {
  return (size_t)k * ((size_t)p->nv + (size_t)k + 3) + (size_t)p->nv;
}

double *teal_plant_held_vdot_scratch(const teal_plant *p, teal_plant_scratch *s) {
  return s->held_work + (s->held_doubles - (size_t)p->nv);
}

int teal_plant_held_reserve(teal_plant_scratch *s, const teal_plant *p, int k) {
  size_t need = held_doubles(p, k);
  if (k <= 0 || s->held_doubles >= need) {
    return TEAL_OK;
  }
  double *w = teal_calloc(need, sizeof(double));
  if (!w) {
    return TEAL_ENOMEM;
  }
  teal_free(s->held_work);
  s->held_work = w;
  s->held_doubles = need;
  return TEAL_OK;
}

static int joint_nv(const joint_rec *j) {
  return teal_joint_type_get(j->kind)->nv;
}

int teal_plant_num_held(const teal_plant *p, const teal_context *ctx) {
  const double *locks = teal_context_numeric_parameter(ctx, p->sys.param_locks);
  int n = 0;
  for (int i = 0; i < p->nv; i++) {
    n += locks[i] != 0.0;
  }
  return n + teal_plant_num_prescribed(p);
}

/* The held dofs' v indices (idx) and target accelerations (a), with
 * Baumgarte's feedback on the prescribed ones' errors when set; returns
 * their number, or a negative status reported on ctx. */
static int held_targets(const teal_plant *p, const teal_context *ctx, double *idx, double *a) {
  const double *locks = teal_context_numeric_parameter(ctx, p->sys.param_locks);
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  double al = p->baumgarte_alpha, be = p->baumgarte_beta;
  int k = 0;
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *J = &JOINT(p)[j];
    if (J->motion) {
      double m[3];
      int rc = teal_plant_motion_at(p, ctx, j, teal_context_time(ctx), m);
      if (rc) {
        return rc;
      }
      double e = q[J->q_start] - m[0], edot = v[J->v_start] - m[1];
      idx[k] = J->v_start;
      a[k++] = m[2] - 2.0 * al * edot - be * be * e;
      continue;
    }
    for (int d = 0; d < joint_nv(J); d++) {
      if (locks[J->v_start + d] != 0.0) { /* a discrete step's target is v+ = 0 */
        idx[k] = J->v_start + d;
        a[k++] = p->sys.discrete ? 0.0 : -2.0 * al * v[J->v_start + d];
      }
    }
  }
  return k;
}

/* Y (k x nv): row r is M^-1 e_idx[r]. */
static int inverse_columns(const teal_plant *p, teal_plant_scratch *s, const double *idx, int k,
                           double *Y) {
  for (int r = 0; r < k; r++) {
    double *y = Y + (size_t)r * (size_t)p->nv;
    memset(y, 0, (size_t)p->nv * sizeof(double));
    y[(int)idx[r]] = 1.0;
    int rc = teal_mb_mass_inverse(p, s->data, y, y);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

int teal_plant_hold_dofs(const teal_plant *p, const teal_context *ctx, teal_plant_scratch *s,
                         double *vdot, double *lambda) {
  int nv = p->nv, k = teal_plant_num_held(p, ctx);
  if (lambda) {
    memset(lambda, 0, (size_t)nv * sizeof(double));
  }
  if (k == 0) {
    return TEAL_OK;
  }
  if (s->held_doubles < held_doubles(p, k)) {
    return teal_context_report_error(ctx, TEAL_ESTATE,
                                     "plant: no work memory for %d held dofs "
                                     "(lock joints through teal_plant_lock_joint)",
                                     k);
  }
  double *Y = s->held_work, *S = Y + (size_t)k * (size_t)nv, *r = S + (size_t)k * (size_t)k;
  double *idx = r + k, *a = idx + k;
  int rc = held_targets(p, ctx, idx, a);
  if (rc < 0) {
    return rc;
  }
  if ((rc = inverse_columns(p, s, idx, k, Y)) != TEAL_OK) {
    return teal_context_report_error(ctx, rc, "plant: M^-1 for the held dofs failed: %s",
                                     teal_mb_data_error(s->data)->message);
  }
  for (int i = 0; i < k; i++) {
    r[i] = vdot[(int)idx[i]] - a[i];
    for (int l = 0; l < k; l++) {
      S[(size_t)i * (size_t)k + (size_t)l] = Y[(size_t)i * (size_t)nv + (size_t)idx[l]];
    }
  }
  if ((rc = teal_rr_cholesky_solve(S, k, r, 0.0, NULL)) != TEAL_OK) {
    return teal_context_report_error(ctx, rc, "plant: the held dofs' system is not finite");
  }
  for (int i = 0; i < k; i++) {
    const double *y = Y + (size_t)i * (size_t)nv;
    for (int c = 0; c < nv; c++) {
      vdot[c] -= r[i] * y[c];
    }
    if (lambda) {
      lambda[(int)idx[i]] = -r[i];
    }
  }
  for (int i = 0; i < k; i++) { /* exactly on target, not within round-off */
    vdot[(int)idx[i]] = a[i];
  }
  return TEAL_OK;
}

int teal_plant_prescribe_held(const teal_plant *p, const teal_context *ctx, double *q, double *v) {
  const double *locks = teal_context_numeric_parameter(ctx, p->sys.param_locks);
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *J = &JOINT(p)[j];
    if (J->motion) {
      double m[3];
      int rc = teal_plant_motion_at(p, ctx, j, teal_context_time(ctx), m);
      if (rc) {
        return rc;
      }
      q[J->q_start] = m[0];
      v[J->v_start] = m[1];
      continue;
    }
    for (int d = 0; d < joint_nv(J); d++) {
      if (locks[J->v_start + d] != 0.0) {
        v[J->v_start + d] = 0.0;
      }
    }
  }
  return TEAL_OK;
}

double teal_plant_held_power(const teal_plant *p, const teal_context *ctx,
                             const teal_plant_scratch *s) {
  int k = teal_plant_num_held(p, ctx);
  const double *r = s->held_work + (size_t)k * (size_t)p->nv + (size_t)k * (size_t)k;
  const double *idx = r + k, *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  double power = 0.0;
  for (int i = 0; i < k; i++) {
    power -= r[i] * v[(int)idx[i]]; /* the force on dof idx[i] is -lambda_i */
  }
  return power;
}
