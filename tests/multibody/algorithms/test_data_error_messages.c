/* The multibody data's error record holds the latest call's outcome:
 * teal_mb_data_set_gravity, like the algorithms, clears an earlier
 * failure when it succeeds and names itself when it fails. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "multibody/algorithms/data.h"
#include "multibody/algorithms/stages.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

START_TEST(set_gravity_record_is_the_latest_calls) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  ck_assert_int_ge(teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  const teal_error *e = teal_mb_data_error(data);
  TS_EXPECT_ERROR(teal_mb_position_stage(p, data, NULL), TEAL_EINVAL, e,
                  "teal_mb_position_stage: NULL q");
  ck_assert_int_eq(teal_mb_data_set_gravity(data, teal_vec3_make(0, 0, -1)), TEAL_OK);
  ck_assert_int_eq(e->code, TEAL_OK);
  ck_assert_str_eq(e->message, "");
  TS_EXPECT_ERROR(teal_mb_data_set_gravity(data, teal_vec3_make(NAN, 0, 0)), TEAL_ENONFINITE, e,
                  "teal_mb_data_set_gravity: g_W is not finite");
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("data_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, set_gravity_record_is_the_latest_calls);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
