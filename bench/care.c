/* CARE benchmark: teal_care against Octave's care (control package, SLICOT
 * SB02OD) and SciPy's solve_continuous_are, when those are installed.
 *
 * Problems: for n = 4, 20, 100, 200 and m = n/2, A (n x n) and B (n x m)
 * have independent entries uniform in [-1, 1) drawn from a xorshift32
 * generator (seed 20240611, consumed in the order A then B, row by row,
 * carried from one size to the next); Q = I, R = I. Such (A, B) are
 * controllable with probability one; A is typically unstable (about half
 * its eigenvalues in the right half plane), and stabilizability is checked
 * with the PBH test teal_is_stabilizable (the rank test on the
 * controllability matrix is meaningless at n = 100: the Krylov matrix is
 * numerically rank deficient).
 *
 * Each solver is timed on the same problem over several repeats, in
 * ROUNDS alternating rounds, and the lowest per-round median is reported.
 * The relative residual
 *   ||A'X + XA - X B R^-1 B'X + Q||_F / ||X||_F
 * is computed here, in C, for every solver's X (Octave and SciPy write
 * theirs to a file with 17 significant digits), so all three are measured
 * the same way. The external solvers run as child processes
 * (`octave --no-gui --quiet --eval ...`, `python3 -c ...`) that load the
 * problem from temporary files; their times are measured inside those
 * processes (tic/toc, time.perf_counter) and exclude start-up and I/O.
 *
 * Usage: bench_care [--no-external] */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "solvers/dense.h"
#include "solvers/riccati.h"

enum { NSIZES = 4, ROUNDS = 2 };
static const int sizes[NSIZES] = {4, 20, 100, 200};
static const int repeats[NSIZES] = {201, 51, 11, 5};

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned xorshift32(unsigned *s) {
  unsigned x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

static double uniform(unsigned *s) { return -1.0 + 2.0 * ((double)xorshift32(s) / 4294967296.0); }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int k) {
  qsort(v, (size_t)k, sizeof *v, cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* The benchmark's residual: ||lhs||_F / ||X||_F (teal_care_residual divides
 * by max(1, ||X||_F)). */
static double bench_residual(const double *A, const double *B, const double *Q, const double *R,
                             int n, int m, const double *X) {
  double nx = teal_norm_fro(X, n, n);
  return teal_care_residual(A, B, Q, R, NULL, n, m, X) * fmax(1.0, nx) / nx;
}

/* ---- external solvers ------------------------------------------------------ */

typedef struct external {
  const char *name;
  char cmd[160]; /* interpreter command line, empty when unavailable */
} external;

static int command_ok(const char *cmd) {
  char line[512];
  snprintf(line, sizeof line, "%s >/dev/null 2>&1", cmd);
  return system(line) == 0;
}

static void detect(external *octave, external *scipy) {
  octave->name = "octave";
  scipy->name = "scipy";
  octave->cmd[0] = scipy->cmd[0] = '\0';
  if (command_ok("octave --no-gui --quiet --eval 'pkg load control; exit(0)'")) {
    snprintf(octave->cmd, sizeof octave->cmd, "octave --no-gui --quiet --eval");
  }
  /* python3 first; the system interpreter too, where python3 is a version
   * manager's shim without SciPy */
  static const char *const pythons[] = {"python3", "/usr/bin/python3"};
  for (size_t i = 0; i < sizeof pythons / sizeof *pythons && !scipy->cmd[0]; i++) {
    char probe[256];
    snprintf(probe, sizeof probe, "%s -c 'import scipy.linalg'", pythons[i]);
    if (command_ok(probe)) {
      snprintf(scipy->cmd, sizeof scipy->cmd, "%s -c", pythons[i]);
    }
  }
}

static int write_matrix(const char *path, const double *M, int r, int c) {
  FILE *f = fopen(path, "w");
  if (!f) {
    return -1;
  }
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++) {
      fprintf(f, "%.17g%c", M[(size_t)i * c + j], j + 1 < c ? ' ' : '\n');
    }
  }
  return fclose(f);
}

static int read_matrix(const char *path, double *M, int count) {
  FILE *f = fopen(path, "r");
  if (!f) {
    return -1;
  }
  int ok = 1;
  for (int i = 0; i < count && ok; i++) {
    ok = fscanf(f, "%lf", &M[i]) == 1;
  }
  fclose(f);
  return ok ? 0 : -1;
}

/* Runs one external solver on the problem in files fa, fb; X goes to fx.
 * Returns the median time in seconds (NAN on failure). */
static double run_external(const external *ext, const char *fa, const char *fb, const char *fx,
                           int reps) {
  char script[1024], line[1536];
  if (strcmp(ext->name, "octave") == 0) {
    snprintf(script, sizeof script,
             "pkg load control; A = load('%s'); B = load('%s'); n = rows(A); m = columns(B); "
             "t = zeros(%d, 1); for k = 1:%d, tic; X = care(A, B, eye(n), eye(m)); "
             "t(k) = toc; end; f = fopen('%s', 'w'); fprintf(f, '%%.17g\\n', X.'); fclose(f); "
             "printf('%%.9g\\n', median(t));",
             fa, fb, reps, reps, fx);
  } else {
    snprintf(script, sizeof script,
             "import time, numpy as np, scipy.linalg as sl\n"
             "A = np.loadtxt('%s', ndmin=2); B = np.loadtxt('%s', ndmin=2); n, m = B.shape\n"
             "ts = []\n"
             "for k in range(%d):\n"
             "    t = time.perf_counter(); X = sl.solve_continuous_are(A, B, np.eye(n), "
             "np.eye(m)); ts.append(time.perf_counter() - t)\n"
             "np.savetxt('%s', X.ravel(), fmt='%%.17g'); print('%%.9g' %% np.median(ts))\n",
             fa, fb, reps, fx);
  }
  snprintf(line, sizeof line, "%s \"%s\" 2>/dev/null", ext->cmd, script);
  FILE *p = popen(line, "r");
  if (!p) {
    return NAN;
  }
  double t = NAN;
  char out[256];
  while (fgets(out, sizeof out, p)) {
    double v;
    if (sscanf(out, "%lf", &v) == 1) {
      t = v;
    }
  }
  int status = pclose(p);
  return status == 0 ? t : NAN;
}

static int make_temp(char *path, size_t size, const char *tag) {
  snprintf(path, size, "/tmp/teal_bench_care_%s_XXXXXX", tag);
  int fd = mkstemp(path);
  if (fd < 0) {
    return -1;
  }
  close(fd);
  return 0;
}

/* ---- main ------------------------------------------------------------------ */

int main(int argc, char **argv) {
  int use_external = !(argc > 1 && strcmp(argv[1], "--no-external") == 0);
  external ext[2];
  detect(&ext[0], &ext[1]);
  if (!use_external) {
    ext[0].cmd[0] = ext[1].cmd[0] = '\0';
  }
  char fa[64], fb[64], fx[64];
  int have_files = 0;
  if ((ext[0].cmd[0] || ext[1].cmd[0])) {
    have_files = make_temp(fa, sizeof fa, "A") == 0 && make_temp(fb, sizeof fb, "B") == 0 &&
                 make_temp(fx, sizeof fx, "X") == 0;
    if (!have_files) {
      fprintf(stderr, "bench_care: cannot create temporary files; external solvers skipped\n");
      ext[0].cmd[0] = ext[1].cmd[0] = '\0';
    }
  }
  printf("CARE benchmark: random (A, B) uniform in [-1, 1), m = n/2, Q = I, R = I\n");
  printf("time: median over repeats (lower of %d rounds); residual: "
         "||A'X + XA - XBR^-1B'X + Q||_F / ||X||_F\n", ROUNDS);
  for (int e = 0; e < 2; e++) {
    if (!use_external) {
      printf("%s: skipped (--no-external)\n", ext[e].name);
    } else if (!ext[e].cmd[0]) {
      printf("%s: not installed (needs %s); column omitted\n", ext[e].name,
             e == 0 ? "octave with the control package" : "python3 with scipy");
    } else {
      printf("%s: %s\n", ext[e].name, ext[e].cmd);
    }
  }
  if (!ext[0].cmd[0] && !ext[1].cmd[0]) {
    printf("no external solver available: Teal's figures only\n");
  }
  printf("\n%5s %4s %5s | %11s %10s", "n", "m", "reps", "teal ms", "residual");
  for (int e = 0; e < 2; e++) {
    if (ext[e].cmd[0]) {
      printf(" | %11s %10s %8s", e == 0 ? "octave ms" : "scipy ms", "residual", "t/teal");
    }
  }
  printf("\n");

  unsigned seed = 20240611u;
  int status = EXIT_SUCCESS;
  for (int s = 0; s < NSIZES; s++) {
    int n = sizes[s], m = n / 2, reps = repeats[s];
    size_t nn = (size_t)n * n;
    double *A = malloc(sizeof(double) * nn), *B = malloc(sizeof(double) * (size_t)n * m);
    double *Q = calloc(nn, sizeof(double)), *R = calloc((size_t)m * m, sizeof(double));
    double *X = malloc(sizeof(double) * nn), *Xe = malloc(sizeof(double) * nn);
    double *t = malloc(sizeof(double) * (size_t)reps);
    if (!A || !B || !Q || !R || !X || !Xe || !t) {
      fprintf(stderr, "bench_care: out of memory\n");
      return EXIT_FAILURE;
    }
    for (size_t i = 0; i < nn; i++) {
      A[i] = uniform(&seed);
    }
    for (size_t i = 0; i < (size_t)n * m; i++) {
      B[i] = uniform(&seed);
    }
    for (int i = 0; i < n; i++) {
      Q[(size_t)i * n + i] = 1.0;
    }
    for (int i = 0; i < m; i++) {
      R[(size_t)i * m + i] = 1.0;
    }
    int stabilizable = 0;
    double margin = 0.0;
    if (teal_is_stabilizable(A, B, n, m, 0, -1.0, &stabilizable, &margin, NULL) != TEAL_OK ||
        !stabilizable) {
      printf("%5d: (A, B) not found stabilizable (PBH margin %.3g)\n", n, margin);
    }
    /* ROUNDS rounds of (Teal, Octave, SciPy); each solver's figure is the
     * lowest of its per-round medians, which damps interference from other
     * load on the machine without favouring any solver. */
    double best[3] = {INFINITY, INFINITY, INFINITY}, res[3] = {NAN, NAN, NAN};
    int failed[3] = {0, 0, 0};
    int files_ok = have_files && write_matrix(fa, A, n, n) == 0 && write_matrix(fb, B, n, m) == 0;
    teal_error err;
    teal_error_clear(&err);
    for (int round = 0; round < ROUNDS && !failed[0]; round++) {
      for (int r = 0; r < reps && !failed[0]; r++) {
        double t0 = now_seconds();
        failed[0] = teal_care(A, B, Q, R, NULL, n, m, X, NULL, &err) != TEAL_OK;
        t[r] = now_seconds() - t0;
      }
      if (!failed[0]) {
        best[0] = fmin(best[0], median(t, reps));
        res[0] = bench_residual(A, B, Q, R, n, m, X);
      }
      for (int e = 0; e < 2 && files_ok && !failed[0]; e++) {
        if (!ext[e].cmd[0] || failed[e + 1]) {
          continue;
        }
        remove(fx);
        double te = run_external(&ext[e], fa, fb, fx, reps);
        if (isnan(te) || read_matrix(fx, Xe, n * n) != 0) {
          failed[e + 1] = 1;
        } else {
          best[e + 1] = fmin(best[e + 1], te);
          res[e + 1] = bench_residual(A, B, Q, R, n, m, Xe);
        }
      }
    }
    if (failed[0]) {
      printf("%5d %4d: teal_care failed: %s\n", n, m, err.message);
      status = EXIT_FAILURE;
    } else {
      printf("%5d %4d %5d | %11.4f %10.2e", n, m, reps, 1e3 * best[0], res[0]);
      for (int e = 0; e < 2; e++) {
        if (!ext[e].cmd[0]) {
          continue;
        }
        if (failed[e + 1] || !files_ok) {
          printf(" | %11s %10s %8s", "failed", "-", "-");
        } else {
          printf(" | %11.4f %10.2e %8.2f", 1e3 * best[e + 1], res[e + 1], best[e + 1] / best[0]);
        }
      }
      printf("\n");
      fflush(stdout);
    }
    free(A);
    free(B);
    free(Q);
    free(R);
    free(X);
    free(Xe);
    free(t);
  }
  if (have_files) {
    remove(fa);
    remove(fb);
    remove(fx);
  }
  printf("\nt/teal > 1: Teal is faster.\n");
  return status;
}
