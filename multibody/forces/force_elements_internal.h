/* Private to multibody/forces: the calls of user force elements
 * (user_force_element.c) and tendons (tendon_forces.c) that
 * force_elements.c makes while evaluating. */
#ifndef TEAL_MULTIBODY_FORCES_FORCE_ELEMENTS_INTERNAL_H
#define TEAL_MULTIBODY_FORCES_FORCE_ELEMENTS_INTERNAL_H

#include "multibody/forces/user_force_element.h"

struct force_rec;

/* Which scalar of a user element teal_force_user_scalar evaluates. */
typedef enum teal_force_user_quantity {
  TEAL_FORCE_USER_POTENTIAL_ENERGY,
  TEAL_FORCE_USER_CONSERVATIVE_POWER,
  TEAL_FORCE_USER_NONCONSERVATIVE_POWER
} teal_force_user_quantity;

/* Adds user element i's forces; a failing callback is reported in err with
 * the element's name and index. */
int teal_force_user_calc(const struct teal_plant *p, int i, const teal_force_element_state *s,
                         teal_spatial_vector *F_Bo_W, double *tau, teal_error *err);

/* Writes one of user element i's scalars into *out (0 for a NULL
 * callback); a failing callback or a non-finite value is reported in err. */
int teal_force_user_scalar(const struct teal_plant *p, int i, teal_force_user_quantity which,
                           const teal_force_element_state *s, double *out, teal_error *err);

/* Adds tendon f's forces (tendon_forces.c). */
int teal_tendon_forces(const struct teal_plant *p, const struct force_rec *f,
                       const teal_force_element_state *s, teal_spatial_vector *F_Bo_W, double *tau,
                       teal_error *err);

/* The energy stored in tendon f at q with poses X_WB. */
double teal_tendon_energy(const struct teal_plant *p, const struct force_rec *f, const double *q,
                          const teal_transform *X_WB);

/* Tendon f's conservative and dissipative power. */
int teal_tendon_power(const struct teal_plant *p, const struct force_rec *f,
                      const teal_force_element_state *s, double *pc, double *pnc, teal_error *err);

#endif
