/* Constraints in a URDF document (see docs/urdf.md, "Constraints and loop
 * closures"): <mimic> in a <joint> makes a coupler, and a loop is closed by
 * a top-level constraint element instead of a second parent joint:
 *   <teal:ball_constraint body_A= p_AP= body_B= p_BQ=/>
 *   <drake:ball_constraint> with <drake:ball_constraint_body_A name=/>,
 *       <drake:ball_constraint_p_AP value=/>, ..._body_B, ..._p_BQ (Drake's)
 *   <teal:distance_constraint body_A= p_AP= body_B= p_BQ= distance=
 *       [stiffness= damping=]/>
 *   <teal:weld_constraint body_A= [xyz_AP= rpy_AP=] body_B= [xyz_BQ= rpy_BQ=]/>
 * Bodies are link names; points and frames are in the link frames. Parsed
 * with the document, resolved with the names, added after the joints. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math/rotation.h"

#include "multibody/constraints/constraint_specs.h"
#include "multibody/parsing/urdf_internal.h"

int urdf_is_constraint(const urdf_node *node) {
  return urdf_is(node, "teal:ball_constraint") || urdf_is(node, "drake:ball_constraint") ||
         urdf_is(node, "teal:distance_constraint") || urdf_is(node, "teal:weld_constraint");
}

/* ---- parsing ------------------------------------------------------------------- */

/* A point attribute (three numbers; absent: the origin). */
static int point_attr(urdf_model *m, urdf_node *node, const char *name, teal_vec3 *p) {
  double x[3] = {0, 0, 0};
  int present;
  int rc = urdf_attr_numbers(m, node, name, 3, x, &present);
  *p = teal_vec3_make(x[0], x[1], x[2]);
  return rc;
}

/* A pose from the attributes xyz_<suffix> and rpy_<suffix>. */
static int pose_attrs(urdf_model *m, urdf_node *node, const char *suffix, teal_transform *X) {
  char xyz[16], rpy[16];
  teal_vec3 p, r;
  snprintf(xyz, sizeof(xyz), "xyz_%s", suffix);
  snprintf(rpy, sizeof(rpy), "rpy_%s", suffix);
  int rc = point_attr(m, node, xyz, &p);
  rc = rc ? rc : point_attr(m, node, rpy, &r);
  *X = teal_transform_make(teal_rotation_from_rpy(r), p);
  return rc;
}

/* The attribute form: body_A, body_B and the kind's own attributes. */
static int parse_attributes(urdf_model *m, urdf_node *node, urdf_constraint *c) {
  int rc = urdf_attr_required(m, node, "body_A", &c->a_name);
  rc = rc ? rc : urdf_attr_required(m, node, "body_B", &c->b_name);
  if (rc == TEAL_OK && c->kind == URDF_C_WELD) {
    rc = pose_attrs(m, node, "AP", &c->X_AP);
    return rc ? rc : pose_attrs(m, node, "BQ", &c->X_BQ);
  }
  rc = rc ? rc : point_attr(m, node, "p_AP", &c->X_AP.p);
  rc = rc ? rc : point_attr(m, node, "p_BQ", &c->X_BQ.p);
  if (rc == TEAL_OK && c->kind == URDF_C_DISTANCE) {
    rc = urdf_attr_double(m, node, "distance", 1, 0.0, &c->distance);
    rc = rc ? rc : urdf_attr_double(m, node, "stiffness", 0, INFINITY, &c->stiffness);
    rc = rc ? rc : urdf_attr_double(m, node, "damping", 0, 0.0, &c->damping);
  }
  return rc;
}

/* The value of Drake's child <drake:ball_constraint_<what> attr=...>. */
static int drake_child(urdf_model *m, urdf_node *node, const char *what, const char *attr,
                       const char **value) {
  char qname[64];
  urdf_node *c;
  snprintf(qname, sizeof(qname), "drake:ball_constraint_%s", what);
  int rc = urdf_unique_child(m, node, qname, &c);
  if (rc == TEAL_OK && !c) {
    return urdf_fail(m, node, TEAL_EPARSE, "missing <%s>", qname);
  }
  return rc ? rc : urdf_attr_required(m, c, attr, value);
}

/* Drake's form: the bodies and points as child elements. */
static int parse_drake_ball(urdf_model *m, urdf_node *node, urdf_constraint *c) {
  const char *pa, *pb;
  int rc = drake_child(m, node, "body_A", "name", &c->a_name);
  rc = rc ? rc : drake_child(m, node, "body_B", "name", &c->b_name);
  rc = rc ? rc : drake_child(m, node, "p_AP", "value", &pa);
  rc = rc ? rc : drake_child(m, node, "p_BQ", "value", &pb);
  double a[3], b[3];
  if (rc == TEAL_OK && (sscanf(pa, "%lf %lf %lf", &a[0], &a[1], &a[2]) != 3 ||
                        sscanf(pb, "%lf %lf %lf", &b[0], &b[1], &b[2]) != 3)) {
    return urdf_fail(m, node, TEAL_EPARSE, "p_AP and p_BQ need three numbers each");
  }
  if (rc == TEAL_OK) {
    c->X_AP.p = teal_vec3_make(a[0], a[1], a[2]);
    c->X_BQ.p = teal_vec3_make(b[0], b[1], b[2]);
  }
  return rc;
}

static urdf_constraint *new_constraint(urdf_model *m, urdf_node *node, urdf_constraint_kind k) {
  urdf_constraint *c = urdf_push(m, &m->constraints, sizeof(urdf_constraint));
  if (c) {
    c->node = node;
    c->kind = k;
    c->a = c->b = -1;
    c->X_AP = c->X_BQ = teal_transform_identity();
  }
  return c;
}

int urdf_parse_constraint(urdf_model *m, urdf_node *node) {
  urdf_constraint_kind k = urdf_is(node, "teal:distance_constraint") ? URDF_C_DISTANCE
                           : urdf_is(node, "teal:weld_constraint")   ? URDF_C_WELD
                                                                     : URDF_C_BALL;
  urdf_constraint *c = new_constraint(m, node, k);
  if (!c) {
    return m->err->code;
  }
  int rc = urdf_is(node, "drake:ball_constraint") ? parse_drake_ball(m, node, c)
                                                  : parse_attributes(m, node, c);
  if (rc) {
    m->constraints.n--; /* not kept */
  }
  return rc;
}

int urdf_parse_mimic(urdf_model *m, urdf_node *joint_node, const char *joint_name) {
  urdf_node *mn;
  int rc = urdf_unique_child(m, joint_node, "mimic", &mn);
  if (rc || !mn) {
    return rc;
  }
  urdf_constraint *c = new_constraint(m, mn, URDF_C_COUPLER);
  if (!c) {
    return m->err->code;
  }
  c->a_name = joint_name;
  rc = urdf_attr_required(m, mn, "joint", &c->b_name);
  rc = rc ? rc : urdf_attr_double(m, mn, "multiplier", 0, 1.0, &c->ratio);
  rc = rc ? rc : urdf_attr_double(m, mn, "offset", 0, 0.0, &c->offset);
  if (rc) {
    m->constraints.n--;
  }
  return rc;
}

/* ---- names -------------------------------------------------------------------- */

/* A mimic's joints: known, distinct, both single-dof (checked here, so
 * a bad document fails before the plant is touched). */
static int resolve_mimic(urdf_model *m, urdf_constraint *c) {
  c->a = urdf_index_find(&m->joint_index, &m->joints, sizeof(urdf_joint), c->a_name);
  c->b = urdf_index_find(&m->joint_index, &m->joints, sizeof(urdf_joint), c->b_name);
  if (c->b < 0) {
    return urdf_fail(m, c->node, TEAL_EINVAL, "mimic of unknown joint '%.80s'", c->b_name);
  }
  if (c->a == c->b) {
    return urdf_fail(m, c->node, TEAL_EINVAL, "joint '%.80s' cannot mimic itself", c->a_name);
  }
  const urdf_joint *a = &UJOINT(m)[c->a], *b = &UJOINT(m)[c->b];
  if (urdf_joint_type_nv(a->type) != 1 || urdf_joint_type_nv(b->type) != 1) {
    return urdf_fail(m, c->node, TEAL_EINVAL,
                     "mimic between '%.80s' (%s) and '%.80s' (%s): both "
                     "must be single-dof joints",
                     c->a_name, urdf_joint_type_name(a->type), c->b_name,
                     urdf_joint_type_name(b->type));
  }
  return isfinite(c->ratio) && isfinite(c->offset)
             ? TEAL_OK
             : urdf_fail(m, c->node, TEAL_ENONFINITE, "multiplier and offset must be finite");
}

/* The numbers of a distance constraint, as the plant will check them. */
static int check_distance(urdf_model *m, const urdf_constraint *c) {
  int rigid = c->stiffness == INFINITY;
  if (!(c->distance > 0.0) || !(c->stiffness > 0.0) || !(c->damping >= 0.0) ||
      (rigid && c->damping != 0.0)) {
    return urdf_fail(m, c->node, TEAL_EINVAL,
                     "distance %g must be > 0, stiffness %g > 0 (absent: "
                     "rigid), damping %g >= 0 (0 when rigid)",
                     c->distance, c->stiffness, c->damping);
  }
  return TEAL_OK;
}

static int resolve_one(urdf_model *m, urdf_constraint *c) {
  if (c->kind == URDF_C_COUPLER) {
    return resolve_mimic(m, c);
  }
  c->a = urdf_link_by_name(m, c->a_name);
  c->b = urdf_link_by_name(m, c->b_name);
  if (c->a < 0 || c->b < 0) {
    return urdf_fail(m, c->node, TEAL_EINVAL, "unknown link '%.80s'",
                     c->a < 0 ? c->a_name : c->b_name);
  }
  if (ULINK(m)[c->a].owner == ULINK(m)[c->b].owner) {
    return urdf_fail(m, c->node, TEAL_EINVAL,
                     "links '%.80s' and '%.80s' are on the same body: a "
                     "constraint joins two bodies",
                     c->a_name, c->b_name);
  }
  return c->kind == URDF_C_DISTANCE ? check_distance(m, c) : TEAL_OK;
}

int urdf_resolve_constraints(urdf_model *m) {
  int rc = TEAL_OK;
  for (int i = 0; i < m->constraints.n && rc == TEAL_OK; i++) {
    rc = resolve_one(m, &UCONSTRAINT(m)[i]);
  }
  return rc;
}

/* ---- build ---------------------------------------------------------------------- */

/* Adds constraint c, its points and frames moved from the links to the
 * bodies that carry them; returns the constraint index or a status. */
static int add_one(urdf_model *m, teal_plant *plant, const urdf_constraint *c) {
  if (c->kind == URDF_C_COUPLER) {
    /* URDF: q_this = multiplier q_mimicked + offset, Drake's q0 = rho q1 + offset */
    return teal_plant_add_coupler_constraint(plant, UJOINT(m)[c->a].plant_joint,
                                             UJOINT(m)[c->b].plant_joint, c->ratio, c->offset);
  }
  const urdf_link *A = &ULINK(m)[c->a], *B = &ULINK(m)[c->b];
  teal_transform X_AP = teal_transform_compose(A->X_OL, c->X_AP);
  teal_transform X_BQ = teal_transform_compose(B->X_OL, c->X_BQ);
  switch (c->kind) {
    case URDF_C_DISTANCE:
      return teal_plant_add_distance_constraint(plant, A->body, X_AP.p, B->body, X_BQ.p,
                                                c->distance, c->stiffness, c->damping);
    case URDF_C_WELD:
      return teal_plant_add_weld_constraint(plant, A->body, X_AP, B->body, X_BQ);
    default:
      return teal_plant_add_ball_constraint(plant, A->body, X_AP.p, B->body, X_BQ.p);
  }
}

int urdf_build_constraints(urdf_model *m, teal_plant *plant) {
  for (int i = 0; i < m->constraints.n; i++) {
    const urdf_constraint *c = &UCONSTRAINT(m)[i];
    int rc = add_one(m, plant, c);
    if (rc < 0) {
      const teal_error *e = teal_plant_error(plant);
      return urdf_fail(m, c->node, rc, "%s", e->code ? e->message : teal_strerror(rc));
    }
  }
  return TEAL_OK;
}
