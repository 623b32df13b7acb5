/** @file
 * Growable arrays (growable.c): one allocation helper for the arrays that
 * declarations and builders append to, so that no source grows memory by
 * hand, and its exact form for values with a reserve call of their own.
 *
 * An array is a pointer plus an int capacity (and, kept by the caller, an
 * int count). Grow it before appending:
 *
 * @code
 *   double *items = NULL;
 *   int n = 0, cap = 0;
 *   if (TEAL_GROW(items, cap, n + 1) != TEAL_OK) { ...out of memory... }
 *   items[n++] = 1.0;
 *   ...
 *   teal_free(items);
 * @endcode
 *
 * Memory comes from teal_calloc and goes back with teal_free (alloc.h), so
 * the allocation hooks see it. */
#ifndef TEAL_FRAMEWORK_GROWABLE_H
#define TEAL_FRAMEWORK_GROWABLE_H

#include "teal_export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Makes *data (an array of elements of elem bytes with room for *cap of
 *  them; NULL when *cap is 0) hold at least need elements. When it must
 *  grow, the capacity doubles (from 4) until it reaches need; the first *cap
 *  elements are copied and the new ones are zeroed, and *data and *cap are
 *  updated. Returns TEAL_OK, or TEAL_ENOMEM with *data and *cap unchanged. */
TEAL_API int teal_grow(void **data, int *cap, int need, size_t elem);

/** Typed form of teal_grow for an lvalue pointer `data` and int lvalue
 *  `cap`: TEAL_GROW(sys->items, sys->cap_items, sys->nitems + 1). */
#define TEAL_GROW(data, cap, need) teal_grow((void **)&(data), &(cap), (need), sizeof *(data))

/** teal_grow with an exact capacity: when *cap < need, *data moves to an
 *  array of exactly need elements (the first *cap copied, the rest zeroed)
 *  and *cap becomes need. For lists whose capacity users set (a public
 *  reserve) or whose growth a caller counts. */
TEAL_API int teal_reserve(void **data, int *cap, int need, size_t elem);

/** Typed form of teal_reserve, like TEAL_GROW. */
#define TEAL_RESERVE(data, cap, need) teal_reserve((void **)&(data), &(cap), (need), sizeof *(data))

#ifdef __cplusplus
}
#endif
#endif
