/* multibody/algorithms/data: the dynamics data (its q cache is transparent,
 * its own gravity replaces the plant's), argument checks of every dynamics
 * function, and zero allocations after the data is made. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/topology.h"
#include "support/mb_dyn_fixtures.h"
#include "support/test_support.h"

#define MAXN TS_MB_DYN_MAXN

/* The q cache changes nothing: a fresh data object per call gives bitwise the
 * same results as one reused across different calls. */
START_TEST(test_cache_transparent) {
  teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_TREE, 43);
  int nv = teal_plant_nv(p);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned s = 4;
  double q[MAXN], v[MAXN], v2[MAXN], a[MAXN], b[MAXN], M[MAXN * MAXN];
  ts_mb_dyn_rand_state(p, &s, q, v);
  ts_mb_rand_vec(&s, v2, nv, 1.0);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
  for (int fn = 0; fn < 4; fn++) {
    const double *vv = fn % 2 ? v2 : v;
    teal_mb_data *fresh = teal_mb_data_new(p, NULL);
    for (int pass = 0; pass < 2; pass++) {
      teal_mb_data *w = pass ? fresh : ws;
      double *out = pass ? b : a;
      int st = fn == 0   ? teal_mb_forward_dynamics(p, w, q, vv, NULL, out)
               : fn == 1 ? teal_mb_inverse_dynamics(p, w, q, vv, v, NULL, out)
               : fn == 2 ? teal_mb_bias_term(p, w, q, vv, out)
                         : teal_mb_mass_matrix_times(p, w, q, vv, out);
      ck_assert_int_eq(st, TEAL_OK);
    }
    ck_assert_msg(memcmp(a, b, sizeof(double) * (size_t)nv) == 0, "function %d", fn);
    teal_mb_data_free(fresh);
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* Data's own gravity replaces the plant's in every function. */
START_TEST(test_data_gravity) {
  teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_CHAIN, 12);
  int nv = teal_plant_nv(p);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  teal_mb_data *ref = teal_mb_data_new(p, NULL);
  unsigned s = 6;
  double q[MAXN], v[MAXN], a[MAXN], b[MAXN], pa, pb;
  ts_mb_dyn_rand_state(p, &s, q, v);
  teal_vec3 g2 = teal_vec3_make(1.0, -2.0, 3.0);
  ck_assert_int_eq(teal_mb_data_set_gravity(NULL, g2), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_data_set_gravity(ws, teal_vec3_make(0, NAN, 0)), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_data_set_gravity(ws, g2), TEAL_OK);
  /* ws with g2 against ref reading the plant's gravity, set to g2 later */
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, a), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, &pa), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ref, q, v, NULL, b), TEAL_OK);
  ck_assert_double_gt(ts_mb_max_abs_diff(a, b, nv), 1e-3);
  ck_assert_int_eq(teal_plant_set_gravity(p, g2), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ref, q, v, NULL, b), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, ref, q, &pb), TEAL_OK);
  ck_assert_double_eq(ts_mb_max_abs_diff(a, b, nv), 0.0);
  ck_assert_double_eq(pa, pb);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, a), TEAL_OK);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ref, q, b), TEAL_OK);
  ck_assert_double_eq(ts_mb_max_abs_diff(a, b, nv), 0.0);
  teal_mb_data_free(ws);
  teal_mb_data_free(ref);
  teal_plant_free(p);
}
END_TEST

/* Null, unfinalized and foreign arguments and nonfinite q, v and tau of the
 * plain functions. */
static void check_plain_arguments(const teal_plant *p, const teal_plant *other,
                                  const teal_plant *raw, teal_mb_data *ws, double *q,
                                  double *v) {
  int nv = teal_plant_nv(p);
  double out[MAXN], M[MAXN * MAXN], e;
  ck_assert_int_eq(teal_mb_mass_matrix(p, NULL, q, M), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix(NULL, ws, q, M), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix(raw, ws, q, M), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_mass_matrix(other, ws, q, M), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, NULL, M), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, NULL, NULL, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, NULL), TEAL_EINVAL);
  v[3] = NAN;
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, out), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "v[3]"));
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, out), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, &e), TEAL_ENONFINITE);
  v[3] = 0.1;
  double tau[MAXN] = {0};
  tau[nv - 1] = INFINITY;
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, v, tau, out), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "tau_applied"));
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, out), TEAL_ENONFINITE);
}

/* The functions added with applied forces, M operators and reactions. */
static void check_ex_arguments(const teal_plant *p, const teal_plant *other,
                               const teal_plant *raw, teal_mb_data *ws, const double *q,
                               double *v) {
  double out[MAXN];
  teal_spatial_vector F[16] = {{{0}}}, R[16];
  ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, NULL, q, v, NULL, F, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_forward_dynamics_ex(raw, ws, q, v, NULL, F, out), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_inverse_dynamics_ex(NULL, ws, q, v, v, NULL, F, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_inverse_dynamics_ex(other, ws, q, v, v, NULL, F, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix_times(p, ws, q, NULL, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix_times(raw, ws, q, v, out), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_articulated_factor(raw, ws, q), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, NULL, NULL, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_articulated_solve(NULL, ws, v, NULL, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, q, v, v, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, q, v, NULL, NULL, R), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_reaction_forces(raw, ws, q, v, v, NULL, R), TEAL_ESTATE);
  F[2].v[4] = NAN;
  ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, NULL, F, out), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "F_app_Bo_W[2]"));
  ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, ws, q, v, v, NULL, F, out), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, q, v, v, F, R), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, F, out), TEAL_ENONFINITE);
  F[2].v[4] = 0.0;
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, F, out), TEAL_OK);
  v[1] = NAN;
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, F, out), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_mass_matrix_times(p, ws, q, v, out), TEAL_ENONFINITE);
  v[1] = 0.2;
}

/* A zero quaternion (the floating bodies of the float topology). */
static void check_zero_quaternion(const teal_plant *other, unsigned *s) {
  double q[MAXN], v[MAXN], out[MAXN];
  teal_mb_data *ws = teal_mb_data_new(other, NULL);
  ts_mb_dyn_rand_state(other, s, q, v);
  ck_assert_int_eq(
      teal_plant_joint_kind(other, teal_plant_body_joint(other, teal_plant_node_body(other, 1))),
      TEAL_JOINT_QUATERNION_FLOATING);
  q[teal_plant_get_tree(other)->q_start[1]] = 0.0;
  q[teal_plant_get_tree(other)->q_start[1] + 1] = 0.0;
  q[teal_plant_get_tree(other)->q_start[1] + 2] = 0.0;
  q[teal_plant_get_tree(other)->q_start[1] + 3] = 0.0;
  ck_assert_int_eq(teal_mb_forward_dynamics(other, ws, q, v, NULL, out), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "quaternion"));
  teal_mb_data_free(ws);
}

START_TEST(test_argument_checks) {
  teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_CHAIN, 3);
  teal_plant *other = ts_mb_dyn_make_tree(TS_MB_DYN_FLOAT, 3);
  teal_plant *raw = teal_plant_new(0.0, NULL);
  teal_error err;
  ck_assert_ptr_null(teal_mb_data_new(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_data_new(raw, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double q[MAXN], v[MAXN], out[MAXN], e;
  unsigned s = 5;
  ts_mb_dyn_rand_state(p, &s, q, v);
  check_plain_arguments(p, other, raw, ws, q, v);
  check_ex_arguments(p, other, raw, ws, q, v);
  q[0] = NAN;
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, out), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "q[0]"));
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, &e), TEAL_ENONFINITE);
  ts_mb_dyn_rand_state(p, &s, q, NULL);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, &e), TEAL_OK);
  ck_assert_int_eq(teal_mb_data_error(ws)->code, TEAL_OK);
  teal_mb_data_free(ws);
  check_zero_quaternion(other, &s);
  teal_mb_data_free(NULL);
  teal_plant_free(p);
  teal_plant_free(other);
  teal_plant_free(raw);
}
END_TEST

static unsigned long g_allocs;
static void *count_alloc(size_t n, void *user) {
  (void)user;
  g_allocs++;
  return malloc(n ? n : 1);
}

static void count_free(void *ptr, void *user) {
  (void)user;
  free(ptr);
}

START_TEST(test_no_allocations) {
  teal_allocator a = {count_alloc, count_free, NULL};
  ck_assert_int_eq(teal_set_allocator(&a), TEAL_OK);
  teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_TREE, 8);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nv = teal_plant_nv(p);
  double q[MAXN], v[MAXN], vdot[MAXN], tau[MAXN], M[MAXN * MAXN], e;
  unsigned s = 9;
  ts_mb_dyn_rand_state(p, &s, q, v);
  ts_mb_rand_vec(&s, vdot, nv, 1.0);
  unsigned long before = g_allocs, count_before = teal_alloc_count();
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, vdot, vdot, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, vdot, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, &e), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, &e), TEAL_OK);
  teal_spatial_vector F[16] = {{{0}}}, R[16];
  F[3].v[1] = 0.5;
  ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, ws, q, v, vdot, vdot, F, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, vdot, F, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix_times(p, ws, q, v, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, F, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, q, v, vdot, F, R), TEAL_OK);
  teal_transform X[16];
  teal_spatial_vector V[16], A[16];
  ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, vdot, X, V, A), TEAL_OK);
  v[0] = NAN; /* the error path does not allocate either */
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, tau), TEAL_ENONFINITE);
  ck_assert_uint_eq(g_allocs, before);
  ck_assert_uint_eq(teal_alloc_count(), count_before);
  teal_mb_data_free(ws);
  teal_plant_free(p);
  ck_assert_int_eq(teal_set_allocator(NULL), TEAL_OK);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mb_data");
  TCase *tc = tcase_create("mb_data");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_cache_transparent);
  tcase_add_test(tc, test_data_gravity);
  tcase_add_test(tc, test_argument_checks);
  tcase_add_test(tc, test_no_allocations);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
