/* Helpers shared by the Check programs of systems/primitives: assertions on
 * vectors and messages, and short-hands for contexts, fixed inputs, output
 * evaluation and Jacobians. Header-only (each test is one translation unit). */
#ifndef TEAL_TESTS_SUPPORT_PRIMITIVES_TEST_UTIL_H
#define TEAL_TESTS_SUPPORT_PRIMITIVES_TEST_UTIL_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/events.h"
#include "framework/system.h"

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define PT_TOL 1e-12

/** Asserts that msg contains sub. */
#define ASSERT_HAS(msg, sub)                                                           \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

/** Asserts |a[i] - b[i]| <= tol for i < n. */
#define ASSERT_VEC_NEAR(a, b, n, tol)                                                     \
  do {                                                                                    \
    for (int pt_i_ = 0; pt_i_ < (n); pt_i_++) {                                           \
      ck_assert_msg(fabs((a)[pt_i_] - (b)[pt_i_]) <= (tol), "entry %d: %.17g != %.17g",   \
                    pt_i_, (a)[pt_i_], (b)[pt_i_]);                                       \
    }                                                                                     \
  } while (0)

/** Asserts that a constructor failed with code and a message naming name. */
#define ASSERT_REJECTED(sys, err, want_code, name)                                       \
  do {                                                                                    \
    ck_assert_ptr_null(sys);                                                              \
    ck_assert_int_eq((err).code, (want_code));                                            \
    ASSERT_HAS((err).message, (name));                                                    \
  } while (0)

/** A context for sys (asserts success). */
static inline teal_context *pt_context(const teal_system *sys) {
  teal_error err;
  teal_context *ctx = teal_context_new(sys, &err);
  ck_assert_msg(ctx != NULL, "context: %s", err.message);
  return ctx;
}

/** Fixes vector input port of ctx to the n values (asserts success). */
static inline void pt_fix(teal_context *ctx, int port, const double *v, int n) {
  ck_assert_int_eq(teal_context_fix_input(ctx, port, v, n), TEAL_OK);
}

/** Evaluates vector output port (asserts success). */
static inline const double *pt_eval(const teal_system *sys, const teal_context *ctx, int port) {
  const double *y = NULL;
  int rc = teal_eval_vector_output(sys, ctx, port, &y);
  ck_assert_msg(rc == TEAL_OK, "eval output %d: %s", port, teal_context_error(ctx)->message);
  return y;
}

/** Evaluates the time derivatives into xdot (asserts success). */
static inline void pt_derivs(const teal_system *sys, const teal_context *ctx, double *xdot) {
  int rc = teal_calc_time_derivatives(sys, ctx, xdot);
  ck_assert_msg(rc == TEAL_OK, "derivatives: %s", teal_context_error(ctx)->message);
}

/** Builds b (asserts success). */
static inline teal_system *pt_build(teal_builder *b) {
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

/** Connects by names (asserts success). */
static inline void pt_connect(teal_builder *b, const char *src, const char *src_port,
                              const char *dst, const char *dst_port) {
  int rc = teal_builder_connect_by_name(b, src, src_port, dst, dst_port);
  ck_assert_msg(rc == TEAL_OK, "connect %s.%s -> %s.%s: %s", src, src_port, dst, dst_port,
                teal_builder_error(b)->message);
}

/** Adds sys, which must be non-NULL, to b (asserts success). */
static inline teal_system *pt_add(teal_builder *b, teal_system *sys) {
  ck_assert_ptr_nonnull(sys);
  teal_system *added = teal_builder_add(b, sys);
  ck_assert_ptr_nonnull(added);
  return added;
}

/** Runs the suite and returns the process exit status. */
static inline int pt_run(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
