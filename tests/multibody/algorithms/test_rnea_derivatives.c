/* multibody/algorithms/rnea_derivatives: the analytic d tau / dq (tangent
 * form), d tau / dv and d tau / dvdot of inverse dynamics against central
 * differences of teal_mb_inverse_dynamics_ex on random trees of every joint
 * kind (gravity, applied torques and spatial forces included), a pendulum's
 * closed form, zero allocation after the workspace, and bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/algorithms/rnea_derivatives.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_dyn_fixtures.h"
#include "support/test_support.h"

#define MAXN TS_MB_DYN_MAXN
#define FD_H 1e-5

typedef struct id_point {
  double q[MAXN], v[MAXN], vdot[MAXN], tau_app[MAXN];
  teal_spatial_vector F[MAXN];
} id_point;

static void random_point(const teal_plant *p, unsigned seed, id_point *x) {
  unsigned s = seed;
  int nv = teal_plant_nv(p);
  ts_mb_dyn_rand_state(p, &s, x->q, x->v);
  ts_mb_rand_vec(&s, x->vdot, nv, 2.0);
  ts_mb_rand_vec(&s, x->tau_app, nv, 3.0);
  ts_mb_dyn_rand_forces(&s, teal_plant_num_bodies(p), x->F);
}

/* Inverse dynamics as the map differenced: tau(q, v, vdot), the applied
 * torques and forces fixed. */
typedef struct inverse_map_data {
  teal_mb_data *d;
  const double *tau_app;
  const teal_spatial_vector *F;
} inverse_map_data;

static void inverse_map(const teal_plant *p, void *user, const double *q, const double *v,
                        const double *vdot, double *tau) {
  const inverse_map_data *m = user;
  ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, m->d, q, v, vdot, m->tau_app, m->F, tau), 0);
}

/* max |analytic - fd| / max(1, max |fd|) over the nv x nv matrix J, fd
 * along the tangent of q (which 0), v (1) or vdot (2). */
static double rel_error_vs_fd(const teal_plant *p, teal_mb_data *d, const id_point *x, int which,
                              const double *J) {
  inverse_map_data m = {d, x->tau_app, x->F};
  return ts_mb_dyn_rel_error_vs_fd(p, inverse_map, &m, x->q, x->v, x->vdot, which, J, FD_H);
}

START_TEST(test_against_central_differences) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 17 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_data *d = teal_mb_data_new(p, NULL);
    teal_mb_derivatives *ws = teal_mb_derivatives_new(p, NULL);
    ck_assert_ptr_nonnull(ws);
    id_point x;
    random_point(p, 7 * seed + 3, &x);
    static double dq[MAXN * MAXN], dv[MAXN * MAXN], da[MAXN * MAXN], M[MAXN * MAXN];
    double tau[MAXN], tau2[MAXN];
    for (int with_forces = 0; with_forces < 2; with_forces++) {
      id_point y = x;
      if (!with_forces) {
        memset(y.tau_app, 0, sizeof y.tau_app);
        memset(y.F, 0, sizeof y.F);
      }
      ck_assert_int_eq(teal_mb_inverse_dynamics_derivatives(p, d, ws, y.q, y.v, y.vdot, y.tau_app,
                                                            y.F, tau, dq, dv, da),
                       TEAL_OK);
      ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, d, y.q, y.v, y.vdot, y.tau_app, y.F, tau2),
                       TEAL_OK);
      ck_assert_double_le(ts_mb_max_abs_diff(tau, tau2, nv), 1e-12 * (1 + ts_mb_max_abs(tau, nv)));
      double eq = rel_error_vs_fd(p, d, &y, 0, dq), ev = rel_error_vs_fd(p, d, &y, 1, dv);
      double ea = rel_error_vs_fd(p, d, &y, 2, da);
      ck_assert_msg(eq < 1e-7 && ev < 1e-7 && ea < 1e-7, "topo %d seed %u forces %d: %g %g %g", _i,
                    seed, with_forces, eq, ev, ea);
      ck_assert_int_eq(teal_mb_mass_matrix(p, d, y.q, M), TEAL_OK);
      ck_assert_double_eq(ts_mb_max_abs_diff(M, da, nv * nv), 0.0);
    }
    teal_mb_derivatives_free(ws);
    teal_mb_data_free(d);
    teal_plant_free(p);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("rnea_derivatives");
  TCase *tc = tcase_create("rnea_derivatives");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_against_central_differences, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
