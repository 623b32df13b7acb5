/** @file
 * Vector log sink (Drake's VectorLogSink): records the time and the value
 * of its vector input "data" into a log kept in the context.
 *
 * The log is a per-context scratch value (teal_leaf_declare_scratch): not
 * state, never a source of change, deep-copied by teal_context_clone and
 * teal_context_copy_from, released with the context. Each context (and so
 * each simulation) has its own log.
 *
 * When a sample is recorded. The sink declares
 *   - a periodic publish every publish_period seconds from t = 0 when
 *     publish_period > 0, or a per-step publish (every simulator step)
 *     when publish_period <= 0;
 *   - a forced publish (teal_force_publish, or a simulator with
 *     publish-every-step on);
 *   - an initialization publish (at simulator initialization).
 * Each of them records (t, data(t)). Several of them can be due at one
 * instant (initialization, the per-step or t = 0 periodic publish and a
 * forced publish all happen at the start time), so a sample whose time
 * equals the last recorded time replaces that sample instead of adding a
 * row: the log holds one row per instant (the latest value), and its
 * times are strictly increasing as long as time only moves forward.
 *
 * Memory. The log grows (doubling) through teal_alloc. After
 * teal_vector_log_sink_reserve(sys, ctx, capacity), recording up to
 * `capacity` samples allocates nothing. teal_vector_log_sink_clear keeps
 * the capacity. Out of memory while recording fails the publish with
 * TEAL_ENOMEM (the log keeps what it had). */
#ifndef TEAL_SYSTEMS_PRIMITIVES_VECTOR_LOG_SINK_H
#define TEAL_SYSTEMS_PRIMITIVES_VECTOR_LOG_SINK_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A recorded log: read it, don't write it (use the functions below). */
typedef struct teal_vector_log {
  int size;            /**< values per sample (the input size) */
  int count;           /**< samples recorded */
  int capacity;        /**< samples that fit without allocating */
  double *times;       /**< count sample times */
  double *data;        /**< count x size values, row-major: sample k at data + k * size */
} teal_vector_log;

/** Creates a finalized log sink of an n-value input "data" (n >= 1) that
 *  records every publish_period seconds (> 0) or at every simulator step
 *  (<= 0), plus on forced and initialization publishes. Returns NULL with
 *  err (may be NULL) set: TEAL_ESIZE (n), TEAL_ENONFINITE (NaN/Inf
 *  period), TEAL_ENOMEM. */
TEAL_API teal_system *teal_vector_log_sink_new(const char *name, int n, double publish_period,
                                               teal_error *err);

/** The log of sink sys in ctx: the sink's own context or a context of a
 *  diagram containing it. NULL when sys is not a log sink or not in ctx.
 *  Borrowed: the pointer stays valid as long as the context; the arrays it
 *  points to stay valid until the log next grows (a record beyond the
 *  capacity, reserve, or a copy into this context). */
TEAL_API const teal_vector_log *teal_vector_log_sink_log(const teal_system *sys,
                                                         const teal_context *ctx);

/** Empties the log of sys in ctx, keeping its capacity. TEAL_EINVAL for
 *  NULL arguments or when sys is not a log sink, TEAL_ENOTFOUND when sys
 *  is not in ctx. */
TEAL_API int teal_vector_log_sink_clear(const teal_system *sys, teal_context *ctx);

/** Makes room for at least capacity samples in total (capacity >= 0), so
 *  that recording that many allocates nothing. Reserve in the context that
 *  records: a clone copies the samples, and the capacity only when the
 *  copy has to allocate. Errors as for clear, plus TEAL_EINVAL
 *  (capacity < 0), TEAL_ESIZE (too large), TEAL_ENOMEM. */
TEAL_API int teal_vector_log_sink_reserve(const teal_system *sys, teal_context *ctx, int capacity);

/** Writes the log as CSV to path: a header row "time,<name 0>,..." (names
 *  from signal_names, log->size strings; NULL: y0, y1, ...; names holding
 *  a comma, quote or line break are quoted with doubled quotes), then one
 *  row per sample, every number printed with "%.17g" (round-trips exactly;
 *  infinities print as inf and -inf). A NULL entry of signal_names gets
 *  the default name. TEAL_EINVAL for NULL log or path,
 *  TEAL_EIO when the file cannot be opened or written (the message names
 *  the path and the reason). err may be NULL. */
TEAL_API int teal_vector_log_write_csv(const teal_vector_log *log, const char *path,
                                       const char *const *signal_names, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
