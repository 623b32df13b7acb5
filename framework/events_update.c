/* Two-phase discrete and unrestricted updates: every handler due now reads
 * the unchanged context and writes into scratch; only when all succeeded is
 * the scratch copied back and the changed sources' stamps bumped. */
#include <string.h>

#include "framework/system_internal.h"

/* Offsets from a leaf's live state to its scratch copy. */
typedef struct scratch_offsets {
  int xc, xd, xa;
} scratch_offsets;

static scratch_offsets offsets_of(const teal_context_root *root) {
  const teal_system *top = root->nodes[0]->system;
  scratch_offsets o = {top->nq + top->nv + top->nz, top->nxd, top->nxa};
  return o;
}

static void bump_leaf_discrete(teal_context *leaf) {
  for (int g = 0; g < leaf->system->nxd_groups; g++) {
    teal_stamp_bump(leaf->root, leaf->stamp_xd_group + g);
  }
}

/* Runs the handlers into scratch; returns TEAL_STOP when one asked to stop
 * (after all of them ran), or the first error. */
static int run_discrete(teal_context *ctx, const teal_event_set *set, scratch_offsets o) {
  const teal_event_ref *items = set->items[TEAL_EVENT_DISCRETE_UPDATE];
  int n = set->n[TEAL_EVENT_DISCRETE_UPDATE], stop = 0;
  for (int i = 0; i < n; i++) {
    teal_context *leaf = ctx->root->leaves[ctx->leaf_begin + items[i].leaf];
    double *next = leaf->xd + o.xd;
    if (i == 0 || items[i - 1].leaf != items[i].leaf) {
      teal_copy_doubles(next, leaf->xd, leaf->system->nxd);
    }
    const teal_event_decl *ev = &leaf->system->events[items[i].event];
    unsigned long serial = ctx->root->error_serial;
    int rc = ev->discrete(leaf->system, leaf, next, ev->user);
    if (rc == TEAL_STOP) {
      stop = 1;
      rc = TEAL_OK;
    }
    if (rc) {
      return teal_callback_failed(leaf, rc, serial, "discrete update");
    }
  }
  return stop ? TEAL_STOP : TEAL_OK;
}

int teal_dispatch_discrete_updates(const teal_system *sys, teal_context *ctx,
                                   const teal_event_set *set) {
  int rc = teal_check_context(sys, ctx);
  if (rc || !set || set->system != sys) {
    return rc ? rc : teal_context_report_error(ctx, TEAL_EINVAL, "event set of another system");
  }
  scratch_offsets o = offsets_of(ctx->root);
  int ran = run_discrete(ctx, set, o);
  if (ran != TEAL_OK && ran != TEAL_STOP) {
    return ran;
  }
  const teal_event_ref *items = set->items[TEAL_EVENT_DISCRETE_UPDATE];
  for (int i = 0; i < set->n[TEAL_EVENT_DISCRETE_UPDATE]; i++) {
    if (i > 0 && items[i - 1].leaf == items[i].leaf) {
      continue;
    }
    teal_context *leaf = ctx->root->leaves[ctx->leaf_begin + items[i].leaf];
    teal_copy_doubles(leaf->xd, leaf->xd + o.xd, leaf->system->nxd);
    bump_leaf_discrete(leaf);
  }
  return ran;
}

/* Copies a leaf's whole state between live and scratch (to_scratch picks
 * the direction). */
static int copy_leaf_state(teal_context *leaf, scratch_offsets o, int to_scratch) {
  const teal_system *s = leaf->system;
  double *q = leaf->q, *v = leaf->v, *z = leaf->z, *xd = leaf->xd;
  double *qs = q + o.xc, *vs = v + o.xc, *zs = z + o.xc, *xds = xd + o.xd;
  teal_copy_doubles(to_scratch ? qs : q, to_scratch ? q : qs, s->nq);
  teal_copy_doubles(to_scratch ? vs : v, to_scratch ? v : vs, s->nv);
  teal_copy_doubles(to_scratch ? zs : z, to_scratch ? z : zs, s->nz);
  teal_copy_doubles(to_scratch ? xds : xd, to_scratch ? xd : xds, s->nxd);
  for (int i = 0; i < s->nxa; i++) {
    void *live = leaf->xa[i], *scratch = leaf->xa[i + o.xa];
    int rc =
        teal_value_copy(s->xa_types[i], to_scratch ? scratch : live, to_scratch ? live : scratch);
    if (rc) {
      return teal_context_report_error(leaf, rc, "copying abstract state %d of '%s' failed", i,
                                       s->name);
    }
  }
  return TEAL_OK;
}

static void bump_leaf_state(teal_context *leaf) {
  teal_context_root *root = leaf->root;
  teal_stamp_bump(root, leaf->stamp_q);
  teal_stamp_bump(root, leaf->stamp_v);
  teal_stamp_bump(root, leaf->stamp_z);
  bump_leaf_discrete(leaf);
  for (int i = 0; i < leaf->system->nxa; i++) {
    teal_stamp_bump(root, leaf->stamp_xa + i);
  }
}

static int run_unrestricted(teal_context *ctx, const teal_event_set *set, scratch_offsets o) {
  const teal_event_ref *items = set->items[TEAL_EVENT_UNRESTRICTED_UPDATE];
  int n = set->n[TEAL_EVENT_UNRESTRICTED_UPDATE], stop = 0;
  for (int i = 0; i < n; i++) {
    teal_context *leaf = ctx->root->leaves[ctx->leaf_begin + items[i].leaf];
    int rc = TEAL_OK;
    if (i == 0 || items[i - 1].leaf != items[i].leaf) {
      rc = copy_leaf_state(leaf, o, 1);
    }
    teal_state_view next = {leaf->q + o.xc, leaf->v + o.xc, leaf->z + o.xc, leaf->xd + o.xd,
                            leaf->xa + o.xa};
    const teal_event_decl *ev = &leaf->system->events[items[i].event];
    unsigned long serial = ctx->root->error_serial;
    if (rc == TEAL_OK) {
      rc = ev->unrestricted(leaf->system, leaf, &next, ev->user);
      stop |= rc == TEAL_STOP;
      rc = rc == TEAL_STOP ? TEAL_OK : rc;
    }
    if (rc) {
      return teal_callback_failed(leaf, rc, serial, "unrestricted update");
    }
  }
  return stop ? TEAL_STOP : TEAL_OK;
}

int teal_dispatch_unrestricted_updates(const teal_system *sys, teal_context *ctx,
                                       const teal_event_set *set) {
  int rc = teal_check_context(sys, ctx);
  if (rc || !set || set->system != sys) {
    return rc ? rc : teal_context_report_error(ctx, TEAL_EINVAL, "event set of another system");
  }
  scratch_offsets o = offsets_of(ctx->root);
  int ran = run_unrestricted(ctx, set, o);
  if (ran != TEAL_OK && ran != TEAL_STOP) {
    return ran;
  }
  const teal_event_ref *items = set->items[TEAL_EVENT_UNRESTRICTED_UPDATE];
  for (int i = 0; i < set->n[TEAL_EVENT_UNRESTRICTED_UPDATE]; i++) {
    if (i > 0 && items[i - 1].leaf == items[i].leaf) {
      continue;
    }
    teal_context *leaf = ctx->root->leaves[ctx->leaf_begin + items[i].leaf];
    if ((rc = copy_leaf_state(leaf, o, 0)) != TEAL_OK) {
      return rc;
    }
    bump_leaf_state(leaf);
  }
  return ran;
}
