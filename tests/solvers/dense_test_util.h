/* Helpers shared by the Check programs of solvers/dense.h: naive reference
 * matrix products (row-major), norms, orthogonality and symmetry measures,
 * random matrices from the tests' xorshift PRNG and an assertion on error
 * records. Header-only (each test program is one translation unit). */
#ifndef TEAL_TESTS_SOLVERS_DENSE_TEST_UTIL_H
#define TEAL_TESTS_SOLVERS_DENSE_TEST_UTIL_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "solvers/dense.h"
#include "support/test_support.h"

/* Every UBSan report is fatal (harmless without the sanitizer). */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *
__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

/** Heap array of n doubles (zeroed), asserting success; free with free(). */
static inline double *dt_new(size_t n) {
  double *p = calloc(n > 0 ? n : 1, sizeof(double));
  ck_assert_ptr_nonnull(p);
  return p;
}

/** C (m x n) = op(A) op(B) with op(A) m x k, naive triple loop in long double. */
static inline void dt_mul(int ta, int tb, int m, int n, int k, const double *A, const double *B,
                          double *C) {
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++) {
      long double s = 0.0L;
      for (int l = 0; l < k; l++) {
        double a = ta ? A[(size_t)l * m + i] : A[(size_t)i * k + l];
        double b = tb ? B[(size_t)j * k + l] : B[(size_t)l * n + j];
        s += (long double)a * b;
      }
      C[(size_t)i * n + j] = (double)s;
    }
  }
}

/** Frobenius norm (plain sum of squares; test sizes never overflow). */
static inline double dt_fro(const double *A, size_t count) {
  long double s = 0.0L;
  for (size_t i = 0; i < count; i++) {
    s += (long double)A[i] * A[i];
  }
  return (double)sqrtl(s);
}

/** ||A - B||_F / max(1e-300, ||B||_F). */
static inline double dt_reldiff(const double *A, const double *B, size_t count) {
  long double s = 0.0L;
  for (size_t i = 0; i < count; i++) {
    long double d = (long double)A[i] - B[i];
    s += d * d;
  }
  double nb = dt_fro(B, count);
  return (double)sqrtl(s) / (nb > 1e-300 ? nb : 1e-300);
}

/** max |A - B| entrywise. */
static inline double dt_maxdiff(const double *A, const double *B, size_t count) {
  double m = 0.0;
  for (size_t i = 0; i < count; i++) {
    double d = fabs(A[i] - B[i]);
    m = d > m ? d : m;
  }
  return m;
}

/** max |Q'Q - I| for an m x n Q (orthonormal columns). */
static inline double dt_orth_cols(const double *Q, int m, int n) {
  double worst = 0.0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      long double s = 0.0L;
      for (int l = 0; l < m; l++) {
        s += (long double)Q[(size_t)l * n + i] * Q[(size_t)l * n + j];
      }
      double d = fabs((double)s - (i == j ? 1.0 : 0.0));
      worst = d > worst ? d : worst;
    }
  }
  return worst;
}

/** max |Q Q' - I| for an m x n Q (orthonormal rows). */
static inline double dt_orth_rows(const double *Q, int m, int n) {
  double worst = 0.0;
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < m; j++) {
      long double s = 0.0L;
      for (int l = 0; l < n; l++) {
        s += (long double)Q[(size_t)i * n + l] * Q[(size_t)j * n + l];
      }
      double d = fabs((double)s - (i == j ? 1.0 : 0.0));
      worst = d > worst ? d : worst;
    }
  }
  return worst;
}

/** Fills count entries uniform in [lo, hi). */
static inline void dt_rand(unsigned *seed, double *A, size_t count, double lo, double hi) {
  for (size_t i = 0; i < count; i++) {
    A[i] = ts_rand_uniform(seed, lo, hi);
  }
}

/** Asserts that rc and err carry code and that the message names fn. */
#define DT_ASSERT_ERR(rc, err, expected, fn)                                              \
  do {                                                                                    \
    int dt_rc_ = (rc);                                                                    \
    ck_assert_int_eq(dt_rc_, (expected));                                                 \
    ck_assert_int_eq((err).code, (expected));                                             \
    ck_assert_msg(strstr((err).message, (fn)) != NULL, "message \"%s\" does not name %s", \
                  (err).message, (fn));                                                   \
  } while (0)

/** A call under test for dt_check_oom: returns its status. */
typedef int (*dt_call)(void *ctx, teal_error *err);

/** Out-of-memory sweep: runs call with the counting allocator failing the
 *  k-th allocation for k = 0, 1, ... until a run needs no failure. Every
 *  failing run must return TEAL_ENOMEM with a message, the last one
 *  TEAL_OK, and every run must free all it allocated. Returns the number
 *  of allocations made by the successful run. */
static inline unsigned long dt_check_oom(dt_call call, void *ctx, const char *fn) {
  unsigned long used = 0;
  ts_alloc_install();
  for (long k = 0; k < 200; k++) {
    ts_alloc_reset();
    ts_alloc_fail_after(k, 0);
    teal_error err;
    teal_error_clear(&err);
    int rc = call(ctx, &err);
    const ts_alloc_stats *st = ts_alloc_stats_get();
    ck_assert_msg(st->allocs == st->frees, "%s: %lu allocations, %lu frees (k = %ld)", fn,
                  st->allocs, st->frees, k);
    if (st->failures == 0) {
      ck_assert_msg(rc == TEAL_OK, "%s: %s", fn, err.message);
      used = st->allocs;
      break;
    }
    ck_assert_msg(rc == TEAL_ENOMEM, "%s: failing allocation %ld gave %d (%s)", fn, k, rc,
                  err.message);
    ck_assert_msg(strstr(err.message, fn) != NULL, "%s: message \"%s\"", fn, err.message);
  }
  ts_alloc_uninstall();
  return used;
}

/** Runs a suite and returns the process exit status. */
static inline int dt_run(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
