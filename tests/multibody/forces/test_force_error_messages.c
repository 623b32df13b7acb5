/* Error messages of the force elements and the exponential spring: force
 * elements added with bad arguments get a message in the plant's record
 * that reads cleanly (no stray "(null)"), and the spring's context calls
 * name a NULL result apart from a spring that is not in the context. */
#include <check.h>
#include <stdlib.h>

#include "framework/context.h"
#include "multibody/forces/exponential_spring.h"
#include "multibody/forces/force_elements.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A plant with one free body, finalized when asked. */
static teal_plant *block_plant(int finalize, int *body) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  *body = teal_plant_add_rigid_body(p, "block", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  if (finalize) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

START_TEST(force_element_messages_read_cleanly) {
  int body;
  teal_plant *p = block_plant(0, &body);
  TS_EXPECT_ERROR(teal_plant_add_revolute_spring(p, 5, 0.0, 1.0), TEAL_EINVAL, teal_plant_error(p),
                  "revolute spring needs a revolute joint");
  ck_assert_ptr_null(strstr(teal_plant_error(p)->message, "(null)"));
  teal_plant_free(p);
  p = block_plant(0, &body);
  TS_EXPECT_ERROR(teal_plant_add_linear_spring_damper(p, body, teal_vec3_zero(), body,
                                                      teal_vec3_zero(), 1.0, 1.0, 0.0),
                  TEAL_EINVAL, teal_plant_error(p), "two distinct valid bodies");
  ck_assert_ptr_null(strstr(teal_plant_error(p)->message, "(null)"));
  teal_plant_free(p);
  p = block_plant(0, &body);
  TS_EXPECT_ERROR(teal_plant_add_linear_bushing_rpy(p, 0, 0, teal_vec3_zero(), teal_vec3_zero(),
                                                    teal_vec3_zero(), teal_vec3_zero()),
                  TEAL_EINVAL, teal_plant_error(p), "bushing needs two valid frames");
  ck_assert_ptr_null(strstr(teal_plant_error(p)->message, "(null)"));
  teal_plant_free(p);
}
END_TEST

START_TEST(spring_null_results) {
  int body;
  teal_plant *p = block_plant(1, &body);
  teal_system *s = teal_exponential_spring_new("s", p, body, teal_vec3_zero(),
                                               teal_transform_identity(), NULL, NULL);
  ck_assert_ptr_nonnull(s);
  teal_context *ctx = teal_context_new(s, NULL);
  const teal_error *e = teal_context_error(ctx);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_exponential_spring_eval(s, ctx, NULL), TEAL_EINVAL, e, "eval: data is NULL");
  ck_assert_ptr_null(strstr(e->message, "not in this context"));
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_exponential_spring_get_params(s, ctx, NULL), TEAL_EINVAL, e,
                  "get_params: params is NULL");
  teal_system *other = ts_constant_new("other", 1, NULL);
  teal_context *octx = teal_context_new(other, NULL);
  const teal_exponential_spring_data *d;
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_exponential_spring_eval(s, octx, &d), TEAL_EINVAL, teal_context_error(octx),
                  "the spring is not in this context");
  teal_context_free(octx);
  teal_system_free(other);
  teal_context_free(ctx);
  teal_system_free(s);
  teal_plant_free(p);
}
END_TEST

static Suite *force_error_messages_suite(void) {
  Suite *s = suite_create("force_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, force_element_messages_read_cleanly);
  tcase_add_test(tc, spring_null_results);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(force_error_messages_suite());
}
