/* Tests of the pass-through: vector y = u with the Jacobian hook, the
 * abstract variant copying through the type's hooks, validation, and an
 * abstract pass-through between two leaves in a diagram. */
#include "systems/primitives/pass_through.h"

#include "support/primitives_test_util.h"
#include "support/test_support.h"

START_TEST(test_vector) {
  teal_error err;
  teal_system *s = teal_pass_through_new("pt", 3, &err);
  ck_assert_ptr_nonnull(s);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  const double u[3] = {1, -2, 3}, u2[3] = {0, 0, 4};
  pt_fix(ctx, 0, u, 3);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), u, 3, 0.0);
  pt_fix(ctx, 0, u2, 3);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), u2, 3, 0.0);
  double D[9];
  const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  teal_jacobian jac = {0, 3, 3, NULL, NULL, NULL, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(D, eye, 9, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_abstract) {
  ts_buf_stats_reset();
  teal_error err;
  teal_system *s = teal_pass_through_abstract_new("apt", &ts_buf_type, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_ptr_eq(teal_input_port_type(teal_system_input_port(s, 0)), &ts_buf_type);
  ck_assert_ptr_eq(teal_output_port_type(teal_system_output_port(s, 0)), &ts_buf_type);
  ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
  ck_assert(!teal_system_has_jacobian(s));
  teal_context *ctx = pt_context(s);
  ts_buf in = {0, 0, NULL};
  const double v[6] = {1, 2, 3, 4, 5, 6};
  ck_assert_int_eq(ts_buf_assign(&in, v, 6), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &in), TEAL_OK);
  const void *out = NULL;
  ck_assert_int_eq(teal_eval_abstract_output(s, ctx, 0, &out), TEAL_OK);
  const ts_buf *y = out;
  ck_assert_int_eq(y->n, 6);
  ck_assert_ptr_ne(y->data, in.data); /* a deep copy */
  ASSERT_VEC_NEAR(y->data, v, 6, 0.0);
  ck_assert_int_ge(ts_buf_stats_get()->copies, 2); /* fixing, then the output */
  /* a new fixed value reaches the output */
  const double w[2] = {-1, -2};
  ck_assert_int_eq(ts_buf_assign(&in, w, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &in), TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_output(s, ctx, 0, &out), TEAL_OK);
  y = out;
  ck_assert_int_eq(y->n, 2);
  ASSERT_VEC_NEAR(y->data, w, 2, 0.0);
  ts_buf_release(&in);
  teal_context_free(ctx);
  teal_system_free(s);
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
}
END_TEST

START_TEST(test_abstract_unconnected) {
  teal_system *s = teal_pass_through_abstract_new("apt", &ts_buf_type, NULL);
  teal_context *ctx = pt_context(s);
  const void *out = NULL;
  ck_assert_int_eq(teal_eval_abstract_output(s, ctx, 0, &out), TEAL_ENOTCONNECTED);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_abstract_chain_in_diagram) {
  teal_builder *b = teal_builder_new("d");
  teal_system *first = pt_add(b, teal_pass_through_abstract_new("a", &ts_buf_type, NULL));
  teal_system *second = pt_add(b, teal_pass_through_abstract_new("b", &ts_buf_type, NULL));
  pt_connect(b, "a", "y", "b", "u");
  ck_assert_int_ge(teal_builder_export_input(b, teal_system_input_port(first, 0), "in"), 0);
  ck_assert_int_ge(teal_builder_export_output(b, teal_system_output_port(second, 0), "out"), 0);
  teal_system *d = pt_build(b);
  teal_context *ctx = pt_context(d);
  ts_buf in = {0, 0, NULL};
  const double v[1] = {42.0};
  ck_assert_int_eq(ts_buf_assign(&in, v, 1), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &in), TEAL_OK);
  const void *out = NULL;
  ck_assert_int_eq(teal_eval_abstract_output(d, ctx, 0, &out), TEAL_OK);
  ck_assert_int_eq(((const ts_buf *)out)->n, 1);
  ck_assert_double_eq(((const ts_buf *)out)->data[0], 42.0);
  ts_buf_release(&in);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_bad_parameters) {
  teal_error err;
  const teal_value_type nameless = {NULL, 8, NULL, NULL, NULL};
  const teal_value_type empty = {"empty", 0, NULL, NULL, NULL};
  teal_system *s = teal_pass_through_new("wire", 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "pass_through 'wire'");
  s = teal_pass_through_abstract_new("wire", NULL, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'wire'");
  s = teal_pass_through_abstract_new("wire", &nameless, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'wire'");
  s = teal_pass_through_abstract_new("wire", &empty, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'wire'");
}
END_TEST

int main(void) {
  Suite *s = suite_create("pass_through");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_vector);
  tcase_add_test(tc, test_abstract);
  tcase_add_test(tc, test_abstract_unconnected);
  tcase_add_test(tc, test_abstract_chain_in_diagram);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
