/* The pose list value (see pose_list.h). */
#include "geometry/scene_graph/pose_list.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"

int teal_transform_list_resize(teal_transform_list *l, int n) {
  if (!l || n < 0) {
    return TEAL_EINVAL;
  }
  int rc = TEAL_RESERVE(l->X, l->cap, n);
  if (rc == TEAL_OK) {
    l->n = n;
  }
  return rc;
}

static int copy_poses(void *dst, const void *src) {
  teal_transform_list *d = dst;
  const teal_transform_list *s = src;
  int rc = teal_transform_list_resize(d, s->n);
  if (rc == TEAL_OK && s->n) {
    memcpy(d->X, s->X, (size_t)s->n * sizeof(*s->X));
  }
  return rc;
}

static void free_poses(void *value) {
  teal_transform_list *l = value;
  teal_free(l->X);
  l->X = NULL;
  l->n = l->cap = 0;
}

const teal_value_type teal_transform_list_type = {"teal_transform_list",
                                                  sizeof(teal_transform_list), NULL, copy_poses,
                                                  free_poses};
