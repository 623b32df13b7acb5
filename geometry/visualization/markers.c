/* The marker list value (see markers.h). */
#include "geometry/visualization/markers.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"

int teal_marker_list_resize(teal_marker_list *l, int n) {
  if (!l || n < 0) {
    return TEAL_EINVAL;
  }
  int rc = TEAL_RESERVE(l->m, l->cap, n);
  if (rc == TEAL_OK) {
    l->n = n;
  }
  return rc;
}

static int copy_markers(void *dst, const void *src) {
  teal_marker_list *d = dst;
  const teal_marker_list *s = src;
  int rc = teal_marker_list_resize(d, s->n);
  if (rc == TEAL_OK && s->n) {
    memcpy(d->m, s->m, (size_t)s->n * sizeof(*s->m));
  }
  return rc;
}

static void free_markers(void *value) {
  teal_marker_list *l = value;
  teal_free(l->m);
  l->m = NULL;
  l->n = l->cap = 0;
}

const teal_value_type teal_marker_list_type = {"teal_marker_list", sizeof(teal_marker_list), NULL,
                                               copy_markers, free_markers};
