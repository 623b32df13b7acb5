/* The composed Jacobian of a system's continuous dynamics: each leaf's hook
 * blocks chained through the connections of the flattened context (each
 * leaf input slot names the leaf output feeding it).
 *
 * One recursive walk serves twice: teal_state_jacobian_new runs it in
 * measuring mode (no hook calls, no arithmetic) to check that the
 * composition is possible, to find the largest scratch the walk needs at
 * once and to list the outputs it differentiates; calc runs it for real on
 * that scratch, a stack of doubles, differentiating each listed output once
 * (a plant's state output read by several controllers, say) and copying
 * the memo on later visits. */
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "framework/state_jacobian.h"
#include "framework/system_dynamics.h"
#include "framework/system_internal.h"

/* An output the walk differentiates: leaf (index among the leaves of the
 * context's subtree) and port, where its rows (ny x n) are kept during one
 * calc, and whether they are there yet. */
typedef struct sj_memo {
  int leaf, port;
  size_t offset;
  int done;
} sj_memo;

struct teal_state_jacobian {
  const teal_system *sys;
  int n;         /* continuous states of sys */
  double *stack; /* scratch blocks, pushed and popped by the walk */
  size_t cap;
  sj_memo *memo;
  int nmemo, cap_memo;
  double *memo_rows; /* memo_size doubles */
  size_t memo_size;
  long hook_calls;
};

/* One walk: measuring (stack NULL, err set) or computing (ctx errors). */
typedef struct sj_walk {
  teal_state_jacobian *sj;
  const teal_context *ctx; /* the context the Jacobian is taken of */
  int measure;
  size_t top, peak;
  teal_error *err;
} sj_walk;

static double *push(sj_walk *w, int count) {
  double *p = w->measure ? NULL : w->sj->stack + w->top;
  w->top += (size_t)count;
  w->peak = w->top > w->peak ? w->top : w->peak;
  return p;
}

static int leaf_nxc(const teal_system *s) {
  return s->nq + s->nv + s->nz;
}

/* The state size of a leaf's hook blocks: continuous when it has any. */
static int hook_nx(const teal_system *s) {
  return leaf_nxc(s) > 0 ? leaf_nxc(s) : s->nxd;
}

/* Index in the walk's x of entry k of leaf's [q; v; z]. */
static int global_index(const sj_walk *w, const teal_context *leaf, int k) {
  const teal_system *ls = leaf->system, *rs = w->ctx->system;
  if (k < ls->nq) {
    return (int)(leaf->q - w->ctx->q) + k;
  }
  k -= ls->nq;
  if (k < ls->nv) {
    return rs->nq + (int)(leaf->v - w->ctx->v) + k;
  }
  return rs->nq + rs->nv + (int)(leaf->z - w->ctx->z) + k - ls->nv;
}

/* The leaf output computed by slot src, when it lies in the walk's subtree
 * (else NULL: an outside source is a constant); *port receives its index. */
static const teal_context *source_of(const sj_walk *w, const teal_cache_slot *src, int *port) {
  const teal_context_root *root = w->ctx->root;
  const teal_context *owner = src->owner;
  int inside = 0;
  for (int k = w->ctx->leaf_begin; k < w->ctx->leaf_end && !inside; k++) {
    inside = root->leaves[k] == owner;
  }
  const teal_system *s = owner->system;
  int decl = (int)(src->decl - s->cache);
  for (int r = 0; inside && r < s->noutputs; r++) {
    if (s->outputs[r]->cache_index == decl) {
      *port = r;
      return owner;
    }
  }
  return NULL;
}

/* The source of a leaf's vector input p, or NULL when p is constant in x. */
static const teal_context *vector_source(const sj_walk *w, const teal_context *leaf, int p,
                                         int *port) {
  const teal_input_slot *in = &leaf->in[p];
  return in->is_abstract || !in->src ? NULL : source_of(w, in->src, port);
}

static int unsupported(sj_walk *w, const teal_system *s, const char *why) {
  char path[256];
  return teal_error_set(w->err, TEAL_EUNSUPPORTED,
                        "state Jacobian of '%s': leaf '%s' %s; use finite differences",
                        w->ctx->system->name, teal_system_path(s, path, sizeof path), why);
}

static int call_hook(sj_walk *w, const teal_context *leaf, int in, int out, teal_jacobian *jac) {
  w->sj->hook_calls++;
  return teal_calc_jacobian(leaf->system, leaf, in, out, jac);
}

/* out[rows x n] += M[rows x k] * X[k x n]. */
static void add_product(int rows, int k, int n, const double *M, const double *X, double *out) {
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < k; j++) {
      double m = M[i * k + j];
      for (int c = 0; m != 0.0 && c < n; c++) {
        out[i * n + c] += m * X[j * n + c];
      }
    }
  }
}

static int input_rows(sj_walk *w, const teal_context *leaf, int p, double *dudx);

/* A leaf without a hook: its output must not depend on x. */
static int hookless_output(sj_walk *w, const teal_context *leaf, int port) {
  const teal_system *s = leaf->system;
  if (!w->measure) {
    return TEAL_OK;
  }
  if (leaf_nxc(s) > 0) {
    return unsupported(w, s, "has continuous state and no analytic Jacobian");
  }
  for (int p = 0; p < s->ninputs; p++) {
    if (s->feedthrough[port * s->ninputs + p] && leaf->in[p].src) {
      return unsupported(w, s, "feeds a connected input through and has no analytic Jacobian");
    }
  }
  return TEAL_OK;
}

/* The memo of (leaf, port), or NULL; measuring, a new one is added
 * (*added set) or NULL returned when out of memory (TEAL_ENOMEM in err). */
static sj_memo *find_memo(sj_walk *w, const teal_context *leaf, int port, int *added) {
  teal_state_jacobian *sj = w->sj;
  const teal_context_root *root = w->ctx->root;
  /* relative to ctx's subtree: the workspace serves any context of sj->sys,
   * a root context or a subcontext of a larger diagram alike */
  int k = w->ctx->leaf_begin;
  while (k < w->ctx->leaf_end && root->leaves[k] != leaf) {
    k++;
  }
  k -= w->ctx->leaf_begin;
  *added = 0;
  for (int i = 0; i < sj->nmemo; i++) {
    if (sj->memo[i].leaf == k && sj->memo[i].port == port) {
      return &sj->memo[i];
    }
  }
  if (!w->measure ||
      teal_grow((void **)&sj->memo, &sj->cap_memo, sj->nmemo + 1, sizeof *sj->memo)) {
    teal_error_set(w->err, TEAL_ENOMEM, "state_jacobian_new: out of memory");
    return NULL;
  }
  sj_memo *m = &sj->memo[sj->nmemo++];
  *m = (sj_memo){k, port, sj->memo_size, 0};
  sj->memo_size += (size_t)leaf->system->outputs[port]->size * (size_t)sj->n;
  *added = 1;
  return m;
}

static int differentiate_output(sj_walk *w, const teal_context *leaf, int port, double *out);

/* out (ny x n) = d y / dx of the leaf's output port, once per calc. */
static int output_rows(sj_walk *w, const teal_context *leaf, int port, double *out) {
  int added;
  sj_memo *m = find_memo(w, leaf, port, &added);
  if (!m) {
    return TEAL_ENOMEM;
  }
  if (w->measure) { /* a first visit measures the stack it needs */
    return added ? differentiate_output(w, leaf, port, out) : TEAL_OK;
  }
  size_t size = sizeof(double) * (size_t)leaf->system->outputs[port]->size * (size_t)w->sj->n;
  double *rows = w->sj->memo_rows + m->offset;
  if (m->done) {
    memcpy(out, rows, size);
    return TEAL_OK;
  }
  int rc = differentiate_output(w, leaf, port, out);
  if (rc == TEAL_OK) {
    memcpy(rows, out, size);
    m->done = 1;
  }
  return rc;
}

/* out (ny x n) = d y / dx of the leaf's output port, computed. */
static int differentiate_output(sj_walk *w, const teal_context *leaf, int port, double *out) {
  const teal_system *s = leaf->system;
  int n = w->sj->n, ny = s->outputs[port]->size, nx = hook_nx(s), rc = TEAL_OK;
  if (!w->measure) {
    memset(out, 0, sizeof(double) * (size_t)ny * (size_t)n);
  }
  if (!s->jacobian) {
    return hookless_output(w, leaf, port);
  }
  size_t mark = w->top;
  teal_jacobian jac = {nx, 0, ny, push(w, nx * nx), NULL, push(w, ny * nx), NULL};
  int have_c = 0;
  for (int p = 0; rc == TEAL_OK && p < s->ninputs; p++) {
    int src_port;
    if (!s->feedthrough[port * s->ninputs + p] || !vector_source(w, leaf, p, &src_port)) {
      continue;
    }
    size_t inner = w->top;
    int nu = s->inputs[p]->size;
    teal_jacobian jp = {nx, nu, ny, jac.A, push(w, nx * nu), jac.C, push(w, ny * nu)};
    double *dudx = push(w, nu * n);
    rc = input_rows(w, leaf, p, dudx);
    if (rc == TEAL_OK && !w->measure && (rc = call_hook(w, leaf, p, port, &jp)) == TEAL_OK) {
      add_product(ny, nu, n, jp.D, dudx, out);
      have_c = 1;
    }
    w->top = inner;
  }
  if (rc == TEAL_OK && !w->measure && leaf_nxc(s) > 0) {
    if (!have_c) {
      rc = call_hook(w, leaf, -1, port, &jac);
    }
    for (int i = 0; rc == TEAL_OK && i < ny; i++) {
      for (int k = 0; k < nx; k++) {
        out[i * n + global_index(w, leaf, k)] += jac.C[i * nx + k];
      }
    }
  }
  w->top = mark;
  return rc;
}

/* dudx (nu x n) = d u / dx of a leaf's input p (zero when constant). */
static int input_rows(sj_walk *w, const teal_context *leaf, int p, double *dudx) {
  int port;
  const teal_context *src = vector_source(w, leaf, p, &port);
  if (src) {
    return output_rows(w, src, port, dudx);
  }
  if (!w->measure) {
    memset(dudx, 0, sizeof(double) * (size_t)leaf->system->inputs[p]->size * (size_t)w->sj->n);
  }
  return TEAL_OK;
}

/* J's rows of a leaf with continuous state: A in its own columns plus B
 * times each connected vector input's derivative. */
static int state_rows(sj_walk *w, const teal_context *leaf, double *J) {
  const teal_system *s = leaf->system;
  int n = w->sj->n, nx = leaf_nxc(s), rc = TEAL_OK, have_a = 0;
  if (!s->jacobian) {
    return w->measure ? unsupported(w, s, "has continuous state and no analytic Jacobian")
                      : TEAL_OK;
  }
  size_t mark = w->top;
  teal_jacobian jac = {nx, 0, 0, push(w, nx * nx), NULL, NULL, NULL};
  double *rows = push(w, nx * n);
  if (!w->measure) {
    memset(rows, 0, sizeof(double) * (size_t)nx * (size_t)n);
  }
  for (int p = 0; rc == TEAL_OK && p < s->ninputs; p++) {
    int src_port;
    if (!vector_source(w, leaf, p, &src_port)) {
      continue;
    }
    size_t inner = w->top;
    int nu = s->inputs[p]->size;
    teal_jacobian jp = {nx, nu, 0, jac.A, push(w, nx * nu), NULL, NULL};
    double *dudx = push(w, nu * n);
    rc = input_rows(w, leaf, p, dudx);
    if (rc == TEAL_OK && !w->measure && (rc = call_hook(w, leaf, p, -1, &jp)) == TEAL_OK) {
      add_product(nx, nu, n, jp.B, dudx, rows);
      have_a = 1;
    }
    w->top = inner;
  }
  if (rc == TEAL_OK && !w->measure && !have_a) {
    rc = call_hook(w, leaf, -1, -1, &jac);
  }
  for (int i = 0; rc == TEAL_OK && !w->measure && i < nx; i++) {
    double *row = J + (size_t)global_index(w, leaf, i) * (size_t)n;
    for (int k = 0; k < nx; k++) {
      rows[i * n + global_index(w, leaf, k)] += jac.A[i * nx + k];
    }
    memcpy(row, rows + (size_t)i * (size_t)n, sizeof(double) * (size_t)n);
  }
  w->top = mark;
  return rc;
}

static int walk(sj_walk *w, double *J) {
  const teal_context_root *root = w->ctx->root;
  for (int k = w->ctx->xc_begin; k < w->ctx->xc_end; k++) {
    int rc = state_rows(w, root->xc_leaves[k], J);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

teal_state_jacobian *teal_state_jacobian_new(const teal_context *ctx, teal_error *err) {
  if (!ctx) {
    teal_error_set(err, TEAL_EINVAL, "state_jacobian_new: NULL context");
    return NULL;
  }
  teal_state_jacobian probe = {ctx->system, leaf_nxc(ctx->system), NULL, 0, NULL, 0, 0, NULL, 0, 0};
  teal_error local;
  sj_walk w = {&probe, ctx, 1, 0, 0, err ? err : &local};
  if (walk(&w, NULL) != TEAL_OK) {
    teal_free(probe.memo);
    return NULL;
  }
  teal_state_jacobian *sj = teal_calloc(1, sizeof *sj);
  probe.stack = teal_calloc(w.peak + 1, sizeof(double));
  probe.memo_rows = teal_calloc(probe.memo_size + 1, sizeof(double));
  if (!sj || !probe.stack || !probe.memo_rows) {
    teal_free(sj);
    teal_free(probe.stack);
    teal_free(probe.memo_rows);
    teal_free(probe.memo);
    teal_error_set(err, TEAL_ENOMEM, "state_jacobian_new: out of memory");
    return NULL;
  }
  *sj = probe;
  sj->cap = w.peak;
  return sj;
}

void teal_state_jacobian_free(teal_state_jacobian *sj) {
  if (sj) {
    teal_free(sj->memo);
    teal_free(sj->memo_rows);
    teal_free(sj->stack);
    teal_free(sj);
  }
}

int teal_state_jacobian_calc(teal_state_jacobian *sj, const teal_context *ctx, double *J) {
  if (!sj || !ctx) {
    return ctx ? teal_context_report_error(ctx, TEAL_EINVAL, "state_jacobian_calc: NULL workspace")
               : TEAL_EINVAL;
  }
  int rc = teal_check_context(sj->sys, ctx);
  if (rc || (!J && sj->n > 0)) {
    return rc ? rc : teal_context_report_error(ctx, TEAL_EINVAL, "state_jacobian_calc: J is NULL");
  }
  /* rows of leaves without state stay zero: clear J first */
  if (sj->n > 0) {
    memset(J, 0, sizeof(double) * (size_t)sj->n * (size_t)sj->n);
  }
  for (int i = 0; i < sj->nmemo; i++) {
    sj->memo[i].done = 0;
  }
  sj_walk w = {sj, ctx, 0, 0, 0, NULL};
  return walk(&w, J);
}

long teal_state_jacobian_hook_calls(const teal_state_jacobian *sj) {
  return sj ? sj->hook_calls : 0;
}
