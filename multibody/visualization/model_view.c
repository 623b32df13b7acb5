/* The model viewer: a URDF model's replay page at its default pose with a
 * posing panel whose joint motions are measured from the plant's own
 * kinematics (see model_view.h). */
#define _XOPEN_SOURCE 700 /* M_PI */
#include "multibody/visualization/model_view.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/context_tree.h"
#include "framework/diagram.h"
#include "framework/events.h"
#include "geometry/visualization/visualizer.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/contact/scene_graph_source.h"
#include "multibody/parsing/parser.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"

/* A growing text buffer through teal_alloc; ok turns 0 on failure. */
typedef struct text_buf {
  char *s;
  size_t n, cap;
  int ok;
} text_buf;

static void put(text_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int need = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (!b->ok || need < 0) {
    b->ok = 0;
    return;
  }
  if (b->n + (size_t)need + 1 > b->cap) {
    size_t cap = 2 * (b->n + (size_t)need + 1);
    char *s = teal_alloc(cap);
    if (!s) {
      b->ok = 0;
      return;
    }
    if (b->n) {
      memcpy(s, b->s, b->n);
    }
    teal_free(b->s);
    b->s = s;
    b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->n, (size_t)need + 1, fmt, ap);
  va_end(ap);
  b->n += (size_t)need;
}

/* A JSON string of name, "</" written "<\/" (it is inlined in a script). */
static void put_name(text_buf *b, const char *name) {
  put(b, "\"");
  for (const char *c = name ? name : ""; *c; c++) {
    unsigned char u = (unsigned char)*c;
    if (u == '"' || u == '\\') {
      put(b, "\\%c", u);
    } else if (u < 0x20) {
      put(b, "\\u%04x", u);
    } else {
      put(b, (u == '/' && c > name && c[-1] == '<') ? "\\/" : "%c", u);
    }
  }
  put(b, "\"");
}

/* X_WB of every body at positions q. */
static int poses_at(teal_plant *plant, teal_context *ctx, const double *q, int nq,
                    const teal_transform **X_WB) {
  int rc = teal_plant_set_positions(plant, ctx, q, nq);
  return rc ? rc : teal_plant_eval_body_poses(plant, ctx, X_WB);
}

/* X_PC = X_WP^-1 X_WC. */
static teal_transform relative(const teal_transform *X_WB, int parent, int child) {
  return teal_transform_compose(teal_transform_inverse(X_WB[parent]), X_WB[child]);
}

/* The motion of body b's joint seen from its parent: T = D(q0 + d) D(q0)^-1
 * is a quarter turn about a line (axis a through point p, p perpendicular
 * to a: R = I + [a]x + [a]x^2, t = p - a x p, so p = (t + a x t) / 2) or a
 * 1 m slide along a. */
static void joint_motion(teal_transform D0, teal_transform D1, int kind, teal_vec3 *axis,
                         teal_vec3 *point) {
  teal_transform T = teal_transform_compose(D1, teal_transform_inverse(D0));
  const double *R = T.R.m;
  *point = teal_vec3_zero();
  if (kind == 2) {
    *axis = T.p;
    return;
  }
  *axis = teal_vec3_make(0.5 * (R[7] - R[5]), 0.5 * (R[2] - R[6]), 0.5 * (R[3] - R[1]));
  *axis = teal_vec3_scale(*axis, 1.0 / teal_vec3_norm(*axis));
  teal_vec3 t = T.p;
  *point = teal_vec3_scale(teal_vec3_add(t, teal_vec3_cross(*axis, t)), 0.5);
}

static void put_pose(text_buf *b, teal_transform X) {
  teal_quaternion q = teal_rotation_to_quaternion(X.R);
  put(b, "[%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g]", X.p.v[0], X.p.v[1], X.p.v[2], q.w, q.x, q.y, q.z);
}

/* A joint slider's range: the joint's position limits where they are
 * finite (as the URDF gives them), else q0 -+ pi for a rotation and q0 -+
 * 1 m for a slide. */
static void slider_range(const teal_plant *plant, int kind, int start, double q0, double *lo,
                         double *hi) {
  double span = kind == 1 ? M_PI : 1.0;
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  *lo = kind && isfinite(t->q_lower[start]) ? t->q_lower[start] : q0 - span;
  *hi = kind && isfinite(t->q_upper[start]) ? t->q_upper[start] : q0 + span;
}

/* One body's entry; moves q[start] and back to measure its joint. */
static int put_body(text_buf *b, teal_plant *plant, teal_context *ctx, double *q, int nq,
                    int body) {
  int joint = teal_plant_body_joint(plant, body);
  int parent = teal_plant_joint_parent_body(plant, joint);
  int jk = teal_plant_joint_kind(plant, joint);
  int kind = jk == TEAL_JOINT_REVOLUTE ? 1 : jk == TEAL_JOINT_PRISMATIC ? 2 : 0;
  int start = teal_plant_joint_q_start(plant, joint);
  const teal_transform *X_WB;
  int rc = poses_at(plant, ctx, q, nq, &X_WB);
  teal_transform D0 = rc ? teal_transform_identity() : relative(X_WB, parent, body), D1 = D0;
  double q0 = kind ? q[start] : 0.0, step = kind == 1 ? M_PI / 2 : 1.0;
  if (rc == TEAL_OK && kind) {
    q[start] = q0 + step;
    rc = poses_at(plant, ctx, q, nq, &X_WB);
    D1 = rc ? D0 : relative(X_WB, parent, body);
    q[start] = q0;
  }
  teal_vec3 axis = teal_vec3_make(0, 0, 1), point = teal_vec3_zero();
  if (kind) {
    joint_motion(D0, D1, kind, &axis, &point);
  }
  put(b, "%s{\"parent\":%d,\"kind\":%d,\"name\":", body > 1 ? ",\n" : "", parent, kind);
  put_name(b, teal_plant_joint_name(plant, joint));
  double lo, hi;
  slider_range(plant, kind, start, q0, &lo, &hi);
  put(b, ",\"q0\":%.9g,\"lo\":%.9g,\"hi\":%.9g,\"D0\":", q0, lo, hi);
  put_pose(b, D0);
  put(b, ",\"axis\":[%.9g,%.9g,%.9g],\"point\":[%.9g,%.9g,%.9g]}", axis.v[0], axis.v[1], axis.v[2],
      point.v[0], point.v[1], point.v[2]);
  return rc;
}

/* The body of each scene graph geometry (the plant its only source). */
static void put_geometry_bodies(text_buf *b, const teal_plant *plant) {
  put(b, "],\n\"geometry_body\":{");
  for (int g = 0; g < teal_plant_num_geometries(plant); g++) {
    put(b, "%s\"%d\":%d", g ? "," : "", teal_plant_get_geometry_id(plant, g),
        teal_plant_get_geometry(plant, g)->body);
  }
  put(b, "}}");
}

char *teal_plant_pose_panel_json(teal_plant *plant, teal_context *context, teal_error *err) {
  teal_system *sys = plant ? teal_plant_system(plant) : NULL;
  teal_context *ctx = sys && context ? teal_context_subcontext_mut(context, sys) : NULL;
  if (!sys || (context && !ctx)) {
    teal_error_set(err, TEAL_EINVAL, "pose_panel_json: %s",
                   !plant ? "NULL plant"
                   : !sys ? "the plant is not finalized"
                          : "the context holds no context of the plant");
    return NULL;
  }
  ctx = ctx ? ctx : teal_context_new(sys, err);
  int nq = teal_plant_nq(plant), rc = TEAL_OK;
  double *q = teal_calloc((size_t)nq + 1, sizeof(double));
  text_buf b = {NULL, 0, 0, ctx && q};
  if (b.ok && (rc = teal_plant_get_positions(plant, ctx, q, nq)) == TEAL_OK) {
    put(&b, "{\"bodies\":[{\"parent\":-1,\"kind\":0},\n");
    for (int body = 1; rc == TEAL_OK && body < teal_plant_num_bodies(plant); body++) {
      rc = put_body(&b, plant, ctx, q, nq, body);
    }
    put_geometry_bodies(&b, plant);
    rc = rc ? rc : teal_plant_set_positions(plant, ctx, q, nq); /* as it was */
  }
  if (rc || !b.ok) {
    teal_error_set(err, rc ? rc : TEAL_ENOMEM, "pose_panel_json: %s",
                   rc && ctx ? teal_context_error(ctx)->message : "out of memory");
    teal_free(b.s);
    b.s = NULL;
  }
  teal_free(q);
  if (!context) {
    teal_context_free(ctx);
  }
  return b.s;
}

/* The model's diagram (plant, scene graph, visualizer); NULL with err. */
static teal_system *build_view(const char *model_path, teal_plant **plant, teal_system **viz,
                               teal_error *err) {
  teal_builder *b = teal_builder_new("model_view");
  *plant = b ? teal_plant_new(0.0, err) : NULL;
  teal_scene_graph *sg = *plant ? teal_add_plant_and_scene_graph(b, *plant, err) : NULL;
  if (!sg) { /* the plant is still the caller's when the call failed */
    teal_plant_free(*plant);
    teal_builder_free(b);
    if (!b) {
      teal_error_set(err, TEAL_ENOMEM, "model_view: out of memory");
    }
    return NULL;
  }
  if (teal_parser_add_models(*plant, model_path, NULL, NULL, 0, NULL, NULL, err) != TEAL_OK) {
    teal_builder_free(b); /* frees the plant it holds */
    return NULL;
  }
  if (teal_plant_finalize(*plant) != TEAL_OK) {
    *err = *teal_plant_error(*plant);
    teal_builder_free(b);
    return NULL;
  }
  *viz = teal_add_visualizer(b, sg, NULL, err);
  if (!*viz) {
    teal_builder_free(b);
    return NULL;
  }
  return teal_builder_build(b, err);
}

int teal_model_write_html(const char *model_path, const char *html_path,
                          const teal_replay_options *opts, teal_error *err) {
  if (!model_path || !html_path) {
    return teal_error_set(err, TEAL_EINVAL, "write_model_html: %s is NULL",
                          model_path ? "html_path" : "model_path");
  }
  teal_plant *plant = NULL;
  teal_system *viz = NULL, *diagram = build_view(model_path, &plant, &viz, err);
  teal_context *ctx = diagram ? teal_context_new(diagram, err) : NULL;
  if (!ctx) {
    teal_system_free(diagram);
    return err && err->code ? err->code : TEAL_ENOMEM;
  }
  int rc = teal_force_publish(diagram, ctx); /* the default pose: one frame at t = 0 */
  if (rc) {
    teal_error_set(err, rc, "write_model_html: %s", teal_context_error(ctx)->message);
  }
  char *panel = rc ? NULL : teal_plant_pose_panel_json(plant, ctx, err);
  if (panel) {
    teal_replay_options o = opts ? *opts : teal_replay_options_default();
    o.title = o.title ? o.title : model_path;
    o.pose_panel_json = panel;
    rc = teal_scene_recording_write_html(teal_visualizer_recording(viz, ctx), html_path, &o, err);
  } else if (rc == TEAL_OK) {
    rc = err && err->code ? err->code : TEAL_ENOMEM;
  }
  teal_free(panel);
  teal_context_free(ctx);
  teal_system_free(diagram);
  return rc;
}

int teal_urdf_write_model_html(const char *urdf_path, const char *html_path,
                               const teal_replay_options *opts, teal_error *err) {
  return teal_model_write_html(urdf_path, html_path, opts, err);
}
