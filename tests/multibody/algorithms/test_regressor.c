/* multibody/algorithms/regressor: the inertial-parameter regressor Y
 * against the RNEA (Y pi + diag(reflected) vdot = tau_ID) on random trees of
 * every joint kind, each column against central differences of the
 * inverse dynamics with the body's inertia perturbed in a plant context,
 * d vdot / d pi against M^-1 from the CRBA (M dvdot_dpi = -Y), the point-mass
 * pendulum's analytic columns, the parameter conversions, no allocation
 * and bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/regressor.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_parameters.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/joint_armature.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define NP TEAL_MB_NUM_INERTIAL_PARAMETERS
#define MAXV 64
#define MAXB 16
#define MAXQ 80

static double Y[MAXV * NP * MAXB], Y2[MAXV * NP * MAXB], M[MAXV * MAXV];

/* A random tree of topology i with a random point (q, v, vdot). */
typedef struct point {
  teal_plant *p;
  int nq, nv, nb;
  double q[MAXQ], v[MAXV], vdot[MAXV];
} point;

static point make_point(int topology, unsigned seed) {
  point x;
  const ts_mb_topology *tp = &ts_mb_topologies[topology];
  x.p = ts_mb_random_tree(tp->spec, tp->n, seed, 1);
  ck_assert_ptr_nonnull(x.p);
  x.nq = teal_plant_nq(x.p), x.nv = teal_plant_nv(x.p), x.nb = teal_plant_num_bodies(x.p);
  ck_assert_int_le(x.nb, MAXB);
  unsigned s = seed * 7 + 3;
  ck_assert_int_eq(ts_mb_rand_state(x.p, &s, x.q, x.v, 1.0), TEAL_OK);
  ts_mb_rand_vec(&s, x.vdot, x.nv, 2.0);
  return x;
}

/* Y pi (+ diag(reflected) vdot, zero on these trees) equals the RNEA with
 * gravity, and the world's block is zero. */
START_TEST(test_matches_rnea) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    point x = make_point(_i, 11 * seed + (unsigned)_i);
    teal_mb_data *d = teal_mb_data_new(x.p, NULL);
    int ld = NP * x.nb;
    double pi[NP * MAXB] = {0}, tau[MAXV], ypi[MAXV];
    for (int b = 1; b < x.nb; b++) {
      ck_assert_int_eq(teal_mb_body_inertial_parameters(x.p, d, b, pi + NP * b), TEAL_OK);
    }
    ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, x.vdot, Y), TEAL_OK);
    ck_assert_int_eq(teal_mb_inverse_dynamics(x.p, d, x.q, x.v, x.vdot, NULL, tau), TEAL_OK);
    for (int i = 0; i < x.nv; i++) {
      ypi[i] = 0.0;
      for (int j = 0; j < ld; j++) {
        ypi[i] += Y[i * ld + j] * pi[j];
      }
      for (int c = 0; c < NP; c++) {
        ck_assert_double_eq(Y[i * ld + c], 0.0);
      }
    }
    double scale = 1.0 + ts_mb_max_abs(tau, x.nv);
    ck_assert_msg(ts_mb_max_abs_diff(ypi, tau, x.nv) < 1e-12 * scale, "%s seed %u: %g",
                  ts_mb_topologies[_i].name, seed, ts_mb_max_abs_diff(ypi, tau, x.nv));
    teal_mb_data_free(d);
    teal_plant_free(x.p);
  }
}
END_TEST

/* tau_ID + diag(reflected) vdot in ctx (the plant's inverse dynamics with
 * gravity passed as an applied force, as the RNEA includes it). */
static void context_rnea(const teal_plant *p, teal_context *ctx, const double *vdot, double *tau) {
  double tau_g[MAXV];
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, tau_g, NULL, tau), TEAL_OK);
}

/* Column (b, c) of Y against (tau(pi + h e_c) - tau(pi - h e_c)) / 2h with
 * body b's inertia set in a plant context from the perturbed parameters. */
static double column_error(const point *x, teal_context *ctx, const double *pi0, int b, int c) {
  const double h = 1e-6;
  double pi[NP], tp[MAXV], tm[MAXV], fd[MAXV], col[MAXV];
  teal_spatial_inertia Mb;
  for (int sgn = 1; sgn >= -1; sgn -= 2) {
    memcpy(pi, pi0, sizeof pi);
    pi[c] += sgn * h;
    ck_assert_int_eq(teal_mb_spatial_inertia_from_parameters(pi, &Mb, NULL), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_body_spatial_inertia_in_context(x->p, ctx, b, &Mb), TEAL_OK);
    context_rnea(x->p, ctx, x->vdot, sgn > 0 ? tp : tm);
  }
  ck_assert_int_eq(teal_mb_spatial_inertia_from_parameters(pi0, &Mb, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_body_spatial_inertia_in_context(x->p, ctx, b, &Mb), TEAL_OK);
  for (int i = 0; i < x->nv; i++) {
    fd[i] = (tp[i] - tm[i]) / (2 * h);
    col[i] = Y[i * NP * x->nb + NP * b + c];
  }
  return ts_mb_max_abs_diff(fd, col, x->nv) / (1.0 + ts_mb_max_abs(col, x->nv));
}

START_TEST(test_columns_against_central_differences) {
  point x = make_point(_i, 31 + (unsigned)_i);
  teal_mb_data *d = teal_mb_data_new(x.p, NULL);
  teal_context *ctx = teal_context_new(teal_plant_system(x.p), NULL);
  ck_assert_ptr_nonnull(ctx);
  ck_assert_int_eq(teal_plant_set_positions(x.p, ctx, x.q, x.nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(x.p, ctx, x.v, x.nv), TEAL_OK);
  ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, x.vdot, Y), TEAL_OK);
  double worst = 0.0;
  for (int b = 1; b < x.nb; b++) {
    double pi0[NP];
    ck_assert_int_eq(teal_mb_body_inertial_parameters(x.p, d, b, pi0), TEAL_OK);
    for (int c = 0; c < NP; c++) {
      worst = fmax(worst, column_error(&x, ctx, pi0, b, c));
    }
  }
  ck_assert_msg(worst < 1e-7, "%s: %g", ts_mb_topologies[_i].name, worst);
  teal_context_free(ctx);
  teal_mb_data_free(d);
  teal_plant_free(x.p);
}
END_TEST

/* M dvdot_dpi = -Y(q, v, vdot) at vdot = ABA(q, v, tau, F), with M from the
 * CRBA; one body's columns equal its block of the full result. */
START_TEST(test_forward_derivatives_against_crba) {
  point x = make_point(_i, 47 + (unsigned)_i);
  teal_mb_data *d = teal_mb_data_new(x.p, NULL);
  unsigned s = 5;
  double tau[MAXV], vdot[MAXV];
  teal_spatial_vector F[MAXB];
  ts_mb_rand_vec(&s, tau, x.nv, 3.0);
  ts_mb_rand_vec(&s, (double *)F, 6 * x.nb, 1.0);
  int ld = NP * x.nb;
  ck_assert_int_eq(teal_mb_forward_dynamics_parameter_derivatives(x.p, d, x.q, x.v, tau, F,
                                                                  TEAL_MB_ALL_BODIES, vdot, Y2),
                   TEAL_OK);
  ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, vdot, Y), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(x.p, d, x.q, M), TEAL_OK);
  double worst = 0.0, scale = 1.0 + ts_mb_max_abs(Y, x.nv * ld);
  for (int i = 0; i < x.nv; i++) {
    for (int j = 0; j < ld; j++) {
      double r = Y[i * ld + j];
      for (int k = 0; k < x.nv; k++) {
        r += M[i * x.nv + k] * Y2[k * ld + j];
      }
      worst = fmax(worst, fabs(r) / scale);
    }
  }
  ck_assert_msg(worst < 1e-11, "%s: %g", ts_mb_topologies[_i].name, worst);
  double one[MAXV * NP], vdot2[MAXV];
  int b = x.nb - 1;
  ck_assert_int_eq(
      teal_mb_forward_dynamics_parameter_derivatives(x.p, d, x.q, x.v, tau, F, b, vdot2, one),
      TEAL_OK);
  ck_assert_double_le(ts_mb_max_abs_diff(vdot, vdot2, x.nv),
                      1e-12 * (1 + ts_mb_max_abs(vdot, x.nv)));
  for (int i = 0; i < x.nv; i++) {
    for (int c = 0; c < NP; c++) {
      ck_assert_double_eq_tol(one[i * NP + c], Y2[i * ld + NP * b + c], 1e-13);
    }
  }
  teal_mb_data_free(d);
  teal_plant_free(x.p);
}
END_TEST

/* A point mass m at distance l on a hinge about y through Bo, gravity g
 * along -z: tau = m l^2 vdot + m g l sin q. In Y: the Iyy column is vdot,
 * the first moment's z column -g sin q, its x column -g cos q, the mass
 * column zero (the mass sits on no lever without its first moment); and
 * along pi(m) = m [1, 0, 0, -l, l^2, 0, l^2, 0, 0, 0], d tau / d m =
 * l^2 vdot + g l sin q. */
static teal_plant *pendulum(double m, double l, double armature, int *b) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia Mb = teal_spatial_inertia_point_mass(m, teal_vec3_make(0, 0, -l));
  *b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
  teal_vec3 axis = teal_vec3_make(0, 1, 0);
  int j = ts_mb_connect(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_BODY, *b, &axis);
  ck_assert_int_eq(teal_plant_set_joint_default_armature(p, j, armature), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(test_point_mass_pendulum) {
  const double m = 1.7, l = 0.8, g = 9.81, q = 0.6, v = -1.3, vdot = 2.1;
  int b;
  teal_plant *p = pendulum(m, l, 0.0, &b);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  ck_assert_int_eq(teal_mb_data_set_gravity(d, teal_vec3_make(0, 0, -g)), TEAL_OK);
  ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(p, d, &q, &v, &vdot, Y), TEAL_OK);
  const double *y = Y + NP * b;
  ck_assert_double_eq_tol(y[0], 0.0, 1e-14);
  ck_assert_double_eq_tol(y[1], -g * cos(q), 1e-13);
  ck_assert_double_eq_tol(y[2], 0.0, 1e-14);
  ck_assert_double_eq_tol(y[3], -g * sin(q), 1e-13);
  ck_assert_double_eq_tol(y[5], vdot, 1e-14);
  double pi[NP], dtau_dm = 0.0;
  ck_assert_int_eq(teal_mb_body_inertial_parameters(p, d, b, pi), TEAL_OK);
  for (int c = 0; c < NP; c++) {
    dtau_dm += y[c] * pi[c] / m;
  }
  ck_assert_double_eq_tol(dtau_dm, l * l * vdot + g * l * sin(q), 1e-12);
  /* d vdot / d m along pi(m) at tau = 0: vdot = -g sin(q) / l does not
   * depend on m, so -M^-1 Y pi / m = 0 */
  double acc, dv[NP], along = 0.0;
  ck_assert_int_eq(
      teal_mb_forward_dynamics_parameter_derivatives(p, d, &q, &v, NULL, NULL, b, &acc, dv),
      TEAL_OK);
  ck_assert_double_eq_tol(acc, -g * sin(q) / l, 1e-12);
  for (int c = 0; c < NP; c++) {
    along += dv[c] * pi[c] / m;
  }
  ck_assert_double_eq_tol(along, 0.0, 1e-12);
  ck_assert_double_eq_tol(dv[5], -acc / (m * l * l), 1e-12); /* d vdot / d Iyy */
  teal_mb_data_free(d);
  teal_plant_free(p);
}
END_TEST

/* An armature is no inertial parameter: Y is the same with one, and
 * tau_ID = Y pi + armature vdot. */
START_TEST(test_armature_outside_pi) {
  const double q = -0.4, v = 0.7, vdot = -1.9, armature = 0.35;
  int b;
  teal_plant *p0 = pendulum(1.2, 0.5, 0.0, &b), *p1 = pendulum(1.2, 0.5, armature, &b);
  teal_mb_data *d0 = teal_mb_data_new(p0, NULL), *d1 = teal_mb_data_new(p1, NULL);
  double pi[NP], tau, ypi = 0.0;
  ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(p0, d0, &q, &v, &vdot, Y), TEAL_OK);
  ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(p1, d1, &q, &v, &vdot, Y2), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_inertial_parameters(p1, d1, b, pi), TEAL_OK);
  ck_assert_int_eq(teal_mb_inverse_dynamics(p1, d1, &q, &v, &vdot, NULL, &tau), TEAL_OK);
  for (int c = 0; c < NP; c++) {
    ck_assert_double_eq(Y[NP * b + c], Y2[NP * b + c]);
    ypi += Y2[NP * b + c] * pi[c];
  }
  ck_assert_double_eq_tol(tau, ypi + armature * vdot, 1e-13);
  ck_assert_double_gt(fabs(armature * vdot), 0.5);
  teal_mb_data_free(d1);
  teal_mb_data_free(d0);
  teal_plant_free(p1);
  teal_plant_free(p0);
}
END_TEST

/* pi of a spatial inertia and back; non-physical parameters are refused. */
START_TEST(test_parameter_conversions) {
  unsigned s = 3;
  teal_spatial_inertia M0 = ts_mb_rand_inertia(&s), M1;
  double pi[NP];
  ck_assert_int_eq(teal_mb_inertial_parameters(&M0, pi), TEAL_OK);
  ck_assert_double_eq(pi[0], M0.mass);
  ck_assert_double_eq_tol(pi[2], M0.mass * M0.p_PScm_E.v[1], 1e-15);
  ck_assert_double_eq(pi[5], M0.I_SP_E.m[4]);
  ck_assert_double_eq(pi[8], M0.I_SP_E.m[2]);
  ck_assert_int_eq(teal_mb_spatial_inertia_from_parameters(pi, &M1, NULL), TEAL_OK);
  ck_assert_double_eq_tol(M1.mass, M0.mass, 1e-15);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(M1.p_PScm_E.v[i], M0.p_PScm_E.v[i], 1e-14);
  }
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(M1.I_SP_E.m[i], M0.I_SP_E.m[i], 1e-15);
  }
  teal_error e = {0};
  double bad[NP];
  memcpy(bad, pi, sizeof bad);
  bad[0] = -1.0;
  TS_EXPECT_ERROR(teal_mb_spatial_inertia_from_parameters(bad, &M1, &e), TEAL_EINVAL, &e,
                  "mass pi[0]");
  bad[0] = pi[0], bad[7] = NAN;
  TS_EXPECT_ERROR(teal_mb_spatial_inertia_from_parameters(bad, &M1, &e), TEAL_ENONFINITE, &e,
                  "pi[7]");
  bad[7] = pi[7], bad[4] = -pi[4]; /* Ixx < 0: no mass distribution has it */
  ck_assert_int_eq(teal_mb_spatial_inertia_from_parameters(bad, &M1, &e), TEAL_EINVAL);
  TS_EXPECT_ERROR(teal_mb_spatial_inertia_from_parameters(NULL, &M1, &e), TEAL_EINVAL, &e, "pi");
  ck_assert_int_eq(teal_mb_inertial_parameters(NULL, pi), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_inertial_parameters(&M0, NULL), TEAL_EINVAL);
}
END_TEST

/* Once the data exists, neither entry allocates. */
START_TEST(test_no_allocation) {
  point x = make_point(1, 5);
  teal_mb_data *d = teal_mb_data_new(x.p, NULL);
  double vdot[MAXV];
  ts_alloc_install();
  for (int r = 0; r < 3; r++) {
    x.q[0] += 0.01;
    ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, x.vdot, Y), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics_parameter_derivatives(x.p, d, x.q, x.v, NULL, NULL,
                                                                    TEAL_MB_ALL_BODIES, vdot, Y2),
                     TEAL_OK);
  }
  ck_assert_uint_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  teal_mb_data_free(d);
  teal_plant_free(x.p);
}
END_TEST

START_TEST(test_bad_input) {
  point x = make_point(0, 9);
  point x2 = make_point(2, 9);
  teal_mb_data *d = teal_mb_data_new(x.p, NULL);
  const teal_error *err = teal_mb_data_error(d);
  double vdot[MAXV], pi[NP];
  ck_assert_int_eq(teal_mb_inverse_dynamics_regressor(x.p, NULL, x.q, x.v, x.vdot, Y), TEAL_EINVAL);
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_regressor(NULL, d, x.q, x.v, x.vdot, Y), TEAL_EINVAL,
                  err, "NULL plant");
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_regressor(x2.p, d, x.q, x.v, x.vdot, Y), TEAL_EINVAL,
                  err, "another plant");
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, NULL, Y), TEAL_EINVAL, err,
                  "vdot");
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, x.vdot, NULL), TEAL_EINVAL,
                  err, "Y");
  TS_EXPECT_ERROR(teal_mb_body_inertial_parameters(x.p, d, 0, pi), TEAL_EINVAL, err, "the world");
  TS_EXPECT_ERROR(teal_mb_body_inertial_parameters(x.p, d, x.nb, pi), TEAL_EINVAL, err,
                  "not a body index");
  TS_EXPECT_ERROR(teal_mb_body_inertial_parameters(x.p, d, 1, NULL), TEAL_EINVAL, err, "pi");
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_parameter_derivatives(x.p, d, x.q, x.v, NULL, NULL, -2, vdot, Y),
      TEAL_EINVAL, err, "body = -2");
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_parameter_derivatives(x.p, d, x.q, x.v, NULL, NULL, 1, NULL, Y),
      TEAL_EINVAL, err, "vdot");
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_parameter_derivatives(x.p, d, x.q, x.v, NULL, NULL, 1, vdot, NULL),
      TEAL_EINVAL, err, "dvdot_dpi");
  x.vdot[1] = NAN;
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, x.vdot, Y), TEAL_ENONFINITE,
                  err, "vdot");
  x.v[0] = INFINITY;
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_regressor(x.p, d, x.q, x.v, x.vdot, Y), TEAL_ENONFINITE,
                  err, "v");
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_parameter_derivatives(x.p, d, x.q, x.v, NULL, NULL, 1, vdot, Y),
      TEAL_ENONFINITE, err, "v");
  teal_mb_data_free(d);
  teal_plant_free(x2.p);
  teal_plant_free(x.p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("regressor");
  TCase *tc = tcase_create("regressor");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_matches_rnea, 0, ts_mb_num_topologies);
  tcase_add_loop_test(tc, test_columns_against_central_differences, 0, ts_mb_num_topologies);
  tcase_add_loop_test(tc, test_forward_derivatives_against_crba, 0, ts_mb_num_topologies);
  tcase_add_test(tc, test_point_mass_pendulum);
  tcase_add_test(tc, test_armature_outside_pi);
  tcase_add_test(tc, test_parameter_conversions);
  tcase_add_test(tc, test_no_allocation);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
