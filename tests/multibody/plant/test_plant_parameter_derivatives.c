/* multibody/plant/plant_parameter_derivatives: d vdot / d pi of the plant
 * against central differences of its generalized acceleration with the
 * body's inertia perturbed in the context (joint damping, a non-default
 * gravity and the context's own masses included), the parameters read
 * back after the context's mass changes, a diagram's root context, the
 * refused cases (discrete
 * plant, locked joint), no allocation and bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram_builder.h"
#include "multibody/algorithms/regressor.h"
#include "multibody/plant/joint_locking.h"
#include "multibody/plant/plant_parameter_derivatives.h"
#include "multibody/plant/plant_parameters.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define NP TEAL_MB_NUM_INERTIAL_PARAMETERS
#define MAXV 64
#define MAXQ 80

/* Sets in ctx (the plant's or one above it) a random state, damping on
 * every joint velocity, a tilted gravity and body 1's mass changed from the
 * model's. */
static void configure(teal_plant *p, teal_context *ctx, unsigned seed) {
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  double q[MAXQ], v[MAXV];
  ck_assert_int_eq(ts_mb_rand_state(p, &seed, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, nv), TEAL_OK);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int body = 1; body < teal_plant_num_bodies(p); body++) {
    double b[6] = {0.3, 0.2, 0.4, 0.1, 0.5, 0.25};
    int j = teal_plant_body_joint(p, body), n = t->nv[teal_plant_body_node(p, body)];
    ck_assert_int_eq(teal_plant_set_joint_damping_in_context(p, ctx, j, b, n), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_set_gravity_in_context(p, ctx, teal_vec3_make(1.0, -2.0, -9.0)),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(p, ctx, 1, 2.5), TEAL_OK);
}

/* A context of p configured as above. */
static teal_context *make_context(teal_plant *p, unsigned seed) {
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_ptr_nonnull(ctx);
  configure(p, ctx, seed);
  return ctx;
}

/* vdot in ctx with body b's parameters pi. */
static void vdot_at(const teal_plant *p, teal_context *ctx, int b, const double *pi, double *vdot) {
  teal_spatial_inertia M;
  ck_assert_int_eq(teal_mb_spatial_inertia_from_parameters(pi, &M, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_body_spatial_inertia_in_context(p, ctx, b, &M), TEAL_OK);
  const double *a;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &a), TEAL_OK);
  memcpy(vdot, a, sizeof(double) * (size_t)teal_plant_nv(p));
}

START_TEST(test_against_central_differences) {
  const ts_mb_topology *tp = &ts_mb_topologies[_i];
  teal_plant *p = ts_mb_random_tree(tp->spec, tp->n, 17 + (unsigned)_i, 1);
  ck_assert_ptr_nonnull(p);
  teal_context *ctx = make_context(p, 3 + (unsigned)_i);
  int nv = teal_plant_nv(p);
  double worst = 0.0;
  for (int b = 1; b < teal_plant_num_bodies(p); b++) {
    double pi0[NP], pi[NP], vdot[MAXV], D[MAXV * NP], vp[MAXV], vm[MAXV];
    ck_assert_int_eq(teal_plant_get_body_inertial_parameters_in_context(p, ctx, b, pi0), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, b, vdot, D),
                     TEAL_OK);
    const double *a;
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &a), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(a, vdot, nv), 1e-10 * (1 + ts_mb_max_abs(a, nv)));
    for (int c = 0; c < NP; c++) {
      const double h = 1e-6;
      memcpy(pi, pi0, sizeof pi);
      pi[c] = pi0[c] + h;
      vdot_at(p, ctx, b, pi, vp);
      pi[c] = pi0[c] - h;
      vdot_at(p, ctx, b, pi, vm);
      double scale = 1.0 + ts_mb_max_abs(vdot, nv);
      for (int i = 0; i < nv; i++) {
        worst = fmax(worst, fabs((vp[i] - vm[i]) / (2 * h) - D[i * NP + c]) / scale);
      }
    }
    vdot_at(p, ctx, b, pi0, vp);
  }
  ck_assert_msg(worst < 1e-6, "%s: %g", tp->name, worst);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The parameters follow the context: scaling the mass scales all ten. */
START_TEST(test_parameters_follow_context) {
  teal_plant *p = ts_mb_random_tree(ts_mb_topologies[0].spec, ts_mb_topologies[0].n, 5, 1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double pi0[NP], pi1[NP], m;
  ck_assert_int_eq(teal_plant_get_body_inertial_parameters_in_context(p, ctx, 2, pi0), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_body_mass_in_context(p, ctx, 2, &m), TEAL_OK);
  ck_assert_double_eq(pi0[0], m);
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(p, ctx, 2, 3.0 * m), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_body_inertial_parameters_in_context(p, ctx, 2, pi1), TEAL_OK);
  for (int c = 0; c < NP; c++) {
    ck_assert_double_eq_tol(pi1[c], 3.0 * pi0[c], 1e-12 * (1 + fabs(pi0[c])));
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A one-link pendulum plant with the given time step. */
static teal_plant *pendulum(double time_step, int *joint) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_point_mass(1.0, teal_vec3_make(0, 0, -1));
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 axis = teal_vec3_make(0, 1, 0);
  *joint = ts_mb_connect(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_BODY, b, &axis);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* Through a diagram's root context both reach the plant's own subcontext
 * and give what a context of the plant alone gives. */
START_TEST(test_diagram_context) {
  teal_plant *p = ts_mb_random_tree(ts_mb_topologies[0].spec, ts_mb_topologies[0].n, 13, 1);
  int nv = teal_plant_nv(p);
  double vdot0[MAXV], D0[MAXV * NP], pi0[NP], vdot1[MAXV], D1[MAXV * NP], pi1[NP];
  teal_context *alone = teal_context_new(teal_plant_system(p), NULL);
  configure(p, alone, 21);
  ck_assert_int_eq(teal_plant_calc_forward_dynamics_parameter_derivatives(p, alone, 1, vdot0, D0),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_get_body_inertial_parameters_in_context(p, alone, 1, pi0), TEAL_OK);
  teal_context_free(alone);
  teal_builder *bld = teal_builder_new("with_plant");
  teal_builder_add(bld, teal_plant_system(p));
  teal_system *d = teal_builder_build(bld, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *root = teal_context_new(d, NULL);
  ck_assert_ptr_nonnull(root);
  configure(p, root, 21);
  ck_assert_int_eq(teal_plant_calc_forward_dynamics_parameter_derivatives(p, root, 1, vdot1, D1),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_get_body_inertial_parameters_in_context(p, root, 1, pi1), TEAL_OK);
  ck_assert_double_eq(ts_mb_max_abs_diff(vdot0, vdot1, nv), 0.0);
  ck_assert_double_eq(ts_mb_max_abs_diff(D0, D1, nv * NP), 0.0);
  ck_assert_double_eq(ts_mb_max_abs_diff(pi0, pi1, NP), 0.0);
  ck_assert_double_eq(pi1[0], 2.5); /* the mass configure set */
  teal_context_free(root);
  teal_system_free(d);
}
END_TEST

START_TEST(test_unsupported) {
  int j;
  double vdot[1], D[NP];
  teal_plant *pd = pendulum(0.01, &j);
  teal_context *cd = teal_context_new(teal_plant_system(pd), NULL);
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(pd, cd, 1, vdot, D),
                  TEAL_EUNSUPPORTED, teal_context_error(cd), "discrete");
  teal_plant *pc = pendulum(0.0, &j);
  teal_context *cc = teal_context_new(teal_plant_system(pc), NULL);
  ck_assert_int_eq(teal_plant_lock_joint(pc, cc, j), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(pc, cc, 1, vdot, D),
                  TEAL_EUNSUPPORTED, teal_context_error(cc), "locked or prescribed");
  ck_assert_int_eq(teal_plant_unlock_joint(pc, cc, j), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_forward_dynamics_parameter_derivatives(pc, cc, 1, vdot, D),
                   TEAL_OK);
  teal_context_free(cc);
  teal_context_free(cd);
  teal_plant_free(pc);
  teal_plant_free(pd);
}
END_TEST

START_TEST(test_no_allocation) {
  teal_plant *p = ts_mb_random_tree(ts_mb_topologies[1].spec, ts_mb_topologies[1].n, 7, 1);
  teal_context *ctx = make_context(p, 11);
  double vdot[MAXV], D[MAXV * NP], q[MAXQ];
  ck_assert_int_eq(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, 2, vdot, D),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, teal_plant_nq(p)), TEAL_OK);
  ts_alloc_install();
  for (int r = 0; r < 3; r++) {
    q[0] += 0.01;
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, teal_plant_nq(p)), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, 2, vdot, D),
                     TEAL_OK);
  }
  ck_assert_uint_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_bad_input) {
  int j;
  teal_plant *p = pendulum(0.0, &j);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const teal_error *e = teal_context_error(ctx);
  double vdot[1], D[NP], pi[NP];
  ck_assert_int_eq(teal_plant_calc_forward_dynamics_parameter_derivatives(p, NULL, 1, vdot, D),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_body_inertial_parameters_in_context(p, NULL, 1, pi), TEAL_EINVAL);
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(NULL, ctx, 1, vdot, D),
                  TEAL_EINVAL, e, "plant");
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, 0, vdot, D),
                  TEAL_EINVAL, e, "the world");
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, 5, vdot, D),
                  TEAL_EINVAL, e, "body = 5");
  /* -1 is the algorithm's TEAL_MB_ALL_BODIES (10 nb columns), not a body
   * here: D holds nv x 10, so it must be refused, not written past */
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, -1, vdot, D),
                  TEAL_EINVAL, e, "body = -1");
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, 1, NULL, D),
                  TEAL_EINVAL, e, "vdot");
  TS_EXPECT_ERROR(teal_plant_calc_forward_dynamics_parameter_derivatives(p, ctx, 1, vdot, NULL),
                  TEAL_EINVAL, e, "dvdot_dpi");
  TS_EXPECT_ERROR(teal_plant_get_body_inertial_parameters_in_context(p, ctx, 0, pi), TEAL_EINVAL, e,
                  "the world");
  TS_EXPECT_ERROR(teal_plant_get_body_inertial_parameters_in_context(p, ctx, 1, NULL), TEAL_EINVAL,
                  e, "pi is NULL");
  ck_assert_int_eq(teal_plant_get_body_inertial_parameters_in_context(p, ctx, 7, pi), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_parameter_derivatives");
  TCase *tc = tcase_create("plant_parameter_derivatives");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_against_central_differences, 0, ts_mb_num_topologies);
  tcase_add_test(tc, test_parameters_follow_context);
  tcase_add_test(tc, test_diagram_context);
  tcase_add_test(tc, test_unsupported);
  tcase_add_test(tc, test_no_allocation);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
