/* bench_multibody_chain: the tables (see chain.h), with the reference
 * figures quoted in bench/README.md printed next to the measured ones. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chain.h"
#include "common/table.h"

/* ---- bench/README.md reference figures (n = 7, 25, 100) ---------------------- */

/* Simbody 3.7 (Debian, debug checks on), measured on the machine and at the
 * time stated in bench/README.md: not measured here. Times in seconds. */
static const double k_ref_simbody_fd[NUM_CHAINS] = {20.7e-6, 44.1e-6, 161e-6};
static const double k_ref_simbody_mass[NUM_CHAINS] = {12.3e-6, 71.9e-6, 787e-6};
static const double k_ref_simbody_inv[NUM_CHAINS] = {15.3e-6, 35.8e-6, 110e-6};
static const double k_ref_simbody_rk4[NUM_CHAINS] = {88.8e-3, 205e-3, 656e-3};
static const double k_ref_simbody_merson[NUM_CHAINS] = {120e-3, 274e-3, 846e-3};
/* Final q_1 of MuJoCo's RK4 (bench/README.md 1e): a check that the model here
 * is the one behind the peer figures. */
static const double k_ref_mujoco_q1[NUM_CHAINS] = {0.183763489139437, 0.151301384885249,
                                                   0.151301384844279};

#define LABEL_W 64

/* A row of cells width wide (nothing when every cell is "-"). */
static void print_row(const char *label, bench_cell *cells, int ncols, int width) {
  bench_table t = {LABEL_W, width, ncols};
  bench_table_row(&t, label, cells);
}

static void print_header(const char *title, const column *cols, int ncols, int width) {
  const char *titles[NUM_MODELS] = {NULL};
  bench_table t = {LABEL_W, width, ncols};
  for (int c = 0; c < ncols; c++) {
    titles[c] = cols[c].spec->title;
  }
  bench_table_header(&t, title, titles);
}

/* A bench/README.md figure for a column, or NAN. */
static double ref_of(const column *col, const double *ref) {
  return col->spec->ref >= 0 ? ref[col->spec->ref] : NAN;
}

enum row_kind { ROW_GROUP, ROW_TIME, ROW_RATIO, ROW_REF };

typedef struct table_row {
  int kind;
  const char *label; /* ROW_TIME: NULL for the kernel's own label */
  int a, b;          /* the timed kernel, or the ratio's numerator and denominator */
  const double *ref; /* ROW_REF: bench/README.md figures, s */
} table_row;

static const table_row k_kernel_table[] = {
    {ROW_GROUP, "forward dynamics", 0, 0, NULL},
    {ROW_TIME, NULL, K_TEAL_FD, 0, NULL},
    {ROW_TIME, NULL, K_MJ_FORWARD, 0, NULL},
    {ROW_TIME, NULL, K_MJ_FWD3, 0, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo mj_forward", K_TEAL_FD, K_MJ_FORWARD, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo fwdPosition+Velocity+Acceleration", K_TEAL_FD, K_MJ_FWD3,
     NULL},
    {ROW_REF, "Simbody [ref]: set q + realize(Acceleration)", 0, 0, k_ref_simbody_fd},
    {ROW_GROUP, "mass matrix", 0, 0, NULL},
    {ROW_TIME, NULL, K_TEAL_MASS, 0, NULL},
    {ROW_TIME, NULL, K_MJ_MASS, 0, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo", K_TEAL_MASS, K_MJ_MASS, NULL},
    {ROW_REF, "Simbody [ref]: set q + realize(Position) + calcM", 0, 0, k_ref_simbody_mass},
    {ROW_GROUP, "inverse dynamics", 0, 0, NULL},
    {ROW_TIME, NULL, K_TEAL_INV, 0, NULL},
    {ROW_TIME, NULL, K_MJ_INV, 0, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo", K_TEAL_INV, K_MJ_INV, NULL},
    {ROW_REF, "Simbody [ref]: set q + realize(Dynamics) + calcResidualForce...", 0, 0,
     k_ref_simbody_inv},
};

static void print_kernel_row(const table_row *r, const column *cols, int ncols) {
  bench_cell cells[NUM_MODELS];
  const char *label = r->label ? r->label : chain_kernels[r->a].label;
  if (r->kind == ROW_GROUP) {
    bench_table_group(r->label);
    return;
  }
  for (int c = 0; c < ncols; c++) {
    const double *t = cols[c].res->kernel_s;
    if (r->kind == ROW_TIME) {
      bench_fmt_time(cells[c], t[r->a]);
    } else if (r->kind == ROW_RATIO) {
      bench_fmt_ratio(cells[c], t[r->a], t[r->b]);
    } else {
      bench_fmt_time(cells[c], ref_of(&cols[c], r->ref));
    }
  }
  print_row(label ? label : "", cells, ncols, 11);
}

static void print_kernel_table(const char *title, const column *cols, int ncols) {
  print_header(title, cols, ncols, 11);
  for (size_t i = 0; i < sizeof k_kernel_table / sizeof k_kernel_table[0]; i++) {
    print_kernel_row(&k_kernel_table[i], cols, ncols);
  }
}

static void print_agreement_table(const char *title, const column *cols, int ncols) {
  bench_cell cells[NUM_MODELS][3];
  static const char *labels[3] = {"max |dvdot| Teal - MuJoCo (of max |vdot|)",
                                  "max |dM| Teal - MuJoCo (of max |M|)",
                                  "max |dtau| Teal - MuJoCo (of max |tau|)"};
  if (!cols[0].res->have_agreement) {
    return;
  }
  print_header(title, cols, ncols, 19);
  for (int c = 0; c < ncols; c++) {
    const agreement *a = &cols[c].res->agree;
    snprintf(cells[c][0], BENCH_CELL_MAX, "%.2e of %.1e", a->d_vdot, a->max_vdot);
    snprintf(cells[c][1], BENCH_CELL_MAX, "%.2e of %.1e", a->d_mass, a->max_mass);
    snprintf(cells[c][2], BENCH_CELL_MAX, "%.2e of %.1e", a->d_tau, a->max_tau);
  }
  for (int r = 0; r < 3; r++) {
    bench_cell row[NUM_MODELS];
    for (int c = 0; c < ncols; c++) {
      memcpy(row[c], cells[c][r], BENCH_CELL_MAX);
    }
    print_row(labels[r], row, ncols, 19);
  }
}

/* Wall time per simulated second of each method, their ratio to the
 * reference method, and the Simbody reference figures. */
static void print_sim_times(const column *cols, int ncols) {
  bench_cell cells[NUM_MODELS];
  char label[128];
  for (int s = 0; s < NUM_SIMS; s++) {
    for (int c = 0; c < ncols && chain_sims[s].run; c++) {
      bench_fmt_time(cells[c], cols[c].res->sim_s[s]);
    }
    if (chain_sims[s].run) {
      print_row(chain_sims[s].label, cells, ncols, 19);
    }
  }
  for (int s = 0; s < NUM_SIMS && chain_sim_ref >= 0; s++) {
    if (!chain_sims[s].run || s == chain_sim_ref) {
      continue;
    }
    for (int c = 0; c < ncols; c++) {
      bench_fmt_ratio(cells[c], cols[c].res->sim_s[s], cols[c].res->sim_s[chain_sim_ref]);
    }
    snprintf(label, sizeof label, "ratio %s / %s", chain_sims[s].short_name,
             chain_sims[chain_sim_ref].short_name);
    print_row(label, cells, ncols, 19);
  }
  for (int c = 0; c < ncols; c++) {
    bench_fmt_time(cells[c], ref_of(&cols[c], k_ref_simbody_rk4));
  }
  print_row("Simbody [ref]: classic RK4 in the harness over realize(Acc.)", cells, ncols, 19);
  for (int c = 0; c < ncols; c++) {
    bench_fmt_time(cells[c], ref_of(&cols[c], k_ref_simbody_merson));
  }
  print_row("Simbody [ref]: RungeKuttaMersonIntegrator, fixed step 1 ms", cells, ncols, 19);
}

enum { SIM_Q1, SIM_DQ, SIM_DQ1_REF };

/* One row for simulation method s: its final q_1 (SIM_Q1), its largest
 * final difference from the reference method over all links (SIM_DQ), or
 * its q_1 against the bench/README.md MuJoCo figure (SIM_DQ1_REF). */
static void print_sim_state_row(int what, int s, const column *cols, int ncols) {
  bench_cell cells[NUM_MODELS];
  char label[128];
  const char *name = chain_sims[s].short_name;
  if (!chain_sims[s].run || (what == SIM_DQ && (chain_sim_ref < 0 || s == chain_sim_ref))) {
    return;
  }
  for (int c = 0; c < ncols; c++) {
    const model_result *r = cols[c].res;
    if (what == SIM_Q1) {
      bench_fmt_value(cells[c], "%.15f", r->q_final[s][0]);
    } else if (what == SIM_DQ) {
      bench_fmt_value(
          cells[c], "%.2e",
          chain_max_abs_diff(r->q_final[s], r->q_final[chain_sim_ref], cols[c].spec->n));
    } else {
      bench_fmt_value(cells[c], "%.2e", fabs(r->q_final[s][0] - ref_of(&cols[c], k_ref_mujoco_q1)));
    }
  }
  if (what == SIM_Q1) {
    snprintf(label, sizeof label, "final q_1 (rad), %s", name);
  } else if (what == SIM_DQ) {
    snprintf(label, sizeof label, "max_i |dq_i| %s - %s", name,
             chain_sims[chain_sim_ref].short_name);
  } else {
    snprintf(label, sizeof label, "|dq_1| %s - bench/README.md MuJoCo RK4", name);
  }
  print_row(label, cells, ncols, 19);
}

static void print_sim_states(const column *cols, int ncols) {
  bench_cell cells[NUM_MODELS];
  for (int s = 0; s < NUM_SIMS; s++) {
    print_sim_state_row(SIM_Q1, s, cols, ncols);
  }
  for (int c = 0; c < ncols; c++) {
    bench_fmt_value(cells[c], "%.15f", ref_of(&cols[c], k_ref_mujoco_q1));
  }
  print_row("final q_1 (rad), MuJoCo RK4 in bench/README.md 1e [ref]", cells, ncols, 19);
  for (int s = 0; s < NUM_SIMS; s++) {
    print_sim_state_row(SIM_DQ, s, cols, ncols);
  }
  for (int s = 0; s < NUM_SIMS; s++) {
    print_sim_state_row(SIM_DQ1_REF, s, cols, ncols);
  }
}

static void print_sim_table(const char *title, const column *cols, int ncols) {
  print_header(title, cols, ncols, 19);
  print_sim_times(cols, ncols);
  print_sim_states(cols, ncols);
}

void chain_print_workload(const char *name, const column *cols, int ncols) {
  char title[160];
  snprintf(title, sizeof title, "%s: per-call kernels, median time per call", name);
  print_kernel_table(title, cols, ncols);
  snprintf(title, sizeof title, "%s: agreement at the kernel point (no perturbation)", name);
  print_agreement_table(title, cols, ncols);
  snprintf(title, sizeof title, "%s: 1.0 s simulation, dt = 1 ms, wall time per simulated s", name);
  print_sim_table(title, cols, ncols);
}
