/* Closed form for capsule against capsule: the closest points of the two
 * axis segments, swollen by the radii. */
#include <math.h>

#include "geometry/proximity/narrowphase_internal.h"

/* Closest points of the axes nearer than kMeet times the axes' lengths
 * count as meeting; nearer than kClose, inside both axes, their offset is
 * a difference of nearly equal numbers whose direction is mostly rounding,
 * and the exact common normal is used instead. */
static const double kMeet = 1e-12;
static const double kClose = 1e-6;

static double clamp01(double x) {
  return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
}

/* Parameter s on p0 + s d1 of the middle of the overlap of the projection
 * of q0 + t d2 (parallel) onto it, or of the nearer end. */
static double parallel_parameter(teal_vec3 p0, teal_vec3 d1, teal_vec3 q0, teal_vec3 d2) {
  double a = teal_vec3_dot(d1, d1);
  double s0 = teal_vec3_dot(teal_vec3_sub(q0, p0), d1) / a;
  double s1 = s0 + teal_vec3_dot(d2, d1) / a;
  double lo = fmax(0.0, fmin(s0, s1)), hi = fmin(1.0, fmax(s0, s1));
  return lo <= hi ? 0.5 * (lo + hi) : clamp01(hi < 0.0 ? hi : lo);
}

/* Minimizes |p0 + s d1 - q0 - t d2| over the unit square: the unclamped
 * line solution for s (or the parallel choice), then t for that s, then s
 * again for a clamped t (the classic two-clamp scheme). */
void teal_np_segment_closest(teal_vec3 p0, teal_vec3 d1, teal_vec3 q0, teal_vec3 d2,
                             teal_vec3 *c1, teal_vec3 *c2) {
  teal_vec3 r = teal_vec3_sub(p0, q0);
  double a = teal_vec3_dot(d1, d1), e = teal_vec3_dot(d2, d2), b = teal_vec3_dot(d1, d2);
  double c = teal_vec3_dot(d1, r), f = teal_vec3_dot(d2, r);
  double denom = a * e - b * b, s;
  if (denom > 1e-14 * a * e) {
    s = clamp01((b * f - c * e) / denom);
  } else {
    s = parallel_parameter(p0, d1, q0, d2);
  }
  double t = (b * s + f) / e;
  if (t < 0.0 || t > 1.0) {
    t = clamp01(t);
    s = clamp01((b * t - c) / a);
  }
  *c1 = teal_vec3_add(p0, teal_vec3_scale(d1, s));
  *c2 = teal_vec3_add(q0, teal_vec3_scale(d2, t));
}

/* The axis segment of a capsule in the world: start and direction. */
static void axis_segment(const teal_shape *s, const teal_transform *X, teal_vec3 *p0,
                         teal_vec3 *d) {
  teal_vec3 u = teal_vec3_make(X->R.m[2], X->R.m[5], X->R.m[8]);
  *p0 = teal_vec3_sub(X->p, teal_vec3_scale(u, 0.5 * s->length));
  *d = teal_vec3_scale(u, s->length);
}

/* Direction for crossing axes (distance 0): along the common normal,
 * oriented from B's centre towards A's; any normal of parallel axes. */
static teal_vec3 crossing_normal(teal_vec3 d1, teal_vec3 d2, teal_vec3 cA, teal_vec3 cB) {
  teal_vec3 n = teal_vec3_cross(d1, d2);
  double len = teal_vec3_norm(n);
  if (!(len > 1e-12 * teal_vec3_norm(d1) * teal_vec3_norm(d2))) {
    return teal_np_perpendicular(d1);
  }
  n = teal_vec3_scale(n, 1.0 / len);
  return teal_vec3_dot(n, teal_vec3_sub(cA, cB)) < 0.0 ? teal_vec3_neg(n) : n;
}

/* Nonzero when c is strictly inside the segment p0 + s d (0 < s < 1). */
static int inside(teal_vec3 c, teal_vec3 p0, teal_vec3 d) {
  double s = teal_vec3_dot(teal_vec3_sub(c, p0), d) / teal_vec3_dot(d, d);
  return s > 0.0 && s < 1.0;
}

int teal_np_capsule_capsule(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                            const teal_transform *X_WB, int need_distance,
                            teal_signed_distance *out) {
  (void)need_distance;
  teal_vec3 p0, d1, q0, d2, cA, cB;
  axis_segment(a, X_WA, &p0, &d1);
  axis_segment(b, X_WB, &q0, &d2);
  teal_np_segment_closest(p0, d1, q0, d2, &cA, &cB);
  teal_vec3 d = teal_vec3_sub(cA, cB);
  double len = teal_vec3_norm(d);
  /* axes that meet (to rounding): d is rounding noise, not a direction */
  double size = a->length + b->length;
  teal_vec3 n = len > kMeet * size ? teal_vec3_scale(d, 1.0 / len)
                                   : crossing_normal(d1, d2, X_WA->p, X_WB->p);
  if (len > kMeet * size && len <= kClose * size && inside(cA, p0, d1) && inside(cB, q0, d2)) {
    teal_vec3 c = teal_vec3_cross(d1, d2);
    double cn = teal_vec3_norm(c);
    if (cn > 1e-12 * size * size) {
      n = teal_vec3_scale(c, (teal_vec3_dot(c, d) < 0.0 ? -1.0 : 1.0) / cn);
    }
  }
  teal_np_swept_result(cA, cB, n, len, a->radius, b->radius, out);
  return TEAL_OK;
}
