/* Finite-horizon LQR of a continuous plant: the Riccati differential
 * equations integrated backward in reversed time tau = tf - t,
 *   dS/dtau  = Q + S A + A'S - (S B + N) R^-1 (B'S + N'),   S(tau = 0) = Qf,
 *   dsx/dtau = (A - B K)'sx + S c,   ds0/dtau = 2 sx'c - k0'R k0,
 * for the state [S; sx; s0] by Dormand-Prince 5(4) with error control, each
 * accepted step becoming one cubic segment of S, sx, s0, K and k0. Steps
 * end on the nominal's breaks, where A(t), B(t) and c(t) may have kinks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_factor.h"
#include "systems/analysis/integrator.h"
#include "systems/controllers/finite_horizon_lqr_internal.h"

#define FH "finite_horizon_lqr"

/* The Riccati state [S (n n); sx (n); s0] and the gains [K (m n); k0 (m)]
 * at four equally spaced times per accepted step. */
typedef struct segments {
  int count, cap_t, cap_v;
  double *t_lo; /* segment start times, in the (decreasing) order produced; each segment
                 * ends where the one before it starts, the first at tf */
  double *vals; /* per segment 4 nodes of [S; sx; s0; K; k0] */
} segments;

/* The backward integration's state. */
typedef struct march {
  fhlqr_problem *p;
  teal_integrator *integ;
  teal_ode ode;
  double *stops; /* tau values a step may not cross, ascending, ending at T */
  int nstops;
  double *s, *s1, *serr; /* [S; sx; s0] now, after a step, and its error estimate */
} march;

/* P = S B + N and Kt = P R^-1 (the transposed gain) at the current B. */
static void cross_terms(fhlqr_problem *p, const double *S) {
  int n = p->n, m = p->m;
  teal_dense_gemm(0, 0, n, m, n, 1.0, S, p->B, 0.0, p->P, NULL);
  for (size_t i = 0; p->N && i < (size_t)n * m; i++) {
    p->P[i] += p->N[i];
  }
  memcpy(p->Kt, p->P, (size_t)n * (size_t)m * sizeof(double));
  memcpy(p->Fm, p->R, (size_t)m * (size_t)m * sizeof(double));
  teal_dense_spd_solve_transposed(p->Fm, m, p->Kt, n, NULL); /* R was checked SPD */
}

/* Sizes of the Riccati state and of one node: [S; sx; s0] and [K; k0]. */
static int state_size(const fhlqr_problem *p) {
  return p->n * p->n + p->n + 1;
}
static int node_size(const fhlqr_problem *p) {
  return state_size(p) + p->m * p->n + p->m;
}

/* w = B'sx and k0 = R^-1 w at the current B. */
static void affine_gain(fhlqr_problem *p, const double *sx) {
  int n = p->n, m = p->m;
  teal_dense_gemm(1, 0, m, 1, n, 1.0, p->B, sx, 0.0, p->w, NULL);
  memcpy(p->k0, p->w, (size_t)m * sizeof(double));
  memcpy(p->Fm, p->R, (size_t)m * (size_t)m * sizeof(double));
  teal_dense_spd_solve_transposed(p->Fm, m, p->k0, 1, NULL);
}

/* dS/dtau = Q + S A + A'S - P R^-1 P' (cross_terms done). */
static void quadratic_rhs(fhlqr_problem *p, const double *S, double *dS) {
  int n = p->n, m = p->m;
  memcpy(dS, p->Q, (size_t)n * (size_t)n * sizeof(double));
  teal_dense_gemm(0, 0, n, n, n, 1.0, S, p->A, 0.0, p->SA, NULL); /* S A */
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double v = p->SA[i * n + j] + p->SA[j * n + i]; /* S A + A'S */
      for (int k = 0; k < m; k++) {
        v -= p->Kt[i * m + k] * p->P[j * m + k]; /* - P R^-1 P' */
      }
      dS[i * n + j] += v;
    }
  }
}

/* The ODE in tau (t = tf - tau) for x = [S; sx; s0]; Kt = K' gives
 * (A - B K)'sx = A'sx - Kt w. */
static int riccati_rhs(double tau, const double *x, double *dx, void *user) {
  fhlqr_problem *p = user;
  int n = p->n, m = p->m, nn = n * n;
  int rc = fhlqr_linearize(p, p->tf - tau);
  if (rc != TEAL_OK) {
    return rc;
  }
  const double *sx = x + nn;
  cross_terms(p, x);
  quadratic_rhs(p, x, dx);
  affine_gain(p, sx);
  double *dsx = dx + nn;
  teal_dense_gemm(0, 0, n, 1, n, 1.0, x, p->c, 0.0, dsx, NULL);      /* S c */
  teal_dense_gemm(1, 0, n, 1, n, 1.0, p->A, sx, 1.0, dsx, NULL);     /* + A'sx */
  teal_dense_gemm(0, 0, n, 1, m, -1.0, p->Kt, p->w, 1.0, dsx, NULL); /* - K'w */
  double ds0 = 0.0;
  for (int i = 0; i < n; i++) {
    ds0 += 2.0 * sx[i] * p->c[i];
  }
  for (int i = 0; i < m; i++) {
    ds0 -= p->k0[i] * p->w[i]; /* k0'R k0 = k0'w */
  }
  dx[nn + n] = ds0;
  return TEAL_OK;
}

/* K = R^-1 (B'S + N') and k0 = R^-1 B'sx at time t into g = [K; k0]. */
static int gain_at(fhlqr_problem *p, double t, const double *x, double *g) {
  int rc = fhlqr_linearize(p, t);
  if (rc == TEAL_OK) {
    cross_terms(p, x);
    affine_gain(p, x + p->n * p->n);
    for (int i = 0; i < p->m; i++) {
      for (int j = 0; j < p->n; j++) {
        g[i * p->n + j] = p->Kt[j * p->m + i];
      }
    }
    memcpy(g + p->m * p->n, p->k0, (size_t)p->m * sizeof(double));
  }
  return rc;
}

static void symmetrize(double *S, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      double s = 0.5 * (S[i * n + j] + S[j * n + i]);
      S[i * n + j] = S[j * n + i] = s;
    }
  }
}

/* Records the accepted step from tau (t_hi) to tau + h (t_lo): node k at
 * t_lo + k (t_hi - t_lo) / 3 is the dense output at theta = 1 - k / 3. */
static int record(march *w, segments *sg, double t_lo, double t_hi) {
  fhlqr_problem *p = w->p;
  int len = state_size(p), width = node_size(p);
  if (TEAL_GROW(sg->t_lo, sg->cap_t, sg->count + 1) ||
      TEAL_GROW(sg->vals, sg->cap_v, (sg->count + 1) * 4 * width)) {
    return teal_error_set(p->err, TEAL_ENOMEM, FH ": out of memory");
  }
  double *v = sg->vals + (size_t)sg->count * 4 * width;
  int rc = TEAL_OK;
  for (int k = 0; k < 4 && rc == TEAL_OK; k++, v += width) {
    if (k == 0 || k == 3) {
      memcpy(v, k == 0 ? w->s1 : w->s, (size_t)len * sizeof(double));
    } else {
      teal_integrator_interpolate(w->integ, 1.0 - k / 3.0, v);
      symmetrize(v, p->n);
    }
    rc = gain_at(p, k == 0 ? t_lo : (k == 3 ? t_hi : t_lo + k * (t_hi - t_lo) / 3.0), v, v + len);
  }
  sg->t_lo[sg->count++] = t_lo;
  return rc;
}

/* ---- the backward march -------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Stops in tau: the nominal's interior breaks and T = tf - t0, ascending
 * and at least 1e-12 T apart. */
static int make_stops(march *w) {
  fhlqr_problem *p = w->p;
  const teal_piecewise_polynomial *traj[2] = {p->x0, p->u0};
  int cap = 1;
  for (int i = 0; i < 2; i++) {
    cap += teal_piecewise_polynomial_num_segments(traj[i]) + 1;
  }
  w->stops = teal_calloc((size_t)cap, sizeof(double));
  if (!w->stops) {
    return teal_error_set(p->err, TEAL_ENOMEM, FH ": out of memory");
  }
  double T = p->tf - p->t0, gap = 1e-12 * T;
  int count = 0;
  for (int i = 0; i < 2; i++) {
    const double *b = teal_piecewise_polynomial_breaks(traj[i]);
    for (int k = 0; k <= teal_piecewise_polynomial_num_segments(traj[i]); k++) {
      double tau = p->tf - b[k];
      if (tau > gap && tau < T - gap) {
        w->stops[count++] = tau;
      }
    }
  }
  qsort(w->stops, (size_t)count, sizeof(double), cmp_double);
  int kept = 0;
  for (int k = 0; k < count; k++) {
    if (kept == 0 || w->stops[k] - w->stops[kept - 1] > gap) {
      w->stops[kept++] = w->stops[k];
    }
  }
  w->stops[kept] = T;
  w->nstops = kept + 1;
  return TEAL_OK;
}

/* Weighted max norm of the step's error estimate (<= 1: accept). */
static double error_norm(const march *w, int len) {
  double e = 0.0;
  for (int i = 0; i < len; i++) {
    double tol = w->p->atol + w->p->rtol * fmax(fabs(w->s[i]), fabs(w->s1[i]));
    e = fmax(e, fabs(w->serr[i]) / fmax(tol, 1e-300));
  }
  return e;
}

/* Accepts the step from tau to tau1: records its segment, moves S on. */
static int accept(march *w, segments *sg, double tau1, int last) {
  fhlqr_problem *p = w->p;
  double t_hi = sg->count ? sg->t_lo[sg->count - 1] : p->tf;
  double t_lo = last ? p->t0 : p->tf - tau1;
  symmetrize(w->s1, p->n);
  int rc = record(w, sg, t_lo, t_hi);
  memcpy(w->s, w->s1, (size_t)state_size(p) * sizeof(double));
  return rc;
}

static int march_run(march *w, segments *sg) {
  fhlqr_problem *p = w->p;
  int len = state_size(p), stop = 0, steps = 0, rc = TEAL_OK;
  double T = p->tf - p->t0, tau = 0.0, h = 1e-3 * T;
  while (stop < w->nstops && rc == TEAL_OK) {
    double next = w->stops[stop];
    int hit = tau + h >= next - 1e-12 * T;
    h = hit ? next - tau : h;
    if (++steps > p->max_steps) {
      return teal_error_set(p->err, TEAL_ENOCONV, FH ": more than max_steps = %d steps, at t = %g",
                            p->max_steps, p->tf - tau);
    }
    rc = teal_integrator_step(w->integ, &w->ode, tau, h, w->s, w->s1, w->serr);
    double e = rc ? 0.0 : error_norm(w, len);
    if (rc == TEAL_OK && !(isfinite(e) && teal_dense_all_finite(w->s1, len, 1))) {
      return teal_error_set(p->err, TEAL_ENONFINITE, FH ": S diverged near t = %g", p->tf - tau);
    }
    if (rc == TEAL_OK && e <= 1.0) {
      rc = accept(w, sg, hit ? next : tau + h, hit && stop == w->nstops - 1);
      tau = hit ? next : tau + h;
      stop += hit;
    }
    h *= fmin(5.0, fmax(0.2, 0.9 * pow(fmax(e, 1e-10), -0.2)));
    if (rc == TEAL_OK && stop < w->nstops && h < 1e-14 * T) {
      return teal_error_set(p->err, TEAL_ENOCONV, FH ": step size underflow at t = %g",
                            p->tf - tau);
    }
  }
  return rc;
}

/* ---- the result --------------------------------------------------------- */

/* Monomial coefficients in s = t - t_lo on [t_lo, t_lo + H] of the cubic
 * through y[0..3] at s = k H / 3 (Newton's forward differences). */
static void cubic_fit(const double y[4], double H, double c[4]) {
  double d1 = y[1] - y[0], d2 = y[2] - 2.0 * y[1] + y[0];
  double d3 = y[3] - 3.0 * y[2] + 3.0 * y[1] - y[0], r = 3.0 / H;
  c[0] = y[0];
  c[1] = (d1 - 0.5 * d2 + d3 / 3.0) * r;
  c[2] = (0.5 * d2 - 0.5 * d3) * r * r;
  c[3] = d3 / 6.0 * r * r * r;
}

/* The piecewise cubic of rows columns starting at offset in the nodes. */
static teal_piecewise_polynomial *cubic(const segments *sg, const fhlqr_problem *p, int offset,
                                        int rows) {
  int nseg = sg->count, width = node_size(p);
  double *breaks = teal_calloc((size_t)nseg + 1, sizeof(double));
  double *coeffs = teal_calloc((size_t)nseg * (size_t)rows * 4, sizeof(double));
  teal_piecewise_polynomial *pp = NULL;
  if (!breaks || !coeffs) {
    teal_error_set(p->err, TEAL_ENOMEM, FH ": out of memory");
  } else {
    for (int j = 0; j < nseg; j++) {
      int i = nseg - 1 - j; /* segments were produced from tf down */
      double H = (i == 0 ? p->tf : sg->t_lo[i - 1]) - sg->t_lo[i];
      breaks[j] = sg->t_lo[i];
      for (int r = 0; r < rows; r++) {
        const double *v = sg->vals + (size_t)i * 4 * width + offset + r;
        double y[4] = {v[0], v[width], v[2 * width], v[3 * width]};
        cubic_fit(y, H, coeffs + ((size_t)j * rows + r) * 4);
      }
    }
    breaks[nseg] = p->tf;
    pp = teal_piecewise_polynomial_new(breaks, nseg + 1, rows, 3, coeffs, p->err);
  }
  teal_free(breaks);
  teal_free(coeffs);
  return pp;
}

static int march_init(march *w, fhlqr_problem *p) {
  int len = state_size(p);
  w->p = p;
  w->ode = (teal_ode){.nq = 0, .nv = 0, .nz = len, .derivatives = riccati_rhs, .user = p};
  w->integ = teal_integrator_new(teal_integrator_rk45, 0, 0, len, p->err);
  w->s = teal_calloc(3 * (size_t)len, sizeof(double));
  if (!w->integ || !w->s) {
    return teal_error_set(p->err, TEAL_ENOMEM, FH ": out of memory");
  }
  w->s1 = w->s + len;
  w->serr = w->s1 + len;
  if (p->Qf) {
    memcpy(w->s, p->Qf, (size_t)p->n * (size_t)p->n * sizeof(double));
  }
  return make_stops(w);
}

int fhlqr_solve_continuous(fhlqr_problem *p, teal_finite_horizon_lqr_result *r) {
  march w = {0};
  segments sg = {0};
  int rc = march_init(&w, p);
  rc = rc ? rc : march_run(&w, &sg);
  int n = p->n, m = p->m, len = state_size(p);
  if (rc == TEAL_OK &&
      (!(r->S = cubic(&sg, p, 0, n * n)) || !(r->sx = cubic(&sg, p, n * n, n)) ||
       !(r->s0 = cubic(&sg, p, n * n + n, 1)) || !(r->K = cubic(&sg, p, len, m * n)) ||
       !(r->k0 = cubic(&sg, p, len + m * n, m)))) {
    rc = p->err ? p->err->code : TEAL_ENOMEM;
  }
  teal_integrator_free(w.integ);
  teal_free(w.s);
  teal_free(w.stops);
  teal_free(sg.t_lo);
  teal_free(sg.vals);
  return rc;
}
