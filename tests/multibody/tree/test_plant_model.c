/* Plant model building: indices, lookups, errors naming the element,
 * topological ordering, automatic floating joints, loop rejection. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context_tree.h"
#include "framework/diagram_builder.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"
#include "systems/analysis/simulator_run.h"

static teal_spatial_inertia unit_inertia(void) {
  return teal_spatial_inertia_solid_sphere(1.0, 0.1);
}

START_TEST(test_build_and_lookup) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_spatial_inertia M = unit_inertia();
  int inst = teal_plant_add_model_instance(p, "robot");
  ck_assert_int_eq(inst, 2);
  int a = teal_plant_add_rigid_body(p, "a", inst, &M);
  int b = teal_plant_add_rigid_body(p, "b", inst, &M);
  ck_assert_int_eq(a, 1);
  ck_assert_int_eq(b, 2);
  int f =
      teal_plant_add_frame(p, "tip", teal_plant_body_frame(p, a),
                           teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 1)));
  teal_vec3 z = teal_vec3_make(0, 0, 2);
  int j1 = teal_plant_add_joint(p, "j1", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                teal_plant_body_frame(p, a), &z, 0);
  int j2 =
      teal_plant_add_joint(p, "j2", TEAL_JOINT_PRISMATIC, f, teal_plant_body_frame(p, b), &z, 0);
  ck_assert_int_eq(teal_plant_add_joint_actuator(p, "m1", j1, 5.0), 0);
  double damp = 0.5;
  ck_assert_int_eq(teal_plant_set_joint_damping(p, j2, &damp), TEAL_OK);
  teal_error e = {0, ""};
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "b", inst, &e), b);
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "world", -1, &e), 0);
  ck_assert_int_eq(teal_plant_get_frame_by_name(p, "tip", -1, &e), f);
  ck_assert_int_eq(teal_plant_get_joint_by_name(p, "j2", inst, &e), j2);
  ck_assert_int_eq(teal_plant_get_actuator_by_name(p, "m1", -1, &e), 0);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "DefaultModelInstance", &e), 1);
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "zzz", -1, &e), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(e.message, "zzz"));
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "b", 1, NULL), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_nq(p), 2);
  ck_assert_int_eq(teal_plant_nv(p), 2);
  ck_assert_int_eq(teal_plant_nu(p), 1);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_double_eq(t->damping[teal_plant_joint_v_start(p, j2)], 0.5);
  ck_assert_double_eq(t->X_PF[teal_plant_body_node(p, b)].p.v[2], 1.0);
  ck_assert_double_eq_tol(t->params[teal_plant_body_node(p, a)].axis.v[2], 1.0, 1e-15);
  ck_assert_int_eq(teal_plant_add_rigid_body(p, "late", inst, &M), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, "late"));
  teal_plant_free(p);
}
END_TEST

/* Each bad input: its code and a message naming the element. */
static void expect_error(int which, int code, const char *name) {
  teal_plant *p = teal_plant_new(0.01, NULL);
  teal_spatial_inertia M = unit_inertia(), bad = M;
  teal_vec3 x = teal_vec3_make(1, 0, 0), zero = teal_vec3_zero();
  int a = teal_plant_add_rigid_body(p, "a", 1, &M);
  int fa = teal_plant_body_frame(p, a);
  int rc = 0;
  switch (which) {
    case 0: bad.mass = NAN; rc = teal_plant_add_rigid_body(p, "nanbody", 1, &bad); break;
    case 1: bad.mass = -1; rc = teal_plant_add_rigid_body(p, "negbody", 1, &bad); break;
    case 2: bad.I_SP_E.m[1] = 5; rc = teal_plant_add_rigid_body(p, "asym", 1, &bad); break;
    case 3:
      teal_plant_add_joint(p, "first", TEAL_JOINT_REVOLUTE, 0, fa, &x, 0);
      rc = teal_plant_add_joint(p, "second", TEAL_JOINT_REVOLUTE, 0, fa, &x, 0);
      break;
    case 4: {
      int f2 = teal_plant_add_frame(p, "f2", fa, teal_transform_identity());
      rc = teal_plant_add_joint(p, "samebody", TEAL_JOINT_WELD, fa, f2, NULL, 0);
      break;
    }
    case 5: rc = teal_plant_add_joint(p, "badframe", TEAL_JOINT_WELD, 0, 99, NULL, 0); break;
    case 6: rc = teal_plant_add_rigid_body(p, "badinst", 42, &M); break;
    case 7: rc = teal_plant_add_joint(p, "noaxis", TEAL_JOINT_REVOLUTE, 0, fa, &zero, 0); break;
    case 8: rc = teal_plant_add_joint_actuator(p, "act", 7, 1.0); break;
    case 9: rc = teal_plant_add_rigid_body(p, "a", 1, &M); break;
    default: break;
  }
  ck_assert_int_eq(rc, code);
  ck_assert_int_eq(teal_plant_error(p)->code, code);
  ck_assert_msg(strstr(teal_plant_error(p)->message, name) != NULL, "case %d: '%s'", which,
                teal_plant_error(p)->message);
  /* sticky: later calls are no-ops returning the same code */
  ck_assert_int_eq(teal_plant_add_rigid_body(p, "ok", 1, &M), code);
  ck_assert_int_eq(teal_plant_finalize(p), code);
  teal_plant_free(p);
}

START_TEST(test_errors) {
  expect_error(0, TEAL_ENONFINITE, "nanbody");
  expect_error(1, TEAL_EINVAL, "negbody");
  expect_error(2, TEAL_EINVAL, "asym");
  expect_error(3, TEAL_EINVAL, "second");
  expect_error(4, TEAL_EINVAL, "samebody");
  expect_error(5, TEAL_ENOTFOUND, "badframe");
  expect_error(6, TEAL_ENOTFOUND, "badinst");
  expect_error(7, TEAL_EINVAL, "noaxis");
  expect_error(8, TEAL_ENOTFOUND, "act");
  expect_error(9, TEAL_EDUPLICATE, "'a'");
  teal_error e = {0, ""};
  ck_assert_ptr_null(teal_plant_new(-1.0, &e));
  ck_assert_int_eq(e.code, TEAL_EINVAL);
}
END_TEST

START_TEST(test_order_and_floating) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = unit_inertia();
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  /* bodies added leaf first: c <- b <- a <- world, plus a free body d */
  int c = teal_plant_add_rigid_body(p, "c", 1, &M);
  int b = teal_plant_add_rigid_body(p, "b", 1, &M);
  int a = teal_plant_add_rigid_body(p, "a", 1, &M);
  int d = teal_plant_add_rigid_body(p, "d", 1, &M);
  teal_plant_add_joint(p, "jc", TEAL_JOINT_REVOLUTE, teal_plant_body_frame(p, b),
                       teal_plant_body_frame(p, c), &y, 0);
  teal_plant_add_joint(p, "jb", TEAL_JOINT_BALL, teal_plant_body_frame(p, a),
                       teal_plant_body_frame(p, b), NULL, 0);
  teal_plant_add_joint(p, "ja", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, a), &y, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_ESTATE);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int k = 1; k < t->num_nodes; k++) {
    ck_assert_int_lt(t->parent[k], k);
    ck_assert_int_eq(teal_plant_body_node(p, teal_plant_node_body(p, k)), k);
  }
  ck_assert_int_lt(teal_plant_body_node(p, a), teal_plant_body_node(p, b));
  ck_assert_int_lt(teal_plant_body_node(p, b), teal_plant_body_node(p, c));
  int jd = teal_plant_get_joint_by_name(p, "$world_d", -1, NULL);
  ck_assert_int_ge(jd, 0);
  ck_assert_int_eq(teal_plant_joint_kind(p, jd), TEAL_JOINT_QUATERNION_FLOATING);
  ck_assert_int_eq(teal_plant_joint_child_body(p, jd), d);
  ck_assert_int_eq(teal_plant_nq(p), 1 + 4 + 1 + 7);
  ck_assert_int_eq(teal_plant_nv(p), 1 + 3 + 1 + 6);
  int qs = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    ck_assert_int_eq(t->q_start[k], qs);
    qs += t->nq[k];
  }
  double q[13];
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  ck_assert_double_eq(q[t->q_start[teal_plant_body_node(p, d)]], 1.0);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_loop) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = unit_inertia();
  int a = teal_plant_add_rigid_body(p, "a", 1, &M);
  int b = teal_plant_add_rigid_body(p, "b", 1, &M);
  teal_plant_add_joint(p, "ab", TEAL_JOINT_WELD, teal_plant_body_frame(p, a),
                       teal_plant_body_frame(p, b), NULL, 0);
  teal_plant_add_joint(p, "ba", TEAL_JOINT_WELD, teal_plant_body_frame(p, b),
                       teal_plant_body_frame(p, a), NULL, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_EINVAL);
  const char *m = teal_plant_error(p)->message;
  ck_assert_ptr_nonnull(strstr(m, "loop"));
  ck_assert_ptr_nonnull(strstr(m, "'ab'"));
  ck_assert_ptr_nonnull(strstr(m, "'ba'"));
  teal_plant_free(p);
}
END_TEST

/* Two model instances, "left" and "right", each with body "link" (its
 * frame "link"), frame "tip", joint "hinge" and actuator "motor"; the
 * right one also has body "extra". */
static teal_plant *twin_arms(double time_step) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.1, 0.5);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  const char *names[2] = {"left", "right"};
  for (int i = 0; i < 2; i++) {
    int inst = teal_plant_add_model_instance(p, names[i]);
    int b = teal_plant_add_rigid_body(p, "link", inst, &M);
    teal_plant_add_frame(p, "tip", teal_plant_body_frame(p, b),
                         teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -1)));
    int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                 teal_plant_body_frame(p, b), &y, 0.0);
    ck_assert_int_ge(teal_plant_add_joint_actuator(p, "motor", j, 5.0), 0);
  }
  ck_assert_int_ge(teal_plant_add_rigid_body(p, "extra", 3, &M), 0);
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  return p;
}

START_TEST(test_ambiguous_names) {
  teal_plant *p = twin_arms(0.0);
  teal_error e = {0, ""};
  TS_EXPECT_ERROR(teal_plant_get_body_by_name(p, "link", -1, &e), TEAL_EINVAL, &e,
                  "body name 'link' is ambiguous: model instances 'left' and 'right'");
  TS_EXPECT_ERROR(teal_plant_get_frame_by_name(p, "tip", -1, &e), TEAL_EINVAL, &e,
                  "frame name 'tip' is ambiguous");
  TS_EXPECT_ERROR(teal_plant_get_frame_by_name(p, "link", -1, &e), TEAL_EINVAL, &e,
                  "'left' and 'right'");
  TS_EXPECT_ERROR(teal_plant_get_joint_by_name(p, "hinge", -1, &e), TEAL_EINVAL, &e,
                  "joint name 'hinge' is ambiguous");
  TS_EXPECT_ERROR(teal_plant_get_actuator_by_name(p, "motor", -1, &e), TEAL_EINVAL, &e,
                  "pass the model instance");
  TS_EXPECT_ERROR(teal_plant_get_body_by_name(p, "nothing", -1, &e), TEAL_ENOTFOUND, &e,
                  "no body named 'nothing'");
  /* an instance picks one; a name held by one instance needs none */
  int right = teal_plant_get_model_instance_by_name(p, "right", NULL);
  int b = teal_plant_get_body_by_name(p, "link", right, NULL);
  ck_assert_int_ge(b, 0);
  ck_assert_int_eq(teal_plant_body_instance(p, b), right);
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "extra", -1, NULL),
                   teal_plant_get_body_by_name(p, "extra", right, NULL));
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "world", -1, NULL), TEAL_WORLD_BODY);
  int a = teal_plant_get_actuator_by_name(p, "motor", right, NULL);
  ck_assert_int_eq(a, 1);
  ck_assert_int_eq(teal_plant_num_bodies_with_name(p, "link"), 2);
  ck_assert_int_eq(teal_plant_num_bodies_with_name(p, "extra"), 1);
  ck_assert_int_eq(teal_plant_num_bodies_with_name(p, "world"), 1);
  ck_assert_int_eq(teal_plant_num_bodies_with_name(p, "tip"), 0); /* a frame, not a body */
  ck_assert_int_eq(teal_plant_num_bodies_with_name(p, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_num_bodies_with_name(NULL, "link"), TEAL_EINVAL);
  /* three instances: the message says there are more */
  int third = teal_plant_add_model_instance(p, "third");
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.1, 0.5);
  ck_assert_int_ge(teal_plant_add_rigid_body(p, "link", third, &M), 0);
  ck_assert_int_eq(teal_plant_num_bodies_with_name(p, "link"), 3);
  TS_EXPECT_ERROR(teal_plant_get_body_by_name(p, "link", -1, &e), TEAL_EINVAL, &e, "and more");
  teal_plant_free(p);
}
END_TEST

START_TEST(test_plant_name) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_str_eq(teal_plant_name(p), "plant");
  ck_assert_ptr_null(teal_plant_name(NULL));
  ck_assert_int_eq(teal_plant_set_name(NULL, "x"), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_name(p, "arm"), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_name(p, "arm2"), TEAL_OK);
  ck_assert_str_eq(teal_plant_name(p), "arm2");
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_str_eq(teal_system_name(teal_plant_system(p)), "arm2");
  TS_EXPECT_ERROR(teal_plant_set_name(p, "late"), TEAL_ESTATE, teal_plant_error(p),
                  "after finalize");
  teal_plant_free(p);
  const char *bad[3] = {"", "a/b", NULL}, *why[3] = {"is empty", "contains '/'", "is NULL"};
  for (int i = 0; i < 3; i++) {
    p = teal_plant_new(0.0, NULL);
    TS_EXPECT_ERROR(teal_plant_set_name(p, bad[i]), TEAL_EINVAL, teal_plant_error(p), why[i]);
    ck_assert_str_eq(teal_plant_name(p), "plant");
    ck_assert_int_eq(teal_plant_set_name(p, "ok"), TEAL_EINVAL); /* sticky */
    teal_plant_free(p);
  }
}
END_TEST

/* A pendulum plant named name, finalized, released at q0 (the builder
 * takes its system). */
static teal_system *named_pendulum(const char *name) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  if (name) {
    ck_assert_int_eq(teal_plant_set_name(p, name), TEAL_OK);
  }
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.1, 0.5);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  teal_transform X_BM = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.5));
  int m = teal_plant_add_frame(p, "pivot", teal_plant_body_frame(p, b), X_BM);
  ck_assert_int_ge(
      teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME, m, &y, 0.0), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return teal_plant_system(p);
}

START_TEST(test_two_named_plants_in_one_diagram) {
  teal_builder *b = teal_builder_new("twins");
  teal_system *left = teal_builder_add(b, named_pendulum("left"));
  teal_system *right = teal_builder_add(b, named_pendulum("right"));
  ck_assert_ptr_nonnull(left);
  ck_assert_ptr_nonnull(right);
  teal_error err = {0, ""};
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  ck_assert_ptr_nonnull(sim);
  teal_context *ctx = teal_simulator_context(sim);
  double q = 0.4;
  ck_assert_int_eq(teal_plant_set_positions(teal_plant_from_system(left), ctx, &q, 1), TEAL_OK);
  q = -0.4;
  ck_assert_int_eq(teal_plant_set_positions(teal_plant_from_system(right), ctx, &q, 1), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 1.0, &st), TEAL_OK);
  double ql, qr;
  ck_assert_int_eq(teal_plant_get_positions(teal_plant_from_system(left), ctx, &ql, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_positions(teal_plant_from_system(right), ctx, &qr, 1), TEAL_OK);
  ck_assert_double_gt(fabs(ql - 0.4), 0.1); /* it swung */
  ck_assert_double_eq_tol(ql, -qr, 1e-6);   /* mirror images, each in its own subcontext */
  ck_assert_ptr_nonnull(teal_context_subcontext_by_name(ctx, "right"));
  teal_simulator_free(sim);
  teal_system_free(d);
  /* two plants left at the default name clash in the builder */
  b = teal_builder_new("clash");
  ck_assert_ptr_nonnull(teal_builder_add(b, named_pendulum(NULL)));
  ck_assert_ptr_null(teal_builder_add(b, named_pendulum(NULL)));
  ck_assert_int_eq(teal_builder_error(b)->code, TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(teal_builder_error(b)->message, "'plant' was already added"));
  teal_builder_free(b);
}
END_TEST

/* A frame added to another instance than its body's, and a joint whose
 * child frame it is: both are that instance's (Drake's FixedOffsetFrame
 * with a model instance; a joint is its child frame's instance's). */
START_TEST(test_frame_in_instance) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int a = teal_plant_add_model_instance(p, "a"), b = teal_plant_add_model_instance(p, "b");
  teal_spatial_inertia M = unit_inertia();
  int body = teal_plant_add_rigid_body(p, "l", b, &M);
  teal_transform up = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 1));
  int f = teal_plant_add_frame_in_instance(p, "J_child", a, teal_plant_body_frame(p, body), up);
  ck_assert_int_ge(f, 0);
  ck_assert_int_eq(teal_plant_frame_body(p, f), body);
  ck_assert_double_eq(teal_plant_frame_pose_in_body(p, f)->p.v[2], 1.0);
  ck_assert_int_eq(teal_plant_get_frame_by_name(p, "J_child", a, NULL), f);
  ck_assert_int_lt(teal_plant_get_frame_by_name(p, "J_child", b, NULL), 0);
  /* a frame on it inherits its instance */
  int g = teal_plant_add_frame(p, "G", f, up);
  ck_assert_int_eq(teal_plant_get_frame_by_name(p, "G", a, NULL), g);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  int j = teal_plant_add_joint(p, "J", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME, f, &z, 0);
  ck_assert_int_eq(teal_plant_get_joint_by_name(p, "J", a, NULL), j);
  ck_assert_int_lt(teal_plant_get_joint_by_name(p, "J", b, NULL), 0);
  ck_assert_int_eq(teal_plant_add_joint_actuator(p, "u", j, 1.0), 0);
  ck_assert_int_eq(teal_plant_get_actuator_by_name(p, "u", a, NULL), 0);
  /* bad instances, with the plant's sticky error */
  teal_plant *q = teal_plant_new(0.0, NULL);
  TS_EXPECT_ERROR(teal_plant_add_frame_in_instance(q, "x", 2, TEAL_WORLD_FRAME, up), TEAL_ENOTFOUND,
                  teal_plant_error(q), "frame 'x': unknown model instance 2");
  teal_plant_free(q);
  q = teal_plant_new(0.0, NULL);
  TS_EXPECT_ERROR(teal_plant_add_frame_in_instance(q, "x", -1, TEAL_WORLD_FRAME, up),
                  TEAL_ENOTFOUND, teal_plant_error(q), "frame 'x': unknown model instance -1");
  teal_plant_free(q);
  q = teal_plant_new(0.0, NULL);
  TS_EXPECT_ERROR(teal_plant_add_frame_in_instance(q, "x", 1, 5, up), TEAL_ENOTFOUND,
                  teal_plant_error(q), "frame 'x': unknown parent frame 5");
  teal_plant_free(q);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_model");
  TCase *tc = tcase_create("plant_model");
  tcase_add_test(tc, test_build_and_lookup);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_order_and_floating);
  tcase_add_test(tc, test_loop);
  tcase_add_test(tc, test_ambiguous_names);
  tcase_add_test(tc, test_plant_name);
  tcase_add_test(tc, test_two_named_plants_in_one_diagram);
  tcase_add_test(tc, test_frame_in_instance);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
