/* Center of mass, its Jacobian, spatial momentum and power (see momentum.h).
 *
 * Per body, with M_BBo_B = {m, p_BoBcm_B, I} from the tree and X_WB, V_WB
 * from the kinematics: p_WBcm = X_WB p_BoBcm_B, v_WBcm = v_WBo + w_WB x
 * p_BoBcm_W, and the spatial momentum about Bo is M_Bo_W V_WB, shifted to P
 * like a force. */
#include "multibody/algorithms/momentum.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/topology.h"

#define NV_MAX TEAL_JOINT_MAX_NV

struct teal_mb_momentum_workspace {
  const teal_plant *plant;
  int nb, nn, nq, nv, ni;
  teal_error err;
  int *body;                 /* [nn] node -> body */
  unsigned char *instance;   /* [ni] instance selected */
  unsigned char *selected;   /* [nn] node's body selected */
  teal_transform *X_WB;      /* [nb] by body */
  teal_spatial_vector *V_WB; /* [nb] by body */
  double *m_sub;             /* [nn] selected mass of each subtree */
  teal_vec3 *mp_sub;         /* [nn] its first moment, sum m p_WBcm */
};

/* ---- workspace ------------------------------------------------------------ */

static int alloc_arrays(teal_mb_momentum_workspace *ws) {
  size_t nb = (size_t)ws->nb, nn = (size_t)ws->nn;
  ws->body = teal_calloc(nn, sizeof(*ws->body));
  ws->instance = teal_calloc((size_t)ws->ni + 1, sizeof(*ws->instance));
  ws->selected = teal_calloc(nn, sizeof(*ws->selected));
  ws->X_WB = teal_calloc(nb, sizeof(*ws->X_WB));
  ws->V_WB = teal_calloc(nb, sizeof(*ws->V_WB));
  ws->m_sub = teal_calloc(nn, sizeof(*ws->m_sub));
  ws->mp_sub = teal_calloc(nn, sizeof(*ws->mp_sub));
  return ws->body && ws->instance && ws->selected && ws->X_WB && ws->V_WB && ws->m_sub &&
         ws->mp_sub;
}

teal_mb_momentum_workspace *teal_mb_momentum_workspace_new(const teal_plant *plant,
                                                           teal_error *err) {
  static const char fn[] = "teal_mb_momentum_workspace_new";
  if (!plant) {
    teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  if (!teal_plant_is_finalized(plant)) {
    teal_error_set(err, TEAL_ESTATE, "%s: plant is not finalized", fn);
    return NULL;
  }
  teal_mb_momentum_workspace *ws = teal_calloc(1, sizeof(*ws));
  if (!ws) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  ws->plant = plant;
  ws->nb = teal_plant_num_bodies(plant);
  ws->nn = teal_plant_num_nodes(plant);
  ws->nq = teal_plant_nq(plant);
  ws->nv = teal_plant_nv(plant);
  ws->ni = teal_plant_num_model_instances(plant);
  if (!alloc_arrays(ws)) {
    teal_mb_momentum_workspace_free(ws);
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  for (int k = 0; k < ws->nn; k++) {
    ws->body[k] = teal_plant_node_body(plant, k);
  }
  return ws;
}

void teal_mb_momentum_workspace_free(teal_mb_momentum_workspace *ws) {
  if (!ws) {
    return;
  }
  teal_free(ws->body);
  teal_free(ws->instance);
  teal_free(ws->selected);
  teal_free(ws->X_WB);
  teal_free(ws->V_WB);
  teal_free(ws->m_sub);
  teal_free(ws->mp_sub);
  teal_free(ws);
}

const teal_error *teal_mb_momentum_workspace_error(const teal_mb_momentum_workspace *ws) {
  return ws ? &ws->err : NULL;
}

/* ---- validation ------------------------------------------------------------ */

/* x (n values) must be non-NULL (unless optional) and finite. */
static int check_array(teal_mb_momentum_workspace *ws, const char *fn, const char *name,
                       const double *x, int n, int optional) {
  if (!x) {
    return optional ? TEAL_OK : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_error_set(&ws->err, TEAL_ENONFINITE, "%s: %s[%d] is not finite (%g)", fn,
                            name, i, x[i]);
    }
  }
  return TEAL_OK;
}

static int check_out(teal_mb_momentum_workspace *ws, const char *fn, const char *name,
                     const void *x) {
  return x ? TEAL_OK : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
}

/* Checks plant and ws; returns the tree, or NULL with *status set. */
static const teal_plant_tree *check_plant(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                                          const char *fn, int *status) {
  if (!ws) {
    *status = TEAL_EINVAL;
    return NULL;
  }
  teal_error_clear(&ws->err);
  const teal_plant_tree *t = plant ? teal_plant_get_tree(plant) : NULL;
  if (!t) {
    *status = plant ? teal_error_set(&ws->err, TEAL_ESTATE, "%s: plant is not finalized", fn)
                    : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  if (ws->plant != plant || ws->nn != t->num_nodes || ws->nq != teal_plant_nq(plant) ||
      ws->nv != teal_plant_nv(plant) || ws->ni != teal_plant_num_model_instances(plant)) {
    *status = teal_error_set(&ws->err, TEAL_EINVAL, "%s: workspace made for another plant", fn);
    return NULL;
  }
  *status = TEAL_OK;
  return t;
}

/* check_plant, then q, v (if need_v) and the output out (named out_name). */
static const teal_plant_tree *begin(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                                    const char *fn, const double *q, const double *v,
                                    int need_v, const void *out, const char *out_name,
                                    int *status) {
  const teal_plant_tree *t = check_plant(plant, ws, fn, status);
  if (!t || (*status = check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (need_v && (*status = check_array(ws, fn, "v", v, ws->nv, 0))) ||
      (*status = check_out(ws, fn, out_name, out))) {
    return NULL;
  }
  return t;
}

/* Poses (and, if need_v, velocities) of every body into ws. */
static int kinematics(const teal_plant *plant, teal_mb_momentum_workspace *ws, const char *fn,
                      const double *q, const double *v, int need_v) {
  int st = need_v ? teal_plant_calc_body_velocities(plant, q, v, ws->X_WB, ws->V_WB)
                  : teal_plant_calc_body_poses(plant, q, ws->X_WB);
  return st ? teal_error_set(&ws->err, st, "%s: kinematics failed", fn) : TEAL_OK;
}

/* Marks the selected nodes and returns their total mass in *mass (> 0). */
static int select_bodies(teal_mb_momentum_workspace *ws, const teal_plant_tree *t,
                         const char *fn, const int *instances, int n, double *mass) {
  memset(ws->instance, instances ? 0 : 1, (size_t)ws->ni);
  for (int i = 0; instances && i < n; i++) {
    if (instances[i] < 0 || instances[i] >= ws->ni) {
      return teal_error_set(&ws->err, TEAL_EINVAL,
                            "%s: instances[%d] = %d is not a model instance (0..%d)", fn, i,
                            instances[i], ws->ni - 1);
    }
    ws->instance[instances[i]] = 1;
  }
  double m = 0.0;
  ws->selected[0] = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    ws->selected[k] = ws->instance[teal_plant_body_instance(ws->plant, ws->body[k])];
    m += ws->selected[k] ? t->M_BBo_B[k].mass : 0.0;
  }
  if (!(m > 0.0)) {
    return teal_error_set(&ws->err, TEAL_EINVAL, "%s: the selection has no mass (no bodies)",
                          fn);
  }
  *mass = m;
  return TEAL_OK;
}

/* The front of the functions that take a selection: checks, selection
 * (total mass in *mass) and kinematics. */
static const teal_plant_tree *begin_selection(const teal_plant *plant,
                                              teal_mb_momentum_workspace *ws, const char *fn,
                                              const double *q, const double *v, int need_v,
                                              const int *instances, int n, const void *out,
                                              const char *out_name, double *mass, int *status) {
  const teal_plant_tree *t = begin(plant, ws, fn, q, v, need_v, out, out_name, status);
  if (!t || (*status = select_bodies(ws, t, fn, instances, n, mass)) ||
      (*status = kinematics(plant, ws, fn, q, v, need_v))) {
    return NULL;
  }
  return t;
}

/* ---- per-body pieces -------------------------------------------------------- */

/* p_BoBcm_W of node k. */
static teal_vec3 com_offset(const teal_mb_momentum_workspace *ws, const teal_plant_tree *t,
                            int k) {
  return teal_rotation_apply(ws->X_WB[ws->body[k]].R, t->M_BBo_B[k].p_PScm_E);
}

/* v_WBcm of node k (velocities in ws). */
static teal_vec3 com_velocity(const teal_mb_momentum_workspace *ws, const teal_plant_tree *t,
                              int k) {
  teal_spatial_vector V = ws->V_WB[ws->body[k]];
  return teal_vec3_add(teal_spatial_vector_linear(V),
                       teal_vec3_cross(teal_spatial_vector_angular(V), com_offset(ws, t, k)));
}

/* ---- public: mass and center of mass --------------------------------------- */

int teal_mb_total_mass(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                       const int *instances, int num_instances, double *mass) {
  static const char fn[] = "teal_mb_total_mass";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t || (st = check_out(ws, fn, "mass", mass))) {
    return st;
  }
  return select_bodies(ws, t, fn, instances, num_instances, mass);
}

int teal_mb_center_of_mass_position(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                                    const double *q, const int *instances, int num_instances,
                                    teal_vec3 *p_WScm) {
  static const char fn[] = "teal_mb_center_of_mass_position";
  int st;
  double m;
  const teal_plant_tree *t =
      begin_selection(plant, ws, fn, q, NULL, 0, instances, num_instances, p_WScm, "p_WScm",
                      &m, &st);
  if (!t) {
    return st;
  }
  teal_vec3 mp = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    if (ws->selected[k]) {
      teal_vec3 p = teal_vec3_add(ws->X_WB[ws->body[k]].p, com_offset(ws, t, k));
      mp = teal_vec3_add(mp, teal_vec3_scale(p, t->M_BBo_B[k].mass));
    }
  }
  *p_WScm = teal_vec3_scale(mp, 1.0 / m);
  return TEAL_OK;
}

int teal_mb_center_of_mass_velocity(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                                    const double *q, const double *v, const int *instances,
                                    int num_instances, teal_vec3 *v_WScm) {
  static const char fn[] = "teal_mb_center_of_mass_velocity";
  int st;
  double m;
  const teal_plant_tree *t =
      begin_selection(plant, ws, fn, q, v, 1, instances, num_instances, v_WScm, "v_WScm", &m,
                      &st);
  if (!t) {
    return st;
  }
  teal_vec3 mv = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    if (ws->selected[k]) {
      mv = teal_vec3_add(mv, teal_vec3_scale(com_velocity(ws, t, k), t->M_BBo_B[k].mass));
    }
  }
  *v_WScm = teal_vec3_scale(mv, 1.0 / m);
  return TEAL_OK;
}

/* ---- center-of-mass Jacobian ------------------------------------------------ */

/* m_sub and mp_sub of every node: the selected mass and first moment of its
 * subtree, accumulated inward. */
static void subtree_moments(teal_mb_momentum_workspace *ws, const teal_plant_tree *t) {
  for (int k = 0; k < t->num_nodes; k++) {
    double m = ws->selected[k] ? t->M_BBo_B[k].mass : 0.0;
    teal_vec3 p = k ? teal_vec3_add(ws->X_WB[ws->body[k]].p, com_offset(ws, t, k))
                    : teal_vec3_zero();
    ws->m_sub[k] = m;
    ws->mp_sub[k] = teal_vec3_scale(p, m);
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int pk = t->parent[k];
    ws->m_sub[pk] += ws->m_sub[k];
    ws->mp_sub[pk] = teal_vec3_add(ws->mp_sub[pk], ws->mp_sub[k]);
  }
}

/* Node k's columns: a hinge column [w; v_Mo] (in W, at Mo) moves the subtree
 * rigidly, so the selected first moment changes at m_sub v_Mo + w x (mp_sub -
 * m_sub p_WMo); divided by the total mass m. */
static void com_columns(const teal_mb_momentum_workspace *ws, const teal_plant_tree *t, int k,
                        const double *q, double m, double *J) {
  int nv = t->nv[k], nvt = ws->nv;
  const teal_transform *X_WP = &ws->X_WB[ws->body[t->parent[k]]];
  teal_rotation R_WF = teal_rotation_mul(X_WP->R, t->X_PF[k].R);
  teal_vec3 p_WMo = teal_transform_apply(ws->X_WB[ws->body[k]], t->X_BM[k].p);
  teal_vec3 moment = teal_vec3_sub(ws->mp_sub[k], teal_vec3_scale(p_WMo, ws->m_sub[k]));
  double H[6 * NV_MAX];
  t->type[k]->H_FM(&t->params[k], q + t->q_start[k], H);
  for (int j = 0; j < nv; j++) {
    teal_vec3 w = teal_rotation_apply(R_WF, teal_vec3_make(H[j], H[nv + j], H[2 * nv + j]));
    teal_vec3 v = teal_rotation_apply(
        R_WF, teal_vec3_make(H[3 * nv + j], H[4 * nv + j], H[5 * nv + j]));
    teal_vec3 c = teal_vec3_add(teal_vec3_scale(v, ws->m_sub[k]), teal_vec3_cross(w, moment));
    for (int r = 0; r < 3; r++) {
      J[r * nvt + t->v_start[k] + j] = c.v[r] / m;
    }
  }
}

int teal_mb_center_of_mass_jacobian(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                                    const double *q, const int *instances, int num_instances,
                                    double *Jv_v_WScm) {
  static const char fn[] = "teal_mb_center_of_mass_jacobian";
  int st;
  double m;
  const teal_plant_tree *t =
      begin_selection(plant, ws, fn, q, NULL, 0, instances, num_instances, Jv_v_WScm,
                      "Jv_v_WScm", &m, &st);
  if (!t) {
    return st;
  }
  subtree_moments(ws, t);
  memset(Jv_v_WScm, 0, sizeof(double) * 3 * (size_t)ws->nv);
  for (int k = 1; k < t->num_nodes; k++) {
    com_columns(ws, t, k, q, m, Jv_v_WScm);
  }
  return TEAL_OK;
}

/* ---- momentum and power ------------------------------------------------------- */

int teal_mb_spatial_momentum(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                             const double *q, const double *v, const int *instances,
                             int num_instances, teal_vec3 p_WoP_W, teal_spatial_vector *L_WSP_W) {
  static const char fn[] = "teal_mb_spatial_momentum";
  int st;
  double m;
  const teal_plant_tree *t = begin_selection(plant, ws, fn, q, v, 1, instances, num_instances,
                                             L_WSP_W, "L_WSP_W", &m, &st);
  if (!t) {
    return st;
  }
  if (!teal_vec3_is_finite(p_WoP_W)) {
    return teal_error_set(&ws->err, TEAL_ENONFINITE, "%s: p_WoP_W is not finite", fn);
  }
  teal_spatial_vector L = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    if (!ws->selected[k]) {
      continue;
    }
    const teal_transform *X_WB = &ws->X_WB[ws->body[k]];
    teal_spatial_inertia M_Bo_W = teal_spatial_inertia_reexpress(&t->M_BBo_B[k], X_WB->R);
    teal_spatial_vector L_Bo = teal_spatial_inertia_apply(&M_Bo_W, ws->V_WB[ws->body[k]]);
    L = teal_spatial_vector_add(L, teal_spatial_force_shift(L_Bo, teal_vec3_sub(p_WoP_W, X_WB->p)));
  }
  *L_WSP_W = L;
  return TEAL_OK;
}

int teal_mb_conservative_power(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                               const double *q, const double *v, double *power) {
  static const char fn[] = "teal_mb_conservative_power";
  int st;
  const teal_plant_tree *t = begin(plant, ws, fn, q, v, 1, power, "power", &st);
  if (!t || (st = kinematics(plant, ws, fn, q, v, 1))) {
    return st;
  }
  teal_vec3 g = teal_plant_gravity(plant);
  double p = 0.0;
  for (int k = 1; k < t->num_nodes; k++) {
    p += t->M_BBo_B[k].mass * teal_vec3_dot(g, com_velocity(ws, t, k));
  }
  *power = p;
  return TEAL_OK;
}

/* Every F_Bo_W entry but the world's must be finite (NULL allowed). */
static int check_forces(teal_mb_momentum_workspace *ws, const char *fn,
                        const teal_spatial_vector *F) {
  for (int b = 1; F && b < ws->nb; b++) {
    for (int i = 0; i < 6; i++) {
      if (!isfinite(F[b].v[i])) {
        return teal_error_set(&ws->err, TEAL_ENONFINITE,
                              "%s: F_Bo_W[%d].v[%d] is not finite (%g)", fn, b, i, F[b].v[i]);
      }
    }
  }
  return TEAL_OK;
}

int teal_mb_nonconservative_power(const teal_plant *plant, teal_mb_momentum_workspace *ws,
                                  const double *q, const double *v, const double *tau,
                                  const teal_spatial_vector *F_Bo_W, double *power) {
  static const char fn[] = "teal_mb_nonconservative_power";
  int st;
  const teal_plant_tree *t = begin(plant, ws, fn, q, v, 1, power, "power", &st);
  if (!t || (st = check_array(ws, fn, "tau", tau, ws->nv, 1)) ||
      (st = check_forces(ws, fn, F_Bo_W))) {
    return st;
  }
  double p = 0.0;
  for (int i = 0; tau && i < ws->nv; i++) {
    p += tau[i] * v[i];
  }
  if (F_Bo_W) {
    if ((st = kinematics(plant, ws, fn, q, v, 1))) {
      return st;
    }
    for (int b = 1; b < ws->nb; b++) {
      p += teal_spatial_vector_dot(F_Bo_W[b], ws->V_WB[b]);
    }
  }
  *power = p;
  return TEAL_OK;
}
