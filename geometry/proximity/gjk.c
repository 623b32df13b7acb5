/* GJK distance on support mappings (see gjk_epa_internal.h).
 *
 * The simplex sub-algorithm finds the point of a segment, triangle or
 * tetrahedron nearest the origin by testing the Voronoi regions of its
 * vertices, edges and faces with dot products (the closed forms in
 * Ericson, Real-Time Collision Detection, ch. 5.1), keeping only the
 * vertices that carry the nearest point. */
#include <math.h>
#include <string.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "geometry/proximity/narrowphase.h"

enum { GJK_MAX_ITERATIONS = 128 };


/* Relative stopping tolerance on |v|^2 - v.w (van den Bergen's eps^2), and
 * the absolute floors (times scale^2 and scale) below which v is zero. */
static const double kRelTol = 1e-13;
static const double kAbsTol = 1e-24;
static const double kTouch = 1e-11;

/* A triangle or tetrahedron whose area or volume is below this fraction of
 * the product of its edge lengths is treated as flat: its sign tests are
 * rounding noise. */
static const double kFlatRatio = 1e-9;

teal_mink_vertex teal_minkowski_support(const teal_minkowski *m, teal_vec3 d) {
  teal_mink_vertex v;
  v.a = teal_support_map_point(&m->A, d);
  v.b = teal_support_map_point(&m->B, teal_vec3_neg(d));
  v.w = teal_vec3_sub(v.a, v.b);
  return v;
}

/* Writes the 1-, 2- or 3-vertex result (vertices by pointer) into out. */
static void set1(teal_simplex *out, const teal_mink_vertex *a) {
  out->n = 1;
  out->v[0] = *a;
  out->lambda[0] = 1.0;
}

static void set2(teal_simplex *out, const teal_mink_vertex *a, const teal_mink_vertex *b,
                 double t) {
  out->n = 2;
  out->v[0] = *a;
  out->v[1] = *b;
  out->lambda[0] = 1.0 - t;
  out->lambda[1] = t;
}

static teal_vec3 simplex_point(const teal_simplex *s) {
  teal_vec3 p = teal_vec3_zero();
  for (int i = 0; i < s->n; i++) {
    p = teal_vec3_add(p, teal_vec3_scale(s->v[i].w, s->lambda[i]));
  }
  return p;
}

/* Nearest point of segment ab to the origin. */
static void segment_closest(const teal_mink_vertex *a, const teal_mink_vertex *b,
                            teal_simplex *out) {
  teal_vec3 ab = teal_vec3_sub(b->w, a->w);
  double t = -teal_vec3_dot(a->w, ab);
  if (t <= 0.0) {
    set1(out, a);
    return;
  }
  double len2 = teal_vec3_dot(ab, ab);
  if (t >= len2) {
    set1(out, b);
    return;
  }
  set2(out, a, b, t / len2);
}

/* Nearest point of triangle abc to the origin: vertex regions, then edge
 * regions (the sign of a 2x2 minor), then the interior. */
static void triangle_closest(const teal_mink_vertex *a, const teal_mink_vertex *b,
                             const teal_mink_vertex *c, teal_simplex *out) {
  teal_vec3 ab = teal_vec3_sub(b->w, a->w), ac = teal_vec3_sub(c->w, a->w);
  double d1 = -teal_vec3_dot(ab, a->w), d2 = -teal_vec3_dot(ac, a->w);
  double d3 = -teal_vec3_dot(ab, b->w), d4 = -teal_vec3_dot(ac, b->w);
  double d5 = -teal_vec3_dot(ab, c->w), d6 = -teal_vec3_dot(ac, c->w);
  double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
  if (d1 <= 0.0 && d2 <= 0.0) {
    set1(out, a);
  } else if (d3 >= 0.0 && d4 <= d3) {
    set1(out, b);
  } else if (d6 >= 0.0 && d5 <= d6) {
    set1(out, c);
  } else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    set2(out, a, b, d1 / (d1 - d3));
  } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    set2(out, a, c, d2 / (d2 - d6));
  } else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    set2(out, b, c, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
  } else if (!(va + vb + vc > kFlatRatio * kFlatRatio * teal_vec3_dot(ab, ab) *
                                   teal_vec3_dot(ac, ac))) {
    /* nearly collinear: the nearest of the three edges */
    teal_simplex e[3];
    memset(e, 0, sizeof(e));
    segment_closest(a, b, &e[0]);
    segment_closest(a, c, &e[1]);
    segment_closest(b, c, &e[2]);
    *out = e[0];
    for (int k = 1; k < 3; k++) {
      teal_vec3 p = simplex_point(&e[k]), q = simplex_point(out);
      *out = teal_vec3_dot(p, p) < teal_vec3_dot(q, q) ? e[k] : *out;
    }
  } else {
    double sum = va + vb + vc; /* = |ab x ac|^2 */
    out->n = 3;
    out->v[0] = *a;
    out->v[1] = *b;
    out->v[2] = *c;
    out->lambda[0] = va / sum;
    out->lambda[1] = vb / sum;
    out->lambda[2] = vc / sum;
  }
}

/* Signed volume (times 6) of the tetrahedron abcd. */
static double volume6(teal_vec3 a, teal_vec3 b, teal_vec3 c, teal_vec3 d) {
  return teal_vec3_dot(teal_vec3_sub(d, a),
                       teal_vec3_cross(teal_vec3_sub(b, a), teal_vec3_sub(c, a)));
}

/* Nearest point of tetrahedron s to the origin: the origin is inside
 * unless it is beyond some face (strictly on the side away from the
 * opposite vertex); the nearest point of those faces wins. A flat
 * tetrahedron has no inside, so all its faces are tried. */
static void tetrahedron_closest(teal_simplex *s) {
  static const int face[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
  const teal_mink_vertex *v = s->v;
  const teal_vec3 o = teal_vec3_zero();
  teal_vec3 e1 = teal_vec3_sub(v[1].w, v[0].w), e2 = teal_vec3_sub(v[2].w, v[0].w);
  teal_vec3 e3 = teal_vec3_sub(v[3].w, v[0].w);
  int flat = !(fabs(volume6(v[0].w, v[1].w, v[2].w, v[3].w)) >
               kFlatRatio * teal_vec3_norm(e1) * teal_vec3_norm(e2) * teal_vec3_norm(e3));
  double best = INFINITY;
  double vols[4], sides[4];
  teal_simplex out = *s;
  for (int f = 0; f < 4; f++) {
    const int *k = face[f];
    vols[k[3]] = volume6(v[k[0]].w, v[k[1]].w, v[k[2]].w, o);
    sides[k[3]] = volume6(v[k[0]].w, v[k[1]].w, v[k[2]].w, v[k[3]].w);
    if (!flat && vols[k[3]] * sides[k[3]] >= 0.0) {
      continue; /* the origin is on the inner side of this face */
    }
    teal_simplex t;
    triangle_closest(&v[k[0]], &v[k[1]], &v[k[2]], &t);
    teal_vec3 p = simplex_point(&t);
    if (teal_vec3_dot(p, p) < best) {
      best = teal_vec3_dot(p, p);
      out = t;
    }
  }
  if (isinf(best)) {
    /* inside: each weight is the volume with its vertex moved to the origin */
    for (int i = 0; i < 4; i++) {
      out.lambda[i] = vols[i] / sides[i];
    }
  }
  *s = out;
}

/* The origin's projection on the plane of triangle s (n == 3) and its
 * weights (sub-triangle areas over the area), computed from the normal:
 * they stay accurate for the long thin triangles of late GJK steps, where
 * the dot-product minors lose digits to cancellation. If rounding put the
 * projection outside the triangle, the minors' answer is kept. */
static teal_vec3 plane_point(teal_simplex *s) {
  teal_vec3 a = s->v[0].w;
  teal_vec3 n = teal_vec3_cross(teal_vec3_sub(s->v[1].w, a), teal_vec3_sub(s->v[2].w, a));
  double nn = teal_vec3_dot(n, n), lam[3];
  teal_vec3 p = teal_vec3_scale(n, teal_vec3_dot(n, a) / nn);
  for (int k = 0; k < 3; k++) {
    teal_vec3 e1 = teal_vec3_sub(s->v[(k + 1) % 3].w, p);
    teal_vec3 e2 = teal_vec3_sub(s->v[(k + 2) % 3].w, p);
    lam[k] = teal_vec3_dot(n, teal_vec3_cross(e1, e2)) / nn;
    if (!(lam[k] >= 0.0)) {
      return simplex_point(s);
    }
  }
  memcpy(s->lambda, lam, sizeof(lam));
  return p;
}

teal_vec3 teal_simplex_closest(teal_simplex *s) {
  teal_simplex out = *s;
  if (s->n == 1) {
    out.lambda[0] = 1.0;
  } else if (s->n == 2) {
    segment_closest(&s->v[0], &s->v[1], &out);
  } else if (s->n == 3) {
    triangle_closest(&s->v[0], &s->v[1], &s->v[2], &out);
  } else {
    tetrahedron_closest(&out);
  }
  *s = out;
  return s->n == 3 ? plane_point(s) : simplex_point(s);
}

/* Index of a vertex of s equal to w (within tol), or -1. */
static int find_vertex(const teal_simplex *s, teal_vec3 w, double tol2) {
  for (int i = 0; i < s->n; i++) {
    teal_vec3 d = teal_vec3_sub(s->v[i].w, w);
    if (teal_vec3_dot(d, d) <= tol2) {
      return i;
    }
  }
  return -1;
}

static void finish(teal_gjk_result *out, const teal_simplex *s, teal_vec3 v) {
  out->simplex = *s;
  out->v = v;
  if (!out->separated) {
    out->distance = out->intersecting ? 0.0 : teal_vec3_norm(v);
  }
  out->p_A = teal_vec3_zero();
  out->p_B = teal_vec3_zero();
  for (int i = 0; i < s->n; i++) {
    out->p_A = teal_vec3_add(out->p_A, teal_vec3_scale(s->v[i].a, s->lambda[i]));
    out->p_B = teal_vec3_add(out->p_B, teal_vec3_scale(s->v[i].b, s->lambda[i]));
  }
}

/* The first support point, along the offset between the two origins. */
static teal_simplex start_simplex(const teal_minkowski *m) {
  teal_vec3 d = teal_vec3_sub(m->B.X_WG.p, m->A.X_WG.p);
  if (!(teal_vec3_dot(d, d) > 0.0)) {
    d = teal_vec3_make(1.0, 0.0, 0.0);
  }
  teal_simplex s = {.n = 1};
  s.v[0] = teal_minkowski_support(m, d);
  s.lambda[0] = 1.0;
  return s;
}

/* Outcomes of a GJK step. */
enum { STEP_ON, STEP_DONE, STEP_STALLED };

/* One GJK step from the nearest point v of simplex s. It stalls when w
 * adds nothing by rounding (already a vertex, or no closer point) although
 * the bounds still differ; the answer is then the last simplex (the
 * narrowphase polishes its direction where that matters). */
static int gjk_step(const teal_minkowski *m, int early, double margin, teal_simplex *s,
                    teal_vec3 *v, teal_gjk_result *out) {
  double vv = teal_vec3_dot(*v, *v), scale2 = m->scale * m->scale;
  if (vv <= kTouch * kTouch * scale2) {
    out->intersecting = 1;
    return STEP_DONE;
  }
  teal_mink_vertex w = teal_minkowski_support(m, teal_vec3_neg(*v));
  double vw = teal_vec3_dot(*v, w.w);
  if (early && vw > 0.0 && vw * vw > margin * margin * vv) {
    out->separated = 1;
    out->distance = vw / sqrt(vv); /* a lower bound */
    return STEP_DONE;
  }
  if (vv - vw <= kRelTol * vv + kAbsTol * scale2) {
    return STEP_DONE;
  }
  teal_simplex next = *s;
  next.v[next.n++] = w;
  teal_vec3 nv = teal_simplex_closest(&next);
  if (next.n == 4) {
    *s = next;
    out->intersecting = 1;
    return STEP_DONE;
  }
  if (find_vertex(s, w.w, kAbsTol * scale2) >= 0 || teal_vec3_dot(nv, nv) >= vv) {
    return STEP_STALLED;
  }
  *s = next;
  *v = nv;
  return STEP_ON;
}

void teal_gjk(const teal_minkowski *m, int early, double early_margin, teal_gjk_result *out) {
  memset(out, 0, sizeof(*out));
  teal_simplex s = start_simplex(m);
  teal_vec3 v = s.v[0].w;
  int step = STEP_ON;
  while (step == STEP_ON && out->iterations < GJK_MAX_ITERATIONS) {
    out->iterations++;
    step = gjk_step(m, early, early_margin, &s, &v, out);
  }
  if (step == STEP_ON) {
    out->flags |= TEAL_QUERY_GJK_ITERATIONS;
  }
  finish(out, &s, v);
}
