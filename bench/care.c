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
#include <unistd.h>

#include "common/timing.h"
#include "solvers/dense.h"
#include "solvers/riccati.h"

enum { NSIZES = 4, ROUNDS = 2 };
static const int sizes[NSIZES] = {4, 20, 100, 200};
static const int repeats[NSIZES] = {201, 51, 11, 5};

static unsigned xorshift32(unsigned *s) {
  unsigned x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

static double uniform(unsigned *s) {
  return -1.0 + 2.0 * ((double)xorshift32(s) / 4294967296.0);
}

/* The benchmark's residual: ||lhs||_F / ||X||_F (teal_care_residual divides
 * by max(1, ||X||_F)). */
static double bench_residual(const double *A, const double *B, const double *Q, const double *R,
                             int n, int m, const double *X) {
  double nx = teal_dense_norm_fro(X, n, n);
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

/* ---- one problem size -------------------------------------------------------- */

/* The external solvers and the files they read the problem from. */
typedef struct externals {
  int use;         /* 0 with --no-external */
  external ext[2]; /* octave, scipy */
  int have_files;
  char fa[64], fb[64], fx[64];
} externals;

/* One problem: A (n x n), B (n x m), Q = I, R = I, and the solvers' work. */
typedef struct problem {
  int n, m, reps;
  double *A, *B, *Q, *R, *X, *Xe, *t;
} problem;

static void problem_free(problem *p) {
  free(p->A);
  free(p->B);
  free(p->Q);
  free(p->R);
  free(p->X);
  free(p->Xe);
  free(p->t);
}

/* Allocates size s's problem and draws A then B from seed; 1 when out of
 * memory. */
static int problem_init(problem *p, int s, unsigned *seed) {
  int n = sizes[s], m = n / 2;
  size_t nn = (size_t)n * n;
  p->n = n;
  p->m = m;
  p->reps = repeats[s];
  p->A = malloc(sizeof(double) * nn);
  p->B = malloc(sizeof(double) * (size_t)n * m);
  p->Q = calloc(nn, sizeof(double));
  p->R = calloc((size_t)m * m, sizeof(double));
  p->X = malloc(sizeof(double) * nn);
  p->Xe = malloc(sizeof(double) * nn);
  p->t = malloc(sizeof(double) * (size_t)p->reps);
  if (!p->A || !p->B || !p->Q || !p->R || !p->X || !p->Xe || !p->t) {
    return 1;
  }
  for (size_t i = 0; i < nn; i++) {
    p->A[i] = uniform(seed);
  }
  for (size_t i = 0; i < (size_t)n * m; i++) {
    p->B[i] = uniform(seed);
  }
  for (int i = 0; i < n; i++) {
    p->Q[(size_t)i * n + i] = 1.0;
  }
  for (int i = 0; i < m; i++) {
    p->R[(size_t)i * m + i] = 1.0;
  }
  return 0;
}

/* The figures of one size: per solver (Teal, Octave, SciPy) the best time,
 * the residual and whether it failed. */
typedef struct figures {
  double best[3], res[3];
  int failed[3];
  int files_ok;
  teal_error err;
} figures;

/* ROUNDS rounds of (Teal, Octave, SciPy); each solver's figure is the
 * lowest of its per-round medians, which damps interference from other
 * load on the machine without favouring any solver. */
static void time_solvers(problem *p, const externals *x, figures *f) {
  int n = p->n, m = p->m, reps = p->reps;
  for (int round = 0; round < ROUNDS && !f->failed[0]; round++) {
    for (int r = 0; r < reps && !f->failed[0]; r++) {
      double t0 = bench_now_seconds();
      f->failed[0] = teal_care(p->A, p->B, p->Q, p->R, NULL, n, m, p->X, NULL, &f->err) != TEAL_OK;
      p->t[r] = bench_now_seconds() - t0;
    }
    if (!f->failed[0]) {
      f->best[0] = fmin(f->best[0], bench_median(p->t, reps));
      f->res[0] = bench_residual(p->A, p->B, p->Q, p->R, n, m, p->X);
    }
    for (int e = 0; e < 2 && f->files_ok && !f->failed[0]; e++) {
      if (!x->ext[e].cmd[0] || f->failed[e + 1]) {
        continue;
      }
      remove(x->fx);
      double te = run_external(&x->ext[e], x->fa, x->fb, x->fx, reps);
      if (isnan(te) || read_matrix(x->fx, p->Xe, n * n) != 0) {
        f->failed[e + 1] = 1;
      } else {
        f->best[e + 1] = fmin(f->best[e + 1], te);
        f->res[e + 1] = bench_residual(p->A, p->B, p->Q, p->R, n, m, p->Xe);
      }
    }
  }
}

/* The table row of one size; EXIT_FAILURE when teal_care failed. */
static int print_size(const problem *p, const externals *x, const figures *f) {
  if (f->failed[0]) {
    printf("%5d %4d: teal_care failed: %s\n", p->n, p->m, f->err.message);
    return EXIT_FAILURE;
  }
  printf("%5d %4d %5d | %11.4f %10.2e", p->n, p->m, p->reps, 1e3 * f->best[0], f->res[0]);
  for (int e = 0; e < 2; e++) {
    if (!x->ext[e].cmd[0]) {
      continue;
    }
    if (f->failed[e + 1] || !f->files_ok) {
      printf(" | %11s %10s %8s", "failed", "-", "-");
    } else {
      printf(" | %11.4f %10.2e %8.2f", 1e3 * f->best[e + 1], f->res[e + 1],
             f->best[e + 1] / f->best[0]);
    }
  }
  printf("\n");
  fflush(stdout);
  return EXIT_SUCCESS;
}

/* Solves, times and prints size s: EXIT_SUCCESS, EXIT_FAILURE when
 * teal_care failed, or -1 when out of memory. */
static int bench_size(const externals *x, int s, unsigned *seed) {
  problem p = {0};
  if (problem_init(&p, s, seed)) {
    fprintf(stderr, "bench_care: out of memory\n");
    problem_free(&p);
    return -1;
  }
  int stabilizable = 0;
  double margin = 0.0;
  int rc = teal_is_stabilizable(p.A, p.B, p.n, p.m, 0, -1.0, &stabilizable, &margin, NULL);
  if (rc != TEAL_OK || !stabilizable) {
    printf("%5d: (A, B) not found stabilizable (PBH margin %.3g)\n", p.n, margin);
  }
  figures f = {{INFINITY, INFINITY, INFINITY}, {NAN, NAN, NAN}, {0, 0, 0}, 0, {0}};
  f.files_ok = x->have_files && write_matrix(x->fa, p.A, p.n, p.n) == 0 &&
               write_matrix(x->fb, p.B, p.n, p.m) == 0;
  teal_error_clear(&f.err);
  time_solvers(&p, x, &f);
  int status = print_size(&p, x, &f);
  problem_free(&p);
  return status;
}

/* ---- main ------------------------------------------------------------------ */

/* Finds the external solvers (unless use is 0) and their temporary files. */
static void externals_init(externals *x, int use) {
  x->use = use;
  detect(&x->ext[0], &x->ext[1]);
  if (!use) {
    x->ext[0].cmd[0] = x->ext[1].cmd[0] = '\0';
  }
  x->have_files = 0;
  if ((x->ext[0].cmd[0] || x->ext[1].cmd[0])) {
    x->have_files = make_temp(x->fa, sizeof x->fa, "A") == 0 &&
                    make_temp(x->fb, sizeof x->fb, "B") == 0 &&
                    make_temp(x->fx, sizeof x->fx, "X") == 0;
    if (!x->have_files) {
      fprintf(stderr, "bench_care: cannot create temporary files; external solvers skipped\n");
      x->ext[0].cmd[0] = x->ext[1].cmd[0] = '\0';
    }
  }
}

static void print_header(const externals *x) {
  printf("CARE benchmark: random (A, B) uniform in [-1, 1), m = n/2, Q = I, R = I\n");
  printf(
      "time: median over repeats (lower of %d rounds); residual: "
      "||A'X + XA - XBR^-1B'X + Q||_F / ||X||_F\n",
      ROUNDS);
  for (int e = 0; e < 2; e++) {
    if (!x->use) {
      printf("%s: skipped (--no-external)\n", x->ext[e].name);
    } else if (!x->ext[e].cmd[0]) {
      printf("%s: not installed (needs %s); column omitted\n", x->ext[e].name,
             e == 0 ? "octave with the control package" : "python3 with scipy");
    } else {
      printf("%s: %s\n", x->ext[e].name, x->ext[e].cmd);
    }
  }
  if (!x->ext[0].cmd[0] && !x->ext[1].cmd[0]) {
    printf("no external solver available: Teal's figures only\n");
  }
  printf("\n%5s %4s %5s | %11s %10s", "n", "m", "reps", "teal ms", "residual");
  for (int e = 0; e < 2; e++) {
    if (x->ext[e].cmd[0]) {
      printf(" | %11s %10s %8s", e == 0 ? "octave ms" : "scipy ms", "residual", "t/teal");
    }
  }
  printf("\n");
}

int main(int argc, char **argv) {
  externals x;
  externals_init(&x, !(argc > 1 && strcmp(argv[1], "--no-external") == 0));
  print_header(&x);
  unsigned seed = 20240611u;
  int status = EXIT_SUCCESS;
  for (int s = 0; s < NSIZES; s++) {
    int rc = bench_size(&x, s, &seed);
    if (rc < 0) {
      return EXIT_FAILURE;
    }
    status = rc != EXIT_SUCCESS ? rc : status;
  }
  if (x.have_files) {
    remove(x.fa);
    remove(x.fb);
    remove(x.fx);
  }
  printf("\nt/teal > 1: Teal is faster.\n");
  return status;
}
