/* Narrowphase: every closed form against hand-computed configurations
 * (depth, normal, witness points, both argument orders); every closed form
 * against GJK/EPA on random poses and sizes (overlapping and separated);
 * GJK/EPA-only pairs against known configurations; conventions
 * (p_WCa - p_WCb = phi nhat_BA_W) and invariance under a common rigid
 * motion and under swapping A and B, for every supported pair; the dispatch
 * table; errors; and no allocation in queries. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "geometry/proximity/narrowphase.h"
#include "support/test_support.h"

static const double kPi = 3.14159265358979323846;
static const double kExact = 1e-12;

/* ---- helpers ------------------------------------------------------------ */

static teal_vec3 v3(double x, double y, double z) {
  return teal_vec3_make(x, y, z);
}

static double dist3(teal_vec3 a, teal_vec3 b) {
  return teal_vec3_norm(teal_vec3_sub(a, b));
}

static teal_transform at(double x, double y, double z) {
  return teal_transform_make(teal_rotation_identity(), v3(x, y, z));
}

static teal_transform posed(teal_vec3 axis, double angle, teal_vec3 p) {
  return teal_transform_make(teal_rotation_from_axis_angle(axis, angle), p);
}

static teal_transform rand_pose(unsigned *s, double range) {
  teal_quaternion q;
  do {
    q = teal_quaternion_make(ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1),
                             ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1));
  } while (teal_quaternion_norm(q) < 0.1);
  ck_assert_int_eq(teal_quaternion_normalize(&q), TEAL_OK);
  teal_vec3 p = v3(ts_rand_uniform(s, -range, range), ts_rand_uniform(s, -range, range),
                   ts_rand_uniform(s, -range, range));
  return teal_transform_make(teal_rotation_from_quaternion(q), p);
}

static double ru(unsigned *s, double lo, double hi) {
  return ts_rand_uniform(s, lo, hi);
}

/* The 8 corners of a box of half sizes h (a convex shape equal to the box). */
static void box_corners(teal_vec3 h, teal_vec3 out[8]) {
  for (int i = 0; i < 8; i++) {
    out[i] = v3(i & 1 ? h.v[0] : -h.v[0], i & 2 ? h.v[1] : -h.v[1], i & 4 ? h.v[2] : -h.v[2]);
  }
}

/* A random shape of the kind (convex: a random hull of 10 points). */
static teal_shape rand_shape(unsigned *s, teal_shape_kind kind) {
  teal_shape out;
  teal_vec3 pts[10];
  int rc = TEAL_OK;
  switch (kind) {
    case TEAL_SHAPE_SPHERE:
      rc = teal_shape_sphere(ru(s, 0.2, 1.0), &out, NULL);
      break;
    case TEAL_SHAPE_BOX:
      rc = teal_shape_box(ru(s, 0.2, 2), ru(s, 0.2, 2), ru(s, 0.2, 2), &out, NULL);
      break;
    case TEAL_SHAPE_CYLINDER:
      rc = teal_shape_cylinder(ru(s, 0.2, 1), ru(s, 0.2, 2), &out, NULL);
      break;
    case TEAL_SHAPE_CAPSULE:
      rc = teal_shape_capsule(ru(s, 0.2, 1), ru(s, 0.2, 2), &out, NULL);
      break;
    case TEAL_SHAPE_ELLIPSOID:
      rc = teal_shape_ellipsoid(ru(s, 0.2, 1), ru(s, 0.2, 1), ru(s, 0.2, 1), &out, NULL);
      break;
    case TEAL_SHAPE_CONVEX:
      for (int i = 0; i < 10; i++) {
        pts[i] = v3(ru(s, -1, 1), ru(s, -1, 1), ru(s, -1, 1));
      }
      rc = teal_shape_convex(pts, 10, &out, NULL);
      break;
    default:
      rc = teal_shape_half_space(&out);
      break;
  }
  ck_assert_int_eq(rc, TEAL_OK);
  return out;
}

/* p_WCa - p_WCb = phi nhat_BA_W and |nhat_BA_W| = 1. */
static void check_conventions(const teal_signed_distance *sd, double tol) {
  ck_assert_double_eq_tol(teal_vec3_norm(sd->nhat_BA_W), 1.0, 1e-12);
  teal_vec3 r = teal_vec3_sub(teal_vec3_sub(sd->p_WCa, sd->p_WCb),
                              teal_vec3_scale(sd->nhat_BA_W, sd->distance));
  ck_assert_double_le(teal_vec3_norm(r), tol);
}

/* Asserts a penetration of (a, b) with the given depth, normal (from B into
 * A) and witness points, in both argument orders and via the signed
 * distance; also through the GJK/EPA path when generic_tol >= 0. */
static void expect_penetration(const teal_shape *a, teal_transform X_WA, const teal_shape *b,
                               teal_transform X_WB, double depth, teal_vec3 n, teal_vec3 pa,
                               teal_vec3 pb) {
  teal_penetration pen;
  int overlapping = -1;
  ck_assert_int_eq(teal_shape_pair_penetration(a, X_WA, b, X_WB, &pen, &overlapping), TEAL_OK);
  ck_assert_int_eq(overlapping, 1);
  ck_assert_double_eq_tol(pen.depth, depth, kExact);
  ck_assert_double_le(dist3(pen.nhat_BA_W, n), kExact);
  ck_assert_double_le(dist3(pen.p_WCa, pa), kExact);
  ck_assert_double_le(dist3(pen.p_WCb, pb), kExact);
  ck_assert_uint_eq(pen.flags, 0);
  /* p_WCb = p_WCa + depth nhat */
  ck_assert_double_le(dist3(pen.p_WCb, teal_vec3_add(pen.p_WCa, teal_vec3_scale(n, depth))),
                      kExact);
  /* the other order mirrors */
  ck_assert_int_eq(teal_shape_pair_penetration(b, X_WB, a, X_WA, &pen, &overlapping), TEAL_OK);
  ck_assert_int_eq(overlapping, 1);
  ck_assert_double_eq_tol(pen.depth, depth, kExact);
  ck_assert_double_le(dist3(pen.nhat_BA_W, teal_vec3_neg(n)), kExact);
  ck_assert_double_le(dist3(pen.p_WCa, pb), kExact);
  ck_assert_double_le(dist3(pen.p_WCb, pa), kExact);
  /* the signed distance is minus the depth with the same points */
  teal_signed_distance sd;
  ck_assert_int_eq(teal_shape_pair_signed_distance(a, X_WA, b, X_WB, &sd), TEAL_OK);
  ck_assert_double_eq_tol(sd.distance, -depth, kExact);
  ck_assert_double_le(dist3(sd.nhat_BA_W, n), kExact);
  ck_assert_double_le(dist3(sd.p_WCa, pa), kExact);
  ck_assert_double_le(dist3(sd.p_WCb, pb), kExact);
}

/* Asserts (a, b) apart by distance with the given normal and witnesses. */
static void expect_separation(const teal_shape *a, teal_transform X_WA, const teal_shape *b,
                              teal_transform X_WB, double distance, teal_vec3 n, teal_vec3 pa,
                              teal_vec3 pb) {
  teal_penetration pen;
  int overlapping = -1;
  ck_assert_int_eq(teal_shape_pair_penetration(a, X_WA, b, X_WB, &pen, &overlapping), TEAL_OK);
  ck_assert_int_eq(overlapping, 0);
  ck_assert_double_eq(pen.depth, 0.0);
  teal_signed_distance sd;
  ck_assert_int_eq(teal_shape_pair_signed_distance(a, X_WA, b, X_WB, &sd), TEAL_OK);
  ck_assert_double_eq_tol(sd.distance, distance, kExact);
  ck_assert_double_le(dist3(sd.nhat_BA_W, n), kExact);
  ck_assert_double_le(dist3(sd.p_WCa, pa), kExact);
  ck_assert_double_le(dist3(sd.p_WCb, pb), kExact);
}

/* ---- closed forms, hand-computed --------------------------------------- */

START_TEST(sphere_sphere_by_hand) {
  teal_shape a, b;
  teal_shape_sphere(1.0, &a, NULL);
  teal_shape_sphere(0.5, &b, NULL);
  /* centres 1.2 apart along x: depth 0.3, B pushes A along -x */
  expect_penetration(&a, at(0, 0, 0), &b, at(1.2, 0, 0), 0.3, v3(-1, 0, 0), v3(1, 0, 0),
                     v3(0.7, 0, 0));
  /* 2 apart along y: distance 0.5 */
  expect_separation(&a, at(0, 2, 0), &b, at(0, 0, 0), 0.5, v3(0, 1, 0), v3(0, 1, 0),
                    v3(0, 0.5, 0));
  /* concentric: depth is the sum of radii along +z (in either order, so
   * not mirrored) */
  teal_penetration pen;
  int o;
  ck_assert_int_eq(teal_shape_pair_penetration(&a, at(1, 1, 1), &b, at(1, 1, 1), &pen, &o),
                   TEAL_OK);
  ck_assert_int_eq(o, 1);
  ck_assert_double_eq_tol(pen.depth, 1.5, kExact);
  ck_assert_double_le(dist3(pen.nhat_BA_W, v3(0, 0, 1)), kExact);
  ck_assert_double_le(dist3(pen.p_WCa, v3(1, 1, 0)), kExact);
  ck_assert_double_le(dist3(pen.p_WCb, v3(1, 1, 1.5)), kExact);
}
END_TEST

START_TEST(sphere_box_by_hand) {
  teal_shape s, b;
  teal_shape_sphere(0.5, &s, NULL);
  teal_shape_box(2, 2, 2, &b, NULL);
  /* above the top face */
  expect_penetration(&s, at(0.2, 0.1, 1.3), &b, at(0, 0, 0), 0.2, v3(0, 0, 1),
                     v3(0.2, 0.1, 0.8), v3(0.2, 0.1, 1));
  /* centre inside, nearest face +x */
  expect_penetration(&s, at(0.9, 0.3, 0), &b, at(0, 0, 0), 0.6, v3(1, 0, 0),
                     v3(0.4, 0.3, 0), v3(1, 0.3, 0));
  /* beyond the edge (x = 1, y = 1) */
  double d = sqrt(0.18);
  teal_vec3 n = v3(1 / sqrt(2.0), 1 / sqrt(2.0), 0);
  expect_penetration(&s, at(1.3, 1.3, 0), &b, at(0, 0, 0), 0.5 - d, n,
                     teal_vec3_sub(v3(1.3, 1.3, 0), teal_vec3_scale(n, 0.5)), v3(1, 1, 0));
  /* beyond the corner, separated: distance sqrt(3) 0.5 - 0.5 */
  teal_vec3 m = v3(1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0));
  expect_separation(&s, at(1.5, 1.5, 1.5), &b, at(0, 0, 0), sqrt(0.75) - 0.5, m,
                    teal_vec3_sub(v3(1.5, 1.5, 1.5), teal_vec3_scale(m, 0.5)), v3(1, 1, 1));
  /* a box turned 90 degrees about z, long side 4 along world y */
  teal_shape lng;
  teal_shape_box(4, 1, 1, &lng, NULL);
  expect_penetration(&s, at(0, 1.8, 0), &lng, posed(v3(0, 0, 1), kPi / 2, v3(0, 0, 0)), 0.7,
                     v3(0, 1, 0), v3(0, 1.3, 0), v3(0, 2, 0));
}
END_TEST

START_TEST(sphere_capsule_by_hand) {
  teal_shape s, c;
  teal_shape_sphere(0.5, &s, NULL);
  teal_shape_capsule(0.5, 2, &c, NULL);
  /* beside the cylindrical part */
  expect_penetration(&s, at(0.8, 0, 0.5), &c, at(0, 0, 0), 0.2, v3(1, 0, 0), v3(0.3, 0, 0.5),
                     v3(0.5, 0, 0.5));
  /* above the top cap */
  expect_penetration(&s, at(0, 0, 1.8), &c, at(0, 0, 0), 0.2, v3(0, 0, 1), v3(0, 0, 1.3),
                     v3(0, 0, 1.5));
  /* capsule lying along x (turned about y), sphere beyond its +x end */
  expect_separation(&s, at(3, 0, 0), &c, posed(v3(0, 1, 0), kPi / 2, v3(0, 0, 0)), 1.0,
                    v3(1, 0, 0), v3(2.5, 0, 0), v3(1.5, 0, 0));
}
END_TEST

START_TEST(sphere_cylinder_by_hand) {
  teal_shape s, c;
  teal_shape_sphere(0.5, &s, NULL);
  teal_shape_cylinder(1, 2, &c, NULL);
  /* side */
  expect_penetration(&s, at(1.3, 0, 0.2), &c, at(0, 0, 0), 0.2, v3(1, 0, 0), v3(0.8, 0, 0.2),
                     v3(1, 0, 0.2));
  /* cap */
  expect_penetration(&s, at(0.2, 0, 1.4), &c, at(0, 0, 0), 0.1, v3(0, 0, 1), v3(0.2, 0, 0.9),
                     v3(0.2, 0, 1));
  /* rim: nearest point (1, 0, 1) */
  teal_vec3 n = v3(1 / sqrt(2.0), 0, 1 / sqrt(2.0));
  expect_penetration(&s, at(1.3, 0, 1.3), &c, at(0, 0, 0), 0.5 - sqrt(0.18), n,
                     teal_vec3_sub(v3(1.3, 0, 1.3), teal_vec3_scale(n, 0.5)), v3(1, 0, 1));
  /* centre inside, side nearer than the caps */
  expect_penetration(&s, at(0, 0.7, 0), &c, at(0, 0, 0), 0.8, v3(0, 1, 0), v3(0, 0.2, 0),
                     v3(0, 1, 0));
  /* centre inside, cap nearer than the side */
  expect_penetration(&s, at(0, 0, -0.9), &c, at(0, 0, 0), 0.6, v3(0, 0, -1), v3(0, 0, -0.4),
                     v3(0, 0, -1));
  /* cylinder lying along y (turned about x), separated above its side */
  expect_separation(&s, at(0, 0.5, 2), &c, posed(v3(1, 0, 0), kPi / 2, v3(0, 0, 0)), 0.5,
                    v3(0, 0, 1), v3(0, 0.5, 1.5), v3(0, 0.5, 1));
}
END_TEST

START_TEST(capsule_capsule_by_hand) {
  teal_shape a, b;
  teal_shape_capsule(0.5, 2, &a, NULL);
  teal_shape_capsule(0.5, 2, &b, NULL);
  teal_transform along_x = posed(v3(0, 1, 0), kPi / 2, v3(0, 0.7, 0.3));
  /* crossing axes 0.7 apart: depth 0.3 along -y (B is on +y) */
  expect_penetration(&a, at(0, 0, 0), &b, along_x, 0.3, v3(0, -1, 0), v3(0, 0.5, 0.3),
                     v3(0, 0.2, 0.3));
  /* parallel, offset along the axis: middle of the overlap z in [-0.5, 1] */
  expect_penetration(&a, at(0, 0, 0), &b, at(0.8, 0, 0.5), 0.2, v3(-1, 0, 0),
                     v3(0.5, 0, 0.25), v3(0.3, 0, 0.25));
  /* end to end along z, separated by 0.5 */
  expect_separation(&a, at(0, 0, 0), &b, at(0, 0, 3.5), 0.5, v3(0, 0, -1), v3(0, 0, 1.5),
                    v3(0, 0, 2));
  /* axes crossing exactly (coincident centres): a tie, settled by a fixed
   * order; tests/robustness/test_robustness_geometry.c checks it */
}
END_TEST

START_TEST(box_box_by_hand) {
  teal_shape a, b;
  teal_shape_box(2, 2, 2, &a, NULL);
  teal_shape_box(2, 2, 2, &b, NULL);
  /* face against face, offset 1.8 along x: depth 0.2. The faces tie and
   * the first box's wins: the witness on the second box is the point of its
   * deepest face nearest the first box's centre, so it depends on the order */
  teal_penetration pen;
  int o;
  ck_assert_int_eq(teal_shape_pair_penetration(&a, at(0, 0, 0), &b, at(1.8, 0.3, 0.2), &pen, &o),
                   TEAL_OK);
  ck_assert_int_eq(o, 1);
  ck_assert_double_eq_tol(pen.depth, 0.2, kExact);
  ck_assert_double_le(dist3(pen.nhat_BA_W, v3(-1, 0, 0)), kExact);
  ck_assert_double_le(dist3(pen.p_WCa, v3(1, 0, 0)), kExact);
  ck_assert_double_le(dist3(pen.p_WCb, v3(0.8, 0, 0)), kExact);
  ck_assert_int_eq(teal_shape_pair_penetration(&b, at(1.8, 0.3, 0.2), &a, at(0, 0, 0), &pen, &o),
                   TEAL_OK);
  ck_assert_double_eq_tol(pen.depth, 0.2, kExact);
  ck_assert_double_le(dist3(pen.nhat_BA_W, v3(1, 0, 0)), kExact);
  ck_assert_double_le(dist3(pen.p_WCa, v3(0.8, 0.3, 0.2)), kExact);
  ck_assert_double_le(dist3(pen.p_WCb, v3(1, 0.3, 0.2)), kExact);
  /* a vertex of A (turned so its corner (-1, -1, -1) points down) into B's
   * top face */
  teal_vec3 corner = teal_vec3_scale(v3(-1, -1, -1), 1 / sqrt(3.0));
  teal_rotation R = teal_rotation_from_axis_angle(teal_vec3_cross(corner, v3(0, 0, -1)),
                                                  acos(-corner.v[2]));
  teal_transform X_WA = teal_transform_make(R, v3(0, 0, 1 + sqrt(3.0) - 0.1));
  expect_penetration(&a, X_WA, &b, at(0, 0, 0), 0.1, v3(0, 0, 1), v3(0, 0, 0.9), v3(0, 0, 1));
  /* edge against edge: A turned 45 deg about y (top edge along y at
   * z = sqrt 2), B turned 45 deg about x (bottom edge along x) */
  double r2 = sqrt(2.0);
  teal_transform ea = posed(v3(0, 1, 0), kPi / 4, v3(0, 0, 0));
  teal_transform eb = posed(v3(1, 0, 0), kPi / 4, v3(0, 0, 2 * r2 - 0.1));
  expect_penetration(&a, ea, &b, eb, 0.1, v3(0, 0, -1), v3(0, 0, r2), v3(0, 0, r2 - 0.1));
  /* separated face to face (the distance comes from GJK; the witness
   * points are any pair of facing points) */
  teal_signed_distance sd;
  ck_assert_int_eq(teal_shape_pair_signed_distance(&a, at(0.3, 0.2, 2.5), &b, at(0, 0, 0), &sd),
                   TEAL_OK);
  ck_assert_double_eq_tol(sd.distance, 0.5, kExact);
  ck_assert_double_le(dist3(sd.nhat_BA_W, v3(0, 0, 1)), kExact);
  check_conventions(&sd, kExact);
  ck_assert_double_eq_tol(sd.p_WCa.v[2], 1.5, kExact);
  ck_assert_double_eq_tol(sd.p_WCb.v[2], 1.0, kExact);
}
END_TEST

START_TEST(half_space_by_hand) {
  teal_shape h, box, s, cap, cyl, ell;
  teal_shape_half_space(&h);
  teal_shape_box(1, 2, 3, &box, NULL);
  teal_shape_sphere(0.5, &s, NULL);
  teal_shape_capsule(0.5, 2, &cap, NULL);
  teal_shape_cylinder(1, 2, &cyl, NULL);
  teal_shape_ellipsoid(1, 2, 3, &ell, NULL);
  teal_transform I = at(0, 0, 0);
  /* box face down: the witness is the bottom face centre */
  expect_penetration(&box, at(1, 2, 1.2), &h, I, 0.3, v3(0, 0, 1), v3(1, 2, -0.3), v3(1, 2, 0));
  /* box on an edge: turned 45 deg about y, its lowest edge (along y) is
   * (0.5, -1.5) in its xz plane, (0.5 - 1.5, -(0.5 + 1.5)) / sqrt 2 in the
   * world; the witness is that edge's middle */
  double x = (0.5 - 1.5) / sqrt(2.0), low = (0.5 + 1.5) / sqrt(2.0);
  expect_penetration(&box, posed(v3(0, 1, 0), kPi / 4, v3(0, 0, low - 0.25)), &h, I, 0.25,
                     v3(0, 0, 1), v3(x, 0, -0.25), v3(x, 0, 0));
  expect_penetration(&s, at(3, 0, 0.1), &h, I, 0.4, v3(0, 0, 1), v3(3, 0, -0.4), v3(3, 0, 0));
  /* capsule standing: lowest point the bottom of its lower cap */
  expect_penetration(&cap, at(0, 0, 1.4), &h, I, 0.1, v3(0, 0, 1), v3(0, 0, -0.1), v3(0, 0, 0));
  /* cylinder lying along y: the middle of its lowest line */
  expect_penetration(&cyl, posed(v3(1, 0, 0), kPi / 2, v3(0, 0, 0.8)), &h, I, 0.2, v3(0, 0, 1),
                     v3(0, 0, -0.2), v3(0, 0, 0));
  /* ellipsoid turned 90 deg about x: its b = 2 axis is vertical */
  expect_penetration(&ell, posed(v3(1, 0, 0), kPi / 2, v3(0, 0, 1.5)), &h, I, 0.5, v3(0, 0, 1),
                     v3(0, 0, -0.5), v3(0, 0, 0));
  /* a half-space whose normal is world +y through (0, 1, 0) */
  teal_transform wall = posed(v3(1, 0, 0), -kPi / 2, v3(0, 1, 0));
  expect_penetration(&s, at(0, 1.3, 0), &h, wall, 0.2, v3(0, 1, 0), v3(0, 0.8, 0), v3(0, 1, 0));
  /* separated sphere above the floor */
  expect_separation(&s, at(0, 0, 2), &h, I, 1.5, v3(0, 0, 1), v3(0, 0, 1.5), v3(0, 0, 0));
}
END_TEST

START_TEST(ellipsoid_vs_half_space_closed_form) {
  /* height of the lowest point of R diag(a, b, c) at height z0 is
   * z0 - |diag(a, b, c) R' e_z| */
  unsigned s = 99u;
  teal_shape h, e;
  teal_shape_half_space(&h);
  for (int k = 0; k < 100; k++) {
    teal_shape_ellipsoid(ru(&s, 0.2, 1), ru(&s, 0.2, 1), ru(&s, 0.2, 1), &e, NULL);
    teal_transform X = rand_pose(&s, 1.0);
    teal_vec3 r = teal_rotation_apply_inverse(X.R, v3(0, 0, 1));
    double reach = hypot(hypot(e.size.v[0] * r.v[0], e.size.v[1] * r.v[1]), e.size.v[2] * r.v[2]);
    teal_signed_distance sd;
    ck_assert_int_eq(teal_shape_pair_signed_distance(&e, X, &h, at(0, 0, 0), &sd), TEAL_OK);
    ck_assert_double_eq_tol(sd.distance, X.p.v[2] - reach, 1e-12);
    check_conventions(&sd, 1e-12);
    /* the witness is on the ellipsoid: |D^-1 R' (p - c)| = 1 */
    teal_vec3 q = teal_rotation_apply_inverse(X.R, teal_vec3_sub(sd.p_WCa, X.p));
    teal_vec3 u = v3(q.v[0] / e.size.v[0], q.v[1] / e.size.v[1], q.v[2] / e.size.v[2]);
    ck_assert_double_eq_tol(teal_vec3_norm(u), 1.0, 1e-12);
  }
}
END_TEST

/* ---- closed forms against GJK/EPA -------------------------------------- */

typedef struct agreement {
  double depth, normal, witness; /* tolerances */
  int check_witness;
} agreement;

/* Random sizes and poses (centres within 1 of the origin: about half
 * overlap): the table's answer against GJK/EPA's. Returns the number of
 * overlapping samples. */
static int compare_with_gjk_epa(teal_shape_kind ka, teal_shape_kind kb, int n, unsigned seed,
                                agreement tol) {
  unsigned s = seed;
  int overlaps = 0;
  for (int k = 0; k < n; k++) {
    teal_shape a = rand_shape(&s, ka), b = rand_shape(&s, kb);
    teal_transform X_WA = rand_pose(&s, 1.0), X_WB = rand_pose(&s, 1.0);
    teal_signed_distance an, it;
    ck_assert_int_eq(teal_shape_pair_signed_distance(&a, X_WA, &b, X_WB, &an), TEAL_OK);
    ck_assert_int_eq(teal_convex_pair_signed_distance(&a, X_WA, &b, X_WB, &it), TEAL_OK);
    ck_assert_uint_eq(an.flags, 0);
    ck_assert_double_le(fabs(an.distance - it.distance), tol.depth);
    check_conventions(&an, 1e-12);
    check_conventions(&it, 1e-9);
    if (fabs(an.distance) > 1e-6) {
      ck_assert_double_le(dist3(an.nhat_BA_W, it.nhat_BA_W), tol.normal);
      ck_assert(!tol.check_witness || dist3(an.p_WCa, it.p_WCa) <= tol.witness);
      ck_assert(!tol.check_witness || dist3(an.p_WCb, it.p_WCb) <= tol.witness);
    }
    /* penetration agrees with the signed distance */
    teal_penetration pen;
    int overlapping;
    ck_assert_int_eq(teal_shape_pair_penetration(&a, X_WA, &b, X_WB, &pen, &overlapping), TEAL_OK);
    ck_assert_int_eq(overlapping, an.distance < 0.0);
    if (overlapping) {
      overlaps++;
      ck_assert_double_eq_tol(pen.depth, -an.distance, 1e-12);
      ck_assert_double_le(dist3(pen.nhat_BA_W, an.nhat_BA_W), 1e-12);
    }
    teal_shape_release(&a);
    teal_shape_release(&b);
  }
  return overlaps;
}

/* Polytope-like differences (point, segment, box cores): EPA and GJK end
 * exactly, so everything agrees to rounding. */
static const agreement kExactAgreement = {1e-9, 1e-9, 1e-9, 1};

START_TEST(sphere_sphere_vs_gjk_epa) {
  int o = compare_with_gjk_epa(TEAL_SHAPE_SPHERE, TEAL_SHAPE_SPHERE, 2000, 11u, kExactAgreement);
  ck_assert_int_gt(o, 400);
  ck_assert_int_lt(o, 1600);
}
END_TEST

START_TEST(sphere_box_vs_gjk_epa) {
  int o = compare_with_gjk_epa(TEAL_SHAPE_SPHERE, TEAL_SHAPE_BOX, 2000, 12u, kExactAgreement);
  ck_assert_int_gt(o, 400);
  o = compare_with_gjk_epa(TEAL_SHAPE_BOX, TEAL_SHAPE_SPHERE, 500, 13u, kExactAgreement);
  ck_assert_int_gt(o, 100);
}
END_TEST

START_TEST(sphere_capsule_vs_gjk_epa) {
  int o = compare_with_gjk_epa(TEAL_SHAPE_SPHERE, TEAL_SHAPE_CAPSULE, 2000, 14u, kExactAgreement);
  ck_assert_int_gt(o, 400);
}
END_TEST

START_TEST(capsule_capsule_vs_gjk_epa) {
  int o = compare_with_gjk_epa(TEAL_SHAPE_CAPSULE, TEAL_SHAPE_CAPSULE, 2000, 15u, kExactAgreement);
  ck_assert_int_gt(o, 400);
}
END_TEST

START_TEST(box_box_vs_gjk_epa) {
  int o = compare_with_gjk_epa(TEAL_SHAPE_BOX, TEAL_SHAPE_BOX, 2000, 16u, kExactAgreement);
  ck_assert_int_gt(o, 400);
}
END_TEST

START_TEST(sphere_cylinder_vs_gjk_epa) {
  /* the cylinder's side is curved, where GJK and EPA only approximate it
   * by polytopes and the direction is then polished by Newton steps */
  agreement tol = {1e-8, 1e-6, 1e-6, 1};
  int o = compare_with_gjk_epa(TEAL_SHAPE_SPHERE, TEAL_SHAPE_CYLINDER, 2000, 17u, tol);
  ck_assert_int_gt(o, 400);
}
END_TEST

/* The half-space against a 100 m box whose top face is the plane z = 0 of
 * the half-space's frame: GJK/EPA on the box must match the closed form. */
static void compare_half_space(teal_shape_kind kind, unsigned seed, double tol_n) {
  unsigned s = seed;
  teal_shape h, big;
  teal_shape_half_space(&h);
  teal_shape_box(100, 100, 100, &big, NULL);
  for (int k = 0; k < 300; k++) {
    teal_shape a = rand_shape(&s, kind);
    teal_transform X_WA = rand_pose(&s, 1.0), X_WH = rand_pose(&s, 0.5);
    teal_transform X_WBig = teal_transform_compose(X_WH, at(0, 0, -50));
    teal_signed_distance an, it;
    ck_assert_int_eq(teal_shape_pair_signed_distance(&a, X_WA, &h, X_WH, &an), TEAL_OK);
    ck_assert_int_eq(teal_convex_pair_signed_distance(&a, X_WA, &big, X_WBig, &it), TEAL_OK);
    check_conventions(&an, 1e-12);
    ck_assert_double_le(fabs(an.distance - it.distance), 1e-8);
    if (fabs(an.distance) > 1e-6) {
      ck_assert_double_le(dist3(an.nhat_BA_W, it.nhat_BA_W), tol_n);
    }
    teal_shape_release(&a);
  }
}

START_TEST(half_space_vs_gjk_epa) {
  compare_half_space(TEAL_SHAPE_SPHERE, 21u, 1e-9);
  compare_half_space(TEAL_SHAPE_BOX, 22u, 1e-9);
  compare_half_space(TEAL_SHAPE_CYLINDER, 23u, 1e-9);
  compare_half_space(TEAL_SHAPE_CAPSULE, 24u, 1e-9);
  compare_half_space(TEAL_SHAPE_ELLIPSOID, 25u, 1e-9);
  compare_half_space(TEAL_SHAPE_CONVEX, 26u, 1e-9);
}
END_TEST

/* ---- GJK/EPA-only pairs ------------------------------------------------- */

START_TEST(convex_cube_matches_box) {
  /* a convex hull of a box's corners is that box: convex-box and
   * convex-sphere go through GJK/EPA and must match box-box (SAT) and
   * sphere-box */
  unsigned s = 31u;
  for (int k = 0; k < 500; k++) {
    teal_shape box = rand_shape(&s, TEAL_SHAPE_BOX), other, cube;
    other = rand_shape(&s, k % 2 ? TEAL_SHAPE_BOX : TEAL_SHAPE_SPHERE);
    teal_vec3 corners[8];
    box_corners(teal_vec3_scale(box.size, 0.5), corners);
    ck_assert_int_eq(teal_shape_convex(corners, 8, &cube, NULL), TEAL_OK);
    teal_transform X_WA = rand_pose(&s, 1.0), X_WB = rand_pose(&s, 1.0);
    teal_signed_distance ref, sd;
    ck_assert_int_eq(teal_shape_pair_signed_distance(&box, X_WA, &other, X_WB, &ref), TEAL_OK);
    ck_assert_int_eq(teal_shape_pair_signed_distance(&cube, X_WA, &other, X_WB, &sd), TEAL_OK);
    ck_assert_double_le(fabs(ref.distance - sd.distance), 1e-9);
    if (fabs(ref.distance) > 1e-6) {
      ck_assert_double_le(dist3(ref.nhat_BA_W, sd.nhat_BA_W), 1e-9);
    }
    teal_shape_release(&cube);
  }
}
END_TEST

START_TEST(round_ellipsoid_matches_sphere) {
  /* an ellipsoid with equal semi-axes is a sphere: smooth against smooth,
   * EPA's hardest case */
  unsigned s = 32u;
  for (int k = 0; k < 500; k++) {
    double r = ru(&s, 0.2, 1.0);
    teal_shape ball, round, other = rand_shape(&s, TEAL_SHAPE_SPHERE);
    teal_shape_sphere(r, &ball, NULL);
    teal_shape_ellipsoid(r, r, r, &round, NULL);
    teal_transform X_WA = rand_pose(&s, 1.0), X_WB = rand_pose(&s, 1.0);
    teal_signed_distance ref, sd;
    ck_assert_int_eq(teal_shape_pair_signed_distance(&ball, X_WA, &other, X_WB, &ref), TEAL_OK);
    ck_assert_int_eq(teal_shape_pair_signed_distance(&round, X_WA, &other, X_WB, &sd), TEAL_OK);
    /* a flag marks EPA's best estimate (near-concentric balls, where every
     * direction is nearly as good): looser there */
    double tol = sd.flags ? 1e-4 : 1e-8;
    ck_assert_double_le(fabs(ref.distance - sd.distance), tol);
    check_conventions(&sd, 1e-9);
    if (fabs(ref.distance) > 1e-6 && !sd.flags) {
      ck_assert_double_le(dist3(ref.nhat_BA_W, sd.nhat_BA_W), 1e-5);
    }
  }
}
END_TEST

START_TEST(generic_pairs_by_hand) {
  teal_shape e, c1, c2, s;
  teal_shape_ellipsoid(1, 0.5, 0.5, &e, NULL);
  teal_shape_cylinder(1, 2, &c1, NULL);
  teal_shape_cylinder(0.5, 1, &c2, NULL);
  teal_shape_sphere(0.3, &s, NULL);
  teal_signed_distance sd;
  /* ellipsoid tips overlapping by 0.2 along x */
  ck_assert_int_eq(teal_shape_pair_signed_distance(&e, at(0, 0, 0), &e, at(1.8, 0, 0), &sd),
                   TEAL_OK);
  ck_assert_double_eq_tol(sd.distance, -0.2, 1e-8);
  ck_assert_double_le(dist3(sd.nhat_BA_W, v3(-1, 0, 0)), 1e-3);
  ck_assert_double_le(dist3(sd.p_WCa, v3(1, 0, 0)), 1e-3);
  ck_assert_double_le(dist3(sd.p_WCb, v3(0.8, 0, 0)), 1e-3);
  /* stacked cylinders (face on face): depth 0.1, B above */
  ck_assert_int_eq(teal_shape_pair_signed_distance(&c1, at(0, 0, 0), &c2, at(0.2, 0, 1.4), &sd),
                   TEAL_OK);
  ck_assert_double_eq_tol(sd.distance, -0.1, 1e-9);
  ck_assert_double_le(dist3(sd.nhat_BA_W, v3(0, 0, -1)), 1e-9);
  ck_assert_double_eq_tol(sd.p_WCa.v[2], 1.0, 1e-9);
  ck_assert_double_eq_tol(sd.p_WCb.v[2], 0.9, 1e-9);
  /* separated cylinders side by side: 0.25 apart */
  ck_assert_int_eq(teal_shape_pair_signed_distance(&c1, at(0, 0, 0), &c2, at(0, 1.75, 0.3), &sd),
                   TEAL_OK);
  ck_assert_double_eq_tol(sd.distance, 0.25, 1e-9);
  ck_assert_double_le(dist3(sd.nhat_BA_W, v3(0, -1, 0)), 1e-6);
  /* sphere against the ellipsoid's tip from outside */
  ck_assert_int_eq(teal_shape_pair_signed_distance(&s, at(0, 0, 1), &e, at(0, 0, 0), &sd),
                   TEAL_OK);
  ck_assert_double_eq_tol(sd.distance, 0.2, 1e-9);
  ck_assert_double_le(dist3(sd.nhat_BA_W, v3(0, 0, 1)), 1e-6);
}
END_TEST

/* ---- conventions and invariances for every pair ------------------------ */

static const teal_shape_kind kSolid[] = {TEAL_SHAPE_SPHERE,    TEAL_SHAPE_BOX,
                                         TEAL_SHAPE_CYLINDER,  TEAL_SHAPE_CAPSULE,
                                         TEAL_SHAPE_ELLIPSOID, TEAL_SHAPE_HALF_SPACE,
                                         TEAL_SHAPE_CONVEX};

/* Tolerances of a pair: tight for closed forms and polytope-like pairs,
 * looser where GJK/EPA work on a curved difference (the polished normal is
 * good to about 1e-7 on smooth parts, 1e-5 where a curved shape meets a
 * polytope's edge), loosest for a flagged best estimate. */
static void pair_tolerances(teal_shape_kind a, teal_shape_kind b, unsigned flags, double *tol_d,
                            double *tol_n) {
  int curved = a == TEAL_SHAPE_CYLINDER || a == TEAL_SHAPE_ELLIPSOID ||
               b == TEAL_SHAPE_CYLINDER || b == TEAL_SHAPE_ELLIPSOID;
  int exact = teal_narrowphase_is_analytic(a, b) || !curved;
  *tol_d = exact ? 1e-10 : (flags ? 1e-4 : 1e-7);
  *tol_n = exact ? 1e-8 : (flags ? 2.0 : 1e-4);
}

START_TEST(invariance_every_pair) {
  unsigned s = 41u;
  int n = (int)(sizeof(kSolid) / sizeof(kSolid[0]));
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (kSolid[i] == TEAL_SHAPE_HALF_SPACE && kSolid[j] == TEAL_SHAPE_HALF_SPACE) {
        continue;
      }
      for (int k = 0; k < 40; k++) {
        teal_shape a = rand_shape(&s, kSolid[i]), b = rand_shape(&s, kSolid[j]);
        teal_transform X_WA = rand_pose(&s, 1.0), X_WB = rand_pose(&s, 1.0);
        teal_transform T = rand_pose(&s, 5.0);
        teal_signed_distance sd, moved, swapped;
        ck_assert_int_eq(teal_shape_pair_signed_distance(&a, X_WA, &b, X_WB, &sd), TEAL_OK);
        check_conventions(&sd, 1e-9);
        /* a common rigid motion moves the answer with it */
        ck_assert_int_eq(teal_shape_pair_signed_distance(&a, teal_transform_compose(T, X_WA), &b,
                                                         teal_transform_compose(T, X_WB), &moved),
                         TEAL_OK);
        ck_assert_int_eq(teal_shape_pair_signed_distance(&b, X_WB, &a, X_WA, &swapped), TEAL_OK);
        double tol_d, tol_n;
        pair_tolerances(kSolid[i], kSolid[j], sd.flags | moved.flags | swapped.flags, &tol_d,
                        &tol_n);
        ck_assert_double_le(fabs(sd.distance - moved.distance), tol_d);
        if (fabs(sd.distance) > 1e-6) {
          ck_assert_double_le(dist3(teal_rotation_apply(T.R, sd.nhat_BA_W), moved.nhat_BA_W),
                              tol_n);
        }
        /* swapping A and B negates the normal and swaps the points */
        ck_assert_double_le(fabs(sd.distance - swapped.distance), tol_d);
        if (fabs(sd.distance) > 1e-6) {
          ck_assert_double_le(dist3(sd.nhat_BA_W, teal_vec3_neg(swapped.nhat_BA_W)), tol_n);
        }
        teal_shape_release(&a);
        teal_shape_release(&b);
      }
    }
  }
}
END_TEST

START_TEST(penetration_and_distance_agree_every_pair) {
  /* the penetration query (which may stop early when apart) and the signed
   * distance give the same overlap decision and the same contact */
  unsigned s = 42u;
  int n = (int)(sizeof(kSolid) / sizeof(kSolid[0]));
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (kSolid[i] == TEAL_SHAPE_HALF_SPACE && kSolid[j] == TEAL_SHAPE_HALF_SPACE) {
        continue;
      }
      for (int k = 0; k < 40; k++) {
        teal_shape a = rand_shape(&s, kSolid[i]), b = rand_shape(&s, kSolid[j]);
        teal_transform X_WA = rand_pose(&s, 1.0), X_WB = rand_pose(&s, 1.0);
        teal_signed_distance sd;
        teal_penetration pen;
        int overlapping;
        ck_assert_int_eq(teal_shape_pair_signed_distance(&a, X_WA, &b, X_WB, &sd), TEAL_OK);
        ck_assert_int_eq(teal_shape_pair_penetration(&a, X_WA, &b, X_WB, &pen, &overlapping),
                         TEAL_OK);
        ck_assert_int_eq(overlapping, sd.distance < 0.0);
        if (overlapping) {
          ck_assert_double_eq_tol(pen.depth, -sd.distance, 1e-12);
          ck_assert_double_le(dist3(pen.p_WCa, sd.p_WCa), 1e-12);
          ck_assert_double_le(dist3(pen.p_WCb, sd.p_WCb), 1e-12);
        }
        teal_shape_release(&a);
        teal_shape_release(&b);
      }
    }
  }
}
END_TEST

/* ---- table, errors, allocation ----------------------------------------- */

START_TEST(dispatch_table) {
  for (int i = 0; i < TEAL_SHAPE_KIND_COUNT; i++) {
    for (int j = 0; j < TEAL_SHAPE_KIND_COUNT; j++) {
      ck_assert_int_eq(teal_narrowphase_is_analytic(i, j), teal_narrowphase_is_analytic(j, i));
      ck_assert_int_eq(teal_narrowphase_is_supported(i, j), teal_narrowphase_is_supported(j, i));
      int mesh = i == TEAL_SHAPE_MESH || j == TEAL_SHAPE_MESH;
      int planes = i == TEAL_SHAPE_HALF_SPACE && j == TEAL_SHAPE_HALF_SPACE;
      ck_assert_int_eq(teal_narrowphase_is_supported(i, j), !mesh && !planes);
      if (!mesh && !planes && (i == TEAL_SHAPE_HALF_SPACE || j == TEAL_SHAPE_HALF_SPACE)) {
        ck_assert(teal_narrowphase_is_analytic(i, j));
      }
    }
  }
  ck_assert(teal_narrowphase_is_analytic(TEAL_SHAPE_SPHERE, TEAL_SHAPE_SPHERE));
  ck_assert(teal_narrowphase_is_analytic(TEAL_SHAPE_SPHERE, TEAL_SHAPE_BOX));
  ck_assert(teal_narrowphase_is_analytic(TEAL_SHAPE_SPHERE, TEAL_SHAPE_CAPSULE));
  ck_assert(teal_narrowphase_is_analytic(TEAL_SHAPE_CYLINDER, TEAL_SHAPE_SPHERE));
  ck_assert(teal_narrowphase_is_analytic(TEAL_SHAPE_CAPSULE, TEAL_SHAPE_CAPSULE));
  ck_assert(teal_narrowphase_is_analytic(TEAL_SHAPE_BOX, TEAL_SHAPE_BOX));
  ck_assert(!teal_narrowphase_is_analytic(TEAL_SHAPE_SPHERE, TEAL_SHAPE_ELLIPSOID));
  ck_assert(!teal_narrowphase_is_analytic(TEAL_SHAPE_BOX, TEAL_SHAPE_CYLINDER));
  ck_assert(!teal_narrowphase_is_analytic(TEAL_SHAPE_CONVEX, TEAL_SHAPE_CONVEX));
  ck_assert(!teal_narrowphase_is_analytic(-1, 0));
  ck_assert(!teal_narrowphase_is_supported(0, TEAL_SHAPE_KIND_COUNT));
}
END_TEST

START_TEST(errors) {
  teal_shape s, h, mesh, empty;
  teal_shape_sphere(1, &s, NULL);
  teal_shape_half_space(&h);
  teal_shape_mesh("m.obj", 1, &mesh, NULL);
  memset(&empty, 0, sizeof(empty));
  empty.kind = TEAL_SHAPE_CONVEX;
  teal_transform I = at(0, 0, 0), bad = at(NAN, 0, 0);
  teal_penetration pen;
  teal_signed_distance sd;
  int o;
  ck_assert_int_eq(teal_shape_pair_penetration(&h, I, &h, I, &pen, &o), TEAL_EUNSUPPORTED);
  ck_assert_int_eq(teal_shape_pair_penetration(&s, I, &mesh, I, &pen, &o), TEAL_EUNSUPPORTED);
  ck_assert_int_eq(teal_shape_pair_signed_distance(&mesh, I, &s, I, &sd), TEAL_EUNSUPPORTED);
  ck_assert_int_eq(teal_convex_pair_signed_distance(&s, I, &h, I, &sd), TEAL_EUNSUPPORTED);
  ck_assert_int_eq(teal_shape_pair_penetration(NULL, I, &s, I, &pen, &o), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_pair_penetration(&s, I, &s, I, NULL, &o), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_pair_penetration(&s, I, &s, I, &pen, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_pair_signed_distance(&s, I, &s, I, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_pair_signed_distance(&s, I, &empty, I, &sd), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_pair_penetration(&s, bad, &s, I, &pen, &o), TEAL_ENONFINITE);
  teal_transform badR = I;
  badR.R.m[4] = INFINITY;
  ck_assert_int_eq(teal_shape_pair_signed_distance(&s, I, &s, badR, &sd), TEAL_ENONFINITE);
  teal_shape weird = s;
  weird.kind = (teal_shape_kind)42;
  ck_assert_int_eq(teal_shape_pair_signed_distance(&weird, I, &s, I, &sd), TEAL_EINVAL);
  teal_shape_release(&mesh);
}
END_TEST

START_TEST(queries_do_not_allocate) {
  unsigned s = 51u;
  teal_shape shapes[7];
  for (int i = 0; i < 7; i++) {
    shapes[i] = rand_shape(&s, kSolid[i]);
  }
  unsigned long before = teal_alloc_count();
  for (int k = 0; k < 200; k++) {
    const teal_shape *a = &shapes[k % 7], *b = &shapes[(k / 7) % 7];
    teal_signed_distance sd;
    teal_penetration pen;
    int o;
    teal_transform X_WA = rand_pose(&s, 1.0), X_WB = rand_pose(&s, 1.0);
    teal_shape_pair_signed_distance(a, X_WA, b, X_WB, &sd);
    teal_shape_pair_penetration(a, X_WA, b, X_WB, &pen, &o);
  }
  ck_assert_uint_eq(teal_alloc_count(), before);
  for (int i = 0; i < 7; i++) {
    teal_shape_release(&shapes[i]);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("narrowphase");
  TCase *hand = tcase_create("closed_forms");
  tcase_add_test(hand, sphere_sphere_by_hand);
  tcase_add_test(hand, sphere_box_by_hand);
  tcase_add_test(hand, sphere_capsule_by_hand);
  tcase_add_test(hand, sphere_cylinder_by_hand);
  tcase_add_test(hand, capsule_capsule_by_hand);
  tcase_add_test(hand, box_box_by_hand);
  tcase_add_test(hand, half_space_by_hand);
  tcase_add_test(hand, ellipsoid_vs_half_space_closed_form);
  suite_add_tcase(s, hand);
  TCase *cross = tcase_create("gjk_epa");
  tcase_add_test(cross, sphere_sphere_vs_gjk_epa);
  tcase_add_test(cross, sphere_box_vs_gjk_epa);
  tcase_add_test(cross, sphere_capsule_vs_gjk_epa);
  tcase_add_test(cross, capsule_capsule_vs_gjk_epa);
  tcase_add_test(cross, box_box_vs_gjk_epa);
  tcase_add_test(cross, sphere_cylinder_vs_gjk_epa);
  tcase_add_test(cross, half_space_vs_gjk_epa);
  tcase_add_test(cross, convex_cube_matches_box);
  tcase_add_test(cross, round_ellipsoid_matches_sphere);
  tcase_add_test(cross, generic_pairs_by_hand);
  suite_add_tcase(s, cross);
  TCase *all = tcase_create("every_pair");
  tcase_add_test(all, invariance_every_pair);
  tcase_add_test(all, penetration_and_distance_agree_every_pair);
  tcase_add_test(all, dispatch_table);
  tcase_add_test(all, errors);
  tcase_add_test(all, queries_do_not_allocate);
  suite_add_tcase(s, all);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
