/** @file
 * Constraint objects: everything a constraint was added with, fetched by
 * index (Simbody's getConstraint, Drake's get_coupler_constraint_specs and
 * its kin), and the updates of their parameters (Simbody's updConstraint).
 *
 * A constraint's parameters are part of the model, fixed at finalize: the
 * rows and the operators' layout are made from them, as Simbody's
 * constraint parameters are topology-stage and Drake's coupler specs are
 * fixed once the plant is finalized. The updates are therefore accepted
 * while the plant is open (TEAL_ESTATE after finalize) and record sticky
 * plant errors, as the adds do (constraint_specs.h): TEAL_ENOTFOUND for an
 * unknown index, TEAL_EINVAL for a constraint of another kind or a
 * non-physical value, TEAL_ENONFINITE for NaN or Inf. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_ACCESS_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_ACCESS_H

#include "teal_export.h"

#include "framework/error.h"
#include "math/transform.h"
#include "math/vec3.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A constraint as added (constraint_specs.h gives each kind's fields).
 *  Fields a kind does not use are -1 (indices), 0 (numbers, vectors) or
 *  the identity (poses). */
typedef struct teal_constraint_info {
  int kind;            /**< teal_constraint_kind */
  int body_a;          /**< body A (-1 for a coupler) */
  int body_b;          /**< body B (-1 for a coupler) */
  int joint0;          /**< the coupler's joint0 (-1 otherwise) */
  int joint1;          /**< the coupler's joint1 (-1 otherwise) */
  teal_transform X_AP; /**< weld: frame P in A; distance, ball: point P in .p; point on
                            line: the line's point in .p */
  teal_transform X_BQ; /**< weld: frame Q in B; distance, ball: point Q in .p; point in
                            plane, point on line: the follower point S in .p */
  teal_vec3 axis_a;    /**< unit plane normal, line direction or axis a, in A */
  teal_vec3 axis_b;    /**< constant angle: unit axis b, in B */
  double gear_ratio;   /**< coupler: q0 = gear_ratio q1 + offset */
  double offset;       /**< coupler offset */
  double distance;     /**< distance constraint: its length */
  double stiffness;    /**< distance constraint: INFINITY when rigid */
  double damping;      /**< distance constraint: 0 when rigid */
  double height;       /**< point in plane: the plane's offset along its normal */
  double angle;        /**< constant angle, radians in [0, pi] */
  int rows;            /**< its rows (0 for a compliant distance) */
  int row_start;       /**< its first row (-1 before finalize) */
  int default_enabled; /**< 1 when new contexts start with it enabled */
  int force_element;   /**< a compliant distance's force element, else -1 */
} teal_constraint_info;

/** Fills info with constraint c of plant. TEAL_EINVAL (NULL plant or
 *  info), TEAL_ENOTFOUND (unknown c), with a message in err (may be NULL);
 *  the plant's sticky error is left alone. */
TEAL_API int teal_plant_get_constraint(const teal_plant *plant, int c, teal_constraint_info *info,
                                       teal_error *err);

/** Sets the gear ratio and offset (finite) of coupler constraint c. */
TEAL_API int teal_plant_set_coupler_constraint_parameters(teal_plant *plant, int c,
                                                          double gear_ratio, double offset);

/** Sets the length (finite, > 0) of rigid distance constraint c; a
 *  compliant one is a force element (TEAL_EUNSUPPORTED). */
TEAL_API int teal_plant_set_distance_constraint_length(teal_plant *plant, int c, double distance);

/** Sets the plane height (finite) of point-in-plane constraint c. */
TEAL_API int teal_plant_set_point_in_plane_constraint_height(teal_plant *plant, int c,
                                                             double height);

/** Sets the angle (radians, in [0, pi]) of constant-angle constraint c. */
TEAL_API int teal_plant_set_constant_angle_constraint_angle(teal_plant *plant, int c, double angle);

#ifdef __cplusplus
}
#endif
#endif
