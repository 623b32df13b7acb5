/* Default and random states of a plant, and the floating-base queries (see
 * plant_defaults.h). The defaults live in the model's records
 * (plant_internal.h); teal_plant_default_q (topology.c) applies them. */
#include "multibody/plant/plant_defaults.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_defaults.h"
#include "math/quaternion.h"
#include "math/rotation.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_random_internal.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

static const double k_two_pi = 6.283185307179586476925286766559;

/* ---- model side ------------------------------------------------------------ */

/* Entry checks of a default setter: plant open, then the record index. */
static int open_index(teal_plant *p, const char *fn, const char *what, int index, int first,
                      int count) {
  int rc = teal_plant_check_open(p, what, "");
  if (rc) {
    return rc;
  }
  if (index < first || index >= count) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND, "plant %s: unknown %s %d", fn, what,
                                 index);
  }
  return TEAL_OK;
}

/* Offset of the quaternion in a joint's q (-1: none). */
static int quaternion_offset(int kind) {
  return kind == TEAL_JOINT_BALL || kind == TEAL_JOINT_QUATERNION_FLOATING ? 0 : -1;
}

int teal_plant_set_joint_default_positions(teal_plant *p, int joint, const double *q, int n) {
  const char *fn = "set_joint_default_positions";
  int rc = open_index(p, fn, "joint", joint, 0, p ? p->joints.n : 0);
  if (rc) {
    return rc;
  }
  joint_rec *j = &JOINT(p)[joint];
  int nq = teal_joint_type_get(j->kind)->nq;
  if (!q && nq > 0) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant %s: q is NULL", fn);
  }
  if (n != nq) {
    return teal_error_set_sticky(&p->err, TEAL_ESIZE, "plant %s: got %d values, joint '%s' has %d",
                                 fn, n, j->name, nq);
  }
  double x[TEAL_JOINT_MAX_NQ];
  for (int i = 0; i < nq; i++) {
    if (!isfinite(q[i])) {
      return teal_error_set_sticky(&p->err, TEAL_ENONFINITE,
                                   "plant %s: value %d for joint '%s' is not finite", fn, i,
                                   j->name);
    }
    x[i] = q[i];
  }
  int qo = quaternion_offset(j->kind);
  if (qo >= 0) {
    teal_quaternion r = {x[qo], x[qo + 1], x[qo + 2], x[qo + 3]};
    if (teal_quaternion_normalize(&r) != TEAL_OK) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "plant %s: the quaternion of joint '%s' cannot be normalized",
                                   fn, j->name);
    }
    x[qo] = r.w, x[qo + 1] = r.x, x[qo + 2] = r.y, x[qo + 3] = r.z;
  }
  memcpy(j->q_default, x, (size_t)nq * sizeof(double));
  j->has_default_q = 1;
  return TEAL_OK;
}

int teal_plant_get_joint_default_positions(const teal_plant *p, int joint, double *q, int n) {
  if (!p || !q) {
    return TEAL_EINVAL;
  }
  if (joint < 0 || joint >= p->joints.n) {
    return TEAL_ENOTFOUND;
  }
  const joint_rec *j = &JOINT(p)[joint];
  const teal_joint_type *t = teal_joint_type_get(j->kind);
  if (n != t->nq) {
    return TEAL_ESIZE;
  }
  if (j->has_default_q) {
    memcpy(q, j->q_default, (size_t)t->nq * sizeof(double));
  } else {
    t->default_q(q);
  }
  return TEAL_OK;
}

/* TEAL_OK when X is finite and X.R a rotation, else the code (and *why). */
static int pose_problem(teal_transform X, const char **why) {
  int finite = teal_vec3_is_finite(X.p);
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(X.R.m[i]);
  }
  if (!finite) {
    *why = "is not finite";
    return TEAL_ENONFINITE;
  }
  if (!teal_rotation_is_orthonormal(X.R, 1e-9)) {
    *why = "has an R that is not a rotation (orthonormal to 1e-9, determinant +1)";
    return TEAL_EINVAL;
  }
  return TEAL_OK;
}

/* After finalize: puts the model's defaults into the system's default state,
 * which later contexts and teal_context_set_to_defaults start from. */
static int refresh_default_state(teal_plant *p, const char *fn) {
  int nx = p->nq + p->nv;
  double *x = teal_calloc((size_t)(nx > 0 ? nx : 1), sizeof(double));
  if (!x) {
    return teal_error_set(&p->err, TEAL_ENOMEM, "plant %s: out of memory for %d values", fn, nx);
  }
  teal_plant_default_q(p, x);
  teal_error err = {0, ""};
  int rc = p->sys.discrete ? teal_leaf_set_default_discrete_state(p->system, 0, x, nx, &err)
                           : teal_leaf_set_default_continuous_state(p->system, x, nx, &err);
  teal_free(x);
  return rc ? teal_error_set(&p->err, rc, "plant %s: %s", fn, err.message) : TEAL_OK;
}

int teal_plant_set_default_free_body_pose(teal_plant *p, int body, teal_transform X_WB) {
  const char *fn = "set_default_free_body_pose";
  int finalized = p && p->finalized;
  int rc = finalized ? TEAL_OK : open_index(p, fn, "body", body, 1, p ? p->bodies.n : 0);
  if (rc) {
    return rc;
  }
  if (finalized && (body < 1 || body >= p->bodies.n)) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND, "plant %s: unknown body %d", fn, body);
  }
  const char *why = "";
  rc = pose_problem(X_WB, &why);
  if (rc) {
    return teal_error_set_sticky(&p->err, rc, "plant %s: X_WB of body '%s' %s", fn,
                                 BODY(p)[body].name, why);
  }
  BODY(p)[body].X_WB_default = X_WB;
  BODY(p)[body].has_default_pose = 1;
  return finalized ? refresh_default_state(p, fn) : TEAL_OK;
}

int teal_plant_get_default_free_body_pose(const teal_plant *p, int body, teal_transform *X_WB) {
  if (!p || !X_WB) {
    return TEAL_EINVAL;
  }
  if (body < 1 || body >= p->bodies.n) {
    return TEAL_ENOTFOUND;
  }
  const body_rec *b = &BODY(p)[body];
  *X_WB = b->has_default_pose ? b->X_WB_default : teal_transform_identity();
  return TEAL_OK;
}

/* Entry checks of a random-distribution setter: finalized plant, free body. */
static int finalized_free(teal_plant *p, int body, const char *fn) {
  if (!p) {
    return TEAL_EINVAL;
  }
  if (!p->finalized) {
    return teal_error_set_sticky(&p->err, TEAL_ESTATE,
                                 "plant %s: the plant is not finalized (call teal_plant_finalize "
                                 "first)",
                                 fn);
  }
  if (teal_plant_free_joint(p, body) < 0) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant %s: body %d is not a free body", fn,
                                 body);
  }
  return TEAL_OK;
}

int teal_plant_set_free_body_random_position_distribution(teal_plant *p, int body, teal_vec3 lower,
                                                          teal_vec3 upper) {
  const char *fn = "set_free_body_random_position_distribution";
  int rc = finalized_free(p, body, fn);
  if (rc) {
    return rc;
  }
  if (!teal_vec3_is_finite(lower) || !teal_vec3_is_finite(upper)) {
    return teal_error_set_sticky(&p->err, TEAL_ENONFINITE, "plant %s: a bound is not finite", fn);
  }
  for (int i = 0; i < 3; i++) {
    if (lower.v[i] > upper.v[i]) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant %s: lower %g > upper %g on axis %d",
                                   fn, lower.v[i], upper.v[i], i);
    }
  }
  body_rec *b = &BODY(p)[body];
  b->random_lo = lower;
  b->random_hi = upper;
  b->random_position = PLANT_RANDOM_UNIFORM;
  return TEAL_OK;
}

int teal_plant_set_free_body_random_rotation_distribution_to_uniform(teal_plant *p, int body) {
  int rc = finalized_free(p, body, "set_free_body_random_rotation_distribution_to_uniform");
  if (rc == TEAL_OK) {
    BODY(p)[body].random_rotation = PLANT_RANDOM_UNIFORM;
  }
  return rc;
}

/* ---- floating-base queries ------------------------------------------------- */

int teal_plant_get_floating_base_bodies(const teal_plant *p, int *bodies, int capacity,
                                        int *count) {
  if (!p || !count || capacity < 0 || (!bodies && capacity > 0)) {
    return TEAL_EINVAL;
  }
  if (!p->finalized) {
    return TEAL_ESTATE;
  }
  int n = 0;
  for (int b = 1; b < p->bodies.n; b++) {
    if (teal_plant_free_joint(p, b) >= 0) {
      if (n < capacity) {
        bodies[n] = b;
      }
      n++;
    }
  }
  *count = n;
  return n <= capacity ? TEAL_OK : TEAL_ESIZE;
}

/* Writes the unique base body of an instance into *body (-1 when there is
 * none or several); returns the code for bad arguments. */
static int unique_base_body(const teal_plant *p, int instance, int *body) {
  *body = -1;
  if (!p) {
    return TEAL_EINVAL;
  }
  if (!p->finalized) {
    return TEAL_ESTATE;
  }
  if (instance < 0 || instance >= p->instances.n) {
    return TEAL_ENOTFOUND;
  }
  int found = -1;
  for (int b = 1; b < p->bodies.n; b++) {
    int j = BODY(p)[b].inboard;
    if (BODY(p)[b].instance == instance && j >= 0 &&
        FRAME(p)[JOINT(p)[j].parent_frame].body == TEAL_WORLD_BODY) {
      if (found >= 0) {
        return TEAL_OK;
      }
      found = b;
    }
  }
  *body = found;
  return TEAL_OK;
}

int teal_plant_has_unique_free_base_body(const teal_plant *p, int instance) {
  int b;
  int rc = unique_base_body(p, instance, &b);
  return rc ? rc : b > 0 && teal_plant_free_joint(p, b) >= 0;
}

int teal_plant_get_unique_free_base_body(const teal_plant *p, int instance, int *body) {
  if (!body) {
    return TEAL_EINVAL;
  }
  int b;
  int rc = unique_base_body(p, instance, &b);
  if (rc) {
    return rc;
  }
  if (b <= 0 || teal_plant_free_joint(p, b) < 0) {
    return TEAL_ENOTFOUND;
  }
  *body = b;
  return TEAL_OK;
}

/* ---- context side ---------------------------------------------------------- */

/* The world pose of frame F's body when F is anchored (its body the world or
 * welded to it through weld joints only), else -1. */
static int anchored(const teal_plant *p, int frame) {
  int b = FRAME(p)[frame].body;
  while (b != TEAL_WORLD_BODY) {
    int j = BODY(p)[b].inboard;
    if (j < 0 || JOINT(p)[j].kind != TEAL_JOINT_WELD) {
      return 0;
    }
    b = FRAME(p)[JOINT(p)[j].parent_frame].body;
  }
  return 1;
}

int teal_plant_set_free_body_pose_in_anchored_frame(const teal_plant *p, teal_context *ctx,
                                                    int frame_F, int body, teal_transform X_FB) {
  const char *fn = "plant set_free_body_pose_in_anchored_frame";
  const teal_transform *X_WB;
  int rc = teal_plant_eval_body_poses(p, ctx, &X_WB);
  if (rc) {
    return rc; /* no plant context (its message names eval_body_poses) */
  }
  if (frame_F < 0 || frame_F >= p->frames.n) {
    return teal_context_report_error(ctx, TEAL_ENOTFOUND, "%s: unknown frame %d", fn, frame_F);
  }
  if (!anchored(p, frame_F)) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "%s: frame '%s' is not anchored to the world (a joint other "
                                     "than a weld lies between them)",
                                     fn, FRAME(p)[frame_F].name);
  }
  const char *why = "";
  rc = pose_problem(X_FB, &why);
  if (rc) {
    return teal_context_report_error(ctx, rc, "%s: X_FB %s", fn, why);
  }
  const frame_rec *f = &FRAME(p)[frame_F];
  teal_transform X_WF = teal_transform_compose(X_WB[f->body], f->X_BF);
  return teal_plant_set_free_body_pose(p, ctx, body, teal_transform_compose(X_WF, X_FB));
}

/* A uniformly distributed rotation (Shoemake, "Uniform random rotations",
 * Graphics Gems III): a unit quaternion from three uniform samples. */
static teal_rotation uniform_rotation(teal_rng *rng) {
  double u1 = teal_rng_uniform(rng), u2 = teal_rng_uniform(rng), u3 = teal_rng_uniform(rng);
  double a = sqrt(1.0 - u1), b = sqrt(u1);
  teal_quaternion q = {b * cos(k_two_pi * u3), a * sin(k_two_pi * u2), a * cos(k_two_pi * u2),
                       b * sin(k_two_pi * u3)};
  return teal_rotation_from_quaternion(q);
}

/* X_WB of the body on floating joint j (parent frame on the world) at the
 * joint's q in x: the pose the defaults, or a joint sampler, left there. */
static teal_transform floating_pose(const teal_plant *p, int j, const double *x) {
  const joint_rec *jr = &JOINT(p)[j];
  const teal_joint_params unused = {{{0.0, 0.0, 1.0}}, 0.0}; /* no axis: a floating joint */
  teal_transform X_FM = teal_joint_type_get(jr->kind)->X_FM(&unused, x + jr->q_start);
  teal_transform X_WM = teal_transform_compose(FRAME(p)[jr->parent_frame].X_BF, X_FM);
  return teal_transform_compose(X_WM, teal_transform_inverse(FRAME(p)[jr->child_frame].X_BF));
}

/* Draws the random free bodies' poses into x (their q blocks), each
 * starting from the pose x already holds, so a part without a
 * distribution keeps its default; the Gaussian and sampled distributions
 * are plant_random.c's. */
static int draw_free_bodies(const teal_plant *p, teal_rng *rng, double *x, teal_error *err) {
  for (int b = 1; b < p->bodies.n; b++) {
    const body_rec *br = &BODY(p)[b];
    int j = teal_plant_free_joint(p, b), rc = TEAL_OK;
    if (j < 0 || !(br->random_position || br->random_rotation)) {
      continue;
    }
    teal_transform X = floating_pose(p, j, x);
    if (br->random_position == PLANT_RANDOM_UNIFORM) {
      for (int i = 0; i < 3; i++) {
        double lo = br->random_lo.v[i], hi = br->random_hi.v[i];
        X.p.v[i] = lo + (hi - lo) * teal_rng_uniform(rng);
      }
    } else if (br->random_position) {
      rc = teal_plant_draw_position(p, b, rng, &X.p, err);
    }
    if (rc == TEAL_OK && br->random_rotation == PLANT_RANDOM_UNIFORM) {
      X.R = uniform_rotation(rng);
    } else if (rc == TEAL_OK && br->random_rotation) {
      rc = teal_plant_draw_rotation(p, b, rng, &X.R, err);
    }
    if (rc) {
      return rc;
    }
    teal_plant_free_pose_q(p, j, X, x + JOINT(p)[j].q_start);
  }
  return TEAL_OK;
}

int teal_plant_set_random_state(const teal_plant *p, teal_context *ctx, teal_rng *rng) {
  const char *fn = "plant set_random_state";
  const teal_transform *X_WB;
  int rc = teal_plant_eval_body_poses(p, ctx, &X_WB);
  if (rc) {
    return rc; /* no plant context (its message names eval_body_poses) */
  }
  if (!rng) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: rng is NULL", fn);
  }
  int nx = p->nq + p->nv;
  double *x = teal_calloc((size_t)(nx > 0 ? nx : 1), sizeof(double));
  if (!x) {
    return teal_context_report_error(ctx, TEAL_ENOMEM, "%s: out of memory for %d values", fn, nx);
  }
  teal_plant_default_q(p, x);
  teal_error err = {0, ""};
  rc = teal_plant_draw_joint_positions(p, rng, x, &err);
  if (rc == TEAL_OK && teal_plant_normalize_q(p, x)) {
    rc = teal_error_set(&err, TEAL_EINVAL, "a joint sampler drew a zero quaternion");
  }
  if (rc == TEAL_OK) {
    rc = draw_free_bodies(p, rng, x, &err);
  }
  rc = rc ? teal_context_report_error(ctx, rc, "%s: %s", fn, err.message)
          : teal_plant_set_state(p, ctx, x, nx);
  teal_free(x);
  return rc;
}
