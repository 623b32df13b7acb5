/* The point-pair list value (see query_result.h). */
#include "geometry/proximity/query_result.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"

int teal_point_pair_list_reserve(teal_point_pair_list *l, int cap) {
  if (!l || cap < 0) {
    return TEAL_EINVAL;
  }
  return TEAL_RESERVE(l->pairs, l->cap, cap);
}

int teal_point_pair_list_push(teal_point_pair_list *l, const teal_point_pair *pair) {
  if (!l || !pair) {
    return TEAL_EINVAL;
  }
  if (l->n == l->cap) {
    int rc = TEAL_GROW(l->pairs, l->cap, l->cap ? l->n + 1 : 16); /* doubling, from 16 */
    if (rc) {
      return rc;
    }
  }
  l->pairs[l->n++] = *pair;
  return TEAL_OK;
}

static int copy_pairs(void *dst, const void *src) {
  teal_point_pair_list *d = dst;
  const teal_point_pair_list *s = src;
  /* follow the source's capacity, so the copy grows when it does */
  int rc = teal_point_pair_list_reserve(d, s->n > s->cap ? s->n : s->cap);
  if (rc == TEAL_OK) {
    if (s->n) {
      memcpy(d->pairs, s->pairs, (size_t)s->n * sizeof(*s->pairs));
    }
    d->n = s->n;
  }
  return rc;
}

static void free_pairs(void *value) {
  teal_point_pair_list *l = value;
  teal_free(l->pairs);
  l->pairs = NULL;
  l->n = l->cap = 0;
}

const teal_value_type teal_point_pair_list_type = {"teal_point_pair_list",
                                                   sizeof(teal_point_pair_list), NULL, copy_pairs,
                                                   free_pairs};
