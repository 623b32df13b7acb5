/* The held dofs' rows in the dynamics (see held_dofs_internal.h). The rows
 * R are the held dofs' unit rows E and, in a continuous plant with
 * constraints, the constraint rows G after them, with targets a (held:
 * their accelerations; constraints: the bias b). With Y = M^-1 R' and the
 * unconstrained vdot0 the multipliers solve (R M^-1 R') lambda = R vdot0 -
 * a, and vdot = vdot0 - Y lambda: one solve, so held dofs and constraints
 * act on each other. The columns of Y come from the factorization the
 * forward dynamics leaves behind, O(n) each, and redundant rows are
 * dropped by the pivoted solve teal_dense_psd_factor_solve. Baumgarte's feedback, when set, moves
 * every target by -2 alpha edot - beta^2 e. A discrete step applies the
 * unit rows alone to its velocity v* with the target v+ = 0 (locked) or
 * qdot_p(t + h) (prescribed) and M + h D for M (its constraints are the
 * discrete step's own); lambda is then the impulse on each held dof. */
#include "multibody/plant/held_dofs_internal.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/tree/joints.h"
#include "solvers/dense_psd.h"

int teal_plant_num_prescribed(const teal_plant *p) {
  int n = 0;
  for (int j = 0; j < p->joints.n; j++) {
    n += JOINT(p)[j].motion != NULL;
  }
  return n;
}

static int baumgarte_on(const teal_plant *p) {
  return p->baumgarte_alpha > 0.0 || p->baumgarte_beta > 0.0;
}

/* The constraint rows solved here with k held dofs: all of them when the
 * plant is continuous and something of ours is active, else none (the
 * constraint stage solves them alone). */
static int constraint_rows(const teal_plant *p, int k) {
  return !p->sys.discrete && (k > 0 || baumgarte_on(p)) ? p->nc_rows : 0;
}

/* The work's parts for k held dofs and m constraint rows (n = k + m). */
typedef struct held_work {
  double *G;   /* m x nv: the constraint rows */
  double *Y;   /* n x nv: M^-1 of each row */
  double *S;   /* n x n */
  double *r;   /* n: the right-hand side, then lambda */
  double *idx; /* k: the held dofs' v indices */
  double *a;   /* n: the targets */
  double *e;   /* 2 m: position and velocity errors */
  double *f;   /* 2 n: the PSD solve's work */
} held_work;

static size_t held_doubles(const teal_plant *p, int k) {
  size_t m = (size_t)constraint_rows(p, k), n = (size_t)k + m, nv = (size_t)p->nv;
  return m * nv + n * nv + n * n + 5 * n + 2 * m + nv;
}

static held_work split(const teal_plant *p, double *w, int k, int m) {
  size_t n = (size_t)(k + m), nv = (size_t)p->nv;
  held_work h;
  h.G = w;
  h.Y = h.G + (size_t)m * nv;
  h.S = h.Y + n * nv;
  h.r = h.S + n * n;
  h.idx = h.r + n;
  h.a = h.idx + n;
  h.e = h.a + n;
  h.f = h.e + 2 * (size_t)m;
  return h;
}

double *teal_plant_held_vdot_scratch(const teal_plant *p, const teal_context *ctx,
                                     teal_plant_scratch *s, int k) {
  if (teal_plant_held_reserve(s, p, k) != TEAL_OK) {
    teal_context_report_error(ctx, TEAL_ENOMEM, "plant: no memory for %d held dofs", k);
    return NULL;
  }
  return s->held_work + (s->held_doubles - (size_t)p->nv);
}

int teal_plant_held_reserve(teal_plant_scratch *s, const teal_plant *p, int k) {
  size_t need = held_doubles(p, k);
  if ((k <= 0 && constraint_rows(p, 0) == 0) || s->held_doubles >= need) {
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
    if (J->motion) { /* a discrete step's target is v+ = qdot_p(t + h) */
      double m[3], t = teal_context_time(ctx) + (p->sys.discrete ? p->time_step : 0.0);
      int rc = teal_plant_motion_at(p, ctx, j, t, m);
      if (rc) {
        return rc;
      }
      double e = q[J->q_start] - m[0], edot = v[J->v_start] - m[1];
      idx[k] = J->v_start;
      a[k++] = p->sys.discrete ? m[1] : m[2] - 2.0 * al * edot - be * be * e;
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

/* The constraint rows G and their targets b - 2 alpha G v - beta^2 perr. */
static int constraint_targets(const teal_plant *p, const teal_context *ctx, int m, held_work *h,
                              double *a) {
  if (m == 0) {
    return TEAL_OK;
  }
  int rc = teal_plant_calc_constraint_jacobian(p, ctx, h->G);
  rc = rc ? rc : teal_plant_calc_constraint_bias(p, ctx, a);
  if (rc || !baumgarte_on(p)) {
    return rc;
  }
  double *perr = h->e, *verr = h->e + m, al = p->baumgarte_alpha, be = p->baumgarte_beta;
  rc = teal_plant_calc_constraint_position_errors(p, ctx, perr);
  rc = rc ? rc : teal_plant_calc_constraint_velocity_errors(p, ctx, verr);
  for (int i = 0; rc == TEAL_OK && i < m; i++) {
    a[i] -= 2.0 * al * verr[i] + be * be * perr[i];
  }
  return rc;
}

/* Y row i = M^-1 R_i' (R_i: the unit row of dof idx[i] for i < k, else
 * constraint row i - k). */
static int inverse_rows(const teal_plant *p, teal_plant_scratch *s, const held_work *h, int k,
                        int n) {
  size_t nv = (size_t)p->nv;
  for (int i = 0; i < n; i++) {
    double *y = h->Y + (size_t)i * nv;
    if (i < k) {
      memset(y, 0, nv * sizeof(double));
      y[(int)h->idx[i]] = 1.0;
    } else {
      memcpy(y, h->G + (size_t)(i - k) * nv, nv * sizeof(double));
    }
    int rc = teal_mb_mass_inverse(p, s->data, y, y);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

/* R_i . x for a vector x of nv values. */
static double row_dot(const teal_plant *p, const held_work *h, int k, int i, const double *x) {
  if (i < k) {
    return x[(int)h->idx[i]];
  }
  const double *g = h->G + (size_t)(i - k) * (size_t)p->nv;
  double acc = 0.0;
  for (int j = 0; j < p->nv; j++) {
    acc += g[j] * x[j];
  }
  return acc;
}

/* Relative residual above which dropped rows conflict (as the
 * constraints-only solve, multibody/constraints/constraint_solve.c). */
#define HELD_CONSISTENCY_TOLERANCE 1e-8

/* S = R Y' and r = R vdot - a, then lambda into r; *scale receives the
 * problem's scale max|r| + max|S_ii| max|lambda| for the residual check. */
static int solve_rows(const teal_plant *p, const held_work *h, int k, int n, const double *vdot,
                      double *scale) {
  double rmax = 0.0, smax = 0.0, lmax = 0.0;
  for (int i = 0; i < n; i++) {
    h->r[i] = row_dot(p, h, k, i, vdot) - h->a[i];
    for (int l = 0; l < n; l++) {
      h->S[(size_t)i * (size_t)n + (size_t)l] =
          row_dot(p, h, k, i, h->Y + (size_t)l * (size_t)p->nv);
    }
    rmax = fmax(rmax, fabs(h->r[i]));
    smax = fmax(smax, fabs(h->S[(size_t)i * (size_t)n + (size_t)i]));
  }
  int rc = teal_dense_psd_factor_solve(h->S, n, h->r, 0.0, h->f, NULL, NULL);
  for (int i = 0; i < n; i++) {
    lmax = fmax(lmax, fabs(h->r[i]));
  }
  *scale = rmax + smax * lmax;
  return rc;
}

/* The redundant rows the solve dropped must be met by the others: after
 * the update R vdot = a up to round-off, else the set conflicts. */
static int check_consistent(const teal_plant *p, const teal_context *ctx, const held_work *h, int k,
                            int n, const double *vdot, double scale) {
  for (int i = k; i < n; i++) {
    double residual = fabs(row_dot(p, h, k, i, vdot) - h->a[i]);
    if (!(residual <= HELD_CONSISTENCY_TOLERANCE * (scale > 0.0 ? scale : 1.0))) {
      return teal_context_report_error(
          ctx, TEAL_ESINGULAR,
          "plant: conflicting redundant constraints with the held dofs at t = %g: constraint "
          "row %d misses its acceleration by %g",
          teal_context_time(ctx), i - k, residual);
    }
  }
  return TEAL_OK;
}

/* The rows and their targets, or a negative status reported on ctx. */
static int gather_rows(const teal_plant *p, const teal_context *ctx, held_work *h, int k, int m) {
  int rc = held_targets(p, ctx, h->idx, h->a);
  if (rc < 0) {
    return rc;
  }
  rc = constraint_targets(p, ctx, m, h, h->a + k);
  return rc ? teal_context_report_error(ctx, rc,
                                        "plant: the constraint rows with the held dofs "
                                        "failed (%s)",
                                        teal_strerror(rc))
            : TEAL_OK;
}

int teal_plant_hold_dofs(const teal_plant *p, const teal_context *ctx, teal_plant_scratch *s,
                         double *vdot, double *lambda) {
  int nv = p->nv, k = teal_plant_num_held(p, ctx), m = constraint_rows(p, k), n = k + m;
  if (lambda) {
    memset(lambda, 0, (size_t)nv * sizeof(double));
  }
  if (n == 0) {
    return TEAL_OK;
  }
  /* the work is made when locking, but a context copied from a locked one
   * (its lock parameter with it) gets it here, once */
  if (s->held_doubles < held_doubles(p, k) && teal_plant_held_reserve(s, p, k) != TEAL_OK) {
    return teal_context_report_error(ctx, TEAL_ENOMEM,
                                     "plant: no memory for the solve of %d "
                                     "held dofs",
                                     k);
  }
  held_work h = split(p, s->held_work, k, m);
  int rc = gather_rows(p, ctx, &h, k, m);
  if (rc) {
    return rc;
  }
  if ((rc = inverse_rows(p, s, &h, k, n)) != TEAL_OK) {
    return teal_context_report_error(ctx, rc, "plant: M^-1 for the held dofs failed: %s",
                                     teal_mb_data_error(s->data)->message);
  }
  double scale = 0.0;
  if ((rc = solve_rows(p, &h, k, n, vdot, &scale)) != TEAL_OK) {
    return teal_context_report_error(ctx, rc, "plant: the held dofs' system is not finite");
  }
  for (int i = 0; i < n; i++) {
    const double *y = h.Y + (size_t)i * (size_t)nv;
    for (int c = 0; c < nv; c++) {
      vdot[c] -= h.r[i] * y[c];
    }
  }
  if ((rc = check_consistent(p, ctx, &h, k, n, vdot, scale)) != TEAL_OK) {
    return rc;
  }
  for (int i = 0; i < k; i++) { /* exactly on target, not within round-off */
    vdot[(int)h.idx[i]] = h.a[i];
    if (lambda) {
      lambda[(int)h.idx[i]] = -h.r[i];
    }
  }
  return TEAL_OK;
}

void teal_plant_held_constraint_multipliers(const teal_plant *p, const teal_context *ctx,
                                            const teal_plant_scratch *s, double *lambda) {
  int k = teal_plant_num_held(p, ctx), m = constraint_rows(p, k);
  memset(lambda, 0, (size_t)p->nc_rows * sizeof(double));
  if (m > 0) {
    memcpy(lambda, split(p, s->held_work, k, m).r + k, (size_t)m * sizeof(double));
  }
}

double teal_plant_held_power(const teal_plant *p, const teal_context *ctx,
                             const teal_plant_scratch *s) {
  int k = teal_plant_num_held(p, ctx);
  held_work h = split(p, s->held_work, k, constraint_rows(p, k));
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  double power = 0.0;
  for (int i = 0; i < k; i++) {
    power -= h.r[i] * v[(int)h.idx[i]]; /* the force on dof idx[i] is -lambda_i */
  }
  return power;
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
