/* Exponential spring accessors (multibody/forces/exponential_spring_access.h):
 * Simbody's mu setter rules, each getter in the plane frame and in Ground
 * against a hand computation from the seed's formulas and the plane's
 * transform, a disabled spring's getters, bad calls with their messages, and
 * getters that allocate nothing. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/forces/exponential_spring.h"
#include "multibody/forces/exponential_spring_access.h"
#include "multibody/plant/plant_system.h"
#include "support/error_messages.h"
#include "support/mb_spring_fixtures.h"
#include "support/test_support.h"

/* A lone spring at station p_BS of the box, on a tilted plane. */
typedef struct lone {
  teal_plant *plant;
  teal_system *spring;
  teal_context *ctx;
  teal_transform X_WF;
  teal_vec3 p_BS;
} lone;

static void lone_new(lone *l) {
  int body;
  l->plant = ts_es_box_plant(0.0, &body);
  l->X_WF = ts_es_incline(0.3);
  l->p_BS = teal_vec3_make(0.02, -0.03, -0.05);
  teal_error err;
  l->spring = teal_exponential_spring_new("s", l->plant, body, l->p_BS, l->X_WF, NULL, &err);
  ck_assert_msg(l->spring != NULL, "%s", err.message);
  l->ctx = teal_context_new(l->spring, NULL);
  ck_assert_ptr_nonnull(l->ctx);
}

static void lone_free(lone *l) {
  teal_context_free(l->ctx);
  teal_system_free(l->spring);
  teal_plant_free(l->plant);
}

static void expect_mu(const lone *l, double mu_s, double mu_k) {
  double s = -1, k = -1;
  ck_assert_int_eq(teal_exponential_spring_get_mu_static(l->spring, l->ctx, &s), TEAL_OK);
  ck_assert_int_eq(teal_exponential_spring_get_mu_kinetic(l->spring, l->ctx, &k), TEAL_OK);
  ck_assert_double_eq(s, mu_s);
  ck_assert_double_eq(k, mu_k);
}

START_TEST(mu_setters_keep_mu_k_at_most_mu_s) {
  lone l;
  lone_new(&l);
  expect_mu(&l, 0.7, 0.5);
  ck_assert_int_eq(teal_exponential_spring_set_mu_static(l.spring, l.ctx, 0.3), TEAL_OK);
  expect_mu(&l, 0.3, 0.3); /* mu_s below mu_k lowers mu_k */
  ck_assert_int_eq(teal_exponential_spring_set_mu_kinetic(l.spring, l.ctx, 0.9), TEAL_OK);
  expect_mu(&l, 0.9, 0.9); /* mu_k above mu_s raises mu_s */
  ck_assert_int_eq(teal_exponential_spring_set_mu_static(l.spring, l.ctx, 1.5), TEAL_OK);
  expect_mu(&l, 1.5, 0.9); /* no upper bound, mu_k kept */
  ck_assert_int_eq(teal_exponential_spring_set_mu_kinetic(l.spring, l.ctx, 0.2), TEAL_OK);
  expect_mu(&l, 1.5, 0.2);
  ck_assert_int_eq(teal_exponential_spring_set_mu_static(l.spring, l.ctx, 0.0), TEAL_OK);
  expect_mu(&l, 0.0, 0.0);
  ck_assert_int_eq(teal_exponential_spring_set_mu_kinetic(l.spring, l.ctx, 0.4), TEAL_OK);
  /* the other parameters are untouched, and the spring uses the new values */
  teal_exponential_spring_params p, def;
  teal_exponential_spring_params_default(&def);
  ck_assert_int_eq(teal_exponential_spring_get_params(l.spring, l.ctx, &p), TEAL_OK);
  def.mu_s = def.mu_k = 0.4;
  ck_assert_mem_eq(&p, &def, sizeof p);
  ts_es_fix_inputs(l.ctx, teal_transform_make(l.X_WF.R, l.X_WF.p), teal_spatial_vector_zero());
  const teal_exponential_spring_data *d;
  ck_assert_int_eq(teal_exponential_spring_eval(l.spring, l.ctx, &d), TEAL_OK);
  ck_assert_double_eq(d->mu, 0.4);
  /* refused values leave both as they were */
  teal_error *e = (teal_error *)teal_context_error(l.ctx);
  TS_EXPECT_ERROR(teal_exponential_spring_set_mu_static(l.spring, l.ctx, -0.1), TEAL_EINVAL, e,
                  "mu_s = -0.1 must be >= 0");
  TS_EXPECT_ERROR(teal_exponential_spring_set_mu_kinetic(l.spring, l.ctx, -1e-9), TEAL_EINVAL, e,
                  "mu_k = -1e-09 must be >= 0");
  TS_EXPECT_ERROR(teal_exponential_spring_set_mu_static(l.spring, l.ctx, NAN), TEAL_ENONFINITE, e,
                  "mu_s = nan is not finite");
  TS_EXPECT_ERROR(teal_exponential_spring_set_mu_kinetic(l.spring, l.ctx, INFINITY),
                  TEAL_ENONFINITE, e, "mu_k = inf is not finite");
  expect_mu(&l, 0.4, 0.4);
  TS_EXPECT_ERROR(teal_exponential_spring_get_mu_static(l.spring, l.ctx, NULL), TEAL_EINVAL, e,
                  "get_mu_static: the output is NULL");
  TS_EXPECT_ERROR(teal_exponential_spring_set_mu_static(teal_plant_system(l.plant), l.ctx, 0.5),
                  TEAL_EINVAL, e, "not an exponential spring");
  lone_free(&l);
}
END_TEST

/* ---- getters ------------------------------------------------------------------------ */

typedef int (*getter_fn)(const teal_system *, const teal_context *, int, teal_vec3 *);

static void expect_vec(teal_vec3 a, teal_vec3 b, double tol) {
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(a.v[i], b.v[i], tol);
  }
}

/* The getter's value in F and in W: the plane-frame one is expected, and
 * the Ground one must be R_WF (or X_WF, for a point) times it. */
static void expect_getter(const lone *l, getter_fn fn, teal_vec3 want_F, int point, double tol) {
  teal_vec3 f_F, f_W;
  ck_assert_int_eq(fn(l->spring, l->ctx, 0, &f_F), TEAL_OK);
  ck_assert_int_eq(fn(l->spring, l->ctx, 1, &f_W), TEAL_OK);
  expect_vec(f_F, want_F, tol);
  teal_vec3 want_W =
      point ? teal_transform_apply(l->X_WF, want_F) : teal_rotation_apply(l->X_WF.R, want_F);
  expect_vec(f_W, want_W, tol);
}

/* The body rotated a little and moving, the station 3 mm above the plane at
 * (0.4, 0.1) of F; its velocity in F into *v_F. */
static void move_body(lone *l, teal_vec3 v_Bo, teal_vec3 *v_F) {
  teal_rotation R = teal_rotation_mul(
      l->X_WF.R, teal_rotation_from_axis_angle(teal_vec3_make(0.2, 1, 0.1), 0.05));
  teal_vec3 p_BoS_W = teal_rotation_apply(R, l->p_BS);
  teal_vec3 p_WS = teal_transform_apply(l->X_WF, teal_vec3_make(0.4, 0.1, 0.003));
  teal_vec3 w = teal_vec3_make(0.3, -0.2, 0.5);
  ts_es_fix_inputs(l->ctx, teal_transform_make(R, teal_vec3_sub(p_WS, p_BoS_W)),
                   teal_spatial_vector_make(w, v_Bo));
  teal_vec3 v_WS = teal_vec3_add(v_Bo, teal_vec3_cross(w, p_BoS_W));
  *v_F = teal_rotation_apply_inverse(l->X_WF.R, v_WS);
}

/* Each getter from the seed's formulas: Sliding 0.4 and the anchor 2 mm
 * off, beyond the friction limit, so that every term is at work. */
START_TEST(getters_match_the_document_in_both_frames) {
  lone l;
  lone_new(&l);
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  teal_vec3 v_F;
  move_body(&l, teal_vec3_make(0.01, 0.02, -0.03), &v_F);
  double S = 0.4, p0[2] = {0.4 - 2e-3, 0.1 + 1e-3};
  ck_assert_int_eq(teal_exponential_spring_set_state(l.spring, l.ctx, p0[0], p0[1], S), TEAL_OK);
  double fe = p.d1 * exp(-p.d2 * (0.003 - p.d0)), fd = -p.cz * v_F.v[2] * fe, fz = fe + fd;
  double limit = (p.mu_s - S * (p.mu_s - p.mu_k)) * fz;
  /* model 1: damping capped at the limit; model 2: spring + damper scaled */
  double damp[2] = {-p.cxy * v_F.v[0], -p.cxy * v_F.v[1]};
  double n1 = hypot(damp[0], damp[1]), c1 = n1 > limit ? limit / n1 : 1.0;
  double el[2] = {-p.kxy * (0.4 - p0[0]), -p.kxy * (0.1 - p0[1])};
  double n2 = hypot(el[0] + damp[0], el[1] + damp[1]), c2 = n2 > limit ? limit / n2 : 1.0;
  ck_assert(c2 < 1.0);
  teal_vec3 f_el = teal_vec3_make((1 - S) * c2 * el[0], (1 - S) * c2 * el[1], 0.0);
  teal_vec3 f_dmp = teal_vec3_make(c2 * damp[0] + S * (c1 - c2) * damp[0],
                                   c2 * damp[1] + S * (c1 - c2) * damp[1], 0.0);
  teal_vec3 fric = teal_vec3_add(f_el, f_dmp);
  expect_getter(&l, teal_exponential_spring_get_station_position, teal_vec3_make(0.4, 0.1, 0.003),
                1, 1e-12);
  expect_getter(&l, teal_exponential_spring_get_station_velocity, v_F, 0, 1e-12);
  expect_getter(&l, teal_exponential_spring_get_anchor_point, teal_vec3_make(p0[0], p0[1], 0.0), 1,
                1e-12);
  expect_getter(&l, teal_exponential_spring_get_normal_force_elastic_part, teal_vec3_make(0, 0, fe),
                0, 1e-9);
  expect_getter(&l, teal_exponential_spring_get_normal_force_damping_part, teal_vec3_make(0, 0, fd),
                0, 1e-9);
  expect_getter(&l, teal_exponential_spring_get_normal_force, teal_vec3_make(0, 0, fz), 0, 1e-9);
  expect_getter(&l, teal_exponential_spring_get_friction_force_elastic_part, f_el, 0, 1e-9);
  expect_getter(&l, teal_exponential_spring_get_friction_force_damping_part, f_dmp, 0, 1e-9);
  expect_getter(&l, teal_exponential_spring_get_friction_force, fric, 0, 1e-9);
  expect_getter(&l, teal_exponential_spring_get_force, teal_vec3_make(fric.v[0], fric.v[1], fz), 0,
                1e-9);
  /* the anchor in Ground lies in the plane */
  teal_vec3 a_W;
  ck_assert_int_eq(teal_exponential_spring_get_anchor_point(l.spring, l.ctx, 1, &a_W), TEAL_OK);
  teal_vec3 n_W = teal_rotation_apply(l.X_WF.R, teal_vec3_make(0, 0, 1));
  ck_assert_double_eq_tol(teal_vec3_dot(n_W, teal_vec3_sub(a_W, l.X_WF.p)), 0.0, 1e-15);
  lone_free(&l);
}
END_TEST

/* Leaving the plane faster than 1 / cz the damping would pull: the damping
 * part is then -fz_elastic, and the normal force is 0. */
START_TEST(normal_damping_part_stops_at_the_elastic_part) {
  lone l;
  lone_new(&l);
  teal_vec3 v_F, fe, fd, fz;
  teal_vec3 up = teal_rotation_apply(l.X_WF.R, teal_vec3_make(0, 0, 3.0)); /* cz vz = 1.5 */
  move_body(&l, up, &v_F);
  ck_assert(v_F.v[2] > 2.0);
  ck_assert_int_eq(teal_exponential_spring_set_state(l.spring, l.ctx, 0.4, 0.1, 0.0), TEAL_OK);
  teal_exponential_spring_get_normal_force_elastic_part(l.spring, l.ctx, 0, &fe);
  teal_exponential_spring_get_normal_force_damping_part(l.spring, l.ctx, 0, &fd);
  ck_assert_int_eq(teal_exponential_spring_get_normal_force(l.spring, l.ctx, 1, &fz), TEAL_OK);
  ck_assert(fe.v[2] > 1.0);
  ck_assert_double_eq(fd.v[2], -fe.v[2]);
  ck_assert_double_eq(teal_vec3_norm(fz), 0.0);
  lone_free(&l);
}
END_TEST

/* Disabled: no force of any kind, but the station and anchor are given. */
START_TEST(disabled_spring_reports_no_force) {
  lone l;
  lone_new(&l);
  teal_vec3 v_F, f, s;
  move_body(&l, teal_vec3_make(0.01, 0.02, -0.03), &v_F);
  ck_assert_int_eq(teal_exponential_spring_set_state(l.spring, l.ctx, 0.39, 0.1, 0.0), TEAL_OK);
  ck_assert_int_eq(teal_exponential_spring_disable(l.spring, l.ctx), TEAL_OK);
  getter_fn forces[] = {teal_exponential_spring_get_normal_force_elastic_part,
                        teal_exponential_spring_get_normal_force_damping_part,
                        teal_exponential_spring_get_normal_force,
                        teal_exponential_spring_get_friction_force_elastic_part,
                        teal_exponential_spring_get_friction_force_damping_part,
                        teal_exponential_spring_get_friction_force,
                        teal_exponential_spring_get_force};
  for (size_t i = 0; i < sizeof forces / sizeof forces[0]; i++) {
    ck_assert_int_eq(forces[i](l.spring, l.ctx, 1, &f), TEAL_OK);
    ck_assert(teal_vec3_norm(f) == 0.0);
  }
  expect_getter(&l, teal_exponential_spring_get_station_position, teal_vec3_make(0.4, 0.1, 0.003),
                1, 1e-12);
  ck_assert_int_eq(teal_exponential_spring_get_anchor_point(l.spring, l.ctx, 0, &s), TEAL_OK);
  ck_assert_double_eq(s.v[0], 0.39);
  lone_free(&l);
}
END_TEST

START_TEST(bad_getter_calls_fail_with_messages) {
  lone l, other;
  lone_new(&l);
  lone_new(&other);
  teal_vec3 v;
  teal_error *e = (teal_error *)teal_context_error(l.ctx);
  TS_EXPECT_ERROR(teal_exponential_spring_get_force(l.spring, l.ctx, 0, &v), TEAL_ENOTCONNECTED, e,
                  "input port 'body_poses' of system 's' is not connected");
  move_body(&l, teal_vec3_zero(), &v);
  TS_EXPECT_ERROR(teal_exponential_spring_get_force(l.spring, l.ctx, 2, &v), TEAL_EINVAL, e,
                  "get_force: in_ground = 2 must be 0");
  TS_EXPECT_ERROR(teal_exponential_spring_get_station_velocity(l.spring, l.ctx, -1, &v),
                  TEAL_EINVAL, e, "in_ground = -1");
  TS_EXPECT_ERROR(teal_exponential_spring_get_anchor_point(l.spring, l.ctx, 1, NULL), TEAL_EINVAL,
                  e, "get_anchor_point: the output is NULL");
  TS_EXPECT_ERROR(
      teal_exponential_spring_get_normal_force(teal_plant_system(l.plant), l.ctx, 0, &v),
      TEAL_EINVAL, e, "get_normal_force: not an exponential spring");
  TS_EXPECT_ERROR(teal_exponential_spring_get_friction_force(other.spring, l.ctx, 0, &v),
                  TEAL_EINVAL, e, "the spring is not in this context");
  ck_assert_int_eq(teal_exponential_spring_get_force(l.spring, NULL, 0, &v), TEAL_EINVAL);
  /* a bad state makes the evaluation fail: deep below the plane */
  teal_vec3 p_WS = teal_transform_apply(l.X_WF, teal_vec3_make(0, 0, -2.0));
  ts_es_fix_inputs(l.ctx, teal_transform_make(l.X_WF.R, teal_vec3_sub(p_WS, l.p_BS)),
                   teal_spatial_vector_zero());
  TS_EXPECT_ERROR(teal_exponential_spring_get_force(l.spring, l.ctx, 0, &v), TEAL_ENONFINITE, e,
                  "non-finite force");
  lone_free(&other);
  lone_free(&l);
}
END_TEST

START_TEST(getters_allocate_nothing) {
  lone l;
  lone_new(&l);
  teal_vec3 v_F, f;
  move_body(&l, teal_vec3_make(0.01, 0.02, -0.03), &v_F);
  ck_assert_int_eq(teal_exponential_spring_get_force(l.spring, l.ctx, 1, &f), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  for (int k = 0; k < 10; k++) {
    ck_assert_int_eq(teal_exponential_spring_set_state(l.spring, l.ctx, 0.4 - 1e-4 * k, 0.1, 0.0),
                     TEAL_OK);
    ck_assert_int_eq(teal_exponential_spring_get_friction_force(l.spring, l.ctx, 1, &f), TEAL_OK);
    ck_assert_int_eq(teal_exponential_spring_set_mu_kinetic(l.spring, l.ctx, 0.01 * k), TEAL_OK);
  }
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, 0);
  lone_free(&l);
}
END_TEST

static Suite *exponential_spring_access_suite(void) {
  Suite *s = suite_create("exponential_spring_access");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, mu_setters_keep_mu_k_at_most_mu_s);
  tcase_add_test(tc, getters_match_the_document_in_both_frames);
  tcase_add_test(tc, normal_damping_part_stops_at_the_elastic_part);
  tcase_add_test(tc, disabled_spring_reports_no_force);
  tcase_add_test(tc, bad_getter_calls_fail_with_messages);
  tcase_add_test(tc, getters_allocate_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(exponential_spring_access_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
