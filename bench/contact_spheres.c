/* Contact benchmark: bench/README.md workload 2 (K free spheres dropped on a
 * plane, K = 64 and 512), Teal against MuJoCo when built with
 * TEAL_BENCH_HAVE_MUJOCO (CMake defines it when libmujoco-dev is found).
 *
 * Scene: spheres of radius 0.05 m and mass 0.1 kg (solid-sphere inertia) on
 * a centred x-y grid with 0.15 m spacing (rows x columns the most nearly
 * square factorization of K: 8 x 8 and 16 x 32), centre heights cycling
 * 0.15, 0.20, 0.25, 0.30 m, at rest; the ground is the plane z = 0. Each
 * sphere only ever touches the ground. Every engine simulates 1.0 s.
 *
 * Rows. Teal, all through teal_simulator over the diagram that
 * teal_add_plant_and_scene_graph makes (plant + scene graph, point contact
 * with the plant's default stiffness and dissipation from its penetration
 * allowance, friction mu = 1 like MuJoCo's default):
 *   - continuous plant, semi-explicit Euler at a fixed 1 ms step (the
 *     scheme of Simbody's figure in bench/README.md);
 *   - continuous plant, error-controlled RK3 (Bogacki-Shampine) at
 *     accuracy 1e-3 (Simbody's variable-step row uses RK-Merson at 1e-3);
 *   - discrete plant (time_step 1 ms, implicit Newton contact step): the
 *     step works per kinematic tree (blocks of M, per-tree contact
 *     Jacobians) and its Newton solve splits into islands, one 6-dof
 *     sphere each here, so its cost and memory are O(K);
 *   - the same discrete plant with the SAP contact solver
 *     (teal_plant_set_discrete_contact_solver; each geometry's relaxation
 *     time sqrt(delta / g), critical damping at the default stiffness),
 *     with its time over the built-in solver's.
 * MuJoCo: MJCF with a plane geom and free-joint sphere bodies, default
 * soft contact (condim 3, pyramidal cone, friction 1), Euler, dt = 1 ms,
 * 1000 x mj_step, all collisions on (sphere-sphere pairs are tested too).
 *
 * Reported: the median wall time of 1.0 s simulated over interleaved runs
 * (each run must repeat the warm-up run's final state bit for bit), steps,
 * the mean and minimum final centre height, the largest final speed and the
 * largest number of simultaneous contacts (counted in the untimed warm-up
 * run, after every step). Checks: every row ends with all spheres resting
 * (min z > 0.04 m, speeds below 1 cm/s) and Teal's mean final z within
 * 0.2 mm of 0.05 m minus the penetration its defaults imply.
 *
 * The parts live in bench/contact_spheres/: scene.c (the scene and the
 * final-state figures), teal_scene.c and mujoco_scene.c (each engine's
 * row), tables.c (the report); bench/common/ has the timing clock, the
 * table cells and MuJoCo's model loading.
 *
 * Exit status: 0 on success, 1 on any failure (a Teal status, a MuJoCo load
 * error, a model mismatch, a MuJoCo warning, a run that does not repeat or
 * a sphere not resting). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mujoco_model.h"
#include "common/platform.h"
#include "common/table.h"
#include "common/timing.h"
#include "contact_spheres/spheres.h"

static const int k_sphere_counts[NUM_SCENES] = {64, 512};

/* ---- checks ----------------------------------------------------------------- */

static const double k_min_rest_z = 0.04;       /* no sphere fell through */
static const double k_max_rest_speed = 1e-2;   /* m/s, at t = 1 s */
static const double k_rest_z_tolerance = 2e-4; /* Teal: |mean z - (r - penetration)| */

/* ---- timing budget -------------------------------------------------------- */

#define MAX_SIM_RUNS 9
static const int k_min_sim_runs = 3;
static const double k_sim_budget_s = 6.0; /* per scene, all methods, beyond the minimum */
/* A method whose warm-up run took longer than this is timed once more only. */
static const double k_slow_run_s = 4.0;

/* ---- the rows --------------------------------------------------------------- */

const sim_method spheres_sims[NUM_SIMS] = {
    [S_TEAL_EULER] = {"Teal: continuous, semi-explicit Euler, fixed 1 ms", "Teal Euler", 0,
                      spheres_teal_euler_new, spheres_teal_state_size, spheres_teal_run,
                      spheres_teal_scene_free},
    [S_TEAL_RK3] = {"Teal: continuous, RK3, accuracy 1e-3 (variable step)", "Teal RK3", 0,
                    spheres_teal_rk3_new, spheres_teal_state_size, spheres_teal_run,
                    spheres_teal_scene_free},
    [S_TEAL_DISCRETE] = {"Teal: discrete plant, h = 1 ms (implicit contact)", "Teal discrete", 0,
                         spheres_teal_discrete_new, spheres_teal_state_size, spheres_teal_run,
                         spheres_teal_scene_free},
    [S_TEAL_SAP] = {"Teal: discrete plant, h = 1 ms, SAP contact solver", "Teal SAP", 0,
                    spheres_teal_sap_new, spheres_teal_state_size, spheres_teal_run,
                    spheres_teal_scene_free},
#ifdef TEAL_BENCH_HAVE_MUJOCO
    [S_MJ_EULER] = {"MuJoCo: default soft contact, Euler, 1000 x mj_step", "MuJoCo", 0,
                    spheres_mj_sim_new, spheres_mj_state_size, spheres_mj_run, spheres_mj_sim_free},
#endif
};

#ifdef TEAL_BENCH_HAVE_MUJOCO
const int spheres_sim_ref = S_MJ_EULER;
#else
const int spheres_sim_ref = -1;
#endif

/* ---- one scene: build, check, time ---------------------------------------- */

/* A row being timed: its state, the warm-up's final state and the times. */
typedef struct timed_sim {
  void *state;
  int n;
  double *x_expect, *x;
  double warmup_s;
  double t[MAX_SIM_RUNS];
  int count;
} timed_sim;

/* Runs once; it must repeat the warm-up run's final state exactly. */
static int sim_once(int s, timed_sim *r) {
  run_info info;
  double t0 = bench_now_seconds();
  int rc = spheres_sims[s].run(r->state, 0, r->x, &info);
  r->t[r->count++] = bench_now_seconds() - t0;
  if (!rc && memcmp(r->x, r->x_expect, (size_t)r->n * sizeof(double)) != 0) {
    fprintf(stderr, "error: %s did not repeat its final state\n", spheres_sims[s].label);
    rc = 1;
  }
  return rc;
}

/* The warm-up run: it counts contacts and gives the final state. */
static int sim_warmup(int s, timed_sim *r, run_info *info) {
  r->n = spheres_sims[s].state_size(r->state);
  r->x_expect = malloc(2 * (size_t)r->n * sizeof(double));
  if (!r->x_expect) {
    return 1;
  }
  r->x = r->x_expect + r->n;
  double t0 = bench_now_seconds();
  int rc = spheres_sims[s].run(r->state, 1, r->x_expect, info);
  r->warmup_s = bench_now_seconds() - t0;
  return rc;
}

/* Runs every row in turn until each has its minimum of runs and the budget
 * is spent. A row slower than k_slow_run_s is not run again: its figure is
 * the warm-up run's time (contact counting costs it a cached lookup per
 * step). */
static int sims_time(timed_sim *rows, scene_result *res) {
  double t0 = bench_now_seconds();
  for (int s = 0; s < NUM_SIMS; s++) {
    if (rows[s].state && rows[s].warmup_s > k_slow_run_s) {
      rows[s].t[rows[s].count++] = rows[s].warmup_s;
    }
  }
  for (int pass = 0; pass < MAX_SIM_RUNS; pass++) {
    int ran = 0;
    for (int s = 0; s < NUM_SIMS; s++) {
      timed_sim *r = &rows[s];
      if (!r->state || r->warmup_s > k_slow_run_s ||
          (r->count >= k_min_sim_runs && bench_now_seconds() - t0 > k_sim_budget_s)) {
        continue;
      }
      if (sim_once(s, r)) {
        return 1;
      }
      ran = 1;
    }
    if (!ran) {
      break;
    }
  }
  for (int s = 0; s < NUM_SIMS; s++) {
    res->runs[s] = rows[s].count;
    res->sim_s[s] = rows[s].state ? bench_median(rows[s].t, rows[s].count) / k_t_final : NAN;
  }
  return 0;
}

/* Checks that a row ended with every sphere resting on the ground. */
static int check_rest(int s, const run_info *info, const scene_result *res) {
  double z_rest = k_radius - res->penetration;
  int bad = !(info->z_min > k_min_rest_z) || !(info->speed_max < k_max_rest_speed);
  if (s != spheres_sim_ref) {
    bad |= !(fabs(info->z_mean - z_rest) < k_rest_z_tolerance);
  }
  if (bad) {
    fprintf(stderr, "error: %s: spheres not resting (mean z %.6f, min z %.6f, max speed %.2e)\n",
            spheres_sims[s].label, info->z_mean, info->z_min, info->speed_max);
  }
  return bad;
}

/* Teal's default contact parameters for the report (from a throwaway plant). */
static int teal_defaults(const scene_spec *s, scene_result *res) {
  int body[MAX_SPHERES];
  teal_plant *p = spheres_teal_build_plant(s, 0.0, body);
  if (!p) {
    return 1;
  }
  res->penetration = teal_plant_penetration_allowance(p);
  res->stiffness = k_mass * k_gravity / res->penetration;
  teal_plant_free(p);
  return 0;
}

static int run_scene(const scene_spec *s, scene_result *res) {
  timed_sim rows[NUM_SIMS];
  int rc = teal_defaults(s, res);
  memset(rows, 0, sizeof rows);
  for (int i = 0; i < NUM_SIMS && rc == 0; i++) {
    res->sim_s[i] = NAN;
    const sim_method *m = &spheres_sims[i];
    if (!m->setup || (m->max_spheres && s->k > m->max_spheres)) {
      continue;
    }
    fprintf(stderr, "bench: %s: %s: warm-up\n", s->title, spheres_sims[i].short_name);
    rows[i].state = spheres_sims[i].setup(s);
    rc = rows[i].state ? sim_warmup(i, &rows[i], &res->info[i]) : 1;
    rc = rc ? rc : check_rest(i, &res->info[i], res);
    if (rc == 0 && i == S_TEAL_EULER) {
      const teal_scene *e = rows[i].state;
      res->bp_pairs = e->max_bp_pairs;
      res->bp_tests = e->max_bp_tests;
      res->bp_rest_pairs = e->rest_bp_pairs;
    }
  }
  fprintf(stderr, "bench: %s: timing\n", s->title);
  rc = rc ? rc : sims_time(rows, res);
  for (int i = 0; i < NUM_SIMS; i++) {
    if (rows[i].state) {
      spheres_sims[i].free(rows[i].state);
    }
    free(rows[i].x_expect);
  }
  return rc;
}

/* ---- the report --------------------------------------------------------------- */

static void print_banner(int blas_single) {
  printf(
      "Teal contact benchmark: bench/README.md workload 2 (K free spheres dropped on a"
      " plane)\n");
  printf("BLAS: %s\n", blas_single ? "OpenBLAS limited to 1 thread (openblas_set_num_threads)"
                                   : "not OpenBLAS, threads left as configured");
  bench_print_compiler();
  bench_mj_print_peer();
}

static void print_notes(void) {
  printf(
      "\n[ref] figure from bench/README.md, not measured here. Medians of interleaved runs,"
      " each repeating\n      the warm-up's final state bit for bit; a row whose warm-up"
      " took over %.0f s shows that run's\n      time (1 timed run). Contacts are counted"
      " after every step of the warm-up run (Teal: the\n      scene graph's penetrating"
      " pairs; MuJoCo: d->ncon).\n",
      k_slow_run_s);
  printf(
      "Teal's discrete row works per kinematic tree: blocks of M, per-tree contact"
      " Jacobians and one\nNewton island per sphere (no nv x nv matrix, nv = 6K).\n");
  bench_print_reproduce("contact_spheres", 1);
}

int main(void) {
  static scene_spec specs[NUM_SCENES];
  static scene_result res[NUM_SCENES];
  int rc = 0;
  print_banner(bench_blas_single_thread());
  fflush(stdout);
  for (int i = 0; i < NUM_SCENES && rc == 0; i++) {
    spheres_make_scene(&specs[i], k_sphere_counts[i]);
    rc = run_scene(&specs[i], &res[i]);
  }
  if (rc != 0) {
    fprintf(stderr, "bench_contact_spheres: FAILED\n");
    return EXIT_FAILURE;
  }
  spheres_print_tables(specs, res, NUM_SCENES);
  print_notes();
  return EXIT_SUCCESS;
}
