/* The roll-pitch-yaw joint tables, ball_rpy and rpy_floating (see joints.h),
 * Drake's BallRpyJoint and RpyFloatingJoint: q holds (r, p, y) with
 * R_FM = Rz(y) Ry(p) Rx(r), and v the angular velocity w_FM_F, so H is
 * constant and all the work is in N(q), the map from w to the rpy rates. */
#include <math.h>

#include "math/rotation.h"
#include "multibody/tree/joints_internal.h"

/* The angular part: w_FM_F = E(q) rpydot with the columns
 * Rz(y) Ry(p) x = (cp cy, cp sy, -sp), Rz(y) y = (-sy, cy, 0) and z. E is
 * N+; N = E^-1 has 1 / cp in its first and last rows. */

/* rows 0..2, columns 0..2 of a row-major matrix with ld columns */
static void put3(double *A, int ld, const double m[9]) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      A[i * ld + j] = m[3 * i + j];
    }
  }
}

static void zero(double *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = 0.0;
  }
}

static void rpy_E(const double *q, double *A, int ld) {
  double cp = cos(q[1]), sp = sin(q[1]), cy = cos(q[2]), sy = sin(q[2]);
  const double E[9] = {cp * cy, -sy, 0.0, cp * sy, cy, 0.0, -sp, 0.0, 1.0};
  put3(A, ld, E);
}

static void rpy_Einv(const double *q, double *A, int ld) {
  double cp = cos(q[1]), sp = sin(q[1]), cy = cos(q[2]), sy = sin(q[2]);
  double tp = sp / cp;
  const double N[9] = {cy / cp, sy / cp, 0.0, -sy, cy, 0.0, cy * tp, sy * tp, 1.0};
  put3(A, ld, N);
}

/* d/dt E^-1 = dN/dp pdot + dN/dy ydot (N does not depend on the roll), with
 * the rates (pdot, ydot) = rows 1 and 2 of N w */
static void rpy_Einv_dot(const double *q, const double *w, double *A, int ld) {
  double cp = cos(q[1]), sp = sin(q[1]), cy = cos(q[2]), sy = sin(q[2]);
  double tp = sp / cp, sec = 1.0 / cp;
  double pd = -sy * w[0] + cy * w[1];
  double yd = tp * (cy * w[0] + sy * w[1]) + w[2];
  const double Nd[9] = {(cy * tp * pd - sy * yd) * sec,
                        (sy * tp * pd + cy * yd) * sec,
                        0.0,
                        -cy * yd,
                        -sy * yd,
                        0.0,
                        cy * sec * sec * pd - sy * tp * yd,
                        sy * sec * sec * pd + cy * tp * yd,
                        0.0};
  put3(A, ld, Nd);
}

static int rpy_check_N(const double *q) {
  return fabs(cos(q[1])) < TEAL_JOINT_RPY_MIN_COS_PITCH ? TEAL_ESINGULAR : TEAL_OK;
}

static teal_rotation rpy_R(const double *q) {
  return teal_rotation_from_rpy(teal_vec3_make(q[0], q[1], q[2]));
}

static teal_spatial_vector zero_hdot(const teal_joint_params *p, const double *q, const double *v) {
  (void)p;
  (void)q;
  (void)v;
  return teal_spatial_vector_zero();
}

/* ---- ball_rpy: q = (r, p, y), v = w_FM_F -------------------------------- */

static teal_transform ball_rpy_X(const teal_joint_params *p, const double *q) {
  (void)p;
  return teal_transform_make(rpy_R(q), teal_vec3_zero());
}

static void ball_rpy_H(const teal_joint_params *p, const double *q, double *H) {
  (void)p;
  (void)q;
  zero(H, 18); /* [I; 0]: v is the angular velocity */
  for (int i = 0; i < 3; i++) {
    H[i * 3 + i] = 1.0;
  }
}

static void ball_rpy_N(const teal_joint_params *p, const double *q, double *N) {
  (void)p;
  rpy_Einv(q, N, 3);
}

static void ball_rpy_Nplus(const teal_joint_params *p, const double *q, double *Np) {
  (void)p;
  rpy_E(q, Np, 3);
}

static void ball_rpy_Ndot(const teal_joint_params *p, const double *q, const double *v,
                          double *Nd) {
  (void)p;
  rpy_Einv_dot(q, v, Nd, 3);
}

static void default_zero3(double *q) {
  zero(q, 3);
}

/* ---- rpy_floating: q = (r, p, y, p_FM), v = (w_FM_F, v_FMo_F) ----------- */

static teal_transform rpy_floating_X(const teal_joint_params *p, const double *q) {
  (void)p;
  return teal_transform_make(rpy_R(q), teal_vec3_make(q[3], q[4], q[5]));
}

/* H, N+ and N share the form [A 0; 0 I] (6 x 6) */
static void block_diag(double *M, const double *q, void (*A)(const double *, double *, int)) {
  zero(M, 36);
  if (A) {
    A(q, M, 6);
  }
  for (int i = A ? 3 : 0; i < 6; i++) {
    M[i * 6 + i] = 1.0;
  }
}

static void rpy_floating_H(const teal_joint_params *p, const double *q, double *H) {
  (void)p;
  block_diag(H, q, NULL);
}

static void rpy_floating_N(const teal_joint_params *p, const double *q, double *N) {
  (void)p;
  block_diag(N, q, rpy_Einv);
}

static void rpy_floating_Nplus(const teal_joint_params *p, const double *q, double *Np) {
  (void)p;
  block_diag(Np, q, rpy_E);
}

static void rpy_floating_Ndot(const teal_joint_params *p, const double *q, const double *v,
                              double *Nd) {
  (void)p;
  zero(Nd, 36);
  rpy_Einv_dot(q, v, Nd, 6);
}

static void default_zero6(double *q) {
  zero(q, 6);
}

/* ---- the tables and the kind maps ---------------------------------------- */

const teal_joint_type teal_joint_ball_rpy_type = {
    .name = "ball_rpy",
    .nq = 3,
    .nv = 3,
    .X_FM = ball_rpy_X,
    .H_FM = ball_rpy_H,
    .Hdot_v = zero_hdot,
    .N = ball_rpy_N,
    .Nplus = ball_rpy_Nplus,
    .default_q = default_zero3,
    .normalize = NULL,
    .Ndot = ball_rpy_Ndot,
    .check_N = rpy_check_N,
};

const teal_joint_type teal_joint_rpy_floating_type = {
    .name = "rpy_floating",
    .nq = 6,
    .nv = 6,
    .X_FM = rpy_floating_X,
    .H_FM = rpy_floating_H,
    .Hdot_v = zero_hdot,
    .N = rpy_floating_N,
    .Nplus = rpy_floating_Nplus,
    .default_q = default_zero6,
    .normalize = NULL,
    .Ndot = rpy_floating_Ndot,
    .check_N = rpy_check_N,
};

teal_joint_kind teal_joint_euler_kind(teal_joint_kind kind) {
  switch (kind) {
    case TEAL_JOINT_BALL:
      return TEAL_JOINT_BALL_RPY;
    case TEAL_JOINT_QUATERNION_FLOATING:
      return TEAL_JOINT_RPY_FLOATING;
    default:
      return kind;
  }
}

teal_joint_kind teal_joint_quaternion_kind(teal_joint_kind kind) {
  switch (kind) {
    case TEAL_JOINT_BALL_RPY:
      return TEAL_JOINT_BALL;
    case TEAL_JOINT_RPY_FLOATING:
      return TEAL_JOINT_QUATERNION_FLOATING;
    default:
      return kind;
  }
}
