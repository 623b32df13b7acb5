/* Context creation: counts what a system tree needs, lays it out in one
 * block, resolves each input port to its source and each cache slot to the
 * list of version stamps it depends on. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/system_internal.h"

typedef teal_abstract_value abstract_value;

/* Totals over a system tree (pass 1). */
typedef struct layout_totals {
  int nodes, leaves, children, inputs, slots, outputs, xa, scratch, abstracts, stamps;
  int nxc, nxd, np;
  size_t value_doubles, value_bytes;
} layout_totals;

/* Running positions while assigning (pass 2). */
typedef struct layout_cursor {
  int node, leaf, xc_leaf, child, input, slot, output, xa, scratch, abstracts, stamp;
  int q, v, z, xd, p;
  double *doubles;
  unsigned char *bytes;
} layout_cursor;

/* The block of a context tree and its arrays. */
typedef struct layout_block {
  teal_context_root root;
  teal_context *nodes;
  teal_context **node_ptrs, **leaf_ptrs, **xc_leaf_ptrs, **child_ptrs;
  teal_cache_slot **out_src;
  teal_input_slot *inputs;
  teal_cache_slot *slots;
  void **xa_ptrs, **scratch_ptrs;
  abstract_value *abstracts;
  int nabstracts;
  double *xc, *xd, *p;
  double *vals;
  unsigned char *bytes;
} layout_block;

static size_t align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

static size_t value_bytes(const teal_value_type *type) { return align16(type->size); }

static void count_tree(const teal_system *sys, layout_totals *t) {
  t->nodes++;
  t->inputs += sys->ninputs;
  t->stamps += 4 + sys->ninputs; /* q, v, z, xd, then one per input */
  for (int i = 0; i < sys->ninputs; i++) {
    const teal_input_port *in = sys->inputs[i];
    if (in->is_abstract) {
      t->value_bytes += value_bytes(in->type);
      t->abstracts++;
    } else {
      t->value_doubles += (size_t)in->size;
    }
  }
  if (sys->is_diagram) {
    t->children += sys->nchildren;
    t->outputs += sys->noutputs;
    for (int c = 0; c < sys->nchildren; c++) {
      count_tree(sys->children[c], t);
    }
    return;
  }
  t->leaves++;
  t->nxc += sys->nq + sys->nv + sys->nz;
  t->nxd += sys->nxd;
  t->np += sys->np;
  t->slots += sys->ncache;
  t->xa += sys->nxa;
  t->stamps += sys->nxd_groups + sys->nxa + sys->nparams;
  for (int d = 0; d < sys->ncache; d++) {
    const teal_cache_decl *decl = &sys->cache[d];
    if (decl->is_abstract) {
      t->value_bytes += value_bytes(decl->type);
      t->abstracts++;
    } else {
      t->value_doubles += (size_t)decl->size;
    }
  }
  for (int i = 0; i < sys->nxa; i++) {
    t->value_bytes += 2 * value_bytes(sys->xa_types[i]); /* value and scratch */
    t->abstracts += 2;
  }
  t->scratch += sys->nscratch;
  for (int i = 0; i < sys->nscratch; i++) {
    t->value_bytes += value_bytes(sys->scratch_types[i]);
    t->abstracts++;
  }
}

/* Reserves bytes at *off (16-byte aligned) and returns the offset. */
static size_t reserve(size_t *off, size_t bytes) {
  size_t at = align16(*off);
  *off = at + bytes;
  return at;
}

/* Computes offsets of every array and allocates the block (*bytes: its
 * size). Each term is a count (an int) times an element size, in size_t. */
static layout_block *allocate_block(const layout_totals *t, size_t *bytes) {
  size_t off = 0;
  size_t o_self = reserve(&off, sizeof(layout_block));
  size_t o_nodes = reserve(&off, (size_t)t->nodes * sizeof(teal_context));
  size_t o_nptr = reserve(&off, (size_t)t->nodes * sizeof(void *));
  size_t o_lptr = reserve(&off, (size_t)t->leaves * sizeof(void *));
  size_t o_xcptr = reserve(&off, (size_t)t->leaves * sizeof(void *));
  size_t o_cptr = reserve(&off, (size_t)t->children * sizeof(void *));
  size_t o_osrc = reserve(&off, (size_t)t->outputs * sizeof(void *));
  size_t o_in = reserve(&off, (size_t)t->inputs * sizeof(teal_input_slot));
  size_t o_slots = reserve(&off, (size_t)t->slots * sizeof(teal_cache_slot));
  size_t o_xa = reserve(&off, (size_t)t->xa * 2 * sizeof(void *));
  size_t o_scr = reserve(&off, (size_t)t->scratch * sizeof(void *));
  size_t o_abs = reserve(&off, (size_t)t->abstracts * sizeof(abstract_value));
  size_t o_stamps = reserve(&off, (size_t)t->stamps * sizeof(uint64_t));
  size_t o_xc = reserve(&off, (size_t)t->nxc * 2 * sizeof(double));
  size_t o_xd = reserve(&off, (size_t)t->nxd * 2 * sizeof(double));
  size_t o_p = reserve(&off, (size_t)t->np * sizeof(double));
  size_t o_vals = reserve(&off, t->value_doubles * sizeof(double));
  size_t o_bytes = reserve(&off, t->value_bytes);
  *bytes = align16(off);
  char *mem = teal_calloc(1, *bytes);
  if (!mem) {
    return NULL;
  }
  layout_block *b = (layout_block *)(mem + o_self);
  b->root.block = mem;
  b->nodes = (teal_context *)(mem + o_nodes);
  b->node_ptrs = (teal_context **)(mem + o_nptr);
  b->leaf_ptrs = (teal_context **)(mem + o_lptr);
  b->xc_leaf_ptrs = (teal_context **)(mem + o_xcptr);
  b->child_ptrs = (teal_context **)(mem + o_cptr);
  b->out_src = (teal_cache_slot **)(mem + o_osrc);
  b->inputs = (teal_input_slot *)(mem + o_in);
  b->slots = (teal_cache_slot *)(mem + o_slots);
  b->xa_ptrs = (void **)(mem + o_xa);
  b->scratch_ptrs = (void **)(mem + o_scr);
  b->abstracts = (abstract_value *)(mem + o_abs);
  b->root.stamps = (uint64_t *)(mem + o_stamps);
  b->xc = (double *)(mem + o_xc);
  b->root.xc_scratch = b->xc + t->nxc;
  b->xd = (double *)(mem + o_xd);
  b->root.xd_scratch = b->xd + t->nxd;
  b->p = (double *)(mem + o_p);
  b->root.xa_scratch = b->xa_ptrs + t->xa;
  b->vals = (double *)(mem + o_vals);
  b->bytes = (unsigned char *)(mem + o_bytes);
  return b;
}

/* Hands out the next value storage (doubles or an abstract block). */
static void *take_value(layout_block *b, layout_cursor *c, int is_abstract, int size,
                        const teal_value_type *type) {
  if (!is_abstract) {
    double *p = c->doubles;
    c->doubles += size;
    return p;
  }
  void *p = c->bytes;
  c->bytes += value_bytes(type);
  b->abstracts[b->nabstracts].type = type;
  b->abstracts[b->nabstracts].ptr = p;
  b->nabstracts++;
  return p;
}

static void assign_leaf(layout_block *b, teal_context *ctx, layout_cursor *c) {
  const teal_system *sys = ctx->system;
  b->leaf_ptrs[c->leaf] = ctx;
  ctx->leaf_begin = c->leaf++;
  ctx->leaf_end = c->leaf;
  ctx->xc_begin = c->xc_leaf;
  if (sys->nq + sys->nv + sys->nz > 0) {
    b->xc_leaf_ptrs[c->xc_leaf++] = ctx;
  }
  ctx->xc_end = c->xc_leaf;
  c->q += sys->nq;
  c->v += sys->nv;
  c->z += sys->nz;
  c->xd += sys->nxd;
  ctx->p = b->p + c->p;
  c->p += sys->np;
  ctx->stamp_xd_group = c->stamp;
  c->stamp += sys->nxd_groups;
  ctx->stamp_xa = c->stamp;
  c->stamp += sys->nxa;
  ctx->stamp_p = c->stamp;
  c->stamp += sys->nparams;
  ctx->xa = b->xa_ptrs + c->xa;
  void **scratch = b->root.xa_scratch + c->xa;
  c->xa += sys->nxa;
  for (int i = 0; i < sys->nxa; i++) {
    ctx->xa[i] = take_value(b, c, 1, 0, sys->xa_types[i]);
    scratch[i] = take_value(b, c, 1, 0, sys->xa_types[i]);
  }
  ctx->scratch = b->scratch_ptrs + c->scratch;
  c->scratch += sys->nscratch;
  for (int i = 0; i < sys->nscratch; i++) {
    ctx->scratch[i] = take_value(b, c, 1, 0, sys->scratch_types[i]);
  }
  ctx->slots = b->slots + c->slot;
  c->slot += sys->ncache;
  for (int d = 0; d < sys->ncache; d++) {
    const teal_cache_decl *decl = &sys->cache[d];
    ctx->slots[d].decl = decl;
    ctx->slots[d].owner = ctx;
    ctx->slots[d].root = ctx->root;
    ctx->slots[d].value = take_value(b, c, decl->is_abstract, decl->size, decl->type);
  }
}

static void assign_node(layout_block *b, const teal_system *sys, teal_context *parent,
                        layout_cursor *c) {
  teal_context *ctx = &b->nodes[c->node];
  b->node_ptrs[c->node++] = ctx;
  ctx->system = sys;
  ctx->root = &b->root;
  ctx->parent = parent;
  ctx->q = b->xc + c->q;
  ctx->v = b->xc + c->v;
  ctx->z = b->xc + c->z;
  ctx->xd = b->xd + c->xd;
  ctx->stamp_q = c->stamp++;
  ctx->stamp_v = c->stamp++;
  ctx->stamp_z = c->stamp++;
  ctx->stamp_xd = c->stamp++;
  ctx->in = b->inputs + c->input;
  c->input += sys->ninputs;
  for (int i = 0; i < sys->ninputs; i++) {
    const teal_input_port *in = sys->inputs[i];
    ctx->in[i].stamp = c->stamp++;
    ctx->in[i].is_abstract = in->is_abstract;
    ctx->in[i].fixed_value = take_value(b, c, in->is_abstract, in->size, in->type);
  }
  if (!sys->is_diagram) {
    assign_leaf(b, ctx, c);
    return;
  }
  ctx->leaf_begin = c->leaf;
  ctx->xc_begin = c->xc_leaf;
  ctx->children = b->child_ptrs + c->child;
  c->child += sys->nchildren;
  ctx->out_src = b->out_src + c->output;
  c->output += sys->noutputs;
  for (int k = 0; k < sys->nchildren; k++) {
    ctx->children[k] = &b->nodes[c->node];
    assign_node(b, sys->children[k], ctx, c);
  }
  ctx->leaf_end = c->leaf;
  ctx->xc_end = c->xc_leaf;
}

/* Follows exported outputs down to the leaf slot that computes them. */
static teal_cache_slot *resolve_output(teal_context *ctx, int port) {
  while (ctx->system->is_diagram) {
    const teal_output_port *op = ctx->system->outputs[port];
    ctx = ctx->children[op->child];
    port = op->child_port;
  }
  return &ctx->slots[ctx->system->outputs[port]->cache_index];
}

/* Follows an input port up through exported diagram inputs to its source:
 * a leaf output, or the unconnected port that can hold a fixed value. */
static void resolve_input(teal_context *ctx, int port) {
  teal_input_slot *slot = &ctx->in[port];
  teal_context *at = ctx;
  int p = port;
  for (;;) {
    teal_context *parent = at->parent;
    const teal_connection *conn =
        parent ? &parent->system->conn[at->system->index_in_parent][p] : NULL;
    if (!conn || conn->kind == TEAL_SRC_NONE) {
      slot->home = &at->in[p];
      return;
    }
    if (conn->kind == TEAL_SRC_OUTPUT) {
      slot->src = resolve_output(parent->children[conn->a], conn->b);
      slot->vector_src = slot->is_abstract ? NULL : slot->src;
      return;
    }
    at = parent;
    p = conn->a;
  }
}

static void resolve_ports(layout_block *b) {
  for (int n = 0; n < b->root.nnodes; n++) {
    teal_context *ctx = b->node_ptrs[n];
    for (int i = 0; i < ctx->system->ninputs; i++) {
      resolve_input(ctx, i);
    }
    for (int o = 0; ctx->system->is_diagram && o < ctx->system->noutputs; o++) {
      ctx->out_src[o] = resolve_output(ctx, o);
    }
  }
}

teal_context *teal_context_layout(const teal_system *sys, teal_error *err) {
  layout_totals t;
  memset(&t, 0, sizeof t);
  t.stamps = TEAL_STAMP_FIRST_NODE;
  count_tree(sys, &t);
  size_t bytes = 0;
  layout_block *b = allocate_block(&t, &bytes);
  if (!b) {
    teal_error_set(err, TEAL_ENOMEM,
                   "context_new: out of memory for system '%s' (%.1f MiB for its context: %d "
                   "cache entries, %zu doubles of values)",
                   sys->name, (double)bytes / (1024.0 * 1024.0), t.slots, t.value_doubles);
    return NULL;
  }
  layout_cursor c;
  memset(&c, 0, sizeof c);
  c.v = sys->nq;
  c.z = sys->nq + sys->nv;
  c.stamp = TEAL_STAMP_FIRST_NODE;
  c.doubles = b->vals;
  c.bytes = b->bytes;
  b->root.nodes = b->node_ptrs;
  b->root.nnodes = t.nodes;
  b->root.leaves = b->leaf_ptrs;
  b->root.nleaves = t.leaves;
  b->root.xc_leaves = b->xc_leaf_ptrs;
  b->root.nstamps = t.stamps;
  b->root.abstracts = b->abstracts;
  assign_node(b, sys, NULL, &c);
  resolve_ports(b);
  teal_context *ctx = b->node_ptrs[0];
  int rc = teal_context_resolve_dependencies(&b->root, b->slots, t.slots, err);
  b->root.nabstracts = b->nabstracts;
  if (rc == TEAL_OK) {
    rc = teal_context_init_values(ctx);
    if (rc != TEAL_OK) {
      teal_error_set(err, rc, "context_new: initializing abstract values of '%s' failed",
                     sys->name);
    }
  }
  if (rc != TEAL_OK) {
    teal_context_free(ctx);
    return NULL;
  }
  return ctx;
}
