/* Context access of the plant system: state get/set, gravity, and the
 * cached results (see plant_system.h). */
#include <math.h>
#include <string.h>

#include "multibody/contact/contact_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"

int teal_plant_bad_call(const teal_plant *p, const teal_context *ctx, const char *fn) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  if (!p) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: NULL plant", fn);
  }
  if (!p->system) {
    return teal_context_report_error(
        ctx, TEAL_ESTATE, "%s: the plant is not finalized (call teal_plant_finalize first)", fn);
  }
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: the context holds no context of the "
                                   "plant's system", fn);
}

/* The error for a NULL array or result pointer. */
static int null_arg(const teal_context *ctx, const char *fn, const char *what) {
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, what);
}

/* Copies n = count values of the state block at offset out of ctx. */
static int get_block(const teal_plant *p, const teal_context *ctx, int offset, int count,
                     double *x, int n, const char *fn) {
  const teal_context *own = teal_plant_own_context(p, ctx);
  if (!own || !x) {
    return own ? null_arg(ctx, fn, "the output array") : teal_plant_bad_call(p, ctx, fn);
  }
  if (n != count) {
    return teal_context_report_error(ctx, TEAL_ESIZE, "%s: got %d values, the plant has %d", fn,
                                     n, count);
  }
  const double *q, *v;
  teal_plant_qv(p, own, &q, &v);
  for (int i = 0; i < count; i++) {
    int j = offset + i;
    x[i] = j < p->nq ? q[j] : v[j - p->nq];
  }
  return TEAL_OK;
}

static int set_block(const teal_plant *p, teal_context *ctx, int offset, int count,
                     const double *x, int n, const char *fn) {
  teal_context *own = (teal_context *)teal_plant_own_context(p, ctx);
  if (!own || !x) {
    return own ? null_arg(ctx, fn, "the input array") : teal_plant_bad_call(p, ctx, fn);
  }
  if (n != count) {
    return teal_context_report_error(ctx, TEAL_ESIZE, "%s: got %d values, the plant has %d", fn,
                                     n, count);
  }
  for (int i = 0; i < count; i++) {
    if (!isfinite(x[i])) {
      return teal_context_report_error(ctx, TEAL_ENONFINITE, "%s: value %d is not finite (%g)",
                                       fn, i, x[i]);
    }
  }
  int rc = teal_plant_check_quaternions(p, ctx, x, offset, count, fn);
  if (rc) {
    return rc;
  }
  for (int i = 0; i < count; i++) {
    int j = offset + i;
    double *dst;
    if (p->sys.discrete) {
      dst = teal_context_discrete_group_mut(own, 0) + j;
    } else {
      dst = j < p->nq ? teal_context_q_mut(own) + j : teal_context_v_mut(own) + (j - p->nq);
    }
    *dst = x[i];
  }
  return TEAL_OK;
}

int teal_plant_get_positions(const teal_plant *p, const teal_context *ctx, double *q, int n) {
  return get_block(p, ctx, 0, p ? p->nq : 0, q, n, "plant get_positions");
}
int teal_plant_set_positions(const teal_plant *p, teal_context *ctx, const double *q, int n) {
  return set_block(p, ctx, 0, p ? p->nq : 0, q, n, "plant set_positions");
}
int teal_plant_get_velocities(const teal_plant *p, const teal_context *ctx, double *v, int n) {
  return get_block(p, ctx, p ? p->nq : 0, p ? p->nv : 0, v, n, "plant get_velocities");
}
int teal_plant_set_velocities(const teal_plant *p, teal_context *ctx, const double *v, int n) {
  return set_block(p, ctx, p ? p->nq : 0, p ? p->nv : 0, v, n, "plant set_velocities");
}
int teal_plant_get_state(const teal_plant *p, const teal_context *ctx, double *x, int n) {
  return get_block(p, ctx, 0, p ? p->nq + p->nv : 0, x, n, "plant get_state");
}
int teal_plant_set_state(const teal_plant *p, teal_context *ctx, const double *x, int n) {
  return set_block(p, ctx, 0, p ? p->nq + p->nv : 0, x, n, "plant set_state");
}

int teal_plant_set_gravity_in_context(const teal_plant *p, teal_context *ctx, teal_vec3 g) {
  teal_context *own = (teal_context *)teal_plant_own_context(p, ctx);
  if (!own) {
    return teal_plant_bad_call(p, ctx, "plant set_gravity_in_context");
  }
  if (!teal_vec3_is_finite(g)) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE,
                                     "plant set_gravity_in_context: gravity is not finite");
  }
  return teal_context_set_numeric_parameter(own, p->sys.param_gravity, g.v, 3);
}

/* The plant's own context for an eval call with output out (NULL: none). */
static const teal_context *eval_context(const teal_plant *p, const teal_context *ctx,
                                        const void *out, const char *fn, int *rc) {
  const teal_context *own = teal_plant_own_context(p, ctx);
  *rc = !own   ? teal_plant_bad_call(p, ctx, fn)
        : !out ? null_arg(ctx, fn, "the result pointer")
               : TEAL_OK;
  return *rc ? NULL : own;
}

static int eval_entry(const teal_plant *p, const teal_context *ctx, int entry, const void **out,
                      const char *fn) {
  int rc;
  const teal_context *own = eval_context(p, ctx, out, fn, &rc);
  if (own && (rc = teal_plant_sync_contact_settings(p, own)) == TEAL_OK) {
    rc = teal_eval_cache_entry(p->system, own, entry, out);
  }
  return rc;
}

int teal_plant_eval_body_poses(const teal_plant *p, const teal_context *ctx,
                               const teal_transform **X_WB) {
  int rc;
  const teal_context *own = eval_context(p, ctx, X_WB, "plant eval_body_poses", &rc);
  return own ? teal_plant_eval_poses(p->system, own, p, X_WB) : rc;
}
int teal_plant_eval_body_velocities(const teal_plant *p, const teal_context *ctx,
                                    const teal_spatial_vector **V_WB) {
  int rc;
  const teal_context *own = eval_context(p, ctx, V_WB, "plant eval_body_velocities", &rc);
  return own ? teal_plant_eval_velocities(p->system, own, p, V_WB) : rc;
}
int teal_plant_eval_mass_matrix(const teal_plant *p, const teal_context *ctx, const double **M) {
  return eval_entry(p, ctx, p ? p->sys.ce_M : 0, (const void **)M, "plant eval_mass_matrix");
}
int teal_plant_eval_generalized_acceleration(const teal_plant *p, const teal_context *ctx,
                                             const double **vdot) {
  return eval_entry(p, ctx, p ? p->sys.ce_vdot : 0, (const void **)vdot,
                    "plant eval_generalized_acceleration");
}

int teal_plant_free_joint(const teal_plant *p, int body) {
  if (!p || body <= 0 || body >= p->bodies.n) {
    return -1;
  }
  int j = BODY(p)[body].inboard;
  /* either parametrization of the rotation (set_use_euler_angles) */
  if (j < 0 || teal_joint_quaternion_kind(JOINT(p)[j].kind) != TEAL_JOINT_QUATERNION_FLOATING ||
      FRAME(p)[JOINT(p)[j].parent_frame].body != TEAL_WORLD_BODY) {
    return -1;
  }
  return j;
}

/* The error for a body that is not free (or a plant or context that is not
 * usable). */
static int not_free(const teal_plant *p, const teal_context *ctx, int body, const char *fn) {
  if (!ctx || !p || !p->system) {
    return teal_plant_bad_call(p, ctx, fn);
  }
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: body %d is not a free body of plant",
                                   fn, body);
}

/* X_WB must be finite (TEAL_ENONFINITE) and its R a proper rotation:
 * orthonormal to 1e-9, the tolerance of the plant's other rigid transforms,
 * with determinant +1 (TEAL_EINVAL). A zero matrix or a reflection has no
 * quaternion; one is not made up for it. */
static int check_pose(const teal_context *ctx, teal_transform X_WB, const char *fn) {
  int finite = teal_vec3_is_finite(X_WB.p);
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(X_WB.R.m[i]);
  }
  if (!finite) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE, "%s: X_WB is not finite", fn);
  }
  if (!teal_rotation_is_orthonormal(X_WB.R, 1e-9)) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "%s: X_WB.R is not a rotation (it must be orthonormal to "
                                     "1e-9 with determinant +1; its determinant is %g)",
                                     fn, teal_mat3_det(X_WB.R));
  }
  return TEAL_OK;
}

int teal_plant_set_free_body_pose(const teal_plant *p, teal_context *ctx, int body,
                                  teal_transform X_WB) {
  int j = teal_plant_free_joint(p, body);
  if (j < 0 || !ctx) {
    return not_free(p, ctx, body, "plant set_free_body_pose");
  }
  int rc = check_pose(ctx, X_WB, "plant set_free_body_pose");
  if (rc) {
    return rc;
  }
  double q[TEAL_JOINT_MAX_NQ];
  int nq = teal_joint_type_get(JOINT(p)[j].kind)->nq; /* 7 or 6 (roll-pitch-yaw) */
  teal_plant_free_pose_q(p, j, X_WB, q);
  return set_block(p, ctx, JOINT(p)[j].q_start, nq, q, nq, "plant set_free_body_pose");
}

int teal_plant_set_free_body_spatial_velocity(const teal_plant *p, teal_context *ctx, int body,
                                              teal_spatial_vector V_WB) {
  int j = teal_plant_free_joint(p, body);
  if (j < 0 || !ctx) {
    return not_free(p, ctx, body, "plant set_free_body_spatial_velocity");
  }
  const joint_rec *jr = &JOINT(p)[j];
  const teal_transform *X;
  int rc = teal_plant_eval_body_poses(p, ctx, &X);
  if (rc) {
    return rc;
  }
  teal_rotation R_WF = FRAME(p)[jr->parent_frame].X_BF.R;
  teal_vec3 p_BoMo_W = teal_rotation_apply(X[body].R, FRAME(p)[jr->child_frame].X_BF.p);
  teal_spatial_vector V_WM = teal_spatial_velocity_shift(V_WB, p_BoMo_W);
  teal_spatial_vector V_F = teal_spatial_vector_reexpress(teal_rotation_inverse(R_WF), V_WM);
  return set_block(p, ctx, p->nq + jr->v_start, 6, V_F.v, 6, "set_free_body_spatial_velocity");
}
