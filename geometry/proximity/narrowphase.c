/* The narrowphase dispatch table and entry points (see narrowphase.h).
 *
 * Each entry holds the pair function for (kind of a, kind of b) and whether
 * it is written for the swapped order: then it is called with b and a and
 * its result mirrored (witness points exchanged, normal negated). */
#include "geometry/proximity/narrowphase.h"

#include <math.h>
#include <string.h>

#include "geometry/proximity/narrowphase_internal.h"
#include "geometry/shapes/support.h"

typedef struct pair_entry {
  teal_pair_fn fn;
  int swap;     /* fn takes (b, a) */
  int analytic; /* a closed form, not GJK/EPA */
} pair_entry;

#define FW(f) {teal_np_##f, 0, 1}
#define SW(f) {teal_np_##f, 1, 1}
#define GEN {teal_np_gjk_epa, 0, 0}
#define NONE {NULL, 0, 0}

/* Rows: kind of a; columns: kind of b (sphere, box, cylinder, capsule,
 * ellipsoid, half_space, convex, mesh). */
static const pair_entry kTable[TEAL_SHAPE_KIND_COUNT][TEAL_SHAPE_KIND_COUNT] = {
    /* sphere */
    {FW(sphere_sphere), FW(sphere_box), FW(sphere_cylinder), FW(sphere_capsule), GEN,
     FW(convex_half_space), GEN, NONE},
    /* box */
    {SW(sphere_box), FW(box_box), GEN, GEN, GEN, FW(convex_half_space), GEN, NONE},
    /* cylinder */
    {SW(sphere_cylinder), GEN, GEN, GEN, GEN, FW(convex_half_space), GEN, NONE},
    /* capsule */
    {SW(sphere_capsule), GEN, GEN, FW(capsule_capsule), GEN, FW(convex_half_space), GEN, NONE},
    /* ellipsoid */
    {GEN, GEN, GEN, GEN, GEN, FW(convex_half_space), GEN, NONE},
    /* half_space */
    {SW(convex_half_space), SW(convex_half_space), SW(convex_half_space), SW(convex_half_space),
     SW(convex_half_space), NONE, SW(convex_half_space), NONE},
    /* convex */
    {GEN, GEN, GEN, GEN, GEN, FW(convex_half_space), GEN, NONE},
    /* mesh */
    {NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE},
};

#undef FW
#undef SW
#undef GEN
#undef NONE

/* ---- helpers shared by the pair functions ------------------------------ */

void teal_np_swept_result(teal_vec3 c_A, teal_vec3 c_B, teal_vec3 nhat_BA_W, double d, double r_A,
                          double r_B, teal_signed_distance *out) {
  out->distance = d - r_A - r_B;
  out->nhat_BA_W = nhat_BA_W;
  out->p_WCa = teal_vec3_sub(c_A, teal_vec3_scale(nhat_BA_W, r_A));
  out->p_WCb = teal_vec3_add(c_B, teal_vec3_scale(nhat_BA_W, r_B));
}

teal_vec3 teal_np_perpendicular(teal_vec3 u) {
  /* cross with the axis least aligned with u */
  double ax = fabs(u.v[0]), ay = fabs(u.v[1]), az = fabs(u.v[2]);
  teal_vec3 e = teal_vec3_zero();
  e.v[ax <= ay && ax <= az ? 0 : (ay <= az ? 1 : 2)] = 1.0;
  teal_vec3 p = teal_vec3_cross(u, e);
  return teal_vec3_scale(p, 1.0 / teal_vec3_norm(p));
}

/* ---- dispatch ---------------------------------------------------------- */

static int transform_is_finite(const teal_transform *X) {
  for (int i = 0; i < 9; i++) {
    if (!isfinite(X->R.m[i])) {
      return 0;
    }
  }
  return teal_vec3_is_finite(X->p);
}

static int valid_shape(const teal_shape *s) {
  if (!s || s->kind < 0 || s->kind >= TEAL_SHAPE_KIND_COUNT) {
    return 0;
  }
  return s->kind != TEAL_SHAPE_CONVEX || teal_shape_has_support(s);
}

static int check_args(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                      const teal_transform *X_WB, const void *out) {
  if (!valid_shape(a) || !valid_shape(b) || !out) {
    return TEAL_EINVAL;
  }
  return transform_is_finite(X_WA) && transform_is_finite(X_WB) ? TEAL_OK : TEAL_ENONFINITE;
}

/* Calls fn on (a, b), or on (b, a) mirrored back when swap is set. */
static int call_pair(teal_pair_fn fn, int swap, const teal_shape *a, const teal_transform *X_WA,
                     const teal_shape *b, const teal_transform *X_WB, int need_distance,
                     teal_signed_distance *out) {
  memset(out, 0, sizeof(*out));
  if (!swap) {
    return fn(a, X_WA, b, X_WB, need_distance, out);
  }
  int rc = fn(b, X_WB, a, X_WA, need_distance, out);
  teal_vec3 p = out->p_WCa;
  out->p_WCa = out->p_WCb;
  out->p_WCb = p;
  out->nhat_BA_W = teal_vec3_neg(out->nhat_BA_W);
  return rc;
}

/* Origins closer than kNear times the depth count as coincident (two
 * bounded shapes overlapping by far more than their offset): their answer
 * is settled (teal_np_settle), as is every EPA best estimate. */
static const double kNear = 1e-3;

/* 0: the answer stands; 1: EPA's best estimate; 2: (nearly) coincident. A
 * constant-time check on the answer, so the usual contact pays nothing. */
static int needs_settling(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                          const teal_transform *X_WB, const teal_signed_distance *out) {
  if (!(out->distance < 0.0) || a->kind == TEAL_SHAPE_HALF_SPACE ||
      b->kind == TEAL_SHAPE_HALF_SPACE) {
    return 0;
  }
  teal_vec3 d = teal_vec3_sub(X_WA->p, X_WB->p);
  if (teal_vec3_dot(d, d) <= kNear * kNear * out->distance * out->distance) {
    return 2;
  }
  return (out->flags & (TEAL_QUERY_EPA_CAPACITY | TEAL_QUERY_EPA_DEGENERATE)) != 0;
}

/* Signed distance through the table (generic: GJK/EPA for every pair). */
static int query(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                 const teal_transform *X_WB, int need_distance, int generic,
                 teal_signed_distance *out) {
  int rc = check_args(a, X_WA, b, X_WB, out);
  if (rc) {
    return rc;
  }
  pair_entry e = kTable[a->kind][b->kind];
  if (!e.fn) {
    return TEAL_EUNSUPPORTED;
  }
  if (generic) {
    if (!teal_shape_has_support(a) || !teal_shape_has_support(b)) {
      return TEAL_EUNSUPPORTED;
    }
    e.fn = teal_np_gjk_epa;
    e.swap = 0;
  }
  rc = call_pair(e.fn, e.swap, a, X_WA, b, X_WB, need_distance, out);
  int settle = rc == TEAL_OK ? needs_settling(a, X_WA, b, X_WB, out) : 0;
  if (settle) {
    teal_np_settle(a, X_WA, b, X_WB, settle == 2, out);
  }
  return rc;
}

/* The penetration view of a signed distance. */
static int penetration(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                       const teal_transform *X_WB, int generic, teal_penetration *out,
                       int *overlapping) {
  if (!overlapping || !out) {
    return TEAL_EINVAL;
  }
  *overlapping = 0;
  memset(out, 0, sizeof(*out));
  teal_signed_distance sd;
  int rc = query(a, X_WA, b, X_WB, 0, generic, &sd);
  out->flags = sd.flags;
  if (rc || !(sd.distance < 0.0)) {
    return rc;
  }
  *overlapping = 1;
  out->depth = -sd.distance;
  out->nhat_BA_W = sd.nhat_BA_W;
  out->p_WCa = sd.p_WCa;
  out->p_WCb = sd.p_WCb;
  return TEAL_OK;
}

/* ---- public entry points ----------------------------------------------- */

int teal_shape_pair_penetration(const teal_shape *a, teal_transform X_WA, const teal_shape *b,
                                teal_transform X_WB, teal_penetration *out, int *overlapping) {
  return penetration(a, &X_WA, b, &X_WB, 0, out, overlapping);
}

int teal_shape_pair_signed_distance(const teal_shape *a, teal_transform X_WA,
                                    const teal_shape *b, teal_transform X_WB,
                                    teal_signed_distance *out) {
  return query(a, &X_WA, b, &X_WB, 1, 0, out);
}

int teal_convex_pair_penetration(const teal_shape *a, teal_transform X_WA, const teal_shape *b,
                                 teal_transform X_WB, teal_penetration *out, int *overlapping) {
  return penetration(a, &X_WA, b, &X_WB, 1, out, overlapping);
}

int teal_convex_pair_signed_distance(const teal_shape *a, teal_transform X_WA,
                                     const teal_shape *b, teal_transform X_WB,
                                     teal_signed_distance *out) {
  return query(a, &X_WA, b, &X_WB, 1, 1, out);
}

static int kind_ok(teal_shape_kind k) {
  return k >= 0 && k < TEAL_SHAPE_KIND_COUNT;
}

int teal_narrowphase_is_analytic(teal_shape_kind a, teal_shape_kind b) {
  return kind_ok(a) && kind_ok(b) && kTable[a][b].fn && kTable[a][b].analytic;
}

int teal_narrowphase_is_supported(teal_shape_kind a, teal_shape_kind b) {
  return kind_ok(a) && kind_ok(b) && kTable[a][b].fn != NULL;
}
