/* The SDFormat walk: <sdf>, <world>, <model> (nested and included), <link>
 * with its <inertial>, <joint> and <frame>, recorded as frames with scoped
 * names (sdf_internal.h); <pose> and number parsing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/sdf_internal.h"

#define SDF_PI 3.14159265358979323846

/* ---- numbers and poses -------------------------------------------------------- */

/* The text of node parsed as n numbers (what names it in messages). */
static int text_numbers(urdf_model *doc, urdf_node *node, int n, double *out) {
  const char *t = urdf_text(doc, node);
  if (!t) {
    return doc->err->code;
  }
  int rc = urdf_parse_numbers(t, n, out);
  if (rc == TEAL_ENONFINITE) {
    return urdf_fail(doc, node, rc, "'%.40s' is not finite", t);
  }
  if (rc) {
    return urdf_fail(doc, node, rc, "'%.40s' is not %d number%s", t, n, n == 1 ? "" : "s");
  }
  return TEAL_OK;
}

int sdf_child_numbers(urdf_model *doc, urdf_node *node, const char *child, int n, double *out,
                      int *present) {
  urdf_node *c;
  int rc = urdf_unique_child(doc, node, child, &c);
  *present = rc == TEAL_OK && c;
  return rc || !c ? rc : text_numbers(doc, c, n, out);
}

int sdf_parse_pose(urdf_model *doc, urdf_node *pose, teal_transform *X) {
  *X = teal_transform_identity();
  if (!pose) {
    return TEAL_OK;
  }
  const char *fmt = urdf_attr(doc, pose, "rotation_format");
  const char *deg = urdf_attr(doc, pose, "degrees");
  if (doc->err->code) {
    return doc->err->code;
  }
  if (fmt && strcmp(fmt, "euler_rpy") != 0) {
    return urdf_fail(doc, pose, TEAL_EPARSE, "rotation_format '%.40s' is not supported", fmt);
  }
  if (urdf_attr(doc, pose, "frame")) {
    return urdf_fail(doc, pose, TEAL_EPARSE,
                     "the 'frame' attribute is SDFormat 1.6; use relative_to (1.7)");
  }
  const char *t = urdf_text(doc, pose);
  double v[6] = {0, 0, 0, 0, 0, 0};
  int rc = !t ? doc->err->code : *t ? text_numbers(doc, pose, 6, v) : TEAL_OK;
  if (rc) {
    return rc;
  }
  double scale = deg && strcmp(deg, "true") == 0 ? SDF_PI / 180.0 : 1.0;
  X->R = teal_rotation_from_rpy(teal_vec3_make(v[3] * scale, v[4] * scale, v[5] * scale));
  X->p = teal_vec3_make(v[0], v[1], v[2]);
  return TEAL_OK;
}

/* ---- frames --------------------------------------------------------------------- */

/* The prefix of the names declared inside model frame `scope` ("" at world scope). */
static const char *inner_prefix(sdf_state *s, int scope) {
  if (scope == SDF_WORLD) {
    return "";
  }
  const char *name = SFRAME(s)[scope].name;
  size_t n = strlen(name);
  char *p = teal_alloc(n + 3);
  if (p) {
    memcpy(p, name, n);
    memcpy(p + n, "::", 3);
  }
  return urdf_keep(s->main, p);
}

/* A name SDFormat lets a frame have: not empty, no "::", not reserved. */
static int check_name(urdf_model *doc, urdf_node *node, const char *name) {
  if (strstr(name, "::") || strcmp(name, "world") == 0 ||
      (strncmp(name, "__", 2) == 0 && strlen(name) > 3 &&
       strcmp(name + strlen(name) - 2, "__") == 0)) {
    return urdf_fail(doc, node, TEAL_EINVAL,
                     "'%.80s' is not a valid name (reserved, or contains '::')", name);
  }
  return TEAL_OK;
}

/* Appends a frame named prefix+name of kind under scope; its index or < 0. */
static int add_frame(sdf_state *s, urdf_model *doc, urdf_node *node, sdf_kind kind, int scope,
                     const char *name) {
  int rc = check_name(doc, node, name);
  const char *prefix = rc ? NULL : inner_prefix(s, scope);
  char *full = prefix ? teal_alloc(strlen(prefix) + strlen(name) + 1) : NULL;
  if (full) {
    strcpy(full, prefix);
    strcat(full, name);
  }
  const char *kept = rc ? NULL : urdf_keep(s->main, full);
  sdf_frame *f = kept ? urdf_push(s->main, &s->frames, sizeof(sdf_frame)) : NULL;
  if (!f) {
    return s->err->code;
  }
  int self = s->frames.n - 1;
  f->name = kept;
  f->node = node;
  f->doc = f->pose_doc = doc;
  f->kind = kind;
  f->scope = scope;
  f->top = scope == SDF_WORLD ? (kind == SDF_MODEL ? self : -1) : SFRAME(s)[scope].top;
  f->prefix = prefix;
  f->rel = f->attached = -1;
  f->body_link = -1;
  return self;
}

/* Reads the <pose> (the given one, else node's own) into frame f. */
static int frame_pose(sdf_state *s, int f, urdf_node *pose, urdf_model *pose_doc) {
  sdf_frame *F = &SFRAME(s)[f];
  int rc = TEAL_OK;
  if (!pose) {
    pose_doc = F->doc;
    rc = urdf_unique_child(pose_doc, F->node, "pose", &pose);
  }
  F->pose = pose;
  F->pose_doc = pose_doc;
  F->relative_to = rc || !pose ? NULL : urdf_attr(pose_doc, pose, "relative_to");
  rc = rc ? rc : s->err->code;
  if (rc == TEAL_OK && F->relative_to && !*F->relative_to) {
    F->relative_to = NULL;
  }
  return rc ? rc : sdf_parse_pose(pose_doc, pose, &F->X_RF);
}

/* ---- links -------------------------------------------------------------------------- */

/* <inertia>: the matrix about the center of mass (SDFormat default: identity). */
static int parse_inertia(urdf_model *doc, urdf_node *in, teal_mat3 *I) {
  static const char *const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
  double v[6] = {1, 0, 0, 1, 0, 1};
  urdf_node *node;
  int rc = urdf_unique_child(doc, in, "inertia", &node);
  for (int i = 0; i < 6 && node && rc == TEAL_OK; i++) {
    int present;
    rc = sdf_child_numbers(doc, node, names[i], 1, &v[i], &present);
  }
  teal_mat3 M = {{v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5]}};
  *I = M;
  return rc;
}

/* The link's spatial inertia (SDFormat's default without <inertial>: mass
 * 1 and unit inertia at the link origin). */
static int parse_inertial(sdf_state *s, urdf_model *doc, int f) {
  urdf_node *in, *pose = NULL;
  int rc = urdf_unique_child(doc, SFRAME(s)[f].node, "inertial", &in);
  double mass = 1.0;
  int present = 0;
  teal_transform X_LI = teal_transform_identity();
  teal_mat3 I = teal_mat3_identity();
  rc = rc || !in ? rc : urdf_unique_child(doc, in, "pose", &pose);
  if (rc == TEAL_OK && pose && urdf_attr(doc, pose, "relative_to")) {
    rc = urdf_fail(doc, pose, TEAL_EPARSE, "relative_to on an <inertial> pose is not supported");
  }
  rc = rc || !in ? rc : sdf_parse_pose(doc, pose, &X_LI);
  rc = rc || !in ? rc : sdf_child_numbers(doc, in, "mass", 1, &mass, &present);
  rc = rc || !in ? rc : parse_inertia(doc, in, &I);
  if (rc == TEAL_OK && mass < 0.0) {
    rc = urdf_fail(doc, in, TEAL_EINVAL, "negative mass %g", mass);
  }
  if (rc || mass == 0.0) {
    return rc;
  }
  teal_mat3 I_L = teal_mat3_mul(teal_mat3_mul(X_LI.R, I), teal_mat3_transpose(X_LI.R));
  teal_spatial_inertia M = teal_spatial_inertia_from_central(mass, X_LI.p, I_L);
  teal_error ierr = {TEAL_OK, ""};
  rc = teal_spatial_inertia_check(&M, &ierr);
  if (rc) {
    return urdf_fail(doc, in, rc, "non-physical inertia (%s)", ierr.message);
  }
  SFRAME(s)[f].massive = 1;
  SFRAME(s)[f].M_LLo_L = M;
  return TEAL_OK;
}

/* Warns about the children of a link that Teal does not read. */
static void warn_link_children(sdf_state *s, urdf_model *doc, urdf_node *node) {
  static const char *const known[] = {
      "pose",         "inertial",  "collision",         "visual",      "gravity",
      "self_collide", "kinematic", "must_be_base_link", "enable_wind", "velocity_decay"};
  for (urdf_node *c = node->children; c; c = c->next) {
    size_t i = 0;
    while (i < sizeof(known) / sizeof(known[0]) && !urdf_is(c, known[i])) {
      i++;
    }
    if (i == sizeof(known) / sizeof(known[0])) {
      urdf_warn(doc, c, &s->ureport.ignored_elements, "unsupported element ignored");
    }
  }
}

static int parse_link(sdf_state *s, urdf_model *doc, urdf_node *node, int scope) {
  const char *name;
  int rc = urdf_attr_required(doc, node, "name", &name);
  int f = rc ? rc : add_frame(s, doc, node, SDF_LINK, scope, name);
  rc = f < 0 ? f : frame_pose(s, f, NULL, NULL);
  rc = rc ? rc : parse_inertial(s, doc, f);
  if (rc == TEAL_OK) {
    warn_link_children(s, doc, node);
  }
  return rc;
}

/* The text of a required child element. */
static int required_text(urdf_model *doc, urdf_node *node, const char *child, const char **out) {
  urdf_node *c;
  int rc = urdf_unique_child(doc, node, child, &c);
  *out = rc || !c ? NULL : urdf_text(doc, c);
  if (rc == TEAL_OK && (!*out || !**out)) {
    rc = doc->err->code ? doc->err->code : urdf_fail(doc, node, TEAL_EPARSE, "missing <%s>", child);
  }
  return rc;
}

static int parse_joint(sdf_state *s, urdf_model *doc, urdf_node *node, int scope) {
  const char *name, *type, *parent, *child;
  int rc = urdf_attr_required(doc, node, "name", &name);
  rc = rc ? rc : urdf_attr_required(doc, node, "type", &type);
  rc = rc ? rc : required_text(doc, node, "parent", &parent);
  rc = rc ? rc : required_text(doc, node, "child", &child);
  int f = rc ? rc : add_frame(s, doc, node, SDF_JOINT, scope, name);
  if (f < 0) {
    return f;
  }
  SFRAME(s)[f].parent = parent;
  SFRAME(s)[f].child = child;
  return frame_pose(s, f, NULL, NULL);
}

static int parse_frame(sdf_state *s, urdf_model *doc, urdf_node *node, int scope) {
  const char *name;
  int rc = urdf_attr_required(doc, node, "name", &name);
  int f = rc ? rc : add_frame(s, doc, node, SDF_FRAME, scope, name);
  const char *at = f < 0 ? NULL : urdf_attr(doc, node, "attached_to");
  if (f < 0 || s->err->code) {
    return s->err->code ? s->err->code : f;
  }
  SFRAME(s)[f].attached_to = at && *at ? at : NULL;
  return frame_pose(s, f, NULL, NULL);
}

/* ---- models and worlds ---------------------------------------------------------------- */

/* Elements a model or world may hold that Teal does not model (no warning). */
static int quietly_ignored(const urdf_node *c) {
  static const char *const names[] = {
      "pose", "static", "self_collide", "enable_wind", "allow_auto_disable", "gravity"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    if (urdf_is(c, names[i])) {
      return 1;
    }
  }
  return 0;
}

static int model_child(sdf_state *s, urdf_model *doc, urdf_node *c, int f, int depth) {
  if (urdf_is(c, "link")) {
    return parse_link(s, doc, c, f);
  }
  if (urdf_is(c, "joint")) {
    return parse_joint(s, doc, c, f);
  }
  if (urdf_is(c, "frame")) {
    return parse_frame(s, doc, c, f);
  }
  if (urdf_is(c, "model")) {
    return sdf_parse_model(s, doc, c, f, depth + 1, NULL, NULL, NULL, -1);
  }
  if (urdf_is(c, "include")) {
    return sdf_include(s, doc, c, f, depth + 1);
  }
  if (!quietly_ignored(c)) {
    urdf_warn(doc, c, &s->ureport.ignored_elements, "unsupported element ignored");
  }
  return TEAL_OK;
}

/* <static>: 1 for true, 0 for false, inherit when absent. */
static int static_flag(urdf_model *doc, urdf_node *node, int inherit, int *out) {
  urdf_node *st;
  int rc = urdf_unique_child(doc, node, "static", &st);
  const char *t = rc || !st ? NULL : urdf_text(doc, st);
  *out = t ? strcmp(t, "true") == 0 || strcmp(t, "1") == 0 : inherit;
  return rc ? rc : doc->err->code;
}

int sdf_parse_model(sdf_state *s, urdf_model *doc, urdf_node *node, int scope, int depth,
                    const char *name, urdf_node *pose, urdf_model *pose_doc, int is_static) {
  if (depth > s->opts.max_depth) {
    return urdf_fail(doc, node, TEAL_ESIZE,
                     "models nested deeper than %d (teal_sdf_options.max_depth)",
                     s->opts.max_depth);
  }
  int rc = name ? TEAL_OK : urdf_attr_required(doc, node, "name", &name);
  int f = rc ? rc : add_frame(s, doc, node, SDF_MODEL, scope, name);
  rc = f < 0 ? f : frame_pose(s, f, pose, pose_doc);
  int inherit = scope == SDF_WORLD ? 0 : SFRAME(s)[scope].is_static;
  rc = rc ? rc : static_flag(doc, node, inherit, &SFRAME(s)[f].is_static);
  if (rc == TEAL_OK && is_static >= 0) {
    SFRAME(s)[f].is_static = is_static;
  }
  const char *canonical = rc ? NULL : urdf_attr(doc, node, "canonical_link");
  rc = rc ? rc : s->err->code;
  if (rc == TEAL_OK) {
    SFRAME(s)[f].canonical = canonical && *canonical ? canonical : NULL;
  }
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    rc = model_child(s, doc, c, f, depth);
  }
  return rc;
}

static int parse_world(sdf_state *s, urdf_model *doc, urdf_node *world, int depth) {
  int rc = TEAL_OK;
  for (urdf_node *c = world->children; c && rc == TEAL_OK; c = c->next) {
    if (urdf_is(c, "model")) {
      rc = sdf_parse_model(s, doc, c, SDF_WORLD, depth, NULL, NULL, NULL, -1);
    } else if (urdf_is(c, "include")) {
      rc = sdf_include(s, doc, c, SDF_WORLD, depth + 1);
    } else if (urdf_is(c, "frame")) {
      rc = parse_frame(s, doc, c, SDF_WORLD);
    } else if (urdf_is(c, "gravity")) {
      double g[3];
      rc = text_numbers(doc, c, 3, g);
      s->has_gravity = 1;
      s->gravity = teal_vec3_make(g[0], g[1], g[2]);
    } else {
      urdf_warn(doc, c, &s->ureport.ignored_elements, "unsupported element ignored");
    }
  }
  return rc;
}

/* SDFormat 1.7 or later ("major.minor"). */
static int check_version(urdf_model *doc, urdf_node *root) {
  const char *v;
  int rc = urdf_attr_required(doc, root, "version", &v);
  if (rc) {
    return rc;
  }
  char *end;
  long major = strtol(v, &end, 10), minor = 0;
  if (end != v && *end == '.') {
    minor = strtol(end + 1, &end, 10);
  }
  if (end == v || *end || major < 1 || (major == 1 && minor < 7)) {
    return urdf_fail(doc, root, TEAL_EPARSE,
                     "SDFormat version '%.20s' is not supported (1.7 or later)", v);
  }
  return TEAL_OK;
}

/* The world frame, first of the list. */
static int add_world(sdf_state *s) {
  sdf_frame *w = urdf_push(s->main, &s->frames, sizeof(sdf_frame));
  if (!w) {
    return s->err->code;
  }
  w->name = "world";
  w->doc = w->pose_doc = s->main;
  w->kind = SDF_WORLD_FRAME;
  w->top = -1;
  w->prefix = "";
  w->rel = w->attached = w->body_link = SDF_WORLD;
  w->X_RF = w->X_WF = teal_transform_identity();
  return TEAL_OK;
}

int sdf_parse_root(sdf_state *s, urdf_model *doc, int depth) {
  urdf_node *root = doc->xml.root;
  if (!root) {
    return urdf_fail(doc, NULL, TEAL_EPARSE, "empty document");
  }
  if (!urdf_is(root, "sdf")) {
    return urdf_fail(doc, root, TEAL_EPARSE, "the root element must be <sdf>");
  }
  int rc = check_version(doc, root);
  rc = rc ? rc : add_world(s);
  int worlds = 0;
  for (urdf_node *c = root->children; c && rc == TEAL_OK; c = c->next) {
    if (urdf_is(c, "world")) {
      rc = worlds++ ? urdf_fail(doc, c, TEAL_EPARSE, "more than one <world>")
                    : parse_world(s, doc, c, depth);
    } else if (urdf_is(c, "model")) {
      rc = sdf_parse_model(s, doc, c, SDF_WORLD, depth, NULL, NULL, NULL, -1);
    } else {
      urdf_warn(doc, c, &s->ureport.ignored_elements, "unsupported element ignored");
    }
  }
  return rc;
}
