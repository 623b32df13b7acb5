/* Constraint specs: the adds, their checks, the counts and the row layout
 * made at finalize (see constraint_specs.h). */
#include "multibody/constraints/constraint_specs.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "multibody/constraints/constraint_internal.h"
#include "multibody/forces/force_elements.h"

/* A sticky error with a formatted message. */
static int fail(teal_plant *p, int code, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return teal_plant_fail(p, code, "%s%s", msg, "");
}

static int vec_finite(teal_vec3 a) {
  return teal_vec3_is_finite(a);
}

/* The entry checks of an add: plant open, bodies known and distinct. */
static int check_bodies(teal_plant *p, const char *what, int body_a, int body_b) {
  int rc = teal_plant_check_open(p, "constraint", what);
  if (rc) {
    return rc;
  }
  int a_known = body_a >= 0 && body_a < p->bodies.n;
  if (!a_known || body_b < 0 || body_b >= p->bodies.n) {
    return fail(p, TEAL_ENOTFOUND, "plant: %s constraint: unknown body %d (the plant has %d)", what,
                a_known ? body_b : body_a, p->bodies.n);
  }
  if (body_a == body_b) {
    return fail(p, TEAL_EINVAL, "plant: %s constraint between body '%s' and itself", what,
                BODY(p)[body_a].name);
  }
  return TEAL_OK;
}

/* A unit vector along a (finite, length >= 1e-12; scaled first so that
 * no finite length overflows), or a sticky error naming what. */
static int unit_axis(teal_plant *p, const char *kind, const char *what, teal_vec3 a, teal_vec3 *u) {
  if (!vec_finite(a)) {
    return fail(p, TEAL_ENONFINITE, "plant: %s constraint: %s is not finite", kind, what);
  }
  double s = fmax(fabs(a.v[0]), fmax(fabs(a.v[1]), fabs(a.v[2])));
  double n = s > 0.0 ? teal_vec3_norm(teal_vec3_scale(a, 1.0 / s)) * s : 0.0;
  if (!(n >= 1e-12)) {
    return fail(p, TEAL_EINVAL, "plant: %s constraint: %s has zero length", kind, what);
  }
  *u = teal_vec3_scale(teal_vec3_scale(a, 1.0 / s), s / n);
  return TEAL_OK;
}

static int points_finite(teal_plant *p, const char *kind, teal_vec3 a, teal_vec3 b) {
  if (!vec_finite(a) || !vec_finite(b)) {
    return fail(p, TEAL_ENONFINITE, "plant: %s constraint: a point is not finite", kind);
  }
  return TEAL_OK;
}

/* Appends a record of kind with rows rows between bodies a and b. */
static constraint_rec *push(teal_plant *p, int kind, int rows, int a, int b) {
  constraint_rec *c = teal_plant_list_push(&p->constraints, sizeof(constraint_rec));
  if (!c) {
    fail(p, TEAL_ENOMEM, "plant: out of memory adding a constraint");
    return NULL;
  }
  c->kind = kind;
  c->rows = rows;
  c->body_a = a;
  c->body_b = b;
  c->joint0 = c->joint1 = c->force_element = -1;
  c->X_AP = c->X_BQ = teal_transform_identity();
  c->default_enabled = 1;
  c->row_start = -1;
  return c;
}

static int index_of_last(const teal_plant *p) {
  return p->constraints.n - 1;
}

/* A single-dof joint of a coupler, or a sticky error. */
static int coupler_joint(teal_plant *p, int j, const char *which) {
  if (j < 0 || j >= p->joints.n) {
    return fail(p, TEAL_ENOTFOUND, "plant: coupler constraint: unknown %s %d (the plant has %d)",
                which, j, p->joints.n);
  }
  const teal_joint_type *t = teal_joint_type_get(JOINT(p)[j].kind);
  if (!t || t->nv != 1 || t->nq != 1) {
    return fail(p, TEAL_EINVAL, "plant: coupler constraint: %s '%s' is not a single-dof joint",
                which, JOINT(p)[j].name);
  }
  return TEAL_OK;
}

int teal_plant_add_coupler_constraint(teal_plant *p, int joint0, int joint1, double gear_ratio,
                                      double offset) {
  int rc = teal_plant_check_open(p, "constraint", "coupler");
  rc = rc ? rc : coupler_joint(p, joint0, "joint0");
  rc = rc ? rc : coupler_joint(p, joint1, "joint1");
  if (rc) {
    return rc;
  }
  if (joint0 == joint1) {
    return fail(p, TEAL_EINVAL, "plant: coupler constraint between joint '%s' and itself",
                JOINT(p)[joint0].name);
  }
  if (!isfinite(gear_ratio) || !isfinite(offset)) {
    return fail(p, TEAL_ENONFINITE,
                "plant: coupler constraint: gear ratio %g or offset %g is "
                "not finite",
                gear_ratio, offset);
  }
  constraint_rec *c = push(p, TEAL_CONSTRAINT_COUPLER, 1, -1, -1);
  if (!c) {
    return TEAL_ENOMEM;
  }
  c->joint0 = joint0;
  c->joint1 = joint1;
  c->ratio = gear_ratio;
  c->offset = offset;
  return index_of_last(p);
}

/* The checks of a distance constraint's numbers. */
static int check_distance(teal_plant *p, double d, double k, double damping) {
  if (isnan(d) || isnan(k) || isnan(damping) || isinf(d) || isinf(damping) || k == -INFINITY) {
    return fail(p, TEAL_ENONFINITE,
                "plant: distance constraint: distance %g, stiffness %g or "
                "damping %g is not finite",
                d, k, damping);
  }
  if (d <= 0.0 || k <= 0.0 || damping < 0.0 || (isinf(k) && damping != 0.0)) {
    return fail(p, TEAL_EINVAL,
                "plant: distance constraint needs distance > 0 (got %g), "
                "stiffness > 0 (%g) and damping >= 0 (%g), 0 when rigid",
                d, k, damping);
  }
  return TEAL_OK;
}

int teal_plant_add_distance_constraint(teal_plant *p, int body_A, teal_vec3 p_AP, int body_B,
                                       teal_vec3 p_BQ, double distance, double stiffness,
                                       double damping) {
  int rc = check_bodies(p, "distance", body_A, body_B);
  rc = rc ? rc : points_finite(p, "distance", p_AP, p_BQ);
  rc = rc ? rc : check_distance(p, distance, stiffness, damping);
  if (rc) {
    return rc;
  }
  int fe = -1;
  if (isfinite(stiffness)) {
    fe = teal_plant_add_linear_spring_damper(p, body_A, p_AP, body_B, p_BQ, distance, stiffness,
                                             damping);
    if (fe < 0) {
      return fe;
    }
  }
  constraint_rec *c = push(p, TEAL_CONSTRAINT_DISTANCE, fe < 0 ? 1 : 0, body_A, body_B);
  if (!c) {
    return TEAL_ENOMEM;
  }
  c->X_AP.p = p_AP;
  c->X_BQ.p = p_BQ;
  c->distance = distance;
  c->force_element = fe;
  return index_of_last(p);
}

int teal_plant_add_ball_constraint(teal_plant *p, int body_A, teal_vec3 p_AP, int body_B,
                                   teal_vec3 p_BQ) {
  int rc = check_bodies(p, "ball", body_A, body_B);
  rc = rc ? rc : points_finite(p, "ball", p_AP, p_BQ);
  if (rc) {
    return rc;
  }
  constraint_rec *c = push(p, TEAL_CONSTRAINT_BALL, 3, body_A, body_B);
  if (!c) {
    return TEAL_ENOMEM;
  }
  c->X_AP.p = p_AP;
  c->X_BQ.p = p_BQ;
  return index_of_last(p);
}

/* A pose with a finite, proper rotation. */
static int check_pose(teal_plant *p, teal_transform X, const char *what) {
  int finite = vec_finite(X.p);
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(X.R.m[i]);
  }
  if (!finite) {
    return fail(p, TEAL_ENONFINITE, "plant: weld constraint: %s is not finite", what);
  }
  if (!teal_rotation_is_orthonormal(X.R, 1e-9) || teal_mat3_det(X.R) < 0.0) {
    return fail(p, TEAL_EINVAL, "plant: weld constraint: the rotation of %s is not proper", what);
  }
  return TEAL_OK;
}

int teal_plant_add_weld_constraint(teal_plant *p, int body_A, teal_transform X_AP, int body_B,
                                   teal_transform X_BQ) {
  int rc = check_bodies(p, "weld", body_A, body_B);
  rc = rc ? rc : check_pose(p, X_AP, "X_AP");
  rc = rc ? rc : check_pose(p, X_BQ, "X_BQ");
  if (rc) {
    return rc;
  }
  constraint_rec *c = push(p, TEAL_CONSTRAINT_WELD, 6, body_A, body_B);
  if (!c) {
    return TEAL_ENOMEM;
  }
  c->X_AP = X_AP;
  c->X_BQ = X_BQ;
  return index_of_last(p);
}

int teal_plant_add_point_in_plane_constraint(teal_plant *p, int body_A, teal_vec3 normal_A,
                                             double height, int body_B, teal_vec3 p_BS) {
  teal_vec3 n;
  int rc = check_bodies(p, "point-in-plane", body_A, body_B);
  rc = rc ? rc : points_finite(p, "point-in-plane", p_BS, p_BS);
  rc = rc ? rc : unit_axis(p, "point-in-plane", "the normal", normal_A, &n);
  if (!rc && !isfinite(height)) {
    rc = fail(p, TEAL_ENONFINITE, "plant: point-in-plane constraint: height %g is not finite",
              height);
  }
  if (rc) {
    return rc;
  }
  constraint_rec *c = push(p, TEAL_CONSTRAINT_POINT_IN_PLANE, 1, body_A, body_B);
  if (!c) {
    return TEAL_ENOMEM;
  }
  c->dir_a = n;
  c->height = height;
  c->X_AP.p = teal_vec3_scale(n, height); /* the plane's point nearest Ao */
  c->X_BQ.p = p_BS;
  return index_of_last(p);
}

/* Two unit normals of the unit direction d, completing a right-handed
 * frame (n1, n2, d). */
static void line_normals(teal_vec3 d, teal_vec3 *n1, teal_vec3 *n2) {
  int k = fabs(d.v[0]) <= fabs(d.v[1]) ? (fabs(d.v[0]) <= fabs(d.v[2]) ? 0 : 2)
                                       : (fabs(d.v[1]) <= fabs(d.v[2]) ? 1 : 2);
  teal_vec3 e = teal_vec3_zero();
  e.v[k] = 1.0;
  teal_vec3 c = teal_vec3_cross(e, d);
  *n1 = teal_vec3_scale(c, 1.0 / teal_vec3_norm(c));
  *n2 = teal_vec3_cross(d, *n1);
}

int teal_plant_add_point_on_line_constraint(teal_plant *p, int body_A, teal_vec3 direction_A,
                                            teal_vec3 p_AL, int body_B, teal_vec3 p_BS) {
  teal_vec3 d;
  int rc = check_bodies(p, "point-on-line", body_A, body_B);
  rc = rc ? rc : points_finite(p, "point-on-line", p_AL, p_BS);
  rc = rc ? rc : unit_axis(p, "point-on-line", "the direction", direction_A, &d);
  if (rc) {
    return rc;
  }
  constraint_rec *c = push(p, TEAL_CONSTRAINT_POINT_ON_LINE, 2, body_A, body_B);
  if (!c) {
    return TEAL_ENOMEM;
  }
  c->dir_a = d;
  line_normals(d, &c->perp1, &c->perp2);
  c->X_AP.p = p_AL;
  c->X_BQ.p = p_BS;
  return index_of_last(p);
}

int teal_plant_add_constant_angle_constraint(teal_plant *p, int body_A, teal_vec3 a_A, int body_B,
                                             teal_vec3 b_B, double angle) {
  teal_vec3 a, b;
  int rc = check_bodies(p, "constant-angle", body_A, body_B);
  rc = rc ? rc : unit_axis(p, "constant-angle", "axis a", a_A, &a);
  rc = rc ? rc : unit_axis(p, "constant-angle", "axis b", b_B, &b);
  if (!rc && !isfinite(angle)) {
    rc =
        fail(p, TEAL_ENONFINITE, "plant: constant-angle constraint: angle %g is not finite", angle);
  } else if (!rc && (angle < 0.0 || angle > acos(-1.0))) {
    rc = fail(p, TEAL_EINVAL, "plant: constant-angle constraint: angle %g is outside [0, pi]",
              angle);
  }
  if (rc) {
    return rc;
  }
  constraint_rec *c = push(p, TEAL_CONSTRAINT_CONSTANT_ANGLE, 1, body_A, body_B);
  if (!c) {
    return TEAL_ENOMEM;
  }
  c->dir_a = a;
  c->dir_b = b;
  c->cos_angle = cos(angle);
  return index_of_last(p);
}

/* ---- queries ----------------------------------------------------------------- */

/* Constraint c of p, or NULL with *rc the reason. */
static const constraint_rec *find(const teal_plant *p, int c, int *rc) {
  *rc = !p ? TEAL_EINVAL : (c < 0 || c >= p->constraints.n) ? TEAL_ENOTFOUND : TEAL_OK;
  return *rc ? NULL : &CONSTRAINT(p)[c];
}

int teal_plant_num_constraints(const teal_plant *p) {
  return p ? p->constraints.n : TEAL_EINVAL;
}

int teal_plant_constraint_kind(const teal_plant *p, int c) {
  int rc;
  const constraint_rec *r = find(p, c, &rc);
  return r ? r->kind : rc;
}

int teal_plant_constraint_num_rows(const teal_plant *p, int c) {
  int rc;
  const constraint_rec *r = find(p, c, &rc);
  return r ? r->rows : rc;
}

int teal_plant_constraint_row_start(const teal_plant *p, int c) {
  int rc;
  const constraint_rec *r = find(p, c, &rc);
  return !r ? rc : p->finalized ? r->row_start : TEAL_ESTATE;
}

int teal_plant_num_constraint_rows(const teal_plant *p) {
  return !p ? TEAL_EINVAL : p->finalized ? p->nc_rows : TEAL_ESTATE;
}

int teal_plant_constraint_force_element(const teal_plant *p, int c) {
  int rc;
  const constraint_rec *r = find(p, c, &rc);
  return r ? r->force_element : rc;
}

int teal_plant_set_constraint_default_enabled(teal_plant *p, int c, int enabled) {
  int rc = teal_plant_check_open(p, "constraint", "default enabled flag");
  if (rc) {
    return rc;
  }
  if (c < 0 || c >= p->constraints.n) {
    return fail(p, TEAL_ENOTFOUND, "plant: unknown constraint %d (the plant has %d)", c,
                p->constraints.n);
  }
  constraint_rec *r = &CONSTRAINT(p)[c];
  r->default_enabled = enabled != 0;
  return TEAL_OK;
}

int teal_plant_constraint_default_enabled(const teal_plant *p, int c) {
  int rc;
  const constraint_rec *r = find(p, c, &rc);
  return r ? r->default_enabled : rc;
}

/* ---- finalize ------------------------------------------------------------------ */

int teal_plant_constraints_finalize(teal_plant *p) {
  int m = 0;
  for (int i = 0; i < p->constraints.n; i++) {
    CONSTRAINT(p)[i].row_start = m;
    m += CONSTRAINT(p)[i].rows;
  }
  p->nc_rows = m;
  if (m > p->nv) {
    return fail(p, TEAL_EINVAL,
                "plant: the %d constraints have %d rows, more than the %d velocities: the model "
                "cannot move (remove constraints, or joints made redundant by them)",
                p->constraints.n, m, p->nv);
  }
  return TEAL_OK;
}
