/** @file
 * Random source (Drake's RandomSource): a vector of independent random
 * numbers, held between samples and redrawn every `period` seconds.
 *
 * Generator: xoshiro256** (Blackman and Vigna, 2018), seeded by running
 * splitmix64 from the 64-bit seed to fill its four state words. Uniform
 * samples are (x >> 11) * 2^-53 in [0, 1). Gaussian samples use the
 * Box-Muller transform on pairs of uniforms (u1, u2):
 * @code{.unparsed}
 *     r = sqrt(-2 ln(1 - u1)),  z0 = r cos(2 pi u2),  z1 = r sin(2 pi u2),
 * @endcode
 * filling components 2j and 2j+1 (an odd last component uses z0 of a fresh
 * pair and drops z1): a gaussian sample of n values takes 2 ceil(n/2)
 * draws, a uniform one n.
 *
 * Ports: output "y" (n), depending on the discrete state only. State:
 * discrete group 0 holds the current sample; abstract state 0 holds the
 * generator (a teal_rng, 32 bytes, plain copy). Both are per-context, so
 * contexts made from the same system produce the same sequence, and a
 * cloned context continues exactly where its source was.
 *
 * Timing: the default state already holds sample 0, drawn from the seed,
 * so sample 0 is the output on [0, period). A periodic unrestricted update
 * at k * period (k = 1, 2, ...) draws sample k. Starting the updates at
 * `period` rather than 0 keeps sample k on [k period, (k+1) period) both
 * on the simulator (which handles events due at its start time) and when
 * events are driven by hand from t = 0. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_RANDOM_SOURCE_H
#define TEAL_SYSTEMS_PRIMITIVES_RANDOM_SOURCE_H

#include "teal_export.h"
#include <stdint.h>

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Distribution of the samples. */
typedef enum teal_noise_kind {
  TEAL_NOISE_UNIFORM = 0,  /**< uniform on [0, 1) */
  TEAL_NOISE_GAUSSIAN = 1  /**< standard normal N(0, 1) */
} teal_noise_kind;

/** State of a xoshiro256** generator (never all zero). */
typedef struct teal_rng {
  uint64_t s[4]; /**< the generator's four state words */
} teal_rng;

/** One step of splitmix64: advances *state by the golden-ratio increment
 *  and returns the mixed value. */
TEAL_API uint64_t teal_splitmix64_next(uint64_t *state);

/** Seeds rng: its four words are four splitmix64 outputs from seed. */
TEAL_API void teal_rng_seed(teal_rng *rng, uint64_t seed);

/** Next 64-bit output of xoshiro256**. */
TEAL_API uint64_t teal_rng_next(teal_rng *rng);

/** Uniform double in [0, 1) from the top 53 bits of one output. */
TEAL_API double teal_rng_uniform(teal_rng *rng);

/** Fills out[0..n) with samples of kind (see the Box-Muller layout above). */
TEAL_API void teal_rng_fill(teal_rng *rng, teal_noise_kind kind, double *out, int n);

/** Creates a finalized random source of n >= 1 values of the given kind,
 *  redrawn every period seconds (finite, > 0), from seed. Returns NULL with
 *  err (may be NULL) set: TEAL_ESIZE (n), TEAL_EINVAL (unknown kind,
 *  period <= 0), TEAL_ENONFINITE (NaN/Inf period), TEAL_ENOMEM. */
TEAL_API teal_system *teal_random_source_new(const char *name, teal_noise_kind kind, int n,
                                             double period, uint64_t seed, teal_error *err);

/** Restarts the sequence of source sys in ctx (its own context or one of a
 *  diagram containing it) from seed, as a fresh context of a source built
 *  with that seed would be: the generator is reseeded and the current
 *  sample becomes sample 0 of the new sequence. TEAL_EINVAL for NULL
 *  arguments or when sys is not a random source, TEAL_ENOTFOUND when sys
 *  is not in ctx. */
TEAL_API int teal_random_source_set_seed(const teal_system *sys, teal_context *ctx, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
