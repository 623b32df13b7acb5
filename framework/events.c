/* Event sets, collection of due events and two-phase dispatch. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/events.h"
#include "framework/system_internal.h"

enum { NKINDS = TEAL_EVENT_KINDS };

teal_event_set *teal_event_set_new(const teal_system *sys) {
  if (!sys || !sys->finalized) {
    return NULL;
  }
  teal_event_set *set = teal_calloc(1, sizeof *set);
  if (!set) {
    return NULL;
  }
  set->system = sys;
  set->cap = sys->nevents;
  for (int k = 0; k < NKINDS; k++) {
    set->items[k] = teal_calloc((size_t)set->cap + 1, sizeof(teal_event_ref));
    if (!set->items[k]) {
      teal_event_set_free(set);
      return NULL;
    }
  }
  return set;
}

void teal_event_set_free(teal_event_set *set) {
  if (!set) {
    return;
  }
  for (int k = 0; k < NKINDS; k++) {
    teal_free(set->items[k]);
  }
  teal_free(set);
}

void teal_event_set_clear(teal_event_set *set) {
  if (set) {
    memset(set->n, 0, sizeof set->n);
  }
}

int teal_event_set_count(const teal_event_set *set, teal_event_kind kind) {
  return set && (int)kind >= 0 && (int)kind < NKINDS ? set->n[kind] : 0;
}

int teal_event_set_size(const teal_event_set *set) {
  return set ? set->n[0] + set->n[1] + set->n[2] : 0;
}

static int ref_less(teal_event_ref a, teal_event_ref b) {
  return a.leaf < b.leaf || (a.leaf == b.leaf && a.event < b.event);
}

static int ref_equal(teal_event_ref a, teal_event_ref b) {
  return a.leaf == b.leaf && a.event == b.event;
}

/* Size of the union of two sorted ref lists. */
static int union_size(const teal_event_ref *a, int na, const teal_event_ref *b, int nb) {
  int i = 0, j = 0, n = 0;
  while (i < na || j < nb) {
    if (j >= nb || (i < na && ref_less(a[i], b[j]))) {
      i++;
    } else if (i >= na || ref_less(b[j], a[i])) {
      j++;
    } else {
      i++;
      j++;
    }
    n++;
  }
  return n;
}

/* Merges src's refs of one kind into dst's, from the back, keeping
 * (leaf, event) order and one copy of shared events; no allocation (the
 * union never exceeds the set's capacity: every event at most once). */
static void merge_kind(teal_event_set *dst, const teal_event_set *src, int k) {
  if (src->n[k] == 0) {
    return; /* the common case in a simulator step: nothing to add */
  }
  teal_event_ref *d = dst->items[k];
  const teal_event_ref *s = src->items[k];
  int i = dst->n[k] - 1, j = src->n[k] - 1;
  int total = union_size(d, dst->n[k], s, src->n[k]);
  int out = total - 1;
  while (j >= 0) {
    if (i >= 0 && ref_equal(d[i], s[j])) {
      d[out--] = d[i--];
      j--;
    } else if (i >= 0 && ref_less(s[j], d[i])) {
      d[out--] = d[i--];
    } else {
      d[out--] = s[j--];
    }
  }
  dst->n[k] = total; /* d[0..i] already sit in place */
}

int teal_event_set_merge(teal_event_set *dst, const teal_event_set *src) {
  if (!dst || !src || dst->system != src->system) {
    return TEAL_EINVAL;
  }
  for (int k = 0; k < NKINDS; k++) {
    merge_kind(dst, src, k);
  }
  return TEAL_OK;
}

static void add_ref(teal_event_set *set, int leaf, int event, teal_event_kind kind) {
  teal_event_ref r = {leaf, event};
  set->items[kind][set->n[kind]++] = r;
}

static int check_set(const teal_system *sys, const teal_context *ctx, const teal_event_set *set,
                     const char *fn) {
  int rc = teal_check_context(sys, ctx);
  if (rc == TEAL_OK && (!set || set->system != sys)) {
    rc = teal_context_report_error(
        ctx, TEAL_EINVAL, "%s on '%s': %s", fn, sys->name,
        !set ? "NULL event set" : "the event set belongs to another system");
  }
  return rc;
}

int teal_collect_events(const teal_system *sys, const teal_context *ctx, teal_trigger trigger,
                        teal_event_set *set) {
  int rc = check_set(sys, ctx, set, "collect_events");
  if (rc) {
    return rc;
  }
  teal_event_set_clear(set);
  for (int k = ctx->leaf_begin; k < ctx->leaf_end; k++) {
    const teal_system *ls = ctx->root->leaves[k]->system;
    for (int e = 0; e < ls->nevents; e++) {
      if (ls->events[e].trigger == trigger) {
        add_ref(set, k - ctx->leaf_begin, e, ls->events[e].kind);
      }
    }
  }
  return TEAL_OK;
}

int teal_collect_witness_events(const teal_system *sys, const teal_context *ctx,
                                const unsigned char *triggered, teal_event_set *set) {
  int rc = check_set(sys, ctx, set, "collect_witness_events");
  if (rc || (!triggered && sys->nwitnesses)) {
    return rc ? rc
              : teal_context_report_error(ctx, TEAL_EINVAL,
                                          "collect_witness_events: triggered is NULL but '%s' "
                                          "has %d witness functions",
                                          sys->name, sys->nwitnesses);
  }
  teal_event_set_clear(set);
  int n = 0;
  for (int k = ctx->leaf_begin; k < ctx->leaf_end; k++) {
    const teal_system *ls = ctx->root->leaves[k]->system;
    for (int e = 0; ls->nwitnesses && e < ls->nevents; e++) {
      if (ls->events[e].trigger == TEAL_TRIGGER_WITNESS && triggered[n++]) {
        add_ref(set, k - ctx->leaf_begin, e, ls->events[e].kind);
      }
    }
  }
  return TEAL_OK;
}

/* Next sample time strictly after t of a periodic event (Drake's rule). */
static double next_sample_time(const teal_event_decl *ev, double t) {
  if (t < ev->offset) {
    return ev->offset;
  }
  double k = ceil((t - ev->offset) / ev->period);
  double next = ev->offset + k * ev->period;
  if (next <= t) {
    next = ev->offset + (k + 1.0) * ev->period;
  }
  return next;
}

int teal_calc_next_update_time(const teal_system *sys, const teal_context *ctx, double *t_next,
                               teal_event_set *set) {
  int rc = check_set(sys, ctx, set, "calc_next_update_time");
  if (rc || !t_next) {
    return rc ? rc
              : teal_context_report_error(ctx, TEAL_EINVAL,
                                          "calc_next_update_time: t_next is NULL");
  }
  teal_event_set_clear(set);
  double t = ctx->root->time, best = INFINITY;
  for (int k = ctx->leaf_begin; k < ctx->leaf_end; k++) {
    const teal_system *ls = ctx->root->leaves[k]->system;
    for (int e = 0; e < ls->nevents; e++) {
      const teal_event_decl *ev = &ls->events[e];
      if (ev->trigger != TEAL_TRIGGER_PERIODIC) {
        continue;
      }
      double when = next_sample_time(ev, t);
      if (!(when > t)) {
        /* the period is below the clock's resolution at t: time could
         * never pass this event */
        return teal_context_report_error(ctx, TEAL_ESTEPSIZE,
                                         "periodic event %d of system '%s': period %g is below "
                                         "the time resolution at t = %.17g",
                                         e, ls->name, ev->period, t);
      }
      if (when < best) {
        best = when;
        teal_event_set_clear(set);
      }
      if (when == best) {
        add_ref(set, k - ctx->leaf_begin, e, ev->kind);
      }
    }
  }
  *t_next = best;
  return TEAL_OK;
}

/* Records a message when a handler failed without one. TEAL_STOP passes
 * through: it is a request, not an error. */
static int handler_status(const teal_context *leaf, int rc, unsigned long serial,
                          const char *what) {
  if (rc == TEAL_STOP) {
    return rc;
  }
  return teal_callback_failed(leaf, rc, serial, what);
}

int teal_dispatch_publish(const teal_system *sys, const teal_context *ctx,
                          const teal_event_set *set) {
  int rc = check_set(sys, ctx, set, "dispatch_publish"), stop = 0;
  for (int i = 0; rc == TEAL_OK && i < set->n[TEAL_EVENT_PUBLISH]; i++) {
    teal_event_ref r = set->items[TEAL_EVENT_PUBLISH][i];
    const teal_context *leaf = ctx->root->leaves[ctx->leaf_begin + r.leaf];
    const teal_event_decl *ev = &leaf->system->events[r.event];
    unsigned long serial = ctx->root->error_serial;
    rc = handler_status(leaf, ev->publish(leaf->system, leaf, ev->user), serial, "publish handler");
    if (rc == TEAL_STOP) {
      stop = 1;
      rc = TEAL_OK;
    }
  }
  return rc == TEAL_OK && stop ? TEAL_STOP : rc;
}

int teal_force_publish(const teal_system *sys, const teal_context *ctx) {
  int rc = teal_check_context(sys, ctx), stop = 0;
  for (int k = ctx ? ctx->leaf_begin : 0; rc == TEAL_OK && k < ctx->leaf_end; k++) {
    const teal_context *leaf = ctx->root->leaves[k];
    const teal_system *ls = leaf->system;
    for (int e = 0; rc == TEAL_OK && e < ls->nevents; e++) {
      const teal_event_decl *ev = &ls->events[e];
      if (ev->trigger == TEAL_TRIGGER_FORCED) {
        unsigned long serial = ctx->root->error_serial;
        rc =
            handler_status(leaf, ev->publish(ls, leaf, ev->user), serial, "forced publish handler");
        stop |= rc == TEAL_STOP;
        rc = rc == TEAL_STOP ? TEAL_OK : rc;
      }
    }
  }
  return rc == TEAL_OK && stop ? TEAL_STOP : rc;
}

/* Finds the periodic discrete updates of a subtree; *found counts them and
 * the first one's timing is kept in period/offset. */
static int scan_discrete_periods(const teal_system *sys, int *found, double *period, double *offset,
                                 teal_error *err) {
  if (sys->is_diagram) {
    for (int c = 0; c < sys->nchildren; c++) {
      int rc = scan_discrete_periods(sys->children[c], found, period, offset, err);
      if (rc) {
        return rc;
      }
    }
    return TEAL_OK;
  }
  for (int e = 0; e < sys->nevents; e++) {
    const teal_event_decl *ev = &sys->events[e];
    if (ev->trigger != TEAL_TRIGGER_PERIODIC || ev->kind != TEAL_EVENT_DISCRETE_UPDATE) {
      continue;
    }
    if (*found && (ev->period != *period || ev->offset != *offset)) {
      return teal_error_set(err, TEAL_EINVAL,
                            "system '%s' has periodic discrete updates with "
                            "different timing (period %g offset %g vs period %g offset %g)",
                            sys->name, ev->period, ev->offset, *period, *offset);
    }
    *period = ev->period;
    *offset = ev->offset;
    (*found)++;
  }
  return TEAL_OK;
}

int teal_system_periodic_discrete_update(const teal_system *sys, double *period, double *offset,
                                         teal_error *err) {
  if (!sys || !period || !offset) {
    return teal_error_set(err, TEAL_EINVAL, "periodic_discrete_update: NULL argument");
  }
  int found = 0;
  int rc = scan_discrete_periods(sys, &found, period, offset, err);
  if (rc == TEAL_OK && !found) {
    rc = teal_error_set(err, TEAL_ENOTFOUND, "system '%s' has no periodic discrete update",
                        sys->name);
  }
  return rc;
}

/* ---- two-phase updates ----------------------------------------------------- */

/* Two-phase discrete and unrestricted updates: every handler due now reads
 * the unchanged context and writes into scratch; only when all succeeded is
 * the scratch copied back and the changed sources' stamps bumped. */

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
  int rc = check_set(sys, ctx, set, "dispatch_discrete_updates");
  if (rc) {
    return rc;
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
  int rc = check_set(sys, ctx, set, "dispatch_unrestricted_updates");
  if (rc) {
    return rc;
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
