/* General random distributions (multibody/plant/plant_random.h): the
 * Gaussian position's sample mean and variance over many seeds, user
 * samplers for a free body's position and rotation and for joint positions
 * (their samples reach the state, they draw from the generator given to
 * teal_plant_set_random_state so one seed reproduces one state, joint
 * quaternions are normalized), and failing samplers and bad setter
 * arguments with their codes and messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "math/quaternion.h"
#include "math/rotation.h"
#include "multibody/plant/plant_defaults.h"
#include "multibody/plant/plant_random.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

typedef struct model {
  teal_plant *p;
  teal_context *ctx;
  int fb, hinge, ball;
} model;

/* A free body, a hinge from the world and a ball joint below it. */
static model make_model(void) {
  model m;
  m.p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  m.fb = teal_plant_add_rigid_body(m.p, "fb", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b1 = teal_plant_add_rigid_body(m.p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b2 = teal_plant_add_rigid_body(m.p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  m.hinge = teal_plant_add_joint(m.p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                 teal_plant_body_frame(m.p, b1), &z, 0.0);
  m.ball = teal_plant_add_joint(m.p, "ball", TEAL_JOINT_BALL, teal_plant_body_frame(m.p, b1),
                                teal_plant_body_frame(m.p, b2), NULL, 0.0);
  ck_assert_int_eq(teal_plant_finalize(m.p), TEAL_OK);
  m.ctx = teal_context_new(teal_plant_system(m.p), NULL);
  ck_assert_ptr_nonnull(m.ctx);
  return m;
}

static void free_model(model *m) {
  teal_context_free(m->ctx);
  teal_plant_free(m->p);
}

static teal_vec3 random_position(model *m, uint64_t seed) {
  teal_rng rng;
  teal_rng_seed(&rng, seed);
  ck_assert_int_eq(teal_plant_set_random_state(m->p, m->ctx, &rng), TEAL_OK);
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(m->p, m->ctx, &X), TEAL_OK);
  return X[m->fb].p;
}

/* Mean within 5 standard errors, variance within 5 standard deviations of
 * the sample variance (2 s^4 / (N - 1)); a zero stddev gives the mean. */
START_TEST(test_gaussian_statistics) {
  model m = make_model();
  teal_vec3 mean = teal_vec3_make(1.0, -2.0, 0.5), sd = teal_vec3_make(0.3, 2.0, 0.0);
  ck_assert_int_eq(
      teal_plant_set_free_body_random_position_distribution_gaussian(m.p, m.fb, mean, sd), TEAL_OK);
  const int N = 4000;
  double sum[3] = {0}, sum2[3] = {0};
  for (int n = 0; n < N; n++) {
    teal_vec3 p = random_position(&m, 500u + (uint64_t)n);
    for (int i = 0; i < 3; i++) {
      sum[i] += p.v[i];
      sum2[i] += p.v[i] * p.v[i];
    }
  }
  for (int i = 0; i < 3; i++) {
    double mu = sum[i] / N, var = (sum2[i] - N * mu * mu) / (N - 1), s = sd.v[i];
    ck_assert_msg(fabs(mu - mean.v[i]) <= 5.0 * s / sqrt(N) + 1e-12, "mean %d: %g", i, mu);
    ck_assert_msg(fabs(var - s * s) <= 5.0 * s * s * sqrt(2.0 / (N - 1)) + 1e-12,
                  "variance %d: %g vs %g", i, var, s * s);
  }
  free_model(&m);
}
END_TEST

/* ---- samplers ------------------------------------------------------------------ */

/* A point on the sphere of radius 2 about (1, 0, 0). */
static int sphere_position(const teal_plant *p, int body, teal_rng *rng, teal_vec3 *p_WB,
                           teal_error *err, void *user) {
  (void)p, (void)body, (void)err, (void)user;
  double g[3];
  teal_rng_fill(rng, TEAL_NOISE_GAUSSIAN, g, 3);
  teal_vec3 d = teal_vec3_make(g[0], g[1], g[2]);
  teal_vec3 u = teal_vec3_scale(d, 1.0 / teal_vec3_norm(d));
  *p_WB = teal_vec3_add(teal_vec3_make(1, 0, 0), teal_vec3_scale(u, 2.0));
  return TEAL_OK;
}

/* A rotation about z by a uniform angle. */
static int yaw_rotation(const teal_plant *p, int body, teal_rng *rng, teal_rotation *R,
                        teal_error *err, void *user) {
  (void)p, (void)body, (void)err, (void)user;
  *R = teal_rotation_from_rpy(teal_vec3_make(0, 0, 6.0 * teal_rng_uniform(rng) - 3.0));
  return TEAL_OK;
}

/* The hinge at the generator's first uniform sample, scaled by *user. */
static int hinge_angle(const teal_plant *p, int joint, teal_rng *rng, double *q, int nq,
                       teal_error *err, void *user) {
  (void)p, (void)joint, (void)err;
  ck_assert_int_eq(nq, 1);
  q[0] = *(const double *)user * teal_rng_uniform(rng);
  return TEAL_OK;
}

/* A ball quaternion of norm 2 (the state holds it normalized). */
static int ball_unnormalized(const teal_plant *p, int joint, teal_rng *rng, double *q, int nq,
                             teal_error *err, void *user) {
  (void)p, (void)joint, (void)rng, (void)err, (void)user;
  ck_assert_int_eq(nq, 4);
  q[0] = 0.0, q[1] = 2.0, q[2] = 0.0, q[3] = 0.0;
  return TEAL_OK;
}

START_TEST(test_samplers_reach_the_state_reproducibly) {
  model m = make_model();
  double scale = 3.0;
  ck_assert_int_eq(
      teal_plant_set_free_body_random_position_sampler(m.p, m.fb, sphere_position, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_random_rotation_sampler(m.p, m.fb, yaw_rotation, NULL),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_set_joint_random_positions_sampler(m.p, m.hinge, hinge_angle, &scale),
                   TEAL_OK);
  ck_assert_int_eq(
      teal_plant_set_joint_random_positions_sampler(m.p, m.ball, ball_unnormalized, NULL), TEAL_OK);
  int nx = teal_plant_nq(m.p) + teal_plant_nv(m.p);
  double first[64], again[64];
  for (int n = 0; n < 20; n++) {
    teal_vec3 p = random_position(&m, 77u + (uint64_t)n);
    ck_assert_double_eq_tol(teal_vec3_norm(teal_vec3_sub(p, teal_vec3_make(1, 0, 0))), 2.0, 1e-12);
    const teal_transform *X;
    ck_assert_int_eq(teal_plant_eval_body_poses(m.p, m.ctx, &X), TEAL_OK);
    ck_assert_double_eq_tol(X[m.fb].R.m[8], 1.0, 1e-12); /* about z */
    double q[16];
    ck_assert_int_eq(teal_plant_get_positions(m.p, m.ctx, q, teal_plant_nq(m.p)), TEAL_OK);
    /* the joint samplers run first, so the hinge sees the generator's first draw */
    teal_rng ref;
    teal_rng_seed(&ref, 77u + (uint64_t)n);
    ck_assert_double_eq(q[teal_plant_joint_q_start(m.p, m.hinge)], scale * teal_rng_uniform(&ref));
    const double *qb = q + teal_plant_joint_q_start(m.p, m.ball);
    ck_assert(qb[0] == 0.0 && qb[1] == 1.0 && qb[2] == 0.0 && qb[3] == 0.0);
    ck_assert_int_eq(teal_plant_get_state(m.p, m.ctx, n ? again : first, nx), TEAL_OK);
  }
  random_position(&m, 77u);
  ck_assert_int_eq(teal_plant_get_state(m.p, m.ctx, again, nx), TEAL_OK);
  ck_assert_int_eq(memcmp(first, again, (size_t)nx * sizeof(double)), 0);
  /* a joint sampler removed: the hinge is back at its default */
  ck_assert_int_eq(teal_plant_set_joint_random_positions_sampler(m.p, m.hinge, NULL, NULL),
                   TEAL_OK);
  random_position(&m, 78u);
  double q[16];
  ck_assert_int_eq(teal_plant_get_positions(m.p, m.ctx, q, teal_plant_nq(m.p)), TEAL_OK);
  ck_assert_double_eq(q[teal_plant_joint_q_start(m.p, m.hinge)], 0.0);
  free_model(&m);
}
END_TEST

/* ---- failures ------------------------------------------------------------------ */

static int failing_position(const teal_plant *p, int body, teal_rng *rng, teal_vec3 *p_WB,
                            teal_error *err, void *user) {
  (void)p, (void)body, (void)rng, (void)user;
  if (*(const int *)user) {
    *p_WB = teal_vec3_make(0, NAN, 0);
    return TEAL_OK;
  }
  return teal_error_set(err, TEAL_ENOCONV, "rejection sampling gave up");
}

static int bad_rotation(const teal_plant *p, int body, teal_rng *rng, teal_rotation *R,
                        teal_error *err, void *user) {
  (void)p, (void)body, (void)rng, (void)err, (void)user;
  *R = teal_mat3_diag(1, 1, -1); /* a reflection */
  return TEAL_OK;
}

static int nan_joint(const teal_plant *p, int joint, teal_rng *rng, double *q, int nq,
                     teal_error *err, void *user) {
  (void)p, (void)joint, (void)rng, (void)nq, (void)err, (void)user;
  q[0] = NAN;
  return TEAL_OK;
}

/* Each failure names the sampler and body or joint and leaves the state. */
START_TEST(test_failing_samplers) {
  static const int codes[4] = {TEAL_ENOCONV, TEAL_ENONFINITE, TEAL_EINVAL, TEAL_ENONFINITE};
  static const char *const needles[4] = {
      "position sampler of 'fb' failed (", "position sampler of 'fb' drew a position that is not",
      "rotation sampler of 'fb' drew a matrix that is not a rotation",
      "joint positions sampler of 'hinge' drew a value that is not finite"};
  for (int c = 0; c < 4; c++) {
    model m = make_model();
    int nan_flag = c == 1;
    if (c < 2) {
      teal_plant_set_free_body_random_position_sampler(m.p, m.fb, failing_position, &nan_flag);
    } else if (c == 2) {
      teal_plant_set_free_body_random_rotation_sampler(m.p, m.fb, bad_rotation, NULL);
    } else {
      teal_plant_set_joint_random_positions_sampler(m.p, m.hinge, nan_joint, NULL);
    }
    int nx = teal_plant_nq(m.p) + teal_plant_nv(m.p);
    double before[64], after[64];
    for (int i = 0; i < nx; i++) {
      before[i] = 0.01 * i;
    }
    ck_assert_int_eq(teal_plant_set_state(m.p, m.ctx, before, nx), TEAL_OK);
    teal_rng rng;
    teal_rng_seed(&rng, 3u);
    ts_stale_context(m.ctx);
    ts_expect_error_at(__FILE__, __LINE__, teal_plant_set_random_state(m.p, m.ctx, &rng), codes[c],
                       teal_context_error(m.ctx), needles[c]);
    if (c == 0) {
      ck_assert_ptr_nonnull(strstr(teal_context_error(m.ctx)->message, "rejection sampling"));
    }
    ck_assert_int_eq(teal_plant_get_state(m.p, m.ctx, after, nx), TEAL_OK);
    ck_assert_int_eq(memcmp(before, after, (size_t)nx * sizeof(double)), 0);
    free_model(&m);
  }
}
END_TEST

/* A position distribution alone keeps the floating joint's default
 * rotation (here set through the joint's default positions). */
START_TEST(test_position_draw_keeps_the_default_rotation) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int j = teal_plant_add_joint(p, "float", TEAL_JOINT_QUATERNION_FLOATING, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), NULL, 0.0);
  const double q0[7] = {cos(0.3), 0.0, 0.0, sin(0.3), 1.0, 2.0, 3.0}; /* 0.6 rad about z */
  ck_assert_int_eq(teal_plant_set_joint_default_positions(p, j, q0, 7), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_random_position_distribution(
                       p, b, teal_vec3_make(-1, -1, 0), teal_vec3_make(1, 1, 0.5)),
                   TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_rng rng;
  teal_rng_seed(&rng, 5);
  ck_assert_int_eq(teal_plant_set_random_state(p, ctx, &rng), TEAL_OK);
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK);
  teal_rotation R = teal_rotation_from_quaternion(teal_quaternion_make(q0[0], q0[1], q0[2], q0[3]));
  for (int k = 0; k < 9; k++) {
    ck_assert_double_eq_tol(X[b].R.m[k], R.m[k], 1e-12);
  }
  ck_assert(X[b].p.v[0] >= -1 && X[b].p.v[0] <= 1 && X[b].p.v[2] >= 0 && X[b].p.v[2] <= 0.5);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_setter_errors) {
  model m = make_model();
  teal_vec3 zero = teal_vec3_zero();
  const teal_error *e = teal_plant_error(m.p);
  TS_EXPECT_ERROR(teal_plant_set_free_body_random_position_distribution_gaussian(
                      m.p, m.fb, zero, teal_vec3_make(1, -1, 1)),
                  TEAL_EINVAL, e, "standard deviation -1 < 0 on axis 1");
  free_model(&m);
  m = make_model();
  e = teal_plant_error(m.p);
  TS_EXPECT_ERROR(teal_plant_set_free_body_random_position_distribution_gaussian(
                      m.p, m.fb, teal_vec3_make(NAN, 0, 0), zero),
                  TEAL_ENONFINITE, e, "not finite");
  free_model(&m);
  m = make_model();
  e = teal_plant_error(m.p);
  TS_EXPECT_ERROR(teal_plant_set_free_body_random_position_sampler(m.p, 2, sphere_position, NULL),
                  TEAL_EINVAL, e, "body 2 is not a free body");
  free_model(&m);
  m = make_model();
  e = teal_plant_error(m.p);
  TS_EXPECT_ERROR(teal_plant_set_free_body_random_rotation_sampler(m.p, m.fb, NULL, NULL),
                  TEAL_EINVAL, e, "set_free_body_random_rotation_sampler: NULL sampler");
  free_model(&m);
  m = make_model();
  e = teal_plant_error(m.p);
  TS_EXPECT_ERROR(teal_plant_set_joint_random_positions_sampler(m.p, 99, hinge_angle, NULL),
                  TEAL_ENOTFOUND, e, "unknown joint 99");
  free_model(&m);
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  TS_EXPECT_ERROR(teal_plant_set_free_body_random_position_sampler(p, b, sphere_position, NULL),
                  TEAL_ESTATE, teal_plant_error(p), "not finalized");
  teal_plant_free(p);
  ck_assert_int_eq(teal_plant_set_joint_random_positions_sampler(NULL, 0, NULL, NULL), TEAL_EINVAL);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_random");
  TCase *tc = tcase_create("plant_random");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_gaussian_statistics);
  tcase_add_test(tc, test_samplers_reach_the_state_reproducibly);
  tcase_add_test(tc, test_failing_samplers);
  tcase_add_test(tc, test_position_draw_keeps_the_default_rotation);
  tcase_add_test(tc, test_setter_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
