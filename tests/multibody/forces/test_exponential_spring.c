/* Exponential spring contact (multibody/forces/exponential_spring.h): the force law
 * against the document's equations at fixed inputs, a block of mass 1 on
 * one to four springs in a diagram with the plant and a spatial force adder
 * (rest height and weight, static friction on a shallow incline, kinetic
 * friction on a steep one, energy during a bounce), bad parameters and
 * calls, and an allocation-free simulation loop. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/diagram.h"
#include "multibody/forces/exponential_spring.h"
#include "multibody/forces/spatial_force_adder.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"

static const double g = 9.81;
static const double half[3] = {0.1, 0.1, 0.05}; /* block half sizes */

/* ---- the rig: plant, springs, adder ----------------------------------------------- */

enum { MAX_SPRINGS = 4 };

typedef struct rig {
  teal_plant *plant; /* owned by the diagram */
  int body;
  teal_transform X_WF;
  teal_system *diagram;
  const teal_system *springs[MAX_SPRINGS];
  int n;
  teal_simulator *sim;
  teal_context *ctx;
} rig;

/* Bottom corners of the block, or the point under its center for n == 1. */
static teal_vec3 station(int n, int i) {
  if (n == 1) {
    return teal_vec3_make(0.0, 0.0, -half[2]);
  }
  double sx = (i & 1) ? 1.0 : -1.0, sy = (i & 2) ? 1.0 : -1.0;
  return teal_vec3_make(sx * half[0], sy * half[1], -half[2]);
}

static teal_plant *block_plant(int *body) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_solid_box(1.0, 2 * half[0], 2 * half[1], 2 * half[2]);
  *body = teal_plant_add_rigid_body(p, "block", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static void connect(teal_builder *b, const char *spring, int i) {
  char port[16];
  snprintf(port, sizeof port, "u%d", i);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "plant", "body_poses", spring, "body_poses"),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "plant", "body_spatial_velocities", spring,
                                                "body_spatial_velocities"),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, spring, "spatial_force", "forces", port),
                   TEAL_OK);
}

/* Builds the diagram with n springs on the plane X_WF and a simulator
 * (RK3, error control at the given accuracy). */
static void rig_new(rig *r, int n, teal_transform X_WF, double accuracy) {
  memset(r, 0, sizeof *r);
  r->n = n;
  r->X_WF = X_WF;
  r->plant = block_plant(&r->body);
  teal_error err;
  teal_builder *b = teal_builder_new("contact");
  teal_builder_add(b, teal_plant_system(r->plant));
  teal_builder_add(b, teal_spatial_force_adder_new("forces", n, &err));
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "spring%d", i);
    teal_system *s =
        teal_exponential_spring_new(name, r->plant, r->body, station(n, i), X_WF, NULL, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    r->springs[i] = teal_builder_add(b, s);
    connect(b, name, i);
  }
  ck_assert_int_eq(teal_builder_connect_by_name(b, "forces", "sum", "plant",
                                                "applied_spatial_force"),
                   TEAL_OK);
  r->diagram = teal_builder_build(b, &err);
  ck_assert_msg(r->diagram != NULL, "%s", err.message);
  r->sim = teal_simulator_new(r->diagram, NULL, &err);
  ck_assert_ptr_nonnull(r->sim);
  r->ctx = teal_simulator_context(r->sim);
  teal_simulator_set_integrator(r->sim, teal_integrator_rk3);
  teal_simulator_set_accuracy(r->sim, accuracy);
  teal_simulator_set_max_step(r->sim, 0.01);
}

static void rig_free(rig *r) {
  teal_simulator_free(r->sim);
  teal_system_free(r->diagram);
}

/* Places the block aligned with the plane, its center at p_F (in F), with
 * velocity v_F (in F), every anchor under its station and Sliding s. */
static void rig_place(rig *r, teal_vec3 p_F, teal_vec3 v_F, double sliding) {
  teal_quaternion q = teal_rotation_to_quaternion(r->X_WF.R);
  teal_vec3 p_W = teal_transform_apply(r->X_WF, p_F);
  teal_vec3 v_W = teal_rotation_apply(r->X_WF.R, v_F);
  double x[7] = {q.w, q.x, q.y, q.z, p_W.v[0], p_W.v[1], p_W.v[2]};
  double v[6] = {0, 0, 0, v_W.v[0], v_W.v[1], v_W.v[2]};
  ck_assert_int_eq(teal_plant_set_positions(r->plant, r->ctx, x, 7), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(r->plant, r->ctx, v, 6), TEAL_OK);
  for (int i = 0; i < r->n; i++) {
    ck_assert_int_eq(teal_exponential_spring_set_state(r->springs[i], r->ctx, 0, 0, sliding),
                     TEAL_OK);
    ck_assert_int_eq(teal_exponential_spring_reset_anchor(r->springs[i], r->ctx), TEAL_OK);
  }
}

static void rig_run(rig *r, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(r->sim, t, &st);
  ck_assert_msg(rc == TEAL_OK, "%s", st.message);
}

/* Block center position and velocity in F. */
static void block_in_plane(const rig *r, teal_vec3 *p_F, teal_vec3 *v_F) {
  double q[7], v[6];
  teal_plant_get_positions(r->plant, r->ctx, q, 7);
  teal_plant_get_velocities(r->plant, r->ctx, v, 6);
  teal_vec3 p_W = teal_vec3_make(q[4], q[5], q[6]);
  teal_vec3 v_W = teal_vec3_make(v[3], v[4], v[5]);
  *p_F = teal_rotation_apply_inverse(r->X_WF.R, teal_vec3_sub(p_W, r->X_WF.p));
  *v_F = teal_rotation_apply_inverse(r->X_WF.R, v_W);
}

static const teal_exponential_spring_data *spring_data(const rig *r, int i) {
  const teal_exponential_spring_data *d;
  ck_assert_int_eq(teal_exponential_spring_eval(r->springs[i], r->ctx, &d), TEAL_OK);
  return d;
}

/* Height of a station where n springs share weight w: fz = d1 exp(...) = w / n. */
static double rest_height(double w, int n) {
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  return p.d0 - log(w / (n * p.d1)) / p.d2;
}

static teal_transform incline(double theta) {
  return teal_transform_make(teal_rotation_from_axis_angle(teal_vec3_make(1, 0, 0), theta),
                             teal_vec3_make(0.3, -0.2, 0.1));
}

/* ---- the force law at fixed inputs ---------------------------------------------------- */

/* A lone spring with its inputs fixed to the body pose X_WB and velocity V_WB. */
static void fix_inputs(teal_context *ctx, teal_transform X_WB, teal_spatial_vector V_WB) {
  teal_transform_list X = {0, 0, NULL};
  teal_spatial_vector_list V = {0, 0, NULL};
  ck_assert_int_eq(teal_transform_list_resize(&X, 2), TEAL_OK);
  ck_assert_int_eq(teal_spatial_vector_list_resize(&V, 2), TEAL_OK);
  X.X[0] = teal_transform_identity();
  X.X[1] = X_WB;
  V.V[0] = teal_spatial_vector_zero();
  V.V[1] = V_WB;
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &X), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 1, &V), TEAL_OK);
  teal_value_release(&teal_transform_list_type, &X);
  teal_value_release(&teal_spatial_vector_list_type, &V);
}

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
  teal_plant *plant = block_plant(&body);
  teal_transform X_WF = incline(0.3);
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
  fix_inputs(ctx, X_WB, teal_spatial_vector_make(w, v_Bo));
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
    /* anchor: p0* = pxy + f_el / kxy, moving at (p0* - p0) / tau */
    for (int i = 0; i < 2; i++) {
      ck_assert_double_eq_tol(d->p0_target[i], pxy[i] + d->friction_elastic[i] / p.kxy, 1e-12);
      ck_assert_double_eq_tol(d->p0_dot[i], (d->p0_target[i] - p0[i]) / p.tau, 1e-9);
    }
    if (k == 0) { /* stuck and within the limit: the anchor stays put */
      ck_assert_double_eq_tol(hypot(d->p0_dot[0], d->p0_dot[1]), 0.0, 1e-12);
      ck_assert_double_eq_tol(d->sliding_dot, 0.0, 1e-12);
    }
    if (k == 3) { /* stuck beyond the limit: the anchor slips, Sliding rises */
      ck_assert(d->sliding_target > 0.99 && d->sliding_dot > 0.0);
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
  teal_plant *plant = block_plant(&body);
  teal_transform X_WF = incline(0.0);
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  teal_system *s = teal_exponential_spring_new("s", plant, body, teal_vec3_zero(), X_WF, NULL,
                                               NULL);
  ck_assert_ptr_nonnull(s);
  teal_context *ctx = teal_context_new(s, NULL);
  double heights[3] = {p.d0, p.d0 + 1.0 / p.d2, p.d0 + 2.0 / p.d2}, fz[3];
  for (int i = 0; i < 3; i++) {
    teal_vec3 p_WS = teal_transform_apply(X_WF, teal_vec3_make(0.1, 0.2, heights[i]));
    fix_inputs(ctx, teal_transform_make(X_WF.R, p_WS), teal_spatial_vector_zero());
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

/* ---- the block on the plane ------------------------------------------------------------ */

START_TEST(dropped_block_rests_at_the_predicted_height) {
  rig r;
  rig_new(&r, 4, teal_transform_identity(), 1e-6);
  double h = rest_height(g, 4);
  rig_place(&r, teal_vec3_make(0, 0, half[2] + h + 0.02), teal_vec3_zero(), 0.0);
  rig_run(&r, 6.0);
  double fz = 0.0;
  for (int i = 0; i < 4; i++) {
    const teal_exponential_spring_data *d = spring_data(&r, i);
    fz += d->force_W.v[2];
    ck_assert_double_eq_tol(d->p_FS.v[2], h, 2e-6);
    ck_assert_double_eq_tol(hypot(d->force.v[0], d->force.v[1]), 0.0, 1e-6);
  }
  printf("drop: sum fz = %.9f (m g = %.9f), station height %.7f m (predicted %.7f m)\n", fz, g,
         spring_data(&r, 0)->p_FS.v[2], h);
  ck_assert_double_eq_tol(fz, g, 1e-3);
  teal_vec3 p_F, v_F;
  block_in_plane(&r, &p_F, &v_F);
  ck_assert_double_eq_tol(teal_vec3_norm(v_F), 0.0, 1e-3);
  /* the derivatives are the same with caching off */
  int n = teal_system_num_continuous_states(r.diagram, NULL, NULL, NULL);
  ck_assert_int_eq(n, 13 + 4 * 3);
  double on[32], off[32];
  ck_assert_int_eq(teal_calc_time_derivatives(r.diagram, r.ctx, on), TEAL_OK);
  teal_context_set_caching(r.ctx, 0);
  ck_assert_int_eq(teal_calc_time_derivatives(r.diagram, r.ctx, off), TEAL_OK);
  teal_context_set_caching(r.ctx, 1);
  ck_assert_mem_eq(on, off, (size_t)n * sizeof(double));
  rig_free(&r);
}
END_TEST

START_TEST(block_sticks_on_a_shallow_incline) {
  double theta = 20.0 * M_PI / 180.0; /* tan = 0.36 < mu_s = 0.7 (and < mu_k) */
  rig r;
  rig_new(&r, 4, incline(theta), 1e-6);
  double h = rest_height(g * cos(theta), 4);
  /* at rest, anchors under the stations */
  rig_place(&r, teal_vec3_make(0.5, 0.2, half[2] + h), teal_vec3_zero(), 0.0);
  teal_vec3 p0, v0, pm, vm, p1, v1;
  block_in_plane(&r, &p0, &v0);
  rig_run(&r, 1.0);
  block_in_plane(&r, &pm, &vm);
  rig_run(&r, 5.0);
  block_in_plane(&r, &p1, &v1);
  double drift = hypot(p1.v[0] - p0.v[0], p1.v[1] - p0.v[1]);
  double creep = hypot(p1.v[0] - pm.v[0], p1.v[1] - pm.v[1]);
  printf("incline %.0f deg from rest: drift %.3g m over 5 s, %.3g m from 1 s to 5 s\n",
         theta * 180 / M_PI, drift, creep);
  ck_assert(drift < 1e-3);
  ck_assert(creep < 1e-5);
  for (int i = 0; i < 4; i++) {
    ck_assert(spring_data(&r, i)->sliding < 1e-3);
  }
  rig_free(&r);
  /* arriving while sliding (S = 1, 5 cm/s downhill): it stops and settles */
  rig_new(&r, 4, incline(theta), 1e-6);
  rig_place(&r, teal_vec3_make(0.5, 0.2, half[2] + h), teal_vec3_make(0, -0.05, 0), 1.0);
  rig_run(&r, 1.0);
  block_in_plane(&r, &p0, &v0);
  rig_run(&r, 5.0);
  block_in_plane(&r, &p1, &v1);
  drift = hypot(p1.v[0] - p0.v[0], p1.v[1] - p0.v[1]);
  double s_max = 0.0;
  for (int i = 0; i < 4; i++) {
    double s = spring_data(&r, i)->sliding;
    s_max = s > s_max ? s : s_max;
  }
  printf("incline after sliding: drift %.3g m over 4 s, Sliding %.3g\n", drift, s_max);
  ck_assert(drift < 1e-3);
  ck_assert(s_max < 1e-3);
  rig_free(&r);
}
END_TEST

START_TEST(block_slides_on_a_steep_incline) {
  double theta = 40.0 * M_PI / 180.0; /* tan = 0.84 > mu_s = 0.7 > mu_k = 0.5 */
  rig r;
  rig_new(&r, 4, incline(theta), 1e-6);
  double h = rest_height(g * cos(theta), 4);
  rig_place(&r, teal_vec3_make(0, 0, half[2] + h), teal_vec3_zero(), 0.0);
  teal_vec3 p, v0, v1;
  rig_run(&r, 0.5);
  block_in_plane(&r, &p, &v0);
  rig_run(&r, 1.5);
  block_in_plane(&r, &p, &v1);
  double a = -(v1.v[1] - v0.v[1]) / 1.0; /* downhill is -y of F */
  double expect = g * (sin(theta) - 0.5 * cos(theta));
  printf("incline %.0f deg: acceleration %.5f m/s^2 (g (sin - mu_k cos) = %.5f)\n",
         theta * 180 / M_PI, a, expect);
  ck_assert_double_eq_tol(a, expect, 0.01 * expect);
  ck_assert_double_eq_tol(v1.v[0], 0.0, 1e-6);
  for (int i = 0; i < 4; i++) {
    ck_assert(spring_data(&r, i)->sliding > 0.999);
  }
  /* mu_k < tan < mu_s: from rest it holds, pushed it keeps sliding */
  theta = 32.0 * M_PI / 180.0;
  rig r2;
  rig_new(&r2, 4, incline(theta), 1e-6);
  h = rest_height(g * cos(theta), 4);
  rig_place(&r2, teal_vec3_make(0, 0, half[2] + h), teal_vec3_make(0, -0.5, 0), 1.0);
  rig_run(&r2, 0.5);
  block_in_plane(&r2, &p, &v0);
  rig_run(&r2, 1.5);
  block_in_plane(&r2, &p, &v1);
  a = -(v1.v[1] - v0.v[1]);
  expect = g * (sin(theta) - 0.5 * cos(theta));
  printf("incline %.0f deg pushed: acceleration %.5f m/s^2 (expected %.5f)\n",
         theta * 180 / M_PI, a, expect);
  ck_assert_double_eq_tol(a, expect, 0.02 * expect);
  ck_assert(spring_data(&r2, 0)->sliding > 0.999);
  rig_free(&r2);
  rig_free(&r);
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
  rig r;
  rig_new(&r, 1, teal_transform_identity(), 1e-9);
  teal_simulator_set_integrator(r.sim, teal_integrator_rk45);
  rig_place(&r, teal_vec3_make(0, 0, half[2] + 0.2), teal_vec3_zero(), 0.0);
  energy_log log = {r.diagram, 0.0, 0.0, 0.0, 0};
  teal_simulator_set_monitor(r.sim, log_energy, &log);
  double top = 0.0;
  rig_run(&r, 0.15); /* falling */
  for (int k = 1; k <= 200; k++) {
    rig_run(&r, 0.15 + 0.01 * k);
    teal_vec3 p, v;
    block_in_plane(&r, &p, &v);
    if (k >= 10 && p.v[2] > top) { /* apex after the first rebound */
      top = p.v[2];
    }
  }
  printf("bounce: energy %.6f -> %.6f J, largest step-to-step rise %.3g J, rebound to %.4f m\n",
         log.first, log.last, log.max_rise, top - half[2]);
  ck_assert(log.max_rise < 1e-7);
  ck_assert(log.last < log.first - 0.05);
  ck_assert(top - half[2] < 0.2);
  rig_free(&r);
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
      {offsetof(teal_exponential_spring_params, tau), INFINITY, TEAL_ENONFINITE},
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
  teal_plant *plant = block_plant(&body);
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
  fix_inputs(ctx, teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -2.0)),
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
  rig r;
  rig_new(&r, 4, incline(0.2), 1e-5);
  rig_place(&r, teal_vec3_make(0, 0, half[2] + 0.01), teal_vec3_make(0.2, 0, 0), 0.0);
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
  rig_free(&r);
}
END_TEST

static Suite *exponential_spring_suite(void) {
  Suite *s = suite_create("exponential_spring");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, force_law_matches_the_document);
  tcase_add_test(tc, normal_force_is_small_off_the_plane);
  tcase_add_test(tc, dropped_block_rests_at_the_predicted_height);
  tcase_add_test(tc, block_sticks_on_a_shallow_incline);
  tcase_add_test(tc, block_slides_on_a_steep_incline);
  tcase_add_test(tc, energy_decays_during_a_bounce);
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
