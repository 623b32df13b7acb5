/** @file
 * User-defined force elements (Drake's AddForceElement with a ForceElement
 * type of the user's own): a table of callbacks and a user pointer.
 *
 * The plant calls a user element wherever it evaluates its built-in
 * elements, in index order with them: the applied forces of continuous and
 * discrete dynamics, the potential energy of teal_calc_potential_energy,
 * teal_plant_force_elements_potential_energy and the power functions of
 * force_elements.h, teal_plant_calc_force_elements_contribution and the
 * model-based controllers. A callback returns TEAL_OK or a negative
 * TEAL_E* code, with a message in err; the evaluation then stops and
 * reports the code with the element's name and index and the callback's
 * message (a nonzero code that is not a TEAL_E* code is reported as
 * TEAL_ECALLBACK). Callbacks must not allocate if the simulation is to stay
 * allocation-free, and must not change the plant. Like Drake's elements
 * they see the state, not the time. The callback table and the state it
 * receives (teal_force_element_ops, teal_force_element_state) are declared in
 * force_elements.h, beside the other element kinds. */
#ifndef TEAL_MULTIBODY_FORCES_USER_FORCE_ELEMENT_H
#define TEAL_MULTIBODY_FORCES_USER_FORCE_ELEMENT_H

#include "teal_export.h"

#include "multibody/forces/force_elements.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Adds a user force element named name (used in error messages; any
 *  nonempty string) to a model instance, with the callbacks of ops (copied)
 *  and user (borrowed: it must outlive the plant). Before finalize only
 *  (TEAL_ESTATE, sticky like the other model calls); TEAL_EINVAL for NULL
 *  ops or ops->calc or a bad name, TEAL_ENOTFOUND for an unknown instance.
 *  Returns the element index; its kind is TEAL_FORCE_USER. */
TEAL_API int teal_plant_add_force_element(struct teal_plant *plant, const char *name, int instance,
                                          const teal_force_element_ops *ops, void *user);

/** The name of force element i if it is a user element, else NULL. */
TEAL_API const char *teal_plant_force_element_name(const struct teal_plant *plant, int i);

/** The user pointer given to teal_plant_add_force_element for element i,
 *  or NULL when i is not a user element. */
TEAL_API void *teal_plant_force_element_user(const struct teal_plant *plant, int i);

#ifdef __cplusplus
}
#endif
#endif
