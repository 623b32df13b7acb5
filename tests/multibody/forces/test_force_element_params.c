/* Reading back force-element parameters
 * (multibody/forces/force_element_params.h): every built-in kind returns the
 * values it was added with, before and after finalize, and a wrong kind, a
 * bad index or a NULL argument fails with its code and message. */
#include <check.h>
#include <string.h>

#include "multibody/forces/force_element_params.h"
#include "multibody/forces/user_force_element.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static int no_force(const teal_plant *p, const teal_force_element_state *s, teal_spatial_vector *F,
                    double *tau, teal_error *err, void *user) {
  (void)p, (void)s, (void)F, (void)tau, (void)err, (void)user;
  return TEAL_OK;
}

typedef struct four_elements {
  teal_plant *p;
  int b1, b2, hinge, fa, fc;
} four_elements;

/* Two bodies (a hinge from the world, then a free body), frames on them,
 * and one element of every kind in the order spring-damper, revolute
 * spring, bushing, user. */
static four_elements make_plant(void) {
  four_elements m;
  m.p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  m.b1 = teal_plant_add_rigid_body(m.p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  m.b2 = teal_plant_add_rigid_body(m.p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  m.hinge = teal_plant_add_joint(m.p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                 teal_plant_body_frame(m.p, m.b1), &z, 0.0);
  teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0.1, 0.2, 0.3));
  m.fa = teal_plant_add_frame(m.p, "A", teal_plant_body_frame(m.p, m.b1), X);
  m.fc = teal_plant_add_frame(m.p, "C", teal_plant_body_frame(m.p, m.b2), X);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(m.p, m.b1, teal_vec3_make(1, 2, 3), m.b2,
                                                       teal_vec3_make(4, 5, 6), 0.5, 7.0, 0.25),
                   0);
  ck_assert_int_eq(teal_plant_add_revolute_spring(m.p, m.hinge, 0.75, 3.5), 1);
  ck_assert_int_eq(teal_plant_add_linear_bushing_rpy(
                       m.p, m.fa, m.fc, teal_vec3_make(1, 2, 3), teal_vec3_make(4, 5, 6),
                       teal_vec3_make(7, 8, 9), teal_vec3_make(10, 11, 12)),
                   2);
  teal_force_element_ops ops = {no_force, NULL, NULL, NULL};
  ck_assert_int_eq(
      teal_plant_add_force_element(m.p, "custom", TEAL_DEFAULT_MODEL_INSTANCE, &ops, &m), 3);
  return m;
}

static int vec_eq(teal_vec3 a, double x, double y, double z) {
  return a.v[0] == x && a.v[1] == y && a.v[2] == z;
}

static void check_values(const four_elements *m) {
  teal_linear_spring_damper_params sd;
  ck_assert_int_eq(teal_plant_get_linear_spring_damper(m->p, 0, &sd, NULL), TEAL_OK);
  ck_assert_int_eq(sd.body_A, m->b1);
  ck_assert_int_eq(sd.body_B, m->b2);
  ck_assert(vec_eq(sd.p_AP, 1, 2, 3) && vec_eq(sd.p_BQ, 4, 5, 6));
  ck_assert(sd.free_length == 0.5 && sd.stiffness == 7.0 && sd.damping == 0.25);
  teal_revolute_spring_params rs;
  ck_assert_int_eq(teal_plant_get_revolute_spring(m->p, 1, &rs, NULL), TEAL_OK);
  ck_assert_int_eq(rs.joint, m->hinge);
  ck_assert(rs.nominal_angle == 0.75 && rs.stiffness == 3.5);
  teal_linear_bushing_rpy_params bu;
  ck_assert_int_eq(teal_plant_get_linear_bushing_rpy(m->p, 2, &bu, NULL), TEAL_OK);
  ck_assert_int_eq(bu.frame_A, m->fa);
  ck_assert_int_eq(bu.frame_C, m->fc);
  ck_assert(vec_eq(bu.torque_stiffness, 1, 2, 3) && vec_eq(bu.torque_damping, 4, 5, 6));
  ck_assert(vec_eq(bu.force_stiffness, 7, 8, 9) && vec_eq(bu.force_damping, 10, 11, 12));
  ck_assert_int_eq(teal_plant_force_element_kind(m->p, 3), TEAL_FORCE_USER);
  ck_assert_str_eq(teal_plant_force_element_name(m->p, 3), "custom");
}

START_TEST(test_values_before_and_after_finalize) {
  four_elements m = make_plant();
  check_values(&m);
  ck_assert_int_eq(teal_plant_finalize(m.p), TEAL_OK);
  check_values(&m);
  teal_plant_free(m.p);
}
END_TEST

START_TEST(test_errors) {
  four_elements m = make_plant();
  teal_linear_spring_damper_params sd;
  teal_revolute_spring_params rs;
  teal_linear_bushing_rpy_params bu;
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_linear_spring_damper(m.p, 1, &sd, &err), TEAL_ETYPE, &err,
                  "force element 1 is a revolute spring, not a linear spring-damper");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_revolute_spring(m.p, 3, &rs, &err), TEAL_ETYPE, &err,
                  "is a user force element, not a revolute spring");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_linear_bushing_rpy(m.p, 0, &bu, &err), TEAL_ETYPE, &err,
                  "is a linear spring-damper, not a linear bushing");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_linear_bushing_rpy(m.p, 4, &bu, &err), TEAL_ENOTFOUND, &err,
                  "no force element 4 (the plant has 4)");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_revolute_spring(m.p, -1, &rs, &err), TEAL_ENOTFOUND, &err,
                  "no force element -1");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_linear_spring_damper(NULL, 0, &sd, &err), TEAL_EINVAL, &err,
                  "NULL plant");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_linear_spring_damper(m.p, 0, NULL, &err), TEAL_EINVAL, &err,
                  "NULL output");
  ck_assert_int_eq(teal_plant_get_revolute_spring(m.p, 0, &rs, NULL), TEAL_ETYPE);
  teal_plant_free(m.p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("force_element_params");
  TCase *tc = tcase_create("force_element_params");
  tcase_add_test(tc, test_values_before_and_after_finalize);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
