/* The plant as a leaf system (multibody/plant/plant_system.h): ports and sizes,
 * state access, Spong's acrobot equations through the ports, feedthrough,
 * caching on/off, energy conservation with RK45, the torque-free symmetric
 * body with quaternion projection, LQR balance of the acrobot in continuous
 * and discrete mode, discrete joint limits, reaction forces, bad inputs and
 * an allocation-free simulation loop. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/diagram.h"
#include "framework/system_internal.h"
#include "multibody/algorithms/data.h"
#include "multibody/forces/force_elements.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/linearize.h"
#include "systems/analysis/simulator.h"
#include "systems/controllers/lqr.h"

/* ---- models ------------------------------------------------------------------ */

/* Spong's acrobot: links hang along -z at q = 0, hinges about +y, the
 * elbow actuated. */
typedef struct acrobot_params {
  double m1, m2, l1, lc1, lc2, Ic1, Ic2, b1, b2, g;
} acrobot_params;

static const acrobot_params spong = {1.0, 1.0, 1.0, 0.5, 1.0, 0.083, 0.33, 0.1, 0.1, 9.81};

static teal_spatial_inertia link_inertia(double m, double lc, double Ic) {
  return teal_spatial_inertia_from_central(m, teal_vec3_make(0, 0, -lc),
                                           teal_mat3_diag(Ic, Ic, Ic));
}

static teal_plant *acrobot_new(double time_step) {
  const acrobot_params *a = &spong;
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  int inst = teal_plant_add_model_instance(p, "acrobot");
  teal_spatial_inertia M1 = link_inertia(a->m1, a->lc1, a->Ic1);
  teal_spatial_inertia M2 = link_inertia(a->m2, a->lc2, a->Ic2);
  int b1 = teal_plant_add_rigid_body(p, "link1", inst, &M1);
  int b2 = teal_plant_add_rigid_body(p, "link2", inst, &M2);
  int elbow = teal_plant_add_frame(p, "elbow", teal_plant_body_frame(p, b1),
                                   teal_transform_make(teal_rotation_identity(),
                                                       teal_vec3_make(0, 0, -a->l1)));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j1 = teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                teal_plant_body_frame(p, b1), &y, 0.0);
  int j2 = teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, elbow,
                                teal_plant_body_frame(p, b2), &y, 0.0);
  teal_plant_set_joint_damping(p, j1, &a->b1);
  teal_plant_set_joint_damping(p, j2, &a->b2);
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "elbow_motor", j2, INFINITY), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* Spong's M, C v + damping and gravity terms for q measured about +y
 * (rotation about +y moves -z toward -x: the pendulum angle convention). */
static void spong_terms(const double *q, const double *v, double *M, double *bias) {
  const acrobot_params *a = &spong;
  double c2 = cos(q[1]), s2 = sin(q[1]);
  double I1 = a->Ic1 + a->m1 * a->lc1 * a->lc1, I2 = a->Ic2 + a->m2 * a->lc2 * a->lc2;
  double m2l1lc2 = a->m2 * a->l1 * a->lc2;
  M[0] = I1 + I2 + a->m2 * a->l1 * a->l1 + 2 * m2l1lc2 * c2;
  M[1] = M[2] = I2 + m2l1lc2 * c2;
  M[3] = I2;
  /* C v - tau_g + damping: Spong's equations with theta measured from down */
  double g1 = a->g * ((a->m1 * a->lc1 + a->m2 * a->l1) * sin(q[0]) +
                      a->m2 * a->lc2 * sin(q[0] + q[1]));
  double g2 = a->g * a->m2 * a->lc2 * sin(q[0] + q[1]);
  bias[0] = -2 * m2l1lc2 * s2 * v[0] * v[1] - m2l1lc2 * s2 * v[1] * v[1] + g1 + a->b1 * v[0];
  bias[1] = m2l1lc2 * s2 * v[0] * v[0] + g2 + a->b2 * v[1];
}

static teal_context *plant_context(teal_plant *p) {
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_ptr_nonnull(ctx);
  return ctx;
}

/* ---- ports, state, Spong ---------------------------------------------------------- */

START_TEST(ports_have_drake_names_and_sizes) {
  teal_plant *p = acrobot_new(0.0);
  teal_system *sys = teal_plant_system(p);
  ck_assert_ptr_eq(teal_plant_from_system(sys), p);
  const struct {
    const char *name;
    int input, size;
  } ports[] = {{"actuation", 1, 1},           {"acrobot_actuation", 1, 1},
               {"applied_generalized_force", 1, 2}, {"applied_spatial_force", 1, 0},
               {"state", 0, 4},               {"acrobot_state", 0, 4},
               {"DefaultModelInstance_state", 0, 0}, {"generalized_acceleration", 0, 2},
               {"body_poses", 0, 0},          {"body_spatial_velocities", 0, 0},
               {"body_spatial_accelerations", 0, 0}, {"reaction_forces", 0, 0}};
  for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
    if (ports[i].input) {
      const teal_input_port *ip = teal_system_input_port_by_name(sys, ports[i].name);
      ck_assert_msg(ip != NULL, "missing input %s", ports[i].name);
      ck_assert_int_eq(teal_input_port_size(ip), ports[i].size);
    } else {
      const teal_output_port *op = teal_system_output_port_by_name(sys, ports[i].name);
      ck_assert_msg(op != NULL, "missing output %s", ports[i].name);
      ck_assert_int_eq(teal_output_port_size(op), ports[i].size);
    }
  }
  int u = teal_plant_actuation_input_port(p);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, u, teal_plant_state_output_port(p)), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, u, teal_plant_body_poses_output_port(p)),
                   0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(
                       sys, u, teal_plant_generalized_acceleration_output_port(p)),
                   1);
  ck_assert_int_eq(teal_plant_instance_state_output_port(p, 99), TEAL_ENOTFOUND);
  ck_assert_double_eq(teal_plant_actuator_effort_limit(p, 0), INFINITY);
  ck_assert(isnan(teal_plant_actuator_effort_limit(p, 5)));
  double B[2], two[2] = {1, 2};
  ck_assert_int_eq(teal_plant_make_actuation_matrix(p, B), TEAL_OK);
  ck_assert_double_eq(B[0], 0.0);
  ck_assert_double_eq(B[1], 1.0); /* the elbow */
  teal_context *ctx = plant_context(p);
  ck_assert_int_eq(teal_context_fix_input(ctx, u, two, 2), TEAL_ESIZE);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(acrobot_accelerations_match_spong) {
  teal_plant *p = acrobot_new(0.0);
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = plant_context(p);
  unsigned seed = 7;
  for (int trial = 0; trial < 20; trial++) {
    double x[4], u = ts_rand_uniform(&seed, -3, 3);
    for (int i = 0; i < 4; i++) {
      x[i] = ts_rand_uniform(&seed, -3, 3);
    }
    ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 4), TEAL_OK);
    ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1),
                     TEAL_OK);
    double M[4], bias[2];
    spong_terms(x, x + 2, M, bias);
    const double *Mp, *vdot;
    ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &Mp), TEAL_OK);
    for (int i = 0; i < 4; i++) {
      ck_assert_double_eq_tol(Mp[i], M[i], 1e-12);
    }
    ck_assert_int_eq(teal_eval_vector_output(
                         sys, ctx, teal_plant_generalized_acceleration_output_port(p), &vdot),
                     TEAL_OK);
    /* M vdot = [0; u] - bias */
    double r0 = -bias[0], r1 = u - bias[1], det = M[0] * M[3] - M[1] * M[2];
    ck_assert_double_eq_tol(vdot[0], (M[3] * r0 - M[1] * r1) / det, 1e-10);
    ck_assert_double_eq_tol(vdot[1], (M[0] * r1 - M[2] * r0) / det, 1e-10);
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(state_access_and_outputs) {
  teal_plant *p = acrobot_new(0.0);
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = plant_context(p);
  double x[4] = {0.1, -0.2, 0.3, 0.4}, got[4];
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, x, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, x + 2, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, got, 4), TEAL_OK);
  const double *y, *yi;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, teal_plant_state_output_port(p), &y), TEAL_OK);
  int inst = teal_plant_get_model_instance_by_name(p, "acrobot", NULL);
  ck_assert_int_eq(
      teal_eval_vector_output(sys, ctx, teal_plant_instance_state_output_port(p, inst), &yi),
      TEAL_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(got[i], x[i]);
    ck_assert_double_eq(y[i], x[i]);
    ck_assert_double_eq(yi[i], x[i]);
  }
  /* body poses: the elbow sits at l1 from the shoulder along the link */
  const teal_transform_list *poses;
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, teal_plant_body_poses_output_port(p),
                                             (const void **)&poses),
                   TEAL_OK);
  ck_assert_int_eq(poses->n, 3);
  int b2 = teal_plant_get_body_by_name(p, "link2", -1, NULL);
  ck_assert_double_eq_tol(poses->X[b2].p.v[0], -spong.l1 * sin(x[0]), 1e-14);
  ck_assert_double_eq_tol(poses->X[b2].p.v[2], -spong.l1 * cos(x[0]), 1e-14);
  const teal_spatial_vector_list *vels;
  ck_assert_int_eq(
      teal_eval_abstract_output(sys, ctx, teal_plant_body_spatial_velocities_output_port(p),
                                (const void **)&vels),
      TEAL_OK);
  ck_assert_double_eq_tol(vels->V[b2].v[1], x[2] + x[3], 1e-14); /* w_y of link 2 */
  /* wrong sizes and NaN are rejected */
  double nan4[4] = {NAN, 0, 0, 0};
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 3), TEAL_ESIZE);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, nan4, 4), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, got, 5), TEAL_ESIZE);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(caching_off_gives_identical_results) {
  teal_plant *p = acrobot_new(0.0);
  teal_context *a = plant_context(p), *b = plant_context(p);
  teal_context_set_caching(b, 0);
  double x[4] = {0.3, -0.7, 0.2, 1.1}, u = 0.4, da[4], db[4];
  teal_plant_set_state(p, a, x, 4);
  teal_plant_set_state(p, b, x, 4);
  teal_context_fix_input(a, teal_plant_actuation_input_port(p), &u, 1);
  teal_context_fix_input(b, teal_plant_actuation_input_port(p), &u, 1);
  ck_assert_int_eq(teal_calc_time_derivatives(teal_plant_system(p), a, da), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(teal_plant_system(p), b, db), TEAL_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(da[i], db[i]);
  }
  /* changing the input updates the cached acceleration */
  u = -2.0;
  teal_context_fix_input(a, teal_plant_actuation_input_port(p), &u, 1);
  teal_context_fix_input(b, teal_plant_actuation_input_port(p), &u, 1);
  teal_calc_time_derivatives(teal_plant_system(p), a, da);
  teal_calc_time_derivatives(teal_plant_system(p), b, db);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(da[i], db[i]);
  }
  teal_context_free(a);
  teal_context_free(b);
  teal_plant_free(p);
}
END_TEST

START_TEST(gravity_is_a_context_parameter) {
  teal_plant *p = acrobot_new(0.0);
  teal_context *ctx = plant_context(p);
  double x[4] = {0.5, 0.0, 0.0, 0.0};
  teal_plant_set_state(p, ctx, x, 4);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert(fabs(vdot[0]) > 1.0);
  ck_assert_int_eq(teal_plant_set_gravity_in_context(p, ctx, teal_vec3_zero()), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[0], 0.0, 1e-15);
  ck_assert_double_eq_tol(vdot[1], 0.0, 1e-15);
  ck_assert_int_eq(teal_plant_set_gravity_in_context(p, ctx, teal_vec3_make(0, NAN, 0)),
                   TEAL_ENONFINITE);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(actuation_ports_conflict_and_applied_forces) {
  teal_plant *p = acrobot_new(0.0);
  teal_context *ctx = plant_context(p);
  int inst = teal_plant_get_model_instance_by_name(p, "acrobot", NULL);
  double u = 1.0, x[4] = {0.3, 0.2, 0, 0};
  teal_plant_set_state(p, ctx, x, 4);
  /* per-instance actuation equals whole-plant actuation */
  const double *vdot;
  double a1[2], a2[2];
  teal_context_fix_input(ctx, teal_plant_instance_actuation_input_port(p, inst), &u, 1);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  memcpy(a1, vdot, sizeof(a1));
  teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "acrobot_actuation"));
  teal_context_unfix_input(ctx, teal_plant_instance_actuation_input_port(p, inst));
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[0], a1[0], 1e-14);
  /* the same torque through applied_generalized_force */
  teal_context_unfix_input(ctx, teal_plant_actuation_input_port(p));
  double tau[2] = {0.0, u};
  teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), tau, 2);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  memcpy(a2, vdot, sizeof(a2));
  ck_assert_double_eq_tol(a2[0], a1[0], 1e-14);
  ck_assert_double_eq_tol(a2[1], a1[1], 1e-14);
  /* a couple on link 2 about y equals an elbow torque plus no shoulder torque */
  teal_context_unfix_input(ctx, teal_plant_applied_generalized_force_input_port(p));
  teal_applied_spatial_force_list list = {0};
  int b2 = teal_plant_get_body_by_name(p, "link2", -1, NULL);
  teal_applied_spatial_force_list_push(&list, b2, teal_vec3_make(0.1, 0.2, -0.3),
                                       teal_spatial_vector_make(teal_vec3_make(0, u, 0),
                                                                teal_vec3_zero()));
  ck_assert_int_eq(
      teal_context_fix_abstract_input(ctx, teal_plant_applied_spatial_force_input_port(p), &list),
      TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  /* a pure couple on link 2 drives both joints like elbow torque u would
   * drive the elbow plus the reaction: J' F = [u; u] */
  double tau2[2] = {u, u};
  teal_context *ref = plant_context(p);
  teal_plant_set_state(p, ref, x, 4);
  teal_context_fix_input(ref, teal_plant_applied_generalized_force_input_port(p), tau2, 2);
  const double *vref;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ref, &vref), TEAL_OK);
  ck_assert_double_eq_tol(vdot[0], vref[0], 1e-12);
  ck_assert_double_eq_tol(vdot[1], vref[1], 1e-12);
  /* a bad body index is an error */
  list.f[0].body = 42;
  teal_context_fix_abstract_input(ctx, teal_plant_applied_spatial_force_input_port(p), &list);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_EINVAL);
  teal_applied_spatial_force_list_type.free(&list);
  teal_context_free(ref);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- simulation ------------------------------------------------------------------ */

/* A passive planar chain of n uniform rods (no damping). */
static teal_plant *chain_new(int n, double time_step) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  int parent = TEAL_WORLD_FRAME;
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof(name), "link%d", i + 1);
    teal_spatial_inertia M = teal_spatial_inertia_from_central(
        1.0, teal_vec3_make(0, 0, -0.25), teal_mat3_diag(1.0 / 48, 1.0 / 48, 1e-6));
    int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    snprintf(name, sizeof(name), "joint%d", i + 1);
    teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, parent, teal_plant_body_frame(p, b), &y, 0);
    snprintf(name, sizeof(name), "tip%d", i + 1);
    parent = teal_plant_add_frame(p, name, teal_plant_body_frame(p, b),
                                  teal_transform_make(teal_rotation_identity(),
                                                      teal_vec3_make(0, 0, -0.5)));
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static double total_energy(const teal_system *sys, const teal_context *ctx) {
  double ke, pe;
  ck_assert_int_eq(teal_calc_kinetic_energy(sys, ctx, &ke), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(sys, ctx, &pe), TEAL_OK);
  return ke + pe;
}

START_TEST(seven_link_chain_conserves_energy_rk45) {
  teal_plant *p = chain_new(7, 0.0);
  teal_system *sys = teal_plant_system(p);
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_context *ctx = teal_simulator_context(sim);
  double q[7];
  for (int i = 0; i < 7; i++) {
    q[i] = 0.1 * (i + 1);
  }
  teal_plant_set_positions(p, ctx, q, 7);
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, 1e-10);
  double e0 = total_energy(sys, ctx);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 10.0, &st), TEAL_OK);
  double e1 = total_energy(sys, ctx);
  ck_assert_msg(fabs(e1 - e0) < 1e-8 * fabs(e0), "energy drift %g of %g", e1 - e0, e0);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* A free body with inertia diag(I, I, J) spinning about a tilted axis in
 * zero gravity: in the body frame w_z stays constant and (w_x, w_y) rotates
 * at Omega = (J - I) / I * w_z (Euler's torque-free symmetric top). */
START_TEST(torque_free_symmetric_body) {
  const double I = 0.3, J = 0.5, wz = 3.0, w0 = 1.0;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(2.0, teal_vec3_zero(),
                                                             teal_mat3_diag(I, I, J));
  int b = teal_plant_add_rigid_body(p, "top", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_plant_set_gravity(p, teal_vec3_zero());
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_system *sys = teal_plant_system(p);
  ck_assert_int_eq(teal_plant_nq(p), 7);
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  /* the body starts aligned with W, spinning and drifting along x */
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, b, teal_transform_identity()), TEAL_OK);
  teal_spatial_vector V0 = teal_spatial_vector_make(teal_vec3_make(w0, 0, wz),
                                                    teal_vec3_make(0.1, 0, 0));
  ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(p, ctx, b, V0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 0, teal_transform_identity()),
                   TEAL_EINVAL);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 1e-3);
  teal_sim_status st;
  const double T = 2.0;
  ck_assert_int_eq(teal_simulator_advance_to(sim, T, &st), TEAL_OK);
  const teal_transform *X;
  const teal_spatial_vector *V;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_velocities(p, ctx, &V), TEAL_OK);
  teal_vec3 w_B = teal_rotation_apply_inverse(X[b].R, teal_spatial_vector_angular(V[b]));
  double Omega = (J - I) / I * wz;
  ck_assert_double_eq_tol(w_B.v[2], wz, 1e-9);
  ck_assert_double_eq_tol(w_B.v[0], w0 * cos(Omega * T), 1e-7);
  ck_assert_double_eq_tol(w_B.v[1], w0 * sin(Omega * T), 1e-7);
  ck_assert_double_eq_tol(X[b].p.v[0], 0.1 * T, 1e-12);
  /* the projection keeps the quaternion unit length */
  double q[7];
  teal_plant_get_positions(p, ctx, q, 7);
  ck_assert_double_eq_tol(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-14);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* Builds plant + LQR diagram about the upright, runs from a 0.05 rad
 * perturbation and returns the final deviation from upright. */
static double acrobot_lqr_run(double time_step, double t_end) {
  teal_plant *p = acrobot_new(time_step);
  teal_system *plant = teal_plant_system(p);
  teal_context *ctx = plant_context(p);
  double up[4] = {M_PI, 0, 0, 0}, u0 = 0.0;
  teal_plant_set_state(p, ctx, up, 4);
  teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u0, 1);
  double Q[16] = {0}, R = 1.0, K[4];
  Q[0] = Q[5] = 10;
  Q[10] = Q[15] = 1;
  teal_error err;
  teal_system *lqr = teal_lqr_controller_new("lqr", plant, ctx, teal_plant_actuation_input_port(p),
                                             Q, &R, NULL, K, NULL, &err);
  ck_assert_msg(lqr != NULL, "lqr: %s", err.message);
  teal_context_free(ctx);
  teal_builder *bld = teal_builder_new("acrobot_lqr");
  teal_builder_add(bld, plant);
  teal_builder_add(bld, lqr);
  teal_builder_connect_by_name(bld, "plant", "state", "lqr", "u");
  teal_builder_connect_by_name(bld, "lqr", "y", "plant", "actuation");
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  teal_context *root = teal_simulator_context(sim);
  double x0[4] = {M_PI + 0.05, -0.05, 0, 0};
  ck_assert_int_eq(teal_plant_set_state(p, root, x0, 4), TEAL_OK);
  if (time_step == 0.0) {
    teal_simulator_set_integrator(sim, teal_integrator_rk45);
    teal_simulator_set_accuracy(sim, 1e-8);
  }
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, t_end, &st);
  ck_assert_msg(rc == TEAL_OK, "sim: %s", st.message);
  double x[4];
  teal_plant_get_state(p, root, x, 4);
  double dev = fabs(x[0] - M_PI) + fabs(x[1]) + fabs(x[2]) + fabs(x[3]);
  teal_simulator_free(sim);
  teal_system_free(d);
  return dev;
}

START_TEST(acrobot_lqr_balances_continuous) {
  double dev = acrobot_lqr_run(0.0, 10.0);
  ck_assert_msg(dev < 1e-3, "deviation %g", dev);
}
END_TEST

START_TEST(acrobot_lqr_balances_discrete) {
  double dev = acrobot_lqr_run(1e-3, 10.0);
  ck_assert_msg(dev < 1e-3, "deviation %g", dev);
}
END_TEST

START_TEST(discrete_joint_limit_holds) {
  /* a rod released near horizontal falls onto a lower limit at 0.3 rad,
   * above its hanging equilibrium, and must come to rest on it */
  teal_plant *p = chain_new(1, 1e-3);
  double lo = 0.3, hi = 2.0;
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, 0, &lo, &hi), TEAL_ESTATE);
  teal_plant_free(p);
  p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -0.25), teal_mat3_diag(1.0 / 48, 1.0 / 48, 1e-6));
  int b = teal_plant_add_rigid_body(p, "rod", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0);
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, j, &lo, &hi), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double x[2] = {1.5, 0.0};
  teal_plant_set_state(p, ctx, x, 2);
  teal_sim_status st;
  double qmin = 10;
  for (int k = 1; k <= 200; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01 * k, &st), TEAL_OK);
    teal_plant_get_state(p, ctx, x, 2);
    qmin = fmin(qmin, x[0]);
  }
  ck_assert_msg(qmin >= lo - 1e-9, "penetrated the limit: %g", qmin);
  ck_assert_double_eq_tol(x[0], lo, 1e-6); /* resting on the limit */
  ck_assert_double_eq_tol(x[1], 0.0, 1e-6);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(reaction_force_of_hanging_pendulum_is_its_weight) {
  teal_plant *p = chain_new(1, 0.0);
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = plant_context(p);
  const teal_spatial_vector_list *F;
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, teal_plant_reaction_forces_output_port(p),
                                             (const void **)&F),
                   TEAL_OK);
  ck_assert_int_eq(F->n, teal_plant_num_joints(p));
  ck_assert_double_eq_tol(F->V[0].v[5], 9.81, 1e-12); /* parent holds the rod up */
  ck_assert_double_eq_tol(F->V[0].v[3], 0.0, 1e-12);
  const teal_spatial_vector_list *A;
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx,
                                             teal_plant_body_spatial_accelerations_output_port(p),
                                             (const void **)&A),
                   TEAL_OK);
  ck_assert_int_eq(A->n, 2);
  ck_assert_double_eq_tol(teal_vec3_norm(teal_spatial_vector_linear(A->V[1])), 0.0, 1e-12);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(free_body_pose_and_velocity_round_trip) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.2, 0.3);
  int b = teal_plant_add_rigid_body(p, "box", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = plant_context(p);
  teal_transform X = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0.3, -0.2, 1.1)),
                                         teal_vec3_make(1, 2, 3));
  teal_spatial_vector V = teal_spatial_vector_make(teal_vec3_make(0.1, -0.4, 0.2),
                                                   teal_vec3_make(-1, 0.5, 2));
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, b, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(p, ctx, b, V), TEAL_OK);
  const teal_transform *Xs;
  const teal_spatial_vector *Vs;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &Xs), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_velocities(p, ctx, &Vs), TEAL_OK);
  ck_assert(teal_mat3_max_abs_diff(Xs[b].R, X.R) < 1e-14);
  ck_assert(teal_vec3_norm(teal_vec3_sub(Xs[b].p, X.p)) < 1e-14);
  ck_assert(teal_spatial_vector_max_abs_diff(Vs[b], V) < 1e-14);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(unconnected_context_and_bad_calls) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_null(teal_plant_system(p));
  ck_assert_int_eq(teal_plant_state_output_port(p), TEAL_ESTATE);
  teal_plant_free(p);
  p = acrobot_new(0.0);
  teal_plant *other = acrobot_new(0.0);
  teal_context *ctx = plant_context(other);
  double x[4];
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 4), TEAL_EINVAL);
  ck_assert_ptr_null(teal_plant_from_system(NULL));
  teal_context_free(ctx);
  teal_plant_free(other);
  teal_plant_free(p);
}
END_TEST

START_TEST(discrete_simulation_allocates_nothing) {
  teal_plant *p = chain_new(5, 1e-3);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double q[5] = {0.5, 0.1, -0.2, 0.3, 0.0};
  teal_plant_set_positions(p, ctx, q, 5);
  ts_sim_expect_steps_allocate_nothing(sim, 0.01, 0.5);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(continuous_simulation_allocates_nothing) {
  teal_plant *p = chain_new(5, 0.0);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double q[5] = {0.5, 0.1, -0.2, 0.3, 0.0};
  teal_plant_set_positions(p, ctx, q, 5);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 1e-3);
  ts_sim_expect_steps_allocate_nothing(sim, 0.01, 0.5);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* Outputs that are stages are the stage's own value: the port and the
 * plant's eval calls hand out the same memory (nothing is copied). */
START_TEST(stage_outputs_are_the_stages) {
  teal_plant *p = acrobot_new(0.0);
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = plant_context(p);
  const double x[4] = {0.3, -0.2, 0.5, 0.1};
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 4), TEAL_OK);
  const teal_transform_list *poses, *geometry;
  const teal_spatial_vector_list *vels;
  const teal_transform *X;
  const teal_spatial_vector *V;
  const double *vdot_port, *vdot;
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, teal_plant_body_poses_output_port(p),
                                             (const void **)&poses),
                   TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, teal_plant_geometry_pose_output_port(p),
                                             (const void **)&geometry),
                   TEAL_OK);
  ck_assert_int_eq(
      teal_eval_abstract_output(sys, ctx, teal_plant_body_spatial_velocities_output_port(p),
                                (const void **)&vels),
      TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_velocities(p, ctx, &V), TEAL_OK);
  ck_assert_ptr_eq(poses, geometry);
  ck_assert_ptr_eq(poses->X, X);
  ck_assert_ptr_eq(vels->V, V);
  ck_assert_int_eq(poses->n, teal_plant_num_bodies(p));
  ck_assert_int_eq(vels->n, teal_plant_num_bodies(p));
  ck_assert_int_eq(
      teal_eval_vector_output(sys, ctx, teal_plant_generalized_acceleration_output_port(p),
                              &vdot_port),
      TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_ptr_eq(vdot_port, vdot);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The system keeps its scratch model without multibody data (it would
 * cost a data per plant that nothing uses); every context, and a context's
 * copy, gets its own. White-box: reads the system's model value. */
START_TEST(scratch_model_holds_no_data) {
  teal_plant *p = acrobot_new(1e-3);
  teal_system *sys = teal_plant_system(p);
  const teal_plant_scratch *model = sys->scratch_models[p->sys.scratch];
  ck_assert_ptr_eq(model->plant, p);
  ck_assert_ptr_null(model->data);
  ck_assert_ptr_null(model->step.model_buffer);
  teal_context *ctx = plant_context(p);
  const teal_plant_scratch *s = teal_context_scratch(ctx, p->sys.scratch);
  ck_assert_ptr_nonnull(s->data);
  ck_assert_ptr_nonnull(s->step.vstar);
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  const teal_plant_scratch *c = teal_context_scratch(copy, p->sys.scratch);
  ck_assert_ptr_nonnull(c->data);
  ck_assert_ptr_ne(c->data, s->data);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The plant stages its multibody data from a cache entry: the position
 * stage is computed once per new q, however many stages read it (mass
 * matrix, accelerations, energies, reaction forces), and again after q
 * changes. White-box: reads the data's stage counter. */
START_TEST(position_stage_is_computed_once_per_q) {
  teal_plant *p = acrobot_new(0.0);
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = plant_context(p);
  const teal_plant_scratch *s = teal_context_scratch(ctx, p->sys.scratch);
  ck_assert_ptr_nonnull(s);
  double x[4] = {0.3, -0.2, 0.5, 0.1}, e;
  const double *M, *vdot;
  const void *reactions;
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 4), TEAL_OK);
  unsigned long before = s->data->pos_stamp;
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_calc_kinetic_energy(sys, ctx, &e), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(sys, ctx, &e), TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, teal_plant_reaction_forces_output_port(p),
                                             &reactions),
                   TEAL_OK);
  ck_assert_uint_eq(s->data->pos_stamp, before + 1);
  /* a new q: one more computation, and the results follow it */
  double M0 = M[1];
  x[1] = 0.7;
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 4), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_uint_eq(s->data->pos_stamp, before + 2);
  ck_assert(M[1] != M0); /* M_12 depends on q2 */
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *plant_system_suite(void) {
  Suite *s = suite_create("plant_system");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, ports_have_drake_names_and_sizes);
  tcase_add_test(tc, acrobot_accelerations_match_spong);
  tcase_add_test(tc, state_access_and_outputs);
  tcase_add_test(tc, caching_off_gives_identical_results);
  tcase_add_test(tc, gravity_is_a_context_parameter);
  tcase_add_test(tc, actuation_ports_conflict_and_applied_forces);
  tcase_add_test(tc, seven_link_chain_conserves_energy_rk45);
  tcase_add_test(tc, torque_free_symmetric_body);
  tcase_add_test(tc, acrobot_lqr_balances_continuous);
  tcase_add_test(tc, acrobot_lqr_balances_discrete);
  tcase_add_test(tc, discrete_joint_limit_holds);
  tcase_add_test(tc, reaction_force_of_hanging_pendulum_is_its_weight);
  tcase_add_test(tc, free_body_pose_and_velocity_round_trip);
  tcase_add_test(tc, unconnected_context_and_bad_calls);
  tcase_add_test(tc, discrete_simulation_allocates_nothing);
  tcase_add_test(tc, continuous_simulation_allocates_nothing);
  tcase_add_test(tc, stage_outputs_are_the_stages);
  tcase_add_test(tc, position_stage_is_computed_once_per_q);
  tcase_add_test(tc, scratch_model_holds_no_data);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(plant_system_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
