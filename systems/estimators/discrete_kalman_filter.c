/* The time-varying discrete Kalman filter (see discrete_kalman_filter.h):
 * the predictor-form recursion on xhat and P, in a per-context work area. */
#include "systems/estimators/discrete_kalman_filter.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/context_access.h"
#include "framework/leaf_events.h"
#include "framework/leaf_system.h"
#include "framework/leaf_util.h"
#include "framework/ports.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_factor.h"

static const char k_kind[] = "discrete_kalman_filter";

/* The largest nx, nu and ny: every size product below then fits an int. */
#define KF_MAX_SIZE 4096

enum { PORT_Y = 0, PORT_U = 1 };

typedef struct kf_data {
  int nx, nu, ny, scratch;
  double period;
  double *A, *B, *f0, *C, *D, *y0, *W, *V; /* into storage */
  double storage[];
} kf_data;

/* ---- the per-context work area --------------------------------------------------- */

typedef struct kf_work {
  size_t n;
  double *w;
} kf_work;

static void work_free(void *value) {
  kf_work *k = value;
  teal_free(k->w);
  k->w = NULL;
  k->n = 0;
}

/* Working memory only: a destination with room keeps its own. */
static int work_copy(void *dst, const void *src) {
  kf_work *d = dst;
  const kf_work *s = src;
  if (d->n >= s->n) {
    return TEAL_OK;
  }
  work_free(d);
  d->w = teal_calloc(s->n, sizeof(double));
  d->n = d->w ? s->n : 0;
  return d->w ? TEAL_OK : TEAL_ENOMEM;
}

static const teal_value_type k_work_type = {"teal_discrete_kalman_filter_work", sizeof(kf_work),
                                            NULL, work_copy, work_free};

static size_t work_size(int nx, int ny) {
  return 3 * (size_t)ny * (size_t)nx + (size_t)ny * (size_t)ny + (size_t)nx * (size_t)nx +
         (size_t)ny + 1;
}

/* ---- the recursion ------------------------------------------------------------------ */

/* out (r x c) = X (r x k) Y' (c x k), all row-major. */
static void mul_transposed(const double *X, const double *Y, int r, int k, int c, double *out) {
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++) {
      double s = 0;
      for (int l = 0; l < k; l++) {
        s += X[i * k + l] * Y[j * k + l];
      }
      out[i * c + j] = s;
    }
  }
}

/* The gain K = A P C' S^-1 (nx x ny) with H = C P A' and S = C P C' + V. */
static int gain(const teal_system *sys, const teal_context *ctx, const kf_data *d, const double *P,
                double *w, double **K, double **H, double **S) {
  const int nx = d->nx, ny = d->ny;
  double *CP = w;
  *H = CP + ny * nx;
  *K = *H + ny * nx;
  *S = *K + nx * ny;
  mul_transposed(d->C, P, ny, nx, nx, CP);  /* C P' = C P, P symmetric */
  mul_transposed(CP, d->C, ny, nx, ny, *S); /* C P C' */
  mul_transposed(CP, d->A, ny, nx, nx, *H); /* C P A' */
  for (int i = 0; i < ny * ny; i++) {
    (*S)[i] += d->V[i];
  }
  for (int i = 0; i < ny; i++) {
    for (int j = 0; j < nx; j++) {
      (*K)[j * ny + i] = (*H)[i * nx + j]; /* H' */
    }
  }
  teal_error e;
  int rc = teal_dense_spd_solve_transposed(*S, ny, *K, nx, &e); /* H' S^-1 */
  return rc ? teal_context_report_error(ctx, rc, "%s '%s': C P C' + V: %s", k_kind,
                                        teal_system_name(sys), e.message)
            : TEAL_OK;
}

/* xhat+ = A xhat + B u + f0 + K (y - C xhat - D u - y0). */
static void next_estimate(const kf_data *d, const double *x, const double *u, const double *y,
                          const double *K, double *e, double *next) {
  for (int i = 0; i < d->ny; i++) {
    double s = y[i] - d->y0[i];
    for (int j = 0; j < d->nx; j++) {
      s -= d->C[i * d->nx + j] * x[j];
    }
    for (int j = 0; j < d->nu; j++) {
      s -= d->D[i * d->nu + j] * u[j];
    }
    e[i] = s;
  }
  for (int i = 0; i < d->nx; i++) {
    double s = d->f0[i];
    for (int j = 0; j < d->nx; j++) {
      s += d->A[i * d->nx + j] * x[j];
    }
    for (int j = 0; j < d->nu; j++) {
      s += d->B[i * d->nu + j] * u[j];
    }
    for (int j = 0; j < d->ny; j++) {
      s += K[i * d->ny + j] * e[j];
    }
    next[i] = s;
  }
}

/* P+ = A P A' + W - K H (K S K' = K H, as K S = H'), symmetrized. */
static void next_covariance(const kf_data *d, const double *P, const double *K, const double *H,
                            double *AP, double *next) {
  const int nx = d->nx;
  mul_transposed(d->A, P, nx, nx, nx, AP); /* A P (P symmetric) */
  mul_transposed(AP, d->A, nx, nx, nx, next);
  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < nx; j++) {
      double kh = 0;
      for (int l = 0; l < d->ny; l++) {
        kh += K[i * d->ny + l] * H[l * nx + j];
      }
      next[i * nx + j] += d->W[i * nx + j] - kh;
    }
  }
  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < i; j++) {
      double s = 0.5 * (next[i * nx + j] + next[j * nx + i]);
      next[i * nx + j] = next[j * nx + i] = s;
    }
  }
}

static int kf_update(const teal_system *sys, const teal_context *ctx, double *next, void *user) {
  const kf_data *d = user;
  const double *y, *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, PORT_Y, &y);
  if (rc == TEAL_OK && d->nu > 0) {
    rc = teal_eval_vector_input(sys, ctx, PORT_U, &u);
  }
  kf_work *k = teal_context_scratch_mut(ctx, d->scratch);
  double *K, *H, *S;
  const double *x = teal_context_discrete_group(ctx, 0), *P = teal_context_discrete_group(ctx, 1);
  if (rc || (rc = gain(sys, ctx, d, P, k->w, &K, &H, &S))) {
    return rc;
  }
  double *AP = S + d->ny * d->ny, *e = AP + d->nx * d->nx;
  next_estimate(d, x, u, y, K, e, next);
  next_covariance(d, P, K, H, AP, next + d->nx);
  return TEAL_OK;
}

static int output_group(const teal_context *ctx, int group, int n, double *out) {
  memcpy(out, teal_context_discrete_group(ctx, group), (size_t)n * sizeof(double));
  return TEAL_OK;
}
static int output_estimate(const teal_system *sys, const teal_context *ctx, double *out,
                           void *user) {
  (void)sys;
  return output_group(ctx, 0, ((const kf_data *)user)->nx, out);
}
static int output_covariance(const teal_system *sys, const teal_context *ctx, double *out,
                             void *user) {
  (void)sys;
  const kf_data *d = user;
  return output_group(ctx, 1, d->nx * d->nx, out);
}

/* ---- construction ------------------------------------------------------------------ */

/* The model: discrete, with state and output, its matrices present. */
static int check_model(const char *name, const teal_linear_system_matrices *m, const double *W,
                       const double *V, teal_error *err) {
  const char *nm = teal_leaf_util_name(name);
  if (!m || !W || !V) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': NULL %s", k_kind, nm,
                          !m   ? "system matrices"
                          : !W ? "W"
                               : "V");
  }
  if (!(m->time_period > 0)) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s '%s': the system is not discrete (time_period = %g); use the "
                          "steady-state filter of kalman_filter.h for a continuous one",
                          k_kind, nm, m->time_period);
  }
  if (m->nx < 1 || m->ny < 1 || m->nu < 0) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': needs state and output (nx = %d, ny = %d)",
                          k_kind, nm, m->nx, m->ny);
  }
  if (m->nx > KF_MAX_SIZE || m->ny > KF_MAX_SIZE || m->nu > KF_MAX_SIZE) {
    return teal_error_set(err, TEAL_ESIZE,
                          "%s '%s': nx = %d, nu = %d, ny = %d: each must be at most %d (the filter "
                          "keeps dense nx x nx matrices)",
                          k_kind, nm, m->nx, m->nu, m->ny, KF_MAX_SIZE);
  }
  if (!m->A || !m->C || (m->nu > 0 && !m->B)) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': NULL %s", k_kind, nm,
                          !m->A   ? "A"
                          : !m->C ? "C"
                                  : "B");
  }
  return TEAL_OK;
}

/* Finite entries everywhere, W, V and P0 symmetric, V positive definite. */
static int check_values(const char *name, const teal_linear_system_matrices *m, const double *W,
                        const double *V, const double *x0, const double *P0, teal_error *err) {
  const int nx = m->nx, nu = m->nu, ny = m->ny;
  const struct {
    const char *what;
    const double *v;
    int n, square;
  } parts[] = {{"A", m->A, nx * nx, 0}, {"B", m->B, nx * nu, 0}, {"f0", m->f0, nx, 0},
               {"C", m->C, ny * nx, 0}, {"D", m->D, ny * nu, 0}, {"y0", m->y0, ny, 0},
               {"W", W, nx, 1},         {"V", V, ny, 1},         {"xhat0", x0, nx, 0},
               {"P0", P0, nx, 1}};
  int rc = TEAL_OK;
  for (size_t i = 0; rc == TEAL_OK && i < sizeof parts / sizeof parts[0]; i++) {
    int n = parts[i].square ? parts[i].n * parts[i].n : parts[i].n;
    rc = parts[i].v ? teal_leaf_util_check_finite(err, k_kind, name, parts[i].what, parts[i].v, n)
                    : TEAL_OK;
    if (rc == TEAL_OK && parts[i].v && parts[i].square &&
        !teal_dense_is_symmetric(parts[i].v, parts[i].n, 1e-12)) {
      rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': %s is not symmetric", k_kind,
                          teal_leaf_util_name(name), parts[i].what);
    }
  }
  double *F =
      rc ? NULL : teal_leaf_util_alloc((size_t)ny * (size_t)ny * sizeof(double), err, k_kind, name);
  if (F) {
    memcpy(F, V, (size_t)ny * (size_t)ny * sizeof(double));
    if (teal_dense_spd_solve_transposed(F, ny, NULL, 0, NULL) != TEAL_OK) {
      rc = teal_error_set(err, TEAL_ESINGULAR, "%s '%s': V is not positive definite", k_kind,
                          teal_leaf_util_name(name));
    }
    teal_free(F);
  }
  return rc ? rc : F ? TEAL_OK : TEAL_ENOMEM;
}

/* Copies n values of src (NULL: zeros) to *at and advances it. */
static double *take(double **at, const double *src, int n) {
  double *p = *at;
  teal_leaf_util_copy(p, src, n);
  *at += n;
  return p;
}

static kf_data *make_data(const char *name, const teal_linear_system_matrices *m, const double *W,
                          const double *V, teal_error *err) {
  const int nx = m->nx, nu = m->nu, ny = m->ny;
  size_t n = (size_t)(2 * nx * nx + nx * nu + nx + ny * nx + ny * nu + ny + ny * ny);
  kf_data *d = teal_leaf_util_alloc(sizeof *d + n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->nx = nx, d->nu = nu, d->ny = ny, d->period = m->time_period;
  double *at = d->storage;
  d->A = take(&at, m->A, nx * nx);
  d->B = take(&at, m->B, nx * nu);
  d->f0 = take(&at, m->f0, nx);
  d->C = take(&at, m->C, ny * nx);
  d->D = take(&at, m->D, ny * nu);
  d->y0 = take(&at, m->y0, ny);
  d->W = take(&at, W, nx * nx);
  d->V = take(&at, V, ny * ny);
  return d;
}

static void declare(teal_system *sys, kf_data *d, const double *x0, const double *P0) {
  teal_leaf_declare_vector_input(sys, "observed_system_output", d->ny);
  if (d->nu > 0) {
    teal_leaf_declare_vector_input(sys, "observed_system_input", d->nu);
  }
  teal_leaf_declare_discrete_state(sys, d->nx, x0);
  teal_leaf_declare_discrete_state(sys, d->nx * d->nx, P0 ? P0 : d->W);
  kf_work model = {work_size(d->nx, d->ny), NULL};
  d->scratch = teal_leaf_declare_scratch(sys, "kalman_work", &k_work_type, &model);
  teal_ticket xhat = teal_ticket_discrete(0), P = teal_ticket_discrete(1);
  teal_leaf_declare_vector_output(sys, "estimated_state", d->nx, output_estimate, d, &xhat, 1);
  teal_leaf_declare_vector_output(sys, "error_covariance", d->nx * d->nx, output_covariance, d, &P,
                                  1);
  teal_leaf_declare_periodic_discrete_update(sys, d->period, 0.0, kf_update, d);
}

teal_system *teal_discrete_kalman_filter_new(const char *name, const teal_linear_system_matrices *m,
                                             const double *W, const double *V, const double *xhat0,
                                             const double *P0, teal_error *err) {
  if (check_model(name, m, W, V, err) || check_values(name, m, W, V, xhat0, P0, err)) {
    return NULL;
  }
  kf_data *d = make_data(name, m, W, V, err);
  teal_system *sys = d ? teal_leaf_util_new(name, d, teal_free, err) : NULL;
  if (sys) {
    declare(sys, d, xhat0, P0);
  }
  return sys ? teal_leaf_util_finish(sys, err) : NULL;
}
