/** @file
 * Reading back the parameters of a plant's built-in force elements (Drake's
 * GetForceElement<T> followed by the element's getters, e.g.
 * LinearSpringDamper::stiffness): one getter per kind, each checking that
 * element i has its kind. The values are those given when the element was
 * added. User elements are read with teal_plant_force_element_name and
 * teal_plant_force_element_user (user_force_element.h).
 *
 * Each getter returns TEAL_OK, TEAL_EINVAL for a NULL plant or out,
 * TEAL_ENOTFOUND for an index outside [0, teal_plant_num_force_elements) and
 * TEAL_ETYPE when element i is of another kind, with a message in err (may
 * be NULL). They work before and after finalize. */
#ifndef TEAL_MULTIBODY_FORCES_FORCE_ELEMENT_PARAMS_H
#define TEAL_MULTIBODY_FORCES_FORCE_ELEMENT_PARAMS_H

#include "teal_export.h"

#include "multibody/forces/force_elements.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The parameters of teal_plant_add_linear_spring_damper. */
typedef struct teal_linear_spring_damper_params {
  int body_A;         /**< body of point P */
  teal_vec3 p_AP;     /**< P in body A's frame */
  int body_B;         /**< body of point Q */
  teal_vec3 p_BQ;     /**< Q in body B's frame */
  double free_length; /**< rest length */
  double stiffness;   /**< k */
  double damping;     /**< d */
} teal_linear_spring_damper_params;

/** The parameters of teal_plant_add_revolute_spring. */
typedef struct teal_revolute_spring_params {
  int joint;            /**< the revolute joint */
  double nominal_angle; /**< angle of zero torque */
  double stiffness;     /**< k */
} teal_revolute_spring_params;

/** The parameters of teal_plant_add_linear_bushing_rpy. */
typedef struct teal_linear_bushing_rpy_params {
  int frame_A;                /**< frame A */
  int frame_C;                /**< frame C */
  teal_vec3 torque_stiffness; /**< per roll-pitch-yaw angle */
  teal_vec3 torque_damping;   /**< per roll-pitch-yaw rate */
  teal_vec3 force_stiffness;  /**< per axis of A */
  teal_vec3 force_damping;    /**< per axis of A */
} teal_linear_bushing_rpy_params;

/** Writes the parameters of linear spring-damper i into *out. */
TEAL_API int teal_plant_get_linear_spring_damper(const struct teal_plant *plant, int i,
                                                 teal_linear_spring_damper_params *out,
                                                 teal_error *err);

/** Writes the parameters of revolute spring i into *out. */
TEAL_API int teal_plant_get_revolute_spring(const struct teal_plant *plant, int i,
                                            teal_revolute_spring_params *out, teal_error *err);

/** Writes the parameters of linear bushing i into *out. */
TEAL_API int teal_plant_get_linear_bushing_rpy(const struct teal_plant *plant, int i,
                                               teal_linear_bushing_rpy_params *out,
                                               teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
