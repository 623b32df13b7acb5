/* The plant's name index and name rules (see plant_internal.h).
 *
 * Every record list that is looked up by name (instances, bodies, frames,
 * joints, actuators, geometries) keeps two open-addressing hash tables of
 * its records: by_key under (name, instance), by_name under the name alone
 * for the first record of each name. Adding a record and finding one are
 * then O(1) on average, where a scan made loading n elements O(n^2). The
 * tables are an accelerator only: records not yet indexed (or left out
 * when memory for the tables ran out) are found by a scan of the tail. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/tree/plant_internal.h"

/* ---- hashing ----------------------------------------------------------------- */

static unsigned hash_name(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (; *s; s++) {
    h = (h ^ (unsigned char)*s) * 16777619u;
  }
  return h;
}

static unsigned hash_key(unsigned name_hash, int instance) {
  uint32_t h = name_hash ^ ((uint32_t)instance * 2654435761u);
  h ^= h >> 16;
  return h * 2246822519u;
}

static const char *rec_name(const teal_plant_list *l, size_t elem, int i) {
  return *(char *const *)((const char *)l->data + (size_t)i * elem);
}

static int rec_instance(const teal_plant_list *l, size_t elem, int i) {
  return *(const int *)((const char *)l->data + (size_t)i * elem + sizeof(char *));
}

/* ---- lookup ------------------------------------------------------------------ */

/* The first slot of table t (nslots entries) on hash h's probe path that
 * holds a record named name (in instance, unless instance < 0), or the
 * empty slot that ends the path. */
static teal_plant_name_slot *probe(const teal_plant_list *l, teal_plant_name_slot *t, unsigned h,
                                   size_t elem, const char *name, int instance) {
  unsigned mask = (unsigned)l->nslots - 1;
  for (unsigned i = h & mask;; i = (i + 1) & mask) {
    teal_plant_name_slot *s = &t[i];
    if (s->rec == 0) {
      return s;
    }
    int r = s->rec - 1;
    if (s->hash == h && (instance < 0 || rec_instance(l, elem, r) == instance) &&
        strcmp(rec_name(l, elem, r), name) == 0) {
      return s;
    }
  }
}

int teal_plant_find_name(const teal_plant_list *l, size_t elem, const char *name, int instance) {
  int start = 0;
  if (l->nslots > 0 && l->indexed <= l->n) {
    unsigned hn = hash_name(name);
    const teal_plant_name_slot *s =
        instance < 0 ? probe(l, l->by_name, hn, elem, name, -1)
                     : probe(l, l->by_key, hash_key(hn, instance), elem, name, instance);
    if (s->rec > 0) {
      return s->rec - 1;
    }
    start = l->indexed;
  }
  for (int i = start; i < l->n; i++) {
    const char *nm = rec_name(l, elem, i);
    if (nm && (instance < 0 || rec_instance(l, elem, i) == instance) && strcmp(nm, name) == 0) {
      return i;
    }
  }
  return -1;
}

/* ---- indexing ---------------------------------------------------------------- */

/* Puts record r into both tables (both have room). */
static void insert(teal_plant_list *l, size_t elem, int r) {
  const char *name = rec_name(l, elem, r);
  if (!name) {
    return;
  }
  int instance = rec_instance(l, elem, r);
  unsigned hn = hash_name(name), hk = hash_key(hn, instance);
  teal_plant_name_slot *s = probe(l, l->by_key, hk, elem, name, instance);
  while (s->rec != 0) { /* a duplicate (name, instance): keep both, the first found first */
    s = &l->by_key[(size_t)(s - l->by_key + 1) & ((size_t)l->nslots - 1)];
  }
  *s = (teal_plant_name_slot){hk, r + 1};
  s = probe(l, l->by_name, hn, elem, name, -1);
  if (s->rec == 0) {
    *s = (teal_plant_name_slot){hn, r + 1};
  }
}

/* Rebuilds the tables with room for need records (load factor <= 1/2). */
static int rehash(teal_plant_list *l, size_t elem, int need) {
  size_t slots = 16;
  while (slots < 2 * (size_t)need) {
    slots *= 2;
  }
  if (slots > (size_t)INT32_MAX) {
    return TEAL_ENOMEM;
  }
  teal_plant_name_slot *t = teal_calloc(2 * slots, sizeof(*t));
  if (!t) {
    return TEAL_ENOMEM;
  }
  teal_free(l->by_key);
  l->by_key = t;
  l->by_name = t + slots;
  l->nslots = (int)slots;
  int n = l->indexed;
  for (int r = 0; r < n; r++) {
    insert(l, elem, r);
  }
  return TEAL_OK;
}

void teal_plant_list_index(teal_plant_list *l, size_t elem) {
  if (l->indexed > l->n) { /* records were dropped: start over */
    l->indexed = 0;
    l->nslots = 0;
  }
  if (l->n > l->nslots / 2 && rehash(l, elem, l->n) != TEAL_OK) {
    return; /* the new records stay in the scanned tail */
  }
  for (; l->indexed < l->n; l->indexed++) {
    insert(l, elem, l->indexed);
  }
}

void teal_plant_list_free(teal_plant_list *l, size_t elem) {
  for (int i = 0; i < l->n; i++) {
    teal_free(*(char **)((char *)l->data + (size_t)i * elem));
  }
  teal_free(l->data);
  teal_free(l->by_key);
  memset(l, 0, sizeof(*l));
}

/* ---- name rules ---------------------------------------------------------------- */

const char *teal_plant_name_problem(const char *name) {
  if (!name) {
    return "is NULL";
  }
  if (!*name) {
    return "is empty";
  }
  if (strchr(name, '/')) {
    return "contains '/' (the separator of system and port paths)";
  }
  return NULL;
}

int teal_plant_check_new_name(teal_plant *p, const char *what, const char *name) {
  int rc = teal_plant_check_open(p, what, name);
  const char *problem = rc ? NULL : teal_plant_name_problem(name);
  if (problem) {
    char fmt[96];
    snprintf(fmt, sizeof(fmt), "plant: add %s: the name '%%s' %%s", what);
    rc = teal_error_set_sticky(&p->err, TEAL_EINVAL, fmt, name, problem);
  }
  return rc;
}
