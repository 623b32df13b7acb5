/* Constraint objects: the query by index and the parameter updates while
 * the plant is open (see constraint_access.h). */
#include "multibody/constraints/constraint_access.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/constraints/constraint_internal.h"
#include "multibody/constraints/constraint_specs.h"

/* The info of a record, the unused fields cleared. */
static void fill_info(const teal_plant *p, const constraint_rec *r, teal_constraint_info *info) {
  memset(info, 0, sizeof(*info));
  info->kind = r->kind;
  info->body_a = r->body_a;
  info->body_b = r->body_b;
  info->joint0 = r->joint0;
  info->joint1 = r->joint1;
  info->X_AP = r->kind == TEAL_CONSTRAINT_POINT_IN_PLANE ? teal_transform_identity() : r->X_AP;
  info->X_BQ = r->X_BQ;
  info->axis_a = r->dir_a;
  info->axis_b = r->dir_b;
  info->gear_ratio = r->ratio;
  info->offset = r->offset;
  info->distance = r->distance;
  info->height = r->height;
  if (r->kind == TEAL_CONSTRAINT_DISTANCE) {
    int fe = r->force_element;
    info->stiffness = fe >= 0 ? FORCE(p)[fe].k : INFINITY;
    info->damping = fe >= 0 ? FORCE(p)[fe].d : 0.0;
  }
  if (r->kind == TEAL_CONSTRAINT_CONSTANT_ANGLE) {
    info->angle = acos(fmax(-1.0, fmin(1.0, r->cos_angle)));
  }
  info->rows = r->rows;
  info->row_start = p->finalized ? r->row_start : -1;
  info->default_enabled = r->default_enabled;
  info->force_element = r->force_element;
}

int teal_plant_get_constraint(const teal_plant *p, int c, teal_constraint_info *info,
                              teal_error *err) {
  static const char fn[] = "plant get_constraint";
  if (!p || !info) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s is NULL", fn, p ? "info" : "plant");
  }
  if (c < 0 || c >= p->constraints.n) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: unknown constraint %d (the plant has %d)", fn,
                          c, p->constraints.n);
  }
  fill_info(p, &CONSTRAINT(p)[c], info);
  return TEAL_OK;
}

static const char *const kKindNames[] = {"coupler",        "distance",      "ball",          "weld",
                                         "point-in-plane", "point-on-line", "constant-angle"};

/* The record of an update of constraint c of kind, the plant open, or NULL
 * with *rc the sticky error. */
static constraint_rec *updatable(teal_plant *p, int c, int kind, int *rc) {
  *rc = teal_plant_check_open(p, "constraint", kKindNames[kind]);
  if (*rc) {
    return NULL;
  }
  char msg[160];
  if (c < 0 || c >= p->constraints.n) {
    snprintf(msg, sizeof(msg), "%d (the plant has %d)", c, p->constraints.n);
    *rc =
        teal_plant_fail(p, TEAL_ENOTFOUND, "plant: update of an unknown constraint %s%s", msg, "");
    return NULL;
  }
  constraint_rec *r = &CONSTRAINT(p)[c];
  if (r->kind != kind) {
    snprintf(msg, sizeof(msg), "constraint %d is a %s constraint, not a", c, kKindNames[r->kind]);
    *rc = teal_plant_fail(p, TEAL_EINVAL, "plant: %s %s constraint", msg, kKindNames[kind]);
    return NULL;
  }
  return r;
}

/* A sticky error naming a parameter of kind and its value. */
static int bad_value(teal_plant *p, int code, const char *kind, const char *what, double x) {
  char msg[160];
  snprintf(msg, sizeof(msg), "%s constraint: %s %g", kind, what, x);
  return teal_plant_fail(p, code, "plant: %s %s", msg,
                         code == TEAL_ENONFINITE ? "is not finite" : "is out of range");
}

int teal_plant_set_coupler_constraint_parameters(teal_plant *p, int c, double gear_ratio,
                                                 double offset) {
  int rc;
  constraint_rec *r = updatable(p, c, TEAL_CONSTRAINT_COUPLER, &rc);
  if (r && !isfinite(gear_ratio)) {
    return bad_value(p, TEAL_ENONFINITE, "coupler", "gear ratio", gear_ratio);
  }
  if (r && !isfinite(offset)) {
    return bad_value(p, TEAL_ENONFINITE, "coupler", "offset", offset);
  }
  if (r) {
    r->ratio = gear_ratio;
    r->offset = offset;
  }
  return rc;
}

int teal_plant_set_distance_constraint_length(teal_plant *p, int c, double distance) {
  int rc;
  constraint_rec *r = updatable(p, c, TEAL_CONSTRAINT_DISTANCE, &rc);
  if (r && r->force_element >= 0) {
    return teal_plant_fail(p, TEAL_EUNSUPPORTED,
                           "plant: distance constraint: a compliant one is the force element "
                           "'%s'; change its spring instead%s",
                           "linear spring-damper", "");
  }
  if (r && !isfinite(distance)) {
    return bad_value(p, TEAL_ENONFINITE, "distance", "length", distance);
  }
  if (r && !(distance > 0.0)) {
    return bad_value(p, TEAL_EINVAL, "distance", "length (must be > 0)", distance);
  }
  if (r) {
    r->distance = distance;
  }
  return rc;
}

int teal_plant_set_point_in_plane_constraint_height(teal_plant *p, int c, double height) {
  int rc;
  constraint_rec *r = updatable(p, c, TEAL_CONSTRAINT_POINT_IN_PLANE, &rc);
  if (r && !isfinite(height)) {
    return bad_value(p, TEAL_ENONFINITE, "point-in-plane", "height", height);
  }
  if (r) {
    r->height = height;
    r->X_AP.p = teal_vec3_scale(r->dir_a, height); /* the plane's point nearest Ao */
  }
  return rc;
}

int teal_plant_set_constant_angle_constraint_angle(teal_plant *p, int c, double angle) {
  int rc;
  constraint_rec *r = updatable(p, c, TEAL_CONSTRAINT_CONSTANT_ANGLE, &rc);
  if (r && !isfinite(angle)) {
    return bad_value(p, TEAL_ENONFINITE, "constant-angle", "angle", angle);
  }
  if (r && (angle < 0.0 || angle > acos(-1.0))) {
    return bad_value(p, TEAL_EINVAL, "constant-angle", "angle (must be in [0, pi])", angle);
  }
  if (r) {
    r->cos_angle = cos(angle);
  }
  return rc;
}
