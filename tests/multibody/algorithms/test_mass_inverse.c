/* Tests of teal_mb_mass_inverse and teal_mb_mass_blocks_factorize: both
 * back-ends give M^-1 b (checked as M x = b with the CRBA mass matrix), the
 * latest factorization is the one used, and a stale or missing one is
 * TEAL_ESTATE; forward dynamics by the blocks equals the articulated-body
 * recursion; a right-hand side on one tree gives zero on the others. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/math/spatial_inertia.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/topology.h"
#include "support/mb_dyn_fixtures.h"
#include "support/mb_fixtures.h"

#define NMAX 128

/* max_i |(M x - b)_i| with M from CRBA at q. */
static double residual(const teal_plant *p, teal_mb_data *data, const double *q,
                       const double *x, const double *b) {
  int nv = teal_plant_nv(p);
  static double M[NMAX * NMAX];
  ck_assert_int_eq(teal_mb_mass_matrix(p, data, q, M), TEAL_OK);
  double worst = 0.0;
  for (int i = 0; i < nv; i++) {
    double r = -b[i];
    for (int j = 0; j < nv; j++) {
      r += M[i * nv + j] * x[j];
    }
    worst = fmax(worst, fabs(r));
  }
  return worst;
}

/* A forest: the "free" topology (two floating subtrees) and the "tree" one. */
static teal_plant *make_plant(int topology) {
  const ts_mb_topology *top = &ts_mb_topologies[topology];
  teal_plant *p = ts_mb_random_tree(top->spec, top->n, 7u + (unsigned)topology, 1);
  ck_assert_ptr_nonnull(p);
  return p;
}

START_TEST(both_back_ends_solve_m_x_equals_b) {
  for (int k = 0; k < ts_mb_num_topologies; k++) {
    teal_plant *p = make_plant(k);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
    double q[NMAX], v[NMAX], b[NMAX], x_aba[NMAX], x_blk[NMAX], vd[NMAX];
    unsigned s = 11;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ts_mb_rand_vec(&s, b, nv, 2.0);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, data, q, v, NULL, vd), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x_aba), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, data, q), TEAL_OK);
    ck_assert_ptr_nonnull(teal_mb_data_mass_blocks(data));
    ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x_blk), TEAL_OK);
    ck_assert_double_le(residual(p, data, q, x_aba, b), 1e-10);
    ck_assert_double_le(residual(p, data, q, x_blk, b), 1e-10);
    ck_assert_double_le(ts_mb_max_abs_diff(x_aba, x_blk, nv), 1e-10);
    (void)nq;
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(block_forward_dynamics_matches_aba) {
  for (int k = 0; k < ts_mb_num_topologies; k++) {
    teal_plant *p = make_plant(k);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
    double q[NMAX], v[NMAX], tau[NMAX], vd_aba[NMAX], vd_blk[NMAX];
    teal_spatial_vector F[64];
    unsigned s = 21u + (unsigned)k;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ts_mb_rand_vec(&s, tau, nv, 2.0);
    ts_mb_dyn_rand_forces(&s, nb, F);
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, data, q, v, tau, F, vd_aba), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics_blocks(p, data, q, v, tau, F, vd_blk), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(vd_aba, vd_blk, nv),
                        1e-10 * (1.0 + ts_mb_max_abs(vd_aba, nv)));
    /* without applied forces */
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, data, q, v, NULL, NULL, vd_aba), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics_blocks(p, data, q, v, NULL, NULL, vd_blk), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(vd_aba, vd_blk, nv),
                        1e-10 * (1.0 + ts_mb_max_abs(vd_aba, nv)));
    /* the blocks stay for teal_mb_mass_inverse */
    ck_assert_ptr_nonnull(teal_mb_data_mass_blocks(data));
    /* bad input reaches the caller with data's message */
    v[0] = NAN;
    ck_assert_int_eq(teal_mb_forward_dynamics_blocks(p, data, q, v, NULL, NULL, vd_blk),
                     TEAL_ENONFINITE);
    ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "v[0]"));
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

/* The block solve keeps small trees' blocks inverted and larger ones
 * factored, and skips a tree whose part of b is zero: a right-hand side on
 * one tree at a time gives zero on every other tree and M x = b. */
START_TEST(a_right_hand_side_on_one_tree_stays_on_it) {
  int small = 0, large = 0;
  for (int k = 0; k < ts_mb_num_topologies; k++) {
    teal_plant *p = make_plant(k);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    const teal_mb_trees *tr = teal_plant_forest(p);
    int nv = teal_plant_nv(p);
    double q[NMAX], v[NMAX], b[NMAX], x[NMAX];
    unsigned s = 31u + (unsigned)k;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, data, q), TEAL_OK);
    for (int t = 0; t < tr->ntrees; t++) {
      small += teal_mb_trees_tree_nv(tr, t) <= 8;
      large += teal_mb_trees_tree_nv(tr, t) > 8;
      ts_mb_rand_vec(&s, b, nv, 2.0);
      for (int j = 0; j < nv; j++) {
        b[j] = tr->dof_tree[j] == t ? b[j] : 0.0;
      }
      ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x), TEAL_OK);
      ck_assert_double_le(residual(p, data, q, x, b), 1e-10);
      for (int j = 0; j < nv; j++) {
        ck_assert(tr->dof_tree[j] == t || x[j] == 0.0);
      }
    }
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
  ck_assert_int_gt(small, 0); /* both kinds of block were exercised */
  ck_assert_int_gt(large, 0);
}
END_TEST

START_TEST(the_latest_factorization_is_used) {
  teal_plant *p = make_plant(0);
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  int nv = teal_plant_nv(p);
  double q[NMAX], v[NMAX], b[NMAX], x1[NMAX], x2[NMAX], vd[NMAX];
  unsigned s = 5;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  ts_mb_rand_vec(&s, b, nv, 1.0);
  ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, data, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x1), TEAL_OK);
  /* forward dynamics refactors by articulated bodies: that one is used now
   * (equal up to rounding, so compare against a direct articulated solve) */
  ck_assert_int_eq(teal_mb_forward_dynamics(p, data, q, v, NULL, vd), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x2), TEAL_OK);
  double x3[NMAX];
  ck_assert_int_eq(teal_mb_articulated_solve(p, data, b, NULL, x3), TEAL_OK);
  ck_assert_mem_eq(x2, x3, (size_t)nv * sizeof(double));
  ck_assert_double_le(ts_mb_max_abs_diff(x1, x2, nv), 1e-10);
  /* x may alias b */
  memcpy(x3, b, (size_t)nv * sizeof(double));
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, x3, x3), TEAL_OK);
  ck_assert_mem_eq(x2, x3, (size_t)nv * sizeof(double));
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

START_TEST(no_or_stale_factorization_is_an_error) {
  teal_plant *p = make_plant(0);
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  int nv = teal_plant_nv(p), nq = teal_plant_nq(p);
  double q[NMAX], v[NMAX], b[NMAX] = {0}, x[NMAX], M[NMAX * NMAX];
  unsigned s = 9;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "no factorization"));
  ck_assert_ptr_null(teal_mb_data_mass_blocks(data));
  ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, data, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x), TEAL_OK);
  /* another q makes both factorizations stale */
  q[0] += 0.25;
  ck_assert_int_eq(teal_mb_mass_matrix(p, data, q, M), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x), TEAL_ESTATE);
  ck_assert_ptr_null(teal_mb_data_mass_blocks(data));
  /* bad arguments */
  b[nv - 1] = NAN;
  ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, data, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, b, x), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, NULL, x), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_inverse(p, data, x, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_inverse(p, NULL, x, x), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, NULL, q), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, data, NULL), TEAL_EINVAL);
  (void)nq;
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

START_TEST(an_indefinite_block_names_its_tree) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  /* a free point mass: no rotational inertia, so its 6 x 6 block is singular */
  teal_spatial_inertia point = teal_spatial_inertia_point_mass(1.0, teal_vec3_zero());
  int b = teal_plant_add_rigid_body(p, "point", TEAL_DEFAULT_MODEL_INSTANCE, &point);
  ck_assert_int_ge(b, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  double q[7] = {1, 0, 0, 0, 0, 0, 0};
  ck_assert_int_eq(teal_mb_mass_blocks_factorize(p, data, q), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "tree 0"));
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mass_inverse");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, both_back_ends_solve_m_x_equals_b);
  tcase_add_test(tc, block_forward_dynamics_matches_aba);
  tcase_add_test(tc, a_right_hand_side_on_one_tree_stays_on_it);
  tcase_add_test(tc, the_latest_factorization_is_used);
  tcase_add_test(tc, no_or_stale_factorization_is_an_error);
  tcase_add_test(tc, an_indefinite_block_names_its_tree);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
