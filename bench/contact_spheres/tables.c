/* bench_contact_spheres: the tables (see spheres.h), with the reference
 * figures quoted in bench/README.md printed next to the measured ones. */
#include <math.h>
#include <stdio.h>

#include "common/table.h"
#include "spheres.h"

/* ---- bench/README.md reference figures (K = 64, 512) -------------------------- */

/* Simbody 3.7 (Debian, debug checks on) and MuJoCo 2.2.2, measured on the
 * machine and at the time stated in bench/README.md. Times in seconds. */
static const double k_ref_mujoco[NUM_SCENES] = {171e-3, 1.86};
static const double k_ref_mujoco_z[NUM_SCENES] = {0.04963, 0.04963};
static const double k_ref_simbody_euler[NUM_SCENES] = {306e-3, 2.87};
static const double k_ref_simbody_merson[NUM_SCENES] = {412e-3, 3.30};

#define LABEL_W 58
#define CELL_W 22

/* A row over the ncols scenes (nothing when every cell is "-"). */
static void print_row(const char *label, bench_cell *cells, int ncols) {
  bench_table t = {LABEL_W, CELL_W, ncols};
  bench_table_row(&t, label, cells);
}

static void print_header(const char *title, const scene_spec *specs, int ncols) {
  const char *titles[NUM_SCENES] = {NULL};
  bench_table t = {LABEL_W, CELL_W, ncols};
  for (int c = 0; c < ncols; c++) {
    titles[c] = specs[c].title;
  }
  bench_table_header(&t, title, titles);
}

/* Wall time per simulated second of every row, the ratios to MuJoCo and the
 * bench/README.md figures. */
static void print_times(const scene_result *res, int ncols) {
  bench_cell cells[NUM_SCENES];
  char label[128];
  for (int s = 0; s < NUM_SIMS; s++) {
    for (int c = 0; c < ncols && spheres_sims[s].run; c++) {
      bench_fmt_time(cells[c], res[c].sim_s[s]);
    }
    if (spheres_sims[s].run) {
      print_row(spheres_sims[s].label, cells, ncols);
    }
  }
  for (int s = 0; s < NUM_SIMS && spheres_sim_ref >= 0; s++) {
    if (!spheres_sims[s].run || s == spheres_sim_ref) {
      continue;
    }
    for (int c = 0; c < ncols; c++) {
      bench_fmt_ratio(cells[c], res[c].sim_s[s], res[c].sim_s[spheres_sim_ref]);
    }
    snprintf(label, sizeof label, "ratio %s / %s", spheres_sims[s].short_name,
             spheres_sims[spheres_sim_ref].short_name);
    print_row(label, cells, ncols);
  }
  for (int c = 0; c < ncols; c++) {
    bench_fmt_ratio(cells[c], res[c].sim_s[S_TEAL_SAP], res[c].sim_s[S_TEAL_DISCRETE]);
  }
  print_row("ratio Teal SAP / Teal discrete (built-in solver)", cells, ncols);
  static const struct {
    const char *label;
    const double *t;
  } refs[3] = {{"MuJoCo [ref]: Euler, dt = 1 ms", k_ref_mujoco},
               {"Simbody [ref]: SemiExplicitEuler, dt = 1 ms", k_ref_simbody_euler},
               {"Simbody [ref]: RK-Merson, accuracy 1e-3", k_ref_simbody_merson}};
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < ncols; c++) {
      bench_fmt_time(cells[c], refs[r].t[c]);
    }
    print_row(refs[r].label, cells, ncols);
  }
}

enum { F_RUNS, F_STEPS, F_Z_MEAN, F_Z_MIN, F_SPEED, F_CONTACTS, NUM_FIGURES };

/* One figure of a row in a bench_cell ("-" when the row did not run). */
static void fmt_figure(bench_cell c, int what, int s, const scene_result *r) {
  const run_info *i = &r->info[s];
  if (isnan(r->sim_s[s])) {
    snprintf(c, BENCH_CELL_MAX, "-");
  } else if (what == F_RUNS) {
    snprintf(c, BENCH_CELL_MAX, "%d", r->runs[s]);
  } else if (what == F_STEPS && i->evals >= 0) {
    snprintf(c, BENCH_CELL_MAX, "%ld (%ld rej.) / %ld", i->steps, i->rejected, i->evals);
  } else if (what == F_STEPS) {
    snprintf(c, BENCH_CELL_MAX, "%ld", i->steps);
  } else if (what == F_Z_MEAN) {
    snprintf(c, BENCH_CELL_MAX, "%.6f", i->z_mean);
  } else if (what == F_Z_MIN) {
    snprintf(c, BENCH_CELL_MAX, "%.6f", i->z_min);
  } else if (what == F_SPEED) {
    snprintf(c, BENCH_CELL_MAX, "%.1e", i->speed_max);
  } else {
    snprintf(c, BENCH_CELL_MAX, "%d", i->max_contacts);
  }
}

static void print_figures(const scene_result *res, int ncols) {
  static const char *what[NUM_FIGURES] = {"timed runs",
                                          "steps (rejected) / derivative evaluations",
                                          "mean final z (m)",
                                          "min final z (m)",
                                          "max final speed (m/s)",
                                          "max simultaneous contacts"};
  bench_cell cells[NUM_SCENES];
  char label[160];
  for (int f = 0; f < NUM_FIGURES; f++) {
    bench_table_group(what[f]);
    for (int s = 0; s < NUM_SIMS; s++) {
      if (!spheres_sims[s].run) {
        continue;
      }
      for (int c = 0; c < ncols; c++) {
        fmt_figure(cells[c], f, s, &res[c]);
      }
      snprintf(label, sizeof label, "  %s", spheres_sims[s].short_name);
      print_row(label, cells, ncols);
    }
  }
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], BENCH_CELL_MAX, "%.5f", k_ref_mujoco_z[c]);
  }
  print_row("mean final z (m), MuJoCo [ref]", cells, ncols);
}

static void print_model(const scene_spec *specs, const scene_result *res, int ncols) {
  bench_cell cells[NUM_SCENES];
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], BENCH_CELL_MAX, "%d x %d", specs[c].rows, specs[c].cols);
  }
  print_row("grid (rows x columns, 0.15 m spacing)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], BENCH_CELL_MAX, "%.3g mm", 1e3 * res[c].penetration);
  }
  print_row("Teal: penetration at rest (= penetration allowance)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], BENCH_CELL_MAX, "%.6f", k_radius - res[c].penetration);
  }
  print_row("Teal: resting centre height, 0.05 m - penetration (m)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], BENCH_CELL_MAX, "%.4g N/m", res[c].stiffness);
  }
  print_row("Teal: combined contact stiffness m g / allowance", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    long k = specs[c].k;
    snprintf(cells[c], BENCH_CELL_MAX, "%ld", (k + 1) * k / 2);
  }
  print_row("all geometry pairs, (K + 1) K / 2 (what no broadphase tests)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], BENCH_CELL_MAX, "%ld / %ld", res[c].bp_rest_pairs, res[c].bp_pairs);
  }
  print_row("Teal: broadphase candidate pairs, at rest / most", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], BENCH_CELL_MAX, "%ld", res[c].bp_tests);
  }
  print_row("Teal: broadphase box tests per query, most", cells, ncols);
}

void spheres_print_tables(const scene_spec *specs, const scene_result *res, int ncols) {
  print_header("Workload 2, spheres on a plane: model", specs, ncols);
  print_model(specs, res, ncols);
  print_header("Workload 2: 1.0 s simulation, wall time per simulated second", specs, ncols);
  print_times(res, ncols);
  print_header("Workload 2: work and final state (at t = 1 s)", specs, ncols);
  print_figures(res, ncols);
}
