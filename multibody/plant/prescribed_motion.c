/* Prescribed joint motion: its declaration, its evaluation, and the forces
 * that produce it (see prescribed_motion.h; the dynamics are held_dofs.c's). */
#include "multibody/plant/prescribed_motion.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/plant/held_dofs_internal.h"
#include "multibody/tree/joints.h"

/* ---- declaration ---------------------------------------------------------- */

/* The joint of a prescribe call, or NULL with a sticky error. */
static joint_rec *motion_joint(teal_plant *p, int joint, int given, const char *what) {
  int rc = teal_plant_check_open(p, "the prescribed motion of", what);
  if (rc) {
    return NULL;
  }
  char num[32];
  snprintf(num, sizeof(num), "%d", joint);
  if (joint < 0 || joint >= p->joints.n) {
    teal_plant_fail(p, TEAL_EINVAL,
                    "plant prescribe_joint_motion: joint %s is not a joint of "
                    "the plant%s",
                    num, "");
    return NULL;
  }
  joint_rec *J = &JOINT(p)[joint];
  const teal_joint_type *t = teal_joint_type_get(J->kind);
  if (!given) {
    teal_plant_fail(p, TEAL_EINVAL,
                    "plant prescribe_joint_motion: joint \"%s\": the %s is "
                    "NULL",
                    J->name, what);
  } else if (t->nq != 1 || t->nv != 1) {
    teal_plant_fail(p, TEAL_EINVAL,
                    "plant prescribe_joint_motion: joint \"%s\" is %s; only "
                    "1-dof joints (revolute, prismatic) can be prescribed",
                    J->name, t->name);
  } else if (J->motion) {
    teal_plant_fail(p, TEAL_EINVAL,
                    "plant prescribe_joint_motion: joint \"%s\" already has "
                    "a prescribed motion%s",
                    J->name, "");
  } else {
    return J;
  }
  return NULL;
}

int teal_plant_prescribe_joint_motion(teal_plant *plant, int joint, teal_joint_motion_fn fn,
                                      void *user) {
  joint_rec *J = motion_joint(plant, joint, fn != NULL, "motion callback");
  if (!J) {
    return plant ? plant->err.code : TEAL_EINVAL;
  }
  J->motion = fn;
  J->motion_user = user;
  return TEAL_OK;
}

/* q_p and its first two derivatives from a one-row piecewise polynomial. */
static int trajectory_motion(double t, double *q, double *qdot, double *qddot, void *user) {
  const teal_piecewise_polynomial *pp = user;
  int rc = teal_piecewise_polynomial_derivative(pp, t, 0, q);
  if (rc == TEAL_OK) {
    rc = teal_piecewise_polynomial_derivative(pp, t, 1, qdot);
  }
  return rc ? rc : teal_piecewise_polynomial_derivative(pp, t, 2, qddot);
}

int teal_plant_prescribe_joint_trajectory(teal_plant *plant, int joint,
                                          const teal_piecewise_polynomial *pp) {
  joint_rec *J = motion_joint(plant, joint, pp != NULL, "trajectory");
  if (!J) {
    return plant ? plant->err.code : TEAL_EINVAL;
  }
  if (teal_piecewise_polynomial_rows(pp) != 1) {
    return teal_plant_fail(plant, TEAL_ESIZE,
                           "plant prescribe_joint_trajectory: joint \"%s\": "
                           "the trajectory has %s rows; a joint motion needs 1",
                           J->name, teal_piecewise_polynomial_rows(pp) > 1 ? "several" : "no");
  }
  J->motion = trajectory_motion;
  J->motion_user = (void *)pp; /* read only: trajectory_motion takes it back as const */
  return TEAL_OK;
}

int teal_plant_joint_is_prescribed(const teal_plant *plant, int joint) {
  return plant && joint >= 0 && joint < plant->joints.n && JOINT(plant)[joint].motion != NULL;
}

/* ---- evaluation ------------------------------------------------------------- */

int teal_plant_motion_at(const teal_plant *p, const teal_context *ctx, int j, double t,
                         double out[3]) {
  const joint_rec *J = &JOINT(p)[j];
  int rc = J->motion(t, &out[0], &out[1], &out[2], J->motion_user);
  if (rc) {
    return teal_context_report_error(ctx, rc < 0 ? rc : TEAL_EINVAL,
                                     "plant: the prescribed "
                                     "motion of joint \"%s\" failed at t = %g (status %d)",
                                     J->name, t, rc);
  }
  if (!isfinite(out[0]) || !isfinite(out[1]) || !isfinite(out[2])) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE,
                                     "plant: the prescribed motion of "
                                     "joint \"%s\" is not finite at t = %g (q %g, qdot %g, "
                                     "qddot %g)",
                                     J->name, t, out[0], out[1], out[2]);
  }
  return TEAL_OK;
}

/* ---- forces ------------------------------------------------------------------- */

/* Runs the held dofs' solve at own's state from the unconstrained
 * accelerations, tau (nv, may be NULL) receiving the motion forces; the
 * multipliers stay in the held work (teal_plant_held_power). */
static int held_solve(const teal_plant *plant, const teal_context *ctx, const teal_context *own,
                      double *tau) {
  const double *q, *v, *forces;
  int rc;
  teal_plant_scratch *s = teal_plant_staged_qv(plant->system, own, plant, &q, &v, &rc);
  int k = s ? teal_plant_num_held(plant, own) : 0;
  if (k == 0) {
    return rc;
  }
  if ((rc = teal_eval_cache_entry(plant->system, own, plant->sys.ce_forces,
                                  (const void **)&forces)) != TEAL_OK) {
    return rc;
  }
  double *vdot = teal_plant_held_vdot_scratch(plant, own, s, k);
  if (!vdot) {
    return TEAL_ENOMEM;
  }
  const teal_spatial_vector *F = (const teal_spatial_vector *)(forces + plant->nv);
  rc = teal_mb_forward_dynamics_ex(plant, s->data, q, v, forces, F, vdot);
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant: motion forces: %s",
                                     teal_mb_data_error(s->data)->message);
  }
  return teal_plant_hold_dofs(plant, own, s, vdot, tau);
}

int teal_plant_calc_motion_forces(const teal_plant *plant, const teal_context *ctx, double *tau,
                                  int n) {
  const char *fn = "plant calc_motion_forces";
  const teal_context *own = teal_plant_own_context(plant, ctx);
  if (!own) {
    return teal_plant_bad_call(plant, ctx, fn);
  }
  if (!tau || n != plant->nv) {
    return teal_context_report_error(ctx, tau ? TEAL_ESIZE : TEAL_EINVAL,
                                     "%s: tau %s (the "
                                     "plant has nv = %d)",
                                     fn, tau ? "has the wrong size" : "is NULL", plant->nv);
  }
  if (plant->sys.discrete) { /* the step's impulses over h, kept with its next state */
    const double *next;
    int rc = teal_plant_eval_discrete_step(plant, own, &next);
    if (rc == TEAL_OK) {
      memcpy(tau, next + plant->nq + plant->nv + plant->nc_rows, (size_t)n * sizeof(double));
    }
    return rc;
  }
  memset(tau, 0, (size_t)n * sizeof(double));
  return held_solve(plant, ctx, own, tau);
}

/* ---- errors and power -------------------------------------------------------- */

/* The target of held dof v index i at level (0, 1, 2), or the entry left 0
 * for a free dof; level 0 of a locked dof has no target (its q is where it
 * was locked). x holds the level's values (q-indexed at level 0). */
static int motion_error_entries(const teal_plant *p, const teal_context *ctx, int level,
                                const double *x, double *err) {
  const double *locks = teal_context_numeric_parameter(ctx, p->sys.param_locks);
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *J = &JOINT(p)[j];
    if (J->motion) {
      double m[3];
      int rc = teal_plant_motion_at(p, ctx, j, teal_context_time(ctx), m);
      if (rc) {
        return rc;
      }
      err[J->v_start] = x[level == 0 ? J->q_start : J->v_start] - m[level];
      continue;
    }
    for (int d = 0; level > 0 && d < teal_joint_type_get(J->kind)->nv; d++) {
      if (locks[J->v_start + d] != 0.0) {
        err[J->v_start + d] = x[J->v_start + d];
      }
    }
  }
  return TEAL_OK;
}

/* The values of level in own: q, v, or the plant's generalized
 * accelerations (a discrete plant's are its step's (v+ - v) / h). */
static int level_values(const teal_plant *p, const teal_context *own, int level, const double **x) {
  const double *q, *v;
  teal_plant_qv(p, own, &q, &v);
  *x = level == 0 ? q : v;
  if (level < 2) {
    return TEAL_OK;
  }
  /* a discrete plant's step, with its contact settings brought up to date */
  const double *next;
  int rc = p->sys.discrete ? teal_plant_eval_discrete_step(p, own, &next) : TEAL_OK;
  return rc ? rc : teal_eval_cache_entry(p->system, own, p->sys.ce_vdot, (const void **)x);
}

int teal_plant_calc_motion_errors(const teal_plant *plant, const teal_context *ctx, int level,
                                  double *err, int n) {
  const char *fn = "plant calc_motion_errors";
  const teal_context *own = teal_plant_own_context(plant, ctx);
  if (!own) {
    return teal_plant_bad_call(plant, ctx, fn);
  }
  if (!err || n != plant->nv || level < 0 || level > 2) {
    return teal_context_report_error(ctx, err && n != plant->nv ? TEAL_ESIZE : TEAL_EINVAL,
                                     "%s: level %d (0, 1 or 2), err %s, n = %d (nv = %d)", fn,
                                     level, err ? "given" : "NULL", n, plant->nv);
  }
  memset(err, 0, (size_t)n * sizeof(double));
  const double *x;
  int rc = level_values(plant, own, level, &x);
  return rc ? rc : motion_error_entries(plant, own, level, x, err);
}

/* A discrete plant's motion power: the held dofs' forces of the step from
 * own's state (impulses / h) times the velocities they produce, v+. */
static int discrete_motion_power(const teal_plant *p, const teal_context *own, double *power) {
  const double *next;
  int rc = teal_plant_eval_discrete_step(p, own, &next);
  if (rc) {
    return rc;
  }
  const double *vnext = next + p->nq, *tau = next + p->nq + p->nv + p->nc_rows;
  for (int i = 0; i < p->nv; i++) {
    *power += tau[i] * vnext[i];
  }
  return TEAL_OK;
}

int teal_plant_calc_motion_power(const teal_plant *plant, const teal_context *ctx, double *power) {
  const teal_context *own = teal_plant_own_context(plant, ctx);
  if (!own) {
    return teal_plant_bad_call(plant, ctx, "plant calc_motion_power");
  }
  if (!power) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "plant calc_motion_power: power is NULL");
  }
  *power = 0.0;
  if (plant->sys.discrete) {
    return discrete_motion_power(plant, own, power);
  }
  int rc = held_solve(plant, ctx, own, NULL);
  if (rc == TEAL_OK && teal_plant_num_held(plant, own) > 0) {
    *power = teal_plant_held_power(plant, own, teal_plant_get_scratch(plant, own));
  }
  return rc;
}

/* ---- stabilization settings ------------------------------------------------ */

int teal_plant_set_baumgarte_stabilization(teal_plant *plant, double alpha, double beta) {
  int rc = teal_plant_check_open(plant, "the setting", "baumgarte_stabilization");
  if (rc) {
    return rc;
  }
  if (!isfinite(alpha) || !isfinite(beta) || alpha < 0.0 || beta < 0.0) {
    char buf[64];
    snprintf(buf, sizeof(buf), "alpha = %g, beta = %g", alpha, beta);
    return teal_plant_fail(plant, TEAL_EINVAL,
                           "plant set_baumgarte_stabilization: %s; both "
                           "must be finite and >= 0%s",
                           buf, "");
  }
  plant->baumgarte_alpha = alpha;
  plant->baumgarte_beta = beta;
  return TEAL_OK;
}

int teal_plant_set_constraint_projection(teal_plant *plant, int enabled) {
  int rc = teal_plant_check_open(plant, "the setting", "constraint_projection");
  if (rc == TEAL_OK) {
    plant->projection_off = !enabled;
  }
  return rc;
}
