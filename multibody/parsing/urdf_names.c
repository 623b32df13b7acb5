/* Name lookups for the URDF model: an open-addressing hash table (one
 * probe or two per lookup, where a sorted index took a binary search of
 * cache-missing string compares), the name index of a list built on it,
 * and, when the index finds a duplicate, the sorted check that reports it
 * (the first duplicate in name order, as the parser always has). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/urdf_internal.h"

/* ---- the table ------------------------------------------------------------------ */

uint64_t urdf_hash(const char *s, uint64_t h) {
  /* FNV-1a */
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    h = (h ^ *c) * UINT64_C(0x100000001b3);
  }
  return h;
}

int urdf_table_init(urdf_model *m, urdf_table *t, int n) {
  size_t cap = 16;
  while (cap < 2 * (size_t)n) {
    cap *= 2;
  }
  t->slot = teal_alloc(cap * sizeof(int));
  if (!t->slot) {
    t->mask = 0;
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  memset(t->slot, 0xff, cap * sizeof(int)); /* all -1: empty */
  t->mask = cap - 1;
  return TEAL_OK;
}

void urdf_table_free(urdf_table *t) {
  teal_free(t->slot);
  t->slot = NULL;
  t->mask = 0;
}

int *urdf_table_slot(const urdf_table *t, uint64_t hash, int (*same)(const void *ctx, int entry),
                     const void *ctx) {
  /* linear probing; the table is at most half full, so an empty slot exists */
  for (size_t i = (size_t)(hash ^ (hash >> 29)) & t->mask;; i = (i + 1) & t->mask) {
    if (t->slot[i] < 0 || same(ctx, t->slot[i])) {
      return &t->slot[i];
    }
  }
}

/* ---- the sorted check (names in order, for the message) ---------------------- */

typedef struct name_idx {
  const char *name;
  int idx;
} name_idx;

static int cmp_name_idx(const void *a, const void *b) {
  const name_idx *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static const char *elem_name(const urdf_list *l, size_t elem, int i) {
  return *(const char *const *)((const char *)l->data + (size_t)i * elem);
}

static urdf_node *elem_node(const urdf_list *l, size_t elem, int i) {
  return *(urdf_node *const *)((const char *)l->data + (size_t)i * elem + sizeof(const char *));
}

/* Sorts idx[0..n) by name and reports the first duplicate in name order (at
 * the later of its two elements) as TEAL_EDUPLICATE. */
static int sort_names(urdf_model *m, const urdf_list *l, size_t elem, int *idx, const char *what) {
  if (l->n == 0) {
    return TEAL_OK;
  }
  name_idx *v = teal_calloc((size_t)l->n, sizeof(*v));
  if (!v) {
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  for (int i = 0; i < l->n; i++) {
    v[i] = (name_idx){elem_name(l, elem, i), i};
  }
  qsort(v, (size_t)l->n, sizeof(*v), cmp_name_idx);
  int rc = TEAL_OK;
  for (int i = 0; i < l->n; i++) {
    idx[i] = v[i].idx;
    if (rc == TEAL_OK && i > 0 && strcmp(v[i].name, v[i - 1].name) == 0) {
      rc = urdf_fail(m, elem_node(l, elem, v[i].idx), TEAL_EDUPLICATE, "duplicate %s name '%s'",
                     what, v[i].name);
    }
  }
  teal_free(v);
  return rc;
}

/* ---- the name index of a list ------------------------------------------------------ */

typedef struct name_key {
  const urdf_list *l;
  size_t elem;
  const char *name;
} name_key;

static int same_name(const void *ctx, int entry) {
  const name_key *k = ctx;
  return strcmp(elem_name(k->l, k->elem, entry), k->name) == 0;
}

/* The sorted check, for the message of a duplicate the table found. */
static int report_duplicate(urdf_model *m, const urdf_list *l, size_t elem, const char *what) {
  int *idx = teal_calloc((size_t)l->n, sizeof(int));
  if (!idx) {
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  int rc = sort_names(m, l, elem, idx, what);
  teal_free(idx);
  return rc;
}

int urdf_index_names(urdf_model *m, const urdf_list *l, size_t elem, urdf_table *t,
                     const char *what) {
  int rc = urdf_table_init(m, t, l->n);
  for (int i = 0; i < l->n && rc == TEAL_OK; i++) {
    name_key k = {l, elem, elem_name(l, elem, i)};
    int *slot = urdf_table_slot(t, urdf_hash(k.name, URDF_HASH_SEED), same_name, &k);
    if (*slot >= 0) {
      rc = report_duplicate(m, l, elem, what);
    }
    *slot = i;
  }
  return rc;
}

int urdf_index_find(const urdf_table *t, const urdf_list *l, size_t elem, const char *name) {
  if (!t->slot) {
    return -1;
  }
  name_key k = {l, elem, name};
  return *urdf_table_slot(t, urdf_hash(name, URDF_HASH_SEED), same_name, &k);
}
