/* MJCF <actuator> and <contact>, and the check of the whole model before
 * the plant is touched: unique names, references resolved, bodies the
 * plant can take. */
#include <math.h>
#include <string.h>

#include "multibody/parsing/mjcf_internal.h"

/* ---- <actuator> ------------------------------------------------------------------- */

/* The larger magnitude of a range: the plant's limits are symmetric. */
static double range_bound(mjcf_model *m, urdf_node *node, const char *what, const double *r) {
  if (r[0] != -r[1]) {
    urdf_warn(&m->u, node, &m->report->ignored_attributes,
              "asymmetric %s [%g, %g] approximated by +-%g", what, r[0], r[1],
              fmax(fabs(r[0]), fabs(r[1])));
  }
  return fmax(fabs(r[0]), fabs(r[1]));
}

/* The effort limit of a motor, a bound on its input ctrl. MuJoCo clamps
 * ctrl to its control range, the actuator force (ctrl) to its force range,
 * and then applies gear * force to the joint: for symmetric ranges that is
 * exactly gear * clamp(ctrl, +-min(ranges)), limited as MuJoCo's autolimits
 * reads it. */
static int motor_limit(mjcf_model *m, urdf_node *node, int cls, double *limit) {
  static const char *const words[] = {"false", "true", "auto", NULL};
  double fr[2], cr[2];
  int nf, nc, fl, cl;
  int rc = mjcf_numbers(m, node, "motor", cls, "forcerange", 2, fr, &nf);
  rc = rc ? rc : mjcf_numbers(m, node, "motor", cls, "ctrlrange", 2, cr, &nc);
  rc = rc ? rc : mjcf_keyword(m, node, "motor", cls, "forcelimited", words, 2, &fl);
  rc = rc ? rc : mjcf_keyword(m, node, "motor", cls, "ctrllimited", words, 2, &cl);
  if (rc == TEAL_OK && (nf == 1 || nc == 1)) {
    rc = urdf_fail(&m->u, node, TEAL_EPARSE, "forcerange and ctrlrange need 2 numbers");
  }
  *limit = INFINITY;
  if (rc) {
    return rc;
  }
  double bound = INFINITY;
  if (nf == 2 && (fl == 1 || (fl == 2 && m->autolimits))) {
    bound = range_bound(m, node, "forcerange", fr);
  }
  if (nc == 2 && (cl == 1 || (cl == 2 && m->autolimits))) {
    bound = fmin(bound, range_bound(m, node, "ctrlrange", cr));
  }
  *limit = bound > 0.0 ? bound : INFINITY;
  return TEAL_OK;
}

static int parse_motor(mjcf_model *m, urdf_node *node) {
  int cls, n;
  double gear[6] = {1, 0, 0, 0, 0, 0};
  int rc = mjcf_element_class(m, node, 0, &cls);
  rc = rc ? rc : mjcf_numbers(m, node, "motor", cls, "gear", 6, gear, &n);
  const char *joint = rc ? NULL : mjcf_attr(m, node, "motor", cls, "joint");
  const char *tendon = rc ? NULL : mjcf_attr(m, node, "motor", cls, "tendon");
  if (rc || (!joint && !tendon)) {
    urdf_warn(&m->u, node, &m->report->ignored_elements, "motor without a joint or tendon ignored");
    return m->u.err->code;
  }
  if (joint && tendon) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "a motor has one transmission: joint or tendon");
  }
  if (gear[0] == 0.0) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "a motor's gear must be nonzero");
  }
  mjcf_motor *a = urdf_push(&m->u, &m->motors, sizeof(mjcf_motor));
  if (!a) {
    return m->u.err->code;
  }
  a->node = node;
  a->joint_name = joint;
  a->tendon_name = tendon;
  a->joint = a->tendon = -1;
  a->gear = gear[0]; /* joint and tendon transmissions use the first component only */
  const char *name = urdf_attr(&m->u, node, "name");
  a->name = name && *name ? name : joint ? joint : tendon;
  return motor_limit(m, node, cls, &a->limit);
}

int mjcf_parse_actuators(mjcf_model *m, urdf_node *node) {
  int rc = mjcf_ensure_main_class(m);
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    if (urdf_is(c, "motor")) {
      rc = parse_motor(m, c);
    } else {
      urdf_warn(&m->u, c, &m->report->ignored_elements, "unsupported actuator ignored");
    }
  }
  return rc;
}

/* ---- <contact> -------------------------------------------------------------------- */

int mjcf_parse_contact(mjcf_model *m, urdf_node *node) {
  int rc = TEAL_OK;
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    if (!urdf_is(c, "exclude")) {
      urdf_warn(&m->u, c, &m->report->ignored_elements, "unsupported element ignored");
      continue;
    }
    mjcf_exclude *e = urdf_push(&m->u, &m->excludes, sizeof(mjcf_exclude));
    if (!e) {
      return m->u.err->code;
    }
    e->node = c;
    rc = urdf_attr_required(&m->u, c, "body1", &e->body1);
    rc = rc ? rc : urdf_attr_required(&m->u, c, "body2", &e->body2);
  }
  return rc;
}

/* ---- the check -------------------------------------------------------------------- */

static int index_names(mjcf_model *m) {
  int rc = urdf_index_names(&m->u, &m->bodies, sizeof(mjcf_body), &m->body_index, "body");
  rc = rc ? rc : urdf_index_names(&m->u, &m->joints, sizeof(mjcf_joint), &m->joint_index, "joint");
  rc = rc ? rc : urdf_index_names(&m->u, &m->geoms, sizeof(mjcf_geom), &m->geom_index, "geom");
  return rc ? rc : urdf_index_names(&m->u, &m->sites, sizeof(mjcf_site), &m->site_index, "site");
}

/* A moving body needs mass below it; a free joint must be alone. */
static int check_bodies(mjcf_model *m) {
  for (int b = 1; b < m->bodies.n; b++) {
    const mjcf_body *B = &MBODY(m)[b];
    if (B->num_joints > 0 && !(B->M_BBo_B.mass > 0.0) && !B->has_children) {
      return urdf_fail(&m->u, B->node, TEAL_EINVAL,
                       "a moving body needs mass (an <inertial> or geoms with volume)");
    }
    teal_error e = {TEAL_OK, ""};
    if (B->M_BBo_B.mass > 0.0 && teal_spatial_inertia_check(&B->M_BBo_B, &e) != TEAL_OK) {
      return urdf_fail(&m->u, B->node, e.code, "the body's inertia: %s", e.message);
    }
    for (int k = 0; k < B->num_joints && B->num_joints > 1; k++) {
      const mjcf_joint *j = &MJOINT(m)[B->first_joint + k];
      if (j->type == MJCF_FREE) {
        return urdf_fail(&m->u, j->node, TEAL_EINVAL, "a free joint must be its body's only joint");
      }
    }
  }
  return TEAL_OK;
}

/* A tendon motor's fixed tendon; one on a spatial tendon (a q-dependent
 * moment arm the plant's actuators do not model) is left out. */
static int resolve_tendon_motor(mjcf_model *m, mjcf_motor *a) {
  a->tendon = mjcf_find_tendon(m, a->tendon_name);
  if (a->tendon < 0 && mjcf_is_wrapping_tendon(m, a->tendon_name)) {
    urdf_warn(&m->u, a->node, &m->report->ignored_elements,
              "motor on a spatial tendon with wrapping ignored (the tendon is left out)");
    a->skip = 1;
    return TEAL_OK;
  }
  if (a->tendon < 0) {
    return urdf_fail(&m->u, a->node, TEAL_ENOTFOUND, "unknown tendon '%.80s'", a->tendon_name);
  }
  if (MTENDON(m)[a->tendon].spatial) {
    urdf_warn(&m->u, a->node, &m->report->ignored_elements,
              "motor on a spatial tendon ignored (fixed tendons only)");
    a->skip = 1;
  }
  return TEAL_OK;
}

static int resolve_refs(mjcf_model *m) {
  for (int i = 0; i < m->motors.n; i++) {
    mjcf_motor *a = &MMOTOR(m)[i];
    if (a->tendon_name) {
      int rc = resolve_tendon_motor(m, a);
      if (rc) {
        return rc;
      }
      continue;
    }
    a->joint = urdf_index_find(&m->joint_index, &m->joints, sizeof(mjcf_joint), a->joint_name);
    if (a->joint < 0) {
      return urdf_fail(&m->u, a->node, TEAL_ENOTFOUND, "unknown joint '%.80s'", a->joint_name);
    }
    const mjcf_joint *j = &MJOINT(m)[a->joint];
    if (j->type == MJCF_BALL || j->type == MJCF_FREE) {
      return urdf_fail(&m->u, a->node, TEAL_EINVAL,
                       "a motor on a ball or free joint is not supported (single-dof joints only)");
    }
  }
  for (int i = 0; i < m->excludes.n; i++) {
    const mjcf_exclude *e = &MEXCL(m)[i];
    const char *names[2] = {e->body1, e->body2};
    for (int k = 0; k < 2; k++) {
      if (urdf_index_find(&m->body_index, &m->bodies, sizeof(mjcf_body), names[k]) < 0) {
        return urdf_fail(&m->u, e->node, TEAL_ENOTFOUND, "unknown body '%.80s'", names[k]);
      }
    }
  }
  return TEAL_OK;
}

int mjcf_check(mjcf_model *m, const teal_plant *plant, const char *instance) {
  int rc = index_names(m);
  rc = rc ? rc : check_bodies(m);
  rc = rc ? rc : resolve_refs(m);
  rc = rc ? rc : mjcf_check_tendons(m);
  rc = rc ? rc : mjcf_check_equalities(m);
  if (rc == TEAL_OK && teal_plant_get_model_instance_by_name(plant, instance, NULL) >= 0) {
    rc = urdf_fail(&m->u, m->u.xml.root, TEAL_EDUPLICATE, "the plant already has an instance '%s'",
                   instance);
  }
  return rc ? rc : mjcf_check_names(m, plant, instance);
}
