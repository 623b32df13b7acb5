/* Stage queries and q̈ of the plant (multibody/plant/plant_stages.h) on the
 * random trees of every joint kind. References: the stage flags follow
 * which state changed (q moves both, v only the velocity stage);
 * invalidation recomputes to the very same values; q̈ against a central
 * difference of q̇ = N(q) v along the trajectory's own tangent, both taken
 * from teal_calc_time_derivatives, which q̈ does not use. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/system_dynamics.h"
#include "multibody/plant/plant_stages.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

typedef struct fixture {
  teal_plant *p;
  teal_context *ctx;
  int nq, nv;
} fixture;

static fixture make(int topology, unsigned seed) {
  const ts_mb_topology *t = &ts_mb_topologies[topology];
  fixture f = {ts_mb_random_tree(t->spec, t->n, seed, 1), NULL, 0, 0};
  ck_assert_ptr_nonnull(f.p);
  f.ctx = teal_context_new(teal_plant_system(f.p), NULL);
  ck_assert_ptr_nonnull(f.ctx);
  f.nq = teal_plant_nq(f.p);
  f.nv = teal_plant_nv(f.p);
  unsigned s = seed;
  double q[64], v[64];
  ck_assert_int_eq(ts_mb_rand_state(f.p, &s, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(f.p, f.ctx, q, f.nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(f.p, f.ctx, v, f.nv), TEAL_OK);
  return f;
}

static void drop(fixture *f) {
  teal_context_free(f->ctx);
  teal_plant_free(f->p);
}

START_TEST(test_realized_flags_follow_the_state) {
  fixture f = make(0, 11);
  const teal_transform *X;
  const teal_spatial_vector *V;
  ck_assert_int_eq(teal_plant_is_position_kinematics_realized(f.p, f.ctx), 0);
  ck_assert_int_eq(teal_plant_is_velocity_kinematics_realized(f.p, f.ctx), 0);
  ck_assert_int_eq(teal_plant_eval_body_poses(f.p, f.ctx, &X), TEAL_OK);
  ck_assert_int_eq(teal_plant_is_position_kinematics_realized(f.p, f.ctx), 1);
  ck_assert_int_eq(teal_plant_is_velocity_kinematics_realized(f.p, f.ctx), 0);
  ck_assert_int_eq(teal_plant_eval_body_velocities(f.p, f.ctx, &V), TEAL_OK);
  ck_assert_int_eq(teal_plant_is_velocity_kinematics_realized(f.p, f.ctx), 1);
  /* a new v leaves the poses realized */
  double v[64];
  ck_assert_int_eq(teal_plant_get_velocities(f.p, f.ctx, v, f.nv), TEAL_OK);
  v[0] += 0.25;
  ck_assert_int_eq(teal_plant_set_velocities(f.p, f.ctx, v, f.nv), TEAL_OK);
  ck_assert_int_eq(teal_plant_is_position_kinematics_realized(f.p, f.ctx), 1);
  ck_assert_int_eq(teal_plant_is_velocity_kinematics_realized(f.p, f.ctx), 0);
  /* a new q makes both stale */
  ck_assert_int_eq(teal_plant_eval_body_velocities(f.p, f.ctx, &V), TEAL_OK);
  double q[64];
  ck_assert_int_eq(teal_plant_get_positions(f.p, f.ctx, q, f.nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(f.p, f.ctx, q, f.nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_is_position_kinematics_realized(f.p, f.ctx), 0);
  ck_assert_int_eq(teal_plant_is_velocity_kinematics_realized(f.p, f.ctx), 0);
  drop(&f);
}
END_TEST

/* Copies the body poses and velocities and the mass matrix of f. */
static void snapshot(const fixture *f, int nb, teal_transform *X, teal_spatial_vector *V,
                     double *M) {
  const teal_transform *Xc;
  const teal_spatial_vector *Vc;
  const double *Mc;
  ck_assert_int_eq(teal_plant_eval_body_poses(f->p, f->ctx, &Xc), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_velocities(f->p, f->ctx, &Vc), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_mass_matrix(f->p, f->ctx, &Mc), TEAL_OK);
  memcpy(X, Xc, (size_t)nb * sizeof *X);
  memcpy(V, Vc, (size_t)nb * sizeof *V);
  memcpy(M, Mc, (size_t)(f->nv * f->nv) * sizeof *M);
}

START_TEST(test_invalidation_recomputes_the_same_values) {
  fixture f = make(1, 12);
  int nb = teal_plant_num_bodies(f.p);
  teal_transform X0[40], X1[40];
  teal_spatial_vector V0[40], V1[40];
  double M0[64 * 64], M1[64 * 64];
  snapshot(&f, nb, X0, V0, M0);
  ck_assert_int_eq(teal_plant_invalidate_velocity_kinematics(f.p, f.ctx), TEAL_OK);
  ck_assert_int_eq(teal_plant_is_position_kinematics_realized(f.p, f.ctx), 1);
  ck_assert_int_eq(teal_plant_is_velocity_kinematics_realized(f.p, f.ctx), 0);
  ck_assert_int_eq(teal_plant_invalidate_position_kinematics(f.p, f.ctx), TEAL_OK);
  ck_assert_int_eq(teal_plant_is_position_kinematics_realized(f.p, f.ctx), 0);
  snapshot(&f, nb, X1, V1, M1);
  ck_assert_int_eq(teal_plant_is_position_kinematics_realized(f.p, f.ctx), 1);
  ck_assert(memcmp(X0, X1, (size_t)nb * sizeof *X0) == 0);
  ck_assert(memcmp(V0, V1, (size_t)nb * sizeof *V0) == 0);
  ck_assert(memcmp(M0, M1, (size_t)(f.nv * f.nv) * sizeof *M0) == 0);
  drop(&f);
}
END_TEST

/* q̇ = N(q) v at x + eps xdot (quaternions left as they come: N is linear in
 * them, and the difference is taken along the exact tangent). */
static void qdot_at(const fixture *f, const double *x, const double *xdot, double eps,
                    double *qdot) {
  double xe[128], xdot_e[128];
  int n = f->nq + f->nv;
  for (int i = 0; i < n; i++) {
    xe[i] = x[i] + eps * xdot[i];
  }
  teal_context *c = teal_context_clone(f->ctx, NULL);
  ck_assert_ptr_nonnull(c);
  ck_assert_int_eq(teal_context_set_continuous_state(c, xe, n), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(teal_plant_system(f->p), c, xdot_e), TEAL_OK);
  memcpy(qdot, xdot_e, (size_t)f->nq * sizeof *qdot);
  teal_context_free(c);
}

START_TEST(test_qddot_matches_the_derivative_of_qdot) {
  fixture f = make(_i, 13 + (unsigned)_i);
  int n = f.nq + f.nv;
  double x[128], xdot[128], qp[64], qm[64], qddot[64];
  ck_assert_int_eq(teal_plant_get_state(f.p, f.ctx, x, n), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(teal_plant_system(f.p), f.ctx, xdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_qddot(f.p, f.ctx, qddot, f.nq), TEAL_OK);
  const double eps = 1e-5;
  qdot_at(&f, x, xdot, eps, qp);
  qdot_at(&f, x, xdot, -eps, qm);
  double worst = 0, scale = 1;
  for (int i = 0; i < f.nq; i++) {
    double fd = (qp[i] - qm[i]) / (2 * eps);
    worst = fmax(worst, fabs(fd - qddot[i]));
    scale = fmax(scale, fabs(fd));
  }
  ck_assert_msg(worst < 1e-6 * scale, "%s: q̈ off by %g (scale %g)", ts_mb_topologies[_i].name,
                worst, scale);
  drop(&f);
}
END_TEST

START_TEST(test_bad_calls_are_reported) {
  fixture f = make(0, 14);
  double qddot[64];
  const teal_error *e = teal_context_error(f.ctx);
  TS_EXPECT_ERROR(teal_plant_calc_qddot(f.p, f.ctx, qddot, f.nq + 1), TEAL_ESIZE, e,
                  "plant calc_qddot: got room for");
  TS_EXPECT_ERROR(teal_plant_calc_qddot(f.p, f.ctx, NULL, f.nq), TEAL_EINVAL, e,
                  "calc_qddot: the output array is NULL");
  TS_EXPECT_ERROR(teal_plant_is_position_kinematics_realized(NULL, f.ctx), TEAL_EINVAL, e,
                  "is_position_kinematics_realized: NULL plant");
  TS_EXPECT_ERROR(teal_plant_invalidate_velocity_kinematics(NULL, f.ctx), TEAL_EINVAL, e,
                  "invalidate_velocity_kinematics: NULL plant");
  /* a context of another plant's system */
  fixture g = make(1, 15);
  TS_EXPECT_ERROR(teal_plant_invalidate_position_kinematics(f.p, g.ctx), TEAL_EINVAL,
                  teal_context_error(g.ctx), "holds no context of the plant");
  ck_assert_int_eq(teal_plant_calc_qddot(f.p, NULL, qddot, f.nq), TEAL_EINVAL);
  drop(&g);
  drop(&f);
}
END_TEST

static Suite *stages_suite(void) {
  Suite *s = suite_create("plant_stages");
  TCase *tc = tcase_create("stages");
  tcase_add_test(tc, test_realized_flags_follow_the_state);
  tcase_add_test(tc, test_invalidation_recomputes_the_same_values);
  tcase_add_loop_test(tc, test_qddot_matches_the_derivative_of_qdot, 0, ts_mb_num_topologies);
  tcase_add_test(tc, test_bad_calls_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(stages_suite());
}
