/* Force-element arguments (multibody/forces/force_elements.h): every bad add
 * returns TEAL_EINVAL with a sticky error, valid edge values are accepted,
 * adds after finalize are TEAL_ESTATE, and queries, NULL arguments and an
 * unfinalized plant get their codes. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/kinematics.h"
#include "multibody/forces/force_elements.h"
#include "multibody/tree/topology.h"
#include "support/mb_force_fixtures.h"
#include "support/test_support.h"

/* b1 on a revolute joint, b2 on a prismatic joint under b1, b3 free, b4
 * welded to the world; frames A and A2 on b1, C on b2. */
typedef struct bad_fixture {
  teal_plant *p;
  int b1, b2, b3, jr, jp, jw, fA, fA2, fC;
} bad_fixture;

static bad_fixture bad_make(void) {
  bad_fixture f;
  f.p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(f.p);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_vec3 ax = teal_vec3_make(0, 0, 1);
  f.b1 = teal_plant_add_rigid_body(f.p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  f.b2 = teal_plant_add_rigid_body(f.p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  f.b3 = teal_plant_add_rigid_body(f.p, "b3", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b4 = teal_plant_add_rigid_body(f.p, "b4", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  f.jw = teal_plant_add_joint(f.p, "jw", TEAL_JOINT_WELD, TEAL_WORLD_FRAME,
                              teal_plant_body_frame(f.p, b4), NULL, 0);
  f.jr = teal_plant_add_joint(f.p, "jr", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                              teal_plant_body_frame(f.p, f.b1), &ax, 0);
  f.jp = teal_plant_add_joint(f.p, "jp", TEAL_JOINT_PRISMATIC, teal_plant_body_frame(f.p, f.b1),
                              teal_plant_body_frame(f.p, f.b2), &ax, 0);
  f.fA = teal_plant_add_frame(f.p, "A", teal_plant_body_frame(f.p, f.b1),
                              ts_fe_pose(0, 0, 0, 0.1, 0, 0));
  f.fA2 = teal_plant_add_frame(f.p, "A2", teal_plant_body_frame(f.p, f.b1),
                               ts_fe_pose(0, 0, 0, 0, 1, 0));
  f.fC = teal_plant_add_frame(f.p, "C", teal_plant_body_frame(f.p, f.b2),
                              ts_fe_pose(0, 0, 0, 0, 0, 1));
  ck_assert_int_ge(f.jp, 0);
  ck_assert_int_ge(f.jw, 0);
  ck_assert_int_ge(f.fC, 0);
  return f;
}

static int add_spring(const bad_fixture *f, int a, int b, teal_vec3 p, double l0, double k,
                      double d) {
  return teal_plant_add_linear_spring_damper(f->p, a, p, b, teal_vec3_zero(), l0, k, d);
}

static int add_bushing(const bad_fixture *f, int A, int C, double kr, double dr, double kp,
                       double dp) {
  return teal_plant_add_linear_bushing_rpy(f->p, A, C, teal_vec3_make(1, kr, 1),
                                           teal_vec3_make(dr, 1, 1), teal_vec3_make(1, 1, kp),
                                           teal_vec3_make(1, dp, 1));
}

enum { NUM_BAD = 27 };

/* The i-th bad call (each returns TEAL_EINVAL). */
static int bad_call(const bad_fixture *f, int i) {
  teal_vec3 o = teal_vec3_zero();
  int nb = teal_plant_num_bodies(f->p), nj = teal_plant_num_joints(f->p);
  int nf = teal_plant_num_frames(f->p);
  switch (i) {
  case 0: return add_spring(f, f->b1, f->b2, o, 0.0, 1, 1);
  case 1: return add_spring(f, f->b1, f->b2, o, -1.0, 1, 1);
  case 2: return add_spring(f, f->b1, f->b2, o, NAN, 1, 1);
  case 3: return add_spring(f, f->b1, f->b2, o, INFINITY, 1, 1);
  case 4: return add_spring(f, f->b1, f->b2, o, 1.0, -1, 1);
  case 5: return add_spring(f, f->b1, f->b2, o, 1.0, 1, -0.1);
  case 6: return add_spring(f, f->b1, f->b2, o, 1.0, NAN, 1);
  case 7: return add_spring(f, f->b1, f->b2, teal_vec3_make(0, NAN, 0), 1.0, 1, 1);
  case 8: return add_spring(f, f->b1, f->b1, o, 1.0, 1, 1);
  case 9: return add_spring(f, TEAL_WORLD_BODY, TEAL_WORLD_BODY, o, 1.0, 1, 1);
  case 10: return add_spring(f, -1, f->b2, o, 1.0, 1, 1);
  case 11: return add_spring(f, f->b1, nb, o, 1.0, 1, 1);
  case 12: return teal_plant_add_revolute_spring(f->p, f->jp, 0.0, 1.0);
  case 13: return teal_plant_add_revolute_spring(f->p, -1, 0.0, 1.0);
  case 14: return teal_plant_add_revolute_spring(f->p, nj, 0.0, 1.0);
  case 15: return teal_plant_add_revolute_spring(f->p, f->jr, 0.0, -1.0);
  case 16: return teal_plant_add_revolute_spring(f->p, f->jr, NAN, 1.0);
  case 17: return teal_plant_add_revolute_spring(f->p, f->jr, 0.0, INFINITY);
  case 18: return add_bushing(f, f->fA, f->fA2, 1, 1, 1, 1);
  case 19: return add_bushing(f, f->fC, f->fC, 1, 1, 1, 1);
  case 20: return add_bushing(f, -1, f->fC, 1, 1, 1, 1);
  case 21: return add_bushing(f, f->fA, nf, 1, 1, 1, 1);
  case 22: return add_bushing(f, f->fA, f->fC, -1, 1, 1, 1);
  case 23: return add_bushing(f, f->fA, f->fC, 1, NAN, 1, 1);
  case 24: return add_bushing(f, f->fA, f->fC, 1, 1, -INFINITY, 1);
  case 25: return add_bushing(f, f->fA, f->fC, 1, 1, 1, -0.5);
  default: return teal_plant_add_revolute_spring(f->p, f->jw, 0.0, 1.0);
  }
}

/* Each bad call returns TEAL_EINVAL, records it, adds nothing, and makes
 * every later add (even a valid one) and finalize fail with the same code. */
START_TEST(test_bad_inputs) {
  bad_fixture f = bad_make();
  ck_assert_int_eq(add_spring(&f, f.b1, f.b3, teal_vec3_zero(), 1.0, 0.0, 0.0), 0);
  int rc = bad_call(&f, _i);
  ck_assert_msg(rc == TEAL_EINVAL, "case %d: got %d", _i, rc);
  ck_assert_int_eq(teal_plant_error(f.p)->code, TEAL_EINVAL);
  ck_assert_int_ne((int)strlen(teal_plant_error(f.p)->message), 0);
  ck_assert_int_eq(teal_plant_num_force_elements(f.p), 1);
  ck_assert_int_eq(add_spring(&f, f.b1, f.b2, teal_vec3_zero(), 1.0, 1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_add_revolute_spring(f.p, f.jr, 0.0, 1.0), TEAL_EINVAL);
  ck_assert_int_eq(add_bushing(&f, f.fA, f.fC, 1, 1, 1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_num_force_elements(f.p), 1);
  ck_assert_int_eq(teal_plant_finalize(f.p), TEAL_EINVAL);
  teal_plant_free(f.p);
}
END_TEST

/* Valid edge values are accepted; after finalize every add is TEAL_ESTATE;
 * queries, NULL arguments and an unfinalized plant get their codes. */
START_TEST(test_state_and_arguments) {
  bad_fixture f = bad_make();
  ck_assert_int_eq(teal_plant_num_force_elements(NULL), 0);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(NULL, 1, teal_vec3_zero(), 2,
                                                       teal_vec3_zero(), 1, 1, 1),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_add_revolute_spring(NULL, 0, 0, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_add_linear_bushing_rpy(NULL, 0, 1, teal_vec3_zero(), teal_vec3_zero(),
                                                     teal_vec3_zero(), teal_vec3_zero()),
                   TEAL_EINVAL);
  /* edges: zero stiffness and damping, a world anchor, a world frame */
  ck_assert_int_eq(add_spring(&f, TEAL_WORLD_BODY, f.b3, teal_vec3_make(0, 0, 1), 1e-9, 0, 0), 0);
  ck_assert_int_eq(teal_plant_add_revolute_spring(f.p, f.jr, -7.0, 0.0), 1);
  ck_assert_int_eq(add_bushing(&f, TEAL_WORLD_FRAME, f.fC, 0, 0, 0, 0), 2);
  ck_assert_int_eq(teal_plant_force_element_kind(f.p, 2), TEAL_FORCE_LINEAR_BUSHING_RPY);
  ck_assert_int_eq(teal_plant_force_element_kind(f.p, 3), -1);
  ck_assert_int_eq(teal_plant_force_element_kind(f.p, -1), -1);
  ck_assert_int_eq(teal_plant_force_element_kind(NULL, 0), -1);
  /* evaluation before finalize */
  double q[TS_FE_MAXX] = {0}, v[TS_FE_MAXX] = {0}, tau[TS_FE_MAXX] = {0}, pe;
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
  for (int b = 0; b < TS_FE_MAXB; b++) {
    X[b] = teal_transform_identity();
    V[b] = F[b] = teal_spatial_vector_zero();
  }
  teal_error err;
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, F, tau, &err), TEAL_ESTATE);
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, X, &pe, NULL), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_finalize(f.p), TEAL_OK);
  /* after finalize */
  ck_assert_int_eq(add_spring(&f, f.b1, f.b2, teal_vec3_zero(), 1.0, 1, 1), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_add_revolute_spring(f.p, f.jr, 0.0, 1.0), TEAL_ESTATE);
  ck_assert_int_eq(add_bushing(&f, f.fA, f.fC, 1, 1, 1, 1), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_num_force_elements(f.p), 3);
  /* NULL arguments */
  ck_assert_int_eq(teal_plant_default_q(f.p, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_velocities(f.p, q, v, X, V), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_force_elements(NULL, q, v, X, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, NULL, v, X, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, NULL, X, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, NULL, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, NULL, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, NULL, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, F, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(NULL, q, X, &pe, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, NULL, X, &pe, NULL),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, NULL, &pe, NULL),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, X, NULL, NULL), TEAL_EINVAL);
  /* and the finalized plant evaluates */
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, F, tau, &err), TEAL_OK);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, X, &pe, NULL), TEAL_OK);
  ck_assert(isfinite(pe));
  teal_plant_free(f.p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("force_element_args");
  TCase *tc = tcase_create("force_element_args");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_bad_inputs, 0, NUM_BAD);
  tcase_add_test(tc, test_state_and_arguments);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
