/* The continuous plant's projection of its constraint rows after every
 * accepted step (Simbody's projectQ then projectU, constraint_projection.h),
 * and of each trial step's error estimate onto the rows' tangent (eqs.
 * 10.12 and 10.14, with the same rows and weights):
 * the rows are the enabled rigid constraints' (constraint_operators.h),
 * evaluated at the state being projected and weighted by the context's
 * error weights (error_weights.h), with zero velocity weights on
 * the held dofs (locked or prescribed, already
 * set by prescribeQ/prescribeU). The tolerance is the context's accuracy,
 * which teal_simulator_set_accuracy sets to the integrator's, so the
 * constraint error after every step stays within what the integrator is
 * asked for (1e-4, the simulator's default accuracy, while it is unset). */
#include "multibody/plant/plant_projection_internal.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context_access.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_projection.h"
#include "multibody/plant/error_weights_internal.h"
#include "multibody/tree/topology.h"

/* The tolerance when the context's accuracy is unset (a simulator sets it
 * only through teal_simulator_set_accuracy): the simulator's default
 * accuracy. */
#define TEAL_PLANT_DEFAULT_PROJECTION_TOL 1e-4

/* What the row callbacks need: the plant, the context whose q is projected
 * in place, the scratch's work and the rows' weights (error_weights.h: the
 * qerr weights while projecting q, the uerr weights while projecting v). */
typedef struct proj_user {
  const teal_plant *p;
  teal_context *ctx;
  double *qdot;        /* nq */
  const double *row_w; /* m */
} proj_user;

static int rows_errors(const double *q, double *perr, void *user) {
  const proj_user *u = user;
  (void)q; /* the context's own q */
  int rc = teal_plant_calc_constraint_position_errors(u->p, u->ctx, perr);
  for (int i = 0; rc == TEAL_OK && i < u->p->nc_rows; i++) {
    perr[i] *= u->row_w[i];
  }
  return rc;
}

static int rows_jacobian(const double *q, double *P, void *user) {
  const proj_user *u = user;
  (void)q;
  int rc = teal_plant_calc_constraint_jacobian(u->p, u->ctx, P);
  for (int i = 0; rc == TEAL_OK && i < u->p->nc_rows; i++) {
    for (int k = 0; k < u->p->nv; k++) {
      P[(size_t)i * (size_t)u->p->nv + (size_t)k] *= u->row_w[i];
    }
  }
  return rc;
}

/* q += N(q) dv, quaternions renormalized; the q stamp moves so the
 * operators see the new q. */
static int rows_advance(double *q, const double *dv, void *user) {
  const proj_user *u = user;
  int rc = teal_plant_map_v_to_qdot(u->p, u->ctx, q, dv, u->qdot, "plant projection");
  if (rc) {
    return rc;
  }
  double *qm = teal_context_q_mut(u->ctx);
  for (int i = 0; i < u->p->nq; i++) {
    qm[i] += u->qdot[i];
  }
  return teal_plant_normalize_q(u->p, qm);
}

/* the solves' work, then qdot (nq), the weights (nv) and the error
 * estimate's two velocity-space vectors (nv each) */
size_t teal_plant_projection_doubles(const teal_plant *p) {
  int m = p->nc_rows;
  return m ? teal_projection_work_doubles(m, p->nv) + (size_t)p->nq + 3 * (size_t)p->nv : 0;
}

int teal_plant_projection_reserve(teal_plant_scratch *s, const teal_plant *p) {
  size_t n = teal_plant_projection_doubles(p);
  if (n == 0 || s->proj_work) {
    return TEAL_OK;
  }
  s->proj_work = teal_calloc(n, sizeof(double));
  return s->proj_work ? TEAL_OK : TEAL_ENOMEM;
}

/* W_u^-2 from the context's u weights, zero on the held dofs. */
static void held_weights(const teal_plant *p, const teal_context *ctx, double *w) {
  const double *locks = teal_context_numeric_parameter(ctx, p->sys.param_locks);
  const double *wu = teal_plant_error_weights(p, ctx);
  for (int i = 0; i < p->nv; i++) {
    w[i] = locks[i] != 0.0 ? 0.0 : 1.0 / (wu[i] * wu[i]);
  }
  for (int j = 0; j < p->joints.n; j++) {
    if (JOINT(p)[j].motion) {
      w[JOINT(p)[j].v_start] = 0.0;
    }
  }
}

/* The rows of p's enabled rigid constraints at ctx's state with the
 * projection's weights (the rows' q weights first; the caller switches u's
 * row_w to the v weights for velocity work) and its options; setup_rows
 * fails only when ctx has no projection scratch. */
typedef struct proj_setup {
  proj_user u;
  teal_projection_rows rows;
  teal_projection_options opt;
  double *work;
} proj_setup;

static int setup_rows(const teal_plant *p, const teal_context *ctx, proj_setup *ps) {
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s || !s->proj_work) {
    return teal_plant_no_scratch(ctx);
  }
  double *work = s->proj_work, *qdot = work + teal_projection_work_doubles(p->nc_rows, p->nv);
  double *w = qdot + p->nq;
  held_weights(p, ctx, w);
  /* the hook's context is the leaf the simulator is projecting: writable */
  ps->u = (proj_user){p, (teal_context *)ctx, qdot, teal_plant_error_weights(p, ctx) + p->nv};
  ps->rows = (teal_projection_rows){p->nc_rows,    p->nq,        p->nv, rows_errors,
                                    rows_jacobian, rows_advance, &ps->u};
  double accuracy = teal_context_accuracy(ctx);
  ps->opt = (teal_projection_options){accuracy > 0.0 ? accuracy : TEAL_PLANT_DEFAULT_PROJECTION_TOL,
                                      0, w};
  ps->work = work;
  return TEAL_OK;
}

int teal_plant_project_constraints(const teal_plant *p, const teal_context *ctx,
                                   teal_continuous_view *x) {
  if (p->nc_rows == 0 || p->projection_off) {
    return TEAL_OK;
  }
  proj_setup ps;
  int rc = setup_rows(p, ctx, &ps);
  if (rc) {
    return rc;
  }
  teal_error err = {TEAL_OK, ""};
  rc = teal_project_positions(&ps.rows, &ps.opt, x->q, ps.work, NULL, &err);
  if (rc == TEAL_OK) {
    teal_context_v_mut(ps.u.ctx); /* v changes below */
    ps.u.row_w += p->nc_rows;
    rc = teal_project_velocities(&ps.rows, &ps.opt, x->q, NULL, x->v, ps.work, &err);
  }
  return rc ? teal_context_report_error(ctx, rc, "plant: constraint projection at t = %g: %s",
                                        teal_context_time(ctx), err.message)
            : TEAL_OK;
}

/* The position part of the error estimate (eq. 10.12 in velocity space):
 * ev = N+ e_q, its normal part removed, and e_q moved by N of the change. */
static int project_q_error(const teal_plant *p, const teal_context *ctx,
                           const teal_projection_rows *rows, const teal_projection_options *opt,
                           double *eq, double *work, teal_error *err) {
  proj_user *u = rows->user;
  double *ev = u->qdot + p->nq + p->nv, *ev0 = ev + p->nv;
  int rc = teal_plant_qdot_to_v(p->system, ctx, eq, ev, (void *)p);
  if (rc) {
    return rc;
  }
  memcpy(ev0, ev, (size_t)p->nv * sizeof(double));
  if ((rc = teal_project_error_tangent(rows, opt, teal_context_q(ctx), ev, work, err))) {
    return rc;
  }
  for (int i = 0; i < p->nv; i++) {
    ev[i] -= ev0[i];
  }
  rc = teal_plant_map_v_to_qdot(p, ctx, teal_context_q(ctx), ev, u->qdot, "plant error projection");
  for (int i = 0; rc == TEAL_OK && i < p->nq; i++) {
    eq[i] += u->qdot[i];
  }
  return rc;
}

int teal_plant_project_error(const teal_system *sys, const teal_context *ctx,
                             teal_continuous_view *e, void *user) {
  (void)sys;
  const teal_plant *p = user;
  if (p->nc_rows == 0 || p->projection_off) {
    return TEAL_OK;
  }
  /* the rows weighted as the state projection weights them: q's, then v's */
  proj_setup ps;
  int rc = setup_rows(p, ctx, &ps);
  if (rc) {
    return rc;
  }
  teal_error err = {TEAL_OK, ""};
  rc = project_q_error(p, ctx, &ps.rows, &ps.opt, e->q, ps.work, &err);
  if (rc == TEAL_OK) {
    ps.u.row_w += p->nc_rows;
    rc = teal_project_error_tangent(&ps.rows, &ps.opt, teal_context_q(ctx), e->v, ps.work, &err);
  }
  /* the velocity maps report on ctx themselves; the solves into err */
  if (rc == TEAL_OK || err.code == TEAL_OK) {
    return rc;
  }
  return teal_context_report_error(ctx, rc, "plant: error estimate projection at t = %g: %s",
                                   teal_context_time(ctx), err.message);
}
