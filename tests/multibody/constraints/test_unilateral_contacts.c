/* Unilateral contacts and state-limited friction as model elements
 * (multibody/constraints/unilateral_contacts.c, state_limited_friction.c):
 * adopt returns 0, 1, ... and the counts follow, get reads back what was
 * adopted (the plane normal made unit length), set writes it back before
 * and after finalize, and every bad call fails with its code and a
 * message naming the problem, after finalize without spoiling the plant. */
#include <check.h>
#include <math.h>

#include "support/error_messages.h"
#include "support/test_support.h"
#include "teal.h"

/* A discrete plant (h; 0: continuous) with a box on a hinge and a free
 * ball; joints: 0 the hinge, 1 a ball joint of a third body. */
static teal_plant *model(double h) {
  teal_plant *p = teal_plant_new(h, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.1, 0.1));
  int a = teal_plant_add_rigid_body(p, "arm", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int c = teal_plant_add_rigid_body(p, "knob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  ck_assert_int_eq(teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, a), &y, 0),
                   0);
  ck_assert_int_eq(teal_plant_add_joint(p, "socket", TEAL_JOINT_BALL, teal_plant_body_frame(p, a),
                                        teal_plant_body_frame(p, c), NULL, 0),
                   1);
  return p;
}

static teal_unilateral_contact_spec plane(int body) {
  teal_unilateral_contact_spec s =
      teal_unilateral_contact_spec_default(TEAL_UNILATERAL_POINT_IN_PLANE);
  s.body_a = TEAL_WORLD_BODY;
  s.body_b = body;
  s.n_a = teal_vec3_make(0, 0, 2);
  s.restitution = 0.5;
  s.friction = 0.3;
  return s;
}

static teal_unilateral_contact_spec stop(int joint) {
  teal_unilateral_contact_spec s =
      teal_unilateral_contact_spec_default(TEAL_UNILATERAL_HARD_STOP_UPPER);
  s.joint = joint;
  s.limit = 1.0;
  return s;
}

START_TEST(adopt_count_get_and_set) {
  teal_plant *p = model(1e-3);
  ck_assert_int_eq(teal_plant_num_unilateral_contacts(p), 0);
  ck_assert_int_eq(teal_plant_num_unilateral_contacts(NULL), 0);
  teal_unilateral_contact_spec s = plane(2), rope = plane(2), got;
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
  teal_unilateral_contact_spec hs = stop(0);
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &hs), 1);
  rope.kind = TEAL_UNILATERAL_ROPE;
  rope.friction = 0.0;
  rope.body_a = 1;
  rope.limit = 2.0;
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &rope), 2);
  ck_assert_int_eq(teal_plant_num_unilateral_contacts(p), 3);
  ck_assert_int_eq(teal_plant_get_unilateral_contact(p, 0, &got), TEAL_OK);
  ck_assert_double_eq_tol(got.n_a.v[2], 1.0, 1e-15);
  ck_assert_double_eq(got.restitution, 0.5);
  ck_assert_double_eq(got.friction, 0.3);
  ck_assert_int_eq(got.enabled, 1);
  got.restitution = 0.9;
  ck_assert_int_eq(teal_plant_set_unilateral_contact(p, 0, &got), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  got.friction = 0.7;
  got.enabled = 5;
  ck_assert_int_eq(teal_plant_set_unilateral_contact(p, 0, &got), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_unilateral_contact(p, 0, &got), TEAL_OK);
  ck_assert_double_eq(got.restitution, 0.9);
  ck_assert_double_eq(got.friction, 0.7);
  ck_assert_int_eq(got.enabled, 1);
  ck_assert_int_eq(teal_plant_get_unilateral_contact(p, 2, &got), TEAL_OK);
  ck_assert_int_eq(got.kind, TEAL_UNILATERAL_ROPE);
  ck_assert_double_eq(got.limit, 2.0);
  teal_plant_free(p);
}
END_TEST

/* Each bad spec on a fresh plant: code and message (sticky before
 * finalize, so one per plant). */
static void expect_bad(teal_unilateral_contact_spec s, int code, const char *needle) {
  teal_plant *p = model(1e-3);
  TS_EXPECT_ERROR(teal_plant_adopt_unilateral_contact(p, &s), code, teal_plant_error(p), needle);
  ck_assert_int_eq(teal_plant_num_unilateral_contacts(p), 0);
  teal_plant_free(p);
}

START_TEST(bad_contacts_are_reported) {
  teal_plant *p = model(1e-3);
  TS_EXPECT_ERROR(teal_plant_adopt_unilateral_contact(p, NULL), TEAL_EINVAL, teal_plant_error(p),
                  "NULL spec");
  teal_plant_free(p);
  teal_unilateral_contact_spec s = plane(2);
  s.kind = (teal_unilateral_kind)7;
  expect_bad(s, TEAL_EINVAL, "unknown kind 7");
  s = plane(9);
  expect_bad(s, TEAL_ENOTFOUND, "unknown body 9");
  s = plane(TEAL_WORLD_BODY);
  expect_bad(s, TEAL_EINVAL, "and itself");
  s = plane(2);
  s.n_a = teal_vec3_zero();
  expect_bad(s, TEAL_EINVAL, "normal has zero length");
  s.n_a = teal_vec3_make(NAN, 0, 1);
  expect_bad(s, TEAL_ENONFINITE, "normal is not finite");
  s = plane(2);
  s.p_b.v[1] = INFINITY;
  expect_bad(s, TEAL_ENONFINITE, "a point is not finite");
  s = plane(2);
  s.restitution = 1.5;
  expect_bad(s, TEAL_EINVAL, "restitution 1.5 is outside [0, 1]");
  s.restitution = NAN;
  expect_bad(s, TEAL_ENONFINITE, "not finite");
  s = plane(2);
  s.friction = -0.1;
  expect_bad(s, TEAL_EINVAL, "friction -0.1");
  s = stop(0);
  s.friction = 0.2;
  expect_bad(s, TEAL_EINVAL, "only a point in plane has friction");
  s = stop(1);
  expect_bad(s, TEAL_EINVAL, "joint 'socket' is not a single-dof joint");
  s = stop(4);
  expect_bad(s, TEAL_ENOTFOUND, "unknown joint 4");
  s = plane(2);
  s.kind = TEAL_UNILATERAL_ROPE;
  s.friction = 0.0;
  s.limit = 0.0;
  expect_bad(s, TEAL_EINVAL, "length 0 must be > 0");
}
END_TEST

START_TEST(wrong_plant_or_call_order_is_reported) {
  teal_plant *p = model(0.0);
  teal_unilateral_contact_spec s = plane(2);
  TS_EXPECT_ERROR(teal_plant_adopt_unilateral_contact(p, &s), TEAL_ESTATE, teal_plant_error(p),
                  "needs a discrete plant");
  teal_plant_free(p);
  p = model(1e-3);
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_adopt_unilateral_contact(p, &s), TEAL_ESTATE, teal_plant_error(p),
                  "after finalize");
  teal_unilateral_contact_spec got;
  TS_EXPECT_ERROR(teal_plant_get_unilateral_contact(p, 1, &got), TEAL_ENOTFOUND,
                  teal_plant_error(p), "unknown unilateral contact 1");
  TS_EXPECT_ERROR(teal_plant_get_unilateral_contact(p, 0, NULL), TEAL_EINVAL, teal_plant_error(p),
                  "NULL output");
  ck_assert_int_eq(teal_plant_get_unilateral_contact(NULL, 0, &got), TEAL_EINVAL);
  /* after finalize a bad set leaves the spec as it was */
  s.restitution = -1.0;
  TS_EXPECT_ERROR(teal_plant_set_unilateral_contact(p, 0, &s), TEAL_EINVAL, teal_plant_error(p),
                  "restitution -1");
  s = stop(0);
  TS_EXPECT_ERROR(teal_plant_set_unilateral_contact(p, 0, &s), TEAL_EINVAL, teal_plant_error(p),
                  "the kind may not change");
  TS_EXPECT_ERROR(teal_plant_set_unilateral_contact(p, -1, &s), TEAL_ENOTFOUND, teal_plant_error(p),
                  "unknown unilateral contact -1");
  ck_assert_int_eq(teal_plant_get_unilateral_contact(p, 0, &got), TEAL_OK);
  ck_assert_double_eq(got.restitution, 0.5);
  /* and the plant still steps */
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static teal_state_limited_friction_spec friction(int joint, int contact, double mu, double f) {
  teal_state_limited_friction_spec s = {joint, contact, mu, f, 1};
  return s;
}

START_TEST(state_limited_friction_adopt_count_get_and_set) {
  teal_plant *p = model(1e-3);
  teal_unilateral_contact_spec c = plane(2);
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &c), 0);
  ck_assert_int_eq(teal_plant_num_state_limited_frictions(p), 0);
  ck_assert_int_eq(teal_plant_num_state_limited_frictions(NULL), 0);
  teal_state_limited_friction_spec a = friction(0, -1, 0.0, 2.0), b = friction(0, 0, 0.4, 0.0);
  ck_assert_int_eq(teal_plant_adopt_state_limited_friction(p, &a), 0);
  ck_assert_int_eq(teal_plant_adopt_state_limited_friction(p, &b), 1);
  ck_assert_int_eq(teal_plant_num_state_limited_frictions(p), 2);
  teal_state_limited_friction_spec got;
  ck_assert_int_eq(teal_plant_get_state_limited_friction(p, 1, &got), TEAL_OK);
  ck_assert_int_eq(got.contact, 0);
  ck_assert_double_eq(got.mu, 0.4);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  got.max_force = 3.0;
  got.enabled = 0;
  ck_assert_int_eq(teal_plant_set_state_limited_friction(p, 1, &got), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state_limited_friction(p, 1, &got), TEAL_OK);
  ck_assert_double_eq(got.max_force, 3.0);
  ck_assert_int_eq(got.enabled, 0);
  got.mu = NAN;
  TS_EXPECT_ERROR(teal_plant_set_state_limited_friction(p, 1, &got), TEAL_ENONFINITE,
                  teal_plant_error(p), "not finite");
  TS_EXPECT_ERROR(teal_plant_get_state_limited_friction(p, 2, &got), TEAL_ENOTFOUND,
                  teal_plant_error(p), "unknown state-limited friction 2");
  TS_EXPECT_ERROR(teal_plant_get_state_limited_friction(p, 0, NULL), TEAL_EINVAL,
                  teal_plant_error(p), "NULL output");
  TS_EXPECT_ERROR(teal_plant_adopt_state_limited_friction(p, &a), TEAL_ESTATE, teal_plant_error(p),
                  "after finalize");
  teal_plant_free(p);
}
END_TEST

static void expect_bad_friction(teal_state_limited_friction_spec s, int code, const char *needle) {
  teal_plant *p = model(1e-3);
  teal_unilateral_contact_spec c = plane(2);
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &c), 0);
  TS_EXPECT_ERROR(teal_plant_adopt_state_limited_friction(p, &s), code, teal_plant_error(p),
                  needle);
  teal_plant_free(p);
}

START_TEST(bad_state_limited_frictions_are_reported) {
  teal_plant *p = model(1e-3);
  TS_EXPECT_ERROR(teal_plant_adopt_state_limited_friction(p, NULL), TEAL_EINVAL,
                  teal_plant_error(p), "NULL spec");
  teal_plant_free(p);
  p = model(0.0);
  teal_state_limited_friction_spec s = friction(0, -1, 0.0, 1.0);
  TS_EXPECT_ERROR(teal_plant_adopt_state_limited_friction(p, &s), TEAL_ESTATE, teal_plant_error(p),
                  "needs a discrete plant");
  teal_plant_free(p);
  expect_bad_friction(friction(7, -1, 0.0, 1.0), TEAL_ENOTFOUND, "unknown joint 7");
  expect_bad_friction(friction(1, -1, 0.0, 1.0), TEAL_EINVAL, "'socket' is not a single-dof");
  expect_bad_friction(friction(0, 3, 0.5, 0.0), TEAL_ENOTFOUND, "unknown unilateral contact 3");
  expect_bad_friction(friction(0, -1, 0.5, 0.0), TEAL_EINVAL, "needs a contact");
  expect_bad_friction(friction(0, 0, -0.5, 0.0), TEAL_EINVAL, "mu -0.5");
  expect_bad_friction(friction(0, -1, 0.0, -1.0), TEAL_EINVAL, "max_force -1");
  expect_bad_friction(friction(0, -1, 0.0, INFINITY), TEAL_ENONFINITE, "not finite");
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("unilateral_contacts");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, adopt_count_get_and_set);
  tcase_add_test(tc, bad_contacts_are_reported);
  tcase_add_test(tc, wrong_plant_or_call_order_is_reported);
  tcase_add_test(tc, state_limited_friction_adopt_count_get_and_set);
  tcase_add_test(tc, bad_state_limited_frictions_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
