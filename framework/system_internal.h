/* Internal layout of systems and contexts, shared by the framework sources.
 * Not installed; users see only the opaque handles of system.h/context.h. */
#ifndef TEAL_FRAMEWORK_SYSTEM_INTERNAL_H
#define TEAL_FRAMEWORK_SYSTEM_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "framework/context.h"
#include "framework/events.h"
#include "framework/growable.h"
#include "framework/system.h"

/* ---- systems ---------------------------------------------------------- */

struct teal_input_port {
  const teal_system *system;
  int index;
  char *name;
  int is_abstract;
  int size;                    /* vector ports */
  const teal_value_type *type; /* abstract ports */
};

struct teal_output_port {
  const teal_system *system;
  int index;
  char *name;
  int is_abstract;
  int size;
  const teal_value_type *type;
  int cache_index;       /* leaf: index of its cache declaration */
  int child, child_port; /* diagram: the exported subsystem output */
};

/* A computed value: an output port or a declared cache entry of a leaf. */
typedef struct teal_cache_decl {
  char *name;
  int is_abstract;
  int size;
  const teal_value_type *type;
  teal_vector_calc_fn vector_calc;
  teal_abstract_calc_fn abstract_calc;
  void *user;
  teal_ticket *prereqs;
  int nprereqs;
} teal_cache_decl;

typedef struct teal_event_decl {
  teal_trigger trigger;
  teal_event_kind kind;
  double period, offset;
  teal_witness_fn witness;
  teal_witness_direction direction;
  teal_publish_fn publish;
  teal_discrete_update_fn discrete;
  teal_unrestricted_update_fn unrestricted;
  void *user;
} teal_event_decl;

/* A connection source inside a diagram, for each child input port. */
enum { TEAL_SRC_NONE = 0, TEAL_SRC_OUTPUT = 1, TEAL_SRC_DIAGRAM_INPUT = 2 };
typedef struct teal_connection {
  int kind;
  int a, b; /* OUTPUT: child a, port b; DIAGRAM_INPUT: input a */
} teal_connection;

struct teal_system {
  char *name;
  int is_diagram;
  int finalized;
  teal_system *parent;
  const void *owner; /* the builder holding it, before build */
  int index_in_parent;
  teal_error err;
  void *user;
  void (*user_free)(void *);

  teal_input_port **inputs;
  int ninputs, cap_inputs;
  teal_output_port **outputs;
  int noutputs, cap_outputs;
  unsigned char *feedthrough; /* noutputs x ninputs, after finalize/build */

  /* state and parameter sizes (for diagrams: totals over the subtree) */
  int nq, nv, nz;
  int nxd;          /* discrete state doubles */
  int nxd_groups;   /* leaf only */
  int nxa;          /* abstract states (leaf count, diagram total) */
  int nleaves;      /* leaves in the subtree (1 for a leaf) */
  int nevents;      /* events in the subtree */
  int nwitnesses;   /* witness-triggered events in the subtree */
  int nscratch;     /* leaf scratch values */

  /* leaf declarations */
  double *xc0;
  int *xd_sizes, *xd_offsets, cap_xd;
  double *xd0;
  const teal_value_type **xa_types;
  void **xa_models;
  int cap_xa;
  int nparams, cap_params;
  int *p_sizes, *p_offsets, np;
  double *p0;
  teal_cache_decl *cache; /* outputs' entries and declared entries, in declaration order */
  int ncache, cap_cache;
  int *entry_cache;       /* declared entry i -> cache decl index */
  int nentries, cap_entries;
  teal_event_decl *events;
  int cap_events;
  const teal_value_type **scratch_types;
  void **scratch_models;
  int cap_scratch;
  teal_derivatives_fn derivatives;
  void *derivatives_user;
  teal_energy_fn potential, kinetic;
  void *energy_user;
  teal_velocity_map_fn v_to_qdot, qdot_to_v;
  void *velocity_map_user;
  teal_jacobian_fn jacobian;
  void *jacobian_user;
  teal_projection_fn projection;
  void *projection_user;
  teal_error_projection_fn error_projection;
  void *error_projection_user;
  teal_implicit_residual_fn implicit_residual;
  void *implicit_residual_user;
  const void *type_tag;

  /* diagram */
  teal_system **children;
  int nchildren;
  teal_connection **conn;  /* conn[c][p]: source of child c's input p */
  int *cq, *cv, *cz, *cxd; /* child offsets within the diagram's q, v, z, xd */
};

/* An event due: which leaf of the set's subtree, which of its events. */
typedef struct teal_event_ref {
  int leaf;
  int event;
} teal_event_ref;

enum { TEAL_EVENT_KINDS = 3 };

struct teal_event_set {
  const teal_system *system;
  int cap;
  int n[TEAL_EVENT_KINDS];             /* per teal_event_kind */
  teal_event_ref *items[TEAL_EVENT_KINDS]; /* sorted by (leaf, event) */
};

/* ---- contexts --------------------------------------------------------- */

typedef struct teal_cache_slot {
  uint64_t computed_at;         /* counter when last computed, 0 = never */
  uint64_t verified_at;         /* counter when last found up to date, 0 = never */
  int evaluating;               /* re-entry guard */
  int ndeps;
  const uint64_t *const *deps;  /* the stamps this value depends on */
  void *value;
  const teal_cache_decl *decl;
  teal_context *owner;          /* the leaf context it belongs to */
  struct teal_context_root *root; /* owner->root, one load nearer for the hot path */
} teal_cache_slot;

typedef struct teal_input_slot {
  teal_cache_slot *src;  /* leaf output feeding this port, or NULL */
  teal_cache_slot *vector_src; /* src when the port is a vector port, else NULL */
  int is_abstract;
  struct teal_input_slot *home; /* where a fixed value lives (unconnected end) */
  int is_fixed;
  void *fixed_value;
  int stamp;
} teal_input_slot;

/* An abstract value stored in a context block. */
typedef struct teal_abstract_value {
  const teal_value_type *type;
  void *ptr;
} teal_abstract_value;

typedef struct teal_context_root {
  uint64_t counter;
  uint64_t *stamps;
  int nstamps;
  double time;
  double accuracy;
  int caching_disabled;
  unsigned long error_serial;
  teal_error err;
  teal_context **leaves; /* leaf contexts in depth-first order */
  int nleaves;
  teal_context **xc_leaves; /* the leaves with continuous state, in order */
  teal_context **nodes;  /* all contexts, depth-first, root first */
  int nnodes;
  double *xc_scratch, *xd_scratch;
  void **xa_scratch;
  teal_abstract_value *abstracts; /* every abstract value in the block */
  int nabstracts, ninitialized;   /* initialized ones come first */
  const uint64_t **deps_block;
  void *block;
} teal_context_root;

enum { TEAL_STAMP_TIME = 0, TEAL_STAMP_ACCURACY = 1, TEAL_STAMP_FIRST_NODE = 2 };

struct teal_context {
  const teal_system *system;
  teal_context_root *root;
  teal_context *parent;
  teal_context **children;
  int leaf_begin, leaf_end; /* range in root->leaves */
  int xc_begin, xc_end;     /* range in root->xc_leaves */
  double *q, *v, *z, *xd, *p;
  void **xa;
  void **scratch;
  int stamp_q, stamp_v, stamp_z, stamp_xd;
  int stamp_xd_group, stamp_xa, stamp_p; /* first of each range (leaf) */
  teal_input_slot *in;
  teal_cache_slot *slots;  /* leaf: one per cache decl */
  teal_cache_slot **out_src; /* diagram: the leaf slot computing each output */
};

/* ---- helpers shared by the framework sources -------------------------- */

/* Writes the slash-separated path of sys ("outer/inner/leaf") into buf. */
const char *teal_system_path(const teal_system *sys, char *buf, size_t n);

/* Turns a failed callback's return into a status (a positive one becomes
 * TEAL_ECALLBACK) and, unless the callback recorded its own message since
 * serial was read, writes "<what> of system '<path>' failed: <reason>".
 * TEAL_OK passes through. */
int teal_callback_failed(const teal_context *ctx, int rc, unsigned long serial,
                         const char *what)
#if defined(__GNUC__)
    __attribute__((cold))
#endif
    ;

/* Copies n doubles; n == 0 is allowed with NULL pointers. */
static inline void teal_copy_doubles(double *dst, const double *src, int n) {
  if (n > 0) {
    memcpy(dst, src, (size_t)n * sizeof(double));
  }
}

/* Bumps one stamp: the source changed now. */
static inline void teal_stamp_bump(teal_context_root *root, int stamp) {
  root->stamps[stamp] = ++root->counter;
}

/* Evaluates a cache slot, recomputing it when out of date. */
int teal_slot_eval(teal_cache_slot *s, const void **value);

/* Recomputes a slot unconditionally (with the re-entry guard) and stores
 * the value in the cache. */
int teal_slot_recompute(teal_cache_slot *s, const void **value);

/* Nonzero when slot s is up to date: none of its stamps moved since. A
 * slot found (or made) up to date at the current counter value needs no
 * scan: every change bumps the counter, so one compare proves nothing
 * moved. This makes repeated reads within one evaluation O(1). */
static inline int teal_slot_valid(const teal_context_root *root, teal_cache_slot *s) {
  if (s->verified_at == root->counter && s->computed_at) {
    return !root->caching_disabled;
  }
  if (s->computed_at == 0 || root->caching_disabled) {
    return 0;
  }
  for (int k = 0; k < s->ndeps; k++) {
    if (*s->deps[k] > s->computed_at) {
      return 0;
    }
  }
  s->verified_at = root->counter;
  return 1;
}

/* teal_slot_eval with the up-to-date case inlined (the hot path). */
static inline int teal_slot_get(teal_cache_slot *s, const void **value) {
  if (teal_slot_valid(s->root, s)) {
    *value = s->value;
    return 0;
  }
  return teal_slot_recompute(s, value);
}

/* Computes a slot's value into out without caching. */
int teal_slot_calc(const teal_cache_slot *s, void *out);

/* Common guard of every declaration on sys: a leaf, not finalized, no
 * error recorded yet; otherwise the code (a sticky TEAL_ESTATE naming what
 * for a diagram or a finalized leaf). */
int teal_leaf_declare_guard(teal_system *sys, const char *what);

/* The guard of a declaration that sets a callback: the common guard, then
 * TEAL_EINVAL (sticky, "NULL callback") when has_callback is 0. */
int teal_leaf_callback_guard(teal_system *sys, const char *what, int has_callback);

/* Checks that ctx belongs to sys (a programming error otherwise). */
int teal_check_context(const teal_system *sys, const teal_context *ctx);

/* Lays out, resolves and initializes the context block of a finalized,
 * unowned system (context_layout.c); teal_context_new checks those first. */
teal_context *teal_context_layout(const teal_system *sys, teal_error *err);

/* Resolves every cache slot's stamp list (second allocation, deps_block). */
int teal_context_resolve_dependencies(teal_context_root *root, teal_cache_slot *slots,
                                      int nslots, teal_error *err);

/* Initializes abstract values and writes defaults into a new context. */
int teal_context_init_values(teal_context *root_ctx);

/* Computes direct feedthrough of a finalized leaf from its prerequisites. */
int teal_leaf_compute_feedthrough(teal_system *sys);

#endif
