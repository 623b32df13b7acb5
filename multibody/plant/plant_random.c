/* Gaussian and user-sampled random distributions of free bodies and joints
 * (see plant_random.h), and their draws for teal_plant_set_random_state. */
#include "multibody/plant/plant_random.h"

#include <math.h>
#include <string.h>

#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_random_internal.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/plant_internal.h"

/* ---- setters ---------------------------------------------------------------- */

/* Entry checks of a free-body distribution setter: finalized plant, free
 * body; returns the body record or NULL (*rc set). */
static body_rec *free_body(teal_plant *p, int body, const char *fn, int *rc) {
  *rc = TEAL_OK;
  if (!p) {
    *rc = TEAL_EINVAL;
  } else if (!p->finalized) {
    *rc = teal_error_set_sticky(&p->err, TEAL_ESTATE,
                                "plant %s: the plant is not finalized (call teal_plant_finalize "
                                "first)",
                                fn);
  } else if (teal_plant_free_joint(p, body) < 0) {
    *rc = teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant %s: body %d is not a free body", fn,
                                body);
  }
  return *rc ? NULL : &BODY(p)[body];
}

int teal_plant_set_free_body_random_position_distribution_gaussian(teal_plant *p, int body,
                                                                   teal_vec3 mean,
                                                                   teal_vec3 stddev) {
  const char *fn = "set_free_body_random_position_distribution_gaussian";
  int rc;
  body_rec *b = free_body(p, body, fn, &rc);
  if (!b) {
    return rc;
  }
  if (!teal_vec3_is_finite(mean) || !teal_vec3_is_finite(stddev)) {
    return teal_error_set_sticky(&p->err, TEAL_ENONFINITE,
                                 "plant %s: the mean or a standard deviation is not finite", fn);
  }
  for (int i = 0; i < 3; i++) {
    if (stddev.v[i] < 0.0) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "plant %s: standard deviation %g < 0 on axis %d", fn,
                                   stddev.v[i], i);
    }
  }
  b->random_lo = mean;
  b->random_hi = stddev;
  b->random_position = PLANT_RANDOM_GAUSSIAN;
  return TEAL_OK;
}

int teal_plant_set_free_body_random_position_sampler(teal_plant *p, int body,
                                                     teal_position_sampler_fn sampler, void *user) {
  const char *fn = "set_free_body_random_position_sampler";
  int rc;
  body_rec *b = free_body(p, body, fn, &rc);
  if (b && !sampler) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant %s: NULL sampler", fn);
  }
  if (b) {
    b->position_sampler = sampler;
    b->position_user = user;
    b->random_position = PLANT_RANDOM_SAMPLER;
  }
  return rc;
}

int teal_plant_set_free_body_random_rotation_sampler(teal_plant *p, int body,
                                                     teal_rotation_sampler_fn sampler, void *user) {
  const char *fn = "set_free_body_random_rotation_sampler";
  int rc;
  body_rec *b = free_body(p, body, fn, &rc);
  if (b && !sampler) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant %s: NULL sampler", fn);
  }
  if (b) {
    b->rotation_sampler = sampler;
    b->rotation_user = user;
    b->random_rotation = PLANT_RANDOM_SAMPLER;
  }
  return rc;
}

int teal_plant_set_joint_random_positions_sampler(teal_plant *p, int joint,
                                                  teal_joint_positions_sampler_fn sampler,
                                                  void *user) {
  if (!p) {
    return TEAL_EINVAL;
  }
  if (joint < 0 || joint >= p->joints.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant set_joint_random_positions_sampler: unknown joint %d",
                                 joint);
  }
  JOINT(p)[joint].q_sampler = sampler;
  JOINT(p)[joint].q_sampler_user = user;
  return TEAL_OK;
}

/* ---- draws ------------------------------------------------------------------ */

/* The error of a failed sampler: its code (TEAL_ECALLBACK when it is not a
 * TEAL_E* code) and message after what failed. */
static int sampler_failed(int rc, const char *what, const char *name, const teal_error *cb,
                          teal_error *err) {
  int code = rc < 0 && rc >= TEAL_EIO ? rc : TEAL_ECALLBACK;
  return teal_error_set(err, code, "%s sampler of '%s' failed (%s): %s", what, name,
                        teal_strerror(code), cb->message[0] ? cb->message : "no message");
}

static int all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}

int teal_plant_draw_joint_positions(const teal_plant *p, teal_rng *rng, double *q,
                                    teal_error *err) {
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *r = &JOINT(p)[j];
    if (!r->q_sampler) {
      continue;
    }
    int nq = teal_joint_type_get(r->kind)->nq;
    double x[TEAL_JOINT_MAX_NQ];
    memcpy(x, q + r->q_start, (size_t)nq * sizeof(double));
    teal_error cb = {0, ""};
    int rc = r->q_sampler(p, j, rng, x, nq, &cb, r->q_sampler_user);
    if (rc) {
      return sampler_failed(rc, "joint positions", r->name, &cb, err);
    }
    if (!all_finite(x, nq)) {
      return teal_error_set(err, TEAL_ENONFINITE,
                            "joint positions sampler of '%s' drew a value that is not finite",
                            r->name);
    }
    memcpy(q + r->q_start, x, (size_t)nq * sizeof(double));
  }
  return TEAL_OK;
}

int teal_plant_draw_position(const teal_plant *p, int b, teal_rng *rng, teal_vec3 *p_WB,
                             teal_error *err) {
  const body_rec *r = &BODY(p)[b];
  if (r->random_position == PLANT_RANDOM_GAUSSIAN) {
    double n[3];
    teal_rng_fill(rng, TEAL_NOISE_GAUSSIAN, n, 3);
    for (int i = 0; i < 3; i++) {
      p_WB->v[i] = r->random_lo.v[i] + r->random_hi.v[i] * n[i];
    }
    return TEAL_OK;
  }
  teal_error cb = {0, ""};
  int rc = r->position_sampler(p, b, rng, p_WB, &cb, r->position_user);
  if (rc) {
    return sampler_failed(rc, "position", r->name, &cb, err);
  }
  if (!teal_vec3_is_finite(*p_WB)) {
    return teal_error_set(err, TEAL_ENONFINITE,
                          "position sampler of '%s' drew a position that is not finite", r->name);
  }
  return TEAL_OK;
}

int teal_plant_draw_rotation(const teal_plant *p, int b, teal_rng *rng, teal_rotation *R_WB,
                             teal_error *err) {
  const body_rec *r = &BODY(p)[b];
  teal_error cb = {0, ""};
  int rc = r->rotation_sampler(p, b, rng, R_WB, &cb, r->rotation_user);
  if (rc) {
    return sampler_failed(rc, "rotation", r->name, &cb, err);
  }
  if (!all_finite(R_WB->m, 9) || !teal_rotation_is_orthonormal(*R_WB, 1e-9)) {
    return teal_error_set(err, TEAL_EINVAL,
                          "rotation sampler of '%s' drew a matrix that is not a rotation "
                          "(orthonormal to 1e-9, determinant +1)",
                          r->name);
  }
  return TEAL_OK;
}
