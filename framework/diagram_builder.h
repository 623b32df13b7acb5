/** @file
 * The diagram builder (diagram_builder.c).
 *
 * A builder collects subsystems (taking ownership), connections and exported
 * ports, then teal_builder_build checks the wiring (sizes, types, algebraic
 * loops) and returns a diagram that owns its subsystems. A diagram is an
 * ordinary teal_system: it can be simulated, evaluated, or added to another
 * builder. Unconnected inputs are allowed; evaluating one reports
 * TEAL_ENOTCONNECTED unless it has a fixed value in the context. */
#ifndef TEAL_FRAMEWORK_DIAGRAM_BUILDER_H
#define TEAL_FRAMEWORK_DIAGRAM_BUILDER_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A diagram builder (opaque). */
typedef struct teal_builder teal_builder;

/** Creates an empty builder for a diagram named name. */
TEAL_API teal_builder *teal_builder_new(const char *name);

/** Frees a builder and every system it owns (NULL is ignored). */
TEAL_API void teal_builder_free(teal_builder *b);

/** The builder's sticky error (code TEAL_OK when none). */
TEAL_API const teal_error *teal_builder_error(const teal_builder *b);

/** Adds sys, taking ownership (also on failure, when sys is freed). sys
 *  must be finalized or built, unowned, and named uniquely within b.
 *  Returns sys, or NULL on error. */
TEAL_API teal_system *teal_builder_add(teal_builder *b, teal_system *sys);

/** Subsystem added under name, or NULL. */
TEAL_API teal_system *teal_builder_find(const teal_builder *b, const char *name);

/** Connects an output to an input of two added subsystems (sizes or types
 *  must match; an input can be connected once, an output fans out freely). */
TEAL_API int teal_builder_connect(teal_builder *b, const teal_output_port *src,
                                  const teal_input_port *dst);

/** Connects by subsystem and port names. */
TEAL_API int teal_builder_connect_by_name(teal_builder *b, const char *src_system,
                                          const char *src_port, const char *dst_system,
                                          const char *dst_port);

/** Exports a subsystem input as a new diagram input named name (NULL:
 *  "<system>_<port>"). Returns the diagram input index. */
TEAL_API int teal_builder_export_input(teal_builder *b, const teal_input_port *dst,
                                       const char *name);

/** Feeds another subsystem input from an already exported diagram input. */
TEAL_API int teal_builder_connect_input(teal_builder *b, const char *diagram_input,
                                        const teal_input_port *dst);

/** Exports a subsystem output as a diagram output (NULL name as above).
 *  Returns the diagram output index. */
TEAL_API int teal_builder_export_output(teal_builder *b, const teal_output_port *src,
                                        const char *name);

/** What a builder needs to know of a pending entry (teal_builder_add_pending). */
typedef struct teal_builder_pending_ops {
  /** Called first by teal_builder_build: TEAL_OK once the entry has added
   *  its systems, otherwise a negative status with the cause in err (the
   *  build then fails with it). */
  int (*check)(void *user, teal_error *err);
  /** Called once when the builder is freed or consumed by a build (after
   *  check, before the builder frees its systems): frees user and whatever
   *  the entry still owns. */
  void (*release)(void *user);
} teal_builder_pending_ops;

/** Records a promise that an object still under construction (e.g. a plant
 *  added before its finalize) will add its systems to b later. b takes
 *  ownership of user on success (ops->release frees it); on failure (NULL
 *  argument, NULL callbacks, a sticky builder error, out of memory) the
 *  caller keeps it and the status is returned. ops must outlive b. */
TEAL_API int teal_builder_add_pending(teal_builder *b, const teal_builder_pending_ops *ops,
                                      void *user);

/** Builds the diagram, consuming the builder (freed whether or not it
 *  succeeds). Every pending entry must have resolved first (its check
 *  fails the build otherwise). Returns NULL on error with the reason in err
 *  (may be NULL). */
TEAL_API teal_system *teal_builder_build(teal_builder *b, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
