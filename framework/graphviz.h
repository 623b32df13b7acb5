/** @file
 * Graphviz (dot) rendering of a system's wiring (graphviz.c): leaves are
 * record nodes with their ports, diagrams are clusters with their exported
 * ports. */
#ifndef TEAL_FRAMEWORK_GRAPHVIZ_H
#define TEAL_FRAMEWORK_GRAPHVIZ_H

#include "teal_export.h"
#include <stdio.h>

#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the wiring as a Graphviz dot digraph. */
TEAL_API int teal_diagram_write_graphviz(const teal_system *sys, FILE *out);

/** Returns the Graphviz text in a buffer from teal_alloc (free with
 *  teal_free), or NULL on failure. */
TEAL_API char *teal_diagram_graphviz_string(const teal_system *sys);

#ifdef __cplusplus
}
#endif
#endif
