/* The discrete step's working memory (multibody/plant/step_data.c): sized by
 * the model at creation, a contact part only for plants with proximity
 * geometry, growth that at least doubles and is counted, and out of memory
 * leaving the buffers as they were. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/plant/step_data_internal.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"

/* A ball over the ground: two proximity geometries, one tree of 6 dofs. */
START_TEST(contact_part_is_sized_by_the_model) {
  ts_contact_world w = ts_contact_ball_world(1e-3, 0.5, NAN);
  teal_step_data sd;
  ck_assert_int_eq(teal_step_data_init(&sd, w.plant), TEAL_OK);
  ck_assert_ptr_nonnull(sd.trees);
  ck_assert_int_eq(sd.nc_cap, 4 * 2 + 8);
  ck_assert_int_eq(sd.island_cap, 6);
  ck_assert_int_eq(sd.growths, 0);
  /* every array is usable at its documented size */
  memset(sd.vstar, 0, 6 * sizeof(double));
  memset(sd.dir, 0, 6 * sizeof(double));
  memset(sd.cursor, 0, (size_t)(sd.trees->ntrees + 1) * sizeof(int));
  memset(sd.Jc, 0, (size_t)sd.nc_cap * 6 * (size_t)sd.trees->max_nv * sizeof(double));
  memset(sd.A_newton, 0, 36 * sizeof(double));
  ck_assert_uint_eq((uintptr_t)sd.contacts % 16, 0);
  teal_step_data_release(&sd);
  ck_assert_ptr_null(sd.vstar);
  ck_assert_ptr_null(sd.trees);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(growth_doubles_and_is_counted) {
  ts_contact_world w = ts_contact_ball_world(1e-3, 0.5, NAN);
  teal_step_data sd;
  ck_assert_int_eq(teal_step_data_init(&sd, w.plant), TEAL_OK);
  ck_assert_int_eq(teal_step_data_reserve_contacts(&sd, 16), TEAL_OK);
  ck_assert_int_eq(sd.growths, 0);
  ck_assert_int_eq(teal_step_data_reserve_contacts(&sd, 17), TEAL_OK);
  ck_assert_int_eq(sd.nc_cap, 32);
  ck_assert_int_eq(teal_step_data_reserve_contacts(&sd, 100), TEAL_OK);
  ck_assert_int_eq(sd.nc_cap, 100);
  ck_assert_int_eq(sd.growths, 2);
  /* the fresh contact arrays are in place at their new size */
  sd.jtree[2 * 100 - 1] = 7;
  sd.island_contacts[99] = 7;
  ck_assert_int_eq(teal_step_data_reserve_island(&sd, 4), TEAL_OK);
  ck_assert_int_eq(sd.island_cap, 6);
  ck_assert_int_eq(teal_step_data_reserve_island(&sd, 13), TEAL_OK);
  ck_assert_int_eq(sd.island_cap, 13);
  sd.A_newton[13 * 13 - 1] = 1.0;
  sd.pivots[12] = 1;
  ck_assert_int_eq(sd.growths, 3);
  teal_step_data_release(&sd);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(out_of_memory_keeps_the_buffers) {
  ts_contact_world w = ts_contact_ball_world(1e-3, 0.5, NAN);
  teal_step_data sd;
  ck_assert_int_eq(teal_step_data_init(&sd, w.plant), TEAL_OK);
  double *Jc = sd.Jc, *A = sd.A_newton;
  ts_alloc_install();
  ts_alloc_fail_after(0, 1);
  ck_assert_int_eq(teal_step_data_reserve_contacts(&sd, 1000), TEAL_ENOMEM);
  ck_assert_int_eq(teal_step_data_reserve_island(&sd, 60), TEAL_ENOMEM);
  ck_assert_int_eq(teal_step_data_reserve_contacts(&sd, INT32_MAX), TEAL_ENOMEM);
  ts_alloc_uninstall();
  ck_assert_ptr_eq(sd.Jc, Jc);
  ck_assert_ptr_eq(sd.A_newton, A);
  ck_assert_int_eq(sd.nc_cap, 16);
  ck_assert_int_eq(sd.island_cap, 6);
  ck_assert_int_eq(sd.growths, 0);
  /* a failed creation leaves nothing behind, whichever allocation fails */
  for (long k = 0; k < 3; k++) {
    teal_step_data fresh;
    ts_alloc_install();
    ts_alloc_fail_after(k, 1);
    ck_assert_int_eq(teal_step_data_init(&fresh, w.plant), TEAL_ENOMEM);
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
    ts_alloc_uninstall();
    ck_assert_ptr_null(fresh.model_buffer);
    ck_assert_ptr_null(fresh.contact_buffer);
  }
  teal_step_data_release(&sd);
  ts_contact_world_free(&w);
}
END_TEST

/* A pendulum without collision geometry: limits only, no contact part. */
START_TEST(no_contact_part_without_proximity_geometry) {
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 axis = teal_vec3_make(0, 1, 0);
  int j =
      teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, teal_plant_body_frame(p, TEAL_WORLD_BODY),
                           teal_plant_body_frame(p, b), &axis, 0.0);
  ck_assert_int_ge(j, 0);
  double lo = -1.0, hi = 1.0;
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, j, &lo, &hi), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_step_data sd;
  ck_assert_int_eq(teal_step_data_init(&sd, p), TEAL_OK);
  ck_assert_ptr_null(sd.trees);
  ck_assert_ptr_null(sd.contact_buffer);
  ck_assert_ptr_nonnull(sd.vstar);
  sd.active[0] = 0;
  sd.Wcols[0] = 1.0;
  ck_assert_int_eq(teal_step_data_reserve_contacts(&sd, 1), TEAL_ESTATE);
  ck_assert_int_eq(teal_step_data_reserve_island(&sd, 1), TEAL_ESTATE);
  teal_step_data_release(&sd);
  teal_plant_free(p);
}
END_TEST

static Suite *step_data_suite(void) {
  Suite *s = suite_create("step_data");
  TCase *tc = tcase_create("buffers");
  tcase_add_test(tc, contact_part_is_sized_by_the_model);
  tcase_add_test(tc, growth_doubles_and_is_counted);
  tcase_add_test(tc, out_of_memory_keeps_the_buffers);
  tcase_add_test(tc, no_contact_part_without_proximity_geometry);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(step_data_suite());
}
