/* Quaternions or roll-pitch-yaw angles for ball and floating joints: the
 * model option, its application at finalize, the quaternion queries and the
 * state conversions between a model's two forms (see euler_angles.h). */
#include "multibody/tree/euler_angles.h"

#include <math.h>
#include <string.h>

#include "math/quaternion.h"
#include "math/rotation.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

/* ---- the model option ------------------------------------------------------ */

int teal_plant_set_use_euler_angles(teal_plant *p, int use) {
  int rc = teal_plant_check_open(p, "option", "use_euler_angles");
  if (rc == TEAL_OK) {
    p->use_euler_angles = use != 0;
  }
  return rc;
}

int teal_plant_get_use_euler_angles(const teal_plant *p) {
  return p ? p->use_euler_angles : TEAL_EINVAL;
}

/* The roll-pitch-yaw angles of the (normalizable) quaternion e. */
static teal_vec3 rpy_of_quaternion(const double *e) {
  return teal_rotation_to_rpy(
      teal_rotation_from_quaternion(teal_quaternion_make(e[0], e[1], e[2], e[3])));
}

/* Joint j in its rpy kind: the default q (a normalized quaternion, checked
 * when it was set) converted, the limits of the quaternion dropped. */
static void joint_to_euler(joint_rec *j) {
  int rpy_kind = teal_joint_euler_kind(j->kind);
  if (j->has_default_q) {
    teal_vec3 rpy = rpy_of_quaternion(j->q_default);
    double x[6] = {rpy.v[0], rpy.v[1], rpy.v[2], j->q_default[4], j->q_default[5], j->q_default[6]};
    memcpy(j->q_default, x, sizeof(x)); /* entries past nq are unused */
  }
  for (int i = 0; i < TEAL_JOINT_MAX_NQ; i++) {
    j->q_lo[i] = -INFINITY;
    j->q_hi[i] = INFINITY;
  }
  j->kind = rpy_kind;
}

int teal_plant_apply_euler_angles_setting(teal_plant *p) {
  for (int j = 0; p->use_euler_angles && j < p->joints.n; j++) {
    joint_rec *jr = &JOINT(p)[j];
    if (teal_joint_euler_kind(jr->kind) != (teal_joint_kind)jr->kind) {
      joint_to_euler(jr);
    }
  }
  return TEAL_OK;
}

/* ---- quaternion queries ----------------------------------------------------- */

/* The tree of a finalized plant, or NULL with the error in *rc. */
static const teal_plant_tree *finalized_tree(const teal_plant *p, teal_error *err, const char *fn,
                                             int *rc) {
  if (!p) {
    *rc = teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  if (!p->finalized) {
    *rc = teal_error_set(err, TEAL_ESTATE,
                         "%s: the plant is not finalized (call teal_plant_finalize first)", fn);
    return NULL;
  }
  *rc = TEAL_OK;
  return &p->tree;
}

int teal_plant_num_quaternions_in_use(const teal_plant *p, teal_error *err) {
  int rc;
  const teal_plant_tree *t = finalized_tree(p, err, "plant num_quaternions_in_use", &rc);
  int n = 0;
  for (int k = 1; t && k < t->num_nodes; k++) {
    n += t->type[k]->normalize != NULL;
  }
  return t ? n : rc;
}

/* Writes the pool index of body's joint (-1: no quaternion) into *index. */
static int pool_index(const teal_plant *p, int body, int *index, teal_error *err, const char *fn) {
  int rc;
  const teal_plant_tree *t = finalized_tree(p, err, fn, &rc);
  if (!t) {
    return rc;
  }
  if (body < 0 || body >= p->bodies.n) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: unknown body %d (the plant has %d)", fn, body,
                          p->bodies.n);
  }
  int node = teal_plant_body_node(p, body), n = 0;
  for (int k = 1; k < node; k++) {
    n += t->type[k]->normalize != NULL;
  }
  *index = node > 0 && t->type[node]->normalize ? n : -1;
  return TEAL_OK;
}

int teal_plant_is_using_quaternion(const teal_plant *p, int body, teal_error *err) {
  int index = -1;
  int rc = pool_index(p, body, &index, err, "plant is_using_quaternion");
  return rc ? rc : index >= 0;
}

int teal_plant_quaternion_pool_index(const teal_plant *p, int body, int *index, teal_error *err) {
  if (!index) {
    return teal_error_set(err, TEAL_EINVAL, "plant quaternion_pool_index: index is NULL");
  }
  return pool_index(p, body, index, err, "plant quaternion_pool_index");
}

/* ---- state conversion ------------------------------------------------------- */

/* The checks common to both directions: finalized plants, sizes, finite
 * values, and trees that match node by node (same body names and parents,
 * each joint of the same kind up to its parametrization). */
static int check_twins(const teal_plant *a, const double *xa, int na, const teal_plant *b,
                       const double *xb, int nb, teal_error *err, const char *fn) {
  int rc;
  if (!finalized_tree(a, err, fn, &rc) || !finalized_tree(b, err, fn, &rc)) {
    return rc;
  }
  if (!xa || !xb) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s is NULL", fn, xa ? "x_to" : "x_from");
  }
  if (na != a->nq + a->nv || nb != b->nq + b->nv) {
    return teal_error_set(err, TEAL_ESIZE,
                          "%s: x_from has %d values and x_to %d; the plants' states have nq + nv "
                          "= %d and %d",
                          fn, na, nb, a->nq + a->nv, b->nq + b->nv);
  }
  for (int i = 0; i < na; i++) {
    if (!isfinite(xa[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s: x_from[%d] = %g is not finite", fn, i,
                            xa[i]);
    }
  }
  const teal_plant_tree *ta = &a->tree, *tb = &b->tree;
  for (int k = 0; k < ta->num_nodes && ta->num_nodes == tb->num_nodes; k++) {
    int ba = teal_plant_node_body(a, k), bb = teal_plant_node_body(b, k);
    if (strcmp(BODY(a)[ba].name, BODY(b)[bb].name) != 0 || ta->parent[k] != tb->parent[k] ||
        teal_joint_quaternion_kind(ta->joint_kind[k]) !=
            teal_joint_quaternion_kind(tb->joint_kind[k])) {
      return teal_error_set(err, TEAL_EINVAL,
                            "%s: the plants are not two forms of one model: tree node %d is body "
                            "'%s' (%s joint) in one and '%s' (%s joint) in the other",
                            fn, k, BODY(a)[ba].name, ta->type[k] ? ta->type[k]->name : "no",
                            BODY(b)[bb].name, tb->type[k] ? tb->type[k]->name : "no");
    }
  }
  if (ta->num_nodes != tb->num_nodes) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s: the plants are not two forms of one model: %d and %d bodies", fn,
                          ta->num_nodes, tb->num_nodes);
  }
  return TEAL_OK;
}

/* One joint's q from a quaternion form to the rpy form (to_euler) or back;
 * the quaternion or rotation first, then any translation. */
static int convert_joint(const double *in, int nq_in, double *out, int to_euler) {
  int nt = nq_in - (to_euler ? 4 : 3); /* translations: 3 (floating) or 0 */
  if (to_euler) {
    if (!teal_quaternion_is_normalizable(in)) {
      return TEAL_EINVAL;
    }
    teal_vec3 rpy = rpy_of_quaternion(in);
    memcpy(out, rpy.v, 3 * sizeof(double));
  } else {
    teal_quaternion e =
        teal_rotation_to_quaternion(teal_rotation_from_rpy(teal_vec3_make(in[0], in[1], in[2])));
    double w[4] = {e.w, e.x, e.y, e.z};
    memcpy(out, w, sizeof(w));
  }
  memcpy(out + (to_euler ? 3 : 4), in + (to_euler ? 4 : 3), (size_t)nt * sizeof(double));
  return TEAL_OK;
}

static int convert(const teal_plant *a, const double *xa, int na, const teal_plant *b, double *xb,
                   int nb, teal_error *err, int to_euler, const char *fn) {
  int rc = check_twins(a, xa, na, b, xb, nb, err, fn);
  if (rc) {
    return rc;
  }
  const teal_plant_tree *ta = &a->tree, *tb = &b->tree;
  for (int k = 1; k < ta->num_nodes; k++) {
    const double *in = xa + ta->q_start[k];
    double *out = xb + tb->q_start[k];
    int same = ta->joint_kind[k] == tb->joint_kind[k];
    int wanted = to_euler ? ta->type[k]->normalize != NULL : tb->type[k]->normalize != NULL;
    const char *jn = teal_plant_joint_name(a, teal_plant_body_joint(a, teal_plant_node_body(a, k)));
    if (same) {
      memcpy(out, in, (size_t)ta->nq[k] * sizeof(double));
    } else if (!wanted) {
      return teal_error_set(err, TEAL_EINVAL,
                            "%s: joint '%s' is %s in x_from and %s in x_to: that is the other "
                            "direction (teal_plant_convert_to_%s)",
                            fn, jn, ta->type[k]->name, tb->type[k]->name,
                            to_euler ? "quaternions" : "euler_angles");
    } else if (convert_joint(in, ta->nq[k], out, to_euler) != TEAL_OK) {
      return teal_error_set(err, TEAL_EINVAL,
                            "%s: the quaternion x_from[%d..%d] of joint '%s' is zero or cannot "
                            "be normalized",
                            fn, ta->q_start[k], ta->q_start[k] + 3, jn);
    }
  }
  memcpy(xb + b->nq, xa + a->nq, (size_t)a->nv * sizeof(double));
  return TEAL_OK;
}

int teal_plant_convert_to_euler_angles(const teal_plant *from, const double *x_from, int n_from,
                                       const teal_plant *to, double *x_to, int n_to,
                                       teal_error *err) {
  return convert(from, x_from, n_from, to, x_to, n_to, err, 1, "plant convert_to_euler_angles");
}

int teal_plant_convert_to_quaternions(const teal_plant *from, const double *x_from, int n_from,
                                      const teal_plant *to, double *x_to, int n_to,
                                      teal_error *err) {
  return convert(from, x_from, n_from, to, x_to, n_to, err, 0, "plant convert_to_quaternions");
}
