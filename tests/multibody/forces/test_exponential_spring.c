/* Exponential spring contact (multibody/forces/exponential_spring.h): the force law
 * against the document's equations at fixed inputs, a block of mass 1 on
 * one to four springs in a diagram with the plant and a spatial force adder
 * (rest height and weight, static friction on a shallow incline and, the
 * seed's test, between mu_k and mu_s; kinetic friction on a steep one, under
 * variable and fixed steps and on a discrete plant; energy during a bounce),
 * the per-step update of the anchor and Sliding worked by hand, disabling,
 * bad parameters and calls, and an allocation-free simulation loop. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/diagram.h"
#include "framework/events.h"
#include "multibody/forces/exponential_spring.h"
#include "multibody/forces/spatial_force_adder.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/mb_spring_fixtures.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/integrator_radau.h"
#include "systems/analysis/simulator.h"

static const double g = TS_ES_G;
#define half ts_es_half

/* ---- the force law at fixed inputs ---------------------------------------------------- */

/* Expected friction from the document's equations, in F. */
static void expected_friction(const teal_exponential_spring_params *p, double limit, double s,
                              const double *pxy, const double *p0, const double *vxy,
                              double *f) {
  double fd[2] = {-p->cxy * vxy[0], -p->cxy * vxy[1]};
  double n = hypot(fd[0], fd[1]);
  if (n > limit) {
    fd[0] *= limit / n;
    fd[1] *= limit / n;
  }
  double fe[2] = {-p->kxy * (pxy[0] - p0[0]), -p->kxy * (pxy[1] - p0[1])};
  double fs[2] = {-p->cxy * vxy[0], -p->cxy * vxy[1]};
  double t = hypot(fe[0] + fs[0], fe[1] + fs[1]);
  double c = t > limit ? limit / t : 1.0;
  for (int i = 0; i < 2; i++) {
    f[i] = (1.0 - s) * c * fe[i] + c * fs[i] + s * (fd[i] - c * fs[i]);
  }
}

START_TEST(force_law_matches_the_document) {
  int body;
  teal_plant *plant = ts_es_box_plant(0.0, &body);
  teal_transform X_WF = ts_es_incline(0.3);
  teal_vec3 p_BS = teal_vec3_make(0.02, -0.03, -0.05);
  teal_error err;
  teal_system *s = teal_exponential_spring_new("s", plant, body, p_BS, X_WF, NULL, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(s, NULL);
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  /* the body rotated a little and moving; station 3 mm above the plane */
  teal_rotation R = teal_rotation_mul(X_WF.R, teal_rotation_from_axis_angle(
                                                  teal_vec3_make(0.2, 1, 0.1), 0.05));
  teal_vec3 p_BoS_W = teal_rotation_apply(R, p_BS);
  teal_vec3 p_WS = teal_transform_apply(X_WF, teal_vec3_make(0.4, 0.1, 0.003));
  teal_transform X_WB = teal_transform_make(R, teal_vec3_sub(p_WS, p_BoS_W));
  teal_vec3 w = teal_vec3_make(0.3, -0.2, 0.5);
  teal_vec3 v_Bo = teal_vec3_make(0.01, 0.02, -0.03);
  ts_es_fix_inputs(ctx, X_WB, teal_spatial_vector_make(w, v_Bo));
  teal_vec3 v_F = teal_rotation_apply_inverse(
      X_WF.R, teal_vec3_add(v_Bo, teal_vec3_cross(w, p_BoS_W)));
  double sliding[3] = {0.0, 0.4, 1.0};
  double dx[2] = {1e-5, 2e-3}; /* within and beyond the friction limit */
  for (int k = 0; k < 6; k++) {
    double s_k = sliding[k % 3], p0[2] = {0.4 - dx[k / 3], 0.1 + 0.5 * dx[k / 3]};
    ck_assert_int_eq(teal_exponential_spring_set_state(s, ctx, p0[0], p0[1], s_k), TEAL_OK);
    const teal_exponential_spring_data *d;
    ck_assert_int_eq(teal_exponential_spring_eval(s, ctx, &d), TEAL_OK);
    ck_assert_double_eq_tol(d->p_FS.v[2], 0.003, 1e-12);
    double fe = p.d1 * exp(-p.d2 * (0.003 - p.d0));
    double fz = fe * (1.0 - p.cz * v_F.v[2]);
    ck_assert_double_eq_tol(d->fz, fz, 1e-12 * fz);
    double mu = p.mu_s - s_k * (p.mu_s - p.mu_k);
    double f[2], pxy[2] = {0.4, 0.1}, vxy[2] = {v_F.v[0], v_F.v[1]};
    expected_friction(&p, mu * fz, s_k, pxy, p0, vxy, f);
    ck_assert_double_eq_tol(d->force.v[0], f[0], 1e-9);
    ck_assert_double_eq_tol(d->force.v[1], f[1], 1e-9);
    ck_assert(hypot(d->force.v[0], d->force.v[1]) <= mu * fz * (1 + 1e-12));
    teal_vec3 f_W = teal_rotation_apply(X_WF.R, d->force);
    ck_assert_double_eq_tol(teal_vec3_norm(teal_vec3_sub(f_W, d->force_W)), 0.0, 1e-12);
    /* the next anchor: p0 = pxy + f_el / kxy */
    for (int i = 0; i < 2; i++) {
      ck_assert_double_eq_tol(d->p0_next[i], pxy[i] + d->friction_elastic[i] / p.kxy, 1e-12);
    }
    double slip = hypot(d->p0_next[0] - p0[0], d->p0_next[1] - p0[1]);
    if (k == 0) { /* stuck and within the limit: the anchor stays put */
      ck_assert_double_eq_tol(slip, 0.0, 1e-12);
    }
    if (k == 3) { /* stuck beyond the limit: the anchor slips toward the station */
      ck_assert(slip > 1e-4);
    }
  }
  const teal_applied_spatial_force_list *out;
  ck_assert_int_eq(teal_eval_abstract_output(s, ctx, 0, (const void **)&out), TEAL_OK);
  ck_assert_int_eq(out->n, 1);
  ck_assert_int_eq(out->f[0].body, body);
  ck_assert_double_eq(out->f[0].p_BoBq_B.v[1], -0.03);
  ck_assert_double_eq(teal_vec3_norm(teal_spatial_vector_angular(out->f[0].F_Bq_W)), 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
  teal_plant_free(plant);
}
END_TEST

/* The seed's testable facts about the normal force: at height d0 the
 * elastic force is d1, and each 1/d2 of height divides it by e. */
START_TEST(normal_force_at_d0_and_decay_ratio) {
  int body;
  teal_plant *plant = ts_es_box_plant(0.0, &body);
  teal_transform X_WF = ts_es_incline(0.0);
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  teal_system *s = teal_exponential_spring_new("s", plant, body, teal_vec3_zero(), X_WF, NULL,
                                               NULL);
  ck_assert_ptr_nonnull(s);
  teal_context *ctx = teal_context_new(s, NULL);
  double heights[3] = {p.d0, p.d0 + 1.0 / p.d2, p.d0 + 2.0 / p.d2}, fz[3];
  for (int i = 0; i < 3; i++) {
    teal_vec3 p_WS = teal_transform_apply(X_WF, teal_vec3_make(0.1, 0.2, heights[i]));
    ts_es_fix_inputs(ctx, teal_transform_make(X_WF.R, p_WS), teal_spatial_vector_zero());
    const teal_exponential_spring_data *d;
    ck_assert_int_eq(teal_exponential_spring_eval(s, ctx, &d), TEAL_OK);
    fz[i] = d->fz_elastic;
  }
  ck_assert_double_eq_tol(fz[0], p.d1, 1e-12);
  ck_assert_double_eq_tol(fz[1] / fz[0], exp(-1.0), 1e-12);
  ck_assert_double_eq_tol(fz[2] / fz[1], exp(-1.0), 1e-12);
  teal_context_free(ctx);
  teal_system_free(s);
  teal_plant_free(plant);
}
END_TEST

START_TEST(normal_force_is_small_off_the_plane) {
  /* the document: about 0.01 N at 1 cm (0.0106 N with the defaults, below
   * 0.01 N from 1.005 cm) and < 1e-6 N above 2 cm */
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  ck_assert(p.d1 * exp(-p.d2 * (0.01 - p.d0)) < 0.011);
  ck_assert(p.d1 * exp(-p.d2 * (0.0101 - p.d0)) < 0.01);
  ck_assert(p.d1 * exp(-p.d2 * (0.02 - p.d0)) < 1e-6);
  ck_assert_double_eq_tol(p.cxy, 2.0 * sqrt(20000.0), 1e-12);
  ck_assert_int_eq(teal_exponential_spring_params_check(&p, NULL), TEAL_OK);
  ck_assert_int_eq(teal_exponential_spring_params_set_critical_damping(&p, 4.0), TEAL_OK);
  ck_assert_double_eq_tol(p.cxy, 2.0 * sqrt(80000.0), 1e-12);
}
END_TEST

/* ---- the per-step update ------------------------------------------------------------ */

/* Runs the spring's per-step update at time t, as the simulator does; the
 * state it sets is the data's p0_next and sliding_next before it. */
static void step_update(const teal_system *s, teal_context *ctx, double t) {
  ck_assert_int_eq(teal_context_set_time(ctx, t), TEAL_OK);
  const teal_exponential_spring_data *d;
  ck_assert_int_eq(teal_exponential_spring_eval(s, ctx, &d), TEAL_OK);
  double next[3] = {d->p0_next[0], d->p0_next[1], d->sliding_next}, now[3];
  teal_event_set *set = teal_event_set_new(s);
  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 1);
  ck_assert_int_eq(teal_dispatch_discrete_updates(s, ctx, set), TEAL_OK);
  teal_event_set_free(set);
  ck_assert_int_eq(teal_exponential_spring_get_state(s, ctx, &now[0], &now[1], &now[2]), TEAL_OK);
  ck_assert_mem_eq(next, now, sizeof next);
}

/* The station of a body with p_BS = 0 at rest at (x, y, 3 mm) of F. */
static void station_at(teal_context *ctx, teal_transform X_WF, double x, double y) {
  teal_vec3 p_WS = teal_transform_apply(X_WF, teal_vec3_make(x, y, 0.003));
  ts_es_fix_inputs(ctx, teal_transform_make(X_WF.R, p_WS), teal_spatial_vector_zero());
}

static void expect_state(const teal_system *s, const teal_context *ctx, double x, double y,
                         double sliding) {
  double px, py, ps;
  ck_assert_int_eq(teal_exponential_spring_get_state(s, ctx, &px, &py, &ps), TEAL_OK);
  ck_assert_double_eq_tol(px, x, 1e-12);
  ck_assert_double_eq_tol(py, y, 1e-12);
  ck_assert_double_eq_tol(ps, sliding, 1e-12);
}

static double step_up_ref(double x) {
  x = x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
  return 10 * pow(x, 3) - 15 * pow(x, 4) + 6 * pow(x, 5);
}

/* The seed's update laws worked by hand for a station at rest 3 mm above
 * the plane, stretched past the static limit along -x: p0 = pxy +
 * fricElasBlend / kxy, Sliding = stepUp(clamp(|dp0| / dt / vSettle)). */
START_TEST(update_law_matches_the_document) {
  int body;
  teal_plant *plant = ts_es_box_plant(0.0, &body);
  teal_transform X_WF = ts_es_incline(0.3);
  teal_system *s =
      teal_exponential_spring_new("s", plant, body, teal_vec3_zero(), X_WF, NULL, NULL);
  teal_context *ctx = teal_context_new(s, NULL);
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  double fz = p.d1 * exp(-p.d2 * (0.003 - p.d0)), L = p.mu_s * fz / p.kxy; /* static stretch */
  station_at(ctx, X_WF, 0.4, 0.1);
  ck_assert_int_eq(teal_exponential_spring_set_state(s, ctx, 0.4 - 5e-3, 0.1, 0.0), TEAL_OK);
  step_update(s, ctx, 1.0); /* no previous update: p0 moves, Sliding stays */
  expect_state(s, ctx, 0.4 - L, 0.1, 0.0);
  step_update(s, ctx, 1.0); /* at the limit already: nothing moves */
  expect_state(s, ctx, 0.4 - L, 0.1, 0.0);
  /* the same read where the indices say (Simbody's state indices) */
  teal_exponential_spring_index ix;
  ck_assert_int_eq(teal_exponential_spring_indices(s, &ix), TEAL_OK);
  ck_assert_int_eq(ix.state_size, teal_system_discrete_group_size(s, ix.discrete_group));
  const double *xd = teal_context_discrete_group(ctx, ix.discrete_group);
  ck_assert_double_eq_tol(xd[ix.anchor], 0.4 - L, 1e-12);
  ck_assert_double_eq(xd[ix.anchor + 1], 0.1);
  ck_assert_double_eq(xd[ix.sliding], 0.0);
  ck_assert_double_eq(xd[ix.last_update], 1.0);
  ck_assert_double_eq(xd[ix.has_last_update], 1.0);
  ck_assert_double_eq(teal_context_numeric_parameter(ctx, ix.parameters)[ix.mu_static], p.mu_s);
  ck_assert_double_eq(teal_context_numeric_parameter(ctx, ix.parameters)[ix.mu_kinetic], p.mu_k);
  ck_assert_double_eq(teal_context_numeric_parameter(ctx, ix.disabled)[0], -1.0);
  ck_assert_int_eq(teal_exponential_spring_indices(teal_plant_system(plant), &ix), TEAL_EINVAL);
  double dx = 3e-5, dt = 0.01; /* the station slips at 0.3 v_settle */
  station_at(ctx, X_WF, 0.4 + dx, 0.1);
  step_update(s, ctx, 1.0 + dt);
  double s1 = step_up_ref(dx / dt / p.v_settle);
  ck_assert_double_eq_tol(s1, 0.16308, 1e-12);
  expect_state(s, ctx, 0.4 + dx - L, 0.1, s1);
  /* Sliding s1 lowers mu and the elastic share: the anchor comes closer */
  double mu = p.mu_s - s1 * (p.mu_s - p.mu_k), L2 = (1.0 - s1) * mu * fz / p.kxy;
  step_update(s, ctx, 1.0 + 2 * dt);
  expect_state(s, ctx, 0.4 + dx - L2, 0.1, step_up_ref((L - L2) / dt / p.v_settle));
  /* disabled: the state stays, whatever the station does */
  double before[5], after[5];
  memcpy(before, teal_context_discrete_group(ctx, 0), sizeof before);
  ck_assert_int_eq(teal_exponential_spring_disable(s, ctx), TEAL_OK);
  station_at(ctx, X_WF, 0.5, 0.2);
  step_update(s, ctx, 1.0 + 3 * dt);
  memcpy(after, teal_context_discrete_group(ctx, 0), sizeof after);
  ck_assert_mem_eq(before, after, sizeof before);
  /* enabled again: the time spent disabled is not anchor motion */
  ck_assert_int_eq(teal_exponential_spring_enable(s, ctx), TEAL_OK);
  double s2 = after[2], mu2 = p.mu_s - s2 * (p.mu_s - p.mu_k);
  double stretch = hypot(0.5 - after[0], 0.2 - after[1]), keep = (1.0 - s2) * mu2 * fz / p.kxy;
  step_update(s, ctx, 1.0 + 4 * dt);
  expect_state(s, ctx, 0.5 - (0.5 - after[0]) * keep / stretch,
               0.2 - (0.2 - after[1]) * keep / stretch, s2);
  teal_context_free(ctx);
  teal_system_free(s);
  teal_plant_free(plant);
}
END_TEST

/* A disabled spring applies no force (the block falls freely), has no
 * energy and keeps its state; enabled again, it holds the block. */
START_TEST(disabled_spring_applies_no_force_and_keeps_its_state) {
  ts_es_rig r;
  ts_es_rig_new(&r, 4, teal_transform_identity(), 0.0, 1e-8);
  double h = ts_es_rest_height(g, 4);
  ts_es_rig_place(&r, teal_vec3_make(0, 0, half[2] + h), teal_vec3_zero(), 0.0);
  ts_es_rig_run(&r, 0.5);
  double before[4][5];
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(teal_exponential_spring_disable(r.springs[i], r.ctx), TEAL_OK);
    int off = -1;
    ck_assert_int_eq(teal_exponential_spring_is_disabled(r.springs[i], r.ctx, &off), TEAL_OK);
    ck_assert_int_eq(off, 1);
    const teal_context *own = teal_context_subcontext(r.ctx, r.springs[i]);
    memcpy(before[i], teal_context_discrete_group(own, 0), sizeof before[i]);
    const teal_applied_spatial_force_list *out;
    ck_assert_int_eq(teal_eval_abstract_output(r.springs[i], own, 0, (const void **)&out), TEAL_OK);
    ck_assert_int_eq(out->n, 1);
    ck_assert(teal_vec3_norm(teal_spatial_vector_linear(out->f[0].F_Bq_W)) == 0.0);
    double pe = -1.0;
    ck_assert_int_eq(teal_calc_potential_energy(r.springs[i], own, &pe), TEAL_OK);
    ck_assert(pe == 0.0);
  }
  teal_vec3 p0, v0, p1, v1;
  ts_es_block_in_plane(&r, &p0, &v0);
  ts_es_rig_run(&r, 0.52);
  ts_es_block_in_plane(&r, &p1, &v1);
  ck_assert_double_eq_tol(v1.v[2] - v0.v[2], -g * 0.02, 1e-6); /* free fall */
  for (int i = 0; i < 4; i++) {
    const teal_context *own = teal_context_subcontext(r.ctx, r.springs[i]);
    ck_assert_mem_eq(before[i], teal_context_discrete_group(own, 0), sizeof before[i]);
    ck_assert_int_eq(teal_exponential_spring_enable(r.springs[i], r.ctx), TEAL_OK);
  }
  ts_es_rig_run(&r, 4.0);
  double fz = 0.0;
  for (int i = 0; i < 4; i++) {
    fz += ts_es_data(&r, i)->fz;
  }
  ck_assert_double_eq_tol(fz, g, 1e-3);
  /* the default: disabled until enabled, and back after set_to_defaults */
  teal_system *spring = (teal_system *)r.springs[0];
  teal_error err;
  int def = -1;
  ck_assert_int_eq(teal_exponential_spring_is_disabled_by_default(spring, &def), TEAL_OK);
  ck_assert_int_eq(def, 0);
  TS_EXPECT_ERROR(teal_exponential_spring_set_disabled_by_default(spring, 1, &err), TEAL_EINVAL,
                  &err, "already part of a diagram");
  ts_es_rig_free(&r);
  int body;
  teal_plant *plant = ts_es_box_plant(0.0, &body);
  spring = teal_exponential_spring_new("d", plant, body, teal_vec3_zero(),
                                       teal_transform_identity(), NULL, NULL);
  TS_EXPECT_ERROR(teal_exponential_spring_set_disabled_by_default(spring, 2, &err), TEAL_EINVAL,
                  &err, "disabled = 2 must be 0 or 1");
  ck_assert_int_eq(teal_exponential_spring_set_disabled_by_default(spring, 1, &err), TEAL_OK);
  teal_context *ctx = teal_context_new(spring, NULL);
  ck_assert_int_eq(teal_exponential_spring_is_disabled(spring, ctx, &def), TEAL_OK);
  ck_assert_int_eq(def, 1);
  ck_assert_int_eq(teal_exponential_spring_enable(spring, ctx), TEAL_OK);
  ck_assert_int_eq(teal_exponential_spring_is_disabled(spring, ctx, &def), TEAL_OK);
  ck_assert_int_eq(def, 0);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  ck_assert_int_eq(teal_exponential_spring_is_disabled(spring, ctx, &def), TEAL_OK);
  ck_assert_int_eq(def, 1);
  teal_context_free(ctx);
  teal_system_free(spring);
  teal_plant_free(plant);
}
END_TEST

/* ---- the block on the plane ------------------------------------------------------------ */

START_TEST(dropped_block_rests_at_the_predicted_height) {
  ts_es_rig r;
  ts_es_rig_new(&r, 4, teal_transform_identity(), 0.0, 1e-6);
  double h = ts_es_rest_height(g, 4);
  ts_es_rig_place(&r, teal_vec3_make(0, 0, half[2] + h + 0.02), teal_vec3_zero(), 0.0);
  ts_es_rig_run(&r, 6.0);
  double fz = 0.0;
  for (int i = 0; i < 4; i++) {
    const teal_exponential_spring_data *d = ts_es_data(&r, i);
    fz += d->force_W.v[2];
    ck_assert_double_eq_tol(d->p_FS.v[2], h, 2e-6);
    ck_assert_double_eq_tol(hypot(d->force.v[0], d->force.v[1]), 0.0, 1e-6);
  }
  printf("drop: sum fz = %.9f (m g = %.9f), station height %.7f m (predicted %.7f m)\n", fz, g,
         ts_es_data(&r, 0)->p_FS.v[2], h);
  ck_assert_double_eq_tol(fz, g, 1e-3);
  teal_vec3 p_F, v_F;
  ts_es_block_in_plane(&r, &p_F, &v_F);
  ck_assert_double_eq_tol(teal_vec3_norm(v_F), 0.0, 1e-3);
  /* the derivatives are the same with caching off */
  int n = teal_system_num_continuous_states(r.diagram, NULL, NULL, NULL);
  ck_assert_int_eq(n, 13);
  ck_assert_int_eq(teal_system_num_discrete_states(r.diagram), 4 * 5);
  double on[32], off[32];
  ck_assert_int_eq(teal_calc_time_derivatives(r.diagram, r.ctx, on), TEAL_OK);
  teal_context_set_caching(r.ctx, 0);
  ck_assert_int_eq(teal_calc_time_derivatives(r.diagram, r.ctx, off), TEAL_OK);
  teal_context_set_caching(r.ctx, 1);
  ck_assert_mem_eq(on, off, (size_t)n * sizeof(double));
  ts_es_rig_free(&r);
}
END_TEST

START_TEST(block_sticks_on_a_shallow_incline) {
  double theta = 20.0 * M_PI / 180.0; /* tan = 0.36 < mu_s = 0.7 (and < mu_k) */
  ts_es_rig r;
  ts_es_rig_new(&r, 4, ts_es_incline(theta), 0.0, 1e-6);
  double h = ts_es_rest_height(g * cos(theta), 4);
  /* at rest, anchors under the stations */
  ts_es_rig_place(&r, teal_vec3_make(0.5, 0.2, half[2] + h), teal_vec3_zero(), 0.0);
  teal_vec3 p0, v0, pm, vm, p1, v1;
  ts_es_block_in_plane(&r, &p0, &v0);
  ts_es_rig_run(&r, 1.0);
  ts_es_block_in_plane(&r, &pm, &vm);
  ts_es_rig_run(&r, 5.0);
  ts_es_block_in_plane(&r, &p1, &v1);
  double drift = hypot(p1.v[0] - p0.v[0], p1.v[1] - p0.v[1]);
  double creep = hypot(p1.v[0] - pm.v[0], p1.v[1] - pm.v[1]);
  printf("incline %.0f deg from rest: drift %.3g m over 5 s, %.3g m from 1 s to 5 s\n",
         theta * 180 / M_PI, drift, creep);
  ck_assert(drift < 1e-3);
  ck_assert(creep < 1e-5);
  for (int i = 0; i < 4; i++) {
    ck_assert(ts_es_data(&r, i)->sliding < 1e-3);
  }
  ts_es_rig_free(&r);
  /* arriving while sliding (S = 1, 5 cm/s downhill): it stops and settles */
  ts_es_rig_new(&r, 4, ts_es_incline(theta), 0.0, 1e-6);
  ts_es_rig_place(&r, teal_vec3_make(0.5, 0.2, half[2] + h), teal_vec3_make(0, -0.05, 0), 1.0);
  ts_es_rig_run(&r, 1.0);
  ts_es_block_in_plane(&r, &p0, &v0);
  ts_es_rig_run(&r, 5.0);
  ts_es_block_in_plane(&r, &p1, &v1);
  drift = hypot(p1.v[0] - p0.v[0], p1.v[1] - p0.v[1]);
  double s_max = 0.0;
  for (int i = 0; i < 4; i++) {
    double s = ts_es_data(&r, i)->sliding;
    s_max = s > s_max ? s : s_max;
  }
  printf("incline after sliding: drift %.3g m over 4 s, Sliding %.3g\n", drift, s_max);
  ck_assert(drift < 1e-3);
  ck_assert(s_max < 1e-3);
  ts_es_rig_free(&r);
}
END_TEST

/* mu_k < tan 32 deg < mu_s: pushed at 0.5 m/s with Sliding 1 it keeps
 * sliding, at g (sin - mu_k cos). */
START_TEST(pushed_block_keeps_sliding_between_mu_k_and_mu_s) {
  double theta = 32.0 * M_PI / 180.0;
  ts_es_rig r;
  ts_es_rig_new(&r, 4, ts_es_incline(theta), 0.0, 1e-6);
  double h = ts_es_rest_height(g * cos(theta), 4);
  ts_es_rig_place(&r, teal_vec3_make(0, 0, half[2] + h), teal_vec3_make(0, -0.5, 0), 1.0);
  teal_vec3 p, v0, v1;
  ts_es_rig_run(&r, 0.5);
  ts_es_block_in_plane(&r, &p, &v0);
  ts_es_rig_run(&r, 1.5);
  ts_es_block_in_plane(&r, &p, &v1);
  double a = -(v1.v[1] - v0.v[1]), expect = g * (sin(theta) - 0.5 * cos(theta));
  printf("incline 32 deg pushed: acceleration %.5f m/s^2 (expected %.5f)\n", a, expect);
  ck_assert_double_eq_tol(a, expect, 0.02 * expect);
  ck_assert(ts_es_data(&r, 0)->sliding > 0.999);
  ts_es_rig_free(&r);
}
END_TEST

/* ---- the seed's test cases, under several integrators and a discrete plant --------- */

/* How a rig is run: the plant's time step (0: continuous) and, for a
 * continuous plant, the integrator and its fixed step (0: error control). */
typedef struct run_mode {
  const char *name;
  double h;
  const teal_integrator_type *const *integrator;
  double fixed_step;
} run_mode;

static const run_mode k_modes[] = {
    {"rk3 variable step", 0.0, &teal_integrator_rk3, 0.0},
    {"rk45 variable step", 0.0, &teal_integrator_rk45, 0.0},
    {"radau3 variable step", 0.0, &teal_integrator_radau3, 0.0},
    {"rk2 fixed step 1 ms", 0.0, &teal_integrator_rk2, 1e-3},
    {"discrete plant 1 ms", 1e-3, &teal_integrator_rk3, 0.0},
};

static void mode_rig_new(ts_es_rig *r, int mode, double theta) {
  const run_mode *m = &k_modes[mode];
  ts_es_rig_new(r, 4, ts_es_incline(theta), m->h, 1e-6);
  ck_assert_int_eq(teal_simulator_set_integrator(r->sim, *m->integrator), TEAL_OK);
  if (m->fixed_step > 0.0) {
    ck_assert_int_eq(teal_simulator_set_fixed_step(r->sim, m->fixed_step), TEAL_OK);
  }
}

/* Stretches every friction spring by its share of the block's weight along
 * the slope (uphill is +y of F), as static friction holds it at rest. */
static void prestretch(ts_es_rig *r, double theta) {
  double share = g * sin(theta) / r->n / 20000.0;
  for (int i = 0; i < r->n; i++) {
    const teal_exponential_spring_data *d = ts_es_data(r, i);
    double x = d->p_FS.v[0], y = d->p_FS.v[1] + share;
    ck_assert_int_eq(teal_exponential_spring_set_state(r->springs[i], r->ctx, x, y, 0.0), TEAL_OK);
  }
}

/* The seed's test of static friction: on a slope steeper than mu_k but
 * below mu_s (tan 28 deg = 0.53 between 0.5 and 0.7), a block at rest held
 * by its friction springs stays put. It starts with the springs stretched
 * as static friction holds it, since from unstretched springs the first
 * slip of the uphill corners (which carry less load) is fast enough to set
 * their Sliding. Once settled (5 s) the block moves less than 10 nm over
 * 25 s, and its anchors and Sliding do not change at all. */
START_TEST(block_below_mu_s_does_not_drift) {
  double theta = 28.0 * M_PI / 180.0;
  ts_es_rig r;
  mode_rig_new(&r, _i, theta);
  double h = ts_es_rest_height(g * cos(theta), 4);
  ts_es_rig_place(&r, teal_vec3_make(0.5, 0.2, half[2] + h), teal_vec3_zero(), 0.0);
  prestretch(&r, theta);
  teal_vec3 p0, v0, p1, v1;
  ts_es_rig_run(&r, 5.0);
  ts_es_block_in_plane(&r, &p0, &v0);
  double a0[TS_ES_MAX_SPRINGS][2];
  for (int i = 0; i < 4; i++) {
    teal_exponential_spring_get_state(r.springs[i], r.ctx, &a0[i][0], &a0[i][1], NULL);
  }
  ts_es_rig_run(&r, 30.0);
  ts_es_block_in_plane(&r, &p1, &v1);
  double drift = hypot(p1.v[0] - p0.v[0], p1.v[1] - p0.v[1]), anchor = 0.0, s_max = 0.0;
  for (int i = 0; i < 4; i++) {
    double x, y, s;
    teal_exponential_spring_get_state(r.springs[i], r.ctx, &x, &y, &s);
    anchor = fmax(anchor, hypot(x - a0[i][0], y - a0[i][1]));
    s_max = fmax(s_max, s);
  }
  printf(
      "28 deg slope, %s: drift %.3g m and anchor motion %.3g m from 5 s to 30 s, "
      "Sliding %.3g\n",
      k_modes[_i].name, drift, anchor, s_max);
  ck_assert(drift < 1e-8);
  ck_assert(anchor == 0.0);
  ck_assert(s_max == 0.0);
  ts_es_rig_free(&r);
}
END_TEST

/* Above mu_s (tan 40 deg = 0.84) the block slides: once Sliding is 1 each
 * spring's friction is mu_k times its normal force, uphill, and the block
 * accelerates at g (sin - mu_k cos). */
START_TEST(block_above_mu_s_slides_with_kinetic_friction) {
  double theta = 40.0 * M_PI / 180.0, mu_k = 0.5;
  ts_es_rig r;
  mode_rig_new(&r, _i, theta);
  double h = ts_es_rest_height(g * cos(theta), 4);
  ts_es_rig_place(&r, teal_vec3_make(0, 0, half[2] + h), teal_vec3_zero(), 0.0);
  teal_vec3 p, v0, v1;
  ts_es_rig_run(&r, 0.5);
  ts_es_block_in_plane(&r, &p, &v0);
  ts_es_rig_run(&r, 1.0);
  ts_es_block_in_plane(&r, &p, &v1);
  double fz = 0.0, friction = 0.0;
  for (int i = 0; i < 4; i++) {
    const teal_exponential_spring_data *d = ts_es_data(&r, i);
    double f[2] = {d->force.v[0], d->force.v[1]};
    ck_assert_double_eq_tol(d->sliding, 1.0, 1e-9);
    ck_assert_double_eq_tol(hypot(f[0], f[1]), mu_k * d->fz, 1e-9 * d->fz);
    ck_assert_double_eq_tol(f[0], 0.0, 1e-9);
    ck_assert(f[1] > 0.0); /* uphill: the block slides toward -y of F */
    fz += d->fz;
    friction += f[1];
  }
  double a = -(v1.v[1] - v0.v[1]) / 0.5, expect = g * (sin(theta) - mu_k * cos(theta));
  printf(
      "40 deg slope, %s: friction %.6f N = %.6f mu_k N (N = %.6f, m g cos = %.6f), "
      "acceleration %.5f (expected %.5f)\n",
      k_modes[_i].name, friction, friction / fz, fz, g * cos(theta), a, expect);
  ck_assert_double_eq_tol(fz, g * cos(theta), 0.01 * g * cos(theta)); /* it still rocks a bit */
  ck_assert_double_eq_tol(a, expect, 0.005 * expect);
  ts_es_rig_free(&r);
}
END_TEST

typedef struct energy_log {
  const teal_system *diagram;
  double last, max_rise, first;
  int n;
} energy_log;

static double total_energy(const teal_system *sys, const teal_context *ctx) {
  double ke = 0.0, pe = 0.0;
  ck_assert_int_eq(teal_calc_kinetic_energy(sys, ctx, &ke), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(sys, ctx, &pe), TEAL_OK);
  return ke + pe;
}

static int log_energy(const teal_system *sys, const teal_context *ctx, void *user) {
  energy_log *log = user;
  double e = total_energy(sys, ctx);
  if (log->n++ == 0) {
    log->first = e;
  } else if (e - log->last > log->max_rise) {
    log->max_rise = e - log->last;
  }
  log->last = e;
  return TEAL_OK;
}

START_TEST(energy_decays_during_a_bounce) {
  ts_es_rig r;
  ts_es_rig_new(&r, 1, teal_transform_identity(), 0.0, 1e-9);
  teal_simulator_set_integrator(r.sim, teal_integrator_rk45);
  ts_es_rig_place(&r, teal_vec3_make(0, 0, half[2] + 0.2), teal_vec3_zero(), 0.0);
  energy_log log = {r.diagram, 0.0, 0.0, 0.0, 0};
  teal_simulator_set_monitor(r.sim, log_energy, &log);
  double top = 0.0;
  ts_es_rig_run(&r, 0.15); /* falling */
  for (int k = 1; k <= 200; k++) {
    ts_es_rig_run(&r, 0.15 + 0.01 * k);
    teal_vec3 p, v;
    ts_es_block_in_plane(&r, &p, &v);
    if (k >= 10 && p.v[2] > top) { /* apex after the first rebound */
      top = p.v[2];
    }
  }
  printf("bounce: energy %.6f -> %.6f J, largest step-to-step rise %.3g J, rebound to %.4f m\n",
         log.first, log.last, log.max_rise, top - half[2]);
  ck_assert(log.max_rise < 1e-7);
  ck_assert(log.last < log.first - 0.05);
  ck_assert(top - half[2] < 0.2);
  ts_es_rig_free(&r);
}
END_TEST

/* ---- errors ------------------------------------------------------------------------------- */

/* Bad parameters, bodies, poses and sizes make the constructors fail. */
static void check_bad_construction(teal_plant *plant, int body) {
  teal_exponential_spring_params p;
  teal_error err;
  teal_vec3 s = teal_vec3_make(0, 0, -0.05);
  teal_transform X = teal_transform_identity();
  struct {
    size_t offset;
    double value;
    int code;
  } bad[] = {
      {offsetof(teal_exponential_spring_params, d1), -1.0, TEAL_EINVAL},
      {offsetof(teal_exponential_spring_params, d2), 0.0, TEAL_EINVAL},
      {offsetof(teal_exponential_spring_params, cz), NAN, TEAL_ENONFINITE},
      {offsetof(teal_exponential_spring_params, kxy), -5.0, TEAL_EINVAL},
      {offsetof(teal_exponential_spring_params, cxy), -1.0, TEAL_EINVAL},
      {offsetof(teal_exponential_spring_params, mu_s), -0.1, TEAL_EINVAL},
      {offsetof(teal_exponential_spring_params, mu_k), 0.9, TEAL_EINVAL}, /* > mu_s */
      {offsetof(teal_exponential_spring_params, v_settle), 0.0, TEAL_EINVAL},
      {offsetof(teal_exponential_spring_params, v_settle), INFINITY, TEAL_ENONFINITE},
      {offsetof(teal_exponential_spring_params, d0), NAN, TEAL_ENONFINITE},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    teal_exponential_spring_params_default(&p);
    *(double *)((char *)&p + bad[i].offset) = bad[i].value;
    teal_error_clear(&err);
    ck_assert_ptr_null(teal_exponential_spring_new("s", plant, body, s, X, &p, &err));
    ck_assert_int_eq(err.code, bad[i].code);
    ck_assert_ptr_nonnull(strstr(err.message, "'s'"));
  }
  teal_exponential_spring_params_default(&p);
  ck_assert_ptr_null(teal_exponential_spring_new("s", plant, 0, s, X, &p, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_exponential_spring_new("s", plant, 2, s, X, &p, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_exponential_spring_new("s", NULL, 1, s, X, &p, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_transform skew = X;
  skew.R.m[1] = 0.5;
  ck_assert_ptr_null(teal_exponential_spring_new("s", plant, body, s, skew, &p, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(
      teal_exponential_spring_new("s", plant, body, teal_vec3_make(NAN, 0, 0), X, &p, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ck_assert_ptr_null(teal_spatial_force_adder_new("a", 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
}

START_TEST(bad_parameters_and_calls_fail) {
  int body;
  teal_plant *plant = ts_es_box_plant(0.0, &body);
  check_bad_construction(plant, body);
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  teal_error err;
  teal_vec3 s = teal_vec3_make(0, 0, -0.05);
  teal_transform X = teal_transform_identity();
  /* calls on a valid spring */
  teal_system *sp = teal_exponential_spring_new("s", plant, body, s, X, NULL, &err);
  ck_assert_ptr_nonnull(sp);
  teal_context *ctx = teal_context_new(sp, NULL);
  const teal_exponential_spring_data *d;
  ck_assert_int_eq(teal_exponential_spring_eval(sp, ctx, &d), TEAL_ENOTCONNECTED);
  ck_assert_int_eq(teal_exponential_spring_set_state(sp, ctx, 0, 0, 1.5), TEAL_EINVAL);
  ck_assert_int_eq(teal_exponential_spring_set_state(sp, ctx, NAN, 0, 0.5), TEAL_EINVAL);
  p.mu_s = NAN;
  ck_assert_int_eq(teal_exponential_spring_set_params(sp, ctx, &p), TEAL_ENONFINITE);
  teal_exponential_spring_params_default(&p);
  p.mu_s = 0.2;
  p.mu_k = 0.1;
  ck_assert_int_eq(teal_exponential_spring_set_params(sp, ctx, &p), TEAL_OK);
  teal_exponential_spring_params q;
  ck_assert_int_eq(teal_exponential_spring_get_params(sp, ctx, &q), TEAL_OK);
  ck_assert_double_eq(q.mu_s, 0.2);
  ck_assert_int_eq(teal_exponential_spring_set_params(teal_plant_system(plant), ctx, &p),
                   TEAL_EINVAL);
  /* too short an input list: the body is not in it */
  teal_transform_list Xl = {0, 0, NULL};
  teal_spatial_vector_list Vl = {0, 0, NULL};
  teal_transform_list_resize(&Xl, 1);
  teal_spatial_vector_list_resize(&Vl, 1);
  Xl.X[0] = teal_transform_identity();
  Vl.V[0] = teal_spatial_vector_zero();
  teal_context_fix_abstract_input(ctx, 0, &Xl);
  teal_context_fix_abstract_input(ctx, 1, &Vl);
  teal_value_release(&teal_transform_list_type, &Xl);
  teal_value_release(&teal_spatial_vector_list_type, &Vl);
  ck_assert_int_eq(teal_exponential_spring_eval(sp, ctx, &d), TEAL_ESIZE);
  /* deep below the plane the exponential overflows */
  ts_es_fix_inputs(ctx, teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -2.0)),
                   teal_spatial_vector_zero());
  ck_assert_int_eq(teal_exponential_spring_eval(sp, ctx, &d), TEAL_ENONFINITE);
  int b2;
  teal_vec3 s2;
  ck_assert_int_eq(teal_exponential_spring_geometry(sp, &b2, &s2, NULL), TEAL_OK);
  ck_assert_int_eq(b2, body);
  ck_assert_int_eq(teal_exponential_spring_geometry(NULL, &b2, NULL, NULL), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(sp);
  teal_plant_free(plant);
}
END_TEST

START_TEST(adder_concatenates_and_skips_unconnected) {
  teal_error err;
  teal_system *a = teal_spatial_force_adder_new("a", 3, &err);
  ck_assert_ptr_nonnull(a);
  teal_context *ctx = teal_context_new(a, NULL);
  teal_applied_spatial_force_list l = {0, 0, NULL};
  teal_spatial_vector F = teal_spatial_vector_make(teal_vec3_make(1, 2, 3), teal_vec3_zero());
  teal_applied_spatial_force_list_push(&l, 1, teal_vec3_make(0, 0, 1), F);
  teal_applied_spatial_force_list_push(&l, 2, teal_vec3_make(0, 1, 0), F);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &l), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 2, &l), TEAL_OK);
  const teal_applied_spatial_force_list *out;
  ck_assert_int_eq(teal_eval_abstract_output(a, ctx, 0, (const void **)&out), TEAL_OK);
  ck_assert_int_eq(out->n, 4);
  ck_assert_int_eq(out->f[0].body, 1);
  ck_assert_int_eq(out->f[3].body, 2);
  ck_assert_double_eq(out->f[3].p_BoBq_B.v[1], 1.0);
  teal_value_release(&teal_applied_spatial_force_list_type, &l);
  teal_context_free(ctx);
  teal_system_free(a);
}
END_TEST

/* ---- allocation ---------------------------------------------------------------------------- */

START_TEST(simulation_allocates_nothing) {
  ts_es_rig r;
  ts_es_rig_new(&r, 4, ts_es_incline(0.2), 0.0, 1e-5);
  ts_es_rig_place(&r, teal_vec3_make(0, 0, half[2] + 0.01), teal_vec3_make(0.2, 0, 0), 0.0);
  teal_sim_status st0;
  ck_assert_int_eq(teal_simulator_initialize(r.sim, &st0), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  teal_sim_status st;
  int rc = teal_simulator_advance_to(r.sim, 0.55, &st);
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_uint_eq(allocs, 0);
  ts_es_rig_free(&r);
}
END_TEST

static Suite *exponential_spring_suite(void) {
  Suite *s = suite_create("exponential_spring");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, force_law_matches_the_document);
  tcase_add_test(tc, normal_force_is_small_off_the_plane);
  tcase_add_test(tc, update_law_matches_the_document);
  tcase_add_test(tc, disabled_spring_applies_no_force_and_keeps_its_state);
  tcase_add_test(tc, dropped_block_rests_at_the_predicted_height);
  tcase_add_test(tc, block_sticks_on_a_shallow_incline);
  tcase_add_test(tc, pushed_block_keeps_sliding_between_mu_k_and_mu_s);
  tcase_add_test(tc, energy_decays_during_a_bounce);
  int nmodes = (int)(sizeof k_modes / sizeof k_modes[0]);
  tcase_add_loop_test(tc, block_below_mu_s_does_not_drift, 0, nmodes);
  tcase_add_loop_test(tc, block_above_mu_s_slides_with_kinetic_friction, 0, nmodes);
  tcase_add_test(tc, normal_force_at_d0_and_decay_ratio);
  tcase_add_test(tc, bad_parameters_and_calls_fail);
  tcase_add_test(tc, adder_concatenates_and_skips_unconnected);
  tcase_add_test(tc, simulation_allocates_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(exponential_spring_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
