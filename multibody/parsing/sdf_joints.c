/* SDFormat <joint>: type, parent and child links, the joint frame in both,
 * <axis>/<axis2> with expressed_in, <limit>, <dynamics>, the screw pitch,
 * and the actuator Drake's parser adds for an effort limit. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/sdf_internal.h"

/* SDFormat writes "no limit" as +-1e16 (its defaults). */
#define SDF_NO_LIMIT 1e16

static int joint_type(urdf_model *doc, urdf_node *node, urdf_joint_type *type) {
  static const struct {
    const char *name;
    urdf_joint_type type;
  } types[] = {{"revolute", URDF_REVOLUTE},   {"continuous", URDF_CONTINUOUS},
               {"prismatic", URDF_PRISMATIC}, {"ball", URDF_BALL},
               {"universal", URDF_UNIVERSAL}, {"screw", URDF_SCREW},
               {"fixed", URDF_FIXED}};
  const char *t = urdf_attr(doc, node, "type");
  for (size_t i = 0; t && i < sizeof(types) / sizeof(types[0]); i++) {
    if (strcmp(t, types[i].name) == 0) {
      *type = types[i].type;
      return TEAL_OK;
    }
  }
  return urdf_fail(doc, node, TEAL_EPARSE,
                   "unknown or unsupported joint type '%.40s' (revolute, continuous, prismatic, "
                   "ball, universal, screw, fixed)",
                   t ? t : "");
}

static int is_identity(teal_transform X) {
  static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  return memcmp(X.R.m, I, sizeof(I)) == 0 && X.p.v[0] == 0.0 && X.p.v[1] == 0.0 && X.p.v[2] == 0.0;
}

/* The parent (a link or the world) or child (a link) of joint f, in its model. */
static int joint_link(sdf_state *s, int f, const char *ref, int child, int *out) {
  const sdf_frame *J = &SFRAME(s)[f];
  int l = sdf_lookup(s, J->scope, ref, J->doc, J->node, child ? "child" : "parent");
  if (l < 0) {
    return s->err->code;
  }
  const sdf_frame *L = &SFRAME(s)[l];
  int ok = L->kind == SDF_LINK ? L->top == J->top : !child && l == SDF_WORLD;
  *out = l;
  return ok ? TEAL_OK
            : urdf_fail(J->doc, J->node, TEAL_EINVAL,
                        "%s '%.80s' is not a link of the joint's model%s",
                        child ? "child" : "parent", ref, child ? "" : " nor the world");
}

/* <axis> or <axis2> of joint f as a unit vector in the joint frame
 * (default z); *node_out the <axis> element or NULL. */
static int parse_axis(sdf_state *s, int f, const char *which, teal_vec3 *a, urdf_node **node_out) {
  const sdf_frame *J = &SFRAME(s)[f];
  urdf_model *doc = J->doc;
  urdf_node *axis, *xyz = NULL;
  double v[3] = {0, 0, 1};
  int rc = urdf_unique_child(doc, J->node, which, &axis);
  rc = rc || !axis ? rc : urdf_unique_child(doc, axis, "xyz", &xyz);
  *node_out = axis;
  const char *in = xyz ? urdf_attr(doc, xyz, "expressed_in") : NULL;
  rc = rc ? rc : doc->err->code;
  int present;
  rc = rc || !axis ? rc : sdf_child_numbers(doc, axis, "xyz", 3, v, &present);
  teal_rotation R_JE = teal_rotation_identity();
  if (rc == TEAL_OK && in && *in) {
    int e = sdf_lookup(s, J->scope, in, doc, xyz, "expressed_in");
    rc = e < 0 ? s->err->code : TEAL_OK;
    R_JE = rc ? R_JE
              : teal_rotation_mul(teal_rotation_inverse(SFRAME(s)[f].X_WF.R), SFRAME(s)[e].X_WF.R);
  }
  teal_vec3 u = teal_rotation_apply(R_JE, teal_vec3_make(v[0], v[1], v[2]));
  double n = teal_vec3_norm(u);
  if (rc == TEAL_OK && !(n > 1e-12 && isfinite(n))) {
    rc = urdf_fail(doc, xyz ? xyz : J->node, TEAL_EINVAL, "zero or unusable axis");
  }
  *a = rc ? *a : teal_vec3_scale(u, 1.0 / n);
  return rc;
}

/* A child number of node (def when absent or node NULL). */
static int number(urdf_model *doc, urdf_node *node, const char *child, double def, double *out) {
  int present = 0;
  *out = def;
  return node ? sdf_child_numbers(doc, node, child, 1, out, &present) : TEAL_OK;
}

/* <limit> and <dynamics> of an <axis>. */
static int parse_limits(urdf_model *doc, urdf_node *axis, urdf_joint *j) {
  urdf_node *lim = NULL, *dyn = NULL;
  int rc = axis ? urdf_unique_child(doc, axis, "limit", &lim) : TEAL_OK;
  rc = rc || !axis ? rc : urdf_unique_child(doc, axis, "dynamics", &dyn);
  double friction = 0, stiffness = 0;
  rc = rc ? rc : number(doc, lim, "lower", -SDF_NO_LIMIT, &j->lower);
  rc = rc ? rc : number(doc, lim, "upper", SDF_NO_LIMIT, &j->upper);
  rc = rc ? rc : number(doc, lim, "effort", -1.0, &j->effort);
  rc = rc ? rc : number(doc, lim, "velocity", -1.0, &j->velocity);
  rc = rc ? rc : number(doc, dyn, "damping", 0.0, &j->damping);
  rc = rc ? rc : number(doc, dyn, "friction", 0.0, &friction);
  rc = rc ? rc : number(doc, dyn, "spring_stiffness", 0.0, &stiffness);
  if (rc) {
    return rc;
  }
  j->lower = j->lower <= -SDF_NO_LIMIT || j->type == URDF_CONTINUOUS ? -INFINITY : j->lower;
  j->upper = j->upper >= SDF_NO_LIMIT || j->type == URDF_CONTINUOUS ? INFINITY : j->upper;
  j->effort = j->effort < 0.0 ? INFINITY : j->effort;
  j->velocity = j->velocity <= 0.0 ? INFINITY : j->velocity;
  if (j->lower > j->upper) {
    return urdf_fail(doc, lim, TEAL_EINVAL, "lower limit %g above upper limit %g", j->lower,
                     j->upper);
  }
  if (j->damping < 0.0) {
    return urdf_fail(doc, dyn, TEAL_EINVAL, "negative damping %g", j->damping);
  }
  if (friction != 0.0 || stiffness != 0.0) {
    urdf_warn(doc, dyn, &doc->report->ignored_elements,
              "joint friction and springs are not modeled; ignored");
  }
  return TEAL_OK;
}

/* Turns a universal joint's frame so that x is axis and y is axis2. */
static int universal_frames(sdf_state *s, int f, urdf_joint *j) {
  const sdf_frame *J = &SFRAME(s)[f];
  teal_vec3 a2;
  urdf_node *axis2;
  int rc = parse_axis(s, f, "axis2", &a2, &axis2);
  if (rc == TEAL_OK && fabs(teal_vec3_dot(j->axis, a2)) > 1e-9) {
    rc = urdf_fail(J->doc, axis2 ? axis2 : J->node, TEAL_EINVAL,
                   "a universal joint's <axis> and <axis2> must be orthogonal");
  }
  if (rc) {
    return rc;
  }
  teal_vec3 a3 = teal_vec3_cross(j->axis, a2);
  teal_rotation R = {{j->axis.v[0], a2.v[0], a3.v[0], j->axis.v[1], a2.v[1], a3.v[1], j->axis.v[2],
                      a2.v[2], a3.v[2]}};
  teal_transform X_JU = teal_transform_make(R, teal_vec3_zero());
  j->X_PJ = teal_transform_compose(j->X_PJ, X_JU);
  j->X_CJ = teal_transform_compose(j->X_CJ, X_JU);
  return TEAL_OK;
}

/* The screw pitch in meters per revolution (<screw_thread_pitch>). */
static int screw_pitch(urdf_model *doc, urdf_node *node, urdf_joint *j) {
  int present = 0;
  int rc = sdf_child_numbers(doc, node, "screw_thread_pitch", 1, &j->pitch, &present);
  return rc || present
             ? rc
             : urdf_fail(doc, node, TEAL_EPARSE, "a screw joint needs <screw_thread_pitch>");
}

/* Warns about the children understood but not modeled. */
static void warn_ignored(urdf_model *doc, urdf_node *node) {
  for (urdf_node *c = node->children; c; c = c->next) {
    int drake = urdf_is_drake(c) && !urdf_is(c, "drake:mimic"); /* sdf_mimic.c */
    if (drake || urdf_is(c, "physics") || urdf_is(c, "sensor")) {
      urdf_warn(doc, c, &doc->report->ignored_elements, "unsupported element ignored");
    }
  }
}

/* The actuator of joint j, with Drake's <drake:rotor_inertia> (>= 0) and
 * <drake:gear_ratio> (nonzero) children of the joint element. */
static int add_actuator(urdf_model *doc, urdf_model *out, const urdf_joint *j) {
  double rotor_inertia, gear_ratio;
  int rc = number(doc, j->node, "drake:rotor_inertia", 0.0, &rotor_inertia);
  rc = rc ? rc : number(doc, j->node, "drake:gear_ratio", 1.0, &gear_ratio);
  if (rc == TEAL_OK && (rotor_inertia < 0.0 || gear_ratio == 0.0)) {
    rc = urdf_fail(
        doc, j->node, TEAL_EINVAL, "joint '%s': %s", j->name,
        rotor_inertia < 0.0 ? "negative <drake:rotor_inertia>" : "zero <drake:gear_ratio>");
  }
  urdf_actuator *a = rc ? NULL : urdf_push(out, &out->actuators, sizeof(urdf_actuator));
  if (!a) {
    return rc ? rc : out->err->code;
  }
  *a = (urdf_actuator){j->name, j->node, j->name, -1, rotor_inertia, gear_ratio, j->inst};
  return TEAL_OK;
}

int sdf_convert_joint(sdf_state *s, int f, urdf_model *out) {
  const sdf_frame *J = &SFRAME(s)[f];
  urdf_model *doc = J->doc;
  urdf_joint j;
  memset(&j, 0, sizeof(j));
  j.name = sdf_local_name(s, f);
  j.inst = sdf_sub(s, f);
  j.node = J->node;
  j.parent = j.child = j.next_sibling = j.plant_joint = -1;
  j.axis = teal_vec3_make(0, 0, 1);
  int p = -1, c = -1;
  urdf_node *axis = NULL;
  int rc = joint_type(doc, J->node, &j.type);
  rc = rc ? rc : joint_link(s, f, J->parent, 0, &p);
  rc = rc ? rc : joint_link(s, f, J->child, 1, &c);
  if (rc) {
    return rc;
  }
  j.parent_name = sdf_local_name(s, p);
  j.child_name = sdf_local_name(s, c);
  j.X_PJ = teal_transform_compose(teal_transform_inverse(SFRAME(s)[p].X_WF), J->X_WF);
  j.X_CJ = teal_transform_compose(teal_transform_inverse(SFRAME(s)[c].X_WF), J->X_WF);
  int has_axis = j.type != URDF_FIXED && j.type != URDF_BALL;
  rc = has_axis ? parse_axis(s, f, "axis", &j.axis, &axis) : TEAL_OK;
  rc = rc ? rc : parse_limits(doc, has_axis ? axis : NULL, &j);
  rc = rc || j.type != URDF_UNIVERSAL ? rc : universal_frames(s, f, &j);
  rc = rc || j.type != URDF_SCREW ? rc : screw_pitch(doc, J->node, &j);
  if (rc) {
    return rc;
  }
  j.has_X_CJ = !is_identity(j.X_CJ);
  warn_ignored(doc, J->node);
  rc = sdf_convert_mimic(s, f, axis, out);
  if (rc) {
    return rc;
  }
  urdf_joint *dst = urdf_push(out, &out->joints, sizeof(urdf_joint));
  if (!dst) {
    return s->err->code;
  }
  *dst = j;
  return urdf_joint_type_nv(j.type) == 1 && j.effort != 0.0 ? add_actuator(doc, out, dst) : TEAL_OK;
}
