/* Geometry registration on plant bodies (see plant_geometry.h). */
#include "multibody/contact/plant_geometry.h"

#include <math.h>

#include "framework/alloc.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/tree/plant_internal.h"

/* Names are unique per (body, role): the record's instance field holds
 * that key so the generic name lookup can check it. */
static int name_key(int body, teal_geometry_role role) {
  return body * 4 + (int)role;
}

static int check_props(teal_plant *p, const char *name, const teal_proximity_properties *pp) {
  if (!teal_proximity_properties_valid(pp)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: collision geometry '%s' needs Coulomb friction with static >= "
                           "dynamic >= 0, stiffness > 0, dissipation >= 0 and relaxation "
                           "time >= 0 (or NaN for the defaults), and a hydroelastic modulus "
                           "that is finite and > 0 for a soft geometry (NaN or 0 when unset, "
                           "never negative)%s",
                           name, NULL);
  }
  return TEAL_OK;
}

/* 1 when the shape is valid and every number it holds is finite (the
 * shape check does not look at every vertex of a hand-filled convex). */
static int shape_ok(const teal_shape *shape) {
  if (!teal_shape_is_valid(shape)) {
    return 0;
  }
  for (int i = 0; shape->kind == TEAL_SHAPE_CONVEX && i < shape->num_vertices; i++) {
    if (!teal_vec3_is_finite(shape->vertices[i])) {
      return 0;
    }
  }
  return 1;
}

/* X_BG must be finite (TEAL_ENONFINITE) and its R a proper rotation,
 * orthonormal to 1e-9 (as the plant's frames) with determinant +1. */
static int check_pose(teal_plant *p, const char *name, teal_transform X_BG) {
  int finite = teal_vec3_is_finite(X_BG.p);
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(X_BG.R.m[i]);
  }
  if (!finite) {
    return teal_plant_fail(p, TEAL_ENONFINITE,
                           "plant: geometry '%s': its pose X_BG is not "
                           "finite%s",
                           name, NULL);
  }
  if (!teal_rotation_is_orthonormal(X_BG.R, 1e-9)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: geometry '%s': X_BG.R is not a rotation (it "
                           "must be orthonormal to 1e-9 with determinant +1)%s",
                           name, NULL);
  }
  return TEAL_OK;
}

static int register_geometry(teal_plant *p, int body, teal_transform X_BG, const teal_shape *shape,
                             const char *name, teal_geometry_role role) {
  int rc = teal_plant_check_open(p, "geometry", name);
  if (rc) {
    return rc;
  }
  if (body < 0 || body >= p->bodies.n || !shape_ok(shape)) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: geometry '%s' needs a valid body and shape%s",
                           name, NULL);
  }
  if ((rc = check_pose(p, name, X_BG))) {
    return rc;
  }
  if (teal_plant_find_name(&p->geometries, sizeof(geometry_rec), name, name_key(body, role)) >= 0) {
    return teal_plant_fail(p, TEAL_EDUPLICATE,
                           "plant: geometry '%s' already exists on body '%s' in that role", name,
                           BODY(p)[body].name);
  }
  geometry_rec *g = teal_plant_list_push(&p->geometries, sizeof(geometry_rec));
  char *nm = g ? teal_strdup(name) : NULL;
  if (!nm || teal_shape_copy(&g->g.shape, shape) != TEAL_OK) {
    teal_free(nm);
    if (g) {
      p->geometries.n--;
    }
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding geometry '%s'%s", name,
                           NULL);
  }
  g->name = nm;
  g->instance = name_key(body, role);
  g->g.body = body;
  g->g.X_BG = X_BG;
  g->g.name = nm;
  g->g.role = role;
  teal_plant_list_index(&p->geometries, sizeof(geometry_rec));
  return p->geometries.n - 1;
}

int teal_plant_register_collision_geometry(teal_plant *p, int body, teal_transform X_BG,
                                           const teal_shape *shape, const char *name,
                                           const teal_proximity_properties *props) {
  int rc = teal_plant_check_open(p, "geometry", name);
  if (rc == TEAL_OK && shape && shape->kind == TEAL_SHAPE_MESH) {
    rc = teal_plant_fail(p, TEAL_EINVAL,
                         "plant: mesh '%s' can only be visual geometry (no mesh collisions)%s",
                         name, NULL);
  }
  if (rc == TEAL_OK) {
    rc = check_props(p, name, props);
  }
  int i = rc ? rc : register_geometry(p, body, X_BG, shape, name, TEAL_ROLE_PROXIMITY);
  if (i >= 0) {
    GEOM(p)[i].g.proximity = *props;
  }
  return i;
}

int teal_plant_register_visual_geometry(teal_plant *p, int body, teal_transform X_BG,
                                        const teal_shape *shape, const char *name,
                                        const double rgba[4]) {
  static const double grey[4] = {0.7, 0.7, 0.7, 1.0};
  const double *c = rgba ? rgba : grey;
  for (int k = 0; k < 4 && p && p->err.code == TEAL_OK; k++) {
    if (!(c[k] >= 0.0 && c[k] <= 1.0)) {
      return teal_plant_fail(p, TEAL_EINVAL, "plant: visual geometry '%s' needs rgba in [0, 1]%s",
                             name ? name : "(null)", NULL);
    }
  }
  int i = register_geometry(p, body, X_BG, shape, name, TEAL_ROLE_ILLUSTRATION);
  if (i >= 0) {
    for (int k = 0; k < 4; k++) {
      GEOM(p)[i].g.rgba[k] = c[k];
    }
  }
  return i;
}

int teal_plant_num_geometries(const teal_plant *p) {
  return p ? p->geometries.n : 0;
}

const teal_plant_geometry *teal_plant_get_geometry(const teal_plant *p, int i) {
  return p && i >= 0 && i < p->geometries.n ? &GEOM(p)[i].g : NULL;
}

/* ---- queries by body and role -------------------------------------------------- */

static int count_role(const teal_plant *p, teal_geometry_role role) {
  int n = 0;
  for (int i = 0; p && i < p->geometries.n; i++) {
    n += GEOM(p)[i].g.role == role;
  }
  return n;
}

int teal_plant_num_collision_geometries(const teal_plant *p) {
  return count_role(p, TEAL_ROLE_PROXIMITY);
}

int teal_plant_num_visual_geometries(const teal_plant *p) {
  return count_role(p, TEAL_ROLE_ILLUSTRATION);
}

/* Checks an output array: out may be NULL with cap 0 (a count query);
 * otherwise it needs room for n entries. */
static int check_out(const char *fn, const int *out, int cap, int n, teal_error *err) {
  if (cap < 0 || (cap > 0 && !out)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: bad output array (cap %d, out %s)", fn, cap,
                          out ? "set" : "NULL");
  }
  if (out && cap < n) {
    return teal_error_set(err, TEAL_ESIZE, "%s: the output holds %d entries, %d are needed", fn,
                          cap, n);
  }
  return TEAL_OK;
}

static int check_body(const teal_plant *p, const char *fn, int body, teal_error *err) {
  if (!p) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
  }
  if (body < 0 || body >= p->bodies.n) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: no body %d (the plant has %d)", fn, body,
                          p->bodies.n);
  }
  return TEAL_OK;
}

static int geometries_for_body(const teal_plant *p, int body, teal_geometry_role role,
                               const char *fn, int *out, int cap, teal_error *err) {
  int rc = check_body(p, fn, body, err);
  if (rc) {
    return rc;
  }
  int n = 0;
  for (int i = 0; i < p->geometries.n; i++) {
    n += GEOM(p)[i].g.body == body && GEOM(p)[i].g.role == role;
  }
  if ((rc = check_out(fn, out, cap, n, err)) || !out) {
    return rc ? rc : n;
  }
  for (int i = 0, k = 0; i < p->geometries.n; i++) {
    if (GEOM(p)[i].g.body == body && GEOM(p)[i].g.role == role) {
      out[k++] = i;
    }
  }
  return n;
}

int teal_plant_get_collision_geometries_for_body(const teal_plant *p, int body, int *out, int cap,
                                                 teal_error *err) {
  return geometries_for_body(p, body, TEAL_ROLE_PROXIMITY,
                             "teal_plant_get_collision_geometries_for_body", out, cap, err);
}

int teal_plant_get_visual_geometries_for_body(const teal_plant *p, int body, int *out, int cap,
                                              teal_error *err) {
  return geometries_for_body(p, body, TEAL_ROLE_ILLUSTRATION,
                             "teal_plant_get_visual_geometries_for_body", out, cap, err);
}

/* Checks a list of bodies; on success fills mark[b] = 1 for each. */
static int check_bodies(const teal_plant *p, const char *fn, const char *what, const int *bodies,
                        int n, char *mark, teal_error *err) {
  if (n < 0 || (n > 0 && !bodies)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s: bad body list (%d bodies, array %s)", fn, what,
                          n, bodies ? "set" : "NULL");
  }
  for (int i = 0; i < n; i++) {
    if (bodies[i] < 0 || bodies[i] >= p->bodies.n) {
      return teal_error_set(err, TEAL_ENOTFOUND,
                            "%s: %s: entry %d is no body (%d; the plant has "
                            "%d)",
                            fn, what, i, bodies[i], p->bodies.n);
    }
    mark[bodies[i]] = 1;
  }
  return TEAL_OK;
}

int teal_plant_collect_registered_geometries(const teal_plant *p, const int *bodies, int num_bodies,
                                             int *out, int cap, teal_error *err) {
  static const char fn[] = "teal_plant_collect_registered_geometries";
  if (!p) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
  }
  char *mark = teal_calloc((size_t)p->bodies.n + 1, 1);
  if (!mark) {
    return teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
  }
  int rc = check_bodies(p, fn, "bodies", bodies, num_bodies, mark, err);
  int n = 0;
  for (int i = 0; rc == TEAL_OK && i < p->geometries.n; i++) {
    n += mark[GEOM(p)[i].g.body];
  }
  if (rc == TEAL_OK) {
    rc = check_out(fn, out, cap, n, err);
  }
  for (int i = 0, k = 0; rc == TEAL_OK && out && i < p->geometries.n; i++) {
    if (mark[GEOM(p)[i].g.body]) {
      out[k++] = i;
    }
  }
  teal_free(mark);
  return rc ? rc : n;
}

/* ---- welded bodies ------------------------------------------------------------------ */

static int weld_find(int *root, int b) {
  while (root[b] != b) {
    root[b] = root[root[b]];
    b = root[b];
  }
  return b;
}

void teal_plant_weld_groups(const teal_plant *p, int *root) {
  for (int b = 0; b < p->bodies.n; b++) {
    root[b] = b;
  }
  for (int j = 0; j < p->joints.n; j++) {
    if (JOINT(p)[j].kind != TEAL_JOINT_WELD) {
      continue;
    }
    int a = weld_find(root, FRAME(p)[JOINT(p)[j].parent_frame].body);
    int c = weld_find(root, FRAME(p)[JOINT(p)[j].child_frame].body);
    /* the lower index becomes the root, so a root is its group's minimum */
    if (a < c) {
      root[c] = a;
    } else {
      root[a] = c;
    }
  }
  for (int b = 0; b < p->bodies.n; b++) {
    root[b] = weld_find(root, b);
  }
}

/* The weld groups of the plant's bodies (caller frees), or NULL with
 * TEAL_ENOMEM reported for fn. */
static int *weld_groups_or_report(const teal_plant *p, const char *fn, int *rc, teal_error *err) {
  int *root = teal_calloc((size_t)p->bodies.n, sizeof(int));
  if (!root) {
    *rc = teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  teal_plant_weld_groups(p, root);
  return root;
}

int teal_plant_get_bodies_welded_to(const teal_plant *p, int body, int *out, int cap,
                                    teal_error *err) {
  static const char fn[] = "teal_plant_get_bodies_welded_to";
  int rc = check_body(p, fn, body, err);
  if (rc) {
    return rc;
  }
  int *root = weld_groups_or_report(p, fn, &rc, err);
  if (!root) {
    return rc;
  }
  int n = 0;
  for (int b = 0; b < p->bodies.n; b++) {
    n += root[b] == root[body];
  }
  rc = check_out(fn, out, cap, n, err);
  for (int b = 0, k = 0; rc == TEAL_OK && out && b < p->bodies.n; b++) {
    if (root[b] == root[body]) {
      out[k++] = b;
    }
  }
  teal_free(root);
  return rc ? rc : n;
}

int teal_plant_is_anchored(const teal_plant *p, int body, teal_error *err) {
  static const char fn[] = "teal_plant_is_anchored";
  int rc = check_body(p, fn, body, err);
  if (rc) {
    return rc;
  }
  int *root = weld_groups_or_report(p, fn, &rc, err);
  if (!root) {
    return rc;
  }
  int anchored = root[body] == root[TEAL_WORLD_BODY];
  teal_free(root);
  return anchored;
}

/* ---- collision filters declared through the plant --------------------------------- */

static int filter_open(teal_plant *p, const char *fn) {
  if (!p) {
    return TEAL_EINVAL;
  }
  if (p->err.code != TEAL_OK) {
    return p->err.code;
  }
  if (p->sg_source1) {
    return teal_error_set_sticky(&p->err, TEAL_ESTATE,
                                 "%s: the plant is already registered with its scene graph "
                                 "(declare collision filters before: before its finalize when "
                                 "given to teal_add_plant_and_scene_graph first, else before "
                                 "that call)",
                                 fn);
  }
  return TEAL_OK;
}

static int check_group(teal_plant *p, const char *fn, const teal_collision_filter_group *g,
                       char *mark) {
  const char *name = g && g->name ? g->name : "(unnamed)";
  if (!g) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL, "%s: NULL collision filter group", fn);
  }
  return check_bodies(p, fn, name, g->bodies, g->num_bodies, mark, &p->err);
}

/* Records every body pair (a in A, b in B, a != b); all or nothing. */
static int record_pairs(teal_plant *p, const char *fn, const teal_collision_filter_group *ga,
                        const teal_collision_filter_group *gb) {
  int n0 = p->filter_pairs.n;
  for (int i = 0; i < ga->num_bodies; i++) {
    for (int k = 0; k < gb->num_bodies; k++) {
      int a = ga->bodies[i], b = gb->bodies[k];
      if (a == b) {
        continue; /* geometries of one body never collide anyway */
      }
      filter_pair_rec *r = teal_plant_list_push(&p->filter_pairs, sizeof(filter_pair_rec));
      if (!r) {
        p->filter_pairs.n = n0;
        return teal_error_set_sticky(&p->err, TEAL_ENOMEM, "%s: out of memory", fn);
      }
      r->a = a < b ? a : b;
      r->b = a < b ? b : a;
    }
  }
  return TEAL_OK;
}

int teal_plant_exclude_collision_geometries_with_collision_filter_group_pair(
    teal_plant *p, const teal_collision_filter_group *group_a,
    const teal_collision_filter_group *group_b) {
  static const char fn[] =
      "teal_plant_exclude_collision_geometries_with_collision_filter_group_pair";
  int rc = filter_open(p, fn);
  if (rc) {
    return rc;
  }
  char *mark = teal_calloc((size_t)p->bodies.n + 1, 1);
  if (!mark) {
    return teal_error_set_sticky(&p->err, TEAL_ENOMEM, "%s: out of memory", fn);
  }
  rc = check_group(p, fn, group_a, mark);
  if (rc == TEAL_OK) {
    rc = check_group(p, fn, group_b, mark);
  }
  teal_free(mark);
  return rc ? rc : record_pairs(p, fn, group_a, group_b);
}

int teal_plant_exclude_collisions_between_bodies(teal_plant *p, int body_a, int body_b) {
  static const char fn[] = "teal_plant_exclude_collisions_between_bodies";
  int rc = filter_open(p, fn);
  if (rc) {
    return rc;
  }
  if (body_a < 0 || body_a >= p->bodies.n || body_b < 0 || body_b >= p->bodies.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "%s: no body pair (%d, %d) (the plant "
                                 "has %d bodies)",
                                 fn, body_a, body_b, p->bodies.n);
  }
  teal_collision_filter_group a = {"a", &body_a, 1}, b = {"b", &body_b, 1};
  return record_pairs(p, fn, &a, &b);
}

int teal_plant_exclude_collision_geometry_pair(teal_plant *p, int geometry_a, int geometry_b) {
  static const char fn[] = "teal_plant_exclude_collision_geometry_pair";
  int rc = filter_open(p, fn);
  if (rc) {
    return rc;
  }
  int n = p->geometries.n;
  if (geometry_a < 0 || geometry_a >= n || geometry_b < 0 || geometry_b >= n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "%s: no geometry pair (%d, %d) (the plant has %d geometries)", fn,
                                 geometry_a, geometry_b, n);
  }
  if (geometry_a == geometry_b) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                 "%s: geometry %d ('%s') given twice (a pair needs two)", fn,
                                 geometry_a, GEOM(p)[geometry_a].name);
  }
  int ids[2] = {geometry_a, geometry_b};
  for (int k = 0; k < 2; k++) {
    if (GEOM(p)[ids[k]].g.role != TEAL_ROLE_PROXIMITY) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "%s: geometry %d ('%s') is not a collision geometry", fn, ids[k],
                                   GEOM(p)[ids[k]].name);
    }
  }
  filter_pair_rec *r = teal_plant_list_push(&p->filter_pairs, sizeof(filter_pair_rec));
  if (!r) {
    return teal_error_set_sticky(&p->err, TEAL_ENOMEM, "%s: out of memory", fn);
  }
  r->a = geometry_a < geometry_b ? geometry_a : geometry_b;
  r->b = geometry_a < geometry_b ? geometry_b : geometry_a;
  r->geometries = 1;
  return TEAL_OK;
}

/* ---- scene graph ids ------------------------------------------------------------ */

int teal_plant_geometry_source_is_registered(const teal_plant *p) {
  return p && p->sg_source1 > 0;
}

int teal_plant_get_source_id(const teal_plant *p) {
  return p && p->sg_source1 > 0 ? p->sg_source1 - 1 : -1;
}

int teal_plant_get_body_frame_id_if_exists(const teal_plant *p, int body) {
  int ok = teal_plant_geometry_source_is_registered(p) && body >= 0 && body < p->bodies.n;
  return ok ? p->sg_frame0 + body : -1;
}

int teal_plant_get_body_frame_id(const teal_plant *p, int body, teal_error *err) {
  static const char fn[] = "teal_plant_get_body_frame_id";
  int rc = check_body(p, fn, body, err);
  if (rc == TEAL_OK && !p->sg_source1) {
    rc = teal_error_set(err, TEAL_ESTATE,
                        "%s: the plant has no scene graph frames yet (wire it with "
                        "teal_add_plant_and_scene_graph first)",
                        fn);
  }
  return rc ? rc : p->sg_frame0 + body;
}

int teal_plant_get_body_from_frame_id(const teal_plant *p, int frame_id) {
  if (!teal_plant_geometry_source_is_registered(p) || frame_id < p->sg_frame0) {
    return -1;
  }
  int body = frame_id - p->sg_frame0;
  return body < p->bodies.n ? body : -1;
}
