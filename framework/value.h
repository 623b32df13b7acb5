/** @file
 * Abstract value types.
 *
 * Abstract ports, abstract state and abstract cache entries carry values of a
 * user type described by a teal_value_type. The framework stores each value
 * in a block of `size` bytes inside the context and manages it only through
 * the descriptor's hooks. Two descriptors match when they are the same object
 * or have the same name and size. */
#ifndef TEAL_FRAMEWORK_VALUE_H
#define TEAL_FRAMEWORK_VALUE_H

#include "teal_export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Describes an abstract value type. */
typedef struct teal_value_type {
  const char *name; /**< type name, used in messages and for matching */
  size_t size;      /**< bytes of the value block */
  /** Makes dst a valid default value (dst holds size uninitialized bytes).
   *  NULL means zero-filled bytes are a valid value. Returns a status. */
  int (*init)(void *dst);
  /** Copies src into dst, both valid values. NULL means memcpy. Must not
   *  allocate when dst already has room (so copies in a step stay free). */
  int (*copy)(void *dst, const void *src);
  /** Releases what the value owns (not the block itself). NULL: nothing. */
  void (*free)(void *value);
} teal_value_type;

/** Nonzero when a and b describe the same type. */
TEAL_API int teal_value_type_equal(const teal_value_type *a, const teal_value_type *b);

/** Initializes dst with the type's default (init or zero fill). */
TEAL_API int teal_value_init(const teal_value_type *type, void *dst);

/** Copies src into dst through the type's copy hook. */
TEAL_API int teal_value_copy(const teal_value_type *type, void *dst, const void *src);

/** Releases what the value owns through the type's free hook. */
TEAL_API void teal_value_release(const teal_value_type *type, void *value);

#ifdef __cplusplus
}
#endif
#endif
