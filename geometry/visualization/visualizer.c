/* The visualizer system: a publish handler that copies the scene graph's
 * geometry poses into the context's recording (see visualizer.h). */
#include "geometry/visualization/visualizer.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"
#include "framework/ports.h"
#include "geometry/visualization/visualization_internal.h"

enum { VIZ_INPUT = 0, VIZ_MARKERS = 1, VIZ_SCRATCH = 0 };

static const char k_kind[] = "visualizer";

/* The model part: the followed geometry ids. */
typedef struct viz_model {
  const teal_scene_graph *sg;
  int num_geometries;
  int *geometries;
  double period; /* the publish period */
} viz_model;

teal_visualizer_options teal_visualizer_options_default(void) {
  teal_visualizer_options o = {1.0 / 60.0, 0, "visualizer", 0};
  return o;
}

static void model_free(void *user) {
  viz_model *m = user;
  teal_free(m->geometries);
  teal_free(m);
}

/* Lists the geometries of the roles followed, in id order. */
static viz_model *model_new(const teal_scene_graph *sg, int include_proximity) {
  int n = teal_scene_graph_num_geometries(sg);
  viz_model *m = teal_calloc(1, sizeof(*m));
  int *ids = teal_calloc((size_t)n + 1, sizeof(int));
  if (!m || !ids) {
    teal_free(m);
    teal_free(ids);
    return NULL;
  }
  for (int g = 0; g < n; g++) {
    teal_geometry_role role = teal_scene_graph_geometry_role(sg, g);
    if (role == TEAL_ROLE_ILLUSTRATION || (include_proximity && role == TEAL_ROLE_PROXIMITY)) {
      ids[m->num_geometries++] = g;
    }
  }
  m->sg = sg;
  m->geometries = ids;
  return m;
}

static int viz_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  const viz_model *m = user;
  const teal_transform_list *poses;
  int rc = teal_eval_abstract_input(sys, ctx, VIZ_INPUT, (const void **)&poses);
  if (rc) {
    return rc;
  }
  if (poses->n != teal_scene_graph_num_geometries(m->sg)) {
    return teal_context_report_error(
        ctx, TEAL_ESIZE, "%s '%s': got %d geometry poses for a scene of %d", k_kind,
        teal_system_name(sys), poses->n, teal_scene_graph_num_geometries(m->sg));
  }
  const teal_marker_list *markers = NULL;
  if (teal_input_has_value(sys, ctx, VIZ_MARKERS) > 0 &&
      (rc = teal_eval_abstract_input(sys, ctx, VIZ_MARKERS, (const void **)&markers)) != TEAL_OK) {
    return rc;
  }
  teal_scene_recording *rec = teal_context_scratch_mut(ctx, VIZ_SCRATCH);
  rc =
      rec ? teal_viz_recording_record(rec, teal_context_time(ctx), poses->X, markers) : TEAL_EINVAL;
  if (rc) {
    return teal_context_report_error(ctx, rc, "%s '%s': cannot record frame %d: %s", k_kind,
                                     teal_system_name(sys), rec ? rec->count : 0,
                                     teal_strerror(rc));
  }
  return TEAL_OK;
}

/* The per-step publish of the default mode: a frame when the step reached
 * the first multiple of the period after the last frame (or when none was
 * taken yet). */
static int viz_publish_when_due(const teal_system *sys, const teal_context *ctx, void *user) {
  const viz_model *m = user;
  const teal_scene_recording *rec = teal_context_scratch(ctx, VIZ_SCRATCH);
  if (rec && rec->count > 0) {
    double last = rec->times[rec->count - 1], t = teal_context_time(ctx);
    double due = (floor(last / m->period + 1e-9) + 1.0) * m->period;
    if (t < due - 1e-12 * fmax(1.0, fabs(due))) {
      return TEAL_OK;
    }
  }
  return viz_publish(sys, ctx, user);
}

static int check_args(const teal_scene_graph *sg, const teal_visualizer_options *o,
                      teal_error *err) {
  if (!sg) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL scene graph", k_kind);
  }
  if (!teal_scene_graph_system((teal_scene_graph *)sg)) {
    return teal_error_set(err, TEAL_ESTATE,
                          "%s: the scene graph is not finalized (with "
                          "teal_add_plant_and_scene_graph, call teal_plant_finalize first)",
                          k_kind);
  }
  if (!isfinite(o->publish_period) || o->publish_period <= 0) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': publish_period = %g must be finite and > 0",
                          k_kind, teal_leaf_util_name(o->name), o->publish_period);
  }
  return TEAL_OK;
}

teal_system *teal_visualizer_new(const teal_scene_graph *sg, const teal_visualizer_options *opts,
                                 teal_error *err) {
  teal_visualizer_options o = opts ? *opts : teal_visualizer_options_default();
  o.name = o.name ? o.name : "visualizer";
  if (check_args(sg, &o, err)) {
    return NULL;
  }
  viz_model *m = model_new(sg, o.include_proximity);
  teal_system *sys = m ? teal_leaf_new(o.name, m, model_free) : NULL;
  if (!sys) {
    if (m) {
      model_free(m);
    }
    teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", k_kind, o.name);
    return NULL;
  }
  teal_leaf_declare_abstract_input(sys, "geometry_poses", &teal_transform_list_type);
  teal_leaf_declare_abstract_input(sys, "markers", &teal_marker_list_type);
  teal_scene_recording model;
  teal_viz_recording_type.init(&model);
  model.scene_graph = sg;
  model.num_geometries = m->num_geometries;
  model.geometries = m->geometries;
  teal_leaf_declare_scratch(sys, "recording", &teal_viz_recording_type, &model);
  m->period = o.publish_period;
  if (o.exact_times) {
    teal_leaf_declare_periodic_publish(sys, o.publish_period, 0.0, viz_publish, m);
  } else {
    teal_leaf_declare_per_step_publish(sys, viz_publish_when_due, m);
  }
  teal_leaf_declare_forced_publish(sys, viz_publish, m);
  teal_leaf_declare_initialization_publish(sys, viz_publish, m);
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, o.name, err);
}

teal_system *teal_add_visualizer(teal_builder *b, teal_scene_graph *sg,
                                 const teal_visualizer_options *opts, teal_error *err) {
  if (!b) {
    teal_error_set(err, TEAL_EINVAL, "add_visualizer: NULL builder");
    return NULL;
  }
  teal_system *viz = teal_visualizer_new(sg, opts, err);
  if (!viz) {
    return NULL;
  }
  teal_system *sgs = teal_scene_graph_system(sg);
  if (!teal_builder_add(b, viz) ||
      teal_builder_connect(
          b, teal_system_output_port(sgs, teal_scene_graph_geometry_poses_output_port(sg)),
          teal_system_input_port(viz, VIZ_INPUT)) != TEAL_OK) {
    const teal_error *be = teal_builder_error(b);
    teal_error_set(err, be->code, "add_visualizer: %s", be->message);
    return NULL;
  }
  return viz;
}

/* The recording of sys found from ctx; NULL with *status when sys is not a
 * visualizer or not in ctx. */
static teal_scene_recording *find_recording(const teal_system *sys, const teal_context *ctx,
                                            int *status) {
  const teal_context *own = teal_leaf_util_own_context(sys, k_kind, ctx, status);
  return own ? teal_context_scratch_mut(own, VIZ_SCRATCH) : NULL;
}

const teal_scene_recording *teal_visualizer_recording(const teal_system *sys,
                                                      const teal_context *ctx) {
  return find_recording(sys, ctx, NULL);
}

int teal_visualizer_reserve(const teal_system *sys, teal_context *ctx, int frames) {
  int rc;
  teal_scene_recording *rec = find_recording(sys, ctx, &rc);
  if (!rec) {
    return teal_leaf_util_bad_call(sys, ctx, rc, k_kind, "a visualizer", "reserve", "");
  }
  if (frames < 0) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s '%s': reserve: frames = %d < 0", k_kind,
                                     teal_system_name(sys), frames);
  }
  if ((rc = teal_viz_recording_reserve(rec, frames)) != TEAL_OK) {
    return teal_context_report_error(ctx, rc, "%s '%s': cannot reserve %d frames: %s", k_kind,
                                     teal_system_name(sys), frames, teal_strerror(rc));
  }
  return TEAL_OK;
}

int teal_visualizer_clear(const teal_system *sys, teal_context *ctx) {
  int rc;
  teal_scene_recording *rec = find_recording(sys, ctx, &rc);
  if (!rec) {
    return teal_leaf_util_bad_call(sys, ctx, rc, k_kind, "a visualizer", "clear", "");
  }
  rec->count = rec->num_markers = 0;
  rec->skipped = rec->skipped_markers = 0;
  rec->skipped_time = NAN;
  rec->skipped_geometry = -1;
  return TEAL_OK;
}

int teal_visualizer_check_skipped(const teal_scene_recording *rec, teal_error *err) {
  if (!rec) {
    return teal_error_set(err, TEAL_EINVAL, "%s: check_skipped: NULL recording", k_kind);
  }
  if (rec->skipped == 0) {
    return TEAL_OK;
  }
  const char *name = teal_scene_graph_geometry_name(rec->scene_graph, rec->skipped_geometry);
  return teal_error_set(err, TEAL_ENONFINITE,
                        "%s: %ld frame(s) not recorded: the first at t = %g, where the pose of "
                        "geometry '%s' was not finite",
                        k_kind, rec->skipped, rec->skipped_time, name ? name : "(time)");
}

int teal_visualizer_write_html(const teal_system *sys, const teal_context *ctx, const char *path,
                               const teal_replay_options *opts, teal_error *err) {
  const teal_scene_recording *rec = find_recording(sys, ctx, NULL);
  if (!rec) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s: write_html: the system is not a visualizer in this context", k_kind);
  }
  return teal_scene_recording_write_html(rec, path, opts, err);
}
