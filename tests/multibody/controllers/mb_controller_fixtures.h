/* Fixtures shared by the tests of multibody/controllers/: small plants (a
 * 3-D chain of rods, Spong's acrobot, a floating base with an arm), input
 * and output helpers. Header-only (static inline functions), included by each test
 * program. */
#ifndef TEAL_TESTS_MULTIBODY_CONTROLLERS_MB_CONTROLLER_FIXTURES_H
#define TEAL_TESTS_MULTIBODY_CONTROLLERS_MB_CONTROLLER_FIXTURES_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "multibody/algorithms/data.h"
#include "multibody/forces/force_elements.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

#define ASSERT_HAS(msg, sub)                                                            \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

/* Options of fx_chain_new. */
typedef struct fx_chain_opts {
  int n;            /* links */
  int actuated;     /* one actuator per joint */
  double damping;   /* joint damping of every joint */
  int with_springs; /* a revolute spring on joint 0 and a spring-damper */
  int finalize;
} fx_chain_opts;

/* A chain of n uniform rods (1 kg, 0.5 m) hanging along -z, hinge axes
 * alternating y, x, y, ... so that the motion is three-dimensional. */
static inline teal_plant *fx_chain_new(const fx_chain_opts *o) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int parent = TEAL_WORLD_FRAME, first_body = -1, last_body = -1, first_joint = -1;
  for (int i = 0; i < o->n; i++) {
    char name[32];
    snprintf(name, sizeof(name), "link%d", i + 1);
    teal_spatial_inertia M = teal_spatial_inertia_from_central(
        1.0, teal_vec3_make(0, 0, -0.25), teal_mat3_diag(1.0 / 48, 1.0 / 48, 1e-3));
    int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    teal_vec3 axis = (i % 2) ? teal_vec3_make(1, 0, 0) : teal_vec3_make(0, 1, 0);
    snprintf(name, sizeof(name), "joint%d", i + 1);
    int j = teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, parent,
                                 teal_plant_body_frame(p, b), &axis, 0);
    ck_assert_int_ge(j, 0);
    ck_assert_int_eq(teal_plant_set_joint_damping(p, j, &o->damping), TEAL_OK);
    if (o->actuated) {
      snprintf(name, sizeof(name), "motor%d", i + 1);
      ck_assert_int_ge(teal_plant_add_joint_actuator(p, name, j, INFINITY), 0);
    }
    snprintf(name, sizeof(name), "tip%d", i + 1);
    parent = teal_plant_add_frame(p, name, teal_plant_body_frame(p, b),
                                  teal_transform_make(teal_rotation_identity(),
                                                      teal_vec3_make(0, 0, -0.5)));
    first_body = first_body < 0 ? b : first_body;
    first_joint = first_joint < 0 ? j : first_joint;
    last_body = b;
  }
  if (o->with_springs) {
    ck_assert_int_ge(teal_plant_add_revolute_spring(p, first_joint, 0.3, 4.0), 0);
    ck_assert_int_ge(teal_plant_add_linear_spring_damper(p, first_body, teal_vec3_make(0.1, 0, 0),
                                                         last_body, teal_vec3_make(0, 0.05, -0.4),
                                                         0.2, 30.0, 0.7),
                     0);
  }
  if (o->finalize) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

/* The finalized 3-link chain with the given actuation and damping. */
static inline teal_plant *fx_chain3(int actuated, double damping) {
  fx_chain_opts o = {3, actuated, damping, 0, 1};
  return fx_chain_new(&o);
}

/* Spong's acrobot (as in tests/multibody/plant/test_plant_system.c): hinges about
 * +y, links along -z at q = 0, damping 0.1 on both joints, the elbow
 * actuated. */
static inline teal_plant *fx_acrobot_new(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  const double b = 0.1;
  teal_spatial_inertia M1 = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -0.5), teal_mat3_diag(0.083, 0.083, 0.083));
  teal_spatial_inertia M2 = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -1.0), teal_mat3_diag(0.33, 0.33, 0.33));
  int b1 = teal_plant_add_rigid_body(p, "link1", TEAL_DEFAULT_MODEL_INSTANCE, &M1);
  int b2 = teal_plant_add_rigid_body(p, "link2", TEAL_DEFAULT_MODEL_INSTANCE, &M2);
  int elbow = teal_plant_add_frame(p, "elbow", teal_plant_body_frame(p, b1),
                                   teal_transform_make(teal_rotation_identity(),
                                                       teal_vec3_make(0, 0, -1.0)));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j1 = teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                teal_plant_body_frame(p, b1), &y, 0.0);
  int j2 = teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, elbow,
                                teal_plant_body_frame(p, b2), &y, 0.0);
  teal_plant_set_joint_damping(p, j1, &b);
  teal_plant_set_joint_damping(p, j2, &b);
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "elbow_motor", j2, INFINITY), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* A free-floating torso (quaternion joint added at finalize) carrying a
 * one-link arm on a revolute joint: nq = 8, nv = 7. */
static inline teal_plant *fx_floating_arm_new(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_spatial_inertia Mt = teal_spatial_inertia_from_central(
      3.0, teal_vec3_zero(), teal_mat3_diag(0.2, 0.3, 0.25));
  teal_spatial_inertia Ma = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -0.3), teal_mat3_diag(0.03, 0.03, 0.002));
  int torso = teal_plant_add_rigid_body(p, "torso", TEAL_DEFAULT_MODEL_INSTANCE, &Mt);
  int arm = teal_plant_add_rigid_body(p, "arm", TEAL_DEFAULT_MODEL_INSTANCE, &Ma);
  int shoulder = teal_plant_add_frame(p, "shoulder_frame", teal_plant_body_frame(p, torso),
                                      teal_transform_make(teal_rotation_identity(),
                                                          teal_vec3_make(0.2, 0, 0)));
  teal_vec3 x = teal_vec3_make(1, 0, 0);
  int j = teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, shoulder,
                               teal_plant_body_frame(p, arm), &x, 0.0);
  const double b = 0.05;
  teal_plant_set_joint_damping(p, j, &b);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* A random state of plant (normalized quaternions) with entries of size a. */
static inline void fx_rand_state(const teal_plant *p, unsigned *seed, double *x, double a) {
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  for (int i = 0; i < nq + nv; i++) {
    x[i] = ts_rand_uniform(seed, -a, a);
  }
  ck_assert_int_eq(teal_plant_normalize_q(p, x), TEAL_OK);
}

/* Fixes a vector input of ctx by name. */
static inline void fx_fix(const teal_system *sys, teal_context *ctx, const char *port,
                          const double *x, int n) {
  const teal_input_port *ip = teal_system_input_port_by_name(sys, port);
  ck_assert_msg(ip != NULL, "no input %s", port);
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_input_port_index(ip), x, n), TEAL_OK);
}

/* Evaluates vector output 0 of sys into out (n values). */
static inline void fx_output(const teal_system *sys, const teal_context *ctx, double *out,
                             int n) {
  const double *y;
  int rc = teal_eval_vector_output(sys, ctx, 0, &y);
  ck_assert_msg(rc == TEAL_OK, "eval: %s", teal_context_error(ctx)->message);
  memcpy(out, y, (size_t)n * sizeof(double));
}

/* Largest |a_i - b_i| relative to max(1, |b|_inf). */
static inline double fx_rel_diff(const double *a, const double *b, int n) {
  double d = 0, s = 1;
  for (int i = 0; i < n; i++) {
    d = fmax(d, fabs(a[i] - b[i]));
    s = fmax(s, fabs(b[i]));
  }
  return d / s;
}

#endif
