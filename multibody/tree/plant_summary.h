/** @file
 * A finalized plant as readable text: its model instances and its tree of
 * bodies with their masses and inboard joints (kind, name, and the indices
 * of their positions q and velocities v). The text depends on the plant
 * alone, so a robot reads the same whatever file format it was loaded from;
 * the teal-model tool (tools/teal_model.c) prints it for any model file.
 * @code{.unparsed}
 *   plant "plant": 5 bodies (world included), 4 joints, 0 actuators; nq 9, nv 8, nu 0; mass 3.5 kg
 *   model instances:
 *     0 "WorldModelInstance": 1 body, nq 0, nv 0, mass 0 kg
 *     1 "DefaultModelInstance": 0 bodies, nq 0, nv 0, mass 0 kg
 *     2 "arm": 4 bodies, nq 9, nv 8, mass 3.5 kg
 *   tree (body [instance]: mass; inboard joint):
 *     world
 *       ball [arm]: 0.5 kg; quaternion_floating "$world_ball", q 0..6, v 0..5
 *       base [arm]: 1 kg; weld "base_weld"
 *         upper [arm]: 1 kg; revolute "shoulder", q 7, v 6
 *           tip [arm]: 1 kg; revolute "elbow", q 8, v 7
 * @endcode
 * A last section lists the actuators whose input gain is not 1
 * (actuator_gain.h), e.g. `  0 "elbow_motor" (v 7): 2.5`.
 * Children follow their parent, listed by name (so the text does not depend
 * on the order a loader added the bodies in); indentation stops growing at
 * depth TEAL_PLANT_SUMMARY_MAX_INDENT (deeper lines carry their depth). */
#ifndef TEAL_MULTIBODY_TREE_PLANT_SUMMARY_H
#define TEAL_MULTIBODY_TREE_PLANT_SUMMARY_H

#include <stdio.h>

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Depth beyond which the tree's lines are not indented further. */
#define TEAL_PLANT_SUMMARY_MAX_INDENT 32

/** Returns the summary of the finalized plant in a buffer from teal_alloc
 *  (free it with teal_free), or NULL with a message in err (may be NULL):
 *  TEAL_EINVAL for a NULL plant, TEAL_ESTATE before finalize, TEAL_ENOMEM. */
TEAL_API char *teal_plant_summary_string(const teal_plant *plant, teal_error *err);

/** Writes the summary to out. TEAL_EINVAL for a NULL out, TEAL_EIO when
 *  writing fails, else as teal_plant_summary_string. */
TEAL_API int teal_plant_print_summary(const teal_plant *plant, FILE *out, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
