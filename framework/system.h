/** @file
 * Systems: the queries common to leaves and diagrams (system.c), and the
 * umbrella of the system API: types (system_types.h), leaf declaration
 * (leaf_system.h, leaf_events.h), port evaluation (ports.h) and dynamics
 * (system_dynamics.h).
 *
 * A system holds nothing that changes during simulation; everything that
 * does lives in a teal_context (context.h). */
#ifndef TEAL_FRAMEWORK_SYSTEM_H
#define TEAL_FRAMEWORK_SYSTEM_H

#include "teal_export.h"
#include <stddef.h>

#include "framework/error.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "framework/system_types.h"
#include "framework/leaf_system.h"
#include "framework/leaf_events.h"
#include "framework/ports.h"
#include "framework/system_dynamics.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Frees a system that no builder or diagram owns (NULL is ignored). */
TEAL_API void teal_system_free(teal_system *sys);

/** The system's name. */
TEAL_API const char *teal_system_name(const teal_system *sys);

/** Nonzero for diagrams. */
TEAL_API int teal_system_is_diagram(const teal_system *sys);

/** The sticky declaration error (code TEAL_OK when none). */
TEAL_API const teal_error *teal_system_error(const teal_system *sys);

/** The diagram that owns sys, or NULL. */
TEAL_API const teal_system *teal_system_parent(const teal_system *sys);

/** Model data given to teal_leaf_new. */
TEAL_API void *teal_system_user(const teal_system *sys);

/** Number of input ports (0 for NULL). */
TEAL_API int teal_system_num_input_ports(const teal_system *sys);
/** Number of output ports (0 for NULL). */
TEAL_API int teal_system_num_output_ports(const teal_system *sys);

/** Input port i, or NULL when out of range. */
TEAL_API const teal_input_port *teal_system_input_port(const teal_system *sys, int i);
/** Output port i, or NULL when out of range. */
TEAL_API const teal_output_port *teal_system_output_port(const teal_system *sys, int i);

/** Input port by name, or NULL. */
TEAL_API const teal_input_port *
teal_system_input_port_by_name(const teal_system *sys, const char *name);
/** Output port by name, or NULL. */
TEAL_API const teal_output_port *
teal_system_output_port_by_name(const teal_system *sys, const char *name);

/** The input port's name. */
TEAL_API const char *teal_input_port_name(const teal_input_port *port);
/** The input port's index in its system (TEAL_EINVAL for NULL). */
TEAL_API int teal_input_port_index(const teal_input_port *port);
/** Size in doubles (0 for abstract ports). */
TEAL_API int teal_input_port_size(const teal_input_port *port);
/** Type of an abstract port, NULL for vector ports. */
TEAL_API const teal_value_type *teal_input_port_type(const teal_input_port *port);
/** The system the input port belongs to. */
TEAL_API const teal_system *teal_input_port_system(const teal_input_port *port);

/** The output port's name. */
TEAL_API const char *teal_output_port_name(const teal_output_port *port);
/** The output port's index in its system (TEAL_EINVAL for NULL). */
TEAL_API int teal_output_port_index(const teal_output_port *port);
/** Size in doubles (0 for abstract ports). */
TEAL_API int teal_output_port_size(const teal_output_port *port);
/** Type of an abstract port, NULL for vector ports. */
TEAL_API const teal_value_type *teal_output_port_type(const teal_output_port *port);
/** The system the output port belongs to. */
TEAL_API const teal_system *teal_output_port_system(const teal_output_port *port);

/** Continuous state sizes; returns nq + nv + nz. Pointers may be NULL. */
TEAL_API int teal_system_num_continuous_states(const teal_system *sys, int *nq, int *nv, int *nz);
/** Total discrete state doubles (all groups, whole subtree). */
TEAL_API int teal_system_num_discrete_states(const teal_system *sys);
/** Discrete groups of a leaf (0 for diagrams). */
TEAL_API int teal_system_num_discrete_groups(const teal_system *sys);
/** Size of discrete group i of a leaf, or a negative status. */
TEAL_API int teal_system_discrete_group_size(const teal_system *sys, int i);
/** Abstract state variables in the subtree. */
TEAL_API int teal_system_num_abstract_states(const teal_system *sys);
/** Numeric parameter vectors of a leaf. */
TEAL_API int teal_system_num_numeric_parameters(const teal_system *sys);
/** Size of numeric parameter i of a leaf, or a negative status. */
TEAL_API int teal_system_numeric_parameter_size(const teal_system *sys, int i);
/** Nonzero when output port out depends directly on input port in. */
TEAL_API int teal_system_has_direct_feedthrough(const teal_system *sys, int in, int out);
/** Witness functions in the subtree (their order is the leaves' order). */
TEAL_API int teal_system_num_witnesses(const teal_system *sys);
/** Direction of witness i of the subtree, or a negative status. */
TEAL_API int teal_system_witness_direction(const teal_system *sys, int i);
/** The tag given by teal_leaf_set_type_tag, or NULL. */
TEAL_API const void *teal_system_type_tag(const teal_system *sys);
/** Nonzero when the leaf declared an analytic Jacobian hook. */
TEAL_API int teal_system_has_jacobian(const teal_system *sys);

#ifdef __cplusplus
}
#endif
#endif
