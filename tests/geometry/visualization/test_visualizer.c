/* Tests of the visualizer and its recording (geometry/visualization): frame
 * times on the publish period, recorded poses equal to the plant's body
 * poses composed with its geometries' offsets (an independent path through
 * the multibody kinematics), shapes and URDF colours, proximity geometry
 * on request, a NaN pose skipped and reported, a scene without geometry,
 * 100,000 frames without allocation after reserve, the replay page's
 * content, and every bad input with its message. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/leaf_system.h"
#include "framework/ports.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "teal.h"

#define ACROBOT TEAL_MODELS_DIR "/acrobot.urdf"

typedef struct viz_world {
  teal_plant *plant; /* NULL for the hand-made scenes */
  teal_scene_graph *sg;
  teal_system *diagram, *viz;
  teal_simulator *sim;
  teal_context *ctx;
} viz_world;

static void world_free(viz_world *w) {
  teal_simulator_free(w->sim);
  teal_system_free(w->diagram);
}

static void world_start(viz_world *w, teal_builder *b) {
  teal_error err = {0, ""};
  w->diagram = teal_builder_build(b, &err);
  ck_assert_msg(w->diagram != NULL, "%s", err.message);
  w->sim = teal_simulator_new(w->diagram, NULL, &err);
  ck_assert_msg(w->sim != NULL, "%s", err.message);
  w->ctx = teal_simulator_context(w->sim);
}

static void advance(viz_world *w, double t) {
  teal_sim_status st;
  ck_assert_msg(teal_simulator_advance_to(w->sim, t, &st) == TEAL_OK, "%s", st.message);
}

/* The acrobot (continuous, no torque) swinging from q = (0.5, -0.3),
 * watched by a visualizer with opts. */
static viz_world acrobot_world(const teal_visualizer_options *opts) {
  viz_world w = {0};
  teal_error err = {0, ""};
  teal_builder *b = teal_builder_new("acrobot");
  w.plant = teal_plant_new(0.0, &err);
  w.sg = teal_add_plant_and_scene_graph(b, w.plant, &err);
  ck_assert_msg(w.sg != NULL, "%s", err.message);
  ck_assert_int_ge(teal_urdf_load_file(w.plant, ACROBOT, NULL, &err), 0);
  ck_assert_int_eq(teal_plant_finalize(w.plant), TEAL_OK);
  teal_visualizer_options exact = teal_visualizer_options_default();
  exact.exact_times = 1; /* NULL opts: frames on the exact grid k / 60 */
  w.viz = teal_add_visualizer(b, w.sg, opts ? opts : &exact, &err);
  ck_assert_msg(w.viz != NULL, "%s", err.message);
  double zero = 0.0;
  teal_builder_add(b, ts_constant_new("u", 1, &zero));
  teal_builder_connect_by_name(b, "u", "y", "plant", "actuation");
  world_start(&w, b);
  double x[4] = {0.5, -0.3, 0.0, 0.0};
  ck_assert_int_eq(teal_plant_set_state(w.plant, w.ctx, x, 4), TEAL_OK);
  return w;
}

START_TEST(frames_follow_the_publish_period) {
  viz_world w = acrobot_world(NULL);
  advance(&w, 0.5);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  ck_assert_ptr_nonnull(rec);
  /* the initialization and the t = 0 periodic publish give one frame */
  ck_assert_int_eq(rec->count, 31);
  for (int k = 0; k < rec->count; k++) {
    ck_assert_double_eq_tol(rec->times[k], k / 60.0, 1e-12);
  }
  ck_assert_int_eq(rec->skipped, 0);
  ck_assert_int_eq(teal_visualizer_check_skipped(rec, NULL), TEAL_OK);
  world_free(&w);
}
END_TEST

/* The default mode takes a frame at the end of the first step reaching
 * each multiple of the period: one frame per period window, never before
 * its multiple, and no stop of the integrator: fewer steps than the exact
 * mode, which stops it every 1/60 s. */
START_TEST(frames_at_step_ends_by_default) {
  teal_visualizer_options o = teal_visualizer_options_default();
  viz_world w = acrobot_world(&o);
  advance(&w, 0.5);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  const double period = 1.0 / 60.0;
  ck_assert_int_ge(rec->count, 2);
  ck_assert_double_eq(rec->times[0], 0.0);
  for (int k = 1; k < rec->count; k++) {
    long window = (long)floor(rec->times[k] / period + 1e-9);
    long before = (long)floor(rec->times[k - 1] / period + 1e-9);
    ck_assert_int_gt(window, before); /* one frame per window at most */
  }
  long steps_sampled = teal_simulator_get_stats(w.sim).steps;
  world_free(&w);
  viz_world e = acrobot_world(NULL); /* exact times: a stop every 1/60 s */
  advance(&e, 0.5);
  long steps_exact = teal_simulator_get_stats(e.sim).steps;
  world_free(&e);
  ck_assert_int_lt(steps_sampled, steps_exact);
}
END_TEST

/* The last frame (t = 0.5, the context's time) against X_WB X_BG from the
 * plant's own kinematics and geometry table. */
START_TEST(poses_equal_body_poses_times_geometry_offsets) {
  viz_world w = acrobot_world(NULL);
  advance(&w, 0.5);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  ck_assert_double_eq_tol(rec->times[rec->count - 1], teal_context_time(w.ctx), 1e-12);
  const teal_transform *X_WB;
  ck_assert_int_eq(teal_plant_eval_body_poses(w.plant, w.ctx, &X_WB), TEAL_OK);
  int moved = 0;
  for (int i = 0; i < rec->num_geometries; i++) {
    const teal_plant_geometry *pg = teal_plant_get_geometry(w.plant, rec->geometries[i]);
    ck_assert_str_eq(pg->name, teal_scene_graph_geometry_name(w.sg, rec->geometries[i]));
    teal_transform want = teal_transform_compose(X_WB[pg->body], pg->X_BG), got, first;
    ck_assert_int_eq(teal_scene_recording_pose(rec, rec->count - 1, i, &got), TEAL_OK);
    ck_assert_int_eq(teal_scene_recording_pose(rec, 0, i, &first), TEAL_OK);
    for (int k = 0; k < 3; k++) {
      ck_assert_double_eq_tol(got.p.v[k], want.p.v[k], 1e-12);
    }
    for (int k = 0; k < 9; k++) {
      ck_assert_double_eq_tol(got.R.m[k], want.R.m[k], 1e-12);
    }
    moved += fabs(got.p.v[2] - first.p.v[2]) > 1e-3;
  }
  ck_assert_int_ge(moved, 1); /* the links swung */
  world_free(&w);
}
END_TEST

START_TEST(geometries_keep_shapes_and_urdf_colours) {
  viz_world w = acrobot_world(NULL);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  ck_assert_int_eq(rec->num_geometries, teal_plant_num_visual_geometries(w.plant));
  int blue = 0;
  for (int i = 0; i < rec->num_geometries; i++) {
    int g = rec->geometries[i];
    const teal_plant_geometry *pg = teal_plant_get_geometry(w.plant, g);
    ck_assert_int_eq(teal_scene_graph_geometry_role(w.sg, g), TEAL_ROLE_ILLUSTRATION);
    const double *rgba = teal_scene_graph_geometry_rgba(w.sg, g);
    const teal_shape *s = teal_scene_graph_geometry_shape(w.sg, g);
    ck_assert_int_eq(s->kind, pg->shape.kind);
    ck_assert_double_eq(s->radius, pg->shape.radius);
    ck_assert_double_eq(s->length, pg->shape.length);
    for (int k = 0; k < 4; k++) {
      ck_assert_double_eq(rgba[k], pg->rgba[k]);
    }
    /* models/acrobot.urdf: <material name="blue"><color rgba="0.2 0.3 0.8 1"/> */
    blue += rgba[0] == 0.2 && rgba[1] == 0.3 && rgba[2] == 0.8 && rgba[3] == 1.0;
  }
  ck_assert_int_eq(blue, 1);
  ck_assert_ptr_null(teal_scene_graph_geometry_rgba(w.sg, 999));
  ck_assert_int_eq(teal_scene_graph_geometry_role(w.sg, -1), 0);
  world_free(&w);
}
END_TEST

START_TEST(proximity_geometry_on_request) {
  teal_visualizer_options o = teal_visualizer_options_default();
  o.include_proximity = 1;
  o.publish_period = 0.1;
  o.exact_times = 1;
  viz_world w = acrobot_world(&o);
  advance(&w, 0.25);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  ck_assert_int_eq(rec->num_geometries, teal_scene_graph_num_geometries(w.sg));
  ck_assert_int_eq(rec->num_geometries, teal_plant_num_visual_geometries(w.plant) +
                                            teal_plant_num_collision_geometries(w.plant));
  ck_assert_int_eq(rec->count, 3); /* 0, 0.1, 0.2 */
  world_free(&w);
}
END_TEST

/* ---- a hand-made scene: one frame whose pose is x = t, NaN in a window ---- */

typedef struct mover {
  double nan_from, nan_to;
} mover;

static int mover_calc(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)sys;
  const mover *m = user;
  teal_transform_list *l = out;
  double t = teal_context_time(ctx);
  int rc = teal_transform_list_resize(l, 1);
  if (rc == TEAL_OK) {
    l->X[0] = teal_transform_identity();
    l->X[0].p.v[0] = t >= m->nan_from && t < m->nan_to ? NAN : t;
  }
  return rc;
}

static mover g_mover;

/* A scene graph with source "mover" (one frame) and ngeoms spheres on it. */
static viz_world mover_world(int ngeoms, double period) {
  viz_world w = {0};
  teal_error err = {0, ""};
  teal_builder *b = teal_builder_new("movers");
  w.sg = teal_scene_graph_new(NULL, &err);
  int src = teal_scene_graph_register_source(w.sg, "mover");
  int f = teal_scene_graph_register_frame(w.sg, src, "ball_frame");
  teal_shape ball;
  teal_shape_sphere(0.1, &ball, NULL);
  const double red[4] = {1, 0, 0, 1};
  for (int i = 0; i < ngeoms; i++) {
    teal_scene_graph_register_geometry(w.sg, f, teal_transform_identity(), &ball,
                                       i ? "ball2" : "ball", TEAL_ROLE_ILLUSTRATION, NULL, red);
  }
  teal_shape_release(&ball);
  ck_assert_int_eq(teal_scene_graph_finalize(w.sg), TEAL_OK);
  teal_system *m = teal_leaf_new("mover", &g_mover, NULL);
  teal_ticket time_only = TEAL_TICKET_TIME;
  teal_leaf_declare_abstract_output(m, "pose", &teal_transform_list_type, mover_calc, &g_mover,
                                    &time_only, 1);
  ck_assert_int_eq(teal_leaf_finalize(m), TEAL_OK);
  teal_system *sgs = teal_builder_add(b, teal_scene_graph_system(w.sg));
  teal_builder_add(b, m);
  teal_builder_connect(b, teal_system_output_port(m, 0),
                       teal_system_input_port(sgs, teal_scene_graph_source_pose_port(w.sg, src)));
  teal_visualizer_options o = teal_visualizer_options_default();
  o.publish_period = period;
  o.exact_times = 1;
  w.viz = teal_add_visualizer(b, w.sg, &o, &err);
  ck_assert_msg(w.viz != NULL, "%s", err.message);
  world_start(&w, b);
  return w;
}

START_TEST(nan_pose_is_skipped_and_reported) {
  g_mover = (mover){0.105, 0.195};
  viz_world w = mover_world(1, 1.0 / 60.0);
  advance(&w, 0.5);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  /* 7/60 ... 11/60 fall in the window */
  ck_assert_int_eq(rec->skipped, 5);
  ck_assert_int_eq(rec->count, 31 - 5);
  ck_assert_double_eq_tol(rec->skipped_time, 7.0 / 60.0, 1e-12);
  for (int k = 0; k < rec->count; k++) {
    teal_transform X;
    ck_assert_int_eq(teal_scene_recording_pose(rec, k, 0, &X), TEAL_OK);
    ck_assert(rec->times[k] < 0.105 || rec->times[k] >= 0.195);
    ck_assert_double_eq_tol(X.p.v[0], rec->times[k], 1e-15);
    ck_assert(isfinite(X.R.m[0]));
  }
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_visualizer_check_skipped(rec, &err), TEAL_ENONFINITE, &err, "'ball'");
  ck_assert_ptr_nonnull(strstr(err.message, "5 frame(s)"));
  ck_assert_int_eq(teal_visualizer_clear(w.viz, w.ctx), TEAL_OK);
  ck_assert_int_eq(rec->count, 0);
  ck_assert_int_eq(rec->skipped, 0);
  world_free(&w);
}
END_TEST

/* The marker list grows only when it lacks room, and refuses bad sizes. */
START_TEST(marker_list_resizes_in_place) {
  teal_marker_list l = {0};
  ck_assert_int_eq(teal_marker_list_resize(&l, 3), TEAL_OK);
  ck_assert_int_eq(l.n, 3);
  ck_assert_int_ge(l.cap, 3);
  teal_marker *before = l.m;
  ck_assert_int_eq(teal_marker_list_resize(&l, 1), TEAL_OK);
  ck_assert_int_eq(l.n, 1);
  ck_assert_ptr_eq(l.m, before); /* shrinking keeps the array */
  ck_assert_int_eq(teal_marker_list_resize(&l, -1), TEAL_EINVAL);
  ck_assert_int_eq(l.n, 1);
  ck_assert_int_eq(teal_marker_list_resize(NULL, 2), TEAL_EINVAL);
  teal_marker_list_type.free(&l);
}
END_TEST

START_TEST(scene_without_geometry) {
  g_mover = (mover){INFINITY, INFINITY};
  viz_world w = mover_world(0, 0.1);
  advance(&w, 1.0);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  ck_assert_int_eq(rec->num_geometries, 0);
  ck_assert_int_eq(rec->count, 11);
  teal_transform X;
  ck_assert_int_eq(teal_scene_recording_pose(rec, 0, 0, &X), TEAL_EINVAL);
  world_free(&w);
}
END_TEST

START_TEST(hundred_thousand_frames_without_allocation) {
  g_mover = (mover){INFINITY, INFINITY};
  viz_world w = mover_world(2, 0.01);
  enum { FRAMES = 100001 };
  ck_assert_int_eq(teal_visualizer_reserve(w.viz, w.ctx, FRAMES), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(w.sim, &st), TEAL_OK);
  ts_alloc_install();
  advance(&w, 1000.0);
  ts_alloc_expect_none();
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  ck_assert_int_eq(rec->count, FRAMES);
  ck_assert_int_eq(rec->capacity, FRAMES);
  teal_transform X;
  ck_assert_int_eq(teal_scene_recording_pose(rec, FRAMES - 1, 1, &X), TEAL_OK);
  ck_assert_double_eq_tol(X.p.v[0], 1000.0, 1e-9);
  ck_assert_double_eq_tol(rec->times[FRAMES / 2], 500.0, 1e-9);
  world_free(&w);
}
END_TEST

/* ---- the replay page ---------------------------------------------------------- */

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  fclose(f);
  return s;
}

static int count_of(const char *s, const char *needle) {
  int n = 0;
  for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) {
    n++;
  }
  return n;
}

/* Whether libjs-three can be found (CI installs it; scripts/setup.sh). */
static int have_three(void) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/build/three.min.js", teal_replay_three_dir(NULL));
  FILE *probe = fopen(path, "rb");
  if (probe) {
    fclose(probe);
  }
  return probe != NULL;
}

START_TEST(replay_page_holds_scene_and_scripts) {
  if (!have_three()) {
    fprintf(stderr, "SKIP replay page content: libjs-three is not installed\n");
    return;
  }
  viz_world w = acrobot_world(NULL);
  advance(&w, 0.5);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  const char *path = "test_visualizer_replay.html"; /* in the build folder */
  teal_replay_options o = teal_replay_options_default();
  o.title = "acrobot </script> test";
  teal_error err = {0, ""};
  ck_assert_msg(teal_scene_recording_write_html(rec, path, &o, &err) == TEAL_OK, "%s", err.message);
  char *page = slurp(path);
  ck_assert_ptr_nonnull(strstr(page, "var TEAL_REPLAY = "));
  ck_assert_ptr_nonnull(strstr(page, "THREE.OrbitControls"));
  ck_assert_ptr_nonnull(strstr(page, "seekFromHash"));             /* the viewer script */
  ck_assert_ptr_nonnull(strstr(page, "acrobot <\\/script> test")); /* cannot end the script */
  /* one script element per inlined file, the data and the viewer */
  ck_assert_int_eq(count_of(page, "<script>"), 9); /* + the error recorder */
  ck_assert_int_eq(count_of(page, "</script>"), 9);
  ck_assert_int_eq(count_of(page, "\"shape\":"), rec->num_geometries);
  ck_assert_ptr_nonnull(strstr(page, "\"rgba\":[0.2,0.3,0.8,1]"));
  ck_assert_ptr_nonnull(strstr(page, "\"times\":[0,0.0166667,"));
  ck_assert_ptr_nonnull(strstr(page, "TEAL_REPLAY.showFrames = false;")); /* the default */
  free(page);
  /* Simbody's setShowDefaultGeometry(true): the page opens with the frames */
  o.show_frames = 1;
  ck_assert_msg(teal_scene_recording_write_html(rec, path, &o, &err) == TEAL_OK, "%s", err.message);
  page = slurp(path);
  ck_assert_ptr_nonnull(strstr(page, "TEAL_REPLAY.showFrames = true;"));
  ck_assert_ptr_nonnull(strstr(page, "if (TEAL_REPLAY.showFrames)")); /* and the viewer obeys */
  free(page);
  remove(path);
  world_free(&w);
}
END_TEST

/* Whether libjs-dygraphs can be found (CI installs it; scripts/setup.sh). */
static int have_dygraphs(void) {
  const char *env = getenv("TEAL_DYGRAPHS_DIR");
  char path[4096];
  snprintf(path, sizeof(path), "%s/dygraph.min.js", env && *env ? env : TEAL_DYGRAPHS_DEFAULT_DIR);
  FILE *probe = fopen(path, "rb");
  if (probe) {
    fclose(probe);
  }
  return probe != NULL;
}

START_TEST(replay_page_holds_plots) {
  if (!have_three() || !have_dygraphs()) {
    fprintf(stderr, "SKIP replay_page_holds_plots: libjs-three or libjs-dygraphs is missing\n");
    return;
  }
  g_mover = (mover){INFINITY, INFINITY};
  viz_world w = mover_world(1, 0.1);
  advance(&w, 0.3);
  const double times[3] = {0.0, 0.1, 0.2}, data[6] = {1, -1, 2, NAN, 3.5, -3};
  const char *names[2] = {"x</script>", NULL};
  teal_replay_plot plot = {"two signals", 3, 2, times, data, names};
  teal_replay_options o = teal_replay_options_default();
  o.plots = &plot;
  o.num_plots = 1;
  teal_error err = {0, ""};
  const char *path = "test_visualizer_plots.html";
  ck_assert_msg(teal_visualizer_write_html(w.viz, w.ctx, path, &o, &err) == TEAL_OK, "%s",
                err.message);
  char *page = slurp(path);
  ck_assert_ptr_nonnull(strstr(page,
                               "TEAL_REPLAY.plots = [{\"title\":\"two signals\","
                               "\"labels\":[\"time\",\"x<\\/script>\",\"y1\"],"
                               "\"rows\":[[0,1,-1],\n[0.1,2,null],\n[0.2,3.5,-3]]}]"));
  ck_assert_ptr_nonnull(strstr(page, "Dygraph"));
  ck_assert_int_eq(count_of(page, "<script>"), 11); /* + errors, dygraphs, plots */
  ck_assert_int_eq(count_of(page, "</script>"), 11);
  free(page);
  remove(path);
  /* bad plots */
  plot.size = 0;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_visualizer_write_html(w.viz, w.ctx, path, &o, &err), TEAL_EINVAL, &err,
                  "plot 0 needs");
  plot.size = 2;
  plot.times = NULL;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_visualizer_write_html(w.viz, w.ctx, path, &o, &err), TEAL_EINVAL, &err,
                  "plot 0 needs");
  o.plots = NULL;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_visualizer_write_html(w.viz, w.ctx, path, &o, &err), TEAL_EINVAL, &err,
                  "plots is NULL");
  o.plots = &plot;
  plot.times = times;
  o.dygraphs_dir = "/nonexistent/dygraphs";
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_visualizer_write_html(w.viz, w.ctx, path, &o, &err), TEAL_ENOTFOUND, &err,
                  "/nonexistent/dygraphs/dygraph.min.js");
  world_free(&w);
}
END_TEST

static void write_text(const char *path, const char *text, size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(text, 1, n, f), n);
  fclose(f);
}

/* A scene of every shape kind on one frame, with an OBJ, an STL and a PLY
 * mesh. */
static const char kPly[] =
    "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
    "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
    "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";

static viz_world shapes_world(void) {
  write_text("test_visualizer_mesh.ply", kPly, sizeof(kPly) - 1);
  write_text("test_visualizer_mesh.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", 32);
  char stl[134] = "Teal test STL"; /* binary STL: header, 1 triangle (zero normal) */
  const float tri[9] = {0, 0, 0, 0.1f, 0, 0, 0, 0.1f, 0};
  stl[80] = 1;
  memcpy(stl + 96, tri, sizeof(tri));
  write_text("test_visualizer_mesh.stl", stl, sizeof(stl));
  viz_world w = {0};
  teal_error err = {0, ""};
  teal_builder *b = teal_builder_new("shapes");
  w.sg = teal_scene_graph_new(NULL, &err);
  int src = teal_scene_graph_register_source(w.sg, "mover");
  int f = teal_scene_graph_register_frame(w.sg, src, "frame");
  teal_shape s[10];
  const teal_vec3 tetra[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
  teal_shape_sphere(0.1, &s[0], NULL);
  teal_shape_box(0.1, 0.2, 0.3, &s[1], NULL);
  teal_shape_cylinder(0.1, 0.4, &s[2], NULL);
  teal_shape_capsule(0.1, 0.4, &s[3], NULL);
  teal_shape_ellipsoid(0.1, 0.2, 0.3, &s[4], NULL);
  teal_shape_half_space(&s[5]);
  teal_shape_convex(tetra, 4, &s[6], NULL);
  teal_shape_mesh("test_visualizer_mesh.obj", 2.0, &s[7], NULL);
  teal_shape_mesh("test_visualizer_mesh.stl", 1.0, &s[8], NULL);
  teal_shape_mesh("test_visualizer_mesh.ply", 1.0, &s[9], NULL);
  for (int i = 0; i < 10; i++) {
    char name[16];
    snprintf(name, sizeof(name), "shape%d", i);
    ck_assert_int_ge(teal_scene_graph_register_geometry(w.sg, f, teal_transform_identity(), &s[i],
                                                        name, TEAL_ROLE_ILLUSTRATION, NULL, NULL),
                     0);
    teal_shape_release(&s[i]);
  }
  ck_assert_int_eq(teal_scene_graph_finalize(w.sg), TEAL_OK);
  g_mover = (mover){INFINITY, INFINITY};
  teal_system *m = teal_leaf_new("mover", &g_mover, NULL);
  teal_ticket time_only = TEAL_TICKET_TIME;
  teal_leaf_declare_abstract_output(m, "pose", &teal_transform_list_type, mover_calc, &g_mover,
                                    &time_only, 1);
  ck_assert_int_eq(teal_leaf_finalize(m), TEAL_OK);
  teal_system *sgs = teal_builder_add(b, teal_scene_graph_system(w.sg));
  teal_builder_add(b, m);
  teal_builder_connect(b, teal_system_output_port(m, 0),
                       teal_system_input_port(sgs, teal_scene_graph_source_pose_port(w.sg, src)));
  teal_visualizer_options exact = teal_visualizer_options_default();
  exact.exact_times = 1;
  w.viz = teal_add_visualizer(b, w.sg, &exact, &err);
  world_start(&w, b);
  return w;
}

/* Every shape reaches the page with its dimensions; meshes with their
 * files' contents (OBJ as text, STL as base64, other formats as the
 * triangles Teal read from them). */
START_TEST(replay_page_holds_every_shape) {
  if (!have_three()) {
    fprintf(stderr, "SKIP replay_page_holds_every_shape: libjs-three is not installed\n");
    return;
  }
  viz_world w = shapes_world();
  advance(&w, 0.1);
  teal_error err = {0, ""};
  const char *path = "test_visualizer_shapes.html";
  ck_assert_msg(teal_visualizer_write_html(w.viz, w.ctx, path, NULL, &err) == TEAL_OK, "%s",
                err.message);
  char *page = slurp(path);
  const char *kinds[] = {"sphere",    "box",        "cylinder", "capsule",
                         "ellipsoid", "half_space", "convex"};
  for (int i = 0; i < 7; i++) {
    char needle[64];
    snprintf(needle, sizeof(needle), "\"shape\":\"%s\"", kinds[i]);
    ck_assert_msg(strstr(page, needle), "%s missing", kinds[i]);
  }
  ck_assert_int_eq(count_of(page, "\"shape\":\"mesh\""), 3);
  ck_assert_ptr_nonnull(strstr(page, "\"mesh\":{\"format\":\"triangles\",\"vertices\":["));
  ck_assert_ptr_nonnull(strstr(page, "\"triangles\":[0,1,2]}"));
  ck_assert_ptr_nonnull(strstr(page, "\"size\":[0.1,0.2,0.3]"));
  ck_assert_ptr_nonnull(strstr(page, "\"vertices\":[0,0,0,1,0,0,0,1,0,0,0,1]"));
  ck_assert_ptr_nonnull(
      strstr(page, "\"mesh\":{\"format\":\"obj\",\"text\":\"v 0 0 0\\nv 1 0 0\\n"));
  ck_assert_ptr_nonnull(
      strstr(page, "\"mesh\":{\"format\":\"stl\",\"base64\":\"VGVhbCB0ZXN0IFNUTA"));
  free(page);
  remove(path);
  remove("test_visualizer_mesh.obj");
  remove("test_visualizer_mesh.stl");
  remove("test_visualizer_mesh.ply");
  world_free(&w);
}
END_TEST

/* ---- bad input ------------------------------------------------------------------ */

START_TEST(bad_visualizer_arguments) {
  teal_error err;
  teal_visualizer_options o = teal_visualizer_options_default();
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_visualizer_new(NULL, &o, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL scene graph");
  teal_scene_graph *open = teal_scene_graph_new(NULL, NULL);
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_visualizer_new(open, &o, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "not finalized");
  ck_assert_int_eq(teal_scene_graph_finalize(open), TEAL_OK);
  const double bad[] = {0.0, -1.0, NAN, INFINITY};
  for (int i = 0; i < 4; i++) {
    o.publish_period = bad[i];
    ts_stale_error(&err);
    ck_assert_ptr_null(teal_visualizer_new(open, &o, &err));
    ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "publish_period");
  }
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_visualizer(NULL, open, NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL builder");
  /* a scene graph the builder does not hold */
  teal_builder *b = teal_builder_new("b");
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_visualizer(b, open, NULL, &err));
  ck_assert_int_ne(err.code, TEAL_OK);
  ck_assert_ptr_nonnull(strstr(err.message, "add_visualizer"));
  teal_builder_free(b);
  teal_scene_graph_free(open);
}
END_TEST

START_TEST(bad_recording_calls) {
  viz_world w = acrobot_world(NULL);
  ts_stale_context(w.ctx);
  TS_EXPECT_ERROR(teal_visualizer_reserve(w.viz, w.ctx, -1), TEAL_EINVAL, teal_context_error(w.ctx),
                  "frames = -1");
  const teal_system *plant = teal_plant_system(w.plant);
  ck_assert_ptr_null(teal_visualizer_recording(plant, w.ctx));
  ck_assert_ptr_null(teal_visualizer_recording(NULL, w.ctx));
  ts_stale_context(w.ctx);
  TS_EXPECT_ERROR(teal_visualizer_clear(plant, w.ctx), TEAL_EINVAL, teal_context_error(w.ctx),
                  "not a visualizer");
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  teal_transform X;
  ck_assert_int_eq(teal_scene_recording_pose(rec, 0, 0, &X), TEAL_EINVAL); /* no frame yet */
  ck_assert_int_eq(teal_scene_recording_pose(NULL, 0, 0, &X), TEAL_EINVAL);
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_visualizer_check_skipped(NULL, &err), TEAL_EINVAL, &err, "NULL recording");
  world_free(&w);
}
END_TEST

START_TEST(bad_replay_paths) {
  viz_world w = acrobot_world(NULL);
  advance(&w, 0.1);
  const teal_scene_recording *rec = teal_visualizer_recording(w.viz, w.ctx);
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_scene_recording_write_html(NULL, "x.html", NULL, &err), TEAL_EINVAL, &err,
                  "recording is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_scene_recording_write_html(rec, NULL, NULL, &err), TEAL_EINVAL, &err,
                  "path is NULL");
  teal_replay_options o = teal_replay_options_default();
  o.three_dir = "/nonexistent/three";
  ck_assert_str_eq(teal_replay_three_dir(&o), "/nonexistent/three");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_scene_recording_write_html(rec, "/tmp/teal_never.html", &o, &err),
                  TEAL_ENOTFOUND, &err, "/nonexistent/three/build/three.min.js");
  ck_assert_ptr_nonnull(strstr(err.message, "libjs-three"));
  ts_stale_error(&err);
  TS_EXPECT_ERROR(
      teal_visualizer_write_html(teal_plant_system(w.plant), w.ctx, "x.html", NULL, &err),
      TEAL_EINVAL, &err, "not a visualizer");
  if (have_three()) {
    ts_stale_error(&err);
    TS_EXPECT_ERROR(teal_visualizer_write_html(w.viz, w.ctx, "/nonexistent/dir/b.html", NULL, &err),
                    TEAL_EIO, &err, "'/nonexistent/dir/b.html'");
    ts_stale_error(&err);
    TS_EXPECT_ERROR(teal_scene_recording_write_html(rec, "/nonexistent/dir/a.html", NULL, &err),
                    TEAL_EIO, &err, "'/nonexistent/dir/a.html'");
  }
  world_free(&w);
}
END_TEST

static Suite *visualizer_suite(void) {
  Suite *s = suite_create("visualizer");
  TCase *tc = tcase_create("recording");
  tcase_add_test(tc, frames_follow_the_publish_period);
  tcase_add_test(tc, frames_at_step_ends_by_default);
  tcase_add_test(tc, poses_equal_body_poses_times_geometry_offsets);
  tcase_add_test(tc, geometries_keep_shapes_and_urdf_colours);
  tcase_add_test(tc, proximity_geometry_on_request);
  tcase_add_test(tc, nan_pose_is_skipped_and_reported);
  tcase_add_test(tc, marker_list_resizes_in_place);
  tcase_add_test(tc, scene_without_geometry);
  tcase_add_test(tc, hundred_thousand_frames_without_allocation);
  suite_add_tcase(s, tc);
  TCase *page = tcase_create("page");
  tcase_add_test(page, replay_page_holds_scene_and_scripts);
  tcase_add_test(page, replay_page_holds_plots);
  tcase_add_test(page, replay_page_holds_every_shape);
  suite_add_tcase(s, page);
  TCase *bad = tcase_create("bad_input");
  tcase_add_test(bad, bad_visualizer_arguments);
  tcase_add_test(bad, bad_recording_calls);
  tcase_add_test(bad, bad_replay_paths);
  suite_add_tcase(s, bad);
  return s;
}

int main(void) {
  return ts_run_suite(visualizer_suite());
}
