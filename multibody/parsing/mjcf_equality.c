/* MJCF <equality> (see docs/mjcf.md): connect -> ball constraint, weld ->
 * weld constraint, joint -> coupler, tendon (over fixed tendons) -> coupler
 * (mjcf_tendon_equality.c). Points and poses MuJoCo takes from the
 * model's reference configuration (qpos0: every hinge and slide at its ref, free
 * bodies where they are written) are computed from the bodies' poses in
 * the document. solref and solimp have no meaning for Teal's rigid
 * constraints and are ignored with a warning; active="false" makes the
 * constraint disabled by default. active, solref and solimp may come from
 * the element's class (its class attribute, else main: an equality sits
 * outside the bodies, so no childclass reaches it), as MuJoCo's default
 * <equality> gives them. Parsed with the document, resolved in the check
 * (names, joint kinds, bodies), added after the motors. */
#include <math.h>
#include <string.h>

#include "math/quaternion.h"
#include "math/rotation.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/parsing/mjcf_internal.h"

#define MEQ(m) ((mjcf_equality *)(m)->equalities.data)

/* ---- parsing ------------------------------------------------------------------------ */

/* Attributes that change nothing here (solref and solimp also from the
 * class); a warning each. */
static void warn_ignored(mjcf_model *m, urdf_node *node, int cls) {
  static const char *const names[] = {"solref", "solimp", "torquescale", NULL};
  for (int i = 0; names[i]; i++) {
    int own = urdf_attr(&m->u, node, names[i]) != NULL;
    if (own || (i < 2 && mjcf_attr(m, node, "equality", cls, names[i]))) {
      urdf_warn(&m->u, node, &m->report->ignored_attributes,
                "%s%s ignored (Teal's equality constraints are rigid)", names[i],
                own ? "" : " (from its default class)");
    }
  }
  if (urdf_is(node, "weld") && urdf_attr(&m->u, node, "anchor")) {
    urdf_warn(&m->u, node, &m->report->ignored_attributes,
              "anchor ignored (it does not change which poses satisfy a rigid weld)");
  }
}

static int parse_active(mjcf_model *m, urdf_node *node, int cls, int *active) {
  const char *v = mjcf_attr(m, node, "equality", cls, "active");
  *active = !v || strcmp(v, "true") == 0;
  if (v && !*active && strcmp(v, "false") != 0) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "active must be \"true\" or \"false\", not '%.40s'",
                     v);
  }
  return TEAL_OK;
}

/* body1 [body2] and the anchor (connect) or the relpose (weld). */
static int parse_bodies(mjcf_model *m, urdf_node *node, mjcf_equality *e) {
  if (urdf_attr(&m->u, node, "site1") || urdf_attr(&m->u, node, "site2")) {
    return urdf_fail(&m->u, node, TEAL_EPARSE,
                     "site1/site2 are not supported (MuJoCo 2.2's form: body1, body2)");
  }
  int rc = urdf_attr_required(&m->u, node, "body1", &e->name1);
  e->name2 = rc ? NULL : urdf_attr(&m->u, node, "body2");
  if (rc == TEAL_OK && e->kind == MJCF_EQ_CONNECT) {
    return urdf_attr_numbers(&m->u, node, "anchor", 3, e->data, NULL);
  }
  e->data[1] = 1.0; /* MuJoCo's default relpose "0 1 0 0 0 0 0" */
  rc = rc ? rc : urdf_attr_numbers(&m->u, node, "relpose", 7, e->data, &(int){0});
  /* MuJoCo: an all-zero quaternion part means "the reference pose" */
  e->has_relpose = e->data[3] != 0.0 || e->data[4] != 0.0 || e->data[5] != 0.0 || e->data[6] != 0.0;
  return rc;
}

/* Only a polycoef's linear part can be a coupler constraint. */
static int linear_polycoef(mjcf_model *m, urdf_node *node, const mjcf_equality *e) {
  if (e->data[2] != 0.0 || e->data[3] != 0.0 || e->data[4] != 0.0) {
    return urdf_fail(&m->u, node, TEAL_EINVAL,
                     "polycoef has nonzero quadratic or higher terms (%g %g %g): only a linear "
                     "coupling (a coupler constraint) is supported",
                     e->data[2], e->data[3], e->data[4]);
  }
  return TEAL_OK;
}

/* joint1 [joint2] and the polynomial; only its linear part is modeled. */
static int parse_joints(mjcf_model *m, urdf_node *node, mjcf_equality *e) {
  int rc = urdf_attr_required(&m->u, node, "joint1", &e->name1);
  e->name2 = rc ? NULL : urdf_attr(&m->u, node, "joint2");
  e->data[1] = 1.0; /* MuJoCo's default polycoef "0 1 0 0 0" */
  rc = rc ? rc : urdf_attr_numbers(&m->u, node, "polycoef", 5, e->data, &(int){0});
  if (rc == TEAL_OK && !e->name2) {
    return urdf_fail(&m->u, node, TEAL_EINVAL,
                     "a joint equality without joint2 (joint1 held at a constant) is not "
                     "supported; lock the joint instead");
  }
  return rc ? rc : linear_polycoef(m, node, e);
}

/* tendon1 [tendon2] and the polynomial (MuJoCo's default "0 1 0 0 0"). */
static int parse_tendons(mjcf_model *m, urdf_node *node, mjcf_equality *e) {
  int rc = urdf_attr_required(&m->u, node, "tendon1", &e->name1);
  e->name2 = rc ? NULL : urdf_attr(&m->u, node, "tendon2");
  e->data[1] = 1.0;
  rc = rc ? rc : urdf_attr_numbers(&m->u, node, "polycoef", 5, e->data, &(int){0});
  return rc ? rc : linear_polycoef(m, node, e);
}

static int parse_one(mjcf_model *m, urdf_node *node) {
  mjcf_equality_kind k = urdf_is(node, "connect") ? MJCF_EQ_CONNECT
                         : urdf_is(node, "weld")  ? MJCF_EQ_WELD
                         : urdf_is(node, "joint") ? MJCF_EQ_JOINT
                                                  : MJCF_EQ_TENDON;
  mjcf_equality *e = urdf_push(&m->u, &m->equalities, sizeof(mjcf_equality));
  if (!e) {
    return m->u.err->code;
  }
  e->node = node;
  e->kind = k;
  int cls;
  int rc = mjcf_element_class(m, node, 0, &cls); /* main is class 0 */
  if (rc == TEAL_OK) {
    warn_ignored(m, node, cls);
  }
  rc = rc ? rc : parse_active(m, node, cls, &e->active);
  rc = rc                    ? rc
       : k == MJCF_EQ_JOINT  ? parse_joints(m, node, e)
       : k == MJCF_EQ_TENDON ? parse_tendons(m, node, e)
                             : parse_bodies(m, node, e);
  return rc;
}

int mjcf_parse_equality(mjcf_model *m, urdf_node *node) {
  int rc = TEAL_OK;
  for (urdf_node *c = node->children; c && !rc; c = c->next) {
    if (urdf_is(c, "connect") || urdf_is(c, "weld") || urdf_is(c, "joint") ||
        urdf_is(c, "tendon")) {
      rc = parse_one(m, c);
    } else if (c->name) {
      urdf_warn(&m->u, c, &m->report->ignored_elements,
                "unsupported equality ignored (connect, weld, joint and tendon are)");
    }
  }
  return rc;
}

/* ---- the check ------------------------------------------------------------------------ */

/* The document body whose plant body carries body b: a joint-less
 * massless body is a frame on its parent's. */
static int carrier(const mjcf_model *m, int b) {
  while (b != MJCF_WORLD && MBODY(m)[b].num_joints == 0 && !(MBODY(m)[b].M_BBo_B.mass > 0.0)) {
    b = MBODY(m)[b].parent;
  }
  return b;
}

/* The body's pose in the world at the reference configuration. */
static teal_transform reference_pose(const mjcf_model *m, int b) {
  teal_transform X_WB = teal_transform_identity();
  for (; b != MJCF_WORLD; b = MBODY(m)[b].parent) {
    X_WB = teal_transform_compose(MBODY(m)[b].X_PB, X_WB);
  }
  return X_WB;
}

static int find_body(mjcf_model *m, const mjcf_equality *e, const char *name) {
  int b = name ? urdf_index_find(&m->body_index, &m->bodies, sizeof(mjcf_body), name) : MJCF_WORLD;
  return b >= 0 ? b : urdf_fail(&m->u, e->node, TEAL_ENOTFOUND, "unknown body '%.80s'", name);
}

/* Bodies known and on distinct plant bodies; the frames in the bodies. */
static int resolve_bodies(mjcf_model *m, mjcf_equality *e) {
  e->i1 = find_body(m, e, e->name1);
  e->i2 = e->i1 < 0 ? e->i1 : find_body(m, e, e->name2);
  if (e->i2 < 0) {
    return m->u.err->code;
  }
  if (carrier(m, e->i1) == carrier(m, e->i2)) {
    return urdf_fail(&m->u, e->node, TEAL_EINVAL,
                     "bodies '%.80s' and '%.80s' move as one: an equality joins two bodies",
                     MBODY(m)[e->i1].name, MBODY(m)[e->i2].name);
  }
  teal_transform X_W1 = reference_pose(m, e->i1), X_W2 = reference_pose(m, e->i2);
  teal_transform X_12 = teal_transform_compose(teal_transform_inverse(X_W1), X_W2);
  e->X_1 = e->X_2 = teal_transform_identity();
  if (e->kind == MJCF_EQ_CONNECT) {
    /* the anchor in body1; body2's point is where it is at the reference */
    e->X_1.p = teal_vec3_make(e->data[0], e->data[1], e->data[2]);
    e->X_2.p = teal_transform_apply(teal_transform_inverse(X_12), e->X_1.p);
  } else if (e->has_relpose) {
    teal_quaternion q = teal_quaternion_make(e->data[3], e->data[4], e->data[5], e->data[6]);
    teal_quaternion_normalize(&q);
    e->X_1 = teal_transform_make(teal_rotation_from_quaternion(q),
                                 teal_vec3_make(e->data[0], e->data[1], e->data[2]));
  } else {
    e->X_1 = X_12;
  }
  return TEAL_OK;
}

/* Joints known, distinct, hinge or slide. */
static int resolve_joints(mjcf_model *m, mjcf_equality *e) {
  const char *names[2] = {e->name1, e->name2};
  int *out[2] = {&e->i1, &e->i2};
  for (int k = 0; k < 2; k++) {
    *out[k] = urdf_index_find(&m->joint_index, &m->joints, sizeof(mjcf_joint), names[k]);
    if (*out[k] < 0) {
      return urdf_fail(&m->u, e->node, TEAL_ENOTFOUND, "unknown joint '%.80s'", names[k]);
    }
    mjcf_joint_type t = MJOINT(m)[*out[k]].type;
    if (t != MJCF_HINGE && t != MJCF_SLIDE) {
      return urdf_fail(&m->u, e->node, TEAL_EINVAL,
                       "joint '%.80s' is a ball or free joint: a joint equality needs hinge or "
                       "slide joints",
                       names[k]);
    }
  }
  return e->i1 == e->i2 ? urdf_fail(&m->u, e->node, TEAL_EINVAL,
                                    "joint1 and joint2 are the same joint '%.80s'", e->name1)
                        : TEAL_OK;
}

int mjcf_check_equalities(mjcf_model *m) {
  int rc = TEAL_OK;
  for (int i = 0; i < m->equalities.n && rc == TEAL_OK; i++) {
    mjcf_equality *e = &MEQ(m)[i];
    rc = e->kind == MJCF_EQ_JOINT    ? resolve_joints(m, e)
         : e->kind == MJCF_EQ_TENDON ? mjcf_check_tendon_equality(m, e)
                                     : resolve_bodies(m, e);
  }
  return rc;
}

/* ---- the build ------------------------------------------------------------------------ */

static int add_one(const mjcf_model *m, teal_plant *plant, const mjcf_equality *e) {
  if (e->kind == MJCF_EQ_TENDON) {
    return teal_plant_add_coupler_constraint(plant, MJOINT(m)[e->i1].plant_joint,
                                             MJOINT(m)[e->i2].plant_joint, e->ratio, e->offset);
  }
  if (e->kind == MJCF_EQ_JOINT) {
    /* MuJoCo: q1 - ref1 = a0 + a1 (q2 - ref2) (qpos0 = ref), Drake's q0 = rho q1 + offset */
    const mjcf_joint *j1 = &MJOINT(m)[e->i1], *j2 = &MJOINT(m)[e->i2];
    double offset = e->data[0] + j1->ref - e->data[1] * j2->ref;
    return teal_plant_add_coupler_constraint(plant, j1->plant_joint, j2->plant_joint, e->data[1],
                                             offset);
  }
  const mjcf_body *B1 = &MBODY(m)[e->i1], *B2 = &MBODY(m)[e->i2];
  teal_transform X_A = teal_transform_compose(B1->X_OB, e->X_1);
  teal_transform X_B = teal_transform_compose(B2->X_OB, e->X_2);
  return e->kind == MJCF_EQ_CONNECT
             ? teal_plant_add_ball_constraint(plant, B1->body, X_A.p, B2->body, X_B.p)
             : teal_plant_add_weld_constraint(plant, B1->body, X_A, B2->body, X_B);
}

int mjcf_build_equalities(mjcf_model *m, teal_plant *plant) {
  for (int i = 0; i < m->equalities.n; i++) {
    const mjcf_equality *e = &MEQ(m)[i];
    if (e->skip) {
      continue;
    }
    int c = add_one(m, plant, e);
    int rc = c < 0       ? c
             : e->active ? TEAL_OK
                         : teal_plant_set_constraint_default_enabled(plant, c, 0);
    if (rc < 0) {
      const teal_error *pe = teal_plant_error(plant);
      return urdf_fail(&m->u, e->node, rc, "%s", pe->code ? pe->message : teal_strerror(rc));
    }
  }
  return TEAL_OK;
}
