/* multibody/algorithms/aba_derivatives: dvdot/dq (tangent form), dvdot/dv
 * and dvdot/dtau of forward dynamics against central differences of
 * teal_mb_forward_dynamics_ex on random trees of every joint kind (gravity
 * and applied forces included), dvdot/dtau against the inverse of the CRBA
 * matrix, no allocation after the workspace, and bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/aba_derivatives.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/tree/topology.h"
#include "solvers/dense.h"
#include "support/error_messages.h"
#include "support/mb_dyn_fixtures.h"
#include "support/test_support.h"

#define MAXN TS_MB_DYN_MAXN
#define FD_H 1e-5

typedef struct fd_point {
  double q[MAXN], v[MAXN], tau[MAXN];
  teal_spatial_vector F[MAXN];
} fd_point;

static void random_point(const teal_plant *p, unsigned seed, fd_point *x) {
  unsigned s = seed;
  ts_mb_dyn_rand_state(p, &s, x->q, x->v);
  ts_mb_rand_vec(&s, x->tau, teal_plant_nv(p), 3.0);
  ts_mb_dyn_rand_forces(&s, teal_plant_num_bodies(p), x->F);
}

/* Forward dynamics as the map differenced: vdot(q, v, tau), forces fixed. */
typedef struct forward_map_data {
  teal_mb_data *d;
  const teal_spatial_vector *F;
} forward_map_data;

static void forward_map(const teal_plant *p, void *user, const double *q, const double *v,
                        const double *tau, double *vdot) {
  const forward_map_data *m = user;
  ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, m->d, q, v, tau, m->F, vdot), TEAL_OK);
}

/* The error of J against the differences along the tangent of q (which
 * 0), v (1) or tau (2). */
static double rel_error_vs_fd(const teal_plant *p, teal_mb_data *d, const fd_point *x, int which,
                              const double *J) {
  forward_map_data m = {d, x->F};
  return ts_mb_dyn_rel_error_vs_fd(p, forward_map, &m, x->q, x->v, x->tau, which, J, FD_H);
}

static double dq[MAXN * MAXN], dv[MAXN * MAXN], dt[MAXN * MAXN];

START_TEST(test_against_central_differences) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 23 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_data *d = teal_mb_data_new(p, NULL);
    teal_mb_derivatives *ws = teal_mb_derivatives_new(p, NULL);
    fd_point x;
    random_point(p, 5 * seed + 1, &x);
    double vdot[MAXN], vdot2[MAXN];
    ck_assert_int_eq(
        teal_mb_forward_dynamics_derivatives(p, d, ws, x.q, x.v, x.tau, x.F, vdot, dq, dv, dt),
        TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, d, x.q, x.v, x.tau, x.F, vdot2), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(vdot, vdot2, nv), 1e-12 * (1 + ts_mb_max_abs(vdot, nv)));
    double eq = rel_error_vs_fd(p, d, &x, 0, dq), ev = rel_error_vs_fd(p, d, &x, 1, dv);
    double et = rel_error_vs_fd(p, d, &x, 2, dt);
    ck_assert_msg(eq < 1e-7 && ev < 1e-7 && et < 1e-7, "topo %d seed %u: %g %g %g", _i, seed, eq,
                  ev, et);
    /* M^-1 M = I with M from the CRBA */
    static double M[MAXN * MAXN], P[MAXN * MAXN];
    ck_assert_int_eq(teal_mb_mass_matrix(p, d, x.q, M), TEAL_OK);
    ck_assert_int_eq(teal_dense_gemm(0, 0, nv, nv, nv, 1.0, dt, M, 0.0, P, NULL), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      for (int j = 0; j < nv; j++) {
        ck_assert_double_eq_tol(P[i * nv + j], i == j ? 1.0 : 0.0, 1e-10);
      }
    }
    teal_mb_derivatives_free(ws);
    teal_mb_data_free(d);
    teal_plant_free(p);
  }
}
END_TEST

/* After the data and the workspace exist, derivative calls allocate nothing. */
START_TEST(test_no_allocation) {
  teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_TREE, 3);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  teal_mb_derivatives *ws = teal_mb_derivatives_new(p, NULL);
  fd_point x;
  random_point(p, 9, &x);
  double vdot[MAXN], tau[MAXN];
  ts_alloc_install();
  for (int r = 0; r < 3; r++) {
    x.q[0] += 0.01;
    ck_assert_int_eq(
        teal_mb_forward_dynamics_derivatives(p, d, ws, x.q, x.v, x.tau, x.F, vdot, dq, dv, dt),
        TEAL_OK);
    ck_assert_int_eq(
        teal_mb_inverse_dynamics_derivatives(p, d, ws, x.q, x.v, vdot, x.tau, x.F, tau, dq, dv, dt),
        TEAL_OK);
  }
  ck_assert_uint_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  teal_mb_derivatives_free(ws);
  teal_mb_data_free(d);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_bad_input) {
  teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_CHAIN, 3);
  teal_plant *p2 = ts_mb_dyn_make_tree(TS_MB_DYN_FLOAT, 3);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  teal_mb_derivatives *ws = teal_mb_derivatives_new(p, NULL);
  teal_mb_derivatives *ws2 = teal_mb_derivatives_new(p2, NULL);
  const teal_error *err = teal_mb_data_error(d);
  fd_point x;
  random_point(p, 9, &x);
  double vdot[MAXN], tau[MAXN];
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_derivatives(p, d, NULL, x.q, x.v, x.tau, NULL, vdot, dq, dv, dt),
      TEAL_EINVAL, err, "workspace ws is NULL");
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_derivatives(p, d, ws2, x.q, x.v, x.tau, NULL, vdot, dq, dv, dt),
      TEAL_EINVAL, err, "another plant's");
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_derivatives(p, d, ws, x.q, x.v, x.tau, NULL, vdot, NULL, dv, dt),
      TEAL_EINVAL, err, "dvdot_dq");
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_derivatives(p, d, ws, x.q, x.v, x.v, NULL, NULL, tau, dq,
                                                       NULL, NULL),
                  TEAL_EINVAL, err, "dtau_dv");
  TS_EXPECT_ERROR(
      teal_mb_inverse_dynamics_derivatives(p, d, ws2, x.q, x.v, x.v, NULL, NULL, tau, dq, dv, NULL),
      TEAL_EINVAL, err, "another plant's");
  x.v[1] = NAN;
  TS_EXPECT_ERROR(teal_mb_inverse_dynamics_derivatives(p, d, ws, x.q, x.v, x.tau, NULL, NULL, tau,
                                                       dq, dv, NULL),
                  TEAL_ENONFINITE, err, "v");
  TS_EXPECT_ERROR(
      teal_mb_forward_dynamics_derivatives(p, d, ws, x.q, x.v, x.tau, NULL, vdot, dq, dv, dt),
      TEAL_ENONFINITE, err, "v");
  teal_error e = {0};
  ck_assert_ptr_null(teal_mb_derivatives_new(NULL, &e));
  ck_assert_int_eq(e.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e.message, "NULL or not finalized"));
  teal_mb_derivatives_free(NULL);
  teal_mb_derivatives_free(ws2);
  teal_mb_derivatives_free(ws);
  teal_mb_data_free(d);
  teal_plant_free(p2);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("aba_derivatives");
  TCase *tc = tcase_create("aba_derivatives");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_against_central_differences, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_test(tc, test_no_allocation);
  tcase_add_test(tc, test_bad_input);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
