/* Shared helpers of the primitive systems: parameter checks with messages
 * naming the system, model-data copies, the finalize-or-free step of every
 * constructor and small Jacobian fillers. Not installed. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_PRIMITIVE_UTIL_INTERNAL_H
#define TEAL_SYSTEMS_PRIMITIVES_PRIMITIVE_UTIL_INTERNAL_H

#include <stddef.h>

#include "framework/error.h"
#include "framework/system.h"

/** The name a leaf gets from teal_leaf_new for name (NULL or "" -> "leaf"). */
const char *teal_prim_name(const char *name);

/** TEAL_ESIZE unless count >= min; the message reads
 *  "<kind> '<name>': <what> = <count> must be >= <min>". */
int teal_prim_check_count(teal_error *err, const char *kind, const char *name, const char *what,
                          int count, int min);

/** TEAL_EINVAL when v is NULL and n > 0, TEAL_ENONFINITE when an entry is
 *  NaN or infinite; the message names kind, name, what and the entry. */
int teal_prim_check_finite(teal_error *err, const char *kind, const char *name,
                           const char *what, const double *v, int n);

/** Like teal_prim_check_finite but lets +-INFINITY through (NaN still fails). */
int teal_prim_check_not_nan(teal_error *err, const char *kind, const char *name,
                            const char *what, const double *v, int n);

/** TEAL_ENONFINITE unless x is finite. */
int teal_prim_check_scalar(teal_error *err, const char *kind, const char *name, const char *what,
                           double x);

/** Checks a list of count port sizes (each >= 1, sizes non-NULL, sum fits
 *  an int) and writes offsets[0..count] (running sums) when offsets is not
 *  NULL. what names the list in messages. */
int teal_prim_check_sizes(teal_error *err, const char *kind, const char *name, const char *what,
                          const int *sizes, int count, int *offsets);

/** teal_alloc(size), reporting TEAL_ENOMEM in err on failure. */
void *teal_prim_alloc(size_t size, teal_error *err, const char *kind, const char *name);

/** Copies n doubles from src to dst, or zero-fills dst when src is NULL. */
void teal_prim_copy(double *dst, const double *src, int n);

/** teal_leaf_new with the out-of-memory case reported in err (data is
 *  released by data_free on failure, as teal_leaf_new does). */
teal_system *teal_prim_leaf_new(const char *name, void *data, void (*data_free)(void *),
                                teal_error *err);

/** Finalizes sys. On success clears err and returns sys; otherwise copies
 *  the system's sticky error into err, frees sys and returns NULL. */
teal_system *teal_prim_finish(teal_system *sys, teal_error *err);

/** Writes the rows x cols matrix M (row-major) as zeros with ones on the
 *  diagonal of the block starting at (row0, col0). */
void teal_prim_identity_block(double *M, int rows, int cols, int row0, int col0);

/** Checks a sampling period: a finite number (teal_prim_check_scalar) that
 *  is > 0 ("<kind> '<name>': period = <p> must be > 0"). */
int teal_prim_check_period(teal_error *err, const char *kind, const char *name, double period);

/** Copies vector input 0 into out (its size); the signature serves both as
 *  an output calc and as a discrete update. */
int teal_prim_copy_input(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user);

/** Jacobian hook of a static system whose output equals each input: the
 *  chosen input-to-output block D is the identity, nothing else. */
int teal_prim_jacobian_identity(const teal_system *sys, const teal_context *ctx, int input_port,
                                int output_port, teal_jacobian *jac, void *user);

/** Jacobian hook of systems with no state and no inputs: all blocks are
 *  empty, so there is nothing to write. */
int teal_prim_jacobian_empty(const teal_system *sys, const teal_context *ctx, int input_port,
                             int output_port, teal_jacobian *jac, void *user);

#endif
