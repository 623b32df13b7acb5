/* Private to multibody/plant: the draws of plant_random.c that
 * teal_plant_set_random_state (plant_defaults.c) makes. Each returns TEAL_OK
 * or an error code with a message naming the body or joint in err. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_RANDOM_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_PLANT_RANDOM_INTERNAL_H

#include "multibody/plant/plant_random.h"

/* Writes each joint sampler's draw into its joint's block of q. */
int teal_plant_draw_joint_positions(const teal_plant *p, teal_rng *rng, double *q, teal_error *err);

/* Draws body b's position by its Gaussian or sampler distribution. */
int teal_plant_draw_position(const teal_plant *p, int b, teal_rng *rng, teal_vec3 *p_WB,
                             teal_error *err);

/* Draws body b's rotation by its sampler. */
int teal_plant_draw_rotation(const teal_plant *p, int b, teal_rng *rng, teal_rotation *R_WB,
                             teal_error *err);

#endif
