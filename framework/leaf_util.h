/** @file
 * Helpers for writing leaf systems (leaf_util.c): argument checks whose
 * messages name the system ("<kind> '<name>': ..."), allocation and leaf
 * creation that report out-of-memory in a teal_error, the finalize-or-free
 * step that ends a constructor, identity and empty Jacobian hooks, an input
 * copier, and the lookup of a leaf's own context from a root or diagram
 * context. The systems/ library builds its leaves with these; they are
 * public for users who write their own.
 *
 * A typical constructor:
 *
 * @code
 *   if (teal_leaf_util_check_count(err, "gain", name, "size", n, 1) ||
 *       teal_leaf_util_check_finite(err, "gain", name, "k", k, n)) {
 *     return NULL;
 *   }
 *   double *data = teal_leaf_util_alloc(n * sizeof *data, err, "gain", name);
 *   teal_system *sys = data ? teal_leaf_util_new(name, data, teal_free, err) : NULL;
 *   ... declare ports and callbacks ...
 *   return teal_leaf_util_finish_tagged(sys, &my_tag, "gain", name, err);
 * @endcode */
#ifndef TEAL_FRAMEWORK_LEAF_UTIL_H
#define TEAL_FRAMEWORK_LEAF_UTIL_H

#include "teal_export.h"
#include <stddef.h>

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The name a leaf gets from teal_leaf_new for name (NULL or "" -> "leaf"). */
TEAL_API const char *teal_leaf_util_name(const char *name);

/** TEAL_ESIZE unless count >= min; the message reads
 *  "<kind> '<name>': <what> = <count> must be >= <min>". */
TEAL_API int teal_leaf_util_check_count(teal_error *err, const char *kind, const char *name,
                                        const char *what, int count, int min);

/** TEAL_EINVAL when v is NULL and n > 0, TEAL_ENONFINITE when an entry is
 *  NaN or infinite; the message names kind, name, what and the entry. */
TEAL_API int teal_leaf_util_check_finite(teal_error *err, const char *kind, const char *name,
                                         const char *what, const double *v, int n);

/** Like teal_leaf_util_check_finite but lets +-INFINITY through (NaN still fails). */
TEAL_API int teal_leaf_util_check_not_nan(teal_error *err, const char *kind, const char *name,
                                          const char *what, const double *v, int n);

/** TEAL_ENONFINITE unless x is finite. */
TEAL_API int teal_leaf_util_check_scalar(teal_error *err, const char *kind, const char *name,
                                         const char *what, double x);

/** Checks a list of count port sizes (each >= 1, sizes non-NULL, sum fits
 *  an int) and writes offsets[0..count] (running sums) when offsets is not
 *  NULL. what names the list in messages. */
TEAL_API int teal_leaf_util_check_sizes(teal_error *err, const char *kind, const char *name,
                                        const char *what, const int *sizes, int count,
                                        int *offsets);

/** teal_alloc(size), reporting TEAL_ENOMEM in err on failure. */
TEAL_API void *teal_leaf_util_alloc(size_t size, teal_error *err, const char *kind,
                                    const char *name);

/** Copies n doubles from src to dst, or zero-fills dst when src is NULL. */
TEAL_API void teal_leaf_util_copy(double *dst, const double *src, int n);

/** teal_leaf_new with the out-of-memory case reported in err (data is
 *  released by data_free on failure, as teal_leaf_new does). */
TEAL_API teal_system *teal_leaf_util_new(const char *name, void *data, void (*data_free)(void *),
                                         teal_error *err);

/** Finalizes sys. On success clears err and returns sys; otherwise copies
 *  the system's sticky error into err, frees sys and returns NULL. */
TEAL_API teal_system *teal_leaf_util_finish(teal_system *sys, teal_error *err);

/** Writes the rows x cols matrix M (row-major) as zeros with ones on the
 *  diagonal of the block starting at (row0, col0). */
TEAL_API void teal_leaf_util_identity_block(double *M, int rows, int cols, int row0, int col0);

/** Checks a sampling period: a finite number (teal_leaf_util_check_scalar) that
 *  is > 0 ("<kind> '<name>': period = <p> must be > 0"). */
TEAL_API int teal_leaf_util_check_period(teal_error *err, const char *kind, const char *name,
                                         double period);

/** Copies vector input 0 into out (its size); the signature serves both as
 *  an output calc and as a discrete update. */
TEAL_API int teal_leaf_util_copy_input(const teal_system *sys, const teal_context *ctx, double *out,
                                       void *user);

/** Jacobian hook of a static system whose output equals each input: the
 *  chosen input-to-output block D is the identity, nothing else. */
TEAL_API int teal_leaf_util_jacobian_identity(const teal_system *sys, const teal_context *ctx,
                                              int input_port, int output_port, teal_jacobian *jac,
                                              void *user);

/** Jacobian hook of systems with no state and no inputs: all blocks are
 *  empty, so there is nothing to write. */
TEAL_API int teal_leaf_util_jacobian_empty(const teal_system *sys, const teal_context *ctx,
                                           int input_port, int output_port, teal_jacobian *jac,
                                           void *user);

/** Tags sys with tag and finalizes it. On success clears err and returns
 *  sys; otherwise sets err to "<kind> '<name>': <the system's error>"
 *  (framework declaration messages do not always name the system), frees
 *  sys and returns NULL. sys NULL (teal_leaf_new out of memory) gives
 *  TEAL_ENOMEM. */
TEAL_API teal_system *teal_leaf_util_finish_tagged(teal_system *sys, const void *tag,
                                                   const char *kind, const char *name,
                                                   teal_error *err);

/** The context of leaf sys inside ctx (ctx itself when it is sys's own
 *  context: teal_context_subcontext returns ctx for ctx's own system), when
 *  sys carries tag. NULL otherwise, with *status (may be NULL) set to
 *  TEAL_EINVAL (NULL argument or another kind of system) or TEAL_ENOTFOUND
 *  (sys is not in ctx). */
TEAL_API const teal_context *teal_leaf_util_own_context(const teal_system *sys, const void *tag,
                                                        const teal_context *ctx, int *status);

/** teal_leaf_util_own_context for a writable ctx. */
TEAL_API teal_context *teal_leaf_util_own_context_mut(const teal_system *sys, const void *tag,
                                                      teal_context *ctx, int *status);

/** The error of a leaf's context call fn (such as a log sink's "clear")
 *  that could not run, reported on ctx when ctx is not NULL. status is what
 *  teal_leaf_util_own_context gave: TEAL_OK means the system was found and
 *  the array named array was NULL ("<kind> '<name>': <fn>: <array> is
 *  NULL"); TEAL_EINVAL a NULL system or one of another kind ("<kind>: <fn>:
 *  the system is not <what>", what being "a vector log sink" and the like);
 *  TEAL_ENOTFOUND is returned as it is. Returns the code (TEAL_EINVAL unless
 *  TEAL_ENOTFOUND). */
TEAL_API int teal_leaf_util_bad_call(const teal_system *sys, const teal_context *ctx, int status,
                                     const char *kind, const char *what, const char *fn,
                                     const char *array);

#ifdef __cplusplus
}
#endif
#endif
