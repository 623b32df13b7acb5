/* Visualizer cost benchmark (issue 16): what recording a replay costs.
 *
 * The 7-dof arm (models/iiwa7_like.urdf, continuous plant, RK3 at accuracy
 * 1e-4) falls from a bent pose for 10 s with no torque, in three diagrams:
 *   A  the plant alone (no event: the integrator picks its own steps);
 *   B  A plus a state logger publishing at 60 Hz (stopping the integrator);
 *   C  A plus a visualizer recording the arm's 8 geometries at 60 Hz in its
 *      default mode (a frame at the end of the first step reaching each
 *      multiple of the period: no stop).
 * Prints the recording's cost against the plant alone, (C - A) / A, and
 * what stopping the integrator at 60 Hz costs by itself, (B - A) / A
 * (medians of 5 runs of each, interleaved), then the size of the replay
 * page written from C's recording, three.js included. Issue 16 asks for
 * under 5 % and 2 MB.
 *
 * The model is found through the run-time search path: set TEAL_MODEL_PATH
 * to the repository's models folder when Teal is not installed. */
#include <stdio.h>
#include <sys/stat.h>

#include "common/timing.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "teal.h"

#define RUNS 5
#define SECONDS 10.0
#define NQ 7
#define PERIOD (1.0 / 60.0)

typedef struct arm_run {
  teal_plant *plant;
  teal_system *diagram, *viz;
  teal_simulator *sim;
} arm_run;

/* Diagram A (level 0), B (1) or C (2). */
static int build(arm_run *r, int level, teal_error *err) {
  teal_builder *b = teal_builder_new("arm");
  r->plant = teal_plant_new(0.0, err);
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, r->plant, err);
  if (!sg || teal_urdf_load_file(r->plant, "iiwa7_like.urdf", NULL, err) < 0 ||
      teal_plant_finalize(r->plant) != TEAL_OK) {
    teal_builder_free(b);
    return -1;
  }
  double zero[NQ] = {0};
  teal_builder_add(b, teal_constant_vector_source_new("u", zero, NQ, err));
  teal_builder_connect_by_name(b, "u", "y", "plant", "actuation");
  if (level == 1) {
    teal_builder_add(b, teal_vector_log_sink_new("log", 2 * NQ, PERIOD, err));
    teal_builder_connect_by_name(b, "plant", "state", "log", "data");
  }
  r->viz = level >= 2 ? teal_add_visualizer(b, sg, NULL, err) : NULL; /* frames at step ends */
  r->diagram = teal_builder_build(b, err);
  r->sim = r->diagram ? teal_simulator_new(r->diagram, NULL, err) : NULL;
  return r->sim ? 0 : -1;
}

/* One 10 s run from the defaults; its wall time in seconds (< 0 on error). */
static double run_once(arm_run *r) {
  teal_context *ctx = teal_simulator_context(r->sim);
  teal_context_set_to_defaults(ctx);
  teal_context_set_time(ctx, 0.0);
  if (r->viz) {
    teal_visualizer_clear(r->viz, ctx);
  }
  double q[NQ] = {0.1, 0.2, 0.0, -0.3, 0.0, 0.2, 0.0};
  teal_sim_status st;
  double t0 = bench_now_seconds();
  if (teal_plant_set_positions(r->plant, ctx, q, NQ) != TEAL_OK ||
      teal_simulator_initialize(r->sim, &st) || teal_simulator_advance_to(r->sim, SECONDS, &st)) {
    fprintf(stderr, "visualizer_cost: the run failed: %s\n", st.message);
    return -1.0;
  }
  return bench_now_seconds() - t0;
}

static int report(const arm_run *c, const double *t) {
  const teal_scene_recording *rec =
      teal_visualizer_recording(c->viz, teal_simulator_context(c->sim));
  teal_error err = {0};
  const char *page = "visualizer_cost_arm.html";
  if (teal_scene_recording_write_html(rec, page, NULL, &err) != TEAL_OK) {
    fprintf(stderr, "visualizer_cost: %s\n", err.message);
    return 1;
  }
  struct stat st;
  double mb = stat(page, &st) == 0 ? (double)st.st_size / 1e6 : -1.0;
  printf(
      "7-dof arm, %.0f s, continuous RK3 at 1e-4: A (plant) %.1f ms, B (A + logger at 60 Hz) "
      "%.1f ms, C (A + visualizer at 60 Hz) %.1f ms\n",
      SECONDS, 1e3 * t[0], 1e3 * t[1], 1e3 * t[2]);
  printf(
      "recording %d frames of %d geometries: %+.1f %% of the simulation time, (C - A) / A "
      "(target < 5 %%)\n",
      rec->count, rec->num_geometries, 100.0 * (t[2] - t[0]) / t[0]);
  printf("stopping the integrator at 60 Hz by itself: %+.1f %%, (B - A) / A\n",
         100.0 * (t[1] - t[0]) / t[0]);
  printf("replay page %s: %.2f MB, three.js included (target < 2 MB)\n", page, mb);
  return 0;
}

int main(void) {
  arm_run runs[3] = {{0}};
  teal_error err = {0};
  for (int i = 0; i < 3; i++) {
    if (build(&runs[i], i, &err)) {
      fprintf(stderr, "visualizer_cost: %s (set TEAL_MODEL_PATH to the models folder)\n",
              err.message);
      return 1;
    }
  }
  double t[3][RUNS], median[3];
  int failed = 0;
  for (int k = 0; k < RUNS && !failed; k++) { /* interleaved against load drift */
    for (int i = 0; i < 3; i++) {
      t[i][k] = run_once(&runs[i]);
      failed = failed || t[i][k] < 0;
    }
  }
  for (int i = 0; i < 3; i++) {
    median[i] = bench_median(t[i], RUNS);
  }
  int rc = failed ? 1 : report(&runs[2], median);
  for (int i = 0; i < 3; i++) {
    teal_simulator_free(runs[i].sim);
    teal_system_free(runs[i].diagram);
  }
  return rc;
}
