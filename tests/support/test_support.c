#include "support/test_support.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/error.h"

/* ---- counting allocator ------------------------------------------------ */

static ts_alloc_stats g_stats;
static long g_fail_after = -1; /* successful allocations left before failing */
static int g_fail_persistent;

static void *counting_alloc(size_t size, void *user) {
  ts_alloc_stats *st = user;
  st->calls++;
  st->last_user = user;
  if (g_fail_after == 0) {
    st->failures++;
    if (!g_fail_persistent) {
      g_fail_after = -1;
    }
    return NULL;
  }
  if (g_fail_after > 0) {
    g_fail_after--;
  }
  void *p = malloc(size ? size : 1);
  if (p) {
    st->allocs++;
    st->bytes += size;
  }
  return p;
}

static void counting_free(void *ptr, void *user) {
  ts_alloc_stats *st = user;
  st->last_user = user;
  if (ptr) {
    st->frees++;
  }
  free(ptr);
}

teal_allocator ts_alloc_allocator(void) {
  teal_allocator a = {counting_alloc, counting_free, &g_stats};
  return a;
}

void ts_alloc_reset(void) {
  memset(&g_stats, 0, sizeof g_stats);
  g_fail_after = -1;
  g_fail_persistent = 0;
}

void ts_alloc_install(void) {
  ts_alloc_reset();
  teal_allocator a = ts_alloc_allocator();
  teal_set_allocator(&a);
}

void ts_alloc_uninstall(void) {
  teal_set_allocator(NULL);
  g_fail_after = -1;
}

const ts_alloc_stats *ts_alloc_stats_get(void) { return &g_stats; }

void ts_alloc_expect_none(void) {
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, 0);
}

void ts_alloc_expect_all_freed(void) {
  unsigned long allocs = ts_alloc_allocs(), frees = ts_alloc_frees();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, frees);
}
unsigned long ts_alloc_allocs(void) { return g_stats.allocs; }
unsigned long ts_alloc_frees(void) { return g_stats.frees; }

void ts_alloc_fail_after(long succeed, int persistent) {
  g_fail_after = succeed < 0 ? -1 : succeed;
  g_fail_persistent = persistent;
}

int ts_oom_sweep(ts_oom_ctor make, void *user, const char *want) {
  int failures = 0;
  for (long k = 0; k < 64; k++) {
    teal_error err;
    ts_alloc_install();
    ts_alloc_fail_after(k, 0);
    teal_system *sys = make(&err, user);
    ts_alloc_uninstall();
    if (sys) {
      teal_system_free(sys);
      break;
    }
    ck_assert_int_eq(err.code, TEAL_ENOMEM);
    ck_assert_msg(strstr(err.message, want) != NULL, "message \"%s\" does not contain \"%s\"",
                  err.message, want);
    failures++;
  }
  return failures;
}

/* ---- ts_buf ------------------------------------------------------------ */

static ts_buf_stats g_buf;

const ts_buf_stats *ts_buf_stats_get(void) { return &g_buf; }
void ts_buf_stats_reset(void) { memset(&g_buf, 0, sizeof g_buf); }

static int buf_init(void *dst) {
  ts_buf *b = dst;
  g_buf.inits++;
  b->n = 0;
  b->cap = TS_BUF_INIT_CAP;
  b->data = teal_calloc(TS_BUF_INIT_CAP, sizeof(double));
  if (!b->data) {
    b->cap = 0;
    return TEAL_ENOMEM;
  }
  g_buf.live++;
  return TEAL_OK;
}

static int buf_reserve(ts_buf *b, int n) {
  if (n <= b->cap) {
    return TEAL_OK;
  }
  double *d = teal_calloc((size_t)n, sizeof(double));
  if (!d) {
    return TEAL_ENOMEM;
  }
  if (b->data) {
    memcpy(d, b->data, (size_t)b->n * sizeof(double));
    teal_free(b->data);
    g_buf.live--;
  }
  g_buf.grows++;
  g_buf.live++;
  b->data = d;
  b->cap = n;
  return TEAL_OK;
}

int ts_buf_assign(ts_buf *b, const double *x, int n) {
  int rc = buf_reserve(b, n);
  if (rc) {
    return rc;
  }
  if (n > 0) {
    memcpy(b->data, x, (size_t)n * sizeof(double));
  }
  b->n = n;
  return TEAL_OK;
}

static int buf_copy(void *dst, const void *src) {
  const ts_buf *s = src;
  g_buf.copies++;
  return ts_buf_assign(dst, s->data, s->n);
}

static void buf_free(void *value) {
  ts_buf *b = value;
  g_buf.frees++;
  if (b->data) {
    teal_free(b->data);
    g_buf.live--;
  }
  b->data = NULL;
  b->n = b->cap = 0;
}

void ts_buf_release(ts_buf *b) { buf_free(b); }

const teal_value_type ts_buf_type = {"ts_buf", sizeof(ts_buf), buf_init, buf_copy, buf_free};

/* ---- PRNG -------------------------------------------------------------- */

unsigned ts_rand_next(unsigned *state) {
  unsigned x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

double ts_rand_uniform(unsigned *state, double lo, double hi) {
  return lo + (hi - lo) * ((double)ts_rand_next(state) / 4294967296.0);
}

/* ---- small leaves ------------------------------------------------------ */

static int constant_calc(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user) {
  (void)user;
  int n = teal_output_port_size(teal_system_output_port(sys, 0));
  const double *p = teal_context_numeric_parameter(ctx, 0);
  if (!p) {
    return TEAL_EINVAL;
  }
  for (int i = 0; i < n; i++) {
    out[i] = p[i];
  }
  return TEAL_OK;
}

teal_system *ts_constant_new(const char *name, int size, const double *value) {
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {teal_ticket_parameter(0)};
  teal_leaf_declare_numeric_parameter(sys, size, value);
  teal_leaf_declare_vector_output(sys, "y", size, constant_calc, NULL, deps, 1);
  teal_leaf_finalize(sys);
  return sys;
}

static int gain_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  const double *k = teal_context_numeric_parameter(ctx, 0);
  int n = teal_input_port_size(teal_system_input_port(sys, 0));
  for (int i = 0; i < n; i++) {
    out[i] = k[0] * u[i];
  }
  return TEAL_OK;
}

teal_system *ts_gain_new(const char *name, int size, double k) {
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[2] = {teal_ticket_input(0), teal_ticket_parameter(0)};
  teal_leaf_declare_vector_input(sys, "u", size);
  teal_leaf_declare_numeric_parameter(sys, 1, &k);
  teal_leaf_declare_vector_output(sys, "y", size, gain_calc, NULL, deps, 2);
  teal_leaf_finalize(sys);
  return sys;
}

static int integrator_out(const teal_system *sys, const teal_context *ctx, double *out,
                          void *user) {
  (void)user;
  int n = teal_output_port_size(teal_system_output_port(sys, 0));
  const double *z = teal_context_z(ctx);
  for (int i = 0; i < n; i++) {
    out[i] = z[i];
  }
  return TEAL_OK;
}

static int integrator_deriv(const teal_system *sys, const teal_context *ctx,
                            teal_continuous_view *xdot, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  int n = teal_input_port_size(teal_system_input_port(sys, 0));
  for (int i = 0; i < n; i++) {
    xdot->z[i] = u[i];
  }
  return TEAL_OK;
}

teal_system *ts_integrator_new(const char *name, int size, const double *x0) {
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {TEAL_TICKET_Z};
  teal_leaf_declare_vector_input(sys, "u", size);
  teal_leaf_declare_continuous_state(sys, 0, 0, size, x0);
  teal_leaf_declare_vector_output(sys, "y", size, integrator_out, NULL, deps, 1);
  teal_leaf_set_time_derivatives(sys, integrator_deriv, NULL);
  teal_leaf_finalize(sys);
  return sys;
}

static int robertson_derivs(const teal_system *sys, const teal_context *ctx,
                            teal_continuous_view *xd, void *user) {
  (void)sys;
  if (user) {
    (*(long *)user)++;
  }
  const double *y = teal_context_z(ctx);
  double r1 = 0.04 * y[0], r2 = 1e4 * y[1] * y[2], r3 = 3e7 * y[1] * y[1];
  xd->z[0] = -r1 + r2;
  xd->z[1] = r1 - r2 - r3;
  xd->z[2] = r3;
  return TEAL_OK;
}

teal_system *ts_robertson_new(long *calls) {
  teal_system *sys = teal_leaf_new("robertson", NULL, NULL);
  double y0[3] = {1.0, 0.0, 0.0};
  teal_leaf_declare_continuous_state(sys, 0, 0, 3, y0);
  teal_leaf_set_time_derivatives(sys, robertson_derivs, calls);
  if (teal_leaf_finalize(sys) != TEAL_OK) {
    teal_system_free(sys);
    return NULL;
  }
  return sys;
}

int ts_verbose(void) {
  const char *v = getenv("TEAL_TEST_VERBOSE");
  return v && *v && strcmp(v, "0") != 0;
}

void ts_report(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
}

void ts_write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_msg(f != NULL, "cannot write %s", path);
  ck_assert_int_ge(fputs(text, f), 0);
  ck_assert_int_eq(fclose(f), 0);
}

int ts_run_suite(Suite *suite) {
  SRunner *sr = srunner_create(suite);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
