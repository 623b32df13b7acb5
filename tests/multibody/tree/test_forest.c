/* Kinematic trees and the per-tree blocks of M (multibody/tree/forest.h): on the
 * random topologies (a chain, a tree with welds and floating joints, two
 * free subtrees) and a mixed plant (an arm on a welded base, free balls, a
 * welded box) the partition is consistent, M is zero between trees, the
 * blocks equal the dense M, each block times its inverse is I, the
 * per-tree point Jacobians equal the dense ones; argument errors; nothing
 * is allocated after creation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAXV 64

/* An arm of three revolute links on a base welded to the world, two free
 * balls and a box welded to the world. */
static teal_plant *mixed_plant(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia link = teal_spatial_inertia_solid_box(1.0, 0.1, 0.1, 0.5);
  int base = teal_plant_add_rigid_body(p, "base", TEAL_DEFAULT_MODEL_INSTANCE, &link);
  teal_plant_add_joint(p, "weld", TEAL_JOINT_WELD, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, base), NULL, 0.0);
  int parent = base;
  const char *names[3] = {"l1", "l2", "l3"}, *mounts[3] = {"m1", "m2", "m3"};
  for (int i = 0; i < 3; i++) {
    int b = teal_plant_add_rigid_body(p, names[i], TEAL_DEFAULT_MODEL_INSTANCE, &link);
    teal_vec3 axis = teal_vec3_make(i == 1 ? 1 : 0, i == 1 ? 0 : 1, 0);
    int f = teal_plant_add_frame(p, mounts[i], teal_plant_body_frame(p, parent),
                                 teal_transform_make(teal_rotation_identity(),
                                                     teal_vec3_make(0.1, 0, 0.5)));
    ck_assert_int_ge(teal_plant_add_joint(p, names[i], TEAL_JOINT_REVOLUTE, f,
                                          teal_plant_body_frame(p, b), &axis, 0.0),
                     0);
    parent = b;
  }
  teal_spatial_inertia ball = teal_spatial_inertia_solid_sphere(0.5, 0.1);
  teal_plant_add_rigid_body(p, "ball0", TEAL_DEFAULT_MODEL_INSTANCE, &ball);
  teal_plant_add_rigid_body(p, "ball1", TEAL_DEFAULT_MODEL_INSTANCE, &ball);
  int box = teal_plant_add_rigid_body(p, "box", TEAL_DEFAULT_MODEL_INSTANCE, &link);
  teal_plant_add_joint(p, "box_weld", TEAL_JOINT_WELD, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, box), NULL, 0.0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static int body_named(const teal_plant *p, const char *name) {
  int b = teal_plant_get_body_by_name(p, name, -1, NULL);
  ck_assert_int_ge(b, 0);
  return b;
}

/* The plants of the checks: the random topologies and the mixed one. */
static teal_plant *plant_number(int i, unsigned seed) {
  if (i == ts_mb_num_topologies) {
    return mixed_plant();
  }
  const ts_mb_topology *tp = &ts_mb_topologies[i];
  teal_plant *p = ts_mb_random_tree(tp->spec, tp->n, seed, 1);
  ck_assert_ptr_nonnull(p);
  return p;
}

/* Every dof in exactly one tree, listed once in ascending order; a body's
 * tree is its dofs' tree; anchored bodies have no dof on their path. */
static void check_partition(const teal_plant *p, const teal_mb_trees *tr) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nv = teal_plant_nv(p), seen[MAXV] = {0}, total = 0;
  ck_assert_int_eq(tr->nv, nv);
  for (int k = 0; k < tr->ntrees; k++) {
    int m = teal_mb_trees_tree_nv(tr, k);
    ck_assert_int_gt(m, 0);
    ck_assert_int_le(m, tr->max_nv);
    ck_assert_uint_eq(tr->block_start[k + 1] - tr->block_start[k], (size_t)(m * m));
    for (int j = 0; j < m; j++) {
      int i = tr->dofs[tr->dof_start[k] + j];
      ck_assert_int_eq(tr->dof_tree[i], k);
      ck_assert_int_eq(tr->dof_local[i], j);
      ck_assert(j == 0 || i > tr->dofs[tr->dof_start[k] + j - 1]);
      seen[i]++;
      total++;
    }
  }
  ck_assert_int_eq(total, nv);
  for (int i = 0; i < nv; i++) {
    ck_assert_int_eq(seen[i], 1);
  }
  for (int b = 0; b < tr->nb; b++) {
    int k = teal_plant_body_node(p, b), moving = 0;
    for (int a = k; a > 0; a = t->parent[a]) {
      moving |= t->nv[a] > 0;
      if (t->nv[a] > 0) {
        ck_assert_int_eq(tr->body_tree[b], tr->dof_tree[t->v_start[a]]);
      }
    }
    ck_assert_int_eq(tr->body_tree[b] >= 0, moving);
  }
}

START_TEST(partition_is_consistent) {
  for (int i = 0; i <= ts_mb_num_topologies; i++) {
    teal_plant *p = plant_number(i, 11u + (unsigned)i);
    teal_mb_trees *tr = teal_mb_trees_new(p, NULL);
    ck_assert_ptr_nonnull(tr);
    check_partition(p, tr);
    teal_mb_trees_free(tr);
    teal_plant_free(p);
  }
  /* the mixed plant: the arm (3 dofs), each ball (6); base and box anchored */
  teal_plant *p = mixed_plant();
  teal_mb_trees *tr = teal_mb_trees_new(p, NULL);
  ck_assert_int_eq(tr->ntrees, 3);
  ck_assert_int_eq(tr->max_nv, 6);
  ck_assert_uint_eq(teal_mb_trees_block_size(tr), 9 + 36 + 36);
  ck_assert_int_eq(tr->body_tree[body_named(p, "base")], -1);
  ck_assert_int_eq(tr->body_tree[body_named(p, "box")], -1);
  ck_assert_int_eq(tr->body_tree[TEAL_WORLD_BODY], -1);
  int arm = tr->body_tree[body_named(p, "l1")];
  ck_assert_int_eq(tr->body_tree[body_named(p, "l3")], arm);
  ck_assert_int_eq(teal_mb_trees_tree_nv(tr, arm), 3);
  ck_assert_int_ne(tr->body_tree[body_named(p, "ball0")],
                   tr->body_tree[body_named(p, "ball1")]);
  ck_assert_int_eq(teal_mb_trees_tree_nv(tr, -1), 0);
  ck_assert_int_eq(teal_mb_trees_tree_nv(tr, 3), 0);
  teal_mb_trees_free(tr);
  teal_plant_free(p);
}
END_TEST

/* The blocks equal the dense M entry for entry (the same arithmetic), and
 * the dense M is zero between trees. */
START_TEST(blocks_equal_dense_mass_matrix) {
  for (int i = 0; i <= ts_mb_num_topologies; i++) {
    for (unsigned seed = 1; seed <= 3; seed++) {
      teal_plant *p = plant_number(i, 100u * seed + (unsigned)i);
      int nv = teal_plant_nv(p);
      teal_mb_trees *tr = teal_mb_trees_new(p, NULL);
      teal_mb_data *ws = teal_mb_data_new(p, NULL);
      size_t nblk = teal_mb_trees_block_size(tr);
      double q[MAXV], M[MAXV * MAXV], *blocks = malloc((nblk + 1) * sizeof(double));
      unsigned st = seed;
      ck_assert_int_eq(ts_mb_rand_state(p, &st, q, NULL, 1.0), TEAL_OK);
      ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
      ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr, q, blocks), TEAL_OK);
      for (int a = 0; a < nv; a++) {
        for (int b = 0; b < nv; b++) {
          int ta = tr->dof_tree[a], tb = tr->dof_tree[b];
          if (ta != tb) {
            ck_assert(M[a * nv + b] == 0.0);
            continue;
          }
          int m = teal_mb_trees_tree_nv(tr, ta);
          double e = blocks[tr->block_start[ta] + (size_t)(tr->dof_local[a] * m +
                                                           tr->dof_local[b])];
          ck_assert_msg(e == M[a * nv + b], "plant %d: M(%d, %d) = %.17g, block %.17g", i, a,
                        b, M[a * nv + b], e);
        }
      }
      free(blocks);
      teal_mb_data_free(ws);
      teal_mb_trees_free(tr);
      teal_plant_free(p);
    }
  }
}
END_TEST

/* M_t (M_t^-1 e_j) = e_j for every block and column. */
START_TEST(blocks_times_inverse_is_identity) {
  for (int i = 0; i <= ts_mb_num_topologies; i++) {
    teal_plant *p = plant_number(i, 7u + (unsigned)i);
    teal_mb_trees *tr = teal_mb_trees_new(p, NULL);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    size_t n = teal_mb_trees_block_size(tr);
    double q[MAXV], *blocks = malloc((2 * n + 1) * sizeof(double)), *L = blocks + n;
    unsigned st = 5;
    ck_assert_int_eq(ts_mb_rand_state(p, &st, q, NULL, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr, q, blocks), TEAL_OK);
    memcpy(L, blocks, n * sizeof(double));
    ck_assert_int_eq(teal_mb_mass_blocks_factor(tr, L, NULL), TEAL_OK);
    for (int t = 0; t < tr->ntrees; t++) {
      int m = teal_mb_trees_tree_nv(tr, t);
      const double *Mt = blocks + tr->block_start[t];
      double scale = ts_mb_max_abs(Mt, m * m);
      for (int j = 0; j < m; j++) {
        double x[MAXV] = {0};
        x[j] = 1.0;
        ck_assert_int_eq(teal_mb_mass_block_solve(tr, L, t, x, NULL), TEAL_OK);
        for (int r = 0; r < m; r++) {
          double y = 0.0;
          for (int c = 0; c < m; c++) {
            y += Mt[r * m + c] * x[c];
          }
          ck_assert_msg(fabs(y - (r == j)) < 1e-11 * fmax(1.0, scale), "plant %d tree %d: "
                        "(M M^-1)(%d, %d) = %g", i, t, r, j, y);
        }
      }
    }
    free(blocks);
    teal_mb_data_free(ws);
    teal_mb_trees_free(tr);
    teal_plant_free(p);
  }
}
END_TEST

/* For a point on every body: the per-tree block equals the columns of the
 * dense Jacobian on that tree, and the dense one is zero elsewhere. */
START_TEST(point_jacobians_match_dense) {
  for (int i = 0; i <= ts_mb_num_topologies; i++) {
    teal_plant *p = plant_number(i, 23u + (unsigned)i);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
    teal_mb_trees *tr = teal_mb_trees_new(p, NULL);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    teal_mb_data *jws = teal_mb_data_new(p, NULL);
    size_t nblk = teal_mb_trees_block_size(tr);
    double q[MAXV], Jd[3 * MAXV], Jb[3 * MAXV], *blocks = malloc((nblk + 1) * sizeof(double));
    teal_transform X[64];
    unsigned st = 9;
    ck_assert_int_eq(ts_mb_rand_state(p, &st, q, NULL, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr, q, blocks), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
    for (int b = 0; b < nb; b++) {
      teal_vec3 p_BQ = teal_vec3_make(0.1 * b, -0.2, 0.3), p_WQ = teal_transform_apply(X[b], p_BQ);
      ck_assert_int_eq(teal_mb_jacobian_translational_velocity(
                           p, jws, q, TEAL_JACOBIAN_WRT_V, teal_plant_body_frame(p, b), p_BQ,
                           TEAL_WORLD_FRAME, TEAL_WORLD_FRAME, Jd),
                       TEAL_OK);
      int t = tr->body_tree[b], m = teal_mb_trees_tree_nv(tr, t);
      memset(Jb, 0, sizeof Jb);
      ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, b, p_WQ, -2.0, Jb), TEAL_OK);
      for (int r = 0; r < 3; r++) {
        for (int c = 0; c < nv; c++) {
          double want = tr->dof_tree[c] == t ? Jd[r * nv + c] : 0.0;
          double got = tr->dof_tree[c] == t ? -0.5 * Jb[r * m + tr->dof_local[c]] : 0.0;
          ck_assert(tr->dof_tree[c] == t || Jd[r * nv + c] == 0.0);
          ck_assert_msg(fabs(got - want) < 1e-12 * fmax(1.0, fabs(want)), "plant %d body %d: "
                        "J(%d, %d) = %g, block %g", i, b, r, c, want, got);
        }
      }
    }
    free(blocks);
    teal_mb_data_free(jws);
    teal_mb_data_free(ws);
    teal_mb_trees_free(tr);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(bad_arguments) {
  teal_error err;
  ck_assert_ptr_null(teal_mb_trees_new(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_plant *open = teal_plant_new(0.0, NULL);
  ck_assert_ptr_null(teal_mb_trees_new(open, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  teal_plant_free(open);
  teal_plant *p = mixed_plant(), *other = plant_number(0, 3);
  teal_mb_trees *tr = teal_mb_trees_new(p, NULL), *tr_other = teal_mb_trees_new(other, NULL);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double q[MAXV] = {0}, J[3 * MAXV] = {0}, blocks[128];
  int ball = body_named(p, "ball0");
  for (int b = 0; b < 2; b++) { /* identity quaternions for the balls */
    q[teal_plant_joint_q_start(p, teal_plant_body_joint(p, ball + b))] = 1.0;
  }
  /* no kinematics yet */
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, ball, teal_vec3_zero(), 1.0, J),
                   TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr_other, q, blocks), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, NULL, q, blocks), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr, q, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, NULL, tr, q, blocks), TEAL_EINVAL);
  double q0 = q[0];
  q[0] = NAN;
  ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr, q, blocks), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "q"));
  q[0] = q0;
  ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr, q, blocks), TEAL_OK);
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, 99, teal_vec3_zero(), 1.0, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, ball, teal_vec3_zero(), 1.0, NULL),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr_other, ball, teal_vec3_zero(), 1.0, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, ball, teal_vec3_make(0, NAN, 0), 1.0,
                                               J),
                   TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, ball, teal_vec3_zero(), NAN, J),
                   TEAL_ENONFINITE);
  /* an anchored body adds nothing */
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, TEAL_WORLD_BODY, teal_vec3_zero(), 1.0,
                                               J),
                   TEAL_OK);
  ck_assert(ts_mb_max_abs(J, 3 * MAXV) == 0.0);
  /* a block that is not positive definite */
  blocks[tr->block_start[1]] = -1.0;
  ck_assert_int_eq(teal_mb_mass_blocks_factor(tr, blocks, &err), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(err.message, "tree 1"));
  ck_assert_int_eq(teal_mb_mass_blocks_factor(tr, NULL, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_blocks_factor(NULL, blocks, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_block_solve(tr, blocks, 3, J, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_block_solve(tr, blocks, 0, NULL, &err), TEAL_EINVAL);
  ck_assert_uint_eq(teal_mb_trees_block_size(NULL), 0);
  teal_mb_trees_free(NULL);
  teal_mb_data_free(ws);
  teal_mb_trees_free(tr);
  teal_mb_trees_free(tr_other);
  teal_plant_free(p);
  teal_plant_free(other);
}
END_TEST

START_TEST(no_allocation_after_creation) {
  teal_plant *p = plant_number(1, 4);
  teal_mb_trees *tr = teal_mb_trees_new(p, NULL);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  size_t n = teal_mb_trees_block_size(tr);
  double q[MAXV], x[MAXV] = {1.0}, J[3 * MAXV], *blocks = malloc((n + 1) * sizeof(double));
  unsigned st = 2;
  ck_assert_int_eq(ts_mb_rand_state(p, &st, q, NULL, 1.0), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  ck_assert_int_eq(teal_mb_mass_matrix_blocks(p, ws, tr, q, blocks), TEAL_OK);
  memset(J, 0, sizeof J);
  ck_assert_int_eq(teal_mb_tree_point_jacobian(p, ws, tr, 1, teal_vec3_zero(), 1.0, J), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_blocks_factor(tr, blocks, NULL), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_block_solve(tr, blocks, 0, x, NULL), TEAL_OK);
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, 0);
  free(blocks);
  teal_mb_data_free(ws);
  teal_mb_trees_free(tr);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("trees");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, partition_is_consistent);
  tcase_add_test(tc, blocks_equal_dense_mass_matrix);
  tcase_add_test(tc, blocks_times_inverse_is_identity);
  tcase_add_test(tc, point_jacobians_match_dense);
  tcase_add_test(tc, bad_arguments);
  tcase_add_test(tc, no_allocation_after_creation);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
