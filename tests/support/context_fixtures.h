/* Fixtures shared by the context tests (test_context*.c, test_value.c):
 * allocation-counting setup and teardown, an error assertion, and the leaf
 * with one of everything and the diagrams built from it. */
#ifndef TEAL_TESTS_SUPPORT_CONTEXT_FIXTURES_H
#define TEAL_TESTS_SUPPORT_CONTEXT_FIXTURES_H

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "support/test_support.h"

void ts_ctx_setup(void);

void ts_ctx_teardown(void);

/* Everything allocated by the test was freed, including ts_buf storage. */
void ts_ctx_assert_all_freed(void);

#define TS_ASSERT_CTX_ERROR(ctx, want_code, substr)                                                \
  do {                                                                                             \
    const teal_error *e_ = teal_context_error(ctx);                                                \
    ck_assert_int_eq(e_->code, (want_code));                                                       \
    ck_assert_msg(strstr(e_->message, (substr)) != NULL, "'%s' not in '%s'", (substr),             \
                  e_->message);                                                                    \
  } while (0)

/* ---- a leaf with one of everything ----------------------------------- */

typedef struct ts_ctx_pair {
  double a, b;
} ts_ctx_pair;

extern const teal_value_type ts_ctx_pair_type;

extern const double ts_ctx_k_x0[5];

extern const double ts_ctx_k_g0[2];

extern const double ts_ctx_k_g1[3];

extern const double ts_ctx_k_p0[2];

extern const double ts_ctx_k_p1[1];

extern const double ts_ctx_k_model[3];

teal_system *ts_ctx_full_leaf_new(void);

teal_context *ts_ctx_new_ctx(const teal_system *sys);

void ts_ctx_assert_doubles(const double *got, const double *want, int n);

void ts_ctx_assert_buf(const void *value, const double *want, int n);

teal_system *ts_ctx_tri_leaf_new(const char *name, int id);

teal_system *ts_ctx_build(teal_builder *b);

/* outer { inner { a, b }, c } */
typedef struct ts_ctx_nested {
  teal_system *outer, *inner, *a, *b, *c;
} ts_ctx_nested;

ts_ctx_nested ts_ctx_nested_new(void);

#endif
