/* Inertial-parameter regressor benchmark: the cost of the analytic
 * derivatives with respect to the bodies' masses and inertias
 * (multibody/algorithms/regressor.h) on the planar chains of workload 1
 * (n = 7, 25, 100 rods of 1 kg and 0.5 m, bench/README.md), continuous,
 * the rods given a radius of 2 cm: a thin rod's central inertia is
 * singular, so a product of inertia moved by any step makes it
 * unphysical and the differences could not be taken.
 *
 * Rows: the median time of one teal_mb_inverse_dynamics_regressor call
 * (Y, n x 10 (n + 1)) against one RNEA (teal_mb_inverse_dynamics), and
 * against Y by central differences, which is how a user without the
 * regressor gets it: per body and parameter, the inertia set twice in a
 * plant context (teal_plant_set_body_spatial_inertia_in_context) and the
 * inverse dynamics with gravity evaluated there (20 n evaluations). The
 * same for d vdot / d pi: teal_mb_forward_dynamics_parameter_derivatives
 * against one ABA and against central differences of the plant's
 * generalized acceleration. Agreement: the largest difference between the
 * analytic and the differenced matrices relative to their largest entry.
 * The point is workload 1's kernel point (q_i = 0.1 i, v_i = 0.05 i,
 * vdot_i = 0.3 - 0.02 i), q_1 moved by 1e-9 before each analytic call.
 *
 * Peer figure: Pinocchio publishes no timing of its
 * computeJointTorqueRegressor; the one public remark found (RAPTOR's pull
 * request 44 on github.com/roahmlab/RAPTOR, 2025) is that one regressor
 * call takes longer than two RNEA calls, i.e. a ratio above 2x.
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
#define NUM_MODELS 3
#define NP TEAL_MB_NUM_INERTIAL_PARAMETERS

static const int k_sizes[NUM_MODELS] = {7, 25, 100};
static const double k_warmup_s = 0.02, k_batch_s = 4e-4, k_budget_s = 1.5, k_fd_step = 1e-6;
static const int k_min_batches = 9;

/* The chain of n rods (radius 2 cm) hinged about y, each 0.5 m below the
 * one before. */
static teal_plant *build_chain(int n) {
  const double L = 0.5, R = 0.02, I = L * L / 12.0 + R * R / 4.0, Iz = R * R / 2.0;
  teal_plant *p = teal_plant_new(0.0, NULL);
  int parent = p ? teal_plant_body_frame(p, 0) : -1;
  teal_vec3 axis = teal_vec3_make(0, 1, 0);
  for (int i = 0; p && parent >= 0 && i < n; i++) {
    char name[32];
    teal_spatial_inertia M = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -L / 2),
                                                               teal_mat3_diag(I, I, Iz));
    snprintf(name, sizeof name, "l%d", i + 1);
    int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    snprintf(name, sizeof name, "F%d", i + 1);
    teal_transform X =
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, i == 0 ? 0.0 : -L));
    int frame = body < 0 ? body : teal_plant_add_frame(p, name, parent, X);
    int child = frame < 0 ? frame : teal_plant_body_frame(p, body);
    snprintf(name, sizeof name, "j%d", i + 1);
    int j = child < 0 ? child
                      : teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, frame, child, &axis, 0);
    parent = j < 0 ? -1 : child;
  }
  if (!p || parent < 0 || teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81)) ||
      teal_plant_finalize(p)) {
    fprintf(stderr, "error: cannot build the chain of %d\n", n);
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

typedef struct model_run {
  teal_plant *plant;
  teal_context *ctx;
  teal_mb_data *data;
  int n, cols;
  double q[MAX_LINKS], v[MAX_LINKS], vdot[MAX_LINKS], out[MAX_LINKS], tp[MAX_LINKS], tm[MAX_LINKS];
  double *Y, *Yfd; /* n x cols each */
} model_run;

static void perturb(model_run *r, int call) {
  r->q[0] = 0.1 + (call & 1 ? 1e-9 : -1e-9);
}

/* The plant's inverse dynamics with gravity (the RNEA's convention) or its
 * generalized acceleration, in the context, into out. */
static int context_map(model_run *r, int accelerations, double *out) {
  if (accelerations) {
    const double *a;
    int rc = teal_plant_eval_generalized_acceleration(r->plant, r->ctx, &a);
    if (rc == TEAL_OK) {
      memcpy(out, a, sizeof(double) * (size_t)r->n);
    }
    return rc;
  }
  double tau_g[MAX_LINKS];
  int rc = teal_plant_calc_gravity_generalized_forces(r->plant, r->ctx, tau_g);
  return rc ? rc : teal_plant_calc_inverse_dynamics(r->plant, r->ctx, r->vdot, tau_g, NULL, out);
}

/* Body b's inertia set from pi in the context. */
static int set_parameters(model_run *r, int b, const double *pi) {
  teal_spatial_inertia M;
  int rc = teal_mb_spatial_inertia_from_parameters(pi, &M, NULL);
  return rc ? rc : teal_plant_set_body_spatial_inertia_in_context(r->plant, r->ctx, b, &M);
}

/* Yfd by central differences of the context map, body by body. */
static int differences(model_run *r, int accelerations) {
  for (int b = 1; b <= r->n; b++) {
    double pi0[NP], pi[NP];
    int rc = teal_plant_get_body_inertial_parameters_in_context(r->plant, r->ctx, b, pi0);
    for (int c = 0; c < NP && !rc; c++) {
      memcpy(pi, pi0, sizeof pi);
      pi[c] = pi0[c] + k_fd_step;
      rc = set_parameters(r, b, pi) || context_map(r, accelerations, r->tp);
      pi[c] = pi0[c] - k_fd_step;
      rc = rc || set_parameters(r, b, pi) || context_map(r, accelerations, r->tm);
      for (int i = 0; i < r->n && !rc; i++) {
        r->Yfd[i * r->cols + NP * b + c] = (r->tp[i] - r->tm[i]) / (2 * k_fd_step);
      }
    }
    if (rc || set_parameters(r, b, pi0)) {
      return 1;
    }
  }
  return 0;
}

static int call_rnea(void *s, int call) {
  model_run *r = s;
  perturb(r, call);
  return teal_mb_inverse_dynamics(r->plant, r->data, r->q, r->v, r->vdot, NULL, r->out);
}

static int call_regressor(void *s, int call) {
  model_run *r = s;
  perturb(r, call);
  return teal_mb_inverse_dynamics_regressor(r->plant, r->data, r->q, r->v, r->vdot, r->Y);
}

static int call_regressor_fd(void *s, int call) {
  (void)call;
  return differences(s, 0);
}

static int call_aba(void *s, int call) {
  model_run *r = s;
  perturb(r, call);
  return teal_mb_forward_dynamics(r->plant, r->data, r->q, r->v, NULL, r->out);
}

static int call_param_derivatives(void *s, int call) {
  model_run *r = s;
  perturb(r, call);
  return teal_mb_forward_dynamics_parameter_derivatives(r->plant, r->data, r->q, r->v, NULL, NULL,
                                                        TEAL_MB_ALL_BODIES, r->out, r->Y);
}

static int call_param_derivatives_fd(void *s, int call) {
  (void)call;
  return differences(s, 1);
}

enum { R_RNEA, R_REG, R_REG_FD, R_ABA, R_PD, R_PD_FD, NUM_ROWS };

static int (*const k_calls[NUM_ROWS])(void *, int) = {
    call_rnea, call_regressor,         call_regressor_fd,
    call_aba,  call_param_derivatives, call_param_derivatives_fd};

static void model_run_free(model_run *r) {
  teal_context_free(r->ctx);
  teal_mb_data_free(r->data);
  teal_plant_free(r->plant);
  free(r->Y);
}

static int model_run_init(model_run *r, int n) {
  memset(r, 0, sizeof *r);
  r->n = n;
  r->cols = NP * (n + 1);
  if (!(r->plant = build_chain(n))) {
    return 1;
  }
  for (int i = 0; i < n; i++) {
    r->q[i] = 0.1 * (i + 1);
    r->v[i] = 0.05 * (i + 1);
    r->vdot[i] = 0.3 - 0.02 * (i + 1);
  }
  r->ctx = teal_context_new(teal_plant_system(r->plant), NULL);
  r->data = teal_mb_data_new(r->plant, NULL);
  r->Y = calloc(2 * (size_t)n * (size_t)r->cols, sizeof(double));
  if (!r->ctx || !r->data || !r->Y) {
    return 1;
  }
  r->Yfd = r->Y + (size_t)n * (size_t)r->cols;
  return teal_plant_set_positions(r->plant, r->ctx, r->q, n) ||
         teal_plant_set_velocities(r->plant, r->ctx, r->v, n);
}

/* max |Y - Yfd| / max |Yfd| for the inverse (which 0) or forward (1)
 * dynamics' derivatives, at the unperturbed point. */
static double agreement(model_run *r, int which) {
  r->q[0] = 0.1;
  int rc = which ? teal_mb_forward_dynamics_parameter_derivatives(
                       r->plant, r->data, r->q, r->v, NULL, NULL, TEAL_MB_ALL_BODIES, r->out, r->Y)
                 : teal_mb_inverse_dynamics_regressor(r->plant, r->data, r->q, r->v, r->vdot, r->Y);
  if (rc || differences(r, which)) {
    return NAN;
  }
  double e = 0.0, s = 0.0;
  for (int i = 0; i < r->n * r->cols; i++) {
    e = fmax(e, fabs(r->Y[i] - r->Yfd[i]));
    s = fmax(s, fabs(r->Yfd[i]));
  }
  return e / s;
}

/* Times every row on the chain of n; the medians (s per call) into t. */
static int time_model(int n, double *t, double *agree) {
  model_run r;
  if (model_run_init(&r, n)) {
    fprintf(stderr, "error: cannot set up the chain of %d\n", n);
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
  agree[0] = agreement(&r, 0);
  agree[1] = agreement(&r, 1);
  model_run_free(&r);
  return rc;
}

static void print_table(double t[NUM_MODELS][NUM_ROWS], double agree[NUM_MODELS][2]) {
  static const char *const titles[NUM_MODELS] = {"chain 7", "chain 25", "chain 100"};
  static const char *const labels[NUM_ROWS] = {
      "RNEA", "regressor Y", "Y by central differences",
      "ABA",  "dvdot/dpi",   "dvdot/dpi by central differences"};
  bench_table tab = {36, 12, NUM_MODELS};
  bench_cell cells[NUM_MODELS];
  bench_table_header(&tab, "Inertial-parameter derivatives, time per call", titles);
  for (int k = 0; k < NUM_ROWS; k++) {
    for (int m = 0; m < NUM_MODELS; m++) {
      bench_fmt_time(cells[m], t[m][k]);
    }
    bench_table_row(&tab, labels[k], cells);
  }
  bench_table_group("ratios");
  static const int pairs[4][2] = {
      {R_REG, R_RNEA}, {R_REG_FD, R_REG}, {R_PD, R_ABA}, {R_PD_FD, R_PD}};
  static const char *const ratio_labels[4] = {"Y / RNEA", "differences / Y", "dvdot/dpi / ABA",
                                              "differences / dvdot/dpi"};
  for (int k = 0; k < 4; k++) {
    for (int m = 0; m < NUM_MODELS; m++) {
      bench_fmt_ratio(cells[m], t[m][pairs[k][0]], t[m][pairs[k][1]]);
    }
    bench_table_row(&tab, ratio_labels[k], cells);
  }
  bench_table_group("agreement with the differences");
  for (int w = 0; w < 2; w++) {
    for (int m = 0; m < NUM_MODELS; m++) {
      bench_fmt_value(cells[m], "%.1e", agree[m][w]);
    }
    bench_table_row(&tab, w ? "dvdot/dpi" : "Y", cells);
  }
}

int main(void) {
  printf("bench_multibody_regressor: derivatives with respect to the inertial parameters\n");
  bench_print_compiler();
  double t[NUM_MODELS][NUM_ROWS], agree[NUM_MODELS][2];
  int rc = 0;
  for (int m = 0; m < NUM_MODELS; m++) {
    rc |= time_model(k_sizes[m], t[m], agree[m]);
  }
  print_table(t, agree);
  printf(
      "\nPinocchio publishes no regressor timing; one public remark puts its regressor above "
      "2x its RNEA (see the file comment).\n");
  bench_print_reproduce("multibody_regressor", 0);
  return rc ? 1 : 0;
}
