/* The fuzz harness (fuzz_fixtures.h). The mutators' draws from the
 * generator are part of the URDF test's pinned corpus: change their order
 * and that test says so. */
#define _XOPEN_SOURCE 700 /* strndup */
#include "support/fuzz_fixtures.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "multibody/tree/topology.h"

unsigned ts_fuzz_rand(unsigned *state) {
  unsigned x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

size_t ts_fuzz_pick(unsigned *seed, size_t n) {
  return n ? ts_fuzz_rand(seed) % n : 0;
}

ts_fuzz_text ts_fuzz_text_of(const char *doc) {
  ts_fuzz_text t = {strdup(doc), strlen(doc)};
  ck_assert_ptr_nonnull(t.s);
  return t;
}

void ts_fuzz_replace(ts_fuzz_text *t, size_t at, size_t del, const char *ins, size_t nins) {
  char *s = malloc(t->n - del + nins + 1);
  ck_assert_ptr_nonnull(s);
  memcpy(s, t->s, at);
  memcpy(s + at, ins, nins);
  memcpy(s + at + nins, t->s + at + del, t->n - at - del);
  t->n = t->n - del + nins;
  s[t->n] = '\0';
  free(t->s);
  t->s = s;
}

/* [*b, *e) between an opening character from `open` and the next `close`
 * (the opening character itself when close is 0). */
static int find_between(const ts_fuzz_text *t, size_t from, const char *open, char close, size_t *b,
                        size_t *e) {
  const char *q1 = strpbrk(t->s + from, open);
  const char *q2 = q1 ? strchr(q1 + 1, close ? close : *q1) : NULL;
  if (!q2) {
    return 0;
  }
  *b = (size_t)(q1 + 1 - t->s);
  *e = (size_t)(q2 - t->s);
  return 1;
}

int ts_fuzz_find_double_quoted(const ts_fuzz_text *t, unsigned *seed, size_t *b, size_t *e) {
  return find_between(t, ts_fuzz_pick(seed, t->n), "\"", 0, b, e);
}

int ts_fuzz_find_quoted(const ts_fuzz_text *t, unsigned *seed, size_t *b, size_t *e) {
  return find_between(t, ts_fuzz_pick(seed, t->n), "\"'", 0, b, e);
}

int ts_fuzz_find_quoted_or_text(const ts_fuzz_text *t, unsigned *seed, size_t *b, size_t *e) {
  size_t from = ts_fuzz_pick(seed, t->n);
  int quoted = ts_fuzz_rand(seed) & 1;
  return find_between(t, from, quoted ? "'" : ">", quoted ? '\'' : '<', b, e);
}

static void flip_byte(ts_fuzz_text *t, unsigned *seed, const ts_fuzz_format *format) {
  (void)format;
  if (t->n) {
    char c = (char)(1 + ts_fuzz_rand(seed) % 255); /* never NUL */
    t->s[ts_fuzz_pick(seed, t->n)] = c;
  }
}

/* Deletes one "<...>" span starting at a random '<'. */
static void delete_tag(ts_fuzz_text *t, unsigned *seed, const ts_fuzz_format *format) {
  (void)format;
  char *lt = strchr(t->s + ts_fuzz_pick(seed, t->n), '<');
  char *gt = lt ? strchr(lt, '>') : NULL;
  if (gt) {
    ts_fuzz_replace(t, (size_t)(lt - t->s), (size_t)(gt - lt) + 1, "", 0);
  }
}

/* Swaps two values (names, numbers, links, types...) that do not overlap. */
static void swap_values(ts_fuzz_text *t, unsigned *seed, const ts_fuzz_format *format) {
  size_t b1, e1, b2, e2;
  if (!format->find_value(t, seed, &b1, &e1) || !format->find_value(t, seed, &b2, &e2) ||
      b2 == b1) {
    return;
  }
  if (b2 < b1) {
    size_t tb = b1, te = e1;
    b1 = b2, e1 = e2, b2 = tb, e2 = te;
  }
  if (e1 >= b2) {
    return;
  }
  char *v1 = strndup(t->s + b1, e1 - b1), *v2 = strndup(t->s + b2, e2 - b2);
  ck_assert(v1 && v2);
  ts_fuzz_replace(t, b2, e2 - b2, v1, strlen(v1));
  ts_fuzz_replace(t, b1, e1 - b1, v2, strlen(v2));
  free(v1);
  free(v2);
}

static void poison_value(ts_fuzz_text *t, unsigned *seed, const ts_fuzz_format *format) {
  size_t b, e;
  if (format->find_value(t, seed, &b, &e)) {
    const char *v = format->odd_values[ts_fuzz_pick(seed, format->num_odd_values)];
    ts_fuzz_replace(t, b, e - b, v, strlen(v));
  }
}

/* Duplicates one line (repeated names, two parents, two inertials...). */
static void duplicate_line(ts_fuzz_text *t, unsigned *seed, const ts_fuzz_format *format) {
  (void)format;
  char *start = strchr(t->s + ts_fuzz_pick(seed, t->n), '\n');
  char *end = start ? strchr(start + 1, '\n') : NULL;
  if (end) {
    size_t n = (size_t)(end - start);
    char *line = strndup(start, n);
    ck_assert_ptr_nonnull(line);
    ts_fuzz_replace(t, (size_t)(end - t->s), 0, line, n);
    free(line);
  }
}

void ts_fuzz_mutate(ts_fuzz_text *t, unsigned *seed, const ts_fuzz_format *format) {
  static void (*const mutators[])(ts_fuzz_text *, unsigned *, const ts_fuzz_format *) = {
      flip_byte, delete_tag, swap_values, poison_value, duplicate_line};
  int count = 1 + (int)ts_fuzz_pick(seed, 3);
  for (int i = 0; i < count; i++) {
    mutators[ts_fuzz_pick(seed, 5)](t, seed, format);
  }
}

int ts_fuzz_prefixes(const char *doc, size_t stride, ts_fuzz_load_fn load) {
  size_t len = strlen(doc);
  char *buf = malloc(len + 1);
  ck_assert_ptr_nonnull(buf);
  int ok = 0;
  for (size_t n = 0; n < len; n += (n % stride) + 1) {
    memcpy(buf, doc, n);
    buf[n] = '\0';
    ok += load(buf);
  }
  free(buf);
  return ok + load(doc);
}

int ts_fuzz_mutations(const char *doc, int trials, unsigned *seed, const ts_fuzz_format *format,
                      ts_fuzz_load_fn load) {
  int ok = 0;
  for (int trial = 0; trial < trials; trial++) {
    ts_fuzz_text t = ts_fuzz_text_of(doc);
    ts_fuzz_mutate(&t, seed, format);
    ok += load(t.s);
    free(t.s);
  }
  return ok;
}

unsigned long ts_fuzz_env(const char *name, unsigned long def) {
  const char *s = getenv(name);
  return s && *s ? strtoul(s, NULL, 0) : def;
}

unsigned ts_fuzz_code_bit(int rc) {
  return rc > -32 ? 1u << -rc : 1u;
}

int ts_fuzz_load_failed(int rc, const teal_error *e, unsigned *codes_seen) {
  if (rc >= 0) {
    return 0;
  }
  ck_assert_msg(e->message[0] != '\0', "rc %d without a message", rc);
  ck_assert_int_eq(e->code, rc);
  *codes_seen |= ts_fuzz_code_bit(rc);
  return 1;
}

int ts_fuzz_finish(teal_plant *p, int rc) {
  teal_plant_finalize(p);
  teal_plant_free(p);
  return rc >= 0;
}
