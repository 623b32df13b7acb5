/* The harness shared by the fuzz-style parser tests (URDF, SDFormat, MJCF,
 * meshes): a text buffer, a generator of its own, the mutators (byte flips,
 * deleted tags, swapped and hostile values, duplicated lines), and
 * truncation and mutation campaigns. A campaign calls a loader that checks
 * the parser's contract on one document and says whether it loaded
 * (ts_alloc_expect_all_freed then checks that the campaign leaked
 * nothing). */
#ifndef TEAL_TESTS_SUPPORT_FUZZ_FIXTURES_H
#define TEAL_TESTS_SUPPORT_FUZZ_FIXTURES_H

#include <stddef.h>

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

/** A NUL-terminated text of n bytes (malloc'd) that the mutators edit. */
typedef struct ts_fuzz_text {
  char *s;
  size_t n;
} ts_fuzz_text;

/** Finds a value in t at or after a random position: [*b, *e); 0 if none. */
typedef int (*ts_fuzz_find_fn)(const ts_fuzz_text *t, unsigned *seed, size_t *b, size_t *e);

/** Where a format's values are, and the hostile values to put there. */
typedef struct ts_fuzz_format {
  ts_fuzz_find_fn find_value;
  const char *const *odd_values;
  size_t num_odd_values;
} ts_fuzz_format;

/** Loads one document, checks the parser's contract; 1 if it loaded. */
typedef int (*ts_fuzz_load_fn)(const char *doc);

/** xorshift32 (Marsaglia): the campaigns own their generator, so a pinned
 *  corpus does not move with the C library. *state must be nonzero. */
unsigned ts_fuzz_rand(unsigned *state);
/** A uniform index below n (0 when n is 0). */
size_t ts_fuzz_pick(unsigned *seed, size_t n);

/** A copy of doc as a text (ck-asserted). */
ts_fuzz_text ts_fuzz_text_of(const char *doc);
/** Replaces del bytes at `at` by the nins bytes of ins. */
void ts_fuzz_replace(ts_fuzz_text *t, size_t at, size_t del, const char *ins, size_t nins);

/** Value finders: a "double-quoted" attribute value; a value in either
 *  quote; a 'single-quoted' value or an element's text (>text<), chosen
 *  at random. */
int ts_fuzz_find_double_quoted(const ts_fuzz_text *t, unsigned *seed, size_t *b, size_t *e);
int ts_fuzz_find_quoted(const ts_fuzz_text *t, unsigned *seed, size_t *b, size_t *e);
int ts_fuzz_find_quoted_or_text(const ts_fuzz_text *t, unsigned *seed, size_t *b, size_t *e);

/** Applies one to three random edits: a byte flip (never to NUL), a deleted
 *  "<...>", two values swapped, a value made hostile, a line duplicated. */
void ts_fuzz_mutate(ts_fuzz_text *t, unsigned *seed, const ts_fuzz_format *format);

/** Loads every prefix of doc whose length steps by n % stride + 1, and doc
 *  whole last; returns how many loaded. */
int ts_fuzz_prefixes(const char *doc, size_t stride, ts_fuzz_load_fn load);

/** Loads `trials` mutations of doc; returns how many loaded. */
int ts_fuzz_mutations(const char *doc, int trials, unsigned *seed, const ts_fuzz_format *format,
                      ts_fuzz_load_fn load);

/** The environment variable name as a number, or def when unset or empty. */
unsigned long ts_fuzz_env(const char *name, unsigned long def);

/** The bit recording failure code rc (< 0) in a codes-seen mask. */
unsigned ts_fuzz_code_bit(int rc);

/** For a load that returned rc with error record e: when rc < 0, asserts
 *  the failure contract (e holds rc and a non-empty message), records rc
 *  in *codes_seen and returns 1; else returns 0. */
int ts_fuzz_load_failed(int rc, const teal_error *e, unsigned *codes_seen);

/** Finalizes the plant a load returned rc into, whatever rc (finalize must
 *  cope with what a failed load left), and frees it; 1 if the load
 *  succeeded. */
int ts_fuzz_finish(teal_plant *p, int rc);

#endif
