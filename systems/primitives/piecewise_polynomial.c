/* Piecewise polynomials: construction (explicit coefficients, zero- and
 * first-order holds, C2 cubic splines) and evaluation. */
#include "systems/primitives/piecewise_polynomial.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "framework/alloc.h"

struct teal_piecewise_polynomial {
  int nseg, rows, degree;
  double *breaks; /* nseg + 1 */
  double *coeffs; /* nseg * rows * (degree + 1), see the header */
  double data[];  /* breaks then coeffs, one block */
};

/* ---- validation -------------------------------------------------------- */

static int check_finite(const char *what, const char *array, const double *x, size_t n,
                        teal_error *err) {
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s: %s[%zu] = %g is not finite", what, array,
                            i, x[i]);
    }
  }
  return TEAL_OK;
}

static int check_breaks(const char *what, const double *breaks, int nbreaks, teal_error *err) {
  if (!breaks) {
    return teal_error_set(err, TEAL_EINVAL, "%s: breaks is NULL", what);
  }
  if (nbreaks < 2) {
    return teal_error_set(err, TEAL_ESIZE, "%s: needs at least 2 breaks, got %d", what,
                          nbreaks);
  }
  int rc = check_finite(what, "breaks", breaks, (size_t)nbreaks, err);
  for (int k = 1; rc == TEAL_OK && k < nbreaks; k++) {
    if (!(breaks[k] > breaks[k - 1])) {
      rc = teal_error_set(err, TEAL_EINVAL,
                          "%s: breaks must be strictly increasing, but breaks[%d] = %g <= "
                          "breaks[%d] = %g", what, k, breaks[k], k - 1, breaks[k - 1]);
    }
  }
  return rc;
}

/* Checks breaks, rows and samples of the sample-based constructors. */
static int check_samples(const char *what, const double *breaks, const double *samples,
                         int nbreaks, int rows, teal_error *err) {
  int rc = check_breaks(what, breaks, nbreaks, err);
  if (rc) {
    return rc;
  }
  if (rows < 1) {
    return teal_error_set(err, TEAL_ESIZE, "%s: rows = %d must be >= 1", what, rows);
  }
  if (!samples) {
    return teal_error_set(err, TEAL_EINVAL, "%s: samples is NULL", what);
  }
  if ((size_t)nbreaks > SIZE_MAX / sizeof(double) / (size_t)rows) {
    return teal_error_set(err, TEAL_ESIZE, "%s: %d x %d samples is too large", what, nbreaks,
                          rows);
  }
  return check_finite(what, "samples", samples, (size_t)nbreaks * (size_t)rows, err);
}

/* ---- allocation -------------------------------------------------------- */

/* Coefficient count of a trajectory, or 0 when the block would not fit in
 * a size_t. */
static size_t coeff_count(int nseg, int rows, int degree) {
  size_t limit = (SIZE_MAX - sizeof(teal_piecewise_polynomial)) / sizeof(double);
  size_t terms = (size_t)(degree + 1);
  if ((size_t)rows > limit / terms) {
    return 0;
  }
  size_t per = (size_t)rows * terms;
  size_t room = limit - (size_t)nseg - 1; /* what the breaks leave */
  return (size_t)nseg > room / per ? 0 : (size_t)nseg * per;
}

/* Allocates a trajectory with the breaks copied and zero coefficients. */
static teal_piecewise_polynomial *pp_alloc(const char *what, const double *breaks, int nbreaks,
                                           int rows, int degree, teal_error *err) {
  int nseg = nbreaks - 1;
  size_t nc = coeff_count(nseg, rows, degree);
  if (nc == 0) {
    teal_error_set(err, TEAL_ESIZE, "%s: %d segments x %d rows x degree %d is too large", what,
                   nseg, rows, degree);
    return NULL;
  }
  size_t ndata = (size_t)nbreaks + nc;
  teal_piecewise_polynomial *pp = teal_calloc(1, sizeof *pp + ndata * sizeof(double));
  if (!pp) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", what);
    return NULL;
  }
  pp->nseg = nseg;
  pp->rows = rows;
  pp->degree = degree;
  pp->breaks = pp->data;
  pp->coeffs = pp->data + nbreaks;
  memcpy(pp->breaks, breaks, (size_t)nbreaks * sizeof(double));
  return pp;
}

/* Coefficients of segment s, component r. */
static double *seg_coeffs(teal_piecewise_polynomial *pp, int s, int r) {
  return pp->coeffs + ((size_t)s * (size_t)pp->rows + (size_t)r) * (size_t)(pp->degree + 1);
}

static const double *seg_coeffs_const(const teal_piecewise_polynomial *pp, int s, int r) {
  return pp->coeffs + ((size_t)s * (size_t)pp->rows + (size_t)r) * (size_t)(pp->degree + 1);
}

/* ---- constructors ------------------------------------------------------ */

/* Checks the arguments of teal_piecewise_polynomial_new but the
 * coefficients' values (checked once their count is known to fit). */
static int check_explicit(const char *what, const double *breaks, int nbreaks, int rows,
                          int degree, const double *coeffs, teal_error *err) {
  int rc = check_breaks(what, breaks, nbreaks, err);
  if (rc == TEAL_OK && rows < 1) {
    rc = teal_error_set(err, TEAL_ESIZE, "%s: rows = %d must be >= 1", what, rows);
  }
  if (rc == TEAL_OK && (degree < 0 || degree > TEAL_PIECEWISE_POLYNOMIAL_MAX_DEGREE)) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s: degree %d must be in [0, %d]", what, degree,
                        TEAL_PIECEWISE_POLYNOMIAL_MAX_DEGREE);
  }
  if (rc == TEAL_OK && !coeffs) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s: coeffs is NULL", what);
  }
  return rc;
}

teal_piecewise_polynomial *teal_piecewise_polynomial_new(const double *breaks, int nbreaks,
                                                         int rows, int degree,
                                                         const double *coeffs,
                                                         teal_error *err) {
  const char *what = "piecewise_polynomial_new";
  if (check_explicit(what, breaks, nbreaks, rows, degree, coeffs, err)) {
    return NULL;
  }
  teal_piecewise_polynomial *pp = pp_alloc(what, breaks, nbreaks, rows, degree, err);
  if (!pp) {
    return NULL;
  }
  size_t nc = (size_t)pp->nseg * (size_t)rows * (size_t)(degree + 1);
  if (check_finite(what, "coeffs", coeffs, nc, err)) {
    teal_free(pp);
    return NULL;
  }
  memcpy(pp->coeffs, coeffs, nc * sizeof(double));
  return pp;
}

teal_piecewise_polynomial *teal_piecewise_polynomial_zero_order_hold(const double *breaks,
                                                                     const double *samples,
                                                                     int nbreaks, int rows,
                                                                     teal_error *err) {
  const char *what = "piecewise_polynomial_zero_order_hold";
  if (check_samples(what, breaks, samples, nbreaks, rows, err)) {
    return NULL;
  }
  teal_piecewise_polynomial *pp = pp_alloc(what, breaks, nbreaks, rows, 0, err);
  for (int s = 0; pp && s < pp->nseg; s++) {
    for (int r = 0; r < rows; r++) {
      seg_coeffs(pp, s, r)[0] = samples[(size_t)s * (size_t)rows + (size_t)r];
    }
  }
  return pp;
}

teal_piecewise_polynomial *teal_piecewise_polynomial_first_order_hold(const double *breaks,
                                                                      const double *samples,
                                                                      int nbreaks, int rows,
                                                                      teal_error *err) {
  const char *what = "piecewise_polynomial_first_order_hold";
  if (check_samples(what, breaks, samples, nbreaks, rows, err)) {
    return NULL;
  }
  teal_piecewise_polynomial *pp = pp_alloc(what, breaks, nbreaks, rows, 1, err);
  for (int s = 0; pp && s < pp->nseg; s++) {
    double h = breaks[s + 1] - breaks[s];
    for (int r = 0; r < rows; r++) {
      double y0 = samples[(size_t)s * (size_t)rows + (size_t)r];
      double y1 = samples[(size_t)(s + 1) * (size_t)rows + (size_t)r];
      double *c = seg_coeffs(pp, s, r);
      c[0] = y0;
      c[1] = (y1 - y0) / h;
    }
  }
  return pp;
}

/* ---- cubic spline ------------------------------------------------------ */

/* Workspace of one spline solve, N = nbreaks. */
typedef struct spline_work {
  int n;
  const double *h;   /* N-1 segment lengths */
  double *delta;     /* N-1 divided differences of the current component */
  double *slope;     /* N slopes at the breaks */
  double *a, *b, *c; /* tridiagonal sub, main and super diagonals */
} spline_work;

/* Solves a diagonally dominant tridiagonal system of m equations in place
 * (Thomas algorithm): sub a[1..m-1], diagonal b (overwritten), super
 * c[0..m-2], right side d (becomes the solution). */
static void solve_tridiagonal(int m, const double *a, double *b, const double *c, double *d) {
  for (int i = 1; i < m; i++) {
    double w = a[i] / b[i - 1];
    b[i] -= w * c[i - 1];
    d[i] -= w * d[i - 1];
  }
  d[m - 1] /= b[m - 1];
  for (int i = m - 2; i >= 0; i--) {
    d[i] = (d[i] - c[i] * d[i + 1]) / b[i];
  }
}

/* Row i (1 <= i <= N-2) of the C2 conditions on the slopes:
 * h_i s_{i-1} + 2 (h_{i-1} + h_i) s_i + h_{i-1} s_{i+1} = 3 (h_i d_{i-1} + h_{i-1} d_i),
 * stored at index k of the system. */
static void c2_row(spline_work *w, int i, int k, double *rhs) {
  const double *h = w->h, *d = w->delta;
  w->a[k] = h[i];
  w->b[k] = 2.0 * (h[i - 1] + h[i]);
  w->c[k] = h[i - 1];
  rhs[k] = 3.0 * (h[i] * d[i - 1] + h[i - 1] * d[i]);
}

/* Natural ends: 2 s_0 + s_1 = 3 d_0 and s_{N-2} + 2 s_{N-1} = 3 d_{N-2}. */
static void natural_slopes(spline_work *w) {
  int n = w->n;
  double *s = w->slope;
  w->b[0] = 2.0;
  w->c[0] = 1.0;
  s[0] = 3.0 * w->delta[0];
  for (int i = 1; i < n - 1; i++) {
    c2_row(w, i, i, s);
  }
  w->a[n - 1] = 1.0;
  w->b[n - 1] = 2.0;
  s[n - 1] = 3.0 * w->delta[n - 2];
  solve_tridiagonal(n, w->a, w->b, w->c, s);
}

/* Not-a-knot with three breaks: the parabola through the samples. */
static void parabola_slopes(spline_work *w) {
  const double *h = w->h, *d = w->delta;
  double curv = (d[1] - d[0]) / (h[0] + h[1]);
  w->slope[0] = d[0] - curv * h[0];
  w->slope[1] = d[0] + curv * h[0];
  w->slope[2] = d[0] + curv * (h[0] + 2.0 * h[1]);
}

/* Not-a-knot with N >= 4 breaks. Equal third derivatives across x_1 give,
 * after using the C2 row at x_1,
 *   h_1 s_0 + (h_0 + h_1) s_1 = r_0,
 *   r_0 = (h_1 (3 h_0 + 2 h_1) d_0 + h_0^2 d_1) / (h_0 + h_1),
 * and symmetrically at x_{N-2}. Subtracting these from the C2 rows at x_1
 * and x_{N-2} removes s_0 and s_{N-1}, leaving a strictly diagonally
 * dominant system for s_1..s_{N-2}; s_0 and s_{N-1} follow. */
static void not_a_knot_slopes(spline_work *w) {
  int n = w->n, m = n - 2; /* m: index of the last segment */
  const double *h = w->h, *d = w->delta;
  double *s = w->slope, *rhs = w->slope + 1;
  double r0 = (h[1] * (3.0 * h[0] + 2.0 * h[1]) * d[0] + h[0] * h[0] * d[1]) / (h[0] + h[1]);
  double rn = (h[m] * h[m] * d[m - 1] + h[m - 1] * (3.0 * h[m] + 2.0 * h[m - 1]) * d[m]) /
              (h[m - 1] + h[m]);
  for (int i = 1; i <= n - 2; i++) {
    c2_row(w, i, i - 1, rhs);
  }
  w->b[0] = h[0] + h[1];
  rhs[0] -= r0;
  w->b[n - 3] = h[m - 1] + h[m];
  w->c[n - 3] = 0.0;
  rhs[n - 3] -= rn;
  solve_tridiagonal(n - 2, w->a, w->b, w->c, rhs);
  s[0] = (r0 - (h[0] + h[1]) * s[1]) / h[1];
  s[n - 1] = (rn - (h[m - 1] + h[m]) * s[n - 2]) / h[m - 1];
}

static void spline_slopes(spline_work *w, teal_spline_end end) {
  if (w->n == 2) {
    w->slope[0] = w->slope[1] = w->delta[0];
  } else if (end == TEAL_SPLINE_NATURAL) {
    natural_slopes(w);
  } else if (w->n == 3) {
    parabola_slopes(w);
  } else {
    not_a_knot_slopes(w);
  }
}

/* Cubic Hermite coefficients of component r from the samples and slopes. */
static void hermite_coeffs(teal_piecewise_polynomial *pp, const spline_work *w,
                           const double *samples, int r) {
  for (int s = 0; s < pp->nseg; s++) {
    double h = w->h[s], d = w->delta[s], s0 = w->slope[s], s1 = w->slope[s + 1];
    double *c = seg_coeffs(pp, s, r);
    c[0] = samples[(size_t)s * (size_t)pp->rows + (size_t)r];
    c[1] = s0;
    c[2] = (3.0 * d - 2.0 * s0 - s1) / h;
    c[3] = (s0 + s1 - 2.0 * d) / (h * h);
  }
}

/* Fills the cubic coefficients of every component; work holds 6 N doubles. */
static void fill_spline(teal_piecewise_polynomial *pp, const double *samples,
                        teal_spline_end end, double *work) {
  int n = pp->nseg + 1;
  double *h = work;
  spline_work w = {n, h, work + n, work + 2 * n, work + 3 * n, work + 4 * n, work + 5 * n};
  for (int k = 0; k < n - 1; k++) {
    h[k] = pp->breaks[k + 1] - pp->breaks[k];
  }
  for (int r = 0; r < pp->rows; r++) {
    for (int k = 0; k < n - 1; k++) {
      double y0 = samples[(size_t)k * (size_t)pp->rows + (size_t)r];
      double y1 = samples[(size_t)(k + 1) * (size_t)pp->rows + (size_t)r];
      w.delta[k] = (y1 - y0) / h[k];
    }
    spline_slopes(&w, end);
    hermite_coeffs(pp, &w, samples, r);
  }
}

teal_piecewise_polynomial *teal_piecewise_polynomial_cubic_spline(const double *breaks,
                                                                  const double *samples,
                                                                  int nbreaks, int rows,
                                                                  teal_spline_end end,
                                                                  teal_error *err) {
  const char *what = "piecewise_polynomial_cubic_spline";
  if (check_samples(what, breaks, samples, nbreaks, rows, err)) {
    return NULL;
  }
  if (end != TEAL_SPLINE_NOT_A_KNOT && end != TEAL_SPLINE_NATURAL) {
    teal_error_set(err, TEAL_EINVAL, "%s: unknown end condition %d", what, (int)end);
    return NULL;
  }
  teal_piecewise_polynomial *pp = pp_alloc(what, breaks, nbreaks, rows, 3, err);
  double *work = pp ? teal_calloc((size_t)nbreaks * 6, sizeof(double)) : NULL;
  if (pp && !work) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", what);
    teal_free(pp);
    return NULL;
  }
  if (pp) {
    fill_spline(pp, samples, end, work);
  }
  teal_free(work);
  return pp;
}

/* ---- copy, free, queries ----------------------------------------------- */

teal_piecewise_polynomial *teal_piecewise_polynomial_copy(const teal_piecewise_polynomial *pp,
                                                          teal_error *err) {
  const char *what = "piecewise_polynomial_copy";
  if (!pp) {
    teal_error_set(err, TEAL_EINVAL, "%s: NULL trajectory", what);
    return NULL;
  }
  teal_piecewise_polynomial *copy =
      pp_alloc(what, pp->breaks, pp->nseg + 1, pp->rows, pp->degree, err);
  if (copy) {
    size_t nc = (size_t)pp->nseg * (size_t)pp->rows * (size_t)(pp->degree + 1);
    memcpy(copy->coeffs, pp->coeffs, nc * sizeof(double));
  }
  return copy;
}

void teal_piecewise_polynomial_free(teal_piecewise_polynomial *pp) { teal_free(pp); }

int teal_piecewise_polynomial_rows(const teal_piecewise_polynomial *pp) {
  return pp ? pp->rows : 0;
}

int teal_piecewise_polynomial_num_segments(const teal_piecewise_polynomial *pp) {
  return pp ? pp->nseg : 0;
}

int teal_piecewise_polynomial_degree(const teal_piecewise_polynomial *pp) {
  return pp ? pp->degree : -1;
}

const double *teal_piecewise_polynomial_breaks(const teal_piecewise_polynomial *pp) {
  return pp ? pp->breaks : NULL;
}

double teal_piecewise_polynomial_start_time(const teal_piecewise_polynomial *pp) {
  return pp ? pp->breaks[0] : NAN;
}

double teal_piecewise_polynomial_end_time(const teal_piecewise_polynomial *pp) {
  return pp ? pp->breaks[pp->nseg] : NAN;
}

/* ---- evaluation -------------------------------------------------------- */

/* Segment s with breaks[s] <= t (t within [start, end]), at most nseg-1. */
static int find_segment(const teal_piecewise_polynomial *pp, double t) {
  int lo = 0, hi = pp->nseg - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (pp->breaks[mid] <= t) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/* order-th derivative of sum_j c[j] tau^j by Horner's rule. */
static double horner_derivative(const double *c, int degree, int order, double tau) {
  double acc = 0.0;
  for (int j = degree; j >= order; j--) {
    double factor = 1.0; /* j! / (j - order)! */
    for (int i = 0; i < order; i++) {
      factor *= (double)(j - i);
    }
    acc = acc * tau + factor * c[j];
  }
  return acc;
}

int teal_piecewise_polynomial_derivative(const teal_piecewise_polynomial *pp, double t,
                                         int order, double *out) {
  if (!pp || !out || order < 0) {
    return TEAL_EINVAL;
  }
  if (isnan(t)) {
    return TEAL_ENONFINITE;
  }
  double start = pp->breaks[0], end = pp->breaks[pp->nseg];
  int outside = t < start || t > end;
  if (order > pp->degree || (order > 0 && outside)) {
    memset(out, 0, (size_t)pp->rows * sizeof *out);
    return TEAL_OK;
  }
  double tc = t < start ? start : (t > end ? end : t);
  int s = find_segment(pp, tc);
  double tau = tc - pp->breaks[s];
  for (int r = 0; r < pp->rows; r++) {
    out[r] = horner_derivative(seg_coeffs_const(pp, s, r), pp->degree, order, tau);
  }
  return TEAL_OK;
}

int teal_piecewise_polynomial_value(const teal_piecewise_polynomial *pp, double t, double *out) {
  return teal_piecewise_polynomial_derivative(pp, t, 0, out);
}
