/* Tests of the multiplexer: concatenation, ports, feedthrough, the
 * Jacobian hook, validation, and a mux feeding a demux in a diagram. */
#include "systems/primitives/multiplexer.h"

#include "support/primitives_test_util.h"
#include "systems/primitives/demultiplexer.h"

START_TEST(test_concatenation) {
  const int sizes[3] = {2, 1, 3};
  teal_error err;
  teal_system *s = teal_multiplexer_new("mux", sizes, 3, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(s), 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(teal_input_port_size(teal_system_input_port(s, i)), sizes[i]);
    ck_assert(teal_system_has_direct_feedthrough(s, i, 0));
  }
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 1)), "u1");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(s, 0)), 6);
  teal_context *ctx = pt_context(s);
  const double a[2] = {1, 2}, b[1] = {3}, c[3] = {4, 5, 6}, want[6] = {1, 2, 3, 4, 5, 6};
  pt_fix(ctx, 0, a, 2);
  pt_fix(ctx, 1, b, 1);
  pt_fix(ctx, 2, c, 3);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 6, 0.0);
  const double b2[1] = {-3}, want2[6] = {1, 2, -3, 4, 5, 6};
  pt_fix(ctx, 1, b2, 1);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want2, 6, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian) {
  const int sizes[2] = {1, 2};
  teal_system *s = teal_multiplexer_new("mux", sizes, 2, NULL);
  teal_context *ctx = pt_context(s);
  double D0[3] = {9, 9, 9}, D1[6] = {9, 9, 9, 9, 9, 9};
  const double want0[3] = {1, 0, 0}, want1[6] = {0, 0, 1, 0, 0, 1};
  teal_jacobian j0 = {0, 1, 3, NULL, NULL, NULL, D0};
  teal_jacobian j1 = {0, 2, 3, NULL, NULL, NULL, D1};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &j0), TEAL_OK);
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 1, 0, &j1), TEAL_OK);
  ASSERT_VEC_NEAR(D0, want0, 3, 0.0);
  ASSERT_VEC_NEAR(D1, want1, 6, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const int sizes[3] = {2, 0, 1}, big[2] = {0x7fffffff, 1};
  teal_error err;
  teal_system *s = teal_multiplexer_new("m", sizes, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "multiplexer 'm'");
  ASSERT_HAS(err.message, "num_inputs");
  s = teal_multiplexer_new("m", NULL, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'m'");
  s = teal_multiplexer_new("m", sizes, 3, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "input_sizes[1]");
  ASSERT_HAS(err.message, "'m'");
  s = teal_multiplexer_new("m", big, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "'m'");
}
END_TEST

/* [u0; u1] -> mux -> demux {1, 2} gives the same split back. */
START_TEST(test_mux_demux_diagram) {
  const int in_sizes[2] = {2, 1}, out_sizes[2] = {1, 2};
  teal_builder *b = teal_builder_new("d");
  teal_system *mux = pt_add(b, teal_multiplexer_new("mux", in_sizes, 2, NULL));
  teal_system *demux = pt_add(b, teal_demultiplexer_new("demux", out_sizes, 2, NULL));
  pt_connect(b, "mux", "y", "demux", "u");
  ck_assert_int_eq(teal_builder_export_input(b, teal_system_input_port(mux, 0), "a"), 0);
  ck_assert_int_eq(teal_builder_export_input(b, teal_system_input_port(mux, 1), "b"), 1);
  ck_assert_int_eq(teal_builder_export_output(b, teal_system_output_port(demux, 0), "p"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, teal_system_output_port(demux, 1), "q"), 1);
  teal_system *d = pt_build(b);
  ck_assert(teal_system_has_direct_feedthrough(d, 0, 0));
  ck_assert(teal_system_has_direct_feedthrough(d, 1, 1));
  teal_context *ctx = pt_context(d);
  const double a[2] = {7, 8}, c[1] = {9}, q[2] = {8, 9};
  pt_fix(ctx, 0, a, 2);
  pt_fix(ctx, 1, c, 1);
  ck_assert_double_eq(pt_eval(d, ctx, 0)[0], 7.0);
  ASSERT_VEC_NEAR(pt_eval(d, ctx, 1), q, 2, 0.0);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("multiplexer");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_concatenation);
  tcase_add_test(tc, test_jacobian);
  tcase_add_test(tc, test_bad_parameters);
  tcase_add_test(tc, test_mux_demux_diagram);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
