/* Multibody derivatives benchmark: the cost of the analytic derivatives of
 * the dynamics (issue 21), on the models of workload 1 (planar chains of
 * n = 7, 25, 100 rods, bench/README.md) and the 7-dof arm of
 * bench_multibody_chain (its numbers repeated here), all continuous.
 *
 * Rows: the median time of teal_linearize_matrices on the plant (input
 * applied_generalized_force, output state) with the plant's analytic
 * Jacobian and with central differences (use_analytic = 0), and their
 * ratio (the target: analytic at most 1/5 of central differences at
 * n = 25); one teal_mb_forward_dynamics_derivatives call (vdot and
 * dvdot/dq, dvdot/dv, dvdot/dtau) against one teal_mb_forward_dynamics
 * (ABA), and teal_mb_inverse_dynamics_derivatives against
 * teal_mb_inverse_dynamics (RNEA). The point is workload 1's kernel point
 * (q_i = 0.1 i, v_i = 0.05 i, vdot_i = 0.3 - 0.02 i), q_1 moved by 1e-9
 * before each call. Agreement: the largest difference between the two
 * linearizations' A and B, relative to their largest entry.
 *
 * The implicit integrators' rows: one simulator step (fixed, 1 ms, from
 * the kernel point) of implicit Euler and of Radau IIA on the plant alone,
 * with the Newton matrix from the plant's analytic Jacobian and from
 * forward differences (teal_simulator_set_analytic_jacobian), and their
 * ratios.
 *
 * Exit status: 0 on success, 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/table.h"
#include "common/timing.h"
#include "teal.h"

#define MAX_LINKS 100
#define NUM_MODELS 4

static const double k_warmup_s = 0.02, k_batch_s = 4e-4, k_budget_s = 1.5;
static const int k_min_batches = 15;

/* ---- models ------------------------------------------------------------------ */

/* One revolute link: joint offset along z from the parent's joint, axis,
 * mass, centre of mass and (diagonal) central inertia. */
typedef struct link_def {
  double z_offset;
  teal_vec3 axis;
  double mass;
  teal_vec3 com;
  teal_mat3 I_cm;
} link_def;

/* The arm of bench_multibody_chain, with its principal axes unrotated
 * (the products of inertia matter to neither kernel's cost). */
static const double k_arm[7][8] = {
    /* z offset, axis (0 = z, 1 = y), mass, com (3), Ixx = Iyy, Izz */
    {0.16, 0, 3.9, 0.0, -0.02, 0.11, 0.060, 0.012},
    {0.20, 1, 3.6, 0.003, 0.03, 0.09, 0.040, 0.011},
    {0.21, 0, 3.0, 0.0, 0.02, 0.13, 0.032, 0.009},
    {0.21, 1, 2.6, 0.0, -0.03, 0.07, 0.022, 0.007},
    {0.19, 0, 1.8, 0.001, 0.02, 0.10, 0.016, 0.005},
    {0.21, 1, 1.2, 0.0, 0.002, 0.02, 0.004, 0.003},
    {0.08, 0, 0.4, 0.0, 0.0, 0.03, 0.0007, 0.0005}};

/* Link i of model m (m < 3: the chain of n rods, 1 kg and 0.5 m each). */
static link_def model_link(int m, int i) {
  link_def l;
  if (m < 3) {
    double L = 0.5, I = 1.0 * L * L / 12.0;
    l = (link_def){i == 0 ? 0.0 : -L, teal_vec3_make(0, 1, 0), 1.0, teal_vec3_make(0, 0, -L / 2),
                   teal_mat3_diag(I, I, 0.0)};
  } else {
    const double *a = k_arm[i];
    l = (link_def){a[0], a[1] > 0 ? teal_vec3_make(0, 1, 0) : teal_vec3_make(0, 0, 1), a[2],
                   teal_vec3_make(a[3], a[4], a[5]), teal_mat3_diag(a[6], a[6], a[7])};
  }
  return l;
}

static teal_plant *build_plant(int m, int n) {
  teal_error err = {0};
  teal_plant *p = teal_plant_new(0.0, &err);
  int parent = p ? teal_plant_body_frame(p, 0) : -1;
  for (int i = 0; p && parent >= 0 && i < n; i++) {
    link_def l = model_link(m, i);
    char name[32];
    teal_spatial_inertia M = teal_spatial_inertia_from_central(l.mass, l.com, l.I_cm);
    snprintf(name, sizeof name, "l%d", i + 1);
    int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    snprintf(name, sizeof name, "F%d", i + 1);
    teal_transform X =
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, l.z_offset));
    int frame = body < 0 ? body : teal_plant_add_frame(p, name, parent, X);
    int child = frame < 0 ? frame : teal_plant_body_frame(p, body);
    snprintf(name, sizeof name, "j%d", i + 1);
    parent =
        child < 0
            ? child
            : (teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, frame, child, &l.axis, 0.0) < 0
                   ? -1
                   : child);
  }
  if (!p || parent < 0 || teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81)) ||
      teal_plant_finalize(p)) {
    fprintf(stderr, "error: cannot build model %d: %s\n", m, p ? teal_plant_error(p)->message : "");
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

/* ---- the timed calls ----------------------------------------------------------- */

typedef struct model_run {
  teal_plant *plant;
  teal_context *ctx;
  teal_mb_data *data;
  teal_mb_derivatives *ws;
  int n;
  double q[MAX_LINKS], v[MAX_LINKS], vdot[MAX_LINKS], tau[MAX_LINKS], out[MAX_LINKS];
  double *dq, *dv, *dt; /* n x n each */
  teal_linearize_options opts[2];
  teal_simulator *sim[4]; /* implicit Euler, Radau; each analytic then differenced */
} model_run;

/* q_1 moved by -1e-9 or +1e-9, in the arrays and in the context. */
static int perturb(model_run *r, int call, int in_context) {
  r->q[0] = 0.1 + (call & 1 ? 1e-9 : -1e-9);
  return in_context ? teal_plant_set_positions(r->plant, r->ctx, r->q, r->n) : TEAL_OK;
}

static int linearize_with(model_run *r, int call, int analytic) {
  teal_linear_system_matrices m;
  teal_error err = {0};
  int rc = perturb(r, call, 1);
  if (rc == TEAL_OK) {
    rc = teal_linearize_matrices(teal_plant_system(r->plant), r->ctx, &r->opts[analytic], &m, &err);
    teal_linear_system_matrices_free(&m);
  }
  if (rc) {
    fprintf(stderr, "error: linearize: %s\n", err.message);
  }
  return rc;
}

static int call_lin_analytic(void *s, int call) {
  return linearize_with(s, call, 1);
}
static int call_lin_fd(void *s, int call) {
  return linearize_with(s, call, 0);
}

static int call_fd_derivatives(void *s, int call) {
  model_run *r = s;
  perturb(r, call, 0);
  return teal_mb_forward_dynamics_derivatives(r->plant, r->data, r->ws, r->q, r->v, r->tau, NULL,
                                              r->out, r->dq, r->dv, r->dt);
}

static int call_aba(void *s, int call) {
  model_run *r = s;
  perturb(r, call, 0);
  return teal_mb_forward_dynamics(r->plant, r->data, r->q, r->v, r->tau, r->out);
}

static int call_id_derivatives(void *s, int call) {
  model_run *r = s;
  perturb(r, call, 0);
  return teal_mb_inverse_dynamics_derivatives(r->plant, r->data, r->ws, r->q, r->v, r->vdot, NULL,
                                              NULL, r->out, r->dq, r->dv, NULL);
}

static int call_rnea(void *s, int call) {
  model_run *r = s;
  perturb(r, call, 0);
  return teal_mb_inverse_dynamics(r->plant, r->data, r->q, r->v, r->vdot, NULL, r->out);
}

/* One fixed step of simulator k from the kernel point (q_1 moved). */
static int step_with(model_run *r, int call, int k) {
  teal_context *ctx = teal_simulator_context(r->sim[k]);
  perturb(r, call, 0);
  int rc = teal_plant_set_positions(r->plant, ctx, r->q, r->n);
  rc = rc ? rc : teal_plant_set_velocities(r->plant, ctx, r->v, r->n);
  return rc ? rc : teal_simulator_advance_to(r->sim[k], teal_context_time(ctx) + 1e-3, NULL);
}

static int call_ie_analytic(void *s, int call) {
  return step_with(s, call, 0);
}
static int call_ie_fd(void *s, int call) {
  return step_with(s, call, 1);
}
static int call_radau_analytic(void *s, int call) {
  return step_with(s, call, 2);
}
static int call_radau_fd(void *s, int call) {
  return step_with(s, call, 3);
}

enum {
  R_LIN_ANALYTIC,
  R_LIN_FD,
  R_FD_DERIV,
  R_ABA,
  R_ID_DERIV,
  R_RNEA,
  R_IE_ANALYTIC,
  R_IE_FD,
  R_RADAU_ANALYTIC,
  R_RADAU_FD,
  NUM_ROWS
};

static int (*const k_calls[NUM_ROWS])(void *, int) = {
    call_lin_analytic,   call_lin_fd,  call_fd_derivatives, call_aba,
    call_id_derivatives, call_rnea,    call_ie_analytic,    call_ie_fd,
    call_radau_analytic, call_radau_fd};

/* ---- setup ------------------------------------------------------------------------ */

static void model_run_free(model_run *r) {
  for (int k = 0; k < 4; k++) {
    teal_simulator_free(r->sim[k]);
  }
  teal_context_free(r->ctx);
  teal_mb_derivatives_free(r->ws);
  teal_mb_data_free(r->data);
  teal_plant_free(r->plant);
  free(r->dq);
}

static int model_run_init(model_run *r, int m, int n) {
  memset(r, 0, sizeof *r);
  r->n = n;
  if (!(r->plant = build_plant(m, n))) {
    return 1;
  }
  for (int i = 0; i < n; i++) {
    r->q[i] = 0.1 * (i + 1);
    r->v[i] = 0.05 * (i + 1);
    r->vdot[i] = 0.3 - 0.02 * (i + 1);
  }
  teal_system *sys = teal_plant_system(r->plant);
  r->ctx = teal_context_new(sys, NULL);
  r->data = teal_mb_data_new(r->plant, NULL);
  r->ws = teal_mb_derivatives_new(r->plant, NULL);
  r->dq = malloc(3 * sizeof(double) * (size_t)n * (size_t)n);
  int in = teal_plant_applied_generalized_force_input_port(r->plant);
  if (!r->ctx || !r->data || !r->ws || !r->dq || teal_context_fix_input(r->ctx, in, r->tau, n) ||
      teal_plant_set_velocities(r->plant, r->ctx, r->v, n)) {
    return 1;
  }
  r->dv = r->dq + n * n;
  r->dt = r->dv + n * n;
  for (int a = 0; a < 2; a++) {
    teal_linearize_options_init(&r->opts[a]);
    r->opts[a].input_port = in;
    r->opts[a].output_port = teal_plant_state_output_port(r->plant);
    r->opts[a].equilibrium_tolerance = 0.0; /* the kernel point is no equilibrium */
    r->opts[a].use_analytic = a;
  }
  for (int k = 0; k < 4; k++) {
    r->sim[k] = teal_simulator_new(sys, NULL, NULL);
    if (!r->sim[k] ||
        teal_simulator_set_integrator(
            r->sim[k], k < 2 ? teal_integrator_implicit_euler : teal_integrator_radau3) ||
        teal_simulator_set_fixed_step(r->sim[k], 1e-3) ||
        teal_simulator_set_analytic_jacobian(r->sim[k], k % 2 == 0) ||
        teal_context_fix_input(teal_simulator_context(r->sim[k]), in, r->tau, n)) {
      return 1;
    }
  }
  return perturb(r, 0, 1) != TEAL_OK;
}

/* max |A_a - A_f|, |B_a - B_f| over max |A_f|, |B_f|. */
static double agreement(model_run *r) {
  teal_linear_system_matrices m[2];
  teal_system *sys = teal_plant_system(r->plant);
  double e = 0.0, s = 0.0;
  for (int a = 0; a < 2; a++) {
    if (teal_linearize_matrices(sys, r->ctx, &r->opts[a], &m[a], NULL)) {
      return NAN;
    }
  }
  int nx = m[0].nx, nu = m[0].nu;
  for (int i = 0; i < nx * nx + nx * nu; i++) {
    double x = i < nx * nx ? m[0].A[i] : m[0].B[i - nx * nx];
    double y = i < nx * nx ? m[1].A[i] : m[1].B[i - nx * nx];
    e = fmax(e, fabs(x - y));
    s = fmax(s, fabs(y));
  }
  teal_linear_system_matrices_free(&m[0]);
  teal_linear_system_matrices_free(&m[1]);
  return e / s;
}

/* ---- the run ---------------------------------------------------------------------- */

/* Times every row on model m; the medians (s per call) into t. */
static int time_model(int m, int n, double *t, double *agree) {
  model_run r;
  if (model_run_init(&r, m, n)) {
    fprintf(stderr, "error: cannot set up model %d\n", m);
    model_run_free(&r);
    return 1;
  }
  static bench_batched rows[NUM_ROWS];
  memset(rows, 0, sizeof rows);
  int rc = 0;
  for (int k = 0; k < NUM_ROWS && !rc; k++) {
    rows[k].call = k_calls[k];
    rows[k].state = &r;
    rc = bench_batched_calibrate(&rows[k], k_warmup_s, k_batch_s);
  }
  if (!rc) {
    rc = bench_batched_interleave(rows, NUM_ROWS, k_min_batches, k_budget_s);
  }
  for (int k = 0; k < NUM_ROWS; k++) {
    t[k] = rc ? NAN : bench_median(rows[k].t, rows[k].count);
  }
  *agree = agreement(&r);
  model_run_free(&r);
  return rc;
}

/* The implicit integrators' step with each Jacobian, and the ratios. */
static void print_implicit_rows(double t[NUM_MODELS][NUM_ROWS]) {
  static const char *const titles[NUM_MODELS] = {"chain 7", "chain 25", "chain 100", "arm, 7 dof"};
  static const char *const labels[4] = {
      "implicit Euler step, analytic Jacobian", "implicit Euler step, differences",
      "Radau IIA step, analytic Jacobian", "Radau IIA step, differences"};
  bench_table tab = {44, 12, NUM_MODELS};
  bench_cell c[NUM_MODELS];
  bench_table_header(&tab, "One implicit step (1 ms): Newton matrix analytic or differenced",
                     titles);
  for (int k = R_IE_ANALYTIC; k < NUM_ROWS; k++) {
    for (int m = 0; m < NUM_MODELS; m++) {
      bench_fmt_time(c[m], t[m][k]);
    }
    bench_table_row(&tab, labels[k - R_IE_ANALYTIC], c);
    if (k == R_IE_FD || k == R_RADAU_FD) {
      for (int m = 0; m < NUM_MODELS; m++) {
        bench_fmt_ratio(c[m], t[m][k], t[m][k - 1]);
      }
      bench_table_row(&tab, "  differences / analytic", c);
    }
  }
}

static void print_tables(double t[NUM_MODELS][NUM_ROWS], const double *agree) {
  static const char *const titles[NUM_MODELS] = {"chain 7", "chain 25", "chain 100", "arm, 7 dof"};
  bench_table tab = {44, 12, NUM_MODELS};
  bench_cell c[NUM_MODELS];
  bench_table_header(&tab, "Linearizing the plant (teal_linearize_matrices, continuous)", titles);
  static const char *const labels[R_IE_ANALYTIC] = {
      "analytic Jacobian",      "central differences",          "forward dynamics derivatives",
      "forward dynamics (ABA)", "inverse dynamics derivatives", "inverse dynamics (RNEA)"};
  for (int k = 0; k < 2; k++) {
    for (int m = 0; m < NUM_MODELS; m++) {
      bench_fmt_time(c[m], t[m][k]);
    }
    bench_table_row(&tab, labels[k], c);
  }
  for (int m = 0; m < NUM_MODELS; m++) {
    bench_fmt_ratio(c[m], t[m][R_LIN_FD], t[m][R_LIN_ANALYTIC]);
  }
  bench_table_row(&tab, "central / analytic (target >= 5x at 25)", c);
  for (int m = 0; m < NUM_MODELS; m++) {
    bench_fmt_value(c[m], "%.1e", agree[m]);
  }
  bench_table_row(&tab, "max |A, B difference| / max |entry|", c);
  bench_table_header(&tab, "One call: derivatives against the dynamics alone", titles);
  for (int k = 2; k < R_IE_ANALYTIC; k++) {
    for (int m = 0; m < NUM_MODELS; m++) {
      bench_fmt_time(c[m], t[m][k]);
    }
    bench_table_row(&tab, labels[k], c);
    if (k == R_ABA || k == R_RNEA) {
      for (int m = 0; m < NUM_MODELS; m++) {
        bench_fmt_ratio(c[m], t[m][k - 1], t[m][k]);
      }
      bench_table_row(&tab, k == R_ABA ? "  derivatives / ABA" : "  derivatives / RNEA", c);
    }
  }
  print_implicit_rows(t);
}

int main(void) {
  static const int sizes[NUM_MODELS] = {7, 25, 100, 7};
  double t[NUM_MODELS][NUM_ROWS], agree[NUM_MODELS];
  printf("bench_multibody_derivatives: analytic derivatives of the dynamics (issue 21)\n");
  if (bench_blas_single_thread()) {
    printf("OpenBLAS limited to one thread (as the other benches)\n");
  }
  bench_print_compiler();
  for (int m = 0; m < NUM_MODELS; m++) {
    fprintf(stderr, "model %d of %d...\n", m + 1, NUM_MODELS);
    if (time_model(m, sizes[m], t[m], &agree[m])) {
      return EXIT_FAILURE;
    }
  }
  print_tables(t, agree);
  printf(
      "\nThe derivatives' rows include dvdot/dq, dvdot/dv and M^-1 (nv^3 products);\n"
      "the linearizations include the framework's evaluation of the plant.\n");
  bench_print_reproduce("multibody_derivatives", 0);
  return EXIT_SUCCESS;
}
