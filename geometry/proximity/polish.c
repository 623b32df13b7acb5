/* Polishing a direction: Newton's method for the least support height.
 *
 * For two convex sets A and B with M = A - B, the support height
 * h(n) = n . s_M(n) over unit n is least at the answer of both queries:
 * when they overlap its minimum is the penetration depth (at the normal
 * n_AB), when apart it is minus the distance (at n = -(p_A - p_B)/|.|).
 * GJK and EPA approach it through polytopes, which is exact where M is
 * flat but slow where it is curved: near the end their direction is off by
 * about the square root of the remaining gap. From there a few Newton
 * steps on the sphere of directions converge quadratically on curved parts
 * of M. The gradient of h is the support point itself (g_i = t_i . s); the
 * Hessian comes from central differences of support points. Where M has a
 * straight direction (a cylinder's side, a box edge swept along a curve) h
 * has a kink; a probe across it jumps, and then only the direction along
 * the kink is stepped. Steps are kept only when h drops, so the result is
 * never worse than the start. */
#include <math.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "geometry/proximity/narrowphase_internal.h"

/* Support points along normals turned by kProbe radians give the Hessian;
 * a rate above kJump scale is a jump across a flat part of M; at most
 * kSteps steps (Newton, or a kTurn radian turn where h is not convex),
 * each shortened by 4 up to kHalvings times until h drops. */
static const double kProbe = 1e-5;
static const double kJump = 1e3;
static const double kTurn = 0.5;

/* A local minimum is checked by turning kCheck radians eight ways: none
 * may lower h by more than kCheckTol scale. */
static const double kCheck = 1e-4;
static const double kCheckTol = 1e-12;
enum { kSteps = 12, kHalvings = 4 };

static teal_vec3 unit(teal_vec3 v) {
  return teal_vec3_scale(v, 1.0 / teal_vec3_norm(v));
}

/* Two unit vectors perpendicular to unit n and to each other. */
static void tangents(teal_vec3 n, teal_vec3 t[2]) {
  t[0] = teal_np_perpendicular(n);
  t[1] = teal_vec3_cross(n, t[0]);
}

/* h(n) and the support point s_M(n). */
static double height(const teal_minkowski *m, teal_vec3 n, teal_vec3 *s) {
  *s = teal_minkowski_support(m, n).w;
  return teal_vec3_dot(n, *s);
}

/* ds/du along the tangent t at n by a central difference of step eps. */
static teal_vec3 support_rate(const teal_minkowski *m, teal_vec3 n, teal_vec3 t, double eps) {
  teal_vec3 sp, sm;
  height(m, unit(teal_vec3_add(n, teal_vec3_scale(t, eps))), &sp);
  height(m, unit(teal_vec3_sub(n, teal_vec3_scale(t, eps))), &sm);
  return teal_vec3_scale(teal_vec3_sub(sp, sm), 0.5 / eps);
}

/* The jump of s_M across a kink between n - eps t and n + eps t, less the
 * smooth part of the motion (estimated from n + 2 eps t, on the same side
 * as n + eps t), which would otherwise tilt its direction by about eps. */
static teal_vec3 kink_jump(const teal_minkowski *m, teal_vec3 n, teal_vec3 t) {
  teal_vec3 sp, sm, s2;
  height(m, unit(teal_vec3_add(n, teal_vec3_scale(t, kProbe))), &sp);
  height(m, unit(teal_vec3_sub(n, teal_vec3_scale(t, kProbe))), &sm);
  height(m, unit(teal_vec3_add(n, teal_vec3_scale(t, 2.0 * kProbe))), &s2);
  return teal_vec3_sub(teal_vec3_sub(sp, sm), teal_vec3_scale(teal_vec3_sub(s2, sp), 2.0));
}

/* Nonzero when a support rate is a jump across a flat part of M (a kink
 * of h, e.g. along a cylinder's straight side) rather than a motion along a
 * curved part, whose rate is a radius of curvature. */
static int is_jump(const teal_minkowski *m, teal_vec3 rate) {
  return teal_vec3_norm(rate) > kJump * m->scale;
}

/* The Newton step for min h on the unit sphere from n (s = s_M(n), h =
 * h(n)) in the tangent coordinates u of n(u) = unit(n + u0 t0 + u1 t1):
 * gradient g_i = t_i . s, Hessian H_ij = t_i . ds/du_j - h delta_ij with
 * ds/du_j by central differences. The step is zero unless H is positive
 * definite (it is near a minimum on a curved part); elsewhere it is a turn
 * of kTurn radians down the gradient. When a probe jumps, n is
 * on (or a hair off) a kink, where h is least across it: t0 is turned
 * across the kink (along the jump) and only t1 is stepped. */
static void newton_step(const teal_minkowski *m, teal_vec3 n, teal_vec3 s, double h, teal_vec3 t[2],
                        double u[2]) {
  teal_vec3 r[2];
  u[0] = u[1] = 0.0;
  tangents(n, t);
  r[0] = support_rate(m, n, t[0], kProbe);
  r[1] = support_rate(m, n, t[1], kProbe);
  if (is_jump(m, r[0]) || is_jump(m, r[1])) {
    teal_vec3 jump = kink_jump(m, n, is_jump(m, r[0]) ? t[0] : t[1]);
    t[0] = unit(teal_vec3_sub(jump, teal_vec3_scale(n, teal_vec3_dot(jump, n))));
    t[1] = teal_vec3_cross(n, t[0]);
    r[1] = support_rate(m, n, t[1], kProbe);
    double h11 = teal_vec3_dot(t[1], r[1]) - h;
    if (!is_jump(m, r[1]) && h11 > 0.0) {
      u[1] = -teal_vec3_dot(t[1], s) / h11;
    }
    return;
  }
  double h00 = teal_vec3_dot(t[0], r[0]) - h, h11 = teal_vec3_dot(t[1], r[1]) - h;
  double h01 = 0.5 * (teal_vec3_dot(t[0], r[1]) + teal_vec3_dot(t[1], r[0]));
  double det = h00 * h11 - h01 * h01, g0 = teal_vec3_dot(t[0], s), g1 = teal_vec3_dot(t[1], s);
  double g = hypot(g0, g1);
  if (h00 > 0.0 && det > 0.0) {
    u[0] = -(h11 * g0 - h01 * g1) / det;
    u[1] = -(h00 * g1 - h01 * g0) / det;
  } else if (g > 0.0) {
    /* not convex here (far from the minimum): a steepest-descent turn */
    u[0] = -kTurn * g0 / g;
    u[1] = -kTurn * g1 / g;
  }
}

/* A Newton step from n, shortened until h drops; returns 1 and updates n,
 * s and h when it does. */
static int descend(const teal_minkowski *m, teal_vec3 *n, teal_vec3 *s, double *h) {
  teal_vec3 t[2];
  double u[2];
  newton_step(m, *n, *s, *h, t, u);
  for (int k = 0; k <= kHalvings && (u[0] != 0.0 || u[1] != 0.0); k++) {
    teal_vec3 s1, n1 = unit(teal_vec3_add(*n, teal_vec3_add(teal_vec3_scale(t[0], u[0]),
                                                            teal_vec3_scale(t[1], u[1]))));
    double h1 = height(m, n1, &s1);
    if (h1 < *h) {
      *n = n1;
      *s = s1;
      *h = h1;
      return 1;
    }
    u[0] *= 0.25;
    u[1] *= 0.25;
  }
  return 0;
}

double teal_polish_height(const teal_minkowski *m, teal_vec3 n) {
  teal_vec3 s;
  return height(m, n, &s);
}

int teal_polish_direction(const teal_minkowski *m, teal_vec3 *n, double *h) {
  teal_vec3 s;
  *h = height(m, *n, &s);
  int moved = 0;
  for (int k = 0; k < kSteps && descend(m, n, &s, h); k++) {
    moved = 1;
  }
  return moved;
}

int teal_polish_is_local_min(const teal_minkowski *m, teal_vec3 n, double h) {
  teal_vec3 t[2], s;
  tangents(n, t);
  for (int k = 0; k < 8; k++) {
    double a = 0.7853981633974483 * k; /* eight directions around n */
    teal_vec3 dir = teal_vec3_add(teal_vec3_scale(t[0], cos(a)), teal_vec3_scale(t[1], sin(a)));
    if (height(m, unit(teal_vec3_add(n, teal_vec3_scale(dir, kCheck))), &s) <
        h - kCheckTol * m->scale) {
      return 0;
    }
  }
  return 1;
}

void teal_polish_witnesses(const teal_minkowski *m, teal_vec3 n, double h, teal_vec3 *p_A,
                           teal_vec3 *p_B) {
  teal_vec3 hn = teal_vec3_scale(n, h);
  if (teal_support_map_is_strict(&m->A)) {
    *p_A = teal_support_map_point(&m->A, n);
    *p_B = teal_vec3_sub(*p_A, hn);
  } else if (teal_support_map_is_strict(&m->B)) {
    *p_B = teal_support_map_point(&m->B, teal_vec3_neg(n));
    *p_A = teal_vec3_add(*p_B, hn);
  } else {
    teal_vec3 mid = teal_vec3_scale(teal_vec3_add(*p_A, *p_B), 0.5);
    *p_A = teal_vec3_add(mid, teal_vec3_scale(hn, 0.5));
    *p_B = teal_vec3_sub(mid, teal_vec3_scale(hn, 0.5));
  }
}
