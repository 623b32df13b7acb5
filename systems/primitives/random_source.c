/* Random source: xoshiro256** generator in abstract state, the current
 * sample in discrete state, redrawn by a periodic unrestricted update. */
#include "systems/primitives/random_source.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"
#include "framework/ticket.h"
#include "framework/value.h"

/* ---- generator --------------------------------------------------------- */

uint64_t teal_splitmix64_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void teal_rng_seed(teal_rng *rng, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) {
    rng->s[i] = teal_splitmix64_next(&x);
  }
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t teal_rng_next(teal_rng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5u, 7) * 9u;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double teal_rng_uniform(teal_rng *rng) {
  return (double)(teal_rng_next(rng) >> 11) * 0x1.0p-53;
}

/* Two independent standard normals from two uniforms (Box-Muller). */
static void gaussian_pair(teal_rng *rng, double *z0, double *z1) {
  static const double two_pi = 6.283185307179586476925286766559;
  double u1 = teal_rng_uniform(rng), u2 = teal_rng_uniform(rng);
  double r = sqrt(-2.0 * log(1.0 - u1)); /* 1 - u1 is in (0, 1] */
  *z0 = r * cos(two_pi * u2);
  *z1 = r * sin(two_pi * u2);
}

void teal_rng_fill(teal_rng *rng, teal_noise_kind kind, double *out, int n) {
  if (kind == TEAL_NOISE_UNIFORM) {
    for (int i = 0; i < n; i++) {
      out[i] = teal_rng_uniform(rng);
    }
    return;
  }
  for (int i = 0; i < n; i += 2) {
    double z0, z1;
    gaussian_pair(rng, &z0, &z1);
    out[i] = z0;
    if (i + 1 < n) {
      out[i + 1] = z1;
    }
  }
}

/* ---- the system -------------------------------------------------------- */

static const char k_kind[] = "random_source";

/** The generator as an abstract state value (plain bytes: copy is memcpy). */
static const teal_value_type rng_type = {"teal_rng", sizeof(teal_rng), NULL, NULL, NULL};

typedef struct source_data {
  teal_noise_kind kind;
  int n;
} source_data;

static int check_params(const char *name, teal_noise_kind kind, int n, double period,
                        teal_error *err) {
  if (kind != TEAL_NOISE_UNIFORM && kind != TEAL_NOISE_GAUSSIAN) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': unknown noise kind %d", k_kind,
                          teal_leaf_util_name(name), (int)kind);
  }
  int rc = teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1);
  if (rc == TEAL_OK) {
    rc = teal_leaf_util_check_period(err, k_kind, name, period);
  }
  return rc;
}

static int source_output(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user) {
  (void)sys;
  const source_data *d = user;
  memcpy(out, teal_context_discrete_group(ctx, 0), (size_t)d->n * sizeof *out);
  return TEAL_OK;
}

/* next holds the current state on entry: advance its generator in place. */
static int source_update(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                         void *user) {
  (void)sys;
  (void)ctx;
  const source_data *d = user;
  teal_rng_fill(next->xa[0], d->kind, next->xd, d->n);
  return TEAL_OK;
}

/* Declares the state with sample 0 of seed as its default; sample is
 * scratch space of n doubles. */
static void declare(teal_system *sys, const source_data *d, double period, uint64_t seed,
                    double *sample) {
  teal_rng rng;
  teal_rng_seed(&rng, seed);
  teal_rng_fill(&rng, d->kind, sample, d->n);
  teal_ticket sample_only = teal_ticket_discrete(0);
  teal_leaf_declare_discrete_state(sys, d->n, sample);
  teal_leaf_declare_abstract_state(sys, &rng_type, &rng);
  teal_leaf_declare_vector_output(sys, "y", d->n, source_output, (void *)d, &sample_only, 1);
  teal_leaf_declare_periodic_unrestricted_update(sys, period, period, source_update,
                                                 (void *)d);
}

teal_system *teal_random_source_new(const char *name, teal_noise_kind kind, int n,
                                    double period, uint64_t seed, teal_error *err) {
  if (check_params(name, kind, n, period, err)) {
    return NULL;
  }
  source_data *d = teal_leaf_util_alloc(sizeof *d, err, k_kind, name);
  double *sample = d ? teal_leaf_util_alloc((size_t)n * sizeof *sample, err, k_kind, name) : NULL;
  if (!sample) {
    teal_free(d);
    return NULL;
  }
  d->kind = kind;
  d->n = n;
  teal_system *sys = teal_leaf_new(name, d, teal_free); /* frees d on failure */
  if (sys) {
    declare(sys, d, period, seed, sample);
  }
  teal_free(sample);
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

int teal_random_source_set_seed(const teal_system *sys, teal_context *ctx, uint64_t seed) {
  int rc;
  teal_context *own = teal_leaf_util_own_context_mut(sys, k_kind, ctx, &rc);
  if (!own) {
    return teal_leaf_util_bad_call(sys, ctx, rc, k_kind, "a random source", "set_seed", "");
  }
  const source_data *d = teal_system_user(sys);
  teal_rng *rng = teal_context_abstract_state_mut(own, 0);
  double *sample = teal_context_discrete_group_mut(own, 0);
  teal_rng_seed(rng, seed);
  teal_rng_fill(rng, d->kind, sample, d->n);
  return TEAL_OK;
}
