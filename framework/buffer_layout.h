/** @file
 * One allocation for many arrays, laid out in two passes, as contexts and
 * the multibody data are: the first pass (base NULL) only adds up the sizes,
 * the second hands out aligned slices of the buffer allocated in between.
 * Both passes must take the same arrays in the same order.
 *
 * @code
 *   teal_buffer_layout L = {NULL, 0, 0};
 *   lay_out(obj, &L);                  (calls teal_buffer_take for each array)
 *   if (L.overflow) { ...too large... }
 *   void *buffer = teal_calloc(1, L.size);
 *   L = (teal_buffer_layout){buffer, 0, 0};
 *   lay_out(obj, &L);
 * @endcode
 *
 * Every slice starts on a 16-byte boundary, so any element type fits. */
#ifndef TEAL_FRAMEWORK_BUFFER_LAYOUT_H
#define TEAL_FRAMEWORK_BUFFER_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A layout in progress: base is NULL in the sizing pass; size is the bytes
 *  taken so far; overflow becomes 1 when the total does not fit a size_t. */
typedef struct teal_buffer_layout {
  char *base;   /**< the buffer (second pass), NULL in the sizing pass */
  size_t size;  /**< bytes taken so far */
  int overflow; /**< 1 once the total does not fit a size_t */
} teal_buffer_layout;

/** Takes room for n elements of elem bytes: their address in the second
 *  pass, NULL in the sizing pass (and after an overflow). */
static inline void *teal_buffer_take(teal_buffer_layout *L, size_t n, size_t elem) {
  size_t start = (L->size + 15) & ~(size_t)15;
  if (L->overflow || start < L->size || (elem && n > (SIZE_MAX - start) / elem)) {
    L->overflow = 1;
    return NULL;
  }
  L->size = start + n * elem;
  return L->base ? L->base + start : NULL;
}

#ifdef __cplusplus
}
#endif
#endif
