/** @file
 * Diagrams: queries of a built diagram's subsystems (diagram.c), and the
 * umbrella of the diagram API: the builder (diagram_builder.h) and Graphviz
 * output (graphviz.h). */
#ifndef TEAL_FRAMEWORK_DIAGRAM_H
#define TEAL_FRAMEWORK_DIAGRAM_H

#include "teal_export.h"
#include <stdio.h>

#include "framework/system.h"
#include "framework/diagram_builder.h"
#include "framework/graphviz.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Number of direct subsystems of a diagram (0 for a leaf). */
TEAL_API int teal_diagram_num_subsystems(const teal_system *diagram);
/** Direct subsystem i, or NULL. */
TEAL_API const teal_system *teal_diagram_subsystem(const teal_system *diagram, int i);
/** Subsystem by slash-separated path ("group/leaf"), or NULL. */
TEAL_API const teal_system *teal_diagram_find_subsystem(const teal_system *diagram,
                                                        const char *path);

#ifdef __cplusplus
}
#endif
#endif
