/* Fuzz-style robustness of the URDF parser: every shipped model is fed
 * truncated (prefixes at a stride) and randomly mutated (byte flips, deleted
 * tags, swapped attribute values, huge / NaN / odd numbers, duplicated
 * lines) into fresh plants. Each load must return an instance or a negative
 * status with a non-empty message; the plant is then finalized (whatever
 * the result) and freed, and every teal_alloc must have been freed. Run it
 * under ASan/UBSan (TEAL_SANITIZE) for memory errors and leaks. The
 * mutations come from a fixed-seed generator, so failures reproduce; the
 * environment variables TEAL_URDF_FUZZ_SEED and TEAL_URDF_FUZZ_TRIALS (per
 * model, default 600) run other or longer campaigns. */
#define _XOPEN_SOURCE 700 /* strdup, strndup */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multibody/parsing/urdf.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"
#include "urdf_models.h"

static const char *const models[] = {"acrobot.urdf", "pendulum.urdf", "cart_pole.urdf",
                                     "iiwa7_like.urdf"};
#define NUM_MODELS ((int)(sizeof(models) / sizeof(models[0])))

/* The failure codes seen (bit -code). */
static unsigned codes_seen;

/* Loads xml into a fresh plant and checks the contract; returns 1 if the
 * load succeeded. */
static int load_once(const char *xml) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_error e = {TEAL_OK, ""};
  teal_urdf_report r;
  int rc = teal_urdf_load_string_ex(p, xml, NULL, &r, &e);
  if (rc < 0) {
    ck_assert_msg(e.message[0] != '\0', "rc %d without a message", rc);
    ck_assert_int_eq(e.code, rc);
    codes_seen |= rc > -32 ? 1u << -rc : 1u;
  } else {
    ck_assert_int_ge(rc, 2);
    ck_assert_int_ge(r.num_warnings, 0);
  }
  teal_plant_finalize(p);
  teal_plant_free(p);
  return rc >= 0;
}

static char *read_model(int i, size_t *len) {
  char path[2048];
  char *xml = urdf_test_read(urdf_test_model_path(models[i], path, sizeof(path)), len);
  ck_assert_msg(xml != NULL, "cannot read %s", path);
  return xml;
}

/* ---- truncation ------------------------------------------------------------ */

START_TEST(truncated_prefixes) {
  ts_alloc_install();
  for (int m = 0; m < NUM_MODELS; m++) {
    size_t len;
    char *xml = read_model(m, &len);
    char *buf = malloc(len + 1);
    ck_assert_ptr_nonnull(buf);
    int ok = 0;
    for (size_t n = 0; n <= len; n += (n % 7) + 1) {
      memcpy(buf, xml, n);
      buf[n] = '\0';
      ok += load_once(buf);
    }
    /* the whole file (and it with trailing whitespace cut) loads */
    ck_assert_int_eq(load_once(xml), 1);
    ck_assert_int_ge(ok, 1);
    free(buf);
    free(xml);
  }
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
}
END_TEST

/* ---- mutations ---------------------------------------------------------------- */

/* A growable string for the mutators. */
typedef struct text {
  char *s;
  size_t n;
} text;

static void text_replace(text *t, size_t at, size_t del, const char *ins, size_t nins) {
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

static size_t pick(unsigned *seed, size_t n) {
  return n ? ts_rand_next(seed) % n : 0;
}

static void flip_byte(text *t, unsigned *seed) {
  if (t->n) {
    char c = (char)(1 + ts_rand_next(seed) % 255); /* never NUL */
    t->s[pick(seed, t->n)] = c;
  }
}

/* Deletes one "<...>" span starting at a random '<'. */
static void delete_tag(text *t, unsigned *seed) {
  size_t at = pick(seed, t->n);
  char *lt = strchr(t->s + at, '<');
  char *gt = lt ? strchr(lt, '>') : NULL;
  if (gt) {
    text_replace(t, (size_t)(lt - t->s), (size_t)(gt - lt) + 1, "", 0);
  }
}

/* Finds the quoted value at or after a random position: [*b, *e). */
static int find_value(const text *t, unsigned *seed, size_t *b, size_t *e) {
  char *q1 = strchr(t->s + pick(seed, t->n), '"');
  char *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
  if (!q2) {
    return 0;
  }
  *b = (size_t)(q1 + 1 - t->s);
  *e = (size_t)(q2 - t->s);
  return 1;
}

/* Swaps two attribute values (names, numbers, links, types...). */
static void swap_values(text *t, unsigned *seed) {
  size_t b1, e1, b2, e2;
  if (!find_value(t, seed, &b1, &e1) || !find_value(t, seed, &b2, &e2) || b2 == b1) {
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
  text_replace(t, b2, e2 - b2, v1, strlen(v1));
  text_replace(t, b1, e1 - b1, v2, strlen(v2));
  free(v1);
  free(v2);
}

/* Replaces an attribute value by a hostile one. */
static void poison_value(text *t, unsigned *seed) {
  static const char *const bad[] = {"nan", "-inf", "1e308", "-1e308", "1e-320", "0", "-1",
                                    "abc", "", "1e999", "   ", "1 2 3 4 5 6 7 8 9", "0x1p3",
                                    "1,5", "1e308 1e308 1e308", "-0", "world", "fixed"};
  size_t b, e;
  if (find_value(t, seed, &b, &e)) {
    const char *v = bad[pick(seed, sizeof(bad) / sizeof(bad[0]))];
    text_replace(t, b, e - b, v, strlen(v));
  }
}

/* Duplicates one line (repeated names, two parents, two inertials...). */
static void duplicate_line(text *t, unsigned *seed) {
  char *start = strchr(t->s + pick(seed, t->n), '\n');
  char *end = start ? strchr(start + 1, '\n') : NULL;
  if (end) {
    size_t n = (size_t)(end - start);
    char *line = strndup(start, n);
    ck_assert_ptr_nonnull(line);
    text_replace(t, (size_t)(end - t->s), 0, line, n);
    free(line);
  }
}

static void mutate(text *t, unsigned *seed) {
  int count = 1 + (int)pick(seed, 3);
  for (int i = 0; i < count; i++) {
    switch (pick(seed, 5)) {
      case 0:
        flip_byte(t, seed);
        break;
      case 1:
        delete_tag(t, seed);
        break;
      case 2:
        swap_values(t, seed);
        break;
      case 3:
        poison_value(t, seed);
        break;
      default:
        duplicate_line(t, seed);
        break;
    }
  }
}

static unsigned long env_or(const char *name, unsigned long def) {
  const char *s = getenv(name);
  return s && *s ? strtoul(s, NULL, 0) : def;
}

START_TEST(random_mutations) {
  ts_alloc_install();
  unsigned seed = (unsigned)env_or("TEAL_URDF_FUZZ_SEED", 0x5eed1234u);
  int trials = (int)env_or("TEAL_URDF_FUZZ_TRIALS", 600);
  seed = seed ? seed : 1u; /* xorshift needs a nonzero state */
  for (int m = 0; m < NUM_MODELS; m++) {
    size_t len;
    char *xml = read_model(m, &len);
    int ok = 0, failed = 0;
    for (int trial = 0; trial < trials; trial++) {
      text t = {strdup(xml), len};
      ck_assert_ptr_nonnull(t.s);
      mutate(&t, &seed);
      if (load_once(t.s)) {
        ok++;
      } else {
        failed++;
      }
      free(t.s);
    }
    /* both outcomes occur: the mutations are neither all harmless nor all fatal */
    ck_assert_int_gt(ok, 0);
    ck_assert_int_gt(failed, 0);
    free(xml);
  }
  /* parse errors, bad values, non-finite numbers, unknown and duplicate names */
  unsigned want = (1u << -TEAL_EPARSE) | (1u << -TEAL_EINVAL) | (1u << -TEAL_ENONFINITE) |
                  (1u << -TEAL_ENOTFOUND) | (1u << -TEAL_EDUPLICATE);
  ck_assert_msg((codes_seen & want) == want, "codes seen: %#x", codes_seen);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_fuzz");
  TCase *tc = tcase_create("fuzz");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, truncated_prefixes);
  tcase_add_test(tc, random_mutations);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
