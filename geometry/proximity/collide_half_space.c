/* Closed form for any bounded convex shape against a half-space.
 *
 * With n the half-space's outward normal (its frame's +z) and o a point of
 * its boundary plane, the point of the shape deepest below the plane is its
 * support point along -n, p; its height h = n . (p - o) is the signed
 * distance. nhat_BA_W = n, p_WCa = p and p_WCb = p - h n (the foot on the
 * plane). For an ellipsoid this is the closed form D^2 n' / |D n'|. */
#include "geometry/proximity/narrowphase_internal.h"
#include "geometry/shapes/support.h"

int teal_np_convex_half_space(const teal_shape *a, const teal_transform *X_WA,
                              const teal_shape *b, const teal_transform *X_WB, int need_distance,
                              teal_signed_distance *out) {
  (void)need_distance;
  (void)b;
  if (!teal_shape_has_support(a)) {
    return TEAL_EUNSUPPORTED;
  }
  teal_vec3 n = teal_vec3_make(X_WB->R.m[2], X_WB->R.m[5], X_WB->R.m[8]);
  teal_support_map map = {a, *X_WA, 0};
  teal_vec3 p = teal_support_map_point(&map, teal_vec3_neg(n));
  double h = teal_vec3_dot(n, teal_vec3_sub(p, X_WB->p));
  out->distance = h;
  out->nhat_BA_W = n;
  out->p_WCa = p;
  out->p_WCb = teal_vec3_sub(p, teal_vec3_scale(n, h));
  return TEAL_OK;
}
