/* Joint type tables: X_FM(q), H, Hdot v, N, N+ per type (see joints.h). */
#include "multibody/tree/joints.h"

#include "multibody/tree/joints_internal.h"

static const double kTwoPi = 6.28318530717958647692;

/* ---- shared pieces ------------------------------------------------------ */

static void zero(double *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = 0.0;
  }
}

/* n x n identity, row-major */
static void identity(double *a, int n) {
  zero(a, n * n);
  for (int i = 0; i < n; i++) {
    a[i * n + i] = 1.0;
  }
}

static teal_spatial_vector zero_hdot(const teal_joint_params *p, const double *q,
                                     const double *v) {
  (void)p;
  (void)q;
  (void)v;
  return teal_spatial_vector_zero();
}

/* N = N+ = I for types whose q and v coincide */
static void n_identity(const teal_joint_params *p, const double *q, double *N, int n) {
  (void)p;
  (void)q;
  identity(N, n);
}

static void default_zero1(double *q) {
  q[0] = 0.0;
}

static void default_zero2(double *q) {
  zero(q, 2);
}

static void default_zero3(double *q) {
  zero(q, 3);
}

static void default_quat(double *q) {
  q[0] = 1.0;
  zero(q + 1, 3);
}

static void default_floating(double *q) {
  default_quat(q);
  zero(q + 4, 3);
}

static teal_quaternion quat_of(const double *q) {
  return teal_quaternion_make(q[0], q[1], q[2], q[3]);
}

static int normalize_quat(double *q) {
  teal_quaternion u = quat_of(q);
  int rc = teal_quaternion_normalize(&u);
  if (rc == TEAL_OK) {
    q[0] = u.w;
    q[1] = u.x;
    q[2] = u.y;
    q[3] = u.z;
  }
  return rc;
}

/* N block of a quaternion with angular velocity in F: qdot = 0.5 E_P(q) w,
 * written into rows 0..3, columns 0..2 of a row-major matrix with ld columns */
static void quat_N(const double *q, double *N, int ld) {
  double E[12];
  teal_quaternion_rate_matrix_parent(quat_of(q), E);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 3; j++) {
      N[i * ld + j] = 0.5 * E[3 * i + j];
    }
  }
}

/* N+ block: w = 2 E_P(q)' qdot / |q|^2, rows 0..2, columns 0..3 (ld columns) */
static void quat_Nplus(const double *q, double *Np, int ld) {
  double E[12];
  teal_quaternion u = quat_of(q);
  double s = 2.0 / (u.w * u.w + u.x * u.x + u.y * u.y + u.z * u.z);
  teal_quaternion_rate_matrix_parent(u, E);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 4; j++) {
      Np[i * ld + j] = s * E[3 * j + i];
    }
  }
}

/* Ndot block of a quaternion: N = 0.5 E_P(q) is linear in q, so
 * Ndot = 0.5 E_P(qdot) with qdot = N v (rows 0..3, columns 0..2, ld columns) */
static void quat_Ndot(const double *q, const double *w, double *Nd, int ld) {
  double qd[4], N[12];
  quat_N(q, N, 3);
  for (int i = 0; i < 4; i++) {
    qd[i] = N[3 * i] * w[0] + N[3 * i + 1] * w[1] + N[3 * i + 2] * w[2];
  }
  quat_N(qd, Nd, ld);
}

/* ---- weld --------------------------------------------------------------- */

static teal_transform weld_X(const teal_joint_params *p, const double *q) {
  (void)p;
  (void)q;
  return teal_transform_identity();
}

static void weld_mat(const teal_joint_params *p, const double *q, double *H) {
  (void)p;
  (void)q;
  (void)H;
}

static void weld_default(double *q) {
  (void)q;
}

/* ---- one-dof: revolute, prismatic, screw -------------------------------- */

static teal_transform revolute_X(const teal_joint_params *p, const double *q) {
  return teal_transform_make(teal_rotation_from_axis_angle(p->axis, q[0]), teal_vec3_zero());
}

static void revolute_H(const teal_joint_params *p, const double *q, double *H) {
  (void)q;
  zero(H, 6);
  for (int i = 0; i < 3; i++) {
    H[i] = p->axis.v[i];
  }
}

static teal_transform prismatic_X(const teal_joint_params *p, const double *q) {
  return teal_transform_make(teal_rotation_identity(), teal_vec3_scale(p->axis, q[0]));
}

static void prismatic_H(const teal_joint_params *p, const double *q, double *H) {
  (void)q;
  zero(H, 6);
  for (int i = 0; i < 3; i++) {
    H[3 + i] = p->axis.v[i];
  }
}

static teal_transform screw_X(const teal_joint_params *p, const double *q) {
  return teal_transform_make(teal_rotation_from_axis_angle(p->axis, q[0]),
                             teal_vec3_scale(p->axis, p->pitch * q[0] / kTwoPi));
}

static void screw_H(const teal_joint_params *p, const double *q, double *H) {
  (void)q;
  for (int i = 0; i < 3; i++) {
    H[i] = p->axis.v[i];
    H[3 + i] = p->axis.v[i] * p->pitch / kTwoPi;
  }
}

static void n_identity1(const teal_joint_params *p, const double *q, double *N) {
  n_identity(p, q, N, 1);
}

/* ---- universal: R_FM = Rx(qx) Ry(qy) ------------------------------------ */

static teal_transform universal_X(const teal_joint_params *p, const double *q) {
  (void)p;
  teal_rotation Rx = teal_rotation_from_axis_angle(teal_vec3_make(1, 0, 0), q[0]);
  teal_rotation Ry = teal_rotation_from_axis_angle(teal_vec3_make(0, 1, 0), q[1]);
  return teal_transform_make(teal_rotation_mul(Rx, Ry), teal_vec3_zero());
}

/* w_FM_F = x qx' + Rx(qx) y qy' */
static void universal_H(const teal_joint_params *p, const double *q, double *H) {
  (void)p;
  zero(H, 12);
  H[0 * 2 + 0] = 1.0;
  H[1 * 2 + 1] = cos(q[0]);
  H[2 * 2 + 1] = sin(q[0]);
}

/* d/dt of the second column, times qy': qx' qy' (0, -sin qx, cos qx) */
static teal_spatial_vector universal_Hdot_v(const teal_joint_params *p, const double *q,
                                            const double *v) {
  (void)p;
  double s = v[0] * v[1];
  return teal_spatial_vector_make(teal_vec3_make(0.0, -sin(q[0]) * s, cos(q[0]) * s),
                                  teal_vec3_zero());
}

static void n_identity2(const teal_joint_params *p, const double *q, double *N) {
  n_identity(p, q, N, 2);
}

/* ---- planar: q = (x, y, theta) ------------------------------------------ */

static teal_transform planar_X(const teal_joint_params *p, const double *q) {
  (void)p;
  return teal_transform_make(teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 1), q[2]),
                             teal_vec3_make(q[0], q[1], 0.0));
}

static void planar_H(const teal_joint_params *p, const double *q, double *H) {
  (void)p;
  (void)q;
  zero(H, 18);
  H[2 * 3 + 2] = 1.0; /* w_z = theta' */
  H[3 * 3 + 0] = 1.0; /* v_x = x' */
  H[4 * 3 + 1] = 1.0; /* v_y = y' */
}

static void n_identity3(const teal_joint_params *p, const double *q, double *N) {
  n_identity(p, q, N, 3);
}

/* ---- ball: q = quaternion, v = w_FM_F ----------------------------------- */

static teal_transform ball_X(const teal_joint_params *p, const double *q) {
  (void)p;
  return teal_transform_make(teal_rotation_from_quaternion(quat_of(q)), teal_vec3_zero());
}

static void ball_H(const teal_joint_params *p, const double *q, double *H) {
  (void)p;
  (void)q;
  zero(H, 18);
  for (int i = 0; i < 3; i++) {
    H[i * 3 + i] = 1.0;
  }
}

static void ball_N(const teal_joint_params *p, const double *q, double *N) {
  (void)p;
  quat_N(q, N, 3);
}

static void ball_Nplus(const teal_joint_params *p, const double *q, double *Np) {
  (void)p;
  quat_Nplus(q, Np, 4);
}

static void ball_Ndot(const teal_joint_params *p, const double *q, const double *v, double *Nd) {
  (void)p;
  quat_Ndot(q, v, Nd, 3);
}

/* ---- quaternion floating: q = (quat, p), v = (w_FM_F, v_FMo_F) ---------- */

static teal_transform floating_X(const teal_joint_params *p, const double *q) {
  (void)p;
  return teal_transform_make(teal_rotation_from_quaternion(quat_of(q)),
                             teal_vec3_make(q[4], q[5], q[6]));
}

static void floating_H(const teal_joint_params *p, const double *q, double *H) {
  n_identity(p, q, H, 6);
}

static void floating_N(const teal_joint_params *p, const double *q, double *N) {
  (void)p;
  zero(N, 42);
  quat_N(q, N, 6);
  for (int i = 0; i < 3; i++) {
    N[(4 + i) * 6 + 3 + i] = 1.0;
  }
}

static void floating_Nplus(const teal_joint_params *p, const double *q, double *Np) {
  (void)p;
  zero(Np, 42);
  quat_Nplus(q, Np, 7);
  for (int i = 0; i < 3; i++) {
    Np[(3 + i) * 7 + 4 + i] = 1.0;
  }
}

static void floating_Ndot(const teal_joint_params *p, const double *q, const double *v,
                          double *Nd) {
  (void)p;
  zero(Nd, 42);
  quat_Ndot(q, v, Nd, 6);
}

/* ---- the tables --------------------------------------------------------- */

/* the kinds before the roll-pitch-yaw ones (those live in joints_rpy.c) */
static const teal_joint_type kTypes[TEAL_JOINT_BALL_RPY] = {
    [TEAL_JOINT_WELD] = {"weld", 0, 0, weld_X, weld_mat, zero_hdot, weld_mat, weld_mat,
                         weld_default, NULL},
    [TEAL_JOINT_REVOLUTE] = {"revolute", 1, 1, revolute_X, revolute_H, zero_hdot, n_identity1,
                             n_identity1, default_zero1, NULL},
    [TEAL_JOINT_PRISMATIC] = {"prismatic", 1, 1, prismatic_X, prismatic_H, zero_hdot, n_identity1,
                              n_identity1, default_zero1, NULL},
    [TEAL_JOINT_BALL] = {"ball", 4, 3, ball_X, ball_H, zero_hdot, ball_N, ball_Nplus, default_quat,
                         normalize_quat, ball_Ndot, NULL},
    [TEAL_JOINT_UNIVERSAL] = {"universal", 2, 2, universal_X, universal_H, universal_Hdot_v,
                              n_identity2, n_identity2, default_zero2, NULL},
    [TEAL_JOINT_PLANAR] = {"planar", 3, 3, planar_X, planar_H, zero_hdot, n_identity3, n_identity3,
                           default_zero3, NULL},
    [TEAL_JOINT_SCREW] = {"screw", 1, 1, screw_X, screw_H, zero_hdot, n_identity1, n_identity1,
                          default_zero1, NULL},
    [TEAL_JOINT_QUATERNION_FLOATING] = {"quaternion_floating", 7, 6, floating_X, floating_H,
                                        zero_hdot, floating_N, floating_Nplus, default_floating,
                                        normalize_quat, floating_Ndot, NULL},
};

const teal_joint_type *teal_joint_type_get(teal_joint_kind kind) {
  if (kind == TEAL_JOINT_BALL_RPY) {
    return &teal_joint_ball_rpy_type;
  }
  if (kind == TEAL_JOINT_RPY_FLOATING) {
    return &teal_joint_rpy_floating_type;
  }
  if ((int)kind < 0 || kind >= TEAL_JOINT_BALL_RPY) {
    return NULL;
  }
  return &kTypes[kind];
}

teal_spatial_vector teal_joint_velocity(const teal_joint_type *t, const teal_joint_params *p,
                                        const double *q, const double *v) {
  double H[6 * TEAL_JOINT_MAX_NV];
  teal_spatial_vector V = teal_spatial_vector_zero();
  t->H_FM(p, q, H);
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < t->nv; j++) {
      V.v[i] += H[i * t->nv + j] * v[j];
    }
  }
  return V;
}

int teal_joint_qdot(const teal_joint_type *t, const teal_joint_params *p, const double *q,
                    const double *v, double *qdot) {
  double N[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV];
  int rc = t->check_N ? t->check_N(q) : TEAL_OK;
  if (rc) {
    zero(qdot, t->nq);
    return rc;
  }
  t->N(p, q, N);
  for (int i = 0; i < t->nq; i++) {
    qdot[i] = 0.0;
    for (int j = 0; j < t->nv; j++) {
      qdot[i] += N[i * t->nv + j] * v[j];
    }
  }
  return TEAL_OK;
}
