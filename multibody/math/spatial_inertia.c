/* Rigid-body spatial inertia: constructors for solid shapes, the validity
 * check, the parallel axis shift, re-expression and products. */
#include "multibody/math/spatial_inertia.h"

#include <math.h>

teal_spatial_inertia teal_spatial_inertia_from_central(double mass, teal_vec3 p_PScm_E,
                                                       teal_mat3 I_SScm_E) {
  teal_mat3 shift = teal_mat3_scale(teal_mat3_point_inertia(p_PScm_E), mass);
  return teal_spatial_inertia_make(mass, p_PScm_E, teal_mat3_add(I_SScm_E, shift));
}

teal_spatial_inertia teal_spatial_inertia_solid_sphere(double mass, double radius) {
  double I = 0.4 * mass * radius * radius;
  return teal_spatial_inertia_make(mass, teal_vec3_zero(), teal_mat3_diag(I, I, I));
}

teal_spatial_inertia teal_spatial_inertia_solid_box(double mass, double lx, double ly,
                                                    double lz) {
  double k = mass / 12.0, x2 = lx * lx, y2 = ly * ly, z2 = lz * lz;
  teal_mat3 I = teal_mat3_diag(k * (y2 + z2), k * (x2 + z2), k * (x2 + y2));
  return teal_spatial_inertia_make(mass, teal_vec3_zero(), I);
}

teal_spatial_inertia teal_spatial_inertia_solid_cylinder(double mass, double radius,
                                                         double length) {
  double r2 = radius * radius;
  double Ixx = mass * (3.0 * r2 + length * length) / 12.0;
  return teal_spatial_inertia_make(mass, teal_vec3_zero(),
                                   teal_mat3_diag(Ixx, Ixx, 0.5 * mass * r2));
}

teal_spatial_inertia teal_spatial_inertia_thin_rod(double mass, double length, teal_vec3 axis) {
  double n = teal_vec3_norm(axis);
  if (!(n > 0.0)) {
    return teal_spatial_inertia_make(mass, teal_vec3_zero(), teal_mat3_zero());
  }
  /* |u|^2 1 - u u' = 1 - u u' for the unit axis u */
  teal_mat3 P = teal_mat3_point_inertia(teal_vec3_scale(axis, 1.0 / n));
  return teal_spatial_inertia_make(mass, teal_vec3_zero(),
                                   teal_mat3_scale(P, mass * length * length / 12.0));
}

teal_spatial_inertia teal_spatial_inertia_point_mass(double mass, teal_vec3 p_PQ_E) {
  return teal_spatial_inertia_from_central(mass, p_PQ_E, teal_mat3_zero());
}

teal_mat3 teal_spatial_inertia_central(const teal_spatial_inertia *M) {
  teal_mat3 shift = teal_mat3_scale(teal_mat3_point_inertia(M->p_PScm_E), M->mass);
  return teal_mat3_sub(M->I_SP_E, shift);
}

/* Sorts three numbers ascending. */
static void sort3(double e[3]) {
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2 - i; j++) {
      if (e[j] > e[j + 1]) {
        double t = e[j];
        e[j] = e[j + 1];
        e[j + 1] = t;
      }
    }
  }
}

/* One Jacobi rotation zeroing a[i][j] of the symmetric matrix a. */
static void jacobi_rotate(double a[3][3], int i, int j) {
  if (a[i][j] == 0.0) {
    return;
  }
  double theta = (a[j][j] - a[i][i]) / (2.0 * a[i][j]);
  double t = 1.0 / (fabs(theta) + sqrt(theta * theta + 1.0));
  if (fabs(theta) > 1e150) {
    t = 0.5 / fabs(theta);
  }
  t = theta < 0.0 ? -t : t;
  double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
  a[i][i] -= t * a[i][j];
  a[j][j] += t * a[i][j];
  a[i][j] = a[j][i] = 0.0;
  int k = 3 - i - j; /* the third index */
  double aki = a[k][i], akj = a[k][j];
  a[k][i] = a[i][k] = c * aki - s * akj;
  a[k][j] = a[j][k] = s * aki + c * akj;
}

void teal_inertia_principal_moments(teal_mat3 I, double moments[3]) {
  /* cyclic Jacobi on the symmetric part: accurate to a few ulps of the
   * largest moment even for repeated moments (unlike the closed-form cubic) */
  double a[3][3];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      a[i][j] = 0.5 * (I.m[3 * i + j] + I.m[3 * j + i]);
    }
  }
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (!(off > 1e-40 * diag)) {
      break;
    }
    jacobi_rotate(a, 0, 1);
    jacobi_rotate(a, 0, 2);
    jacobi_rotate(a, 1, 2);
  }
  moments[0] = a[0][0];
  moments[1] = a[1][1];
  moments[2] = a[2][2];
  sort3(moments);
}

/* Checks the finite-ness of every stored number. */
static int inertia_is_finite(const teal_spatial_inertia *M) {
  for (int i = 0; i < 9; i++) {
    if (!isfinite(M->I_SP_E.m[i])) {
      return 0;
    }
  }
  return isfinite(M->mass) && teal_vec3_is_finite(M->p_PScm_E);
}

/* The binary exponent e of x > 0 (x = f 2^e, 0.5 <= f < 1); 0 for x = 0. */
static int exponent_of(double x) {
  int e = 0;
  (void)frexp(x, &e);
  return e;
}

/* I_SP and the central inertia I_SP - m S(p), both scaled by 2^-shift so
 * that the largest term is below 4, and the tolerance basis sum |I_SP_ij| +
 * m |p|^2 on the same scale. Powers of two scale exactly, and no product
 * of two stored numbers is formed, so nothing overflows however large the
 * inertia (terms far below the largest may underflow: they are below any
 * tolerance). */
typedef struct scaled_inertia {
  teal_mat3 I, central;
  double size;
  int shift;
} scaled_inertia;

static scaled_inertia scale_inertia(const teal_spatial_inertia *M) {
  double imax = 0.0, pmax = 0.0;
  for (int i = 0; i < 9; i++) {
    imax = fmax(imax, fabs(M->I_SP_E.m[i]));
  }
  for (int i = 0; i < 3; i++) {
    pmax = fmax(pmax, fabs(M->p_PScm_E.v[i]));
  }
  /* m S(p) has entries below 2 m pmax^2 < 2^(em + 2 ep + 1) */
  int em = exponent_of(M->mass), ep = exponent_of(pmax), ept = em + 2 * ep;
  scaled_inertia s;
  s.shift = imax > 0.0 ? exponent_of(imax) : ept;
  if (pmax > 0.0 && ept > s.shift) {
    s.shift = ept;
  }
  teal_vec3 p = teal_vec3_zero();
  for (int i = 0; pmax > 0.0 && i < 3; i++) {
    p.v[i] = ldexp(M->p_PScm_E.v[i], -ep); /* |p_i| < 1 */
  }
  /* m 2^-shift S(p) = f S(p / 2^ep), f = (m / 2^em) 2^(ept - shift) < 1 */
  double f = pmax > 0.0 ? ldexp(ldexp(M->mass, -em), ept - s.shift) : 0.0;
  teal_mat3 P = teal_mat3_point_inertia(p);
  s.size = f * teal_vec3_dot(p, p);
  for (int i = 0; i < 9; i++) {
    s.I.m[i] = ldexp(M->I_SP_E.m[i], -s.shift);
    s.central.m[i] = s.I.m[i] - f * P.m[i];
    s.size += fabs(s.I.m[i]);
  }
  return s;
}

/* Checks symmetry, semidefiniteness and the triangle inequality of the
 * central inertia, to 1e-12 times the size of the terms, on the scaled
 * inertia (the messages give the moments unscaled). */
static int check_central(const teal_spatial_inertia *M, teal_error *err) {
  scaled_inertia s = scale_inertia(M);
  const double *a = s.I.m, tol = 1e-12 * s.size;
  if (fabs(a[1] - a[3]) > tol || fabs(a[2] - a[6]) > tol || fabs(a[5] - a[7]) > tol) {
    return teal_error_set(err, TEAL_EINVAL, "spatial inertia: rotational inertia is not "
                          "symmetric");
  }
  double e[3], u[3];
  teal_inertia_principal_moments(s.central, e);
  for (int i = 0; i < 3; i++) {
    u[i] = ldexp(e[i], s.shift);
  }
  if (e[0] < -tol) {
    return teal_error_set(err, TEAL_EINVAL,
                          "spatial inertia: central rotational inertia is "
                          "not positive semidefinite (principal moments %g, %g, %g)",
                          u[0], u[1], u[2]);
  }
  /* sorted ascending, so e0 + e1 >= e2 is the only inequality that can fail */
  if (e[0] + e[1] < e[2] - tol) {
    return teal_error_set(err, TEAL_EINVAL,
                          "spatial inertia: principal moments %g, %g, %g "
                          "violate the triangle inequality",
                          u[0], u[1], u[2]);
  }
  return TEAL_OK;
}

int teal_spatial_inertia_check(const teal_spatial_inertia *M, teal_error *err) {
  if (!M) {
    return teal_error_set(err, TEAL_EINVAL, "spatial inertia: NULL inertia");
  }
  if (!inertia_is_finite(M)) {
    return teal_error_set(err, TEAL_ENONFINITE, "spatial inertia: mass, center of mass or "
                          "rotational inertia is not finite");
  }
  if (!(M->mass > 0.0)) {
    return teal_error_set(err, TEAL_EINVAL, "spatial inertia: mass %g is not positive",
                          M->mass);
  }
  if (M->mass < TEAL_SPATIAL_INERTIA_MIN_MASS) {
    return teal_error_set(err, TEAL_EINVAL,
                          "spatial inertia: mass %g is below the smallest "
                          "supported mass %g (TEAL_SPATIAL_INERTIA_MIN_MASS): the mass matrix "
                          "would be numerically singular",
                          M->mass, TEAL_SPATIAL_INERTIA_MIN_MASS);
  }
  return check_central(M, err);
}

teal_spatial_inertia teal_spatial_inertia_shift(const teal_spatial_inertia *M_SP_E,
                                                teal_vec3 p_PQ_E) {
  /* I_SQ = I_SScm + m S(p_QScm) = I_SP + m (S(p_QScm) - S(p_PScm)) */
  teal_vec3 p_QScm = teal_vec3_sub(M_SP_E->p_PScm_E, p_PQ_E);
  teal_mat3 dS = teal_mat3_sub(teal_mat3_point_inertia(p_QScm),
                               teal_mat3_point_inertia(M_SP_E->p_PScm_E));
  teal_mat3 I = teal_mat3_add(M_SP_E->I_SP_E, teal_mat3_scale(dS, M_SP_E->mass));
  return teal_spatial_inertia_make(M_SP_E->mass, p_QScm, I);
}

teal_spatial_inertia teal_spatial_inertia_reexpress(const teal_spatial_inertia *M_SP_E,
                                                    teal_rotation R_FE) {
  teal_mat3 I = teal_mat3_mul(teal_mat3_mul(R_FE, M_SP_E->I_SP_E), teal_mat3_transpose(R_FE));
  /* restore exact symmetry lost to rounding */
  teal_mat3 It = teal_mat3_transpose(I);
  I = teal_mat3_scale(teal_mat3_add(I, It), 0.5);
  return teal_spatial_inertia_make(M_SP_E->mass, teal_rotation_apply(R_FE, M_SP_E->p_PScm_E), I);
}

teal_spatial_inertia teal_spatial_inertia_add(const teal_spatial_inertia *a,
                                              const teal_spatial_inertia *b) {
  double m = a->mass + b->mass;
  teal_vec3 p = teal_vec3_zero();
  if (m != 0.0) {
    p = teal_vec3_add(teal_vec3_scale(a->p_PScm_E, a->mass), teal_vec3_scale(b->p_PScm_E, b->mass));
    p = teal_vec3_scale(p, 1.0 / m);
  }
  return teal_spatial_inertia_make(m, p, teal_mat3_add(a->I_SP_E, b->I_SP_E));
}

teal_spatial_vector teal_spatial_inertia_apply(const teal_spatial_inertia *M,
                                               teal_spatial_vector V) {
  teal_vec3 w = teal_spatial_vector_angular(V), v = teal_spatial_vector_linear(V);
  teal_vec3 mp = teal_vec3_scale(M->p_PScm_E, M->mass);
  teal_vec3 h_ang = teal_vec3_add(teal_mat3_apply(M->I_SP_E, w), teal_vec3_cross(mp, v));
  teal_vec3 h_lin = teal_vec3_add(teal_vec3_scale(v, M->mass), teal_vec3_cross(w, mp));
  return teal_spatial_vector_make(h_ang, h_lin);
}

teal_mat6 teal_spatial_inertia_to_mat6(const teal_spatial_inertia *M) {
  teal_mat3 mpx = teal_mat3_skew(teal_vec3_scale(M->p_PScm_E, M->mass));
  return teal_mat6_from_blocks(M->I_SP_E, mpx, teal_mat3_scale(mpx, -1.0),
                               teal_mat3_scale(teal_mat3_identity(), M->mass));
}

double teal_spatial_inertia_kinetic_energy(const teal_spatial_inertia *M,
                                           teal_spatial_vector V) {
  return 0.5 * teal_spatial_vector_dot(V, teal_spatial_inertia_apply(M, V));
}
