/* Trajectory optimization benchmark: the solve time and Ipopt iteration
 * count of direct collocation on
 *   - the double integrator's minimum-effort transfer (0, 0) -> (1, 0) in
 *     T = 1 (21 samples; a LinearSystem, analytic Jacobians), with the
 *     largest error against the closed form u = 6 - 12 t;
 *   - the acrobot swing-up of models/acrobot.urdf from hanging to upright,
 *     elbow torque |u| <= 10 N m, joint speeds |v| <= 5 rad/s, 61 samples
 *     with a free time step in [0.03, 0.1] s, minimizing the integral of
 *     u^2 (the plant: central differences until it declares an analytic
 *     Jacobian; the line says which).
 * Each solve is repeated REPEATS times and the median time is reported.
 * Exits non-zero when a solve fails; prints a note and exits 0 when Teal
 * was built without Ipopt.
 *
 * Usage: TEAL_MODEL_PATH=models build/bench_trajectory_optimization (the
 * model is found through the run-time model search, like the examples) */
#include <math.h>
#include <stdio.h>

#include "common/timing.h"
#include "teal.h"

enum { REPEATS = 5 };

/* Solves dc REPEATS times; the median time and the last result. */
static int time_solves(teal_direct_collocation *dc, teal_direct_collocation_result *r,
                       double *median_s) {
  double t[REPEATS];
  for (int i = 0; i < REPEATS; i++) {
    int rc = teal_direct_collocation_solve(dc, NULL, r);
    if (rc != TEAL_OK) {
      return rc;
    }
    t[i] = r->solve_seconds;
  }
  *median_s = bench_median(t, REPEATS);
  return TEAL_OK;
}

static void print_row(const char *name, const teal_direct_collocation_result *r, double s) {
  printf("%-22s %9.2f ms %6d iterations  %-26s %-8s duration %.3f s  defect %.1e\n", name, 1e3 * s,
         r->iterations, r->status_name, r->analytic ? "analytic" : "central", r->duration,
         r->max_defect);
}

static int transfer(void) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, C[2] = {1, 0}, D[1] = {0};
  const double x0[2] = {0, 0}, xf[2] = {1, 0};
  teal_error err = {0};
  teal_system *sys = teal_linear_system_new("double_integrator", A, B, C, D, 2, 1, 1, 0.0, &err);
  teal_context *ctx = sys ? teal_context_new(sys, &err) : NULL;
  teal_direct_collocation *dc =
      ctx ? teal_direct_collocation_new(sys, ctx, 0, 21, 0.01, 0.5, &err) : NULL;
  int rc = dc ? TEAL_OK : err.code;
  if (dc) {
    teal_direct_collocation_set_initial_state(dc, x0);
    teal_direct_collocation_set_final_state(dc, xf);
    teal_direct_collocation_set_duration(dc, 1.0);
    teal_direct_collocation_set_initial_guess(dc, x0, xf, NULL, 1.0);
    teal_direct_collocation_result r;
    double s = 0.0, u[21], worst = 0.0;
    rc = time_solves(dc, &r, &s);
    if (rc == TEAL_OK && teal_direct_collocation_inputs(dc, u) == TEAL_OK) {
      for (int k = 0; k < 21; k++) {
        worst = fmax(worst, fabs(u[k] - (6.0 - 12.0 * k / 20.0)));
      }
      print_row("double integrator", &r, s);
      printf("%-22s largest |u - (6 - 12 t)| = %.1e\n", "", worst);
    }
    err = *teal_direct_collocation_error(dc);
  }
  if (rc != TEAL_OK && rc != TEAL_EUNSUPPORTED) {
    fprintf(stderr, "bench_trajectory_optimization: transfer: %s\n", err.message);
  }
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
  return rc;
}

/* The acrobot problem on a loaded plant. */
static int acrobot_problem(teal_direct_collocation *dc) {
  const double x0[4] = {0, 0, 0, 0}, xf[4] = {3.14159265358979323846, 0, 0, 0};
  const double ulo = -10.0, uhi = 10.0;
  const double xlo[4] = {-INFINITY, -INFINITY, -5, -5}, xhi[4] = {INFINITY, INFINITY, 5, 5};
  int rc = teal_direct_collocation_set_initial_state(dc, x0);
  rc = rc ? rc : teal_direct_collocation_set_final_state(dc, xf);
  rc = rc ? rc : teal_direct_collocation_set_input_bounds(dc, &ulo, &uhi);
  rc = rc ? rc : teal_direct_collocation_set_state_bounds(dc, xlo, xhi);
  return rc ? rc : teal_direct_collocation_set_initial_guess(dc, x0, xf, NULL, 3.9);
}

static int acrobot(void) {
  char path[1024];
  teal_error err = {0};
  teal_plant *plant = NULL;
  int rc = teal_model_path_find("acrobot.urdf", path, sizeof path, &err);
  if (rc == TEAL_OK && (plant = teal_plant_new(0.0, &err)) &&
      (teal_urdf_load_file(plant, path, NULL, &err) < 0 || teal_plant_finalize(plant))) {
    rc = TEAL_EINVAL;
  }
  teal_system *sys = plant && rc == TEAL_OK ? teal_plant_system(plant) : NULL;
  teal_context *ctx = sys ? teal_context_new(sys, &err) : NULL;
  teal_direct_collocation *dc =
      ctx ? teal_direct_collocation_new(sys, ctx, teal_plant_actuation_input_port(plant), 61, 0.03,
                                        0.1, &err)
          : NULL;
  rc = dc ? acrobot_problem(dc) : (rc ? rc : TEAL_EINVAL);
  if (rc == TEAL_OK) {
    teal_direct_collocation_result r;
    double s = 0.0;
    rc = time_solves(dc, &r, &s);
    if (rc == TEAL_OK) {
      print_row("acrobot swing-up", &r, s);
    }
  }
  if (dc) {
    err = *teal_direct_collocation_error(dc);
  }
  if (rc != TEAL_OK) {
    fprintf(stderr, "bench_trajectory_optimization: acrobot: %s\n", err.message);
  }
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_plant_free(plant);
  return rc;
}

int main(void) {
  printf("Direct collocation (Hermite-Simpson, Ipopt, L-BFGS Hessian), median of %d solves\n",
         REPEATS);
  int rc = transfer();
  if (rc == TEAL_EUNSUPPORTED) {
    printf("Teal was built without Ipopt (TEAL_WITH_IPOPT=OFF): nothing to time.\n");
    return 0;
  }
  int rc2 = acrobot();
  return rc == TEAL_OK && rc2 == TEAL_OK ? 0 : 1;
}
