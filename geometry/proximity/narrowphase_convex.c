/* The general convex pair: GJK for the distance, EPA for the depth.
 *
 * GJK runs on the cores (a sphere's centre, a capsule's segment, the other
 * shapes whole) and the radii are added afterwards, which is exact for
 * spheres and capsules and keeps GJK on polytopes where it terminates
 * exactly. When the cores themselves overlap, EPA measures the core depth.
 * A sphere or capsule core has no volume, so when both cores are thin
 * (sphere and capsule pairs) EPA runs on the whole shapes instead. */
#include <math.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "geometry/proximity/narrowphase_internal.h"

/* GJK's answer is polished when its upper and lower distance bounds differ
 * by more than kExactGap, and the polished answer is taken when it brings
 * them within kCertified (both relative to the scale). */
static const double kExactGap = 1e-13;
static const double kCertified = 1e-10;

static teal_minkowski make_minkowski(const teal_shape *a, const teal_transform *X_WA,
                                     const teal_shape *b, const teal_transform *X_WB,
                                     int use_core) {
  teal_minkowski m;
  m.A.shape = a;
  m.A.X_WG = *X_WA;
  m.A.use_core = use_core;
  m.B.shape = b;
  m.B.X_WG = *X_WB;
  m.B.use_core = use_core;
  m.scale = teal_shape_bounding_radius(a) + teal_shape_bounding_radius(b) +
            teal_vec3_norm(teal_vec3_sub(X_WA->p, X_WB->p));
  return m;
}

/* Result of separated cores from GJK: the direction is the offset of the
 * witness points. On a curved difference near contact GJK can stop short
 * of its tolerance (rounding), with its upper bound |v| and its lower bound
 * -h(-v/|v|) apart: the direction is then polished, and the polished
 * answer (distance -h(u) at u = -nhat) is taken when it closes the gap
 * (the truth lies between the bounds). */
static void separated_result(const teal_minkowski *m, const teal_gjk_result *g, double r_A,
                             double r_B, teal_signed_distance *out) {
  teal_vec3 n = teal_vec3_scale(g->v, 1.0 / teal_vec3_norm(g->v));
  teal_vec3 p_A = g->p_A, p_B = g->p_B, u = teal_vec3_neg(n);
  double h, d = g->distance;
  if (d + teal_polish_height(m, u) > kExactGap * m->scale && teal_polish_direction(m, &u, &h) &&
      d + h <= kCertified * m->scale) {
    teal_polish_witnesses(m, u, h, &p_A, &p_B);
    n = teal_vec3_neg(u);
    d = -h;
  }
  teal_np_swept_result(p_A, p_B, n, d, r_A, r_B, out);
}

/* EPA from an intersecting GJK run; fills out with margins r_A, r_B. */
static void epa_result(const teal_minkowski *m, const teal_gjk_result *g, double r_A, double r_B,
                       teal_signed_distance *out) {
  teal_epa_result e;
  teal_epa(m, &g->simplex, &e);
  out->flags |= e.flags;
  teal_np_swept_result(e.p_A, e.p_B, teal_vec3_neg(e.n_AB), -e.depth, r_A, r_B, out);
}

int teal_np_gjk_epa(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                    const teal_transform *X_WB, int need_distance, teal_signed_distance *out) {
  double r_A = teal_shape_margin(a), r_B = teal_shape_margin(b);
  teal_minkowski m = make_minkowski(a, X_WA, b, X_WB, 1);
  teal_gjk_result g;
  teal_gjk(&m, !need_distance, r_A + r_B, &g);
  out->flags |= g.flags;
  if (g.separated) {
    out->distance = g.distance - r_A - r_B;
    return TEAL_OK;
  }
  if (!g.intersecting) {
    separated_result(&m, &g, r_A, r_B, out);
    return TEAL_OK;
  }
  if (!teal_shape_core_is_thin(a) || !teal_shape_core_is_thin(b)) {
    epa_result(&m, &g, r_A, r_B, out);
    return TEAL_OK;
  }
  /* both cores thin: the whole shapes (their centres are near, so they
   * overlap deeply and GJK ends intersecting) */
  m = make_minkowski(a, X_WA, b, X_WB, 0);
  teal_gjk(&m, 0, 0.0, &g);
  out->flags |= g.flags;
  if (g.intersecting) {
    epa_result(&m, &g, 0.0, 0.0, out);
  } else {
    separated_result(&m, &g, 0.0, 0.0, out);
  }
  return TEAL_OK;
}
