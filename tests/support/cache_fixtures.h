/* Fixtures shared by the cache tests (test_cache*.c): the probe leaf, which
 * counts how often each of its outputs and cache entries is computed, and
 * checked build helpers. */
#ifndef TEAL_TESTS_SUPPORT_CACHE_FIXTURES_H
#define TEAL_TESTS_SUPPORT_CACHE_FIXTURES_H

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "support/test_support.h"

/* ---- the probe leaf --------------------------------------------------- */

/* Outputs of the probe; each depends on exactly what its name says. */
enum {
  TS_CACHE_O_ALL,  /* default prerequisites (all sources) */
  TS_CACHE_O_Q,    /* q */
  TS_CACHE_O_V,    /* v */
  TS_CACHE_O_Z,    /* z */
  TS_CACHE_O_G0,   /* discrete group 0 */
  TS_CACHE_O_XA,   /* abstract state 0 */
  TS_CACHE_O_P0,   /* parameter 0 */
  TS_CACHE_O_U0,   /* input 0 */
  TS_CACHE_O_T,    /* time */
  TS_CACHE_O_ACC,  /* accuracy */
  TS_CACHE_O_XC,   /* all continuous state */
  TS_CACHE_O_XD,   /* all discrete state */
  TS_CACHE_O_E,    /* cache entry 0 (q and input 1) */
  TS_CACHE_O_VBOX, /* abstract output, v */
  TS_CACHE_NOUT
};

extern const char *ts_cache_k_out_names[TS_CACHE_NOUT];

typedef struct ts_cache_box {
  double x;
} ts_cache_box;

typedef struct ts_cache_probe {
  int which[TS_CACHE_NOUT];
  int calls[TS_CACHE_NOUT];
  int entry_calls;     /* cache entry 0 "sq" */
  int abs_entry_calls; /* cache entry 1 "boxed" */
} ts_cache_probe;

ts_cache_probe *ts_cache_probe_of(const teal_system *sys);

/* Reads input i (a vector of size 1). */
int ts_cache_input_value(const teal_system *sys, const teal_context *ctx, int i, double *x);

double ts_cache_g1_of(const teal_context *ctx);

double ts_cache_xa_of(const teal_context *ctx);

double ts_cache_p_of(const teal_context *ctx, int i);

int ts_cache_probe_deriv(const teal_system *sys, const teal_context *ctx,
                         teal_continuous_view *xdot, void *user);

teal_system *ts_cache_probe_new(const char *name);

teal_context *ts_cache_new_ctx(const teal_system *sys);

teal_system *ts_cache_build(teal_builder *b);

/* Expected value of probe output o from the context's current values. */
double ts_cache_expected_value(const teal_system *sys, const teal_context *ctx, int o);

/* Evaluates probe output o (vector or abstract) into *value. */
int ts_cache_eval_probe(const teal_system *sys, const teal_context *ctx, int o, double *value);

void ts_cache_fix_inputs(teal_context *leaf, double u0, double u1);

/* ---- diagram connections and diagram-level accessors ------------------ */

/* outer { pre (integrator, nz = 2), src (constant 2.0), src1 (constant),
 *         inner { probe } } with src -> probe.u0, src1 -> probe.u1 */
typedef struct ts_cache_wired {
  teal_system *outer, *inner, *ts_cache_probe, *pre, *src, *src1;
} ts_cache_wired;

ts_cache_wired ts_cache_wired_new(void);

#endif
