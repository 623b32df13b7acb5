/* The plant's inverse dynamics and gravity forces in a context
 * (multibody/plant/plant_inverse_dynamics.h): the section-7 probe (a 1 kg,
 * 1 m pendulum at rest gives 0, and -tau_g once gravity is passed, as
 * generalized or as spatial forces), M vdot + C v from the mass matrix and
 * the bias term on random trees, the power of applied spatial forces,
 * gravity from the context, and bad inputs with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAX_NV 64

/* A 1 kg point mass 1 m below a hinge about +y: tau_g = -m g l sin(q). */
static teal_plant *pendulum_new(double time_step) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -1.0), teal_mat3_diag(0, 0, 0));
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  ck_assert_int_ge(teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &y, 0.0),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(pendulum_probe_excludes_gravity) {
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_plant *p = pendulum_new(discrete ? 1e-3 : 0.0);
    teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
    double q = 0.5, zero = 0.0, tau = NAN, tau_g = NAN;
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, &q, 1), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &zero, NULL, NULL, &tau), TEAL_OK);
    ck_assert_double_eq_tol(tau, 0.0, 1e-12); /* Drake's formula: no gravity */
    ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, &tau_g), TEAL_OK);
    ck_assert_double_eq_tol(tau_g, -9.81 * sin(0.5), 1e-12);
    ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &zero, &tau_g, NULL, &tau), TEAL_OK);
    ck_assert_double_eq_tol(tau, 9.81 * sin(0.5), 1e-12); /* 4.703 N m, holds it still */
    /* gravity as a spatial force on the bob, at Bo: [p_BoBcm_W x m g; m g] */
    teal_spatial_vector F[2];
    memset(F, 0, sizeof(F));
    teal_vec3 p_BoBcm_W = teal_vec3_make(-sin(0.5), 0, -cos(0.5));
    teal_vec3 f = teal_vec3_make(0, 0, -9.81);
    F[1] = teal_spatial_vector_make(teal_vec3_cross(p_BoBcm_W, f), f);
    ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &zero, NULL, F, &tau), TEAL_OK);
    ck_assert_double_eq_tol(tau, 9.81 * sin(0.5), 1e-12);
    teal_context_free(ctx);
    teal_plant_free(p);
  }
}
END_TEST

/* tau (nv) = M vdot + C v - tau_app, with M from the context's cached mass
 * matrix (CRBA) and C v from teal_mb_bias_term on separate data. */
static void reference_tau(const teal_plant *p, const teal_context *ctx, const double *q,
                          const double *v, const double *vdot, const double *tau_app, double *out) {
  int nv = teal_plant_nv(p);
  const double *M;
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  ck_assert_int_eq(teal_mb_bias_term(p, d, q, v, out), TEAL_OK);
  teal_mb_data_free(d);
  for (int i = 0; i < nv; i++) {
    for (int j = 0; j < nv; j++) {
      out[i] += M[i * nv + j] * vdot[j];
    }
    out[i] -= tau_app[i];
  }
}

/* v . (ID(0) - ID(F)) = sum_B F_B . V_WB: J' F has the power of F. */
static void check_spatial_power(const teal_plant *p, teal_context *ctx, const double *v,
                                const double *vdot, const double *tau0, unsigned *s) {
  int nb = teal_plant_num_bodies(p), nv = teal_plant_nv(p);
  teal_spatial_vector F[32];
  double tau[MAX_NV], power = 0.0, ref = 0.0;
  const teal_spatial_vector *V;
  ck_assert_int_eq(teal_plant_eval_body_velocities(p, ctx, &V), TEAL_OK);
  for (int b = 0; b < nb; b++) {
    ts_mb_rand_vec(s, F[b].v, 6, 2.0);
    ref += b > 0 ? teal_spatial_vector_dot(F[b], V[b]) : 0.0; /* the world's is ignored */
  }
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, NULL, F, tau), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    power += v[i] * (tau0[i] - tau[i]);
  }
  ck_assert_double_eq_tol(power, ref, 1e-9 * (1.0 + fabs(ref)));
}

START_TEST(random_trees_match_mass_matrix_and_bias) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    const ts_mb_topology *top = &ts_mb_topologies[t];
    teal_plant *p = ts_mb_random_tree(top->spec, top->n, 17u + (unsigned)t, 2);
    ck_assert_ptr_nonnull(p);
    teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
    int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
    ck_assert_int_le(nv, MAX_NV);
    unsigned s = 99u + (unsigned)t;
    double q[MAX_NV], v[MAX_NV], vdot[MAX_NV], tau_app[MAX_NV], tau[MAX_NV], ref[MAX_NV];
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ts_mb_rand_vec(&s, vdot, nv, 2.0);
    ts_mb_rand_vec(&s, tau_app, nv, 3.0);
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, nq), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, nv), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, tau_app, NULL, tau), TEAL_OK);
    reference_tau(p, ctx, q, v, vdot, tau_app, ref);
    ck_assert_double_le(ts_mb_max_abs_diff(tau, ref, nv), 1e-9 * (1.0 + ts_mb_max_abs(ref, nv)));
    ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, NULL, NULL, tau), TEAL_OK);
    check_spatial_power(p, ctx, v, vdot, tau, &s);
    teal_context_free(ctx);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(gravity_comes_from_the_context) {
  const ts_mb_topology *top = &ts_mb_topologies[1];
  teal_plant *p = ts_mb_random_tree(top->spec, top->n, 5u, 1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  unsigned s = 7u;
  double q[MAX_NV], tau_g[MAX_NV], ref[MAX_NV], tau[MAX_NV], tau2[MAX_NV], vdot[MAX_NV];
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, NULL, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, nq), TEAL_OK);
  ts_mb_rand_vec(&s, vdot, nv, 1.0);
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, NULL, NULL, tau), TEAL_OK);
  teal_vec3 g = teal_vec3_make(1.0, -2.0, -5.0);
  ck_assert_int_eq(teal_plant_set_gravity_in_context(p, ctx, g), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  ck_assert_int_eq(teal_mb_data_set_gravity(d, g), TEAL_OK);
  ck_assert_int_eq(teal_mb_gravity_forces(p, d, q, ref), TEAL_OK);
  teal_mb_data_free(d);
  ck_assert_double_le(ts_mb_max_abs_diff(tau_g, ref, nv), 1e-12 * (1.0 + ts_mb_max_abs(ref, nv)));
  /* inverse dynamics stays gravity-free whatever the context's gravity, and
   * leaves the plant's own dynamics on the context's gravity */
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, NULL, NULL, tau2), TEAL_OK);
  ck_assert_double_le(ts_mb_max_abs_diff(tau, tau2, nv), 1e-12 * (1.0 + ts_mb_max_abs(tau, nv)));
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau2), TEAL_OK);
  ck_assert_double_le(ts_mb_max_abs_diff(tau_g, tau2, nv), 0.0);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_inputs_report_on_the_context) {
  teal_plant *p = pendulum_new(0.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double zero = 0.0, nan = NAN, tau;
  const teal_error *e = teal_context_error(ctx);
  TS_EXPECT_ERROR(teal_plant_calc_inverse_dynamics(NULL, ctx, &zero, NULL, NULL, &tau), TEAL_EINVAL,
                  e, "NULL plant");
  TS_EXPECT_ERROR(teal_plant_calc_inverse_dynamics(p, ctx, NULL, NULL, NULL, &tau), TEAL_EINVAL, e,
                  "vdot is NULL");
  TS_EXPECT_ERROR(teal_plant_calc_inverse_dynamics(p, ctx, &zero, NULL, NULL, NULL), TEAL_EINVAL, e,
                  "tau_out is NULL");
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, NULL, &zero, NULL, NULL, &tau), TEAL_EINVAL);
  TS_EXPECT_ERROR(teal_plant_calc_inverse_dynamics(p, ctx, &nan, NULL, NULL, &tau), TEAL_ENONFINITE,
                  e, "calc_inverse_dynamics");
  TS_EXPECT_ERROR(teal_plant_calc_inverse_dynamics(p, ctx, &zero, &nan, NULL, &tau),
                  TEAL_ENONFINITE, e, "calc_inverse_dynamics");
  TS_EXPECT_ERROR(teal_plant_calc_gravity_generalized_forces(p, ctx, NULL), TEAL_EINVAL, e,
                  "tau_g is NULL");
  /* a context of another system, and a plant that is not finalized */
  teal_plant *other = pendulum_new(0.0);
  TS_EXPECT_ERROR(teal_plant_calc_gravity_generalized_forces(other, ctx, &tau), TEAL_EINVAL, e,
                  "holds no context of the plant");
  teal_plant_free(other);
  teal_plant *open = teal_plant_new(0.0, NULL);
  TS_EXPECT_ERROR(teal_plant_calc_gravity_generalized_forces(open, ctx, &tau), TEAL_ESTATE, e,
                  "not finalized");
  teal_plant_free(open);
  /* after the failures the context still computes */
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &zero, NULL, NULL, &tau), TEAL_OK);
  ck_assert_double_eq_tol(tau, 0.0, 1e-12);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(calls_allocate_nothing) {
  teal_plant *p = pendulum_new(0.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double zero = 0.0, tau;
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &zero, NULL, NULL, &tau), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  for (int i = 0; i < 10; i++) {
    double q = 0.1 * i;
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, &q, 1), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &zero, NULL, NULL, &tau), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, &tau), TEAL_OK);
  }
  ts_alloc_expect_none();
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *plant_inverse_dynamics_suite(void) {
  Suite *s = suite_create("plant_inverse_dynamics");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, pendulum_probe_excludes_gravity);
  tcase_add_test(tc, random_trees_match_mass_matrix_and_bias);
  tcase_add_test(tc, gravity_comes_from_the_context);
  tcase_add_test(tc, bad_inputs_report_on_the_context);
  tcase_add_test(tc, calls_allocate_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(plant_inverse_dynamics_suite());
}
