/* The kernels of each constraint kind: position errors, rates G_c u, bias
 * b_c = -(Gdot_c v) and forces G_c' lambda (see constraint_specs.h for the
 * equations). Every constraint is built from points and unit vectors
 * fixed on its two bodies; their world kinematics come from the body poses
 * X, velocities V and bias accelerations A (at vdot = 0, so that Gdot v is
 * the second time derivative of perr at zero acceleration). */
#include <math.h>

#include "multibody/constraints/constraint_internal.h"
#include "multibody/constraints/constraint_specs.h"

/* A point fixed on a body: its offset r from the body origin and its
 * world position, velocity and bias acceleration (in W). */
typedef struct point_kin {
  teal_vec3 r, p, v, a;
} point_kin;

/* A unit vector fixed on a body: its value, rate and bias second rate. */
typedef struct dir_kin {
  teal_vec3 d, dd, ddd;
} dir_kin;

static teal_vec3 ang(const teal_spatial_vector *V, int b) {
  return V ? teal_spatial_vector_angular(V[b]) : teal_vec3_zero();
}

static teal_vec3 lin(const teal_spatial_vector *V, int b) {
  return V ? teal_spatial_vector_linear(V[b]) : teal_vec3_zero();
}

/* Point p_B on body b; V and A may be NULL (zero). */
static point_kin point(const teal_transform *X, const teal_spatial_vector *V,
                       const teal_spatial_vector *A, int b, teal_vec3 p_B) {
  point_kin k;
  teal_vec3 w = ang(V, b);
  k.r = teal_rotation_apply(X[b].R, p_B);
  k.p = teal_vec3_add(X[b].p, k.r);
  k.v = teal_vec3_add(lin(V, b), teal_vec3_cross(w, k.r));
  k.a = teal_vec3_add(teal_vec3_add(lin(A, b), teal_vec3_cross(ang(A, b), k.r)),
                      teal_vec3_cross(w, teal_vec3_cross(w, k.r)));
  return k;
}

/* Unit vector d_B fixed on body b; V and A may be NULL (zero). */
static dir_kin direction(const teal_transform *X, const teal_spatial_vector *V,
                         const teal_spatial_vector *A, int b, teal_vec3 d_B) {
  dir_kin k;
  teal_vec3 w = ang(V, b);
  k.d = teal_rotation_apply(X[b].R, d_B);
  k.dd = teal_vec3_cross(w, k.d);
  k.ddd = teal_vec3_add(teal_vec3_cross(ang(A, b), k.d), teal_vec3_cross(w, k.dd));
  return k;
}

/* Adds the force f applied at the point of body b at offset r from Bo. */
static void add_point_force(teal_spatial_vector *F, int b, teal_vec3 r, teal_vec3 f) {
  F[b] = teal_spatial_vector_add(F[b], teal_spatial_vector_make(teal_vec3_cross(r, f), f));
}

static void add_moment(teal_spatial_vector *F, int b, teal_vec3 t) {
  F[b] = teal_spatial_vector_add(F[b], teal_spatial_vector_make(t, teal_vec3_zero()));
}

/* The k-th column of R (a unit axis of the frame R maps from). */
static teal_vec3 column(teal_rotation R, int k) {
  return teal_vec3_make(R.m[k], R.m[3 + k], R.m[6 + k]);
}

/* The weld's three orientation rows pair axes (a of P, b of Q): a . b
 * approaches the rotation vector's components for small misalignments. */
static const int weld_a[3] = {2, 0, 1}, weld_b[3] = {1, 2, 0};

/* ---- position errors ---------------------------------------------------------- */

/* The normal of row i of a point-in-plane (i = 0) or point-on-line. */
static teal_vec3 normal_A(const constraint_rec *c, int i) {
  return c->kind == TEAL_CONSTRAINT_POINT_IN_PLANE ? c->dir_a : i == 0 ? c->perp1 : c->perp2;
}

static void errors_normal(const constraint_rec *c, const teal_transform *X, double *out) {
  point_kin L = point(X, NULL, NULL, c->body_a, c->X_AP.p);
  point_kin S = point(X, NULL, NULL, c->body_b, c->X_BQ.p);
  for (int i = 0; i < c->rows; i++) {
    teal_vec3 n = teal_rotation_apply(X[c->body_a].R, normal_A(c, i));
    out[i] = teal_vec3_dot(n, teal_vec3_sub(S.p, L.p));
  }
}

static void errors_weld(const constraint_rec *c, const teal_transform *X, double *out) {
  teal_rotation R_WP = teal_rotation_mul(X[c->body_a].R, c->X_AP.R);
  teal_rotation R_WQ = teal_rotation_mul(X[c->body_b].R, c->X_BQ.R);
  for (int i = 0; i < 3; i++) {
    out[i] = teal_vec3_dot(column(R_WP, weld_a[i]), column(R_WQ, weld_b[i]));
  }
  point_kin P = point(X, NULL, NULL, c->body_a, c->X_AP.p);
  point_kin Q = point(X, NULL, NULL, c->body_b, c->X_BQ.p);
  teal_vec3 e = teal_vec3_sub(Q.p, P.p);
  for (int i = 0; i < 3; i++) {
    out[3 + i] = e.v[i];
  }
}

void teal_constraint_kernel_errors(const teal_plant *p, const constraint_rec *c,
                                   const teal_transform *X, const double *q, double *out) {
  if (c->kind == TEAL_CONSTRAINT_COUPLER) {
    out[0] = q[JOINT(p)[c->joint0].q_start] - c->ratio * q[JOINT(p)[c->joint1].q_start] - c->offset;
    return;
  }
  if (c->kind == TEAL_CONSTRAINT_WELD) {
    errors_weld(c, X, out);
    return;
  }
  if (c->kind == TEAL_CONSTRAINT_POINT_IN_PLANE || c->kind == TEAL_CONSTRAINT_POINT_ON_LINE) {
    errors_normal(c, X, out);
    return;
  }
  if (c->kind == TEAL_CONSTRAINT_CONSTANT_ANGLE) {
    dir_kin a = direction(X, NULL, NULL, c->body_a, c->dir_a);
    dir_kin b = direction(X, NULL, NULL, c->body_b, c->dir_b);
    out[0] = teal_vec3_dot(a.d, b.d) - c->cos_angle;
    return;
  }
  point_kin P = point(X, NULL, NULL, c->body_a, c->X_AP.p);
  point_kin Q = point(X, NULL, NULL, c->body_b, c->X_BQ.p);
  teal_vec3 e = teal_vec3_sub(Q.p, P.p);
  if (c->kind == TEAL_CONSTRAINT_DISTANCE) {
    out[0] = teal_vec3_norm(e) - c->distance;
    return;
  }
  for (int i = 0; i < 3; i++) { /* ball */
    out[i] = e.v[i];
  }
}

/* ---- rates and second derivatives --------------------------------------------- */

/* The rate (first time derivative) and, when acc is not NULL, the second
 * derivative of each row, from the body poses X, velocities V and
 * accelerations A (NULL: zero) by body. */
typedef struct row_out {
  double *rate, *acc;
} row_out;

static void put(row_out o, int i, double rate, double acc) {
  o.rate[i] = rate;
  if (o.acc) {
    o.acc[i] = acc;
  }
}

static void derivs_points(const constraint_rec *c, const teal_transform *X,
                          const teal_spatial_vector *V, const teal_spatial_vector *A,
                          teal_vec3 p_AP, teal_vec3 p_BQ, row_out o) {
  point_kin P = point(X, V, A, c->body_a, p_AP);
  point_kin Q = point(X, V, A, c->body_b, p_BQ);
  teal_vec3 dv = teal_vec3_sub(Q.v, P.v), da = teal_vec3_sub(Q.a, P.a);
  if (c->kind != TEAL_CONSTRAINT_DISTANCE) {
    for (int i = 0; i < 3; i++) {
      put(o, i, dv.v[i], da.v[i]);
    }
    return;
  }
  teal_vec3 e = teal_vec3_sub(Q.p, P.p);
  double len = teal_vec3_norm(e);
  if (!(len > 0.0)) { /* the direction is undefined where the points meet */
    put(o, 0, 0.0, 0.0);
    return;
  }
  teal_vec3 u = teal_vec3_scale(e, 1.0 / len);
  double uv = teal_vec3_dot(u, dv);
  put(o, 0, uv, teal_vec3_dot(u, da) + (teal_vec3_dot(dv, dv) - uv * uv) / len);
}

static void derivs_normal(const constraint_rec *c, const teal_transform *X,
                          const teal_spatial_vector *V, const teal_spatial_vector *A, row_out o) {
  point_kin L = point(X, V, A, c->body_a, c->X_AP.p);
  point_kin S = point(X, V, A, c->body_b, c->X_BQ.p);
  teal_vec3 r = teal_vec3_sub(S.p, L.p), rd = teal_vec3_sub(S.v, L.v);
  teal_vec3 rdd = teal_vec3_sub(S.a, L.a);
  for (int i = 0; i < c->rows; i++) {
    dir_kin n = direction(X, V, A, c->body_a, normal_A(c, i));
    double rate = teal_vec3_dot(n.dd, r) + teal_vec3_dot(n.d, rd);
    double acc = teal_vec3_dot(n.ddd, r) + 2.0 * teal_vec3_dot(n.dd, rd) + teal_vec3_dot(n.d, rdd);
    put(o, i, rate, acc);
  }
}

/* One angle row between a_A (on body A) and b_B (on body B). */
static void derivs_angle(int body_a, teal_vec3 a_A, int body_b, teal_vec3 b_B,
                         const teal_transform *X, const teal_spatial_vector *V,
                         const teal_spatial_vector *A, row_out o, int i) {
  dir_kin a = direction(X, V, A, body_a, a_A);
  dir_kin b = direction(X, V, A, body_b, b_B);
  double rate = teal_vec3_dot(a.dd, b.d) + teal_vec3_dot(a.d, b.dd);
  double acc =
      teal_vec3_dot(a.ddd, b.d) + 2.0 * teal_vec3_dot(a.dd, b.dd) + teal_vec3_dot(a.d, b.ddd);
  put(o, i, rate, acc);
}

static void derivs_weld(const constraint_rec *c, const teal_transform *X,
                        const teal_spatial_vector *V, const teal_spatial_vector *A, row_out o) {
  for (int i = 0; i < 3; i++) {
    derivs_angle(c->body_a, column(c->X_AP.R, weld_a[i]), c->body_b, column(c->X_BQ.R, weld_b[i]),
                 X, V, A, o, i);
  }
  row_out t = {o.rate + 3, o.acc ? o.acc + 3 : NULL};
  derivs_points(c, X, V, A, c->X_AP.p, c->X_BQ.p, t);
}

static void derivs(const teal_plant *p, const constraint_rec *c, const teal_transform *X,
                   const teal_spatial_vector *V, const teal_spatial_vector *A, const double *u,
                   row_out o) {
  switch (c->kind) {
    case TEAL_CONSTRAINT_COUPLER:
      put(o, 0,
          u ? u[JOINT(p)[c->joint0].v_start] - c->ratio * u[JOINT(p)[c->joint1].v_start] : 0.0,
          0.0);
      break;
    case TEAL_CONSTRAINT_WELD:
      derivs_weld(c, X, V, A, o);
      break;
    case TEAL_CONSTRAINT_POINT_IN_PLANE:
    case TEAL_CONSTRAINT_POINT_ON_LINE:
      derivs_normal(c, X, V, A, o);
      break;
    case TEAL_CONSTRAINT_CONSTANT_ANGLE:
      derivs_angle(c->body_a, c->dir_a, c->body_b, c->dir_b, X, V, A, o, 0);
      break;
    default: /* ball, distance */
      derivs_points(c, X, V, A, c->X_AP.p, c->X_BQ.p, o);
      break;
  }
}

void teal_constraint_kernel_rates(const teal_plant *p, const constraint_rec *c,
                                  const teal_transform *X, const teal_spatial_vector *V,
                                  const double *u, double *out) {
  row_out o = {out, NULL};
  derivs(p, c, X, V, NULL, u, o);
}

void teal_constraint_kernel_bias(const teal_plant *p, const constraint_rec *c,
                                 const teal_transform *X, const teal_spatial_vector *V,
                                 const teal_spatial_vector *A, double *out) {
  double rate[6];
  row_out o = {rate, out};
  derivs(p, c, X, V, A, NULL, o);
  for (int i = 0; i < c->rows; i++) {
    out[i] = -out[i];
  }
}

/* ---- forces -------------------------------------------------------------------- */

/* 1 when the n multipliers are all zero: their force terms are skipped, so
 * that a row of G, the forces of a unit multiplier, costs one row's work. */
static int all_zero(const double *lambda, int n) {
  for (int i = 0; i < n; i++) {
    if (lambda[i] != 0.0) {
      return 0;
    }
  }
  return 1;
}

static void forces_points(const constraint_rec *c, const teal_transform *X, teal_vec3 p_AP,
                          teal_vec3 p_BQ, const double *lambda, teal_spatial_vector *F) {
  int rows = c->kind == TEAL_CONSTRAINT_DISTANCE ? 1 : 3;
  if (all_zero(lambda, rows)) {
    return; /* nothing to add: the rows of G are built from unit multipliers */
  }
  point_kin P = point(X, NULL, NULL, c->body_a, p_AP);
  point_kin Q = point(X, NULL, NULL, c->body_b, p_BQ);
  teal_vec3 f;
  if (c->kind == TEAL_CONSTRAINT_DISTANCE) { /* one row: along the line */
    teal_vec3 e = teal_vec3_sub(Q.p, P.p);
    double len = teal_vec3_norm(e);
    f = len > 0.0 ? teal_vec3_scale(e, lambda[0] / len) : teal_vec3_zero();
  } else {
    f = teal_vec3_make(lambda[0], lambda[1], lambda[2]);
  }
  add_point_force(F, c->body_b, Q.r, f);
  add_point_force(F, c->body_a, P.r, teal_vec3_neg(f));
}

/* The normal rows: lambda n on S (body B), -lambda n on A's point at S. */
static void forces_normal(const constraint_rec *c, const teal_transform *X, const double *lambda,
                          teal_spatial_vector *F) {
  point_kin S = point(X, NULL, NULL, c->body_b, c->X_BQ.p);
  teal_vec3 r_AS = teal_vec3_sub(S.p, X[c->body_a].p);
  for (int i = 0; i < c->rows; i++) {
    teal_vec3 n = teal_rotation_apply(X[c->body_a].R, normal_A(c, i));
    teal_vec3 f = teal_vec3_scale(n, lambda[i]);
    add_point_force(F, c->body_b, S.r, f);
    add_point_force(F, c->body_a, r_AS, teal_vec3_neg(f));
  }
}

/* An angle row: the moment lambda (b x a) on B, its negative on A. */
static void forces_angle(int body_a, teal_vec3 a_A, int body_b, teal_vec3 b_B,
                         const teal_transform *X, double lambda, teal_spatial_vector *F) {
  if (lambda == 0.0) {
    return;
  }
  teal_vec3 a = teal_rotation_apply(X[body_a].R, a_A);
  teal_vec3 b = teal_rotation_apply(X[body_b].R, b_B);
  teal_vec3 t = teal_vec3_scale(teal_vec3_cross(b, a), lambda);
  add_moment(F, body_b, t);
  add_moment(F, body_a, teal_vec3_neg(t));
}

void teal_constraint_kernel_forces(const teal_plant *p, const constraint_rec *c,
                                   const teal_transform *X, const double *lambda,
                                   teal_spatial_vector *F, double *tau) {
  switch (c->kind) {
    case TEAL_CONSTRAINT_COUPLER:
      tau[JOINT(p)[c->joint0].v_start] += lambda[0];
      tau[JOINT(p)[c->joint1].v_start] -= c->ratio * lambda[0];
      break;
    case TEAL_CONSTRAINT_WELD:
      for (int i = 0; i < 3; i++) {
        forces_angle(c->body_a, column(c->X_AP.R, weld_a[i]), c->body_b,
                     column(c->X_BQ.R, weld_b[i]), X, lambda[i], F);
      }
      forces_points(c, X, c->X_AP.p, c->X_BQ.p, lambda + 3, F);
      break;
    case TEAL_CONSTRAINT_POINT_IN_PLANE:
    case TEAL_CONSTRAINT_POINT_ON_LINE:
      forces_normal(c, X, lambda, F);
      break;
    case TEAL_CONSTRAINT_CONSTANT_ANGLE:
      forces_angle(c->body_a, c->dir_a, c->body_b, c->dir_b, X, lambda[0], F);
      break;
    default:
      forces_points(c, X, c->X_AP.p, c->X_BQ.p, lambda, F);
      break;
  }
}
