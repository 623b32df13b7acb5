/** @file
 * Force elements of a plant (Drake's ForceElement family): a linear
 * spring-damper between two points, a revolute spring on a joint, a
 * linear roll-pitch-yaw bushing between two frames, and user-defined
 * elements (a callback table, teal_force_element_ops, added with
 * teal_plant_add_force_element of user_force_element.h), and MuJoCo's
 * fixed and spatial tendons (tendons.h).
 *
 * They are added before finalize (like bodies and joints; sticky errors,
 * TEAL_ESTATE after finalize) and evaluated from the body poses and
 * velocities. Each built-in element is conservative apart from its damping,
 * and its stored energy is part of teal_plant_force_elements_potential_energy,
 * so that total energy is conserved when every damping is zero.
 *
 * Bushing convention. With frame A on one body and frame C on another,
 * p = p_AoCo_A and rpy the roll-pitch-yaw angles of R_AC (Drake's extrinsic
 * x-y-z convention), the bushing stores U = 1/2 sum k_xyz,i p_i^2 +
 * 1/2 sum k_rpy,i rpy_i^2. The force on C at Co is f_A = -(k_xyz p +
 * d_xyz pdot) (pdot measured in A) and the torque on C is tau_A =
 * N(rpy)^-T (-(k_rpy rpy + d_rpy rpydot)), where w_AC_A = N(rpy) rpydot, so
 * that tau . w_AC = Q . rpydot exactly; the reaction acts on A at the same
 * point. N is singular at pitch = +-pi/2 (gimbal lock): evaluation then
 * returns TEAL_ESINGULAR. */
#ifndef TEAL_MULTIBODY_FORCES_FORCE_ELEMENTS_H
#define TEAL_MULTIBODY_FORCES_FORCE_ELEMENTS_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/math/spatial.h"

#ifdef __cplusplus
extern "C" {
#endif

struct teal_plant;

/** Kinds of force element. */
typedef enum teal_force_element_kind {
  TEAL_FORCE_LINEAR_SPRING_DAMPER = 0, /**< teal_plant_add_linear_spring_damper */
  TEAL_FORCE_REVOLUTE_SPRING,          /**< teal_plant_add_revolute_spring */
  TEAL_FORCE_LINEAR_BUSHING_RPY,       /**< teal_plant_add_linear_bushing_rpy */
  TEAL_FORCE_USER,                     /**< teal_plant_add_force_element (user_force_element.h) */
  TEAL_FORCE_TENDON                    /**< a fixed or spatial tendon (tendons.h) */
} teal_force_element_kind;

/** The state a user element is evaluated at: q (nq) and v (nv), the body
 *  poses X_WB and spatial velocities V_WB by body index (index 0 is the
 *  world). v and V_WB are NULL for the potential energy, which depends on
 *  the positions only. */
typedef struct teal_force_element_state {
  const double *q;                 /**< generalized positions (nq) */
  const double *v;                 /**< generalized velocities (nv), or NULL */
  const teal_transform *X_WB;      /**< body poses in the world */
  const teal_spatial_vector *V_WB; /**< body spatial velocities in W, or NULL */
} teal_force_element_state;

/** The callbacks of a user force element (Drake's ForceElement virtuals).
 *  calc is required; a NULL energy or power callback counts as zero. */
typedef struct teal_force_element_ops {
  /** Adds the element's spatial forces at the body origins, in W, into
   *  F_Bo_W (by body index; world entries are ignored) and its generalized
   *  forces into tau (nv). Both are accumulated: add, do not overwrite. */
  int (*calc)(const struct teal_plant *plant, const teal_force_element_state *s,
              teal_spatial_vector *F_Bo_W, double *tau, teal_error *err, void *user);
  /** Writes the energy stored in the element into *pe. */
  int (*potential_energy)(const struct teal_plant *plant, const teal_force_element_state *s,
                          double *pe, teal_error *err, void *user);
  /** Writes the power of the conservative part of the forces (-dPE/dt). */
  int (*conservative_power)(const struct teal_plant *plant, const teal_force_element_state *s,
                            double *power, teal_error *err, void *user);
  /** Writes the power of the remaining (e.g. dissipative) part. */
  int (*nonconservative_power)(const struct teal_plant *plant, const teal_force_element_state *s,
                               double *power, teal_error *err, void *user);
} teal_force_element_ops;

/** Adds a spring-damper between point P (p_AP in body A's frame) and point
 *  Q (p_BQ in body B's frame), bodies distinct, with free_length > 0,
 *  stiffness >= 0 and damping >= 0. The tension is k (l - l0) + d ldot
 *  along the line P-Q. Returns the element index. */
TEAL_API int teal_plant_add_linear_spring_damper(struct teal_plant *plant, int body_A,
                                                 teal_vec3 p_AP, int body_B, teal_vec3 p_BQ,
                                                 double free_length, double stiffness,
                                                 double damping);

/** Adds a torsional spring tau = k (nominal_angle - q) on a revolute joint
 *  (stiffness >= 0). Returns the element index. */
TEAL_API int teal_plant_add_revolute_spring(struct teal_plant *plant, int joint,
                                            double nominal_angle, double stiffness);

/** Adds a linear bushing between frames A and C (on different bodies) with
 *  per-axis stiffness and damping (all >= 0), see the file comment.
 *  Returns the element index. */
TEAL_API int teal_plant_add_linear_bushing_rpy(struct teal_plant *plant, int frame_A, int frame_C,
                                               teal_vec3 torque_stiffness, teal_vec3 torque_damping,
                                               teal_vec3 force_stiffness, teal_vec3 force_damping);

/** Number of force elements. */
TEAL_API int teal_plant_num_force_elements(const struct teal_plant *plant);

/** Kind of element i, or -1 on a bad index. */
TEAL_API int teal_plant_force_element_kind(const struct teal_plant *plant, int i);

/** Adds the forces of every element (the built-in ones and the user
 *  elements of user_force_element.h, in index order), from q, v and the
 *  body poses X_WB and velocities V_WB (by body index, as
 *  teal_mb_body_velocities gives them), into F_Bo_W (spatial forces at each
 *  body origin in W, by body index) and tau (nv generalized forces). Both
 *  arrays are accumulated, not cleared. TEAL_ESINGULAR (message in err, may
 *  be NULL) for a spring-damper of zero length or a bushing at gimbal lock,
 *  and a failing user element's code with a message naming it; the elements
 *  before the failing one have then already been added. Only the elements:
 *  gravity and joint damping, which Drake also counts as force
 *  contributions, are added by teal_plant_calc_force_elements_contribution
 *  (plant_force_contribution.h). */
TEAL_API int teal_plant_calc_force_elements(const struct teal_plant *plant, const double *q,
                                            const double *v, const teal_transform *X_WB,
                                            const teal_spatial_vector *V_WB,
                                            teal_spatial_vector *F_Bo_W, double *tau,
                                            teal_error *err);

/** Says whether force element i is left out of a filtered evaluation
 *  (nonzero: left out); user is the pointer given with it. */
typedef int (*teal_force_element_filter)(const struct teal_plant *plant, int i, const void *user);

/** teal_plant_calc_force_elements without the elements for which skip
 *  returns nonzero (skip NULL: none is left out). The plant uses it to leave
 *  out the spring-damper of a compliant constraint disabled in a context.
 *  Arguments and errors as teal_plant_calc_force_elements. */
TEAL_API int teal_plant_calc_force_elements_filtered(
    const struct teal_plant *plant, const double *q, const double *v, const teal_transform *X_WB,
    const teal_spatial_vector *V_WB, teal_spatial_vector *F_Bo_W, double *tau,
    teal_force_element_filter skip, const void *user, teal_error *err);

/** Writes the energy stored in the elements' springs at q with body poses
 *  X_WB into *pe (Drake's ForceElement::CalcPotentialEnergy summed over
 *  the elements). TEAL_EINVAL for a NULL argument, TEAL_ESTATE before
 *  finalize; a failing user element's code and message (err may be NULL). */
TEAL_API int teal_plant_force_elements_potential_energy(const struct teal_plant *plant,
                                                        const double *q, const teal_transform *X_WB,
                                                        double *pe, teal_error *err);

/** teal_plant_force_elements_potential_energy without the elements for
 *  which skip returns nonzero (skip NULL: none is left out). */
TEAL_API int teal_plant_force_elements_potential_energy_filtered(
    const struct teal_plant *plant, const double *q, const teal_transform *X_WB, double *pe,
    teal_force_element_filter skip, const void *user, teal_error *err);

/** Writes the power of the elements' forces at (q, v) with body poses X_WB
 *  and velocities V_WB, split as Drake's ForceElement::CalcConservativePower
 *  (the springs: -d/dt of the potential energy) and CalcNonConservativePower
 *  (the dampers: <= 0), into *conservative and *nonconservative. Their sum is
 *  tau . v + sum F_Bo_W . V_WB of teal_plant_calc_force_elements. Errors as
 *  teal_plant_calc_force_elements, whose zero-length and gimbal-lock cases
 *  fail here too. */
TEAL_API int teal_plant_force_elements_power(const struct teal_plant *plant, const double *q,
                                             const double *v, const teal_transform *X_WB,
                                             const teal_spatial_vector *V_WB, double *conservative,
                                             double *nonconservative, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
