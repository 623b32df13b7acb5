/* Timing harness shared by the bench programs: a monotonic clock, medians,
 * and kernels timed in interleaved batches (every kernel runs one batch in
 * turn, so that load drifting on a shared machine affects all of them
 * alike; each kernel's figure is the median time per call over its
 * batches). */
#ifndef TEAL_BENCH_COMMON_TIMING_H
#define TEAL_BENCH_COMMON_TIMING_H

/* Seconds on the monotonic clock. */
double bench_now_seconds(void);

/* The median of x[0..n) (sorts x in place). */
double bench_median(double *x, int n);

/* The most batches one kernel keeps. */
#define BENCH_MAX_BATCHES 301

/* One kernel being timed: call runs it once (call counts the calls, e.g.
 * to alternate a perturbation) and returns nonzero on failure. A row with
 * a NULL state is skipped. t[0..count) holds the time per call of each
 * batch. */
typedef struct bench_batched {
  int (*call)(void *state, int call);
  void *state;
  int batch, calls, count;
  double t[BENCH_MAX_BATCHES];
} bench_batched;

/* Warms the kernel up for at least warmup_s (and 3 calls) and sizes its
 * batches to about batch_s (1 to 10^6 calls). Returns the kernel's status. */
int bench_batched_calibrate(bench_batched *r, double warmup_s, double batch_s);

/* Runs one batch of every row with a state, in turn, for up to
 * BENCH_MAX_BATCHES rounds, stopping once min_batches rounds are done and
 * more than budget_s has passed. Returns 1 when a kernel failed. */
int bench_batched_interleave(bench_batched *rows, int nrows, int min_batches, double budget_s);

#endif
