/* Exponential-spring test fixtures (see mb_spring_fixtures.h). */
#include "support/mb_spring_fixtures.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/diagram.h"
#include "framework/diagram_builder.h"
#include "framework/ports.h"
#include "geometry/scene_graph/pose_list.h"
#include "multibody/forces/spatial_force_adder.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "systems/analysis/integrator.h"

const double ts_es_half[3] = {0.1, 0.1, 0.05};

teal_vec3 ts_es_station(int n, int i) {
  if (n == 1) {
    return teal_vec3_make(0.0, 0.0, -ts_es_half[2]);
  }
  double sx = (i & 1) ? 1.0 : -1.0, sy = (i & 2) ? 1.0 : -1.0;
  return teal_vec3_make(sx * ts_es_half[0], sy * ts_es_half[1], -ts_es_half[2]);
}

teal_plant *ts_es_box_plant(double h, int *body) {
  teal_plant *p = teal_plant_new(h, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_solid_box(1.0, 2 * ts_es_half[0], 2 * ts_es_half[1], 2 * ts_es_half[2]);
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

/* The diagram: plant, adder and n springs. */
static teal_system *build(ts_es_rig *r, double h) {
  teal_error err;
  r->plant = ts_es_box_plant(h, &r->body);
  teal_builder *b = teal_builder_new("contact");
  teal_builder_add(b, teal_plant_system(r->plant));
  teal_builder_add(b, teal_spatial_force_adder_new("forces", r->n, &err));
  for (int i = 0; i < r->n; i++) {
    char name[32];
    snprintf(name, sizeof name, "spring%d", i);
    teal_system *s = teal_exponential_spring_new(name, r->plant, r->body, ts_es_station(r->n, i),
                                                 r->X_WF, NULL, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    r->springs[i] = teal_builder_add(b, s);
    connect(b, name, i);
  }
  ck_assert_int_eq(
      teal_builder_connect_by_name(b, "forces", "sum", "plant", "applied_spatial_force"), TEAL_OK);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

void ts_es_rig_new(ts_es_rig *r, int n, teal_transform X_WF, double h, double accuracy) {
  memset(r, 0, sizeof *r);
  ck_assert(n >= 1 && n <= TS_ES_MAX_SPRINGS);
  r->n = n;
  r->X_WF = X_WF;
  r->diagram = build(r, h);
  r->sim = teal_simulator_new(r->diagram, NULL, NULL);
  ck_assert_ptr_nonnull(r->sim);
  r->ctx = teal_simulator_context(r->sim);
  teal_simulator_set_integrator(r->sim, teal_integrator_rk3);
  teal_simulator_set_accuracy(r->sim, accuracy);
  teal_simulator_set_max_step(r->sim, 0.01);
}

void ts_es_rig_free(ts_es_rig *r) {
  teal_simulator_free(r->sim);
  teal_system_free(r->diagram);
}

void ts_es_rig_place(ts_es_rig *r, teal_vec3 p_F, teal_vec3 v_F, double sliding) {
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

void ts_es_rig_run(ts_es_rig *r, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(r->sim, t, &st);
  ck_assert_msg(rc == TEAL_OK, "%s", st.message);
}

void ts_es_block_in_plane(const ts_es_rig *r, teal_vec3 *p_F, teal_vec3 *v_F) {
  double q[7], v[6];
  ck_assert_int_eq(teal_plant_get_positions(r->plant, r->ctx, q, 7), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_velocities(r->plant, r->ctx, v, 6), TEAL_OK);
  teal_vec3 p_W = teal_vec3_make(q[4], q[5], q[6]);
  teal_vec3 v_W = teal_vec3_make(v[3], v[4], v[5]);
  *p_F = teal_rotation_apply_inverse(r->X_WF.R, teal_vec3_sub(p_W, r->X_WF.p));
  *v_F = teal_rotation_apply_inverse(r->X_WF.R, v_W);
}

const teal_exponential_spring_data *ts_es_data(const ts_es_rig *r, int i) {
  const teal_exponential_spring_data *d;
  ck_assert_int_eq(teal_exponential_spring_eval(r->springs[i], r->ctx, &d), TEAL_OK);
  return d;
}

double ts_es_rest_height(double w, int n) {
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  return p.d0 - log(w / (n * p.d1)) / p.d2;
}

teal_transform ts_es_incline(double theta) {
  return teal_transform_make(teal_rotation_from_axis_angle(teal_vec3_make(1, 0, 0), theta),
                             teal_vec3_make(0.3, -0.2, 0.1));
}

void ts_es_fix_inputs(teal_context *ctx, teal_transform X_WB, teal_spatial_vector V_WB) {
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
