/** @file
 * Allocation hooks.
 *
 * All memory Teal allocates goes through teal_alloc/teal_calloc/teal_free so
 * that an application (or a test) can route it elsewhere or count it. The
 * hooks are process-wide and must be set before any Teal object exists. */
#ifndef TEAL_FRAMEWORK_ALLOC_H
#define TEAL_FRAMEWORK_ALLOC_H

#include "teal_export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A replaceable allocator. free_fn must accept NULL. */
typedef struct teal_allocator {
  void *(*alloc_fn)(size_t size, void *user); /**< allocates size bytes, NULL on failure */
  void (*free_fn)(void *ptr, void *user);     /**< releases alloc_fn memory (or NULL) */
  void *user;                                 /**< passed to both hooks */
} teal_allocator;

/** Installs an allocator; NULL restores malloc/free. Returns TEAL_EINVAL if a
 *  hook is missing. */
TEAL_API int teal_set_allocator(const teal_allocator *allocator);

/** Allocates size bytes (size 0 gives a valid unique pointer); NULL on failure. */
TEAL_API void *teal_alloc(size_t size);

/** Allocates n*size zeroed bytes, checking for overflow; NULL on failure. */
TEAL_API void *teal_calloc(size_t n, size_t size);

/** Releases memory from teal_alloc/teal_calloc; NULL is ignored. */
TEAL_API void teal_free(void *ptr);

/** Duplicates a C string through teal_alloc; NULL on failure or NULL input. */
TEAL_API char *teal_strdup(const char *s);

/** Number of teal_alloc/teal_calloc calls since start (a cheap counter for tests). */
TEAL_API unsigned long teal_alloc_count(void);

#ifdef __cplusplus
}
#endif
#endif
