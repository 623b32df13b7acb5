/** @file
 * Spatial vectors: spatial velocity V, acceleration A, force F, momentum h.
 *
 * Ordering is [angular; linear] (Drake, Simbody, Featherstone): V = [w; v],
 * A = [alpha; a], F = [tau; f], h = [L; p]. A spatial velocity V_AB_E is the
 * motion of frame B in frame A, with v the velocity of B's origin, expressed
 * in E; a spatial force F_Bo_E acts on B with tau its moment about Bo, all
 * expressed in E. Motion-type vectors (V, A) and force-type vectors (F, h)
 * are dual: F . V is power. Shifting moves the reference point on the same
 * rigid body; re-expressing changes only the frame of the measure numbers. */
#ifndef TEAL_MULTIBODY_MATH_SPATIAL_VECTOR_H
#define TEAL_MULTIBODY_MATH_SPATIAL_VECTOR_H

#include <math.h>

#include "math/transform.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A spatial vector [angular (v[0..2]); linear (v[3..5])]. */
typedef struct teal_spatial_vector {
  double v[6]; /**< angular part in v[0..2], linear part in v[3..5] */
} teal_spatial_vector;

/** The spatial vector [angular; linear]. */
static inline teal_spatial_vector teal_spatial_vector_make(teal_vec3 angular, teal_vec3 linear) {
  teal_spatial_vector s = {{angular.v[0], angular.v[1], angular.v[2],
                            linear.v[0], linear.v[1], linear.v[2]}};
  return s;
}

/** The zero spatial vector. */
static inline teal_spatial_vector teal_spatial_vector_zero(void) {
  teal_spatial_vector s = {{0}};
  return s;
}

/** The angular part v[0..2] (w, alpha, tau or L). */
static inline teal_vec3 teal_spatial_vector_angular(teal_spatial_vector s) {
  return teal_vec3_make(s.v[0], s.v[1], s.v[2]);
}

/** The linear part v[3..5] (v, a, f or p). */
static inline teal_vec3 teal_spatial_vector_linear(teal_spatial_vector s) {
  return teal_vec3_make(s.v[3], s.v[4], s.v[5]);
}

/** a + b. */
static inline teal_spatial_vector teal_spatial_vector_add(teal_spatial_vector a,
                                                          teal_spatial_vector b) {
  teal_spatial_vector r;
  for (int i = 0; i < 6; i++) {
    r.v[i] = a.v[i] + b.v[i];
  }
  return r;
}

/** a - b. */
static inline teal_spatial_vector teal_spatial_vector_sub(teal_spatial_vector a,
                                                          teal_spatial_vector b) {
  teal_spatial_vector r;
  for (int i = 0; i < 6; i++) {
    r.v[i] = a.v[i] - b.v[i];
  }
  return r;
}

/** s * a. */
static inline teal_spatial_vector teal_spatial_vector_scale(teal_spatial_vector a, double s) {
  teal_spatial_vector r;
  for (int i = 0; i < 6; i++) {
    r.v[i] = s * a.v[i];
  }
  return r;
}

/** Dot product of a and b over all six components. For a force F and a
 *  velocity V of the same point and frame it is the power F . V = tau . w + f . v. */
static inline double teal_spatial_vector_dot(teal_spatial_vector a, teal_spatial_vector b) {
  double d = 0.0;
  for (int i = 0; i < 6; i++) {
    d += a.v[i] * b.v[i];
  }
  return d;
}

/** Largest absolute component of a - b. */
static inline double teal_spatial_vector_max_abs_diff(teal_spatial_vector a,
                                                      teal_spatial_vector b) {
  double d = 0.0;
  for (int i = 0; i < 6; i++) {
    double e = fabs(a.v[i] - b.v[i]);
    d = e > d ? e : d;
  }
  return d;
}

/** Motion cross product V x m = [w x m_w; w x m_v + v x m_w] (Featherstone's
 *  crm(V) m): the rate of change of a motion vector m fixed in a frame moving
 *  with spatial velocity V = [w; v]. V x V = 0. */
static inline teal_spatial_vector teal_spatial_cross_motion(teal_spatial_vector V,
                                                            teal_spatial_vector m) {
  teal_vec3 w = teal_spatial_vector_angular(V), v = teal_spatial_vector_linear(V);
  teal_vec3 mw = teal_spatial_vector_angular(m), mv = teal_spatial_vector_linear(m);
  return teal_spatial_vector_make(
      teal_vec3_cross(w, mw), teal_vec3_add(teal_vec3_cross(w, mv), teal_vec3_cross(v, mw)));
}

/** Force cross product V x* f = [w x f_t + v x f_f; w x f_f] (Featherstone's
 *  crf(V) f = -crm(V)' f): the rate of change of a force vector f fixed in a
 *  frame moving with V, such as the gyroscopic term V x* (M V). */
static inline teal_spatial_vector teal_spatial_cross_force(teal_spatial_vector V,
                                                           teal_spatial_vector f) {
  teal_vec3 w = teal_spatial_vector_angular(V), v = teal_spatial_vector_linear(V);
  teal_vec3 ft = teal_spatial_vector_angular(f), ff = teal_spatial_vector_linear(f);
  return teal_spatial_vector_make(
      teal_vec3_add(teal_vec3_cross(w, ft), teal_vec3_cross(v, ff)), teal_vec3_cross(w, ff));
}

/** Shifts a spatial velocity from point P to point Q of the same rigid body:
 *  V_AQ_E = [w; v_P + w x p_PQ_E] with V_AP_E = [w; v_P] and p_PQ_E the
 *  offset from P to Q, both expressed in E (Drake's SpatialVelocity::Shift). */
static inline teal_spatial_vector teal_spatial_velocity_shift(teal_spatial_vector V_AP_E,
                                                              teal_vec3 p_PQ_E) {
  teal_vec3 w = teal_spatial_vector_angular(V_AP_E);
  teal_vec3 v = teal_vec3_add(teal_spatial_vector_linear(V_AP_E), teal_vec3_cross(w, p_PQ_E));
  return teal_spatial_vector_make(w, v);
}

/** Shifts a spatial acceleration from point P to point Q of the same rigid
 *  body, given its angular velocity w_AB_E: A_AQ_E = [alpha; a_P + alpha x
 *  p_PQ + w x (w x p_PQ)] (the centripetal term is why w is needed). */
static inline teal_spatial_vector teal_spatial_acceleration_shift(teal_spatial_vector A_AP_E,
                                                                  teal_vec3 p_PQ_E,
                                                                  teal_vec3 w_AB_E) {
  teal_vec3 alpha = teal_spatial_vector_angular(A_AP_E);
  teal_vec3 a = teal_vec3_add(teal_spatial_vector_linear(A_AP_E), teal_vec3_cross(alpha, p_PQ_E));
  a = teal_vec3_add(a, teal_vec3_cross(w_AB_E, teal_vec3_cross(w_AB_E, p_PQ_E)));
  return teal_spatial_vector_make(alpha, a);
}

/** Shifts a spatial force (or momentum) from point P to point Q: the same
 *  force with its moment taken about Q instead of P,
 *  F_Q_E = [tau_P + p_QP x f; f] = [tau_P - p_PQ_E x f; f]. The argument is the
 *  offset p_PQ_E from P to Q, as for teal_spatial_velocity_shift (Drake's
 *  SpatialForce::Shift). Power is preserved: F_Q . V_Q = F_P . V_P. */
static inline teal_spatial_vector teal_spatial_force_shift(teal_spatial_vector F_P_E,
                                                           teal_vec3 p_PQ_E) {
  teal_vec3 f = teal_spatial_vector_linear(F_P_E);
  teal_vec3 tau = teal_vec3_sub(teal_spatial_vector_angular(F_P_E), teal_vec3_cross(p_PQ_E, f));
  return teal_spatial_vector_make(tau, f);
}

/** Re-expresses a spatial vector (motion or force alike) from frame E to
 *  frame F: s_F = [R_FE s_ang; R_FE s_lin]. The physical quantity and its
 *  reference point are unchanged. */
static inline teal_spatial_vector teal_spatial_vector_reexpress(teal_rotation R_FE,
                                                                teal_spatial_vector s_E) {
  return teal_spatial_vector_make(teal_rotation_apply(R_FE, teal_spatial_vector_angular(s_E)),
                                  teal_rotation_apply(R_FE, teal_spatial_vector_linear(s_E)));
}

#ifdef __cplusplus
}
#endif
#endif
