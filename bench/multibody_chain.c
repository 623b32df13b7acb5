/* Multibody benchmark: bench/README.md workload 1 (planar N-link pendulum
 * chain, n = 7, 25, 100) and a 7-dof arm, Teal against MuJoCo when built
 * with TEAL_BENCH_HAVE_MUJOCO (CMake defines it when libmujoco-dev is found).
 *
 * Kernels: the median time per call of forward dynamics, the mass matrix and
 * inverse dynamics at q_i = 0.1 i, v_i = 0.05 i, vdot_i = 0.3 - 0.02 i, with
 * q_1 perturbed by +-1e-9 before each call so no engine answers from a cache.
 * Rows are timed in interleaved batches so that load drifting on a shared
 * machine affects every engine alike. Agreement: max |difference| of vdot, M
 * and tau between the engines at the same point. Simulation: 1.0 s from
 * q_i = 0.1 i, v = 0 with classic RK4 at dt = 1 ms; wall time per simulated
 * second, the final q_1 and the largest final difference over all links.
 *
 * Both engines get the same model: MuJoCo's is written as URDF (its XML
 * parser rejects bodies nested deeper than 100) to a temporary file, and its
 * compiled masses, inertias, frames, axes and joint defaults are checked
 * against the specification before anything is timed. Simbody has only a
 * C++ API, so its figures are the reference figures of bench/README.md,
 * printed for context and not measured here.
 *
 * The parts live in bench/multibody_chain/: model.c (the models and
 * points), teal_engine.c and mujoco_engine.c (each engine's model, kernel
 * and simulation rows), tables.c (the report); bench/common/ has the timing
 * harness, the table cells and MuJoCo's model loading.
 *
 * Exit status: 0 on success, 1 on any failure (a Teal status, a MuJoCo load
 * error, a model mismatch, a MuJoCo warning or a run that does not repeat). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mujoco_model.h"
#include "common/platform.h"
#include "common/table.h"
#include "common/timing.h"
#include "multibody_chain/chain.h"

static const int k_chain_sizes[NUM_CHAINS] = {7, 25, 100};

/* ---- timing budget -------------------------------------------------------- */

static const double k_warmup_s = 0.02;       /* per kernel before calibration */
static const double k_batch_s = 4e-4;        /* target length of one batch */
static const double k_kernel_budget_s = 1.2; /* per model, all kernels */
static const int k_min_batches = 31;
#define MAX_SIM_RUNS 11
static const int k_min_sim_runs = 3;
static const double k_sim_budget_s = 2.0; /* per model, all methods */

/* ---- the rows --------------------------------------------------------------- */

const kernel_method chain_kernels[NUM_KERNELS] = {
    [K_TEAL_FD] = {"Teal: teal_mb_forward_dynamics (ABA)", chain_teal_kernel_new,
                   chain_teal_call_fd, chain_teal_kernel_free},
    [K_TEAL_MASS] = {"Teal: teal_mb_mass_matrix (CRBA)", chain_teal_kernel_new,
                     chain_teal_call_mass, chain_teal_kernel_free},
    [K_TEAL_INV] = {"Teal: teal_mb_inverse_dynamics (RNEA)", chain_teal_kernel_new,
                    chain_teal_call_inv, chain_teal_kernel_free},
#ifdef TEAL_BENCH_HAVE_MUJOCO
    [K_MJ_FORWARD] = {"MuJoCo: mj_forward (contacts disabled)", chain_mj_kernel_new,
                      chain_mj_call_forward, chain_mj_kernel_free},
    [K_MJ_FWD3] = {"MuJoCo: mj_fwdPosition+mj_fwdVelocity+mj_fwdAcceleration", chain_mj_kernel_new,
                   chain_mj_call_fwd3, chain_mj_kernel_free},
    [K_MJ_MASS] = {"MuJoCo: mj_kinematics+mj_comPos+mj_crb+mj_fullM", chain_mj_kernel_new,
                   chain_mj_call_mass, chain_mj_kernel_free},
    [K_MJ_INV] = {"MuJoCo: mj_inverse", chain_mj_kernel_new, chain_mj_call_inv,
                  chain_mj_kernel_free},
#endif
};

const sim_method chain_sims[NUM_SIMS] = {
    [S_TEAL_RK4] = {"Teal: classic RK4 loop over teal_mb_forward_dynamics", "Teal RK4 loop",
                    chain_teal_rk4_new, chain_teal_rk4_run, chain_teal_rk4_free},
    [S_TEAL_SIM] = {"Teal: simulator (RK4, fixed 1 ms) over the plant system", "Teal simulator",
                    chain_teal_sim_new, chain_teal_sim_run, chain_teal_sim_free},
#ifdef TEAL_BENCH_HAVE_MUJOCO
    [S_MJ_RK4] = {"MuJoCo: mjINT_RK4, 1000 x mj_step", "MuJoCo RK4", chain_mj_sim_new,
                  chain_mj_sim_run, chain_mj_sim_free},
#endif
};

#ifdef TEAL_BENCH_HAVE_MUJOCO
const int chain_sim_ref = S_MJ_RK4;
#else
const int chain_sim_ref = -1;
#endif

/* ---- one model: build, compare, time ---------------------------------------- */

static void bench_model_free(bench_model *bm) {
  teal_plant_free(bm->plant);
#ifdef TEAL_BENCH_HAVE_MUJOCO
  mj_deleteModel(bm->mj);
#endif
}

static int bench_model_init(bench_model *bm, const model_spec *s) {
  memset(bm, 0, sizeof *bm);
  bm->spec = s;
  bm->plant = chain_teal_build_plant(s);
  if (!bm->plant) {
    return 1;
  }
#ifdef TEAL_BENCH_HAVE_MUJOCO
  bm->mj = chain_mj_build_model(s);
  if (!bm->mj) {
    return 1;
  }
#endif
  return 0;
}

/* Fills res->agree when there is a peer to agree with. */
static int agreement_compute(const bench_model *bm, model_result *res) {
#ifdef TEAL_BENCH_HAVE_MUJOCO
  chain_teal_kernel *t = chain_teal_kernel_new(bm);
  chain_mj_kernel *e = chain_mj_kernel_new(bm);
  int rc = t && e ? chain_agreement_fill(t, e, bm->spec->n, &res->agree) : 1;
  res->have_agreement = rc == 0;
  chain_teal_kernel_free(t);
  chain_mj_kernel_free(e);
  return rc;
#else
  (void)bm;
  res->have_agreement = 0;
  return 0;
#endif
}

/* Sets up and calibrates every available kernel (batches of about
 * k_batch_s after a k_warmup_s warm-up). */
static int kernels_prepare(const bench_model *bm, bench_batched *rows) {
  for (int k = 0; k < NUM_KERNELS; k++) {
    rows[k].call = chain_kernels[k].call;
    if (!chain_kernels[k].setup) {
      continue;
    }
    rows[k].state = chain_kernels[k].setup(bm);
    if (!rows[k].state || bench_batched_calibrate(&rows[k], k_warmup_s, k_batch_s)) {
      return 1;
    }
  }
  return 0;
}

/* Batches of every kernel in turn, until the budget is spent; the median
 * time per call of each. */
static int run_kernels(const bench_model *bm, model_result *res) {
  static bench_batched rows[NUM_KERNELS];
  memset(rows, 0, sizeof rows);
  int rc = kernels_prepare(bm, rows);
  rc = rc ? rc : bench_batched_interleave(rows, NUM_KERNELS, k_min_batches, k_kernel_budget_s);
  for (int k = 0; k < NUM_KERNELS; k++) {
    res->kernel_s[k] = rows[k].state && !rc ? bench_median(rows[k].t, rows[k].count) : NAN;
    if (rows[k].state) {
      chain_kernels[k].free(rows[k].state);
    }
  }
  return rc;
}

/* Runs a simulation once; it must repeat the warm-up run's final q exactly. */
static int sim_once(const sim_method *m, void *state, int n, const double *q_expect, double *wall) {
  double q[MAX_LINKS];
  double t0 = bench_now_seconds();
  int rc = m->run(state, q);
  *wall = bench_now_seconds() - t0;
  if (!rc && memcmp(q, q_expect, (size_t)n * sizeof(double)) != 0) {
    fprintf(stderr, "error: %s did not repeat its final state\n", m->label);
    rc = 1;
  }
  return rc;
}

/* Warm-up runs (which give the final q), then runs in turn until the budget
 * is spent; the median wall time over 1.0 s simulated. */
static int sims_time(void **states, int n, model_result *res) {
  double t[NUM_SIMS][MAX_SIM_RUNS];
  int count = 0;
  for (int s = 0; s < NUM_SIMS; s++) {
    if (states[s] && chain_sims[s].run(states[s], res->q_final[s])) {
      return 1;
    }
  }
  double t0 = bench_now_seconds();
  while (count < MAX_SIM_RUNS &&
         (count < k_min_sim_runs || bench_now_seconds() - t0 < k_sim_budget_s)) {
    for (int s = 0; s < NUM_SIMS; s++) {
      if (states[s] && sim_once(&chain_sims[s], states[s], n, res->q_final[s], &t[s][count])) {
        return 1;
      }
    }
    count++;
  }
  for (int s = 0; s < NUM_SIMS; s++) {
    res->sim_s[s] = states[s] ? bench_median(t[s], count) / (k_steps * k_dt) : NAN;
  }
  return 0;
}

static int run_sims(const bench_model *bm, model_result *res) {
  void *states[NUM_SIMS] = {NULL};
  int rc = 0;
  for (int s = 0; s < NUM_SIMS; s++) {
    res->sim_s[s] = NAN;
    if (chain_sims[s].setup && !rc) {
      states[s] = chain_sims[s].setup(bm);
      rc = states[s] == NULL;
    }
  }
  rc = rc ? rc : sims_time(states, bm->spec->n, res);
  for (int s = 0; s < NUM_SIMS; s++) {
    if (states[s]) {
      chain_sims[s].free(states[s]);
    }
  }
  return rc;
}

static int bench_one(const model_spec *s, model_result *res) {
  bench_model bm;
  fprintf(stderr, "bench: %s (%s): agreement, kernels, simulation\n", s->name, s->title);
  int rc = bench_model_init(&bm, s);
  rc = rc ? rc : agreement_compute(&bm, res);
  rc = rc ? rc : run_kernels(&bm, res);
  rc = rc ? rc : run_sims(&bm, res);
  bench_model_free(&bm);
  return rc;
}

/* ---- the report --------------------------------------------------------------- */

static void print_banner(void) {
  printf(
      "Teal multibody benchmark: bench/README.md workload 1 (planar pendulum chain) and a"
      " 7-dof arm\n");
  bench_print_compiler();
  bench_mj_print_peer();
}

static void print_notes(void) {
  printf(
      "\n[ref] reference figure from bench/README.md, not measured here (Simbody has only a"
      " C++ API and Teal\n      has no C++; Debian's Simbody keeps its debug checks on).\n");
  printf(
      "Kernels at q_i = 0.1 i, v_i = 0.05 i, vdot_i = 0.3 - 0.02 i, q_1 perturbed by +-1e-9"
      " before each call;\n");
  printf(
      "medians of interleaved batches. Simulation from q_i = 0.1 i, v = 0; medians of"
      " interleaved runs.\n");
#ifdef TEAL_BENCH_HAVE_MUJOCO
  printf(
      "MuJoCo gets each rod's zero moment about its own axis as %g kg m^2 (it rejects zero);"
      " planar motion never uses it.\n",
      k_mj_min_moment);
#endif
  bench_print_reproduce("multibody_chain", 1);
}

int main(void) {
  static model_spec specs[NUM_MODELS];
  static model_result res[NUM_MODELS];
  column cols[NUM_MODELS];
  int rc = 0;
  for (int i = 0; i < NUM_CHAINS; i++) {
    chain_make_chain(&specs[i], k_chain_sizes[i], i);
  }
  chain_make_arm(&specs[NUM_CHAINS]);
  print_banner();
  fflush(stdout);
  for (int i = 0; i < NUM_MODELS && rc == 0; i++) {
    rc = bench_one(&specs[i], &res[i]);
    cols[i] = (column){&specs[i], &res[i]};
  }
  if (rc != 0) {
    fprintf(stderr, "bench_multibody_chain: FAILED\n");
    return EXIT_FAILURE;
  }
  chain_print_workload("Workload 1, planar pendulum chain", cols, NUM_CHAINS);
  chain_print_workload("7-dof arm (z/y hinges)", cols + NUM_CHAINS, 1);
  print_notes();
  return EXIT_SUCCESS;
}
