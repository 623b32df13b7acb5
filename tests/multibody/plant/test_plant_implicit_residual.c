/* The continuous plant's implicit residual (Drake's
 * CalcImplicitTimeDerivativesResidual): qdot_p - N(q) v, then
 * M(q) (vdot_p - vdot), checked on random trees over every joint kind
 * against teal_mb_mass_matrix and the plant's explicit derivatives; applied
 * generalized forces enter as the force imbalance; the plant's slice inside a
 * diagram; discrete plants and bad inputs give clear errors. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/system.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define ASSERT_HAS(msg, sub)                                                                   \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", (msg), \
                (sub))

#define TOL 1e-10

/* A plant over topology t with a random state set in a new context. */
static teal_plant *random_plant(int t, unsigned seed, teal_context **ctx) {
  const ts_mb_topology *top = &ts_mb_topologies[t];
  teal_plant *p = ts_mb_random_tree(top->spec, top->n, seed, 1);
  ck_assert_ptr_nonnull(p);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  double *x = calloc((size_t)(nq + nv), sizeof(double));
  unsigned s = seed * 7u + 3u;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, x, x + nq, 1.5), TEAL_OK);
  *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_ptr_nonnull(*ctx);
  ck_assert_int_eq(teal_plant_set_state(p, *ctx, x, nq + nv), TEAL_OK);
  free(x);
  return p;
}

/* The expected residual: qdot_p - qdot from the explicit derivatives xdot,
 * then M (vdot_p - vdot) with M from teal_mb_mass_matrix. */
static void expected_residual(teal_plant *p, const teal_context *ctx, const double *xdot,
                              const double *prop, double *want) {
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  double *q = calloc((size_t)nq, sizeof(double));
  double *M = calloc((size_t)(nv * nv) + 1, sizeof(double));
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, nq), TEAL_OK);
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(data);
  ck_assert_int_eq(teal_mb_mass_matrix(p, data, q, M), TEAL_OK);
  for (int i = 0; i < nq; i++) {
    want[i] = prop[i] - xdot[i];
  }
  for (int i = 0; i < nv; i++) {
    double acc = 0.0;
    for (int j = 0; j < nv; j++) {
      acc += M[i * nv + j] * (prop[nq + j] - xdot[nq + j]);
    }
    want[nq + i] = acc;
  }
  teal_mb_data_free(data);
  free(M);
  free(q);
}

START_TEST(test_residual_matches_mass_matrix_form) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    for (unsigned seed = 1; seed <= 3; seed++) {
      teal_context *ctx;
      teal_plant *p = random_plant(t, seed, &ctx);
      teal_system *sys = teal_plant_system(p);
      int nx = teal_plant_nq(p) + teal_plant_nv(p);
      ck_assert_int_eq(teal_implicit_time_derivatives_residual_size(sys), nx);
      double *xdot = calloc((size_t)nx, sizeof(double)), *prop = calloc((size_t)nx, sizeof(double));
      double *r = calloc((size_t)nx, sizeof(double)), *want = calloc((size_t)nx, sizeof(double));
      ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, xdot), TEAL_OK);
      /* zero at the plant's own derivatives */
      ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, xdot, nx, r, nx),
                       TEAL_OK);
      ck_assert_msg(ts_mb_max_abs(r, nx) < TOL, "%s seed %u: |r| = %g at xdot",
                    ts_mb_topologies[t].name, seed, ts_mb_max_abs(r, nx));
      /* a random proposal */
      unsigned s = seed + 101u;
      ts_mb_rand_vec(&s, prop, nx, 3.0);
      ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, prop, nx, r, nx),
                       TEAL_OK);
      expected_residual(p, ctx, xdot, prop, want);
      double err = ts_mb_max_abs_diff(r, want, nx);
      ck_assert_msg(err < TOL * (1.0 + ts_mb_max_abs(want, nx)), "%s seed %u: residual off by %g",
                    ts_mb_topologies[t].name, seed, err);
      free(xdot);
      free(prop);
      free(r);
      free(want);
      teal_context_free(ctx);
      teal_plant_free(p);
    }
  }
}
END_TEST

/* Drake's v rows are the inverse dynamics of vdot_p with every applied
 * force: proposing the accelerations without an applied generalized force
 * tau_e leaves exactly -tau_e (the force the proposal fails to account for). */
START_TEST(test_applied_forces_enter_the_residual) {
  teal_context *ctx;
  teal_plant *p = random_plant(1, 5, &ctx); /* "tree": every joint kind */
  teal_system *sys = teal_plant_system(p);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p), nx = nq + nv;
  double *x0dot = calloc((size_t)nx, sizeof(double)), *r = calloc((size_t)nx, sizeof(double));
  double *tau = calloc((size_t)nv, sizeof(double));
  ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, x0dot), TEAL_OK);
  unsigned s = 77u;
  ts_mb_rand_vec(&s, tau, nv, 2.0);
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), tau, nv),
      TEAL_OK);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, x0dot, nx, r, nx),
                   TEAL_OK);
  for (int i = 0; i < nq; i++) {
    ck_assert_double_eq_tol(r[i], 0.0, TOL);
  }
  for (int i = 0; i < nv; i++) {
    ck_assert_msg(fabs(r[nq + i] + tau[i]) < TOL, "r_v[%d] = %g, expected %g", i, r[nq + i],
                  -tau[i]);
  }
  free(x0dot);
  free(r);
  free(tau);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A continuous leaf beside the plant: z' = -2 z (default residual). */
static int decay_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                       void *user) {
  (void)sys;
  (void)user;
  xd->z[0] = -2.0 * teal_context_z(ctx)[0];
  return TEAL_OK;
}

/* In a diagram {plant, decay} the root layout is [q; v; z] and the plant's
 * slice is its own residual. */
START_TEST(test_plant_in_a_diagram) {
  teal_context *pctx;
  teal_plant *p = random_plant(0, 2, &pctx); /* "chain" */
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p), nx = nq + nv;
  double *xp = calloc((size_t)nx, sizeof(double));
  ck_assert_int_eq(teal_plant_get_state(p, pctx, xp, nx), TEAL_OK);
  teal_context_free(pctx);
  teal_system *leaf = teal_leaf_new("decay", NULL, NULL);
  double z0 = 1.5;
  ck_assert_int_eq(teal_leaf_declare_continuous_state(leaf, 0, 0, 1, &z0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(leaf, decay_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(leaf), TEAL_OK);
  teal_builder *b = teal_builder_new("scene");
  teal_builder_add(b, teal_plant_system(p));
  teal_builder_add(b, leaf);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  const teal_context *sub = teal_context_subcontext(ctx, teal_plant_system(p));
  ck_assert_int_eq(teal_plant_set_state(p, ctx, xp, nx), TEAL_OK);
  double *prop = calloc((size_t)nx + 1, sizeof(double)),
         *r = calloc((size_t)nx + 1, sizeof(double));
  double *pp = calloc((size_t)nx, sizeof(double)), *rp = calloc((size_t)nx, sizeof(double));
  unsigned s = 9u;
  ts_mb_rand_vec(&s, prop, nx + 1, 2.0);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, prop, nx + 1, r, nx + 1),
                   TEAL_OK);
  memcpy(pp, prop, (size_t)nx * sizeof(double)); /* the plant's [q; v] come first */
  ck_assert_int_eq(
      teal_calc_implicit_time_derivatives_residual(teal_plant_system(p), sub, pp, nx, rp, nx),
      TEAL_OK);
  ck_assert_double_eq_tol(ts_mb_max_abs_diff(r, rp, nx), 0.0, 1e-14);
  ck_assert_double_eq_tol(r[nx], prop[nx] + 2.0 * z0, 1e-14);
  free(prop);
  free(r);
  free(pp);
  free(rp);
  free(xp);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* A discrete pendulum: the residual is not defined. */
START_TEST(test_discrete_plant_unsupported) {
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia I = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -0.5),
                                                             teal_mat3_diag(0.1, 0.1, 0.1));
  int body = teal_plant_add_rigid_body(p, "link", TEAL_DEFAULT_MODEL_INSTANCE, &I);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  ck_assert_int_ge(teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, body), &y, 0.0),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  double prop[2] = {0.1, 0.2}, r[2];
  ck_assert_int_eq(teal_implicit_time_derivatives_residual_size(sys), 0);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, prop, 2, r, 2),
                   TEAL_EUNSUPPORTED);
  ASSERT_HAS(teal_context_error(ctx)->message, "no continuous state");
  ASSERT_HAS(teal_context_error(ctx)->message, "continuous-time");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_bad_inputs) {
  teal_context *ctx;
  teal_plant *p = random_plant(1, 4, &ctx);
  teal_system *sys = teal_plant_system(p);
  int nx = teal_plant_nq(p) + teal_plant_nv(p);
  double *prop = calloc((size_t)nx + 1, sizeof(double)),
         *r = calloc((size_t)nx + 1, sizeof(double));
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, prop, nx - 1, r, nx),
                   TEAL_ESIZE);
  ASSERT_HAS(teal_context_error(ctx)->message, "calc_implicit_time_derivatives_residual");
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, prop, nx, r, nx + 1),
                   TEAL_ESIZE);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, NULL, nx, r, nx),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, prop, nx, NULL, nx),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, NULL, prop, nx, r, nx),
                   TEAL_EINVAL);
  prop[nx - 1] = NAN;
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(sys, ctx, prop, nx, r, nx),
                   TEAL_ENONFINITE);
  ASSERT_HAS(teal_context_error(ctx)->message, "not finite");
  free(prop);
  free(r);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *plant_implicit_residual_suite(void) {
  Suite *s = suite_create("plant_implicit_residual");
  TCase *tc = tcase_create("residual");
  tcase_add_test(tc, test_residual_matches_mass_matrix_form);
  tcase_add_test(tc, test_applied_forces_enter_the_residual);
  tcase_add_test(tc, test_plant_in_a_diagram);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_test(tc, test_discrete_plant_unsupported);
  tcase_add_test(tc, test_bad_inputs);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(plant_implicit_residual_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
