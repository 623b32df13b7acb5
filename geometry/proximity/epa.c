/* EPA penetration depth on support mappings (see gjk_epa_internal.h).
 *
 * The polytope is a closed triangle mesh with consistently wound faces
 * (counter-clockwise seen from outside), kept in fixed arrays. To add a
 * support point w, every face that sees w is removed; the directed edges of
 * the removed faces that are not shared by two of them form the horizon,
 * and each horizon edge (a, b) gets a new face (a, b, w), which keeps the
 * winding. Dead face slots are reused. */
#include <math.h>
#include <string.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "geometry/proximity/narrowphase_internal.h"

enum { EPA_MAX_EDGES = 3 * TEAL_EPA_MAX_FACES / 2 };

/* Tolerances, relative to the problem scale: the gap between the support
 * plane and the nearest face that stops the expansion, the height above a
 * face at which a point sees it, and the smallest edge, face area and
 * tetrahedron height accepted. */
static const double kGap = 1e-10;
static const double kSee = 1e-13;
static const double kFlat = 1e-10;

/* A gap below this is a converged answer even when rounding stops the
 * expansion (a new face would turn inwards); above it that is a warning. */
static const double kRoundoff = 1e-8;

/* How much farther than the nearest face the face used for the answer may
 * be (see holding_face). */
static const double kHold = 1e-9;

/* Polishing runs when the support plane along the answer's normal is more
 * than this above the face (a curved difference). */
static const double kExactGap = 1e-13;

typedef struct epa_face {
  int v[3];
  teal_vec3 n; /* outward unit normal */
  double d;    /* n . v0: signed distance of the plane from the origin */
  int state;   /* 0 dead, 1 alive, 2 alive but seen by the new point */
} epa_face;

typedef struct epa_poly {
  teal_mink_vertex vert[TEAL_EPA_MAX_VERTICES];
  epa_face face[TEAL_EPA_MAX_FACES];
  int edge[EPA_MAX_EDGES][2];
  int nv, nf, ne, alive;
  double scale;
  teal_vec3 inside; /* a point strictly inside (the first tetrahedron's centroid) */
} epa_poly;

/* ---- faces ------------------------------------------------------------- */

/* Unit normal of the triangle (a, b, c) in *n; returns 0, or -1 when it
 * is too flat for a reliable normal. */
static int face_normal(const epa_poly *p, int a, int b, int c, teal_vec3 *n) {
  teal_vec3 wa = p->vert[a].w;
  *n = teal_vec3_cross(teal_vec3_sub(p->vert[b].w, wa), teal_vec3_sub(p->vert[c].w, wa));
  double len = teal_vec3_norm(*n);
  if (!(len > kFlat * kFlat * p->scale * p->scale)) {
    return -1;
  }
  *n = teal_vec3_scale(*n, 1.0 / len);
  return 0;
}

/* Fills f as the face (a, b, c); returns 0, or -1 when it is flat. */
static int face_set(const epa_poly *p, epa_face *f, int a, int b, int c) {
  if (face_normal(p, a, b, c, &f->n)) {
    return -1;
  }
  f->v[0] = a;
  f->v[1] = b;
  f->v[2] = c;
  f->d = teal_vec3_dot(f->n, p->vert[a].w);
  f->state = 1;
  return 0;
}

/* A free face slot (a dead one first), or -1. */
static int face_slot(epa_poly *p, int *search_from) {
  for (int i = *search_from; i < p->nf; i++) {
    if (p->face[i].state == 0) {
      *search_from = i + 1;
      return i;
    }
  }
  *search_from = p->nf;
  return p->nf < TEAL_EPA_MAX_FACES ? p->nf++ : -1;
}

static int nearest_face(const epa_poly *p) {
  int best = -1;
  for (int i = 0; i < p->nf; i++) {
    if (p->face[i].state && (best < 0 || p->face[i].d < p->face[best].d)) {
      best = i;
    }
  }
  return best;
}

/* ---- adding a point ---------------------------------------------------- */

/* Adds the directed edge (a, b) to the horizon, or cancels its twin. */
static int edge_toggle(epa_poly *p, int a, int b) {
  for (int i = 0; i < p->ne; i++) {
    if (p->edge[i][0] == b && p->edge[i][1] == a) {
      p->edge[i][0] = p->edge[p->ne - 1][0];
      p->edge[i][1] = p->edge[p->ne - 1][1];
      p->ne--;
      return 0;
    }
  }
  if (p->ne == EPA_MAX_EDGES) {
    return -1;
  }
  p->edge[p->ne][0] = a;
  p->edge[p->ne][1] = b;
  p->ne++;
  return 0;
}

/* Marks the faces that see w (state 2) and collects the horizon; returns
 * the number of faces seen, or -1 when the edge buffer is full. */
static int mark_seen(epa_poly *p, teal_vec3 w) {
  int seen = 0;
  p->ne = 0;
  for (int i = 0; i < p->nf; i++) {
    epa_face *f = &p->face[i];
    if (f->state && teal_vec3_dot(f->n, w) - f->d > kSee * p->scale) {
      f->state = 2;
      seen++;
      for (int k = 0; k < 3; k++) {
        if (edge_toggle(p, f->v[k], f->v[(k + 1) % 3])) {
          return -1;
        }
      }
    }
  }
  return seen;
}

/* Puts the marked faces back (state 2 -> 1) after a failed expansion. */
static void unmark(epa_poly *p) {
  for (int i = 0; i < p->nf; i++) {
    if (p->face[i].state == 2) {
      p->face[i].state = 1;
    }
  }
}

/* Adds vertex vi (already stored) to the hull: returns 0, or a
 * TEAL_QUERY_EPA_* flag with the polytope unchanged. A grown polytope is
 * never nearer the origin, so a new face nearer than dmin (less rounding)
 * means rounding broke the hull: refused as degenerate. */
static unsigned expand(epa_poly *p, int vi, double dmin) {
  int seen = mark_seen(p, p->vert[vi].w);
  if (seen < 0 || p->alive - seen + p->ne > TEAL_EPA_MAX_FACES) {
    unmark(p);
    return TEAL_QUERY_EPA_CAPACITY;
  }
  for (int e = 0; e < p->ne; e++) {
    teal_vec3 n;
    /* a new face must be well shaped and face away from the inside */
    if (face_normal(p, p->edge[e][0], p->edge[e][1], vi, &n) ||
        !(teal_vec3_dot(n, teal_vec3_sub(p->vert[vi].w, p->inside)) > 0.0) ||
        teal_vec3_dot(n, p->vert[vi].w) < dmin - kSee * p->scale) {
      unmark(p);
      return TEAL_QUERY_EPA_DEGENERATE;
    }
  }
  for (int i = 0; i < p->nf; i++) {
    p->face[i].state = p->face[i].state == 2 ? 0 : p->face[i].state;
  }
  int from = 0;
  for (int e = 0; e < p->ne; e++) {
    face_set(p, &p->face[face_slot(p, &from)], p->edge[e][0], p->edge[e][1], vi);
  }
  p->alive += p->ne - seen;
  return 0;
}

/* ---- the starting tetrahedron ------------------------------------------ */

/* Candidate i for the starting tetrahedron: a start vertex, or the support
 * point along +dirs[j] or -dirs[j]. */
static teal_mink_vertex candidate(const teal_minkowski *m, const teal_simplex *s,
                                  const teal_vec3 *dirs, int i) {
  if (i < s->n) {
    return s->v[i];
  }
  int j = i - s->n;
  return teal_minkowski_support(m, teal_vec3_scale(dirs[j / 2], j % 2 ? -1.0 : 1.0));
}

/* Of the candidates (start vertices, supports along +-dirs[0..nd)), the
 * one farthest from the point q (mode 0), the line q + t u (mode 1, unit u)
 * or the plane through q with unit normal u (mode 2); returns the distance. */
static double farthest(const teal_minkowski *m, const teal_simplex *s, const teal_vec3 *dirs,
                       int nd, teal_vec3 q, teal_vec3 u, int mode, teal_mink_vertex *best) {
  double best_d = -1.0;
  for (int i = 0; i < s->n + 2 * nd; i++) {
    teal_mink_vertex c = candidate(m, s, dirs, i);
    teal_vec3 r = teal_vec3_sub(c.w, q);
    double d = mode == 0 ? teal_vec3_norm(r) : (mode == 1 ? teal_vec3_norm(teal_vec3_cross(r, u))
                                                          : fabs(teal_vec3_dot(r, u)));
    if (d > best_d) {
      best_d = d;
      *best = c;
    }
  }
  return best_d;
}

/* Two unit vectors perpendicular to u (nonzero) and to each other. */
static void perpendiculars(teal_vec3 u, teal_vec3 *p1, teal_vec3 *p2) {
  *p1 = teal_np_perpendicular(u);
  *p2 = teal_vec3_cross(teal_vec3_scale(u, 1.0 / teal_vec3_norm(u)), *p1);
}

/* Picks four affinely independent vertices of M, greedily far apart;
 * returns 0, or -1 when M looks flat. */
static int pick_tetrahedron(const teal_minkowski *m, const teal_simplex *s,
                            teal_mink_vertex t[4], double tol) {
  const teal_vec3 axes[3] = {{{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
  teal_vec3 dirs[2], z = teal_vec3_zero();
  t[0] = s->v[0];
  if (farthest(m, s, axes, 3, t[0].w, z, 0, &t[1]) <= tol) {
    return -1;
  }
  teal_vec3 u = teal_vec3_sub(t[1].w, t[0].w);
  perpendiculars(u, &dirs[0], &dirs[1]);
  u = teal_vec3_scale(u, 1.0 / teal_vec3_norm(u));
  if (farthest(m, s, dirs, 2, t[0].w, u, 1, &t[2]) <= tol) {
    return -1;
  }
  teal_vec3 n = teal_vec3_cross(u, teal_vec3_sub(t[2].w, t[0].w));
  n = teal_vec3_scale(n, 1.0 / teal_vec3_norm(n));
  return farthest(m, s, &n, 1, t[0].w, n, 2, &t[3]) <= tol ? -1 : 0;
}

/* The tetrahedron as the first polytope, wound outwards; then the start
 * vertices it missed are added so that it holds the start simplex. */
static int seed(const teal_minkowski *m, const teal_simplex *s, epa_poly *p) {
  static const int faces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
  teal_mink_vertex t[4];
  if (pick_tetrahedron(m, s, t, kFlat * p->scale)) {
    return -1;
  }
  if (teal_vec3_dot(teal_vec3_cross(teal_vec3_sub(t[1].w, t[0].w), teal_vec3_sub(t[2].w, t[0].w)),
                    teal_vec3_sub(t[3].w, t[0].w)) > 0.0) {
    teal_mink_vertex tmp = t[1];
    t[1] = t[2];
    t[2] = tmp;
  }
  memcpy(p->vert, t, sizeof(t));
  p->nv = 4;
  p->inside = teal_vec3_zero();
  for (int k = 0; k < 4; k++) {
    p->inside = teal_vec3_add(p->inside, teal_vec3_scale(t[k].w, 0.25));
  }
  for (int f = 0; f < 4; f++) {
    if (face_set(p, &p->face[f], faces[f][0], faces[f][1], faces[f][2])) {
      return -1;
    }
  }
  p->nf = p->alive = 4;
  for (int i = 0; i < s->n; i++) {
    /* a start vertex outside; one that fails (a hair outside a face, so
     * the faces it would make are slivers) is left out */
    p->vert[p->nv] = s->v[i];
    int seen = mark_seen(p, s->v[i].w);
    unmark(p);
    if (seen > 0 && !expand(p, p->nv, -INFINITY)) {
      p->nv++;
    }
  }
  return 0;
}

/* ---- result ------------------------------------------------------------ */

/* Barycentric weights (summing to 1) of q's projection on face f; returns
 * the smallest, negative when the projection is outside the face. */
static double face_weights(const epa_poly *p, int f, teal_vec3 q, double lam[3]) {
  const epa_face *face = &p->face[f];
  teal_vec3 w[3];
  double sum = 0.0, least = INFINITY;
  for (int k = 0; k < 3; k++) {
    w[k] = teal_vec3_sub(p->vert[face->v[k]].w, q);
  }
  for (int k = 0; k < 3; k++) {
    lam[k] = teal_vec3_dot(face->n, teal_vec3_cross(w[(k + 1) % 3], w[(k + 2) % 3]));
    sum += lam[k];
  }
  for (int k = 0; k < 3; k++) {
    lam[k] = sum > 0.0 ? lam[k] / sum : 1.0 / 3.0;
    least = fmin(least, lam[k]);
  }
  return least;
}

/* The face for the answer: in exact arithmetic the nearest face holds the
 * foot of the origin on its plane, but rounding leaves near-coplanar faces
 * a hair nearer whose feet fall outside. So: of the faces within kHold of
 * the nearest, the nearest one that holds its own foot (f if none does). */
static int holding_face(const epa_poly *p, int f) {
  double lam[3], dmax = p->face[f].d + kHold * p->scale;
  int best = -1;
  for (int i = 0; i < p->nf; i++) {
    const epa_face *g = &p->face[i];
    if (g->state && g->d <= dmax && (best < 0 || g->d < p->face[best].d) &&
        face_weights(p, i, teal_vec3_scale(g->n, g->d), lam) >= -1e-9) {
      best = i;
    }
  }
  return best < 0 ? f : best;
}

/* Depth, normal and witness points from face f: the origin's projection
 * d n on the face in barycentric weights (clamped into the face). */
static void face_result(const epa_poly *p, int f, teal_epa_result *out) {
  f = holding_face(p, f);
  const epa_face *face = &p->face[f];
  double lam[3], sum = 0.0;
  face_weights(p, f, teal_vec3_scale(face->n, face->d), lam);
  for (int k = 0; k < 3; k++) {
    lam[k] = fmax(0.0, lam[k]);
    sum += lam[k];
  }
  out->depth = face->d;
  out->n_AB = face->n;
  out->p_A = out->p_B = teal_vec3_zero();
  for (int k = 0; k < 3; k++) {
    out->p_A = teal_vec3_add(out->p_A, teal_vec3_scale(p->vert[face->v[k]].a, lam[k] / sum));
    out->p_B = teal_vec3_add(out->p_B, teal_vec3_scale(p->vert[face->v[k]].b, lam[k] / sum));
  }
}

/* The fallback for a flat start: the GJK simplex's nearest point. */
static void degenerate_result(const teal_simplex *s, teal_epa_result *out) {
  out->depth = 0.0;
  out->n_AB = teal_vec3_make(0.0, 0.0, 1.0);
  for (int i = 0; i < s->n; i++) {
    out->p_A = teal_vec3_add(out->p_A, teal_vec3_scale(s->v[i].a, s->lambda[i]));
    out->p_B = teal_vec3_add(out->p_B, teal_vec3_scale(s->v[i].b, s->lambda[i]));
  }
  out->flags |= TEAL_QUERY_EPA_DEGENERATE;
}

/* On a curved difference EPA's faces only approximate M, so the normal is
 * off by about the square root of the last gap: polish it (see
 * teal_polish_direction) from the better (lower support height) of the
 * answer's normal and the nearest face's, and take the depth h(n) with
 * matching witness points. A capacity flag is cleared when h is then
 * within the gap tolerance of EPA's lower bound (the answer is certified).
 * (The polish never raises h, and h is an upper bound of the depth, so
 * from a converged EPA the answer is always certified.) */
static void polish(const teal_minkowski *m, const epa_face *nearest, teal_epa_result *out) {
  teal_vec3 n = out->n_AB;
  double h = teal_polish_height(m, n), h_near = teal_polish_height(m, nearest->n);
  int better = h_near < h;
  if (better) {
    n = nearest->n;
    h = h_near;
  }
  if (!(h - nearest->d > kExactGap * m->scale)) {
    return;
  }
  if (!teal_polish_direction(m, &n, &h) && !better) {
    return;
  }
  /* an uncertified answer (EPA stopped short) is taken only from a true
   * minimum, not from a polish stuck on a kink */
  int certified = h - nearest->d <= kGap * m->scale;
  if (!certified && !teal_polish_is_local_min(m, n, h)) {
    return;
  }
  teal_polish_witnesses(m, n, h, &out->p_A, &out->p_B);
  out->depth = h;
  out->n_AB = n;
  if (certified) {
    out->flags &= ~(unsigned)TEAL_QUERY_EPA_CAPACITY;
  }
}

/* ---- the algorithm --------------------------------------------------------- */

void teal_epa(const teal_minkowski *m, const teal_simplex *start, teal_epa_result *out) {
  epa_poly p;
  memset(out, 0, sizeof(*out));
  p.scale = m->scale;
  p.nv = p.nf = p.ne = p.alive = 0;
  if (seed(m, start, &p)) {
    degenerate_result(start, out);
    return;
  }
  int f = nearest_face(&p);
  for (;;) {
    if (p.nv == TEAL_EPA_MAX_VERTICES) {
      out->flags |= TEAL_QUERY_EPA_CAPACITY;
      break;
    }
    teal_mink_vertex w = teal_minkowski_support(m, p.face[f].n);
    double gap = teal_vec3_dot(p.face[f].n, w.w) - p.face[f].d;
    if (gap <= kGap * p.scale) {
      break;
    }
    p.vert[p.nv] = w;
    unsigned flag = expand(&p, p.nv, p.face[f].d);
    if (flag) {
      int rounding = flag == TEAL_QUERY_EPA_DEGENERATE && gap <= kRoundoff * p.scale;
      out->flags |= rounding ? 0u : flag;
      break;
    }
    p.nv++;
    out->iterations++;
    f = nearest_face(&p);
  }
  face_result(&p, f, out);
  polish(m, &p.face[f], out);
}
