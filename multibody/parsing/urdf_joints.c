/* URDF <joint>, Drake's <drake:joint> and <transmission>. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/urdf_internal.h"

static const struct {
  const char *name;
  urdf_joint_type type;
  int drake_only; /* only inside <drake:joint> */
} joint_types[] = {
    {"revolute", URDF_REVOLUTE, 0}, {"continuous", URDF_CONTINUOUS, 0},
    {"prismatic", URDF_PRISMATIC, 0}, {"fixed", URDF_FIXED, 0},
    {"floating", URDF_FLOATING, 0}, {"planar", URDF_PLANAR, 0},
    {"ball", URDF_BALL, 1},         {"universal", URDF_UNIVERSAL, 1},
    {"screw", URDF_SCREW, 1},
};
#define NUM_JOINT_TYPES ((int)(sizeof(joint_types) / sizeof(joint_types[0])))

const char *urdf_joint_type_name(urdf_joint_type t) {
  for (int i = 0; i < NUM_JOINT_TYPES; i++) {
    if (joint_types[i].type == t) {
      return joint_types[i].name;
    }
  }
  return "unknown";
}

int urdf_joint_type_nv(urdf_joint_type t) {
  switch (t) {
    case URDF_FIXED:
      return 0;
    case URDF_FLOATING:
      return 6;
    case URDF_PLANAR:
    case URDF_BALL:
      return 3;
    case URDF_UNIVERSAL:
      return 2;
    default:
      return 1;
  }
}

/* 1 for the types with a position limit on their single coordinate. */
static int has_position_limits(urdf_joint_type t) {
  return t == URDF_REVOLUTE || t == URDF_PRISMATIC || t == URDF_SCREW;
}

static int parse_type(urdf_model *m, urdf_node *node, int drake_joint, urdf_joint_type *type) {
  const char *s;
  int rc = urdf_attr_required(m, node, "type", &s);
  if (rc) {
    return rc;
  }
  for (int i = 0; i < NUM_JOINT_TYPES; i++) {
    if (strcmp(s, joint_types[i].name) == 0 && (drake_joint || !joint_types[i].drake_only)) {
      *type = joint_types[i].type;
      return TEAL_OK;
    }
  }
  return urdf_fail(m, node, TEAL_EPARSE, "unknown joint type '%.60s'", s);
}

/* The link attribute of the required <parent> or <child> element. */
static int parse_link_ref(urdf_model *m, urdf_node *node, const char *tag, const char **link) {
  urdf_node *c;
  int rc = urdf_unique_child(m, node, tag, &c);
  if (rc) {
    return rc;
  }
  if (!c) {
    return urdf_fail(m, node, TEAL_EPARSE, "missing <%s>", tag);
  }
  return urdf_attr_required(m, c, "link", link);
}

/* <axis xyz> (default 1 0 0), normalized; a zero axis is an error. */
static int parse_axis(urdf_model *m, urdf_node *node, teal_vec3 *axis) {
  urdf_node *a;
  *axis = teal_vec3_make(1, 0, 0);
  int rc = urdf_unique_child(m, node, "axis", &a);
  if (rc || !a) {
    return rc;
  }
  rc = urdf_attr_numbers(m, a, "xyz", 3, axis->v, NULL);
  if (rc) {
    return rc;
  }
  /* normalized without overflow: divided by the largest |component| first
   * (the norm of (1e300, 1e300, 0) overflows) */
  double big = fmax(fabs(axis->v[0]), fmax(fabs(axis->v[1]), fabs(axis->v[2])));
  if (!isfinite(big)) {
    return urdf_fail(m, a, TEAL_EINVAL, "axis must be finite");
  }
  teal_vec3 s = big > 0.0 ? teal_vec3_scale(*axis, 1.0 / big) : *axis;
  double n = teal_vec3_norm(s); /* in [1, sqrt(3)] unless the axis is zero */
  if (!(big > 0.0) || !(big * n > 1e-12) || !isfinite(1.0 / big)) {
    return urdf_fail(m, a, TEAL_EINVAL, "axis must be nonzero (its length is below 1e-12)");
  }
  *axis = teal_vec3_scale(s, 1.0 / n);
  return TEAL_OK;
}

/* <limit lower upper effort velocity>: missing values mean no limit, as do
 * velocity 0 and (for the joint) effort 0. */
static int parse_limit(urdf_model *m, urdf_node *node, urdf_joint *j) {
  urdf_node *l;
  j->lower = -INFINITY;
  j->upper = j->effort = j->velocity = INFINITY;
  int rc = urdf_unique_child(m, node, "limit", &l);
  if (rc || !l) {
    return rc;
  }
  rc = urdf_attr_double(m, l, "lower", 0, -INFINITY, &j->lower);
  rc = rc ? rc : urdf_attr_double(m, l, "upper", 0, INFINITY, &j->upper);
  rc = rc ? rc : urdf_attr_double(m, l, "effort", 0, INFINITY, &j->effort);
  rc = rc ? rc : urdf_attr_double(m, l, "velocity", 0, INFINITY, &j->velocity);
  if (rc) {
    return rc;
  }
  if (j->effort < 0.0 || j->velocity < 0.0) {
    return urdf_fail(m, l, TEAL_EINVAL, "effort and velocity limits must be >= 0");
  }
  if (has_position_limits(j->type) && j->lower > j->upper) {
    return urdf_fail(m, l, TEAL_EINVAL, "lower limit %g exceeds upper limit %g", j->lower,
                     j->upper);
  }
  if (!has_position_limits(j->type)) {
    j->lower = -INFINITY;
    j->upper = INFINITY;
  }
  j->velocity = j->velocity == 0.0 ? INFINITY : j->velocity;
  return TEAL_OK;
}

/* <dynamics damping friction>: damping >= 0; friction is not modeled. */
static int parse_dynamics(urdf_model *m, urdf_node *node, urdf_joint *j) {
  urdf_node *d;
  double friction = 0.0;
  int rc = urdf_unique_child(m, node, "dynamics", &d);
  if (rc || !d) {
    return rc;
  }
  rc = urdf_attr_double(m, d, "damping", 0, 0.0, &j->damping);
  rc = rc ? rc : urdf_attr_double(m, d, "friction", 0, 0.0, &friction);
  if (rc == TEAL_OK && j->damping < 0.0) {
    rc = urdf_fail(m, d, TEAL_EINVAL, "damping must be >= 0");
  }
  if (rc == TEAL_OK && friction != 0.0) {
    urdf_warn(m, d, &m->report->ignored_elements, "joint friction is not modeled; ignored");
  }
  if (rc == TEAL_OK && j->damping > 0.0 && j->type == URDF_FLOATING) {
    urdf_warn(m, d, &m->report->ignored_elements, "damping of a floating joint ignored");
    j->damping = 0.0;
  }
  return rc;
}

/* Warns about the children that are understood but not modeled. */
static void warn_ignored_children(urdf_model *m, urdf_node *node) {
  for (urdf_node *c = node->children; c; c = c->next) {
    if (urdf_is_drake(c) && !urdf_is(c, "drake:screw_thread_pitch")) {
      urdf_warn(m, c, &m->report->ignored_elements, "unsupported element ignored");
    }
  }
}

/* The screw pitch (meters per revolution) of a drake screw joint. */
static int parse_pitch(urdf_model *m, urdf_node *node, urdf_joint *j) {
  urdf_node *p;
  int rc = urdf_unique_child(m, node, "drake:screw_thread_pitch", &p);
  if (rc || j->type != URDF_SCREW) {
    return rc;
  }
  if (!p) {
    return urdf_fail(m, node, TEAL_EPARSE, "a screw joint needs <drake:screw_thread_pitch>");
  }
  return urdf_attr_double(m, p, "value", 1, 0.0, &j->pitch);
}

int urdf_parse_joint(urdf_model *m, urdf_node *node, int drake_joint) {
  urdf_joint j;
  memset(&j, 0, sizeof(j));
  j.node = node;
  j.parent = j.child = j.next_sibling = j.plant_joint = -1;
  int rc = urdf_attr_required(m, node, "name", &j.name);
  rc = rc ? rc : parse_type(m, node, drake_joint, &j.type);
  rc = rc ? rc : parse_link_ref(m, node, "parent", &j.parent_name);
  rc = rc ? rc : parse_link_ref(m, node, "child", &j.child_name);
  rc = rc ? rc : urdf_origin(m, node, &j.X_PJ);
  /* like Drake, ignore <axis> where the type has none (exporters often
   * write a zero axis on fixed joints) */
  int axisless = j.type == URDF_FIXED || j.type == URDF_FLOATING || j.type == URDF_BALL;
  j.axis = teal_vec3_make(1, 0, 0);
  rc = rc || axisless ? rc : parse_axis(m, node, &j.axis);
  rc = rc ? rc : parse_limit(m, node, &j);
  rc = rc ? rc : parse_dynamics(m, node, &j);
  rc = rc ? rc : parse_pitch(m, node, &j);
  rc = rc ? rc : urdf_parse_mimic(m, node, j.name);
  if (rc) {
    return rc;
  }
  warn_ignored_children(m, node);
  urdf_joint *dst = urdf_push(m, &m->joints, sizeof(urdf_joint));
  if (!dst) {
    return m->err->code;
  }
  *dst = j;
  return TEAL_OK;
}

/* ---- transmissions ------------------------------------------------------------ */

/* The transmission type: the type attribute (old form) or <type> text (ROS). */
static int transmission_type(urdf_model *m, urdf_node *node, const char **type) {
  urdf_node *t;
  *type = urdf_attr(m, node, "type");
  int rc = m->err->code ? m->err->code : urdf_unique_child(m, node, "type", &t);
  if (rc == TEAL_OK && t && !*type) {
    *type = urdf_text(m, t);
    rc = m->err->code;
  }
  if (rc == TEAL_OK && !*type) {
    rc = urdf_fail(m, node, TEAL_EPARSE, "missing transmission type");
  }
  return rc;
}

/* The optional value of the <tag value=".."/> child of the actuator node an
 * into *out (kept when absent); it must be >= 0 (inertia) or nonzero. */
static int actuator_value(urdf_model *m, urdf_node *an, const char *tag, int nonzero, double *out) {
  urdf_node *n;
  int rc = an ? urdf_unique_child(m, an, tag, &n) : TEAL_OK;
  if (rc || !an || !n) {
    return rc;
  }
  rc = urdf_attr_double(m, n, "value", 1, 0.0, out);
  if (rc == TEAL_OK && (nonzero ? *out == 0.0 : *out < 0.0)) {
    rc = urdf_fail(m, n, TEAL_EPARSE, "<%s> value %g must be %s", tag, *out,
                   nonzero ? "nonzero" : ">= 0");
  }
  return rc;
}

int urdf_parse_transmission(urdf_model *m, urdf_node *node) {
  const char *type, *joint, *name = urdf_attr(m, node, "name");
  urdf_node *jn, *an;
  int rc = m->err->code ? m->err->code : transmission_type(m, node, &type);
  if (rc) {
    return rc;
  }
  if (!strstr(type, "SimpleTransmission")) {
    urdf_warn(m, node, &m->report->skipped_transmissions,
              "only SimpleTransmission is supported; '%.60s' skipped", type);
    return TEAL_OK;
  }
  rc = urdf_unique_child(m, node, "joint", &jn);
  rc = rc || jn ? rc : urdf_fail(m, node, TEAL_EPARSE, "missing <joint>");
  rc = rc ? rc : urdf_attr_required(m, jn, "name", &joint);
  rc = rc ? rc : urdf_unique_child(m, node, "actuator", &an);
  const char *act = rc || !an ? NULL : urdf_attr(m, an, "name");
  act = act && *act ? act : name;
  if (rc == TEAL_OK && (!act || !*act)) {
    rc = urdf_fail(m, node, TEAL_EPARSE, "missing actuator name");
  }
  double rotor_inertia = 0.0, gear_ratio = 1.0; /* Drake's reflected inertia extension */
  rc = rc ? rc : actuator_value(m, an, "drake:rotor_inertia", 0, &rotor_inertia);
  rc = rc ? rc : actuator_value(m, an, "drake:gear_ratio", 1, &gear_ratio);
  urdf_actuator *a = rc ? NULL : urdf_push(m, &m->actuators, sizeof(urdf_actuator));
  if (!a) {
    return m->err->code;
  }
  *a = (urdf_actuator){act, node, joint, -1, rotor_inertia, gear_ratio, 0};
  return TEAL_OK;
}
