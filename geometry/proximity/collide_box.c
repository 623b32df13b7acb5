/* Closed form for box against box: the separating axis test (Gottschalk,
 * Lin and Manocha 1996) over the 15 candidate axes, the 3 face normals of
 * each box and the 9 cross products of their edge directions. The boxes are
 * apart iff their projections on some axis are disjoint; when they overlap
 * on all, the axis of least overlap gives the depth and normal, and the
 * contact pair comes from the features deepest along it: a vertex (or edge
 * or face, then its point nearest the other box's centre) of one box against
 * the face of the other, or the two edges whose cross product it is.
 * Separated boxes, when the distance is wanted, go to GJK. */
#include <math.h>

#include "geometry/proximity/narrowphase_internal.h"

/* Edge axes of nearly parallel edges are skipped (the face axes cover
 * them), and an edge axis must beat the best so far by a relative margin so
 * that face contacts win ties. */
static const double kParallel = 1e-6;
static const double kEdgeBias = 1e-9;

typedef struct obb {
  teal_vec3 c;
  teal_vec3 ax[3]; /* unit axes in the world */
  double h[3];     /* half sizes */
} obb;

typedef struct sat_axis {
  teal_vec3 L;    /* unit, from B towards A */
  double overlap; /* of the projections along L */
  int kind;       /* 0: face of A, 1: face of B, 2: edge of A x edge of B */
  int i, j;
} sat_axis;

static obb make_obb(const teal_shape *s, const teal_transform *X) {
  obb o;
  o.c = X->p;
  for (int k = 0; k < 3; k++) {
    o.ax[k] = teal_vec3_make(X->R.m[k], X->R.m[3 + k], X->R.m[6 + k]);
    o.h[k] = 0.5 * s->size.v[k];
  }
  return o;
}

/* Half the length of the box's projection on L. */
static double radius_along(const obb *o, teal_vec3 L) {
  double r = 0.0;
  for (int k = 0; k < 3; k++) {
    r += o->h[k] * fabs(teal_vec3_dot(L, o->ax[k]));
  }
  return r;
}

/* Tests axis L (unnormalized); returns 0 when it separates the boxes, else
 * 1 after keeping it in best when it overlaps least. */
static int test_axis(const obb *A, const obb *B, teal_vec3 L, int kind, int i, int j,
                     sat_axis *best) {
  double len = teal_vec3_norm(L);
  if (kind == 2 && !(len > kParallel)) {
    return 1;
  }
  L = teal_vec3_scale(L, 1.0 / len);
  double t = teal_vec3_dot(L, teal_vec3_sub(A->c, B->c));
  if (t < 0.0) {
    L = teal_vec3_neg(L);
    t = -t;
  }
  double overlap = radius_along(A, L) + radius_along(B, L) - t;
  double bias = kind == 2 ? kEdgeBias * (A->h[0] + A->h[1] + A->h[2]) : 0.0;
  if (best->kind < 0 || overlap < best->overlap - bias || overlap < 0.0) {
    sat_axis s = {L, overlap, kind, i, j};
    *best = s;
  }
  return overlap >= 0.0;
}

/* The 15 axes; returns 0 as soon as one separates (best is that axis). */
static int find_axis(const obb *A, const obb *B, sat_axis *best) {
  best->kind = -1;
  for (int k = 0; k < 3; k++) {
    if (!test_axis(A, B, A->ax[k], 0, k, 0, best) || !test_axis(A, B, B->ax[k], 1, k, 0, best)) {
      return 0;
    }
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      if (!test_axis(A, B, teal_vec3_cross(A->ax[i], B->ax[j]), 2, i, j, best)) {
        return 0;
      }
    }
  }
  return 1;
}

/* The point of box o deepest along dir; along an axis perpendicular to dir
 * (a tie) the coordinate nearest the point toward. Axis `free` (0..2) is
 * set to the lower end instead (-1: none). */
static teal_vec3 deep_point(const obb *o, teal_vec3 dir, teal_vec3 toward, int free) {
  teal_vec3 p = o->c;
  for (int k = 0; k < 3; k++) {
    double s = teal_vec3_dot(dir, o->ax[k]), x;
    if (k == free) {
      x = -o->h[k];
    } else if (fabs(s) > 1e-12) {
      x = s > 0.0 ? o->h[k] : -o->h[k];
    } else {
      x = fmin(o->h[k], fmax(-o->h[k], teal_vec3_dot(teal_vec3_sub(toward, o->c), o->ax[k])));
    }
    p = teal_vec3_add(p, teal_vec3_scale(o->ax[k], x));
  }
  return p;
}

/* Witness points for the least-overlap axis. */
static void contact_points(const obb *A, const obb *B, const sat_axis *s, teal_vec3 *pa,
                           teal_vec3 *pb) {
  teal_vec3 dL = teal_vec3_scale(s->L, s->overlap);
  if (s->kind == 1) {
    *pa = deep_point(A, teal_vec3_neg(s->L), B->c, -1);
    *pb = teal_vec3_add(*pa, dL);
  } else if (s->kind == 0) {
    *pb = deep_point(B, s->L, A->c, -1);
    *pa = teal_vec3_sub(*pb, dL);
  } else {
    teal_vec3 a0 = deep_point(A, teal_vec3_neg(s->L), B->c, s->i);
    teal_vec3 b0 = deep_point(B, s->L, A->c, s->j);
    teal_np_segment_closest(a0, teal_vec3_scale(A->ax[s->i], 2.0 * A->h[s->i]), b0,
                            teal_vec3_scale(B->ax[s->j], 2.0 * B->h[s->j]), pa, pb);
  }
}

int teal_np_box_box(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                    const teal_transform *X_WB, int need_distance, teal_signed_distance *out) {
  obb A = make_obb(a, X_WA), B = make_obb(b, X_WB);
  sat_axis s;
  if (!find_axis(&A, &B, &s)) {
    if (need_distance) {
      return teal_np_gjk_epa(a, X_WA, b, X_WB, 1, out);
    }
    out->distance = -s.overlap; /* a lower bound of the distance */
    return TEAL_OK;
  }
  out->distance = -s.overlap;
  out->nhat_BA_W = s.L;
  contact_points(&A, &B, &s, &out->p_WCa, &out->p_WCb);
  return TEAL_OK;
}
