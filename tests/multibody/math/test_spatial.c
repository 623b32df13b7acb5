/* Spatial algebra: rotation and quaternion identities and round trips,
 * transforms, spatial cross products and transforms (power invariance),
 * shift/re-express consistency of velocity, force, momentum and inertia,
 * solid-shape inertias against closed forms, the validity check, and the
 * quaternion rate maps integrated against the exact rotation. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/math/spatial.h"
#include "support/test_support.h"

static const double kPi = 3.14159265358979323846;
static const double kTol = 1e-14;

/* ---- helpers ------------------------------------------------------------ */

static teal_vec3 rand_vec3(unsigned *s, double lo, double hi) {
  return teal_vec3_make(ts_rand_uniform(s, lo, hi), ts_rand_uniform(s, lo, hi),
                        ts_rand_uniform(s, lo, hi));
}

static teal_quaternion rand_quaternion(unsigned *s) {
  teal_quaternion q;
  do {
    q = teal_quaternion_make(ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1),
                             ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1));
  } while (teal_quaternion_norm(q) < 0.1);
  ck_assert_int_eq(teal_quaternion_normalize(&q), TEAL_OK);
  return q;
}

static teal_rotation rand_rotation(unsigned *s) {
  return teal_rotation_from_quaternion(rand_quaternion(s));
}

static teal_transform rand_transform(unsigned *s) {
  return teal_transform_make(rand_rotation(s), rand_vec3(s, -2, 2));
}

static teal_spatial_vector rand_spatial(unsigned *s) {
  return teal_spatial_vector_make(rand_vec3(s, -1, 1), rand_vec3(s, -1, 1));
}

/* A random valid central inertia: R diag(a, b, c) R' with a triangle. */
static teal_mat3 rand_central_inertia(unsigned *s) {
  double a = ts_rand_uniform(s, 0.5, 1.5), b = ts_rand_uniform(s, 0.5, 1.5);
  double c = ts_rand_uniform(s, fabs(a - b), a + b);
  teal_rotation R = rand_rotation(s);
  return teal_mat3_mul(teal_mat3_mul(R, teal_mat3_diag(a, b, c)), teal_mat3_transpose(R));
}

static double vec3_diff(teal_vec3 a, teal_vec3 b) {
  return teal_vec3_norm(teal_vec3_sub(a, b));
}

/* Distance between unit quaternions up to sign (q and -q are one rotation). */
static double quat_diff(teal_quaternion a, teal_quaternion b) {
  double dp = fabs(a.w - b.w) + fabs(a.x - b.x) + fabs(a.y - b.y) + fabs(a.z - b.z);
  double dm = fabs(a.w + b.w) + fabs(a.x + b.x) + fabs(a.y + b.y) + fabs(a.z + b.z);
  return dp < dm ? dp : dm;
}

/* ---- rotations ------------------------------------------------------------ */

START_TEST(test_rotation_orthonormal) {
  unsigned s = 12345u;
  for (int k = 0; k < 200; k++) {
    teal_rotation R = rand_rotation(&s);
    teal_mat3 RRt = teal_rotation_mul(R, teal_rotation_inverse(R));
    ck_assert_double_le(teal_mat3_max_abs_diff(RRt, teal_mat3_identity()), kTol);
    ck_assert_double_eq_tol(teal_mat3_det(R), 1.0, kTol);
    ck_assert(teal_rotation_is_orthonormal(R, 1e-13));
    /* R_AB' v_A undoes R_AB v_B */
    teal_vec3 v = rand_vec3(&s, -1, 1);
    ck_assert_double_le(vec3_diff(teal_rotation_apply_inverse(R, teal_rotation_apply(R, v)), v),
                        kTol);
  }
  teal_rotation bad = teal_mat3_scale(teal_rotation_identity(), 1.001);
  ck_assert(!teal_rotation_is_orthonormal(bad, 1e-6));
  teal_rotation reflect = teal_mat3_diag(1, 1, -1);
  ck_assert(!teal_rotation_is_orthonormal(reflect, 1e-6));
  teal_rotation nan = teal_rotation_identity();
  nan.m[4] = NAN;
  ck_assert(!teal_rotation_is_orthonormal(nan, 1e-6));
}
END_TEST

START_TEST(test_axis_angle) {
  /* a quarter turn about z maps x to y */
  teal_rotation Rz = teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 2), kPi / 2);
  ck_assert_double_le(vec3_diff(teal_rotation_apply(Rz, teal_vec3_make(1, 0, 0)),
                                teal_vec3_make(0, 1, 0)), kTol);
  unsigned s = 777u;
  for (int k = 0; k < 100; k++) {
    teal_vec3 axis = rand_vec3(&s, -1, 1);
    double a = ts_rand_uniform(&s, -3, 3), b = ts_rand_uniform(&s, -3, 3);
    /* rotations about one axis compose by adding angles */
    teal_rotation Rab = teal_rotation_mul(teal_rotation_from_axis_angle(axis, a),
                                          teal_rotation_from_axis_angle(axis, b));
    teal_rotation Rsum = teal_rotation_from_axis_angle(axis, a + b);
    ck_assert_double_le(teal_mat3_max_abs_diff(Rab, Rsum), 4 * kTol);
    /* the axis is fixed; round trip through to_axis_angle */
    ck_assert_double_le(vec3_diff(teal_rotation_apply(Rsum, axis), axis), 4 * kTol);
    teal_vec3 k2;
    double t2;
    teal_rotation_to_axis_angle(Rsum, &k2, &t2);
    teal_rotation R2 = teal_rotation_from_axis_angle(k2, t2);
    ck_assert_double_le(teal_mat3_max_abs_diff(R2, Rsum), 4 * kTol);
    ck_assert(t2 >= 0.0 && t2 <= kPi);
  }
  /* a zero axis gives the identity */
  teal_rotation I = teal_rotation_from_axis_angle(teal_vec3_zero(), 1.0);
  ck_assert_double_eq(teal_mat3_max_abs_diff(I, teal_mat3_identity()), 0.0);
}
END_TEST

START_TEST(test_quaternion_round_trip) {
  unsigned s = 4242u;
  for (int k = 0; k < 500; k++) {
    teal_quaternion q = rand_quaternion(&s);
    teal_quaternion q2 = teal_rotation_to_quaternion(teal_rotation_from_quaternion(q));
    ck_assert_double_le(quat_diff(q, q2), 4 * kTol);
    ck_assert_double_ge(q2.w, 0.0);
  }
  /* near and at a half turn (w ~ 0, where a trace-only method fails) */
  const double eps[] = {0.0, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3};
  for (int k = 0; k < 60; k++) {
    teal_vec3 axis = rand_vec3(&s, -1, 1);
    axis = teal_vec3_scale(axis, 1.0 / teal_vec3_norm(axis));
    double angle = kPi - eps[k % 6];
    teal_rotation R = teal_rotation_from_axis_angle(axis, angle);
    teal_quaternion q = teal_rotation_to_quaternion(R);
    teal_vec3 u = teal_vec3_scale(axis, sin(0.5 * angle));
    teal_quaternion expect = teal_quaternion_make(cos(0.5 * angle), u.v[0], u.v[1], u.v[2]);
    ck_assert_double_le(quat_diff(q, expect), 4 * kTol);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_quaternion(q), R), 4 * kTol);
  }
  /* the principal half turns hit each Shepperd branch */
  const teal_vec3 axes[3] = {{{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
  for (int i = 0; i < 3; i++) {
    teal_quaternion q = teal_rotation_to_quaternion(teal_rotation_from_axis_angle(axes[i], kPi));
    teal_quaternion expect = teal_quaternion_make(0, axes[i].v[0], axes[i].v[1], axes[i].v[2]);
    ck_assert_double_le(quat_diff(q, expect), kTol);
  }
}
END_TEST

START_TEST(test_quaternion_algebra) {
  unsigned s = 99u;
  for (int k = 0; k < 100; k++) {
    teal_quaternion a = rand_quaternion(&s), b = rand_quaternion(&s);
    /* the Hamilton product matches the matrix product: R(a b) = R(a) R(b) */
    teal_rotation Rab = teal_rotation_from_quaternion(teal_quaternion_mul(a, b));
    teal_rotation RaRb = teal_rotation_mul(teal_rotation_from_quaternion(a),
                                           teal_rotation_from_quaternion(b));
    ck_assert_double_le(teal_mat3_max_abs_diff(Rab, RaRb), 4 * kTol);
    /* rotating a vector agrees with the matrix; the conjugate undoes it */
    teal_vec3 v = rand_vec3(&s, -1, 1);
    teal_vec3 va = teal_quaternion_rotate(a, v);
    ck_assert_double_le(vec3_diff(va, teal_rotation_apply(teal_rotation_from_quaternion(a), v)),
                        4 * kTol);
    ck_assert_double_le(vec3_diff(teal_quaternion_rotate(teal_quaternion_conjugate(a), va), v),
                        4 * kTol);
    /* a non-unit quaternion gives the same rotation as its normalization */
    teal_quaternion a3 = teal_quaternion_make(3 * a.w, 3 * a.x, 3 * a.y, 3 * a.z);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_quaternion(a3),
                                               teal_rotation_from_quaternion(a)), 4 * kTol);
  }
  teal_quaternion z = teal_quaternion_make(0, 0, 0, 0);
  ck_assert_int_eq(teal_quaternion_normalize(&z), TEAL_EINVAL);
  teal_quaternion n = teal_quaternion_make(1, NAN, 0, 0);
  ck_assert_int_eq(teal_quaternion_normalize(&n), TEAL_ENONFINITE);
  ck_assert_double_eq(n.w, 1.0); /* unchanged on failure */
  teal_quaternion q = teal_quaternion_make(0, 3, 0, 4);
  ck_assert_int_eq(teal_quaternion_normalize(&q), TEAL_OK);
  ck_assert_double_eq_tol(q.x, 0.6, kTol);
  ck_assert_double_eq_tol(q.z, 0.8, kTol);
}
END_TEST

START_TEST(test_rpy) {
  /* the convention: R = Rz(y) Ry(p) Rx(r), extrinsic X-Y-Z */
  teal_vec3 rpy = teal_vec3_make(0.3, -0.7, 2.1);
  teal_rotation R = teal_rotation_from_rpy(rpy);
  teal_rotation Rx = teal_rotation_from_axis_angle(teal_vec3_make(1, 0, 0), 0.3);
  teal_rotation Ry = teal_rotation_from_axis_angle(teal_vec3_make(0, 1, 0), -0.7);
  teal_rotation Rz = teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 1), 2.1);
  teal_rotation expect = teal_rotation_mul(Rz, teal_rotation_mul(Ry, Rx));
  ck_assert_double_le(teal_mat3_max_abs_diff(R, expect), 4 * kTol);
  unsigned s = 31337u;
  for (int k = 0; k < 300; k++) {
    teal_vec3 a = teal_vec3_make(ts_rand_uniform(&s, -kPi, kPi),
                                 ts_rand_uniform(&s, -0.5 * kPi, 0.5 * kPi),
                                 ts_rand_uniform(&s, -kPi, kPi));
    teal_vec3 b = teal_rotation_to_rpy(teal_rotation_from_rpy(a));
    /* angles away from gimbal lock come back; the matrix always does */
    if (fabs(fabs(a.v[1]) - 0.5 * kPi) > 0.1) {
      ck_assert_double_le(vec3_diff(a, b), 1e-13);
    }
    teal_rotation Ra = teal_rotation_from_rpy(a);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_rpy(b), Ra), 4 * kTol);
  }
  /* at and near gimbal lock the matrix still round trips to rounding */
  const double off[] = {0.0, 1e-12, 1e-8, -1e-10};
  for (int k = 0; k < 8; k++) {
    double p = (k % 2 ? -1 : 1) * (0.5 * kPi - off[k / 2]);
    teal_rotation Ra = teal_rotation_from_rpy(teal_vec3_make(0.4, p, -1.3));
    teal_vec3 b = teal_rotation_to_rpy(Ra);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_rpy(b), Ra), 4 * kTol);
    ck_assert(fabs(b.v[1]) <= 0.5 * kPi + kTol);
  }
}
END_TEST

/* ---- transforms ------------------------------------------------------------ */

START_TEST(test_transform) {
  unsigned s = 2024u;
  for (int k = 0; k < 100; k++) {
    teal_transform X_AB = rand_transform(&s), X_BC = rand_transform(&s);
    teal_vec3 p_CoQ_C = rand_vec3(&s, -1, 1);
    /* composition acts like applying one after the other */
    teal_transform X_AC = teal_transform_compose(X_AB, X_BC);
    teal_vec3 p1 = teal_transform_apply(X_AC, p_CoQ_C);
    teal_vec3 p2 = teal_transform_apply(X_AB, teal_transform_apply(X_BC, p_CoQ_C));
    ck_assert_double_le(vec3_diff(p1, p2), 8 * kTol);
    /* X X^-1 = identity on both sides */
    teal_transform I1 = teal_transform_compose(X_AB, teal_transform_inverse(X_AB));
    teal_transform I2 = teal_transform_compose(teal_transform_inverse(X_AB), X_AB);
    ck_assert_double_le(teal_mat3_max_abs_diff(I1.R, teal_mat3_identity()), 4 * kTol);
    ck_assert_double_le(teal_vec3_norm(I1.p), 8 * kTol);
    ck_assert_double_le(teal_mat3_max_abs_diff(I2.R, teal_mat3_identity()), 4 * kTol);
    ck_assert_double_le(teal_vec3_norm(I2.p), 8 * kTol);
    /* (X_AB X_BC)^-1 = X_BC^-1 X_AB^-1 */
    teal_transform Xi = teal_transform_inverse(X_AC);
    teal_transform Xj = teal_transform_compose(teal_transform_inverse(X_BC),
                                               teal_transform_inverse(X_AB));
    ck_assert_double_le(teal_mat3_max_abs_diff(Xi.R, Xj.R), 4 * kTol);
    ck_assert_double_le(vec3_diff(Xi.p, Xj.p), 16 * kTol);
  }
  teal_transform I = teal_transform_identity();
  teal_vec3 p = teal_vec3_make(1, 2, 3);
  ck_assert_double_eq(vec3_diff(teal_transform_apply(I, p), p), 0.0);
}
END_TEST

/* ---- spatial vectors and 6x6 transforms ------------------------------------ */

START_TEST(test_cross_products) {
  unsigned s = 555u;
  for (int k = 0; k < 100; k++) {
    teal_spatial_vector V = rand_spatial(&s), m = rand_spatial(&s), f = rand_spatial(&s);
    teal_mat6 crm = teal_mat6_cross_motion(V), crf = teal_mat6_cross_force(V);
    /* crf(V) = -crm(V)' exactly */
    teal_mat6 crmT = teal_mat6_transpose(&crm);
    teal_mat6 neg = teal_mat6_scale(&crmT, -1.0);
    ck_assert_double_eq(teal_mat6_max_abs_diff(&crf, &neg), 0.0);
    /* the matrices agree with the O(1) products */
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&crm, m),
                                                         teal_spatial_cross_motion(V, m)), kTol);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&crf, f),
                                                         teal_spatial_cross_force(V, f)), kTol);
    /* V x V = 0; and (V x m) . f + m . (V x* f) = 0 (duality) */
    teal_spatial_vector VV = teal_spatial_cross_motion(V, V);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(VV, teal_spatial_vector_zero()), kTol);
    double d = teal_spatial_vector_dot(teal_spatial_cross_motion(V, m), f) +
               teal_spatial_vector_dot(m, teal_spatial_cross_force(V, f));
    ck_assert_double_le(fabs(d), 4 * kTol);
  }
}
END_TEST

START_TEST(test_spatial_transforms) {
  unsigned s = 8080u;
  teal_mat6 I6 = teal_mat6_identity();
  for (int k = 0; k < 100; k++) {
    teal_transform X_AB = rand_transform(&s), X_BC = rand_transform(&s);
    teal_spatial_vector m_B = rand_spatial(&s), f_B = rand_spatial(&s);
    teal_mat6 XM = teal_mat6_motion_transform(X_AB), XF = teal_mat6_force_transform(X_AB);
    /* matrices agree with the O(1) forms */
    teal_spatial_vector m_A = teal_transform_apply_motion(X_AB, m_B);
    teal_spatial_vector f_A = teal_transform_apply_force(X_AB, f_B);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&XM, m_B), m_A),
                        8 * kTol);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&XF, f_B), f_A),
                        8 * kTol);
    /* power is frame invariant: (X* f) . (X m) = f . m */
    double pB = teal_spatial_vector_dot(f_B, m_B), pA = teal_spatial_vector_dot(f_A, m_A);
    ck_assert_double_le(fabs(pA - pB), 16 * kTol);
    /* X* = X^-T, and X(X_AB)^-1 = X(X_BA) */
    teal_mat6 XFt = teal_mat6_transpose(&XF);
    teal_mat6 XMinv = teal_mat6_motion_transform(teal_transform_inverse(X_AB));
    teal_mat6 P = teal_mat6_mul(&XFt, &XM);
    ck_assert_double_le(teal_mat6_max_abs_diff(&P, &I6), 8 * kTol);
    P = teal_mat6_mul(&XMinv, &XM);
    ck_assert_double_le(teal_mat6_max_abs_diff(&P, &I6), 8 * kTol);
    /* X(X_AB X_BC) = X(X_AB) X(X_BC) */
    teal_mat6 XBC = teal_mat6_motion_transform(X_BC);
    teal_mat6 XAC = teal_mat6_motion_transform(teal_transform_compose(X_AB, X_BC));
    P = teal_mat6_mul(&XM, &XBC);
    ck_assert_double_le(teal_mat6_max_abs_diff(&P, &XAC), 16 * kTol);
    /* a pure translation is a shift: to Ao from Bo is the offset p_BoAo = -p */
    teal_transform T = teal_transform_make(teal_rotation_identity(), X_AB.p);
    teal_vec3 p_BoAo = teal_vec3_neg(X_AB.p);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_transform_apply_motion(T, m_B),
                            teal_spatial_velocity_shift(m_B, p_BoAo)), 4 * kTol);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_transform_apply_force(T, f_B),
                            teal_spatial_force_shift(f_B, p_BoAo)), 4 * kTol);
  }
}
END_TEST

START_TEST(test_shift_velocity_force) {
  unsigned s = 1111u;
  for (int k = 0; k < 100; k++) {
    teal_spatial_vector V_P = rand_spatial(&s), F_P = rand_spatial(&s);
    teal_vec3 p_PQ = rand_vec3(&s, -2, 2), p_QR = rand_vec3(&s, -2, 2);
    teal_spatial_vector V_Q = teal_spatial_velocity_shift(V_P, p_PQ);
    teal_spatial_vector F_Q = teal_spatial_force_shift(F_P, p_PQ);
    /* power F . V is independent of the reference point */
    ck_assert_double_le(fabs(teal_spatial_vector_dot(F_Q, V_Q) - teal_spatial_vector_dot(F_P, V_P)),
                        32 * kTol);
    /* shifts compose and invert */
    teal_spatial_vector V_R1 = teal_spatial_velocity_shift(V_Q, p_QR);
    teal_spatial_vector V_R2 = teal_spatial_velocity_shift(V_P, teal_vec3_add(p_PQ, p_QR));
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(V_R1, V_R2), 16 * kTol);
    teal_spatial_vector F_back = teal_spatial_force_shift(F_Q, teal_vec3_neg(p_PQ));
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(F_back, F_P), 16 * kTol);
    /* re-expression preserves power and commutes with shifting */
    teal_rotation R_FE = rand_rotation(&s);
    teal_spatial_vector VF = teal_spatial_vector_reexpress(R_FE, V_P);
    teal_spatial_vector FF = teal_spatial_vector_reexpress(R_FE, F_P);
    ck_assert_double_le(fabs(teal_spatial_vector_dot(FF, VF) - teal_spatial_vector_dot(F_P, V_P)),
                        8 * kTol);
    teal_spatial_vector a = teal_spatial_vector_reexpress(R_FE, V_Q);
    teal_spatial_vector b = teal_spatial_velocity_shift(VF, teal_rotation_apply(R_FE, p_PQ));
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(a, b), 16 * kTol);
  }
  /* spinning about P: the acceleration of Q is centripetal, -w^2 p */
  teal_vec3 w = teal_vec3_make(0, 0, 2), p = teal_vec3_make(0.5, 0, 0);
  teal_spatial_vector A_Q = teal_spatial_acceleration_shift(teal_spatial_vector_zero(), p, w);
  ck_assert_double_le(vec3_diff(teal_spatial_vector_linear(A_Q), teal_vec3_make(-2, 0, 0)), kTol);
}
END_TEST

/* ---- spatial inertia ------------------------------------------------------- */

START_TEST(test_inertia_shift_reexpress) {
  unsigned s = 6060u;
  for (int k = 0; k < 100; k++) {
    double m = ts_rand_uniform(&s, 0.5, 3.0);
    teal_spatial_inertia M_C = teal_spatial_inertia_from_central(m, teal_vec3_zero(),
                                                                 rand_central_inertia(&s));
    ck_assert_int_eq(teal_spatial_inertia_check(&M_C, NULL), TEAL_OK);
    teal_spatial_vector V_C = rand_spatial(&s);
    teal_vec3 p_CP = rand_vec3(&s, -1, 1);
    /* about P: inertia shifted by p_CP, velocity shifted the same way */
    teal_spatial_inertia M_P = teal_spatial_inertia_shift(&M_C, p_CP);
    teal_spatial_vector V_P = teal_spatial_velocity_shift(V_C, p_CP);
    ck_assert_int_eq(teal_spatial_inertia_check(&M_P, NULL), TEAL_OK);
    double ke = teal_spatial_inertia_kinetic_energy(&M_C, V_C);
    ck_assert_double_eq_tol(teal_spatial_inertia_kinetic_energy(&M_P, V_P), ke, 8 * kTol * ke);
    /* and in another frame F */
    teal_rotation R_FE = rand_rotation(&s);
    teal_spatial_inertia M_PF = teal_spatial_inertia_reexpress(&M_P, R_FE);
    teal_spatial_vector V_PF = teal_spatial_vector_reexpress(R_FE, V_P);
    ck_assert_double_eq_tol(teal_spatial_inertia_kinetic_energy(&M_PF, V_PF), ke, 8 * kTol * ke);
    /* momentum shifts as a force: h_P = shift(h_C, p_CP) */
    teal_spatial_vector h_C = teal_spatial_inertia_apply(&M_C, V_C);
    teal_spatial_vector h_P = teal_spatial_inertia_apply(&M_P, V_P);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(h_P, teal_spatial_force_shift(h_C, p_CP)),
                        16 * kTol);
    /* the 6x6 form agrees with apply and with the spatial transforms:
     * M_A = A_X*_B M_B B_X_A for X_AB = {R_FE, p} */
    teal_mat6 M6 = teal_spatial_inertia_to_mat6(&M_P);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&M6, V_P), h_P),
                        8 * kTol);
    teal_transform X_AB = teal_transform_make(R_FE, rand_vec3(&s, -1, 1));
    teal_mat6 XF = teal_mat6_force_transform(X_AB);
    teal_mat6 XBA = teal_mat6_motion_transform(teal_transform_inverse(X_AB));
    teal_mat6 t = teal_mat6_mul(&M6, &XBA);
    teal_mat6 MA6 = teal_mat6_mul(&XF, &t);
    /* the same via re-express then shift from Bo to Ao (p_BoAo_A = -p_AoBo_A) */
    teal_spatial_inertia MA = teal_spatial_inertia_shift(&M_PF, teal_vec3_neg(X_AB.p));
    teal_mat6 MA6b = teal_spatial_inertia_to_mat6(&MA);
    ck_assert_double_le(teal_mat6_max_abs_diff(&MA6, &MA6b), 64 * kTol);
    /* M is symmetric */
    teal_mat6 M6t = teal_mat6_transpose(&M6);
    ck_assert_double_le(teal_mat6_max_abs_diff(&M6, &M6t), kTol);
  }
}
END_TEST

START_TEST(test_solid_shapes) {
  double m = 2.5;
  teal_spatial_inertia S = teal_spatial_inertia_solid_sphere(m, 0.4);
  ck_assert_double_eq_tol(S.I_SP_E.m[0], 0.4 * m * 0.16, kTol);
  ck_assert_double_eq_tol(S.I_SP_E.m[8], 0.4 * m * 0.16, kTol);
  teal_spatial_inertia B = teal_spatial_inertia_solid_box(m, 1.0, 2.0, 3.0);
  ck_assert_double_eq_tol(B.I_SP_E.m[0], m * 13.0 / 12.0, kTol);
  ck_assert_double_eq_tol(B.I_SP_E.m[4], m * 10.0 / 12.0, kTol);
  ck_assert_double_eq_tol(B.I_SP_E.m[8], m * 5.0 / 12.0, kTol);
  teal_spatial_inertia C = teal_spatial_inertia_solid_cylinder(m, 0.5, 2.0);
  ck_assert_double_eq_tol(C.I_SP_E.m[8], 0.5 * m * 0.25, kTol);
  ck_assert_double_eq_tol(C.I_SP_E.m[0], m * (0.75 + 4.0) / 12.0, kTol);
  ck_assert_double_eq_tol(C.I_SP_E.m[4], m * (0.75 + 4.0) / 12.0, kTol);
  /* a cube is a sphere-like box: equal moments m a^2 / 6 */
  teal_spatial_inertia cube = teal_spatial_inertia_solid_box(m, 0.3, 0.3, 0.3);
  ck_assert_double_eq_tol(cube.I_SP_E.m[4], m * 0.09 / 6.0, kTol);
  /* a thin rod: nothing about its axis, m L^2 / 12 across it */
  teal_vec3 u = teal_vec3_make(1, 2, 2); /* |u| = 3 */
  teal_spatial_inertia R = teal_spatial_inertia_thin_rod(m, 1.2, u);
  ck_assert_double_le(teal_vec3_norm(teal_mat3_apply(R.I_SP_E, u)), kTol);
  teal_vec3 n = teal_vec3_make(2, -1, 0); /* perpendicular to u */
  ck_assert_double_le(vec3_diff(teal_mat3_apply(R.I_SP_E, n),
                                teal_vec3_scale(n, m * 1.44 / 12.0)), kTol);
  /* a point mass about P */
  teal_spatial_inertia Pm = teal_spatial_inertia_point_mass(m, teal_vec3_make(0, 3, 4));
  ck_assert_double_eq_tol(Pm.I_SP_E.m[0], m * 25.0, kTol * 100);
  ck_assert_double_eq_tol(Pm.I_SP_E.m[5], -m * 12.0, kTol * 100);
  ck_assert_double_eq_tol(Pm.I_SP_E.m[4], m * 16.0, kTol * 100);
  /* all of them are valid; none has a com offset except the point mass */
  const teal_spatial_inertia *all[] = {&S, &B, &C, &cube, &R, &Pm};
  for (int i = 0; i < 6; i++) {
    ck_assert_int_eq(teal_spatial_inertia_check(all[i], NULL), TEAL_OK);
    ck_assert_double_eq(all[i]->mass, m);
  }
  ck_assert_double_eq(teal_vec3_norm(C.p_PScm_E), 0.0);
}
END_TEST

START_TEST(test_parallel_axis) {
  /* a sphere with its center at d along x, about the origin */
  double m = 3.0, r = 0.5, d = 2.0, I0 = 0.4 * m * r * r;
  teal_spatial_inertia Sc = teal_spatial_inertia_solid_sphere(m, r);
  teal_spatial_inertia So = teal_spatial_inertia_shift(&Sc, teal_vec3_make(-d, 0, 0));
  ck_assert_double_eq_tol(So.p_PScm_E.v[0], d, kTol);
  ck_assert_double_eq_tol(So.I_SP_E.m[0], I0, kTol);
  ck_assert_double_eq_tol(So.I_SP_E.m[4], I0 + m * d * d, kTol * 10);
  ck_assert_double_eq_tol(So.I_SP_E.m[8], I0 + m * d * d, kTol * 10);
  /* back to the center, and central() recovers it */
  teal_mat3 Ic = teal_spatial_inertia_central(&So);
  ck_assert_double_le(teal_mat3_max_abs_diff(Ic, Sc.I_SP_E), kTol * 10);
  unsigned s = 7070u;
  for (int k = 0; k < 100; k++) {
    teal_spatial_inertia M = teal_spatial_inertia_from_central(1.7, rand_vec3(&s, -1, 1),
                                                               rand_central_inertia(&s));
    teal_vec3 a = rand_vec3(&s, -1, 1), b = rand_vec3(&s, -1, 1);
    /* P -> Q -> R equals P -> R */
    teal_spatial_inertia MQ = teal_spatial_inertia_shift(&M, a);
    teal_spatial_inertia MR1 = teal_spatial_inertia_shift(&MQ, b);
    teal_spatial_inertia MR2 = teal_spatial_inertia_shift(&M, teal_vec3_add(a, b));
    ck_assert_double_le(teal_mat3_max_abs_diff(MR1.I_SP_E, MR2.I_SP_E), 32 * kTol);
    ck_assert_double_le(vec3_diff(MR1.p_PScm_E, MR2.p_PScm_E), 8 * kTol);
    /* shift through the com equals from_central at the new offset */
    teal_spatial_inertia MQ2 = teal_spatial_inertia_from_central(
        M.mass, MQ.p_PScm_E, teal_spatial_inertia_central(&M));
    ck_assert_double_le(teal_mat3_max_abs_diff(MQ.I_SP_E, MQ2.I_SP_E), 32 * kTol);
  }
  /* two point masses make a dumbbell: the sum about its center */
  teal_spatial_inertia p1 = teal_spatial_inertia_point_mass(1.0, teal_vec3_make(1, 0, 0));
  teal_spatial_inertia p2 = teal_spatial_inertia_point_mass(3.0, teal_vec3_make(-1, 0, 0));
  teal_spatial_inertia db = teal_spatial_inertia_add(&p1, &p2);
  ck_assert_double_eq(db.mass, 4.0);
  ck_assert_double_eq_tol(db.p_PScm_E.v[0], -0.5, kTol);
  ck_assert_double_eq_tol(db.I_SP_E.m[4], 4.0, kTol);
  ck_assert_double_eq_tol(db.I_SP_E.m[0], 0.0, kTol);
  /* central: 1 * 1.5^2 + 3 * 0.5^2 = 3 about y and z */
  teal_mat3 Idb = teal_spatial_inertia_central(&db);
  ck_assert_double_eq_tol(Idb.m[4], 3.0, kTol * 10);
  ck_assert_int_eq(teal_spatial_inertia_check(&db, NULL), TEAL_OK);
}
END_TEST

START_TEST(test_principal_moments) {
  unsigned s = 9191u;
  for (int k = 0; k < 100; k++) {
    double e[3] = {ts_rand_uniform(&s, 0, 2), ts_rand_uniform(&s, 0, 2), 0};
    e[2] = k % 3 ? ts_rand_uniform(&s, 0, 2) : e[1]; /* repeated moments too */
    teal_rotation R = rand_rotation(&s);
    teal_mat3 I = teal_mat3_mul(teal_mat3_mul(R, teal_mat3_diag(e[0], e[1], e[2])),
                                teal_mat3_transpose(R));
    double got[3];
    teal_inertia_principal_moments(I, got);
    double want[3] = {e[0], e[1], e[2]};
    for (int i = 0; i < 2; i++) { /* sort want ascending */
      for (int j = 0; j < 2 - i; j++) {
        if (want[j] > want[j + 1]) {
          double t = want[j];
          want[j] = want[j + 1];
          want[j + 1] = t;
        }
      }
    }
    for (int i = 0; i < 3; i++) {
      ck_assert_double_eq_tol(got[i], want[i], 1e-13);
    }
  }
}
END_TEST

START_TEST(test_invalid_inertias) {
  teal_error err;
  teal_spatial_inertia good = teal_spatial_inertia_solid_box(1.0, 1, 2, 3);
  teal_error_clear(&err);
  ck_assert_int_eq(teal_spatial_inertia_check(&good, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);

  teal_spatial_inertia M = good;
  M.mass = -1.0;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "mass"));
  M.mass = 0.0;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  M.mass = NAN;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(err.message, "finite"));
  M = good;
  M.I_SP_E.m[4] = NAN;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_ENONFINITE);
  M = good;
  M.p_PScm_E.v[1] = INFINITY;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_ENONFINITE);
  /* not positive semidefinite */
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1, 1, -1e-6));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "semidefinite"));
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_zero());
  M.I_SP_E.m[1] = M.I_SP_E.m[3] = 1.0; /* eigenvalues -1, 0, 1 */
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_EINVAL);
  /* triangle inequality violated: 1 + 1 < 3 */
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1, 1, 3));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "triangle"));
  /* ...also when rotated into a dense matrix */
  unsigned s = 5u;
  teal_rotation R = rand_rotation(&s);
  M.I_SP_E = teal_mat3_mul(teal_mat3_mul(R, M.I_SP_E), teal_mat3_transpose(R));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_EINVAL);
  /* asymmetric */
  M = good;
  M.I_SP_E.m[1] = 0.1;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "symmetric"));
  /* valid about P but not about the com: a mass off P with zero I_SP */
  M = teal_spatial_inertia_make(1.0, teal_vec3_make(1, 0, 0), teal_mat3_zero());
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_EINVAL);
  /* the boundary cases: an exact triangle equality is accepted */
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1, 2, 3));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_OK);
  /* ...also with repeated moments in a dense matrix (rods, flat plates), and
   * offset from P */
  for (int k = 0; k < 50; k++) {
    teal_rotation Rk = rand_rotation(&s);
    teal_mat3 D = k % 2 ? teal_mat3_diag(0, 0.7, 0.7) : teal_mat3_diag(1, 1, 2);
    teal_mat3 Ic = teal_mat3_mul(teal_mat3_mul(Rk, D), teal_mat3_transpose(Rk));
    M = teal_spatial_inertia_from_central(2.0, rand_vec3(&s, -1, 1), Ic);
    ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_OK);
  }
}
END_TEST

/* ---- quaternion kinematics -------------------------------------------------- */

START_TEST(test_quaternion_rate_maps) {
  unsigned s = 3030u;
  for (int k = 0; k < 100; k++) {
    teal_quaternion q = rand_quaternion(&s);
    teal_vec3 w_B = rand_vec3(&s, -2, 2);
    teal_vec3 w_P = teal_quaternion_rotate(q, w_B);
    /* both forms give the same qdot for the same physical angular velocity */
    teal_quaternion d1 = teal_quaternion_rate_from_w_parent(q, w_P);
    teal_quaternion d2 = teal_quaternion_rate_from_w_body(q, w_B);
    double dd = fabs(d1.w - d2.w) + fabs(d1.x - d2.x) + fabs(d1.y - d2.y) + fabs(d1.z - d2.z);
    ck_assert_double_le(dd, 8 * kTol);
    /* the explicit E matrices agree, and qdot is orthogonal to q */
    double EP[12], EB[12];
    teal_quaternion_rate_matrix_parent(q, EP);
    teal_quaternion_rate_matrix_body(q, EB);
    double qd[4] = {d1.w, d1.x, d1.y, d1.z};
    for (int i = 0; i < 4; i++) {
      double a = 0.5 * (EP[3 * i] * w_P.v[0] + EP[3 * i + 1] * w_P.v[1] + EP[3 * i + 2] * w_P.v[2]);
      double b = 0.5 * (EB[3 * i] * w_B.v[0] + EB[3 * i + 1] * w_B.v[1] + EB[3 * i + 2] * w_B.v[2]);
      ck_assert_double_eq_tol(a, qd[i], 8 * kTol);
      ck_assert_double_eq_tol(b, qd[i], 8 * kTol);
    }
    ck_assert_double_le(fabs(q.w * d1.w + q.x * d1.x + q.y * d1.y + q.z * d1.z), 8 * kTol);
    /* the inverse maps recover w */
    ck_assert_double_le(vec3_diff(teal_quaternion_w_parent_from_rate(q, d1), w_P), 8 * kTol);
    ck_assert_double_le(vec3_diff(teal_quaternion_w_body_from_rate(q, d1), w_B), 8 * kTol);
    /* d/dt R(q) = [w_P]x R, checked by central differences */
    double h = 1e-6;
    teal_quaternion qp = {q.w + h * d1.w, q.x + h * d1.x, q.y + h * d1.y, q.z + h * d1.z};
    teal_quaternion qm = {q.w - h * d1.w, q.x - h * d1.x, q.y - h * d1.y, q.z - h * d1.z};
    teal_mat3 Rdot = teal_mat3_scale(teal_mat3_sub(teal_rotation_from_quaternion(qp),
                                                   teal_rotation_from_quaternion(qm)), 0.5 / h);
    teal_mat3 want = teal_mat3_mul(teal_mat3_skew(w_P), teal_rotation_from_quaternion(q));
    ck_assert_double_le(teal_mat3_max_abs_diff(Rdot, want), 1e-8);
  }
}
END_TEST

/* One classic RK4 step of qdot = f(q) for a constant angular velocity. */
static teal_quaternion rk4_step(teal_quaternion q, teal_vec3 w, int body, double h) {
  teal_quaternion k[4], y = q;
  const double c[4] = {0.0, 0.5, 0.5, 1.0};
  for (int i = 0; i < 4; i++) {
    if (i > 0) {
      y = teal_quaternion_make(q.w + c[i] * h * k[i - 1].w, q.x + c[i] * h * k[i - 1].x,
                               q.y + c[i] * h * k[i - 1].y, q.z + c[i] * h * k[i - 1].z);
    }
    k[i] = body ? teal_quaternion_rate_from_w_body(y, w) : teal_quaternion_rate_from_w_parent(y, w);
  }
  double g = h / 6.0;
  return teal_quaternion_make(q.w + g * (k[0].w + 2 * k[1].w + 2 * k[2].w + k[3].w),
                              q.x + g * (k[0].x + 2 * k[1].x + 2 * k[2].x + k[3].x),
                              q.y + g * (k[0].y + 2 * k[1].y + 2 * k[2].y + k[3].y),
                              q.z + g * (k[0].z + 2 * k[1].z + 2 * k[2].z + k[3].z));
}

START_TEST(test_quaternion_integration) {
  unsigned s = 4711u;
  for (int body = 0; body < 2; body++) {
    for (int k = 0; k < 5; k++) {
      teal_quaternion q0 = rand_quaternion(&s), q = q0;
      teal_vec3 w = rand_vec3(&s, -1, 1);
      const int n = 1000;
      const double T = 1.0, h = T / n;
      for (int i = 0; i < n; i++) {
        q = rk4_step(q, w, body, h);
        ck_assert_int_eq(teal_quaternion_normalize(&q), TEAL_OK);
      }
      /* constant w: R(T) = exp([w] T) R0 for w in the parent, R0 exp([w] T) in
       * the body */
      teal_rotation E = teal_rotation_from_axis_angle(w, teal_vec3_norm(w) * T);
      teal_rotation R0 = teal_rotation_from_quaternion(q0);
      teal_rotation want = body ? teal_rotation_mul(R0, E) : teal_rotation_mul(E, R0);
      ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_quaternion(q), want), 1e-12);
    }
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("spatial");
  TCase *tc = tcase_create("spatial");
  tcase_add_test(tc, test_rotation_orthonormal);
  tcase_add_test(tc, test_axis_angle);
  tcase_add_test(tc, test_quaternion_round_trip);
  tcase_add_test(tc, test_quaternion_algebra);
  tcase_add_test(tc, test_rpy);
  tcase_add_test(tc, test_transform);
  tcase_add_test(tc, test_cross_products);
  tcase_add_test(tc, test_spatial_transforms);
  tcase_add_test(tc, test_shift_velocity_force);
  tcase_add_test(tc, test_inertia_shift_reexpress);
  tcase_add_test(tc, test_solid_shapes);
  tcase_add_test(tc, test_parallel_axis);
  tcase_add_test(tc, test_principal_moments);
  tcase_add_test(tc, test_invalid_inertias);
  tcase_add_test(tc, test_quaternion_rate_maps);
  tcase_add_test(tc, test_quaternion_integration);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
