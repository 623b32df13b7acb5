/* Framework overhead benchmark (issue 2).
 *
 * A ring of N gain+integrator pairs: integrator i integrates gain i's
 * output, gain i scales integrator i-1's output (k = -0.5). Each evaluation
 * changes the state (as an integrator stage does), then computes the time
 * derivatives of the whole diagram. Compared with:
 *   inline:   a hand-written loop  xdot[i] = k * x[i-1]
 *   fnptr:    a hand-written loop calling each leaf's three callbacks
 *             (integrator output, gain output, integrator derivative)
 *             through function pointers, as workload 4's "floor" in bench/README.md does.
 * Prints ns per leaf per evaluation (2N leaves) and the ratios. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/timing.h"
#include "teal.h"

static const double k_gain = -0.5;

/* ---- the Teal diagram -------------------------------------------------- */

static int gain_out(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  y[0] = *(const double *)user * u[0];
  return rc;
}

static int integrator_out(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  (void)sys;
  (void)user;
  y[0] = teal_context_z(ctx)[0];
  return TEAL_OK;
}

static int integrator_deriv(const teal_system *sys, const teal_context *ctx,
                            teal_continuous_view *xdot, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  xdot->z[0] = u[0];
  return rc;
}

static teal_system *gain_new(const char *name) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket in = teal_ticket_input(0);
  teal_leaf_declare_vector_input(s, "u", 1);
  teal_leaf_declare_vector_output(s, "y", 1, gain_out, (void *)&k_gain, &in, 1);
  teal_leaf_finalize(s);
  return s;
}

static teal_system *integrator_new(const char *name, double x0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket z = TEAL_TICKET_Z;
  teal_leaf_declare_vector_input(s, "u", 1);
  teal_leaf_declare_vector_output(s, "y", 1, integrator_out, NULL, &z, 1);
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &x0);
  teal_leaf_set_time_derivatives(s, integrator_deriv, NULL);
  teal_leaf_finalize(s);
  return s;
}

static teal_system *chain_new(int n) {
  teal_builder *b = teal_builder_new("chain");
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "gain%d", i);
    teal_builder_add(b, gain_new(name));
    snprintf(name, sizeof name, "int%d", i);
    teal_builder_add(b, integrator_new(name, 1.0 + 0.01 * i));
  }
  for (int i = 0; i < n; i++) {
    char g[32], in[32], prev[32];
    snprintf(g, sizeof g, "gain%d", i);
    snprintf(in, sizeof in, "int%d", i);
    snprintf(prev, sizeof prev, "int%d", (i + n - 1) % n);
    teal_builder_connect_by_name(b, g, "y", in, "u");
    teal_builder_connect_by_name(b, prev, "y", g, "u");
  }
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  if (!d) {
    fprintf(stderr, "build failed: %s\n", err.message);
  }
  return d;
}

/* ---- hand-written references ------------------------------------------- */

static void inline_derivs(int n, const double *x, double *xdot) {
  xdot[0] = k_gain * x[n - 1];
  for (int i = 1; i < n; i++) {
    xdot[i] = k_gain * x[i - 1];
  }
}

typedef void (*leaf_fn)(const double *in, double *out, const double *param);

static void fp_identity(const double *in, double *out, const double *param) {
  (void)param;
  out[0] = in[0];
}

static void fp_gain(const double *in, double *out, const double *param) {
  out[0] = param[0] * in[0];
}

typedef struct fp_pair {
  leaf_fn integ_out, gain, integ_deriv;
} fp_pair;

static void fnptr_derivs(int n, const fp_pair *pairs, const double *x, double *y_int,
                         double *y_gain, double *xdot) {
  for (int i = 0; i < n; i++) {
    pairs[i].integ_out(&x[i], &y_int[i], NULL);
  }
  for (int i = 0; i < n; i++) {
    pairs[i].gain(&y_int[(i + n - 1) % n], &y_gain[i], &k_gain);
    pairs[i].integ_deriv(&y_gain[i], &xdot[i], NULL);
  }
}

/* ---- timing ------------------------------------------------------------ */

typedef struct figures {
  double teal_ns, teal_cached_ns, inline_ns, fnptr_ns, max_diff;
} figures;

static figures measure(int n) {
  figures f;
  memset(&f, 0, sizeof f);
  teal_system *d = chain_new(n);
  teal_context *ctx = d ? teal_context_new(d, NULL) : NULL;
  double *x = calloc((size_t)n, sizeof *x), *xdot = calloc((size_t)n, sizeof *xdot);
  double *ref = calloc((size_t)n, sizeof *ref), *y1 = calloc((size_t)n, sizeof *y1);
  double *y2 = calloc((size_t)n, sizeof *y2);
  fp_pair *pairs = calloc((size_t)n, sizeof *pairs);
  if (!ctx || !x || !xdot || !ref || !y1 || !y2 || !pairs) {
    fprintf(stderr, "setup failed for n = %d\n", n);
    exit(1);
  }
  for (int i = 0; i < n; i++) {
    pairs[i].integ_out = fp_identity;
    pairs[i].gain = fp_gain;
    pairs[i].integ_deriv = fp_identity;
  }
  long reps = 20000000L / (n * 2) + 10;
  double t_teal[5], t_cached[5], t_inline[5], t_fnptr[5];
  for (int r = 0; r < 5; r++) {
    double t0 = bench_now_seconds();
    for (long k = 0; k < reps; k++) {
      teal_context_z_mut(ctx)[0] += 1e-12; /* a new state for every evaluation */
      teal_calc_time_derivatives(d, ctx, xdot);
    }
    t_teal[r] = bench_now_seconds() - t0;
    t0 = bench_now_seconds();
    for (long k = 0; k < reps; k++) {
      teal_calc_time_derivatives(d, ctx, xdot); /* unchanged state: cache hits */
    }
    t_cached[r] = bench_now_seconds() - t0;
    memcpy(x, teal_context_z(ctx), (size_t)n * sizeof *x);
    t0 = bench_now_seconds();
    for (long k = 0; k < reps; k++) {
      x[0] += 1e-12;
      inline_derivs(n, x, ref);
      __asm__ __volatile__("" : : "g"(ref) : "memory");
    }
    t_inline[r] = bench_now_seconds() - t0;
    t0 = bench_now_seconds();
    for (long k = 0; k < reps; k++) {
      x[0] += 1e-12;
      fnptr_derivs(n, pairs, x, y1, y2, ref);
      __asm__ __volatile__("" : : "g"(ref) : "memory");
    }
    t_fnptr[r] = bench_now_seconds() - t0;
  }
  double per = 1e9 / ((double)reps * 2.0 * n);
  f.teal_ns = bench_median(t_teal, 5) * per;
  f.teal_cached_ns = bench_median(t_cached, 5) * per;
  f.inline_ns = bench_median(t_inline, 5) * per;
  f.fnptr_ns = bench_median(t_fnptr, 5) * per;
  /* agreement of the two computations on the same state */
  memcpy(x, teal_context_z(ctx), (size_t)n * sizeof *x);
  teal_calc_time_derivatives(d, ctx, xdot);
  inline_derivs(n, x, ref);
  for (int i = 0; i < n; i++) {
    double e = xdot[i] > ref[i] ? xdot[i] - ref[i] : ref[i] - xdot[i];
    f.max_diff = e > f.max_diff ? e : f.max_diff;
  }
  free(x);
  free(xdot);
  free(ref);
  free(y1);
  free(y2);
  free(pairs);
  teal_context_free(ctx);
  teal_system_free(d);
  return f;
}

/* --profile: a fixed amount of work at N = 100 for callgrind, one function
 * per case so that --toggle-collect can single it out:
 *   valgrind --tool=callgrind --toggle-collect=profile_changed \
 *       build/bench_framework_chain --profile
 * gives instructions per pair as the total / (PROFILE_EVALS * 100). */
enum { PROFILE_N = 100, PROFILE_EVALS = 1000 };

static __attribute__((noinline)) void profile_changed(const teal_system *d, teal_context *ctx,
                                                      double *xdot) {
  for (int k = 0; k < PROFILE_EVALS; k++) {
    teal_context_z_mut(ctx)[0] += 1e-12;
    teal_calc_time_derivatives(d, ctx, xdot);
  }
}

static __attribute__((noinline)) void profile_cached(const teal_system *d, teal_context *ctx,
                                                     double *xdot) {
  for (int k = 0; k < PROFILE_EVALS; k++) {
    teal_calc_time_derivatives(d, ctx, xdot);
  }
}

static int profile(void) {
  teal_system *d = chain_new(PROFILE_N);
  teal_context *ctx = d ? teal_context_new(d, NULL) : NULL;
  double xdot[PROFILE_N];
  if (!ctx) {
    fprintf(stderr, "setup failed\n");
    teal_system_free(d);
    return 1;
  }
  profile_changed(d, ctx, xdot);
  profile_cached(d, ctx, xdot);
  printf(
      "ran %d evaluations of N = %d pairs with the state changed (profile_changed) and "
      "%d unchanged (profile_cached)\n",
      PROFILE_EVALS, PROFILE_N, PROFILE_EVALS);
  teal_context_free(ctx);
  teal_system_free(d);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--profile") == 0) {
    return profile();
  }
  static const int sizes[] = {1, 10, 100, 1000};
  printf("Framework overhead: time derivatives of N gain+integrator pairs (2N leaves)\n");
  printf("ns per leaf per evaluation, median of 5 runs; state changes every evaluation\n\n");
  printf("%6s %10s %12s %10s %10s %14s %14s %10s\n", "N", "teal", "teal-cached", "inline", "fnptr",
         "teal/inline", "teal/fnptr", "max|diff|");
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    figures f = measure(sizes[s]);
    printf("%6d %10.2f %12.2f %10.2f %10.2f %13.1fx %13.1fx %10.1e\n", sizes[s], f.teal_ns,
           f.teal_cached_ns, f.inline_ns, f.fnptr_ns, f.teal_ns / f.inline_ns,
           f.teal_ns / f.fnptr_ns, f.max_diff);
  }
  return 0;
}
