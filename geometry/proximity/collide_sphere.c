/* Closed forms for a sphere against a sphere, box, cylinder or capsule.
 *
 * Each reduces to the signed distance of the sphere's centre from the other
 * shape (its nearest surface point q and outward normal n there, with
 * p = q + s n), less the radius: nhat_BA_W = n, p_WCb = q and p_WCa the
 * point of the sphere farthest along -n. */
#include <math.h>

#include "geometry/proximity/narrowphase_internal.h"

/* A point's signed distance s from a surface, its nearest surface point q
 * and the outward unit normal n there (all in the shape frame). */
typedef struct surface_point {
  teal_vec3 q, n;
  double s;
} surface_point;

static double clamp(double x, double lo, double hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* +1 or -1, ties to +1. */
static double sign1(double x) {
  return x < 0.0 ? -1.0 : 1.0;
}

/* Outside: the nearest point q on the surface (given), s = |p - q|. */
static surface_point outside(teal_vec3 p, teal_vec3 q) {
  surface_point r = {q, teal_vec3_sub(p, q), 0.0};
  r.s = teal_vec3_norm(r.n);
  r.n = teal_vec3_scale(r.n, 1.0 / r.s);
  return r;
}

/* Box of half sizes h: outside, clamp into the box; inside, leave through
 * the nearest face. */
static surface_point point_box(teal_vec3 p, teal_vec3 h) {
  teal_vec3 q;
  int in = 1, k = 0;
  for (int i = 0; i < 3; i++) {
    q.v[i] = clamp(p.v[i], -h.v[i], h.v[i]);
    in = in && q.v[i] == p.v[i];
    k = h.v[i] - fabs(p.v[i]) < h.v[k] - fabs(p.v[k]) ? i : k;
  }
  if (!in) {
    return outside(p, q);
  }
  surface_point r = {p, teal_vec3_zero(), -(h.v[k] - fabs(p.v[k]))};
  r.n.v[k] = sign1(p.v[k]);
  r.q.v[k] = sign1(p.v[k]) * h.v[k];
  return r;
}

/* Cylinder of radius R and half length h along z: outside, clamp radially
 * and axially; inside, leave through the nearer of the side and a cap. */
static surface_point point_cylinder(teal_vec3 p, double R, double h) {
  double rho = hypot(p.v[0], p.v[1]);
  teal_vec3 u = rho > 0.0 ? teal_vec3_make(p.v[0] / rho, p.v[1] / rho, 0.0)
                          : teal_vec3_make(1.0, 0.0, 0.0);
  if (rho > R || fabs(p.v[2]) > h) {
    double qr = fmin(rho, R);
    return outside(p, teal_vec3_make(qr * u.v[0], qr * u.v[1], clamp(p.v[2], -h, h)));
  }
  if (h - fabs(p.v[2]) <= R - rho) {
    surface_point cap = {p, teal_vec3_make(0, 0, sign1(p.v[2])), -(h - fabs(p.v[2]))};
    cap.q.v[2] = sign1(p.v[2]) * h;
    return cap;
  }
  surface_point side = {teal_vec3_make(R * u.v[0], R * u.v[1], p.v[2]), u, -(R - rho)};
  return side;
}

/* Sphere a at X_WA against the surface point sp of shape b (frame X_WB). */
static int sphere_result(const teal_shape *a, const teal_transform *X_WA,
                         const teal_transform *X_WB, surface_point sp,
                         teal_signed_distance *out) {
  teal_vec3 n = teal_rotation_apply(X_WB->R, sp.n);
  teal_np_swept_result(X_WA->p, teal_transform_apply(*X_WB, sp.q), n, sp.s, a->radius, 0.0, out);
  return TEAL_OK;
}

static teal_vec3 centre_in_b(const teal_transform *X_WA, const teal_transform *X_WB) {
  return teal_rotation_apply_inverse(X_WB->R, teal_vec3_sub(X_WA->p, X_WB->p));
}

int teal_np_sphere_sphere(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                          const teal_transform *X_WB, int need_distance,
                          teal_signed_distance *out) {
  (void)need_distance;
  teal_vec3 d = teal_vec3_sub(X_WA->p, X_WB->p);
  double len = teal_vec3_norm(d);
  /* concentric: any direction separates equally well; take +z */
  teal_vec3 n = len > 0.0 ? teal_vec3_scale(d, 1.0 / len) : teal_vec3_make(0.0, 0.0, 1.0);
  teal_np_swept_result(X_WA->p, X_WB->p, n, len, a->radius, b->radius, out);
  return TEAL_OK;
}

int teal_np_sphere_box(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                       const teal_transform *X_WB, int need_distance, teal_signed_distance *out) {
  (void)need_distance;
  surface_point sp = point_box(centre_in_b(X_WA, X_WB), teal_vec3_scale(b->size, 0.5));
  return sphere_result(a, X_WA, X_WB, sp, out);
}

int teal_np_sphere_cylinder(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                            const teal_transform *X_WB, int need_distance,
                            teal_signed_distance *out) {
  (void)need_distance;
  surface_point sp = point_cylinder(centre_in_b(X_WA, X_WB), b->radius, 0.5 * b->length);
  return sphere_result(a, X_WA, X_WB, sp, out);
}

int teal_np_sphere_capsule(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                           const teal_transform *X_WB, int need_distance,
                           teal_signed_distance *out) {
  (void)need_distance;
  teal_vec3 p = centre_in_b(X_WA, X_WB);
  double h = 0.5 * b->length;
  teal_vec3 q = teal_vec3_make(0.0, 0.0, clamp(p.v[2], -h, h));
  teal_vec3 d = teal_vec3_sub(p, q);
  double len = teal_vec3_norm(d);
  /* centre on the axis: any direction perpendicular to it */
  teal_vec3 n = len > 0.0 ? teal_vec3_scale(d, 1.0 / len) : teal_vec3_make(1.0, 0.0, 0.0);
  teal_vec3 n_W = teal_rotation_apply(X_WB->R, n);
  teal_np_swept_result(X_WA->p, teal_transform_apply(*X_WB, q), n_W, len, a->radius, b->radius,
                       out);
  return TEAL_OK;
}
