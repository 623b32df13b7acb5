/* Tests of the demultiplexer: slices, ports, feedthrough, the Jacobian
 * hook and validation. */
#include "systems/primitives/demultiplexer.h"

#include "support/primitives_test_util.h"

START_TEST(test_slices) {
  const int sizes[3] = {1, 3, 2};
  teal_error err;
  teal_system *s = teal_demultiplexer_new("demux", sizes, 3, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(s), 1);
  ck_assert_int_eq(teal_system_num_output_ports(s), 3);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 0)), "u");
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(s, 0)), 6);
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 2)), "y2");
  teal_context *ctx = pt_context(s);
  const double u[6] = {1, 2, 3, 4, 5, 6};
  pt_fix(ctx, 0, u, 6);
  for (int j = 0, off = 0; j < 3; off += sizes[j], j++) {
    ck_assert_int_eq(teal_output_port_size(teal_system_output_port(s, j)), sizes[j]);
    ck_assert(teal_system_has_direct_feedthrough(s, 0, j));
    ASSERT_VEC_NEAR(pt_eval(s, ctx, j), u + off, sizes[j], 0.0);
  }
  const double u2[6] = {0, 0, 0, 0, -5, -6};
  pt_fix(ctx, 0, u2, 6);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 2), u2 + 4, 2, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian) {
  const int sizes[2] = {1, 2};
  teal_system *s = teal_demultiplexer_new("demux", sizes, 2, NULL);
  teal_context *ctx = pt_context(s);
  double D0[3] = {9, 9, 9}, D1[6] = {9, 9, 9, 9, 9, 9};
  const double want0[3] = {1, 0, 0}, want1[6] = {0, 1, 0, 0, 0, 1};
  teal_jacobian j0 = {0, 3, 1, NULL, NULL, NULL, D0};
  teal_jacobian j1 = {0, 3, 2, NULL, NULL, NULL, D1};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &j0), TEAL_OK);
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 1, &j1), TEAL_OK);
  ASSERT_VEC_NEAR(D0, want0, 3, 0.0);
  ASSERT_VEC_NEAR(D1, want1, 6, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const int sizes[2] = {2, -1};
  teal_error err;
  teal_system *s = teal_demultiplexer_new("dm", sizes, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "demultiplexer 'dm'");
  ASSERT_HAS(err.message, "num_outputs");
  s = teal_demultiplexer_new("dm", NULL, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'dm'");
  s = teal_demultiplexer_new("dm", sizes, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "output_sizes[1]");
}
END_TEST

int main(void) {
  Suite *s = suite_create("demultiplexer");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_slices);
  tcase_add_test(tc, test_jacobian);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
