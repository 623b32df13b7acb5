/* Growable arrays: capacity doubling (or an exact reserve) through the
 * allocation hooks. */
#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"

int teal_grow(void **data, int *cap, int need, size_t elem) {
  if (need <= *cap) {
    return TEAL_OK;
  }
  int ncap = *cap ? *cap * 2 : 4;
  while (ncap < need) {
    ncap *= 2;
  }
  return teal_reserve(data, cap, ncap, elem);
}

int teal_reserve(void **data, int *cap, int need, size_t elem) {
  if (need <= *cap) {
    return TEAL_OK;
  }
  void *p = teal_calloc((size_t)need, elem);
  if (!p) {
    return TEAL_ENOMEM;
  }
  if (*data) {
    memcpy(p, *data, (size_t)*cap * elem);
    teal_free(*data);
  }
  *data = p;
  *cap = need;
  return TEAL_OK;
}
