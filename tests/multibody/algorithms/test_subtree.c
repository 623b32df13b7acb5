/* Subtrees: topology on the every-joint tree fixture, and positions,
 * velocities, accelerations and their perturbations against whole-tree
 * results (teal_mb_body_accelerations) re-expressed relative to the
 * ancestor by the transport theorem, recomputed at the perturbed q, v, vdot. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/subtree.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAXB 16
#define MAXN 64
#define TOL 1e-11

/* body of entry i of the fixture's "tree" spec (added in order after the world) */
#define B(i) ((i) + 1)

static teal_plant *tree_plant(unsigned seed) {
  for (int i = 0; i < ts_mb_num_topologies; i++) {
    if (strcmp(ts_mb_topologies[i].name, "tree") == 0) {
      return ts_mb_random_tree(ts_mb_topologies[i].spec, ts_mb_topologies[i].n, seed, 1);
    }
  }
  return NULL;
}

/* The plant parent body of body b (-1 for the world). */
static int parent_body(const teal_plant *p, int b) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int k = teal_plant_body_node(p, b);
  return k == 0 ? -1 : teal_plant_node_body(p, t->parent[k]);
}

static int in_list(const int *x, int n, int v) {
  for (int i = 0; i < n; i++) {
    if (x[i] == v) {
      return 1;
    }
  }
  return 0;
}

/* The subtree's structure: parents, children, membership and q, v maps. */
static void check_structure(const teal_plant *p, const teal_mb_subtree *s, const int *expect,
                            int n) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_mb_subtree_num_bodies(s), n);
  ck_assert_int_eq(teal_mb_subtree_body(s, 0), teal_mb_subtree_ancestor(s));
  ck_assert_int_eq(teal_mb_subtree_parent(s, 0), -1);
  int nq = 0, nv = 0, nchild = 0;
  for (int i = 0; i < n; i++) {
    int b = teal_mb_subtree_body(s, i);
    ck_assert(in_list(expect, n, b));
    ck_assert_int_eq(teal_mb_subtree_index_of_body(s, b), i);
    if (i > 0) {
      int pi = teal_mb_subtree_parent(s, i);
      ck_assert_int_lt(pi, i);
      ck_assert_int_eq(teal_mb_subtree_body(s, pi), parent_body(p, b));
      nq += t->nq[teal_plant_body_node(p, b)];
      nv += t->nv[teal_plant_body_node(p, b)];
    }
    for (int j = 0; j < teal_mb_subtree_num_children(s, i); j++, nchild++) {
      ck_assert_int_eq(teal_mb_subtree_parent(s, teal_mb_subtree_child(s, i, j)), i);
    }
  }
  ck_assert_int_eq(nchild, n - 1);
  ck_assert_int_eq(teal_mb_subtree_nq(s), nq);
  ck_assert_int_eq(teal_mb_subtree_nv(s), nv);
  for (int j = 0; j < nv; j++) { /* each v index belongs to a subtree body's joint */
    int vi = teal_mb_subtree_v_index(s, j), found = 0;
    for (int i = 1; i < n; i++) {
      int k = teal_plant_body_node(p, teal_mb_subtree_body(s, i));
      found += vi >= t->v_start[k] && vi < t->v_start[k] + t->nv[k];
    }
    ck_assert_int_eq(found, 1);
  }
  ck_assert_int_eq(teal_mb_subtree_body(s, n), -1);
  ck_assert_int_eq(teal_mb_subtree_child(s, 0, n), -1);
}

START_TEST(test_topology) {
  teal_plant *p = tree_plant(5);
  ck_assert_ptr_nonnull(p);
  teal_error err;
  /* two branches meeting at the floating base b0 */
  int term[2] = {B(10), B(6)};
  teal_mb_subtree *s = teal_mb_subtree_new(p, term, 2, -1, &err);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_mb_subtree_ancestor(s), B(0));
  ck_assert_int_eq(teal_mb_subtree_num_terminal_bodies(s), 2);
  ck_assert_int_eq(teal_mb_subtree_terminal_body(s, 1), B(6));
  ck_assert_int_eq(teal_mb_subtree_terminal_body(s, 2), -1);
  ck_assert_ptr_eq(teal_mb_subtree_plant(s), p);
  int e1[8] = {B(0), B(1), B(3), B(9), B(10), B(2), B(5), B(6)};
  check_structure(p, s, e1, 8);
  ck_assert_int_eq(teal_mb_subtree_index_of_body(s, B(4)), -1);
  teal_mb_subtree_free(s);
  /* the same with the world as the given ancestor */
  s = teal_mb_subtree_new(p, term, 2, 0, &err);
  int e2[9] = {0, B(0), B(1), B(3), B(9), B(10), B(2), B(5), B(6)};
  check_structure(p, s, e2, 9);
  teal_mb_subtree_free(s);
  /* a terminal body that is the ancestor, and a non-leaf terminal body */
  int term3[3] = {B(1), B(3), B(4)};
  s = teal_mb_subtree_new(p, term3, 3, -1, &err);
  int e3[3] = {B(1), B(3), B(4)};
  check_structure(p, s, e3, 3);
  teal_mb_subtree_free(s);
  /* a single body: only the ancestor, no coordinates */
  s = teal_mb_subtree_new(p, term3 + 1, 1, -1, &err);
  check_structure(p, s, term3 + 1, 1);
  teal_mb_subtree_free(s);
  /* no terminal bodies with a given ancestor */
  s = teal_mb_subtree_new(p, NULL, 0, B(7), &err);
  int e5[1] = {B(7)};
  check_structure(p, s, e5, 1);
  teal_mb_subtree_free(s);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_construction_errors) {
  teal_plant *p = tree_plant(5);
  teal_error err;
  int term[2] = {B(10), B(6)}, bad[2] = {B(10), 99};
  ck_assert_ptr_null(teal_mb_subtree_new(NULL, term, 2, -1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_subtree_new(p, NULL, 2, -1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_subtree_new(p, term, -1, -1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_subtree_new(p, bad, 2, -1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "unknown"));
  bad[1] = -3;
  ck_assert_ptr_null(teal_mb_subtree_new(p, bad, 2, -1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_subtree_new(p, term, 2, 99, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  /* b1 is not on b6's path */
  ck_assert_ptr_null(teal_mb_subtree_new(p, term, 2, B(1), &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "not outboard of the ancestor"));
  /* bodies of different trees only share the world */
  int two_trees[2] = {B(8), B(6)};
  ck_assert_ptr_null(teal_mb_subtree_new(p, two_trees, 2, B(0), &err));
  teal_mb_subtree *s = teal_mb_subtree_new(p, two_trees, 2, -1, &err);
  ck_assert_int_eq(teal_mb_subtree_ancestor(s), 0);
  teal_mb_subtree_free(s);
  ck_assert_ptr_null(teal_mb_subtree_new(p, NULL, 0, -1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_plant *raw = teal_plant_new(0.0, NULL);
  ck_assert_ptr_null(teal_mb_subtree_new(raw, NULL, 0, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  ck_assert_ptr_null(teal_mb_subtree_results_new(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  /* NULL-safe queries */
  ck_assert_int_eq(teal_mb_subtree_num_bodies(NULL), 0);
  ck_assert_int_eq(teal_mb_subtree_ancestor(NULL), -1);
  ck_assert_int_eq(teal_mb_subtree_q_index(NULL, 0), -1);
  ck_assert_int_eq(teal_mb_subtree_index_of_body(NULL, 0), -1);
  teal_mb_subtree_free(NULL);
  teal_mb_subtree_results_free(NULL);
  teal_plant_free(raw);
  teal_plant_free(p);
}
END_TEST

/* Whole-tree results of body b relative to body a, by the transport
 * theorem: w_AB = w_B - w_A, v_AB = v_B - v_A - w_A x p,
 * alpha_AB = alpha_B - alpha_A - w_A x w_AB,
 * a_AB = a_B - a_A - alpha_A x p - w_A x (w_A x p) - 2 w_A x v_AB (in W),
 * then expressed in A. */
static void relative(const teal_transform *X, const teal_spatial_vector *V,
                     const teal_spatial_vector *A, int a, int b, teal_transform *X_AB,
                     teal_spatial_vector *V_AB, teal_spatial_vector *A_AB) {
  *X_AB = teal_transform_compose(teal_transform_inverse(X[a]), X[b]);
  teal_rotation R_AW = teal_rotation_inverse(X[a].R);
  teal_vec3 p = teal_vec3_sub(X[b].p, X[a].p);
  teal_vec3 wA = teal_spatial_vector_angular(V[a]), vA = teal_spatial_vector_linear(V[a]);
  teal_vec3 al = teal_spatial_vector_angular(A[a]), aA = teal_spatial_vector_linear(A[a]);
  teal_vec3 w = teal_vec3_sub(teal_spatial_vector_angular(V[b]), wA);
  teal_vec3 v =
      teal_vec3_sub(teal_vec3_sub(teal_spatial_vector_linear(V[b]), vA), teal_vec3_cross(wA, p));
  teal_vec3 alpha =
      teal_vec3_sub(teal_vec3_sub(teal_spatial_vector_angular(A[b]), al), teal_vec3_cross(wA, w));
  teal_vec3 acc = teal_vec3_sub(teal_spatial_vector_linear(A[b]), aA);
  acc = teal_vec3_sub(acc, teal_vec3_cross(al, p));
  acc = teal_vec3_sub(acc, teal_vec3_cross(wA, teal_vec3_cross(wA, p)));
  acc = teal_vec3_sub(acc, teal_vec3_scale(teal_vec3_cross(wA, v), 2.0));
  *V_AB = teal_spatial_vector_make(teal_rotation_apply(R_AW, w), teal_rotation_apply(R_AW, v));
  *A_AB =
      teal_spatial_vector_make(teal_rotation_apply(R_AW, alpha), teal_rotation_apply(R_AW, acc));
}

/* The reference results of every subtree body at (q, v, vdot). */
static void reference(const teal_plant *p, const teal_mb_subtree *s, const double *q,
                      const double *v, const double *vd, teal_transform *X_AB,
                      teal_spatial_vector *V_AB, teal_spatial_vector *A_AB) {
  teal_transform X[MAXB];
  teal_spatial_vector V[MAXB], A[MAXB];
  ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, vd, X, V, A), TEAL_OK);
  int a = teal_mb_subtree_ancestor(s);
  for (int i = 0; i < teal_mb_subtree_num_bodies(s); i++) {
    relative(X, V, A, a, teal_mb_subtree_body(s, i), &X_AB[i], &V_AB[i], &A_AB[i]);
  }
}

static void expect_poses(const teal_transform *x, const teal_transform *y, int n) {
  for (int i = 0; i < n; i++) {
    ck_assert_double_le(ts_mb_max_abs_diff(x[i].R.m, y[i].R.m, 9), TOL);
    ck_assert_double_le(ts_mb_max_abs_diff(x[i].p.v, y[i].p.v, 3), TOL);
  }
}

static void expect_vectors(const teal_spatial_vector *x, const teal_spatial_vector *y, int n) {
  for (int i = 0; i < n; i++) {
    ck_assert_double_le(ts_mb_max_abs_diff(x[i].v, y[i].v, 6), TOL);
  }
}

/* The subtrees every results test runs on: terminal lists and ancestors. */
static const int k_terms[][3] = {
    {B(10), B(6), -1}, {B(10), B(6), -1}, {B(4), B(10), -1}, {B(8), B(6), B(9)}, {B(10), -1, -1}};
static const int k_nterm[] = {2, 2, 2, 3, 1};
static const int k_anc[] = {-1, 0, -1, -1, B(1)};
#define NUM_CASES 5

START_TEST(test_against_whole_tree) {
  teal_plant *p = tree_plant(11);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  int nv = teal_plant_nv(p);
  unsigned rs = 3;
  double q[MAXN], v[MAXN], vd[MAXN], sub[MAXN];
  teal_transform X[MAXB];
  teal_spatial_vector V[MAXB], A[MAXB];
  for (int c = 0; c < NUM_CASES; c++) {
    teal_mb_subtree *s = teal_mb_subtree_new(p, k_terms[c], k_nterm[c], k_anc[c], NULL);
    teal_mb_subtree_results *r = teal_mb_subtree_results_new(s, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert(teal_mb_subtree_results_compatible(s, r));
    int n = teal_mb_subtree_num_bodies(s), snq = teal_mb_subtree_nq(s);
    int snv = teal_mb_subtree_nv(s);
    ck_assert_int_eq(ts_mb_rand_state(p, &rs, q, v, 1.0), TEAL_OK);
    ts_mb_rand_vec(&rs, vd, nv, 2.0);
    reference(p, s, q, v, vd, X, V, A);
    ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, d, s, q, r), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_results_stage(r), 1);
    ck_assert_int_eq(teal_mb_subtree_copy_velocities_from_state(p, d, s, v, r), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_copy_accelerations_from_state(p, d, s, vd, r), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_results_stage(r), 3);
    expect_poses(teal_mb_subtree_results_poses(r), X, n);
    expect_vectors(teal_mb_subtree_results_velocities(r), V, n);
    expect_vectors(teal_mb_subtree_results_accelerations(r), A, n);
    /* the same from gathered subtree vectors, after a different state */
    for (int j = 0; j < snq; j++) {
      sub[j] = q[teal_mb_subtree_q_index(s, j)];
    }
    double q2[MAXN], v2[MAXN], vd2[MAXN];
    ck_assert_int_eq(ts_mb_rand_state(p, &rs, q2, v2, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, d, s, q2, r), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_calc_positions_from_subtree_q(p, d, s, sub, snq, r), TEAL_OK);
    for (int j = 0; j < snv; j++) {
      sub[j] = v[teal_mb_subtree_v_index(s, j)];
    }
    ck_assert_int_eq(teal_mb_subtree_calc_velocities_from_subtree_u(p, d, s, sub, snv, r), TEAL_OK);
    for (int j = 0; j < snv; j++) {
      sub[j] = vd[teal_mb_subtree_v_index(s, j)];
    }
    ck_assert_int_eq(teal_mb_subtree_calc_accelerations_from_subtree_udot(p, d, s, sub, snv, r),
                     TEAL_OK);
    expect_poses(teal_mb_subtree_results_poses(r), X, n);
    expect_vectors(teal_mb_subtree_results_velocities(r), V, n);
    expect_vectors(teal_mb_subtree_results_accelerations(r), A, n);
    /* zero u and zero udot: the subtree's entries zeroed, the rest kept (the
     * results relative to A must not depend on them) */
    memcpy(v2, v, sizeof v);
    memcpy(vd2, vd, sizeof vd);
    for (int j = 0; j < snv; j++) {
      v2[teal_mb_subtree_v_index(s, j)] = 0.0;
      vd2[teal_mb_subtree_v_index(s, j)] = 0.0;
    }
    reference(p, s, q, v2, vd2, X, V, A);
    ck_assert_int_eq(teal_mb_subtree_calc_velocities_from_subtree_u(p, d, s, NULL, 0, r), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_calc_accelerations_from_subtree_udot(p, d, s, NULL, 0, r),
                     TEAL_OK);
    expect_vectors(teal_mb_subtree_results_velocities(r), V, n);
    expect_vectors(teal_mb_subtree_results_accelerations(r), A, n);
    /* zero u with nonzero udot */
    reference(p, s, q, v2, vd, X, V, A);
    ck_assert_int_eq(teal_mb_subtree_copy_accelerations_from_state(p, d, s, vd, r), TEAL_OK);
    expect_vectors(teal_mb_subtree_results_accelerations(r), A, n);
    teal_mb_subtree_results_free(r);
    teal_mb_subtree_free(s);
  }
  teal_mb_data_free(d);
  teal_plant_free(p);
}
END_TEST

/* Each perturbation against recomputing at the perturbed q, v or vdot; the
 * nominal results must stay as they were. */
static void check_perturbations(const teal_plant *p, teal_mb_data *d, const teal_mb_subtree *s,
                                teal_mb_subtree_results *r, const double *q, const double *v,
                                const double *vd, double delta) {
  int n = teal_mb_subtree_num_bodies(s);
  double x[MAXN];
  teal_transform X[MAXB], X0[MAXB];
  teal_spatial_vector V[MAXB], A[MAXB], V0[MAXB], A0[MAXB];
  reference(p, s, q, v, vd, X0, V0, A0);
  for (int j = 0; j < teal_mb_subtree_nq(s); j++) {
    memcpy(x, q, sizeof x);
    x[teal_mb_subtree_q_index(s, j)] += delta;
    reference(p, s, x, v, vd, X, V, A);
    ck_assert_int_eq(teal_mb_subtree_perturb_positions(p, d, s, j, delta, r), TEAL_OK);
    expect_poses(teal_mb_subtree_results_perturbed_poses(r), X, n);
  }
  for (int j = 0; j < teal_mb_subtree_nv(s); j++) {
    memcpy(x, v, sizeof x);
    x[teal_mb_subtree_v_index(s, j)] += delta;
    reference(p, s, q, x, vd, X, V, A);
    ck_assert_int_eq(teal_mb_subtree_perturb_velocities(p, d, s, j, delta, r), TEAL_OK);
    expect_vectors(teal_mb_subtree_results_perturbed_velocities(r), V, n);
    memcpy(x, vd, sizeof x);
    x[teal_mb_subtree_v_index(s, j)] += delta;
    reference(p, s, q, v, x, X, V, A);
    ck_assert_int_eq(teal_mb_subtree_perturb_accelerations(p, d, s, j, delta, r), TEAL_OK);
    expect_vectors(teal_mb_subtree_results_perturbed_accelerations(r), A, n);
  }
  expect_poses(teal_mb_subtree_results_poses(r), X0, n);
  expect_vectors(teal_mb_subtree_results_velocities(r), V0, n);
  expect_vectors(teal_mb_subtree_results_accelerations(r), A0, n);
}

START_TEST(test_perturbations) {
  teal_plant *p = tree_plant(17);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  unsigned rs = 9;
  double q[MAXN] = {0}, v[MAXN] = {0}, vd[MAXN] = {0};
  for (int c = 0; c < NUM_CASES; c++) {
    teal_mb_subtree *s = teal_mb_subtree_new(p, k_terms[c], k_nterm[c], k_anc[c], NULL);
    teal_mb_subtree_results *r = teal_mb_subtree_results_new(s, NULL);
    ck_assert_int_eq(ts_mb_rand_state(p, &rs, q, v, 1.0), TEAL_OK);
    ts_mb_rand_vec(&rs, vd, teal_plant_nv(p), 2.0);
    ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, d, s, q, r), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_copy_velocities_from_state(p, d, s, v, r), TEAL_OK);
    ck_assert_int_eq(teal_mb_subtree_copy_accelerations_from_state(p, d, s, vd, r), TEAL_OK);
    check_perturbations(p, d, s, r, q, v, vd, 0.37);
    check_perturbations(p, d, s, r, q, v, vd, -1e-3);
    teal_mb_subtree_results_free(r);
    teal_mb_subtree_free(s);
  }
  teal_mb_data_free(d);
  teal_plant_free(p);
}
END_TEST

/* code and a message naming the function */
#define EXPECT_ERR(call, ec, fn)                                                  \
  do {                                                                            \
    ck_assert_int_eq((call), (ec));                                               \
    ck_assert_int_eq(teal_mb_data_error(d)->code, (ec));                          \
    ck_assert_ptr_nonnull(strstr(teal_mb_data_error(d)->message, "subtree_" fn)); \
  } while (0)

/* A zero quaternion in sub_q (the ball joint of b2; the floating base b0
 * is the ancestor, so its quaternion is not in the subtree). */
static void check_zero_quaternion(const teal_plant *p, teal_mb_data *d, const teal_mb_subtree *s,
                                  teal_mb_subtree_results *r, const double *q) {
  int snq = teal_mb_subtree_nq(s);
  double sub[MAXN];
  for (int j = 0; j < snq; j++) {
    sub[j] = q[teal_mb_subtree_q_index(s, j)];
  }
  int i2 = teal_mb_subtree_index_of_body(s, B(2));
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int k2 = teal_plant_body_node(p, B(2)), off = -1;
  for (int j = 0; j < snq; j++) {
    if (teal_mb_subtree_q_index(s, j) == t->q_start[k2]) {
      off = j;
    }
  }
  ck_assert_int_gt(i2, 0);
  ck_assert_int_ge(off, 0);
  memset(sub + off, 0, 4 * sizeof(double));
  EXPECT_ERR(teal_mb_subtree_calc_positions_from_subtree_q(p, d, s, sub, snq, r), TEAL_EINVAL,
             "calc_positions");
  ck_assert_int_eq(teal_mb_subtree_results_stage(r), 0);
}

START_TEST(test_calc_errors) {
  teal_plant *p = tree_plant(5), *other = tree_plant(6);
  teal_mb_data *d = teal_mb_data_new(p, NULL), *od = teal_mb_data_new(other, NULL);
  int term[2] = {B(10), B(6)};
  teal_mb_subtree *s = teal_mb_subtree_new(p, term, 2, -1, NULL);
  teal_mb_subtree *s2 = teal_mb_subtree_new(p, term, 1, -1, NULL);
  teal_mb_subtree *so = teal_mb_subtree_new(other, term, 2, -1, NULL);
  teal_mb_subtree_results *r = teal_mb_subtree_results_new(s, NULL);
  teal_mb_subtree_results *r2 = teal_mb_subtree_results_new(s2, NULL);
  ck_assert(!teal_mb_subtree_results_compatible(s, r2));
  int snq = teal_mb_subtree_nq(s), snv = teal_mb_subtree_nv(s);
  double q[MAXN], v[MAXN] = {0}, sub[MAXN] = {0};
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  /* stages out of order */
  EXPECT_ERR(teal_mb_subtree_copy_velocities_from_state(p, d, s, v, r), TEAL_ESTATE,
             "copy_velocities");
  EXPECT_ERR(teal_mb_subtree_perturb_positions(p, d, s, 0, 0.1, r), TEAL_ESTATE, "perturb");
  ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, d, s, q, r), TEAL_OK);
  EXPECT_ERR(teal_mb_subtree_calc_accelerations_from_subtree_udot(p, d, s, NULL, 0, r), TEAL_ESTATE,
             "calc_accelerations");
  EXPECT_ERR(teal_mb_subtree_perturb_velocities(p, d, s, 0, 0.1, r), TEAL_ESTATE, "perturb");
  /* wrong sizes, NaN, bad indices */
  EXPECT_ERR(teal_mb_subtree_calc_positions_from_subtree_q(p, d, s, sub, snq - 1, r), TEAL_EINVAL,
             "calc_positions");
  EXPECT_ERR(teal_mb_subtree_calc_velocities_from_subtree_u(p, d, s, sub, snv + 1, r), TEAL_EINVAL,
             "calc_velocities");
  sub[2] = NAN;
  EXPECT_ERR(teal_mb_subtree_calc_velocities_from_subtree_u(p, d, s, sub, snv, r), TEAL_ENONFINITE,
             "calc_velocities");
  q[0] = INFINITY; /* the ancestor's own joint: not read */
  ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, d, s, q, r), TEAL_OK);
  q[teal_mb_subtree_q_index(s, 1)] = INFINITY;
  EXPECT_ERR(teal_mb_subtree_copy_positions_from_state(p, d, s, q, r), TEAL_ENONFINITE,
             "copy_positions");
  ck_assert_int_eq(teal_mb_subtree_results_stage(r), 0);
  EXPECT_ERR(teal_mb_subtree_copy_positions_from_state(p, d, s, NULL, r), TEAL_EINVAL,
             "copy_positions");
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, d, s, q, r), TEAL_OK);
  EXPECT_ERR(teal_mb_subtree_perturb_positions(p, d, s, snq, 0.1, r), TEAL_EINVAL, "perturb");
  EXPECT_ERR(teal_mb_subtree_perturb_positions(p, d, s, -1, 0.1, r), TEAL_EINVAL, "perturb");
  EXPECT_ERR(teal_mb_subtree_perturb_positions(p, d, s, 0, NAN, r), TEAL_ENONFINITE, "perturb");
  check_zero_quaternion(p, d, s, r, q);
  /* mismatched objects */
  EXPECT_ERR(teal_mb_subtree_copy_positions_from_state(p, d, s, q, r2), TEAL_EINVAL,
             "copy_positions");
  EXPECT_ERR(teal_mb_subtree_copy_positions_from_state(p, d, so, q, r), TEAL_EINVAL,
             "copy_positions");
  EXPECT_ERR(teal_mb_subtree_copy_positions_from_state(p, d, NULL, q, r), TEAL_EINVAL,
             "copy_positions");
  EXPECT_ERR(teal_mb_subtree_copy_positions_from_state(p, d, s, q, NULL), TEAL_EINVAL,
             "copy_positions");
  ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, od, s, q, r), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(p, NULL, s, q, r), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_subtree_copy_positions_from_state(NULL, d, s, q, r), TEAL_EINVAL);
  teal_mb_subtree_results_free(r);
  teal_mb_subtree_results_free(r2);
  teal_mb_subtree_free(s);
  teal_mb_subtree_free(s2);
  teal_mb_subtree_free(so);
  teal_mb_data_free(d);
  teal_mb_data_free(od);
  teal_plant_free(p);
  teal_plant_free(other);
}
END_TEST

int main(void) {
  Suite *s = suite_create("subtree");
  TCase *tc = tcase_create("subtree");
  tcase_add_test(tc, test_topology);
  tcase_add_test(tc, test_construction_errors);
  tcase_add_test(tc, test_against_whole_tree);
  tcase_add_test(tc, test_perturbations);
  tcase_add_test(tc, test_calc_errors);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
