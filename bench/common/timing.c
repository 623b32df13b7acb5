/* Timing harness shared by the bench programs (see timing.h). */
#define _POSIX_C_SOURCE 199309L
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

double bench_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *x, int n) {
  qsort(x, (size_t)n, sizeof *x, cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

int bench_batched_calibrate(bench_batched *r, double warmup_s, double batch_s) {
  double t0 = bench_now_seconds(), elapsed;
  int calls = 0;
  do {
    int rc = r->call(r->state, r->calls++);
    if (rc) {
      return rc;
    }
    calls++;
    elapsed = bench_now_seconds() - t0;
  } while (elapsed < warmup_s || calls < 3);
  r->batch = (int)fmin(1e6, fmax(1.0, ceil(batch_s * calls / elapsed)));
  return 0;
}

/* One batch: its time per call goes to r->t. */
static int batched_run(bench_batched *r) {
  double t0 = bench_now_seconds();
  for (int i = 0; i < r->batch; i++) {
    int rc = r->call(r->state, r->calls++);
    if (rc) {
      return rc;
    }
  }
  r->t[r->count++] = (bench_now_seconds() - t0) / r->batch;
  return 0;
}

int bench_batched_interleave(bench_batched *rows, int nrows, int min_batches, double budget_s) {
  double t0 = bench_now_seconds();
  for (int b = 0; b < BENCH_MAX_BATCHES; b++) {
    if (b >= min_batches && bench_now_seconds() - t0 > budget_s) {
      break;
    }
    for (int k = 0; k < nrows; k++) {
      if (rows[k].state && batched_run(&rows[k])) {
        return 1;
      }
    }
  }
  return 0;
}
