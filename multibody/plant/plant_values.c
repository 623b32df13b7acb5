/* List values of the plant's abstract ports (see plant_values.h). */
#include "multibody/plant/plant_values.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"

int teal_spatial_vector_list_resize(teal_spatial_vector_list *l, int n) {
  int rc = l && n >= 0 ? TEAL_RESERVE(l->V, l->cap, n) : TEAL_EINVAL;
  if (rc == TEAL_OK) {
    l->n = n;
  }
  return rc;
}

int teal_applied_spatial_force_list_resize(teal_applied_spatial_force_list *l, int n) {
  int rc = l && n >= 0 ? TEAL_RESERVE(l->f, l->cap, n) : TEAL_EINVAL;
  if (rc == TEAL_OK) {
    l->n = n;
  }
  return rc;
}

int teal_applied_spatial_force_list_push(teal_applied_spatial_force_list *l, int body,
                                         teal_vec3 p_BoBq_B, teal_spatial_vector F_Bq_W) {
  if (!l) {
    return TEAL_EINVAL;
  }
  int n = l->n, rc = TEAL_GROW(l->f, l->cap, n + 1);
  if (rc) {
    return rc;
  }
  l->f[n] = (teal_applied_spatial_force){body, p_BoBq_B, F_Bq_W};
  l->n = n + 1;
  return TEAL_OK;
}

static int copy_vectors(void *dst, const void *src) {
  teal_spatial_vector_list *d = dst;
  const teal_spatial_vector_list *s = src;
  int rc = teal_spatial_vector_list_resize(d, s->n);
  if (rc == TEAL_OK && s->n) {
    memcpy(d->V, s->V, (size_t)s->n * sizeof(*s->V));
  }
  return rc;
}

static int copy_forces(void *dst, const void *src) {
  teal_applied_spatial_force_list *d = dst;
  const teal_applied_spatial_force_list *s = src;
  int rc = teal_applied_spatial_force_list_resize(d, s->n);
  if (rc == TEAL_OK && s->n) {
    memcpy(d->f, s->f, (size_t)s->n * sizeof(*s->f));
  }
  return rc;
}

static void free_vectors(void *v) {
  teal_spatial_vector_list *l = v;
  teal_free(l->V);
  l->V = NULL;
  l->n = l->cap = 0;
}

static void free_forces(void *v) {
  teal_applied_spatial_force_list *l = v;
  teal_free(l->f);
  l->f = NULL;
  l->n = l->cap = 0;
}

const teal_value_type teal_spatial_vector_list_type = {"teal_spatial_vector_list",
                                                       sizeof(teal_spatial_vector_list), NULL,
                                                       copy_vectors, free_vectors};
const teal_value_type teal_applied_spatial_force_list_type = {
    "teal_applied_spatial_force_list", sizeof(teal_applied_spatial_force_list), NULL, copy_forces,
    free_forces};
