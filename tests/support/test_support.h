/* Shared helpers for the Check test programs: a counting (and optionally
 * failing) allocator for the teal_set_allocator hooks, a heap-owning
 * abstract value type with its own counters, a tiny deterministic PRNG and
 * small leaf constructors (constant, gain, integrator). */
#ifndef TEAL_TESTS_SUPPORT_TEST_SUPPORT_H
#define TEAL_TESTS_SUPPORT_TEST_SUPPORT_H

#include <check.h>
#include <stddef.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- counting allocator ------------------------------------------------ */

/** Counters kept by the counting allocator (all calls since the last reset). */
typedef struct ts_alloc_stats {
  unsigned long allocs;   /**< successful alloc_fn calls */
  unsigned long frees;    /**< free_fn calls with a non-NULL pointer */
  unsigned long failures; /**< alloc_fn calls that were made to fail */
  unsigned long calls;    /**< every alloc_fn call, failed or not */
  size_t bytes;           /**< bytes handed out by successful calls */
  void *last_user;        /**< user pointer seen by the last hook call */
} ts_alloc_stats;

/** Resets the counters and installs the counting allocator (malloc/free
 *  underneath, so memory from either allocator may be freed by the other). */
void ts_alloc_install(void);
/** Restores teal's default allocator (teal_set_allocator(NULL)). */
void ts_alloc_uninstall(void);
/** Zeroes the counters and clears any failure injection. */
void ts_alloc_reset(void);
/** The counters. */
const ts_alloc_stats *ts_alloc_stats_get(void);
unsigned long ts_alloc_allocs(void);
unsigned long ts_alloc_frees(void);
/** Asserts that nothing was allocated since the last install or reset (a
 *  hot loop's contract), after uninstalling the counting allocator. */
void ts_alloc_expect_none(void);
/** Asserts that every allocation since the last install or reset was
 *  freed (no leak), after uninstalling the counting allocator. */
void ts_alloc_expect_all_freed(void);
/** Failure injection: after `succeed` more successful allocations, fail the
 *  next one; if persistent, every later one fails too. succeed < 0 turns
 *  injection off. */
void ts_alloc_fail_after(long succeed, int persistent);
/** The teal_allocator used by ts_alloc_install (user points at the stats). */
teal_allocator ts_alloc_allocator(void);

/* A constructor under an allocation-failure sweep: builds its system with
 * user's arguments, reporting into err. */
typedef teal_system *(*ts_oom_ctor)(teal_error *err, void *user);

/* Calls make with its k-th allocation failing, k = 0, 1, ..., until it
 * succeeds (64 tries at most). Every failure must return NULL with
 * TEAL_ENOMEM and a message containing want (checked with Check's
 * assertions); returns how many failed. */
int ts_oom_sweep(ts_oom_ctor make, void *user, const char *want);

/* ---- a heap-owning abstract type --------------------------------------- */

/** A growable double buffer whose storage comes from teal_alloc. init gives
 *  capacity TS_BUF_INIT_CAP; copy grows dst only when it lacks room. */
typedef struct ts_buf {
  int n, cap;
  double *data;
} ts_buf;

enum { TS_BUF_INIT_CAP = 4 };

/** The descriptor ("ts_buf", sizeof(ts_buf), init/copy/free hooks). */
extern const teal_value_type ts_buf_type;

/** Hook call counters and the number of live heap blocks owned by ts_buf
 *  values (init/grow add one, free removes one). */
typedef struct ts_buf_stats {
  long inits, copies, frees, grows, live;
} ts_buf_stats;
const ts_buf_stats *ts_buf_stats_get(void);
void ts_buf_stats_reset(void);
/** Makes b hold the n values of x (growing through teal_alloc if needed). */
int ts_buf_assign(ts_buf *b, const double *x, int n);
/** Releases what b owns (same as the type's free hook). */
void ts_buf_release(ts_buf *b);

/* ---- deterministic random numbers ------------------------------------- */

/** xorshift32 step; *state must be nonzero. */
unsigned ts_rand_next(unsigned *state);
/** Uniform double in [lo, hi). */
double ts_rand_uniform(unsigned *state, double lo, double hi);

/* ---- files ------------------------------------------------------------ */

/** Writes text to the file at path (created or truncated), asserting it
 *  could. */
void ts_write_text(const char *path, const char *text);

/* ---- small leaves ------------------------------------------------------ */

/** Output "y" (size) = numeric parameter 0 (default value, NULL: zeros);
 *  prerequisite: parameter 0. Finalized (check teal_system_error). */
teal_system *ts_constant_new(const char *name, int size, const double *value);

/** Input "u" (size), output "y" = k * u with k numeric parameter 0 (size 1,
 *  default k); prerequisites: input 0 and parameter 0. */
teal_system *ts_gain_new(const char *name, int size, double k);

/** Input "u" (size), continuous state z (nz = size, default x0 or zeros),
 *  zdot = u, output "y" = z with prerequisite z only (no feedthrough). */
teal_system *ts_integrator_new(const char *name, int size, const double *x0);

/** Nonzero when TEAL_TEST_VERBOSE is set (and not "0"): tests then print
 *  the figures they measure. */
int ts_verbose(void);

/** printf, flushed at once (a failing check ends the forked test process). */
void ts_report(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** Robertson's stiff chemical kinetics as a leaf "robertson" with z = y,
 *  y(0) = (1, 0, 0); each derivative evaluation increments *calls (when
 *  calls is not NULL). Returns NULL if finalizing failed. */
teal_system *ts_robertson_new(long *calls);

/** Runs every test of suite (which it frees) and returns the process exit
 *  status: EXIT_SUCCESS when none failed. */
int ts_run_suite(Suite *suite);

#ifdef __cplusplus
}
#endif
#endif
