/** @file
 * Piecewise polynomials: vector-valued trajectories of time made of one
 * polynomial per segment between strictly increasing breaks (Drake's
 * PiecewisePolynomial, restricted to column vectors).
 *
 * A trajectory has `rows` components and nseg = nbreaks - 1 segments. On
 * segment s, breaks[s] <= t < breaks[s+1] (the last segment also includes
 * its end), component r is
 * @code{.unparsed}
 *     p_sr(t) = sum_j c[s][r][j] * (t - breaks[s])^j,   j = 0..degree.
 * @endcode
 * Values are right-continuous at interior breaks: at t = breaks[s] the
 * polynomial of segment s is used.
 *
 * Outside [start, end] the trajectory holds the end polynomial's value:
 * for t < start the value is p(start) of the first segment, for t > end it
 * is p(end) of the last segment, and every derivative of order >= 1 is zero
 * there (the held value is constant; this matches Drake's TrajectorySource
 * with zero_derivatives_beyond_limits, not PiecewisePolynomial::value,
 * which evaluates the end segment's derivative).
 *
 * Sample arrays are nbreaks x rows row-major: sample k (the value at
 * breaks[k]) is samples[k*rows .. k*rows + rows - 1], the same layout as
 * the rows of a vector log.
 *
 * Objects are immutable once built and allocated with teal_alloc; free
 * them with teal_piecewise_polynomial_free. Evaluation allocates nothing.
 * Construction errors: TEAL_EINVAL (NULL arrays, breaks not strictly
 * increasing, bad degree), TEAL_ESIZE (fewer than two breaks, rows < 1),
 * TEAL_ENONFINITE (NaN or Inf in breaks, samples or coefficients),
 * TEAL_ENOMEM. The message names the constructor and the offending entry. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_PIECEWISE_POLYNOMIAL_H
#define TEAL_SYSTEMS_PRIMITIVES_PIECEWISE_POLYNOMIAL_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An immutable vector-valued piecewise polynomial. */
typedef struct teal_piecewise_polynomial teal_piecewise_polynomial;

/** End conditions of a C2 cubic spline. */
typedef enum teal_spline_end {
  /** Not-a-knot (Drake's and MATLAB's default): the third derivative is
   *  also continuous at the second and the second-to-last breaks, i.e. the
   *  first two and the last two segments are single cubics. With 3 breaks
   *  this is the parabola through the samples; with 2, the straight line. */
  TEAL_SPLINE_NOT_A_KNOT = 0,
  /** Natural: the second derivative is zero at the first and last breaks.
   *  With 2 breaks this is the straight line. */
  TEAL_SPLINE_NATURAL = 1
} teal_spline_end;

/** Highest polynomial degree accepted by teal_piecewise_polynomial_new. */
#define TEAL_PIECEWISE_POLYNOMIAL_MAX_DEGREE 32

/** Builds a trajectory from explicit coefficients: nbreaks >= 2 strictly
 *  increasing finite breaks, rows >= 1 components, 0 <= degree <=
 *  TEAL_PIECEWISE_POLYNOMIAL_MAX_DEGREE, and coeffs holding
 *  (nbreaks - 1) * rows * (degree + 1) finite values, coefficient j of
 *  component r on segment s at coeffs[(s * rows + r) * (degree + 1) + j]
 *  (powers of t - breaks[s]). Returns NULL on error with err (may be NULL)
 *  filled. */
TEAL_API teal_piecewise_polynomial *
teal_piecewise_polynomial_new(const double *breaks, int nbreaks, int rows, int degree,
                              const double *coeffs, teal_error *err);

/** Piecewise constant: segment k holds sample k (k < nbreaks - 1). The last
 *  sample is checked but only marks the end time: by the rule above, t >=
 *  breaks[nbreaks-1] gives sample nbreaks - 2 (as in Drake). nbreaks >= 2. */
TEAL_API teal_piecewise_polynomial *
teal_piecewise_polynomial_zero_order_hold(const double *breaks, const double *samples, int nbreaks,
                                          int rows, teal_error *err);

/** Piecewise linear through the samples (continuous). nbreaks >= 2. */
TEAL_API teal_piecewise_polynomial *
teal_piecewise_polynomial_first_order_hold(const double *breaks, const double *samples, int nbreaks,
                                           int rows, teal_error *err);

/** Cubic spline through the samples with continuous first and second
 *  derivatives at every interior break, and the given end conditions
 *  (see teal_spline_end). nbreaks >= 2. Each component is solved
 *  separately (a diagonally dominant tridiagonal system, O(nbreaks)). */
TEAL_API teal_piecewise_polynomial *
teal_piecewise_polynomial_cubic_spline(const double *breaks, const double *samples, int nbreaks,
                                       int rows, teal_spline_end end, teal_error *err);

/** Deep copy; NULL (with err) when pp is NULL or memory runs out. */
TEAL_API teal_piecewise_polynomial *
teal_piecewise_polynomial_copy(const teal_piecewise_polynomial *pp, teal_error *err);

/** Releases a trajectory (NULL is ignored). */
TEAL_API void teal_piecewise_polynomial_free(teal_piecewise_polynomial *pp);

/** Number of components (rows of the value), 0 for NULL. */
TEAL_API int teal_piecewise_polynomial_rows(const teal_piecewise_polynomial *pp);

/** Number of segments (nbreaks - 1), 0 for NULL. */
TEAL_API int teal_piecewise_polynomial_num_segments(const teal_piecewise_polynomial *pp);

/** Highest stored power (0 hold, 1 linear, 3 cubic), -1 for NULL. */
TEAL_API int teal_piecewise_polynomial_degree(const teal_piecewise_polynomial *pp);

/** The num_segments + 1 breaks (borrowed), NULL for NULL. */
TEAL_API const double *teal_piecewise_polynomial_breaks(const teal_piecewise_polynomial *pp);

/** First break (NaN for NULL). */
TEAL_API double teal_piecewise_polynomial_start_time(const teal_piecewise_polynomial *pp);

/** Last break (NaN for NULL). */
TEAL_API double teal_piecewise_polynomial_end_time(const teal_piecewise_polynomial *pp);

/** Writes the rows values at time t into out (held outside the breaks, see
 *  above). TEAL_EINVAL for NULL arguments, TEAL_ENONFINITE for NaN t. */
TEAL_API int teal_piecewise_polynomial_value(const teal_piecewise_polynomial *pp, double t,
                                             double *out);

/** Writes the order-th time derivative (order >= 0; 0 is the value) at t
 *  into out. Orders above the degree give zeros, and so does any order >= 1
 *  outside [start, end]. TEAL_EINVAL for NULL arguments or order < 0,
 *  TEAL_ENONFINITE for NaN t. */
TEAL_API int teal_piecewise_polynomial_derivative(const teal_piecewise_polynomial *pp, double t,
                                                  int order, double *out);

#ifdef __cplusplus
}
#endif
#endif
