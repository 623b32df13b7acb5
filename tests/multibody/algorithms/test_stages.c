/* Tests of the public stage calls (stages.h) and of data's gravity (data.h):
 * a stage brought in explicitly is what the algorithms then read, stage
 * calls check their arguments, and gravity is read where it lives. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/data.h"
#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/stages.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"

#define NMAX 128

static teal_plant *make_plant(void) {
  const ts_mb_topology *top = &ts_mb_topologies[0];
  teal_plant *p = ts_mb_random_tree(top->spec, top->n, 3u, 1);
  ck_assert_ptr_nonnull(p);
  return p;
}

START_TEST(position_stage_is_what_the_point_jacobian_reads) {
  teal_plant *p = make_plant();
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  const teal_mb_trees *tr = teal_plant_forest(p);
  double q[NMAX], v[NMAX], J[3 * NMAX] = {0};
  unsigned s = 1;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  int body = teal_plant_num_bodies(p) - 1;
  /* nothing computed yet */
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, data, tr, body, teal_vec3_zero(), 1.0, J),
                   TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_position_stage(p, data, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, data, tr, body, teal_vec3_zero(), 1.0, J),
                   TEAL_OK);
  ck_assert(ts_mb_max_abs(J, 3 * teal_plant_nv(p)) > 0.0);
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

START_TEST(explicit_stages_change_no_result) {
  teal_plant *p = make_plant();
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  double q[NMAX], v[NMAX], ke1, ke2;
  unsigned s = 2;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, data, q, v, &ke1), TEAL_OK);
  ck_assert_int_eq(teal_mb_velocity_stage(p, data, q, v), TEAL_OK);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, data, q, v, &ke2), TEAL_OK);
  ck_assert(ke1 == ke2 && ke1 > 0.0);
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

START_TEST(stage_arguments_are_checked) {
  teal_plant *p = make_plant(), *other = make_plant();
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  double q[NMAX], v[NMAX];
  unsigned s = 4;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_position_stage(p, NULL, q), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_position_stage(NULL, data, q), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_position_stage(p, data, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_position_stage(other, data, q), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "another plant"));
  v[1] = NAN;
  ck_assert_int_eq(teal_mb_velocity_stage(p, data, q, v), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "v[1]"));
  ck_assert_int_eq(teal_mb_velocity_stage(p, data, q, NULL), TEAL_EINVAL);
  memset(q, 0, sizeof(q)); /* the chain's ball joint gets a zero quaternion */
  ck_assert_int_eq(teal_mb_position_stage(p, data, q), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "quaternion"));
  teal_mb_data_free(data);
  teal_plant_free(other);
  teal_plant_free(p);
}
END_TEST

START_TEST(gravity_is_the_models_until_data_sets_its_own) {
  teal_plant *p = make_plant();
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  double q[NMAX], v[NMAX], pe0, pe;
  unsigned s = 6;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  teal_vec3 g0 = teal_plant_gravity(p);
  ck_assert(teal_mb_data_gravity(data).v[2] == g0.v[2]);
  ck_assert_int_eq(teal_mb_potential_energy(p, data, q, &pe0), TEAL_OK);
  /* the model's gravity is read, not copied */
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_scale(g0, 2.0)), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, data, q, &pe), TEAL_OK);
  ck_assert_double_eq_tol(pe, 2.0 * pe0, 1e-12 * (1.0 + fabs(pe0)));
  /* data's own gravity wins from then on */
  ck_assert_int_eq(teal_mb_data_set_gravity(data, teal_vec3_zero()), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, data, q, &pe), TEAL_OK);
  ck_assert(pe == 0.0);
  ck_assert_int_eq(teal_plant_set_gravity(p, g0), TEAL_OK);
  ck_assert(teal_mb_data_gravity(data).v[2] == 0.0);
  /* bad gravity changes nothing */
  ck_assert_int_eq(teal_mb_data_set_gravity(data, teal_vec3_make(0, NAN, 0)), TEAL_ENONFINITE);
  ck_assert(teal_mb_data_gravity(data).v[1] == 0.0);
  ck_assert_int_eq(teal_mb_data_set_gravity(NULL, g0), TEAL_EINVAL);
  ck_assert(teal_mb_data_gravity(NULL).v[2] == 0.0);
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("stages");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, position_stage_is_what_the_point_jacobian_reads);
  tcase_add_test(tc, explicit_stages_change_no_result);
  tcase_add_test(tc, stage_arguments_are_checked);
  tcase_add_test(tc, gravity_is_the_models_until_data_sets_its_own);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
