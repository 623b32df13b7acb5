/* MJCF bodies: <worldbody> and nested <body> elements with their
 * <inertial>, <joint> / <freejoint>, <geom> and <site> children. Inertia
 * comes from <inertial> or, as MuJoCo's compiler does, from the geoms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/mjcf_internal.h"

/* A name from the attribute, else generated as "<prefix><k>". */
static const char *element_name(mjcf_model *m, urdf_node *node, const char *prefix, int k) {
  const char *name = node ? urdf_attr(&m->u, node, "name") : NULL;
  if (name && *name) {
    return name;
  }
  if (m->u.err->code) {
    return NULL;
  }
  size_t n = strlen(prefix) + 16;
  char *s = teal_alloc(n);
  if (s) {
    snprintf(s, n, "%s%d", prefix, k);
  }
  return urdf_keep(&m->u, s);
}

/* A generated name "<body>_<what>" for the k-th unnamed child of body. */
static const char *child_name(mjcf_model *m, urdf_node *node, int body, const char *what, int k) {
  const char *bname = MBODY(m)[body].name;
  size_t n = strlen(bname) + strlen(what) + 3;
  char *prefix = teal_alloc(n);
  if (!prefix) {
    urdf_fail(&m->u, node, TEAL_ENOMEM, "out of memory");
    return NULL;
  }
  snprintf(prefix, n, "%s_%s", bname, what);
  const char *name = element_name(m, node, prefix, k);
  teal_free(prefix);
  return name;
}

/* ---- <inertial> ------------------------------------------------------------------- */

static int parse_inertial(mjcf_model *m, urdf_node *node, teal_spatial_inertia *M) {
  teal_transform X;
  double mass, d[6];
  int nd = 0, nf = 0;
  int rc = mjcf_pose(m, node, "inertial", -1, &X);
  rc = rc ? rc : urdf_attr_double(&m->u, node, "mass", 1, 0.0, &mass);
  rc = rc ? rc : mjcf_numbers(m, node, "inertial", -1, "diaginertia", 3, d, &nd);
  rc = rc ? rc : mjcf_numbers(m, node, "inertial", -1, "fullinertia", 6, d, &nf);
  if (rc) {
    return rc;
  }
  if ((nd != 3) == (nf != 6) || (nd && nd != 3) || (nf && nf != 6)) {
    return urdf_fail(&m->u, node, TEAL_EPARSE,
                     "needs diaginertia (3 numbers) or fullinertia (6 numbers), not both");
  }
  if (mass < 0.0) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "negative mass %g", mass);
  }
  /* fullinertia is Ixx Iyy Izz Ixy Ixz Iyz */
  teal_mat3 I = nd ? teal_mat3_diag(d[0], d[1], d[2])
                   : (teal_mat3){{d[0], d[3], d[4], d[3], d[1], d[5], d[4], d[5], d[2]}};
  I = teal_mat3_mul(teal_mat3_mul(X.R, I), teal_mat3_transpose(X.R));
  *M = teal_spatial_inertia_from_central(mass, X.p, I);
  if (mass > 0.0) {
    teal_error e = {TEAL_OK, ""};
    rc = teal_spatial_inertia_check(M, &e);
    return rc ? urdf_fail(&m->u, node, rc, "%s", e.message) : TEAL_OK;
  }
  return TEAL_OK;
}

/* ---- <joint> ----------------------------------------------------------------------- */

/* A warning for a joint attribute Teal does not model, when it matters. */
static int unmodelled(mjcf_model *m, urdf_node *node, int cls, const char *name) {
  double x;
  int rc = mjcf_double(m, node, "joint", cls, name, 0.0, &x);
  if (rc == TEAL_OK && x != 0.0) {
    urdf_warn(&m->u, node, &m->report->ignored_attributes, "attribute '%s' ignored", name);
  }
  return rc;
}

static int joint_limits(mjcf_model *m, urdf_node *node, int cls, mjcf_joint *j) {
  static const char *const limited_words[] = {"false", "true", "auto", NULL};
  double r[2];
  int n, limited;
  int rc = mjcf_numbers(m, node, "joint", cls, "range", 2, r, &n);
  rc = rc ? rc : mjcf_keyword(m, node, "joint", cls, "limited", limited_words, 2, &limited);
  j->lower = -INFINITY;
  j->upper = INFINITY;
  if (rc) {
    return rc;
  }
  if (n == 1) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "attribute range needs 2 numbers");
  }
  int on = limited == 1 || (limited == 2 && m->autolimits && n == 2);
  if (!on || j->type == MJCF_FREE) {
    return TEAL_OK;
  }
  if (j->type == MJCF_BALL) {
    urdf_warn(&m->u, node, &m->report->ignored_attributes, "ball joint range ignored");
    return TEAL_OK;
  }
  if (n == 0 || r[0] > r[1]) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "limited joint needs a range with lower <= upper");
  }
  double s = j->type == MJCF_HINGE ? m->angle_scale : 1.0;
  j->lower = r[0] * s;
  j->upper = r[1] * s;
  return TEAL_OK;
}

teal_transform mjcf_joint_motion(const mjcf_joint *j, double x) {
  if (j->type == MJCF_SLIDE) {
    return teal_transform_make(teal_rotation_identity(), teal_vec3_scale(j->axis, x));
  }
  if (j->type != MJCF_HINGE || x == 0.0) {
    return teal_transform_identity();
  }
  teal_rotation R = teal_rotation_from_axis_angle(j->axis, x);
  return teal_transform_make(R, teal_vec3_sub(j->pos, teal_rotation_apply(R, j->pos)));
}

/* MuJoCo's ref of a hinge (in the compiler's angle unit) or slide: its
 * qpos0, the position at which the body has its pose in the model; ball and
 * free joints have none (MuJoCo ignores it). */
static int joint_ref(mjcf_model *m, urdf_node *node, int cls, mjcf_joint *j) {
  j->ref = 0.0;
  if (j->type != MJCF_HINGE && j->type != MJCF_SLIDE) {
    return TEAL_OK;
  }
  int rc = mjcf_double(m, node, "joint", cls, "ref", 0.0, &j->ref);
  j->ref *= j->type == MJCF_HINGE ? m->angle_scale : 1.0;
  if (rc == TEAL_OK && !isfinite(j->ref)) {
    rc = urdf_fail(&m->u, node, TEAL_ENONFINITE, "joint ref is not finite");
  }
  return rc;
}

static int joint_axis(mjcf_model *m, urdf_node *node, int cls, mjcf_joint *j) {
  double p[3] = {0, 0, 0}, a[3] = {0, 0, 1};
  int n1, n2;
  int rc = mjcf_numbers(m, node, "joint", cls, "pos", 3, p, &n1);
  rc = rc ? rc : mjcf_numbers(m, node, "joint", cls, "axis", 3, a, &n2);
  if (rc == TEAL_OK && ((n1 && n1 != 3) || (n2 && n2 != 3))) {
    rc = urdf_fail(&m->u, node, TEAL_EPARSE, "pos and axis need 3 numbers");
  }
  if (n2 != 3) {
    a[0] = a[1] = 0.0;
    a[2] = 1.0;
  }
  j->pos = teal_vec3_make(p[0], p[1], p[2]);
  /* scaled by its largest component first: (1e300, 1e300, 0) has no finite norm */
  double big = fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
  teal_vec3 u = teal_vec3_make(a[0] / big, a[1] / big, a[2] / big);
  double norm = teal_vec3_norm(u);
  if (rc == TEAL_OK && !(big * norm > 1e-12)) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "zero joint axis");
  }
  j->axis = rc ? teal_vec3_make(0, 0, 1) : teal_vec3_scale(u, 1.0 / norm);
  return rc;
}

static int parse_joint(mjcf_model *m, urdf_node *node, int body, int cls, int k) {
  static const char *const types[] = {"hinge", "slide", "ball", "free", NULL};
  int type = MJCF_FREE;
  int rc = mjcf_element_class(m, node, cls, &cls);
  if (urdf_is(node, "freejoint")) {
    cls = -1; /* a shorthand for a free joint without damping: no defaults */
  } else if (rc == TEAL_OK) {
    rc = mjcf_keyword(m, node, "joint", cls, "type", types, MJCF_HINGE, &type);
  }
  mjcf_joint *j = rc ? NULL : urdf_push(&m->u, &m->joints, sizeof(mjcf_joint));
  if (!j) {
    return m->u.err->code;
  }
  j->node = node;
  j->body = body;
  j->type = (mjcf_joint_type)type;
  j->plant_joint = -1;
  j->name = child_name(m, node, body, "joint", k);
  rc = m->u.err->code ? m->u.err->code : joint_axis(m, node, cls, j);
  rc = rc ? rc : joint_limits(m, node, cls, j);
  rc = rc ? rc : mjcf_double(m, node, "joint", cls, "damping", 0.0, &j->damping);
  if (rc == TEAL_OK && j->damping < 0.0) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "negative damping %g", j->damping);
  }
  rc = rc ? rc : mjcf_double(m, node, "joint", cls, "armature", 0.0, &j->armature);
  if (rc == TEAL_OK && j->armature < 0.0) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "negative armature %g", j->armature);
  }
  rc = rc ? rc : joint_ref(m, node, cls, j);
  static const char *const skipped[] = {"stiffness", "frictionloss", NULL};
  for (int i = 0; skipped[i] && rc == TEAL_OK; i++) {
    rc = unmodelled(m, node, cls, skipped[i]);
  }
  if (rc == TEAL_OK && type == MJCF_FREE && MBODY(m)[body].parent != MJCF_WORLD) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "a free joint is allowed only in a top-level body");
  }
  return rc;
}

static int parse_site(mjcf_model *m, urdf_node *node, int body, int cls, int k) {
  int rc = mjcf_element_class(m, node, cls, &cls);
  mjcf_site *s = rc ? NULL : urdf_push(&m->u, &m->sites, sizeof(mjcf_site));
  if (!s) {
    return m->u.err->code;
  }
  s->node = node;
  s->body = body;
  s->name = child_name(m, node, body, "site", k);
  return m->u.err->code ? m->u.err->code : mjcf_pose(m, node, "site", cls, &s->X_BS);
}

/* ---- <body> ----------------------------------------------------------------------- */

static int parse_body(mjcf_model *m, urdf_node *node, int parent, int childclass);

/* Elements of a body that have no dynamic effect (no warning). */
static int harmless_child(const urdf_node *c) {
  return urdf_is(c, "camera") || urdf_is(c, "light") || urdf_is(c, "inertial");
}

/* The joints, geoms, sites and child bodies of body b, in document order. */
static int parse_children(mjcf_model *m, urdf_node *node, int b, int add_inertia) {
  int cls = MBODY(m)[b].childclass, nj = 0, ng = 0, ns = 0, rc = TEAL_OK;
  teal_spatial_inertia M = teal_spatial_inertia_make(0.0, teal_vec3_zero(), teal_mat3_zero());
  MBODY(m)[b].first_joint = m->joints.n;
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    if (urdf_is(c, "joint") || urdf_is(c, "freejoint")) {
      rc = b == MJCF_WORLD ? urdf_fail(&m->u, c, TEAL_EINVAL, "a joint in <worldbody>")
                           : parse_joint(m, c, b, cls, nj++);
    } else if (urdf_is(c, "geom")) {
      rc = mjcf_parse_geom(m, c, b, cls, ng++, add_inertia, &M);
    } else if (urdf_is(c, "site")) {
      rc = parse_site(m, c, b, cls, ns++);
    } else if (urdf_is(c, "body")) {
      MBODY(m)[b].has_children = 1;
    } else if (!harmless_child(c)) {
      urdf_warn(&m->u, c, &m->report->ignored_elements, "unsupported element ignored");
    }
  }
  MBODY(m)[b].num_joints = m->joints.n - MBODY(m)[b].first_joint;
  if (add_inertia) {
    MBODY(m)[b].M_BBo_B = M;
  }
  /* child bodies last: their joints come after this body's */
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    rc = urdf_is(c, "body") ? parse_body(m, c, b, cls) : TEAL_OK;
  }
  return rc;
}

/* The body's <inertial> (at most one) and whether its geoms give its inertia. */
static int body_inertia(mjcf_model *m, urdf_node *node, int b, int *from_geoms) {
  urdf_node *in = NULL;
  int rc = urdf_unique_child(&m->u, node, "inertial", &in);
  mjcf_body *B = &MBODY(m)[b];
  B->M_BBo_B = teal_spatial_inertia_make(0.0, teal_vec3_zero(), teal_mat3_zero());
  if (rc == TEAL_OK && in && b == MJCF_WORLD) {
    rc = urdf_fail(&m->u, in, TEAL_EINVAL, "<inertial> in <worldbody>");
  }
  if (rc == TEAL_OK && in) {
    B->has_inertial = 1;
    rc = parse_inertial(m, in, &B->M_BBo_B);
  }
  *from_geoms = b != MJCF_WORLD && (m->inertiafromgeom == 1 || (m->inertiafromgeom < 0 && !in));
  return rc;
}

/* The compiler's lower bound on the mass of every body but the world. */
static void bound_mass(mjcf_model *m, mjcf_body *B) {
  if (B->M_BBo_B.mass < m->boundmass) {
    teal_vec3 c = B->M_BBo_B.mass > 0.0 ? B->M_BBo_B.p_PScm_E : teal_vec3_zero();
    teal_spatial_inertia extra =
        teal_spatial_inertia_from_central(m->boundmass - B->M_BBo_B.mass, c, teal_mat3_zero());
    B->M_BBo_B = teal_spatial_inertia_add(&B->M_BBo_B, &extra);
  }
}

static int parse_body(mjcf_model *m, urdf_node *node, int parent, int childclass) {
  mjcf_body *B = urdf_push(&m->u, &m->bodies, sizeof(mjcf_body));
  if (!B) {
    return m->u.err->code;
  }
  int b = m->bodies.n - 1, from_geoms = 0;
  B->node = node;
  B->parent = parent;
  B->name = parent < 0 ? "world" : element_name(m, node, "body", b);
  int rc = m->u.err->code;
  if (rc == TEAL_OK && parent >= 0) {
    const char *cc = urdf_attr(&m->u, node, "childclass");
    rc = cc ? mjcf_class_named(m, node, cc, &childclass) : m->u.err->code;
    rc = rc ? rc : mjcf_pose(m, node, "body", -1, &MBODY(m)[b].X_PB);
  } else {
    MBODY(m)[b].X_PB = teal_transform_identity();
  }
  MBODY(m)[b].childclass = childclass;
  rc = rc ? rc : body_inertia(m, node, b, &from_geoms);
  rc = rc ? rc : parse_children(m, node, b, from_geoms);
  if (rc == TEAL_OK && b != MJCF_WORLD) {
    bound_mass(m, &MBODY(m)[b]);
  }
  return rc;
}

int mjcf_parse_worldbody(mjcf_model *m, urdf_node *node) {
  if (m->bodies.n > 0) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "more than one <worldbody>");
  }
  int rc = mjcf_ensure_main_class(m);
  return rc ? rc : parse_body(m, node, -1, 0);
}
