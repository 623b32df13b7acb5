/* GJK and EPA on support mappings (private to geometry/).
 *
 * Both work on the Minkowski difference M = A - B of two posed convex
 * sets: A and B intersect iff the origin is in M, their distance is the
 * distance of M from the origin, and their penetration depth is the
 * distance from the origin to the boundary of M when it is inside.
 *  - GJK (Gilbert, Johnson and Keerthi 1988, in van den Bergen's form with
 *    relative termination) walks a simplex of support points of M towards
 *    the origin.
 *  - EPA (van den Bergen 2001) grows a polytope inside M from a simplex
 *    that holds the origin, always splitting the face nearest the origin,
 *    until the support point along that face's normal lies on its plane.
 *  - Polishing (polish.c) refines the direction of either answer on curved
 *    parts of M by Newton steps on the support height.
 * Everything lives in fixed-size arrays; nothing is allocated. */
#ifndef TEAL_GEOMETRY_PROXIMITY_GJK_EPA_INTERNAL_H
#define TEAL_GEOMETRY_PROXIMITY_GJK_EPA_INTERNAL_H

#include "geometry/shapes/support.h"

/** A point of M with the points of A and B it came from: w = a - b. */
typedef struct teal_mink_vertex {
  teal_vec3 w, a, b;
} teal_mink_vertex;

/** A simplex of 1 to 4 vertices with the barycentric weights (summing to
 *  1) of the point of its hull nearest the origin. */
typedef struct teal_simplex {
  int n;
  teal_mink_vertex v[4];
  double lambda[4];
} teal_simplex;

/** The Minkowski difference A - B of two support mappings. scale is a
 *  length of the problem (sizes and offset of A and B) for tolerances. */
typedef struct teal_minkowski {
  teal_support_map A, B;
  double scale;
} teal_minkowski;

/** The support point of M along d: a = s_A(d), b = s_B(-d). */
teal_mink_vertex teal_minkowski_support(const teal_minkowski *m, teal_vec3 d);

/** Replaces s by the smallest face of its hull that holds the point of the
 *  hull nearest the origin, sets the weights, and returns that point. */
teal_vec3 teal_simplex_closest(teal_simplex *s);

/** GJK result. */
typedef struct teal_gjk_result {
  int intersecting;   /**< the origin is in M (within tolerance) */
  int separated;      /**< stopped early: a plane separates by > early_margin */
  double distance;    /**< |v| (a lower bound when separated early) */
  teal_vec3 v;        /**< nearest point of M to the origin (p_A - p_B) */
  teal_vec3 p_A, p_B; /**< witness points on A and B */
  teal_simplex simplex;
  int iterations;
  unsigned flags; /**< TEAL_QUERY_GJK_ITERATIONS */
} teal_gjk_result;

/** Runs GJK on m. With early set it stops as soon as a support plane
 *  separates A and B by more than early_margin (out->separated). */
void teal_gjk(const teal_minkowski *m, int early, double early_margin, teal_gjk_result *out);

/** EPA result: depth and the unit normal n_AB pointing from A into B (the
 *  outward normal of M at its boundary point nearest the origin), with the
 *  witness points: p_A - p_B = depth n_AB. */
typedef struct teal_epa_result {
  double depth;
  teal_vec3 n_AB;
  teal_vec3 p_A, p_B;
  int iterations;
  unsigned flags; /**< TEAL_QUERY_EPA_CAPACITY, TEAL_QUERY_EPA_DEGENERATE */
} teal_epa_result;

/** Maximum EPA polytope size (vertices, faces). */
enum { TEAL_EPA_MAX_VERTICES = 130, TEAL_EPA_MAX_FACES = 256 };

/** Runs EPA on m starting from a simplex whose hull holds the origin (as
 *  GJK leaves it when intersecting). Never fails: on a full polytope or a
 *  degenerate start it returns its best estimate with a flag set. */
void teal_epa(const teal_minkowski *m, const teal_simplex *start, teal_epa_result *out);

/** The support height h(n) = n . s_M(n) of M along unit n. */
double teal_polish_height(const teal_minkowski *m, teal_vec3 n);

/** Newton steps from unit *n towards the direction of least support height
 *  (see polish.c); sets *h = h(*n) and returns 1 when *n moved. */
int teal_polish_direction(const teal_minkowski *m, teal_vec3 *n, double *h);

/** Nonzero when no direction kCheck radians from unit n lowers h(n) = h
 *  (a sampled check that a polish ended at a local minimum, not stuck). */
int teal_polish_is_local_min(const teal_minkowski *m, teal_vec3 n, double h);

/** Witness points for a polished direction n and height h (p_A - p_B =
 *  h n): the support point of a shape with unique supports (and the other
 *  at h n from it), else the given pair spread about its midpoint. */
void teal_polish_witnesses(const teal_minkowski *m, teal_vec3 n, double h, teal_vec3 *p_A,
                           teal_vec3 *p_B);

#endif
