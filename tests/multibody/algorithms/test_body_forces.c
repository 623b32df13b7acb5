/* Tests of the force add-in helpers and the tree-equivalent mobility forces
 * (body_forces.h) on random trees with every joint kind. References: station
 * forces and body torques turned into generalized forces must equal the
 * station and frame Jacobian transposes of operators.h (tested there
 * against explicit Jacobians); the tree-equivalent forces must equal minus
 * the inverse dynamics at v = vdot = 0 without gravity, and satisfy the
 * power identity tau . u = sum F . V(u) with V from teal_mb_jacobian_apply. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/body_forces.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/operators.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define NMAX 96
#define NT 5

typedef struct fixture {
  teal_plant *p;
  teal_mb_data *data;
  int nq, nv, nb;
  double q[NMAX], v[NMAX];
  teal_transform X_WB[40];
} fixture;

static void fixture_make(fixture *f, int topology, unsigned seed) {
  const ts_mb_topology *top = &ts_mb_topologies[topology];
  f->p = ts_mb_random_tree(top->spec, top->n, seed, 1);
  ck_assert_ptr_nonnull(f->p);
  f->data = teal_mb_data_new(f->p, NULL);
  ck_assert_ptr_nonnull(f->data);
  f->nq = teal_plant_nq(f->p);
  f->nv = teal_plant_nv(f->p);
  f->nb = teal_plant_num_bodies(f->p);
  ck_assert_int_le(f->nb, 40);
  unsigned s = seed * 17u + 3u;
  ck_assert_int_eq(ts_mb_rand_state(f->p, &s, f->q, f->v, 1.5), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_poses(f->p, f->q, f->X_WB), TEAL_OK);
}

static void fixture_free(fixture *f) {
  teal_mb_data_free(f->data);
  teal_plant_free(f->p);
}

/* Random stations on the last body (twice), the first, the world and one
 * more, with random forces. */
static void rand_tasks(const fixture *f, unsigned *s, int *bodies, teal_vec3 *p_B, teal_vec3 *f_W) {
  const int pick[NT] = {f->nb - 1, 1, 0, f->nb - 1, (int)(*s % (unsigned)f->nb)};
  for (int i = 0; i < NT; i++) {
    bodies[i] = pick[i];
    ts_mb_rand_vec(s, p_B[i].v, 3, 0.7);
    ts_mb_rand_vec(s, f_W[i].v, 3, 2.0);
  }
}

START_TEST(test_station_forces_match_the_station_jacobian_transpose) {
  fixture f;
  fixture_make(&f, _i, 40u + (unsigned)_i);
  unsigned s = 9u + (unsigned)_i;
  int bodies[NT];
  teal_vec3 p_B[NT], f_W[NT];
  rand_tasks(&f, &s, bodies, p_B, f_W);
  teal_spatial_vector F[40];
  memset(F, 0, sizeof F);
  for (int i = 0; i < NT; i++) {
    ck_assert_int_eq(teal_mb_add_in_station_force(f.p, f.X_WB, bodies[i], p_B[i], f_W[i], F, NULL),
                     TEAL_OK);
  }
  double tau[NMAX], ref[NMAX];
  ck_assert_int_eq(teal_mb_calc_tree_equivalent_mobility_forces(f.p, f.data, f.q, F, tau), TEAL_OK);
  ck_assert_int_eq(
      teal_mb_multiply_by_station_jacobian_transpose(f.p, f.data, f.q, NT, bodies, p_B, f_W, ref),
      TEAL_OK);
  ck_assert_double_le(ts_mb_max_abs_diff(tau, ref, f.nv), 1e-12 * (1 + ts_mb_max_abs(ref, f.nv)));
  fixture_free(&f);
}
END_TEST

START_TEST(test_body_torques_match_the_frame_jacobian_transpose) {
  fixture f;
  fixture_make(&f, _i, 50u + (unsigned)_i);
  unsigned s = 19u + (unsigned)_i;
  int bodies[NT];
  teal_vec3 p_B[NT], t_W[NT];
  rand_tasks(&f, &s, bodies, p_B, t_W);
  teal_spatial_vector F[40], F_WAo[NT];
  memset(F, 0, sizeof F);
  for (int i = 0; i < NT; i++) {
    ck_assert_int_eq(teal_mb_add_in_body_torque(f.p, bodies[i], t_W[i], F, NULL), TEAL_OK);
    F_WAo[i] = (teal_spatial_vector){{t_W[i].v[0], t_W[i].v[1], t_W[i].v[2], 0, 0, 0}};
  }
  double tau[NMAX], ref[NMAX];
  ck_assert_int_eq(teal_mb_calc_tree_equivalent_mobility_forces(f.p, f.data, f.q, F, tau), TEAL_OK);
  ck_assert_int_eq(
      teal_mb_multiply_by_frame_jacobian_transpose(f.p, f.data, f.q, NT, bodies, p_B, F_WAo, ref),
      TEAL_OK);
  ck_assert_double_le(ts_mb_max_abs_diff(tau, ref, f.nv), 1e-12 * (1 + ts_mb_max_abs(ref, f.nv)));
  fixture_free(&f);
}
END_TEST

START_TEST(test_tree_equivalent_forces_are_minus_static_inverse_dynamics) {
  fixture f;
  fixture_make(&f, _i, 60u + (unsigned)_i);
  unsigned s = 29u + (unsigned)_i;
  teal_spatial_vector F[40], V[40];
  for (int b = 0; b < f.nb; b++) {
    ts_mb_rand_vec(&s, F[b].v, 6, 3.0);
  }
  double tau[NMAX], id[NMAX], zero[NMAX] = {0}, u[NMAX];
  ck_assert_int_eq(teal_mb_calc_tree_equivalent_mobility_forces(f.p, f.data, f.q, F, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_data_set_gravity(f.data, (teal_vec3){{0, 0, 0}}), TEAL_OK);
  ck_assert_int_eq(teal_mb_inverse_dynamics_ex(f.p, f.data, f.q, zero, zero, NULL, F, id), TEAL_OK);
  double worst = 0;
  for (int i = 0; i < f.nv; i++) {
    worst = fmax(worst, fabs(tau[i] + id[i]));
  }
  ck_assert_double_le(worst, 1e-12 * (1 + ts_mb_max_abs(tau, f.nv)));
  /* power: tau . u = sum_B F_B . V_B(u), the world entry excluded */
  ts_mb_rand_vec(&s, u, f.nv, 1.0);
  ck_assert_int_eq(teal_mb_jacobian_apply(f.p, f.data, f.q, u, V), TEAL_OK);
  double lhs = 0, rhs = 0;
  for (int i = 0; i < f.nv; i++) {
    lhs += tau[i] * u[i];
  }
  for (int b = 1; b < f.nb; b++) {
    for (int c = 0; c < 6; c++) {
      rhs += F[b].v[c] * V[b].v[c];
    }
  }
  ck_assert_double_le(fabs(lhs - rhs), 1e-11 * (1 + fabs(rhs)));
  fixture_free(&f);
}
END_TEST

START_TEST(test_mobility_force_lands_on_its_dof) {
  fixture f;
  fixture_make(&f, 0, 70u);
  for (int j = 0; j < teal_plant_num_joints(f.p); j++) {
    int nv = teal_joint_type_get((teal_joint_kind)teal_plant_joint_kind(f.p, j))->nv;
    for (int w = 0; w < nv; w++) {
      double tau[NMAX] = {0};
      ck_assert_int_eq(teal_mb_add_in_mobility_force(f.p, j, w, 2.5, tau, NULL), TEAL_OK);
      ck_assert_int_eq(teal_mb_add_in_mobility_force(f.p, j, w, 0.5, tau, NULL), TEAL_OK);
      int at = teal_plant_joint_v_start(f.p, j) + w;
      for (int i = 0; i < f.nv; i++) {
        ck_assert(tau[i] == (i == at ? 3.0 : 0.0));
      }
    }
  }
  fixture_free(&f);
}
END_TEST

START_TEST(test_bad_arguments_are_reported_and_add_nothing) {
  fixture f;
  fixture_make(&f, 0, 80u);
  teal_error err;
  teal_spatial_vector F[40];
  memset(F, 0, sizeof F);
  double tau[NMAX] = {0};
  teal_vec3 ok = {{1, 2, 3}}, nan3 = {{NAN, 0, 0}};
  TS_EXPECT_ERROR(teal_mb_add_in_station_force(f.p, f.X_WB, f.nb, ok, ok, F, &err), TEAL_EINVAL,
                  &err, "is not a body index");
  TS_EXPECT_ERROR(teal_mb_add_in_station_force(f.p, NULL, 1, ok, ok, F, &err), TEAL_EINVAL, &err,
                  "NULL X_WB");
  TS_EXPECT_ERROR(teal_mb_add_in_station_force(f.p, f.X_WB, 1, nan3, ok, F, &err), TEAL_ENONFINITE,
                  &err, "p_BS_B");
  TS_EXPECT_ERROR(teal_mb_add_in_body_torque(f.p, -1, ok, F, &err), TEAL_EINVAL, &err,
                  "body -1 is not a body index");
  TS_EXPECT_ERROR(teal_mb_add_in_body_torque(f.p, 1, nan3, F, &err), TEAL_ENONFINITE, &err, "t_W");
  TS_EXPECT_ERROR(teal_mb_add_in_body_torque(NULL, 1, ok, F, &err), TEAL_EINVAL, &err,
                  "NULL plant");
  for (int b = 0; b < f.nb; b++) {
    for (int c = 0; c < 6; c++) {
      ck_assert(F[b].v[c] == 0.0);
    }
  }
  TS_EXPECT_ERROR(teal_mb_add_in_mobility_force(f.p, 99, 0, 1.0, tau, &err), TEAL_EINVAL, &err,
                  "joint 99");
  TS_EXPECT_ERROR(teal_mb_add_in_mobility_force(f.p, 0, 7, 1.0, tau, &err), TEAL_EINVAL, &err,
                  "no dof 7");
  TS_EXPECT_ERROR(teal_mb_add_in_mobility_force(f.p, 0, 0, INFINITY, tau, &err), TEAL_ENONFINITE,
                  &err, "f is not finite");
  TS_EXPECT_ERROR(teal_mb_add_in_mobility_force(f.p, 0, 0, 1.0, NULL, &err), TEAL_EINVAL, &err,
                  "NULL tau");
  ck_assert(ts_mb_max_abs(tau, f.nv) == 0.0);
  /* the world takes nothing */
  ck_assert_int_eq(teal_mb_add_in_body_torque(f.p, 0, ok, F, NULL), TEAL_OK);
  ck_assert(F[0].v[0] == 0.0);
  fixture_free(&f);
}
END_TEST

static Suite *body_forces_suite(void) {
  Suite *s = suite_create("body_forces");
  TCase *tc = tcase_create("forces");
  tcase_add_loop_test(tc, test_station_forces_match_the_station_jacobian_transpose, 0,
                      ts_mb_num_topologies);
  tcase_add_loop_test(tc, test_body_torques_match_the_frame_jacobian_transpose, 0,
                      ts_mb_num_topologies);
  tcase_add_loop_test(tc, test_tree_equivalent_forces_are_minus_static_inverse_dynamics, 0,
                      ts_mb_num_topologies);
  tcase_add_test(tc, test_mobility_force_lands_on_its_dof);
  tcase_add_test(tc, test_bad_arguments_are_reported_and_add_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(body_forces_suite());
}
