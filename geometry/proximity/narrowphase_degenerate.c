/* Settling ambiguous penetrations: coincident and nearly coincident pairs,
 * and EPA's best estimates (see teal_np_settle in narrowphase_internal.h).
 *
 * With M = A - B, the support height h(n) = n . (s_A(n) - s_B(-n)) of the
 * whole shapes is how far A must move along -n to leave B, so the depth is
 * the least h over unit n, and any h(n) is an upper bound of it. When two
 * shapes nearly coincide many directions are almost equally good (all of
 * them for concentric spheres, a ring for coaxial cylinders, a face normal
 * and its opposite for two boxes): the direction a pair function or EPA
 * returns then follows rounding, a 1e-9 change of the pose can turn it
 * around, and on a ring EPA's polytope runs out before it converges and
 * leaves a lower bound as the depth. The answer is settled on h instead:
 *  1. h along a fixed list of candidates (nhat_BA_W along +z, -z, +x, -x,
 *     +y, -y of A's frame, then of B's: A pushed up first) and along the
 *     answer's own direction n0 = -nhat_BA_W;
 *  2. an EPA best estimate (or an unusable n0) is replaced by the least h
 *     found by polishing (teal_polish_direction never raises h) from n0 and
 *     from every candidate (h may have several local minima), each then
 *     tried on a kink of h next to it (a polish stalls some 1e-5 off the
 *     straight side of a cylinder); its flag stays set, so the scene graph
 *     counts it as a warning;
 *  3. a tie: the first candidate within kTie scale of the least h found
 *     wins, with its own h as the depth (not polished: a polish would follow
 *     the rounding along a ring);
 *  4. near coincidence, when -n is as good as n (centrally symmetric pairs
 *     whose best direction is not a candidate), the sign of n is fixed: its
 *     largest world component positive.
 * Otherwise the answer stands. Near coincidence the witness points sit on
 * the line through the middle of the two shapes' centres along the normal
 * (support points jump between a face's corners under rounding); elsewhere
 * they come from teal_polish_witnesses. Everything is a fixed sequence of
 * support evaluations: the same input gives bitwise the same output. */
#include <math.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "geometry/proximity/narrowphase_internal.h"

/* Heights within kTie scale (the bounding radii and the offset of the
 * origins) of the least are ties: above the accuracy of the polished
 * GJK/EPA answers (~1e-9 scale), below any contact depth that matters. */
static const double kTie = 1e-7;

enum { kCandidates = 12 };

/* A fallback direction within kKinkBand of a kink's great circle is tried
 * on it, kKinkSpan radians either way, in kGoldenSteps golden-section steps
 * (the bracket shrinks to 1e-10 rad; h is flat to second order there). */
static const double kKinkBand = 1e-3;
static const double kKinkSpan = 0.1;
enum { kGoldenSteps = 44 };

static const unsigned kEstimate = TEAL_QUERY_EPA_CAPACITY | TEAL_QUERY_EPA_DEGENERATE;

static teal_minkowski whole_pair(const teal_shape *a, const teal_transform *X_WA,
                                 const teal_shape *b, const teal_transform *X_WB) {
  teal_minkowski m;
  m.A.shape = a;
  m.A.X_WG = *X_WA;
  m.A.use_core = 0;
  m.B.shape = b;
  m.B.X_WG = *X_WB;
  m.B.use_core = 0;
  m.scale = teal_shape_bounding_radius(a) + teal_shape_bounding_radius(b) +
            teal_vec3_norm(teal_vec3_sub(X_WA->p, X_WB->p));
  return m;
}

/* Candidate k as n_AB (= -nhat_BA_W): nhat_BA_W along +z, -z, +x, -x,
 * +y, -y of A's frame (k < 6), then of B's. */
static teal_vec3 candidate(const teal_transform *X_WA, const teal_transform *X_WB, int k) {
  static const int axis[3] = {2, 0, 1};
  const teal_rotation *R = k < 6 ? &X_WA->R : &X_WB->R;
  int i = axis[(k % 6) / 2];
  teal_vec3 d = teal_vec3_make(R->m[i], R->m[3 + i], R->m[6 + i]);
  return k % 2 ? d : teal_vec3_neg(d);
}

/* The centre of a shape in the world: its frame origin, or for a convex
 * hull the middle of its vertices' bounding box. */
static teal_vec3 shape_centre(const teal_shape *s, const teal_transform *X) {
  if (s->kind != TEAL_SHAPE_CONVEX) {
    return X->p;
  }
  teal_vec3 lo = s->vertices[0], hi = s->vertices[0];
  for (int i = 1; i < s->num_vertices; i++) {
    for (int k = 0; k < 3; k++) {
      lo.v[k] = fmin(lo.v[k], s->vertices[i].v[k]);
      hi.v[k] = fmax(hi.v[k], s->vertices[i].v[k]);
    }
  }
  return teal_transform_apply(*X, teal_vec3_scale(teal_vec3_add(lo, hi), 0.5));
}

/* Writes the answer n (= n_AB, unit) with depth h into out. Near
 * coincidence the witnesses are the extremes of A along n and of B along
 * -n on the line through the shapes' middle c along n; otherwise those of
 * teal_polish_witnesses from the support points. */
static void write_answer(const teal_minkowski *m, teal_vec3 n, double h, int near,
                         teal_signed_distance *out) {
  teal_vec3 p_A = teal_support_map_point(&m->A, n);
  teal_vec3 p_B = teal_support_map_point(&m->B, teal_vec3_neg(n));
  if (near) {
    teal_vec3 c = teal_vec3_scale(
        teal_vec3_add(shape_centre(m->A.shape, &m->A.X_WG), shape_centre(m->B.shape, &m->B.X_WG)),
        0.5);
    teal_vec3 c_perp = teal_vec3_sub(c, teal_vec3_scale(n, teal_vec3_dot(n, c)));
    double top_B = teal_vec3_dot(n, p_B);
    p_B = teal_vec3_add(c_perp, teal_vec3_scale(n, top_B));
    p_A = teal_vec3_add(c_perp, teal_vec3_scale(n, top_B + h));
  } else {
    teal_polish_witnesses(m, n, h, &p_A, &p_B);
  }
  out->distance = -h;
  out->nhat_BA_W = teal_vec3_neg(n);
  out->p_WCa = p_A;
  out->p_WCb = p_B;
}

/* cos(x) c + sin(x) t: the point x radians from c on its great circle. */
static teal_vec3 on_circle(teal_vec3 c, teal_vec3 t, double x) {
  return teal_vec3_add(teal_vec3_scale(c, cos(x)), teal_vec3_scale(t, sin(x)));
}

/* Nonzero when n is a finite unit vector (to rounding). */
static int usable(teal_vec3 n) {
  return teal_vec3_is_finite(n) && fabs(teal_vec3_dot(n, n) - 1.0) < 1e-9;
}

/* n or -n, whichever has its largest component (the first of equals)
 * positive. */
static teal_vec3 canonical_sign(teal_vec3 n) {
  int k = 0;
  for (int i = 1; i < 3; i++) {
    k = fabs(n.v[i]) > fabs(n.v[k]) ? i : k;
  }
  return n.v[k] < 0.0 ? teal_vec3_neg(n) : n;
}

/* The least h on the great circle through unit n perpendicular to unit e
 * (a kink of h: the straight side of a cylinder or capsule, a box's edge
 * directions), within kKinkSpan radians of n's projection on it, by
 * golden-section search; returns it with its direction in *best. */
static double kink_minimum(const teal_minkowski *m, teal_vec3 n, teal_vec3 e, teal_vec3 *best) {
  teal_vec3 c = teal_vec3_sub(n, teal_vec3_scale(e, teal_vec3_dot(e, n)));
  c = teal_vec3_scale(c, 1.0 / teal_vec3_norm(c));
  teal_vec3 t = teal_vec3_cross(e, c);
  const double g = 0.6180339887498949;
  double lo = -kKinkSpan, hi = kKinkSpan, x[2], f[2];
  for (int k = 0; k < 2; k++) {
    x[k] = k ? lo + g * (hi - lo) : hi - g * (hi - lo);
    f[k] = teal_polish_height(m, on_circle(c, t, x[k]));
  }
  for (int it = 0; it < kGoldenSteps; it++) {
    int left = f[0] <= f[1]; /* the minimum is in [lo, x1], else [x0, hi] */
    if (left) {
      hi = x[1];
      x[1] = x[0];
      f[1] = f[0];
      x[0] = hi - g * (hi - lo);
    } else {
      lo = x[0];
      x[0] = x[1];
      f[0] = f[1];
      x[1] = lo + g * (hi - lo);
    }
    f[!left] = teal_polish_height(m, on_circle(c, t, x[!left]));
  }
  int k = f[1] < f[0];
  *best = on_circle(c, t, x[k]);
  return f[k];
}

/* The fallback's direction from n (h = h(n)): polished, then moved onto
 * a kink of h next to it (within kKinkBand) when that is lower: the polish
 * stalls some 1e-5 off a kink, and the least h of a deep overlap often lies
 * on one. */
static void fallback_direction(const teal_minkowski *m, teal_vec3 *n, double *h) {
  teal_polish_direction(m, n, h);
  for (int k = 0; k < 6; k++) {
    const teal_rotation *R = k < 3 ? &m->A.X_WG.R : &m->B.X_WG.R;
    teal_vec3 e = teal_vec3_make(R->m[k % 3], R->m[3 + k % 3], R->m[6 + k % 3]), n1;
    if (fabs(teal_vec3_dot(e, *n)) < kKinkBand) {
      double h1 = kink_minimum(m, *n, e, &n1);
      if (h1 < *h) {
        *n = n1;
        *h = h1;
      }
    }
  }
}

/* The first candidate within the tie tolerance of h_best, or -1. */
static int first_tie(const double h[kCandidates], double h_best, double tie) {
  for (int k = 0; k < kCandidates; k++) {
    if (h[k] <= h_best + tie) {
      return k;
    }
  }
  return -1;
}

void teal_np_settle(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                    const teal_transform *X_WB, int near, teal_signed_distance *out) {
  teal_minkowski m = whole_pair(a, X_WA, b, X_WB);
  double tie = kTie * m.scale, h[kCandidates];
  teal_vec3 n = teal_vec3_neg(out->nhat_BA_W);
  int ok = usable(n), changed = 0;
  double hn = ok ? teal_polish_height(&m, n) : INFINITY, h_start = hn;
  for (int k = 0; k < kCandidates; k++) {
    h[k] = teal_polish_height(&m, candidate(X_WA, X_WB, k));
    h_start = fmin(h_start, h[k]);
  }
  if ((out->flags & kEstimate) || !ok) {
    /* a best estimate: polished from its own direction and from every
     * candidate (h may have several local minima), the least kept */
    if (ok) {
      fallback_direction(&m, &n, &hn);
    }
    for (int k = 0; k < kCandidates; k++) {
      teal_vec3 n1 = candidate(X_WA, X_WB, k);
      double h1;
      fallback_direction(&m, &n1, &h1);
      if (h1 < hn) {
        n = n1;
        hn = h1;
      }
    }
    changed = 1;
  }
  int k = first_tie(h, fmin(hn, h_start), tie);
  if (k >= 0) {
    write_answer(&m, candidate(X_WA, X_WB, k), h[k], near, out);
    return;
  }
  if (near) {
    teal_vec3 n1 = canonical_sign(n);
    double h1 = n1.v[0] != n.v[0] || n1.v[1] != n.v[1] || n1.v[2] != n.v[2]
                    ? teal_polish_height(&m, n1)
                    : INFINITY;
    if (h1 <= hn + tie) {
      n = n1;
      hn = h1;
      changed = 1;
    }
  }
  if (changed) {
    write_answer(&m, n, hn, near, out);
  }
}
