/* Growable arrays: capacity doubling (or an exact reserve) through the
 * allocation hooks. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"

/* TEAL_EINVAL for arguments no array can have. */
static int check_args(void **data, const int *cap, int need, size_t elem) {
  return !data || !cap || *cap < 0 || need < 0 || elem == 0 ? TEAL_EINVAL : TEAL_OK;
}

int teal_grow(void **data, int *cap, int need, size_t elem) {
  int rc = check_args(data, cap, need, elem);
  if (rc || need <= *cap) {
    return rc;
  }
  /* double from 4 (or the current capacity) until need fits, without
   * overflowing an int: past INT_MAX / 2 the need itself is the capacity */
  int ncap = *cap ? *cap : 4;
  while (ncap < need) {
    ncap = ncap > INT_MAX / 2 ? need : 2 * ncap;
  }
  return teal_reserve(data, cap, ncap, elem);
}

int teal_reserve(void **data, int *cap, int need, size_t elem) {
  int rc = check_args(data, cap, need, elem);
  if (rc || need <= *cap) {
    return rc;
  }
  if ((size_t)need > SIZE_MAX / elem) {
    return TEAL_ENOMEM;
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
