/** @file
 * Tendons (MuJoCo's fixed and spatial tendons) as force elements of kind
 * TEAL_FORCE_TENDON.
 *
 * A tendon has a scalar length L(q):
 * - fixed: L = sum_i coef_i q_i over 1-dof joints (revolute or prismatic),
 *   so its Jacobian J_L (Ldot = J_L v) holds coef_i at each joint's velocity;
 * - spatial: L = sum_i |p_W(s_i+1) - p_W(s_i)| over a path of frames s_0,
 *   ..., s_n-1 (MuJoCo's sites; no wrapping), so J_L = sum_i u_i^T
 *   (Jv_s_i+1 - Jv_s_i) with u_i the unit direction from s_i to s_i+1.
 *
 * Its tension is T = k (L - L0) + d Ldot with the spring length L0, plus a
 * one-sided penalty outside the range [lower, upper]: k_limit (L - upper) +
 * d_limit Ldot above it, k_limit (L - lower) + d_limit Ldot below it. It
 * applies the generalized force tau = -J_L^T T (MuJoCo's passive tendon
 * force), a spatial tendon through forces T u_i at the ends of each segment
 * pulling them together. The penalty approximates MuJoCo's tendon limit,
 * which its solver enforces as a soft unilateral constraint; it is linear in
 * the violation and may pull while the tendon recedes from the limit.
 *
 * Energy: the spring and the penalty store 1/2 k (L - L0)^2 and
 * 1/2 k_limit e^2 (e the range violation), part of
 * teal_plant_force_elements_potential_energy; the dampers are the
 * nonconservative power -(d + d_limit [outside]) Ldot^2. Tendons are added
 * before finalize (sticky errors like the other elements) and evaluated with
 * every force element. */
#ifndef TEAL_MULTIBODY_FORCES_TENDONS_H
#define TEAL_MULTIBODY_FORCES_TENDONS_H

#include "teal_export.h"

#include "multibody/algorithms/data.h"
#include "multibody/forces/force_elements.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The kinds of tendon. */
typedef enum teal_tendon_kind {
  TEAL_TENDON_FIXED = 0, /**< a linear combination of joint positions */
  TEAL_TENDON_SPATIAL    /**< a path of straight segments through frames */
} teal_tendon_kind;

/** A tendon's spring, damper and range (see the file comment). */
typedef struct teal_tendon_spring {
  double stiffness;       /**< k >= 0 */
  double damping;         /**< d >= 0 */
  double spring_length;   /**< L0, finite */
  double lower;           /**< range lower bound (-inf: none) */
  double upper;           /**< range upper bound (+inf: none), >= lower */
  double limit_stiffness; /**< k_limit >= 0 of the range penalty */
  double limit_damping;   /**< d_limit >= 0 of the range penalty */
} teal_tendon_spring;

/** A spring of zero stiffness and damping at length 0 without a range. */
TEAL_API teal_tendon_spring teal_tendon_spring_default(void);

/** Adds a fixed tendon named name (nonempty) to a model instance: L = sum
 *  coefs[i] q of joints[i] (n >= 1 revolute or prismatic joints, finite
 *  coefficients), with spring (NULL: teal_tendon_spring_default). Before
 *  finalize only (TEAL_ESTATE); TEAL_EINVAL for a bad joint, coefficient,
 *  spring value or name, TEAL_ENOTFOUND for an unknown instance. Returns the
 *  force element index. */
TEAL_API int teal_plant_add_fixed_tendon(struct teal_plant *plant, const char *name, int instance,
                                         int n, const int *joints, const double *coefs,
                                         const teal_tendon_spring *spring);

/** Adds a spatial tendon through the origins of n >= 2 frames (frames[i],
 *  consecutive ones distinct), with spring (NULL: the default). Errors as
 *  teal_plant_add_fixed_tendon, TEAL_EINVAL for a bad frame. Returns the
 *  force element index. */
TEAL_API int teal_plant_add_spatial_tendon(struct teal_plant *plant, const char *name, int instance,
                                           int n, const int *frames,
                                           const teal_tendon_spring *spring);

/** Number of tendons among the force elements. */
TEAL_API int teal_plant_num_tendons(const struct teal_plant *plant);

/** The force element index of tendon k (0 <= k < teal_plant_num_tendons,
 *  in the order added), or -1. */
TEAL_API int teal_plant_tendon_element(const struct teal_plant *plant, int k);

/** The force element index of the tendon called name in instance (< 0: any
 *  instance), or TEAL_ENOTFOUND. */
TEAL_API int teal_plant_find_tendon(const struct teal_plant *plant, const char *name, int instance);

/** The name of force element i if it is a tendon, else NULL. */
TEAL_API const char *teal_plant_tendon_name(const struct teal_plant *plant, int i);

/** The kind (teal_tendon_kind) of force element i if it is a tendon, else -1. */
TEAL_API int teal_plant_tendon_kind(const struct teal_plant *plant, int i);

/** Writes the spring of tendon element i into *spring. TEAL_EINVAL for a
 *  NULL argument, TEAL_ENOTFOUND when i is not a tendon (message in err,
 *  may be NULL). Before and after finalize. */
TEAL_API int teal_plant_get_tendon_spring(const struct teal_plant *plant, int i,
                                          teal_tendon_spring *spring, teal_error *err);

/** Writes the length L and, with v and V_WB given (both non-NULL), its rate
 *  Ldot = J_L v into *length and *rate (rate may be NULL) of tendon element
 *  i at q with the body poses X_WB (and velocities V_WB, as
 *  teal_mb_body_velocities gives them). TEAL_EINVAL for a NULL argument,
 *  TEAL_ENOTFOUND when i is not a tendon, TEAL_ESTATE before finalize,
 *  TEAL_ESINGULAR for a rate of a spatial tendon with a zero-length segment,
 *  TEAL_ENONFINITE for a NaN or Inf result (from NaN or Inf inputs). */
TEAL_API int teal_plant_calc_tendon_length(const struct teal_plant *plant, int i, const double *q,
                                           const double *v, const teal_transform *X_WB,
                                           const teal_spatial_vector *V_WB, double *length,
                                           double *rate, teal_error *err);

/** Writes J_L (nv values: Ldot = J_L v) of tendon element i at q into J,
 *  using data (teal_mb_data_new) for the kinematics. Errors as
 *  teal_plant_calc_tendon_length (in err, may be NULL); TEAL_ENOMEM when its
 *  scratch cannot be allocated (it allocates: not for a hot loop). */
TEAL_API int teal_plant_calc_tendon_jacobian(const struct teal_plant *plant, teal_mb_data *data,
                                             int i, const double *q, double *J, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
