/* bench/README.md workload 4, the floor for a framework step: classic RK4 on
 * a 2-state linear ODE x' = A x, 10^6 steps of h = 1e-3 (t = 1000 s).
 *
 * A = [0 1; -4 -0.002] (a lightly damped oscillator, omega = 2, zeta = 5e-4),
 * x(0) = (1, 0); the exact solution is written out below. The same steps are
 * taken by:
 *   inline      RK4 with the right-hand side inlined in the loop
 *   fnptr       a generic RK4 calling f(t, x, xdot, ctx) through a pointer
 *   integrator  Teal's RK4 type table (teal_integrator_step) over a teal_ode
 *   simulator   teal_simulator over a LinearSystem leaf (A, no inputs), fixed
 *               1 ms RK4 steps: the whole framework path (context writes,
 *               cached derivatives, event bookkeeping)
 * and each prints ns per step, its ratio to the two floors and its error
 * against the exact solution at t = 1000 s. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/table.h"
#include "common/timing.h"
#include "teal.h"

enum { STEPS = 1000000, RUNS = 5 };
static const double h = 1e-3;
static const double A[4] = {0.0, 1.0, -4.0, -0.002};

/* x(t) for x(0) = (1, 0): q = e^{-a t} (cos(w t) + a/w sin(w t)),
 * v = -(w^2 + a^2)/w e^{-a t} sin(w t), with a = 0.001, w = sqrt(4 - a^2). */
static void exact(double t, double *x) {
  double a = 0.001, w = sqrt(4.0 - a * a), e = exp(-a * t);
  x[0] = e * (cos(w * t) + a / w * sin(w * t));
  x[1] = -(w * w + a * a) / w * e * sin(w * t);
}

static double error_at_end(const double *x) {
  double ex[2];
  exact(STEPS * h, ex);
  return fmax(fabs(x[0] - ex[0]), fabs(x[1] - ex[1]));
}

/* ---- the floors ---------------------------------------------------------- */

static void rk4_inline(double *x) {
  for (long k = 0; k < STEPS; k++) {
    double k1[2], k2[2], k3[2], k4[2], xs[2];
    k1[0] = A[0] * x[0] + A[1] * x[1];
    k1[1] = A[2] * x[0] + A[3] * x[1];
    xs[0] = x[0] + 0.5 * h * k1[0];
    xs[1] = x[1] + 0.5 * h * k1[1];
    k2[0] = A[0] * xs[0] + A[1] * xs[1];
    k2[1] = A[2] * xs[0] + A[3] * xs[1];
    xs[0] = x[0] + 0.5 * h * k2[0];
    xs[1] = x[1] + 0.5 * h * k2[1];
    k3[0] = A[0] * xs[0] + A[1] * xs[1];
    k3[1] = A[2] * xs[0] + A[3] * xs[1];
    xs[0] = x[0] + h * k3[0];
    xs[1] = x[1] + h * k3[1];
    k4[0] = A[0] * xs[0] + A[1] * xs[1];
    k4[1] = A[2] * xs[0] + A[3] * xs[1];
    x[0] += h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
    x[1] += h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
  }
}

typedef int (*rhs_fn)(double t, const double *x, double *xdot, void *ctx);

static int linear_rhs(double t, const double *x, double *xdot, void *ctx) {
  (void)t;
  const double *a = ctx;
  xdot[0] = a[0] * x[0] + a[1] * x[1];
  xdot[1] = a[2] * x[0] + a[3] * x[1];
  return 0;
}

/* The generic loop the RHS reaches through a pointer (kept out of line so
 * the compiler cannot see which function it calls). */
static __attribute__((noinline)) void rk4_fnptr(rhs_fn f, void *ctx, double *x) {
  __asm__("" : "+r"(f)); /* hide the target */
  double k[4][2], xs[2];
  static const double c[4] = {0.0, 0.5, 0.5, 1.0};
  for (long n = 0; n < STEPS; n++) {
    double t = (double)n * h;
    for (int s = 0; s < 4; s++) {
      for (int i = 0; i < 2; i++) {
        xs[i] = x[i] + (s ? c[s] * h * k[s - 1][i] : 0.0);
      }
      f(t + c[s] * h, xs, k[s], ctx);
    }
    for (int i = 0; i < 2; i++) {
      x[i] += h / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
    }
  }
}

/* ---- Teal ---------------------------------------------------------------- */

static int ode_rhs(double t, const double *x, double *xdot, void *user) {
  return linear_rhs(t, x, xdot, user);
}

static int run_integrator(double *x) {
  teal_error err;
  teal_integrator *integ = teal_integrator_new(teal_integrator_rk4, 0, 0, 2, &err);
  if (!integ) {
    fprintf(stderr, "integrator_new: %s\n", err.message);
    return -1;
  }
  teal_ode ode = {0, 0, 2, ode_rhs, NULL, NULL, (void *)A};
  double x1[2];
  int rc = TEAL_OK;
  for (long n = 0; rc == TEAL_OK && n < STEPS; n++) {
    rc = teal_integrator_step(integ, &ode, (double)n * h, h, x, x1, NULL);
    x[0] = x1[0];
    x[1] = x1[1];
  }
  teal_integrator_free(integ);
  return rc;
}

static int run_simulator(double *x) {
  teal_error err;
  teal_system *sys = teal_linear_system_new("plant", A, NULL, NULL, NULL, 2, 0, 0, 0.0, &err);
  teal_simulator *sim = sys ? teal_simulator_new(sys, NULL, &err) : NULL;
  if (!sim) {
    fprintf(stderr, "simulator set-up: %s\n", err.message);
    teal_system_free(sys);
    return -1;
  }
  teal_context *ctx = teal_simulator_context(sim);
  memcpy(teal_context_continuous_state_mut(ctx), x, 2 * sizeof *x);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, h);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, STEPS * h, &st);
  if (rc != TEAL_OK || teal_simulator_get_stats(sim).steps != STEPS) {
    fprintf(stderr, "simulation: %s (%ld steps)\n", st.message,
            teal_simulator_get_stats(sim).steps);
    rc = rc ? rc : -1;
  }
  memcpy(x, teal_context_continuous_state(ctx), 2 * sizeof *x);
  teal_simulator_free(sim);
  teal_system_free(sys);
  return rc;
}

/* ---- timing -------------------------------------------------------------- */

enum { V_INLINE, V_FNPTR, V_INTEGRATOR, V_SIMULATOR, NVARIANTS };
static const char *const names[NVARIANTS] = {"inline RHS", "RHS through a pointer",
                                             "Teal integrator (RK4 type table)",
                                             "Teal simulator over a LinearSystem"};

static int run(int v, double *x) {
  x[0] = 1.0;
  x[1] = 0.0;
  switch (v) {
    case V_INLINE:
      rk4_inline(x);
      return 0;
    case V_FNPTR:
      rk4_fnptr(linear_rhs, (void *)A, x);
      return 0;
    case V_INTEGRATOR:
      return run_integrator(x);
    default:
      return run_simulator(x);
  }
}

int main(void) {
  double ns[NVARIANTS], err[NVARIANTS];
  double t[NVARIANTS][RUNS];
  for (int r = 0; r < RUNS; r++) { /* interleaved, so drift hits every row alike */
    for (int v = 0; v < NVARIANTS; v++) {
      double x[2], t0 = bench_now_seconds();
      if (run(v, x) != 0) {
        return 1;
      }
      t[v][r] = bench_now_seconds() - t0;
      err[v] = error_at_end(x);
    }
  }
  for (int v = 0; v < NVARIANTS; v++) {
    ns[v] = 1e9 * bench_median(t[v], RUNS) / STEPS;
  }
  printf("bench/README.md workload 4: classic RK4 on x' = A x (2 states), %d steps of %g s\n",
         STEPS, h);
  printf(
      "median of %d interleaved runs; bench/README.md's figures: inline 22 ns, "
      "pointer 59 ns\n\n",
      RUNS);
  printf("%-36s %10s %12s %12s %12s\n", "variant", "ns/step", "/ inline", "/ pointer", "error");
  for (int v = 0; v < NVARIANTS; v++) {
    printf("%-36s %10.1f %11.2fx %11.2fx %12.2e\n", names[v], ns[v], ns[v] / ns[V_INLINE],
           ns[v] / ns[V_FNPTR], err[v]);
  }
  printf("\n");
  bench_print_reproduce("framework_floor", 0);
  return 0;
}
