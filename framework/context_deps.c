/* Resolves each cache slot's prerequisites into a flat list of version
 * stamps, following input ports through their connections, so that a read
 * only compares a few integers. Runs once per context creation. */
#include <string.h>

#include "framework/alloc.h"
#include "framework/system_internal.h"

typedef struct dep_list {
  int *items;
  int n, cap;
  int state; /* 0 new, 1 in progress, 2 done */
} dep_list;

typedef struct resolver {
  teal_cache_slot *slots;
  dep_list *lists;
  int *mark;
  int gen;
  int failed;
  teal_error *err;
} resolver;

static dep_list *list_of(resolver *r, const teal_context *leaf, int d) {
  return &r->lists[(leaf->slots + d) - r->slots];
}

static void push(resolver *r, dep_list *l, int stamp) {
  if (r->mark[stamp] == r->gen) {
    return;
  }
  if (TEAL_GROW(l->items, l->cap, l->n + 1)) {
    r->failed = TEAL_ENOMEM;
    return;
  }
  r->mark[stamp] = r->gen;
  l->items[l->n++] = stamp;
}

static void push_list(resolver *r, dep_list *l, const dep_list *src) {
  for (int k = 0; k < src->n; k++) {
    push(r, l, src->items[k]);
  }
}

/* A leaf's q/v/z/xd also change through its ancestors' _mut accessors. */
static void push_lineage(resolver *r, dep_list *l, const teal_context *leaf, size_t field) {
  for (const teal_context *c = leaf; c; c = c->parent) {
    push(r, l, *(const int *)((const char *)c + field));
  }
}

static int ensure(resolver *r, teal_context *leaf, int d);

/* Resolves what a ticket reaches before the list is built (recursion). */
static int prepare_ticket(resolver *r, teal_context *leaf, teal_ticket t) {
  const teal_system *sys = leaf->system;
  int kind = teal_ticket_kind(t), idx = teal_ticket_index(t);
  if (kind == TEAL_TICKET_CACHE_BASE) {
    return ensure(r, leaf, sys->entry_cache[idx]);
  }
  int first = 0, last = -1;
  if (kind == TEAL_TICKET_INPUT_BASE) {
    first = last = idx;
  } else if (kind == TEAL_TICKET_ALL_INPUTS || kind == TEAL_TICKET_ALL_SOURCES) {
    last = sys->ninputs - 1;
  }
  for (int i = first; i <= last; i++) {
    const teal_input_slot *in = &leaf->in[i];
    if (in->src) {
      int rc = ensure(r, in->src->owner, (int)(in->src - in->src->owner->slots));
      if (rc) {
        return rc;
      }
    }
  }
  return TEAL_OK;
}

static void push_input(resolver *r, dep_list *l, const teal_context *leaf, int i) {
  const teal_input_slot *in = &leaf->in[i];
  if (in->src) {
    push_list(r, l, &r->lists[in->src - r->slots]);
  } else {
    push(r, l, in->home->stamp);
  }
}

static void push_ticket(resolver *r, dep_list *l, const teal_context *leaf, teal_ticket t) {
  const teal_system *sys = leaf->system;
  int kind = teal_ticket_kind(t), idx = teal_ticket_index(t);
  int all_state = kind == TEAL_TICKET_ALL_STATE || kind == TEAL_TICKET_ALL_SOURCES;
  int all_xc = all_state || kind == TEAL_TICKET_XC;
  if (kind == TEAL_TICKET_TIME || kind == TEAL_TICKET_ALL_SOURCES) {
    push(r, l, TEAL_STAMP_TIME);
  }
  if (kind == TEAL_TICKET_ACCURACY || kind == TEAL_TICKET_ALL_SOURCES) {
    push(r, l, TEAL_STAMP_ACCURACY);
  }
  if (kind == TEAL_TICKET_Q || all_xc) {
    push_lineage(r, l, leaf, offsetof(teal_context, stamp_q));
  }
  if (kind == TEAL_TICKET_V || all_xc) {
    push_lineage(r, l, leaf, offsetof(teal_context, stamp_v));
  }
  if (kind == TEAL_TICKET_Z || all_xc) {
    push_lineage(r, l, leaf, offsetof(teal_context, stamp_z));
  }
  if (kind == TEAL_TICKET_DISCRETE_BASE || kind == TEAL_TICKET_XD || all_state) {
    int all = kind != TEAL_TICKET_DISCRETE_BASE;
    for (int g = all ? 0 : idx; g < (all ? sys->nxd_groups : idx + 1); g++) {
      push(r, l, leaf->stamp_xd_group + g);
    }
    push_lineage(r, l, leaf, offsetof(teal_context, stamp_xd));
  }
  if (kind == TEAL_TICKET_ABSTRACT_BASE) {
    push(r, l, leaf->stamp_xa + idx);
  }
  for (int i = 0; (kind == TEAL_TICKET_XA || all_state) && i < sys->nxa; i++) {
    push(r, l, leaf->stamp_xa + i);
  }
  if (kind == TEAL_TICKET_PARAMETER_BASE) {
    push(r, l, leaf->stamp_p + idx);
  }
  int all_p = kind == TEAL_TICKET_ALL_PARAMETERS || kind == TEAL_TICKET_ALL_SOURCES;
  for (int i = 0; all_p && i < sys->nparams; i++) {
    push(r, l, leaf->stamp_p + i);
  }
  if (kind == TEAL_TICKET_INPUT_BASE) {
    push_input(r, l, leaf, idx);
  }
  int all_in = kind == TEAL_TICKET_ALL_INPUTS || kind == TEAL_TICKET_ALL_SOURCES;
  for (int i = 0; all_in && i < sys->ninputs; i++) {
    push_input(r, l, leaf, i);
  }
  if (kind == TEAL_TICKET_CACHE_BASE) {
    push_list(r, l, list_of(r, leaf, sys->entry_cache[idx]));
  }
}

static int ensure(resolver *r, teal_context *leaf, int d) {
  dep_list *l = list_of(r, leaf, d);
  if (l->state == 2) {
    return TEAL_OK;
  }
  const teal_cache_decl *decl = &leaf->system->cache[d];
  if (l->state == 1) {
    char path[256];
    return teal_error_set(r->err, TEAL_EALGLOOP,
                          "context_new: '%s' of system '%s' depends on itself through its inputs",
                          decl->name, teal_system_path(leaf->system, path, sizeof path));
  }
  l->state = 1;
  for (int k = 0; k < decl->nprereqs; k++) {
    int rc = prepare_ticket(r, leaf, decl->prereqs[k]);
    if (rc) {
      return rc;
    }
  }
  r->gen++;
  for (int k = 0; k < decl->nprereqs; k++) {
    push_ticket(r, l, leaf, decl->prereqs[k]);
  }
  l->state = 2;
  return r->failed;
}

/* Moves the stamps the simulator bumps at every stage (the root's state
 * stamps, then time) to the front of l, keeping the order otherwise: when a
 * slot is stale the scan then stops at its first compare. */
static void hot_first(const teal_context_root *root, dep_list *l) {
  const teal_context *top = root->nodes[0];
  const int hot[5] = {top->stamp_q, top->stamp_v, top->stamp_z, top->stamp_xd, TEAL_STAMP_TIME};
  int front = 0;
  for (int h = 0; h < 5; h++) {
    for (int k = front; k < l->n; k++) {
      if (l->items[k] == hot[h]) {
        memmove(&l->items[front + 1], &l->items[front], (size_t)(k - front) * sizeof(int));
        l->items[front++] = hot[h];
        break; /* a list holds each stamp once */
      }
    }
  }
}

/* Copies every list into one block and points the slots at it. */
static int pack_lists(teal_context_root *root, resolver *r, int nslots) {
  size_t total = 0;
  for (int s = 0; s < nslots; s++) {
    total += (size_t)r->lists[s].n;
  }
  root->deps_block = teal_calloc(total + 1, sizeof(*root->deps_block));
  if (!root->deps_block) {
    return TEAL_ENOMEM;
  }
  const uint64_t **at = root->deps_block;
  for (int s = 0; s < nslots; s++) {
    hot_first(root, &r->lists[s]);
    for (int k = 0; k < r->lists[s].n; k++) {
      at[k] = &root->stamps[r->lists[s].items[k]];
    }
    r->slots[s].deps = at;
    r->slots[s].ndeps = r->lists[s].n;
    at += r->lists[s].n;
  }
  return TEAL_OK;
}

int teal_context_resolve_dependencies(teal_context_root *root, teal_cache_slot *slots, int nslots,
                                      teal_error *err) {
  resolver r;
  memset(&r, 0, sizeof r);
  r.slots = slots;
  r.err = err;
  r.lists = teal_calloc((size_t)nslots + 1, sizeof *r.lists);
  r.mark = teal_calloc((size_t)root->nstamps + 1, sizeof *r.mark);
  int rc = r.lists && r.mark ? TEAL_OK : TEAL_ENOMEM;
  for (int k = 0; rc == TEAL_OK && k < root->nleaves; k++) {
    teal_context *leaf = root->leaves[k];
    for (int d = 0; rc == TEAL_OK && d < leaf->system->ncache; d++) {
      rc = ensure(&r, leaf, d);
    }
  }
  if (rc == TEAL_OK) {
    rc = pack_lists(root, &r, nslots);
  }
  if (rc == TEAL_ENOMEM) {
    teal_error_set(err, rc, "context_new: out of memory resolving dependencies");
  }
  for (int s = 0; r.lists && s < nslots; s++) {
    teal_free(r.lists[s].items);
  }
  teal_free(r.lists);
  teal_free(r.mark);
  return rc;
}
