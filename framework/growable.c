/* Growable arrays: capacity doubling through the allocation hooks. */
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
  void *p = teal_calloc((size_t)ncap, elem);
  if (!p) {
    return TEAL_ENOMEM;
  }
  if (*data) {
    memcpy(p, *data, (size_t)*cap * elem);
    teal_free(*data);
  }
  *data = p;
  *cap = ncap;
  return TEAL_OK;
}
