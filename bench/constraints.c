/* Constraint benchmark (issue 17): two closed linkages, Teal against MuJoCo
 * when built with TEAL_BENCH_HAVE_MUJOCO (CMake defines it when
 * libmujoco-dev is found).
 *
 * Models (constraints/linkage.c), planar rods hinged about -y under gravity
 * along -z, the loop closed by a ball constraint (MuJoCo: a connect
 * equality), started assembled and at rest:
 *   - the crank-rocker four-bar: ground 1.0 m, crank 0.3 m at 90 degrees,
 *     coupler 1.0 m, rocker 0.8 m (1 kg per metre); the ball's
 *     out-of-plane row is redundant;
 *   - a 25-link chain (0.1 m, 0.1 kg each) hinged at the world origin, its
 *     last link's end held at (1, 0, 0): 25 dofs, 3 rows (one redundant);
 *   - a gear and a weld (outside workload 5): two rods hinged to the world
 *     geared by q1 = -2 q0 (a coupler; MuJoCo: a joint equality) and a
 *     0.5 kg sphere welded to the second rod's end (a weld constraint;
 *     MuJoCo: a weld equality on a free body): 8 dofs, 7 rows.
 *
 * Rows:
 *   - Teal discrete: the discrete plant at h = 1 ms; the ball's rows are
 *     near-rigid compliant forces solved implicitly in the step
 *     (docs/constraints.md);
 *   - Teal continuous: the continuous plant (constrained forward dynamics:
 *     the projected inverse mass, pivoted Cholesky), fixed-step RK4 at 1 ms,
 *     without projection;
 *   - Teal continuous, projected: the same, with the plant's projection
 *     after every step (projectQ, projectU; docs/constraint_projection.md)
 *     to 1e-12;
 *   - MuJoCo: MJCF with the equalities (default solref/solimp), Euler,
 *     1000 x mj_step; contacts disabled.
 *
 * Reported: the median time of one forward dynamics (Teal: the plant's
 * generalized accelerations with q changed, so nothing cached serves; for
 * the discrete plant that is one whole step; MuJoCo: mj_forward), of 1 s
 * of simulation (also as a ratio to MuJoCo's in the same run), the
 * constraint violation (the norm of the rows' position errors; for the
 * ball |p_Q - p_P|) after 1 s and the largest after any step, and the
 * change of the total energy over the second (the linkages are passive: a
 * perfect integrator keeps it).
 *
 * Exit status: 0 on success, 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/mujoco_model.h"
#include "common/platform.h"
#include "common/table.h"
#include "constraints/linkage.h"

enum { R_TEAL_DISCRETE, R_TEAL_CONTINUOUS, R_TEAL_PROJECTED, R_MUJOCO, NUM_ROWS };

static const char *const k_row_labels[NUM_ROWS] = {
    "Teal discrete, h = 1 ms", "Teal continuous, RK4 1 ms", "  + projection after each step",
    "MuJoCo, Euler 1 ms"};

typedef int (*row_fn)(const linkage_spec *, linkage_result *);

static int run_linkage(const linkage_spec *s, linkage_result *res) {
  row_fn rows[NUM_ROWS] = {linkage_teal_discrete, linkage_teal_continuous, linkage_teal_projected,
                           NULL};
#ifdef TEAL_BENCH_HAVE_MUJOCO
  rows[R_MUJOCO] = linkage_mujoco;
#endif
  for (int i = 0; i < NUM_ROWS; i++) {
    res[i] = (linkage_result){NAN, NAN, NAN, NAN, NAN};
    fprintf(stderr, "bench: %s: %s\n", s->title, k_row_labels[i]);
    if (rows[i] && rows[i](s, &res[i])) {
      return 1;
    }
  }
  return 0;
}

static void print_table(const linkage_spec *s, const linkage_result *res) {
  static const char *const titles[] = {"forward dyn.",  "1 s sim",    "sim / MuJoCo",
                                       "|perr| at 1 s", "max |perr|", "energy change"};
  bench_table t = {30, 14, 6};
  char title[128];
  snprintf(title, sizeof title, "%.32s (%d dofs, %s)", s->title, s->n + 6 * s->kind,
           s->kind == LINKAGE_GEAR_WELD ? "coupler and weld; MuJoCo: joint and weld equalities"
                                        : "ball constraint; MuJoCo: connect");
  bench_table_header(&t, title, titles);
  for (int i = 0; i < NUM_ROWS; i++) {
    bench_cell c[6];
    bench_fmt_time(c[0], res[i].fd_s);
    bench_fmt_time(c[1], res[i].sim_s);
    bench_fmt_ratio(c[2], res[i].sim_s, res[R_MUJOCO].sim_s);
    bench_fmt_value(c[3], "%.2e m", res[i].violation);
    bench_fmt_value(c[4], "%.2e m", res[i].max_violation);
    bench_fmt_value(c[5], "%+.2e J", res[i].energy_change);
    bench_table_row(&t, k_row_labels[i], c);
  }
}

int main(void) {
  linkage_spec specs[NUM_LINKAGES];
  linkage_result res[NUM_LINKAGES][NUM_ROWS];
  linkage_four_bar(&specs[0]);
  linkage_chain(&specs[1]);
  linkage_gear_weld(&specs[2]);
  int blas_single = bench_blas_single_thread();
  printf("Teal constraint benchmark (issue 17): closed linkages, 1 s at 1 ms\n");
  printf("BLAS: %s\n",
         blas_single ? "OpenBLAS limited to 1 thread" : "not OpenBLAS, threads as configured");
  bench_print_compiler();
  bench_mj_print_peer();
  fflush(stdout);
  for (int i = 0; i < NUM_LINKAGES; i++) {
    if (run_linkage(&specs[i], res[i])) {
      fprintf(stderr, "bench_constraints: FAILED\n");
      return EXIT_FAILURE;
    }
  }
  for (int i = 0; i < NUM_LINKAGES; i++) {
    print_table(&specs[i], res[i]);
  }
  printf(
      "\nTimes are medians of interleaved batches. |perr| is the norm of the constraint rows'"
      " position errors\nafter the step (Teal: the operators' perr; MuJoCo: efc_pos of its"
      " equality rows): for a ball,\nthe distance between its points; for the gear and weld,"
      " radians and metres together. The\nenergy change is over the simulated second."
      " sim / MuJoCo: the 1 s simulation's time over\nMuJoCo's in this run (below 1:"
      " faster).\n");
  bench_print_reproduce("constraints", 1);
  return EXIT_SUCCESS;
}
