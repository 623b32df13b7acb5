/* Builder internals shared by the diagram sources. Not installed. */
#ifndef TEAL_FRAMEWORK_DIAGRAM_INTERNAL_H
#define TEAL_FRAMEWORK_DIAGRAM_INTERNAL_H

#include "framework/diagram.h"
#include "framework/system_internal.h"

/* An exported diagram input: its name and the port that defines its shape. */
typedef struct teal_input_export {
  char *name;
  const teal_input_port *shape;
} teal_input_export;

/* An exported diagram output. */
typedef struct teal_output_export {
  char *name;
  int child, port;
} teal_output_export;

/* A pending entry of a builder (teal_builder_add_pending). */
typedef struct teal_builder_pending {
  const teal_builder_pending_ops *ops;
  void *user;
} teal_builder_pending;

struct teal_builder {
  char *name;
  teal_error err;
  teal_system **systems;
  teal_connection **conn; /* conn[c][p]: source of subsystem c's input p */
  int nsystems, cap;
  teal_input_export *inputs;
  int ninputs, cap_inputs;
  teal_output_export *outputs;
  int noutputs, cap_outputs;
  teal_builder_pending *pending;
  int npending, cap_pending;
};

/* Size or type agreement between a source and an input; sticky error. */
int teal_builder_ports_compatible(teal_builder *b, int is_abstract, int size,
                                  const teal_value_type *type, const char *src_desc,
                                  const teal_input_port *dst, const char *what);

/* Checks that dst belongs to b and is still unconnected; returns the index
 * of its subsystem or a negative status. */
int teal_builder_free_input(teal_builder *b, const teal_input_port *dst, const char *what);

/* Rejects algebraic loops among a diagram's direct subsystems (message
 * names every hop) and computes the diagram's feedthrough matrix. */
int teal_diagram_check_loops(teal_system *diagram);

#endif
