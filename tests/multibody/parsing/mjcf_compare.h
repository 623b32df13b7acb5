/* Helpers shared by the MJCF tests: loading the models in models/mjcf/ and
 * comparing the dynamics of two plants whose joints have the same names
 * (M(q), C(q, v) v and tau_g(q) at random states, joint by joint, and the
 * joints' damping and limits). */
#ifndef TEAL_TESTS_MULTIBODY_PARSING_MJCF_COMPARE_H
#define TEAL_TESTS_MULTIBODY_PARSING_MJCF_COMPARE_H

#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"
#include "urdf_models.h"

#define MJCF_TEST_MAX_NV 32

/* Loads models/mjcf/<name> into a fresh plant (finalized); asserts success. */
static inline teal_plant *mjcf_test_load(const char *name, teal_mjcf_report *report) {
  char file[256], path[2048];
  snprintf(file, sizeof file, "mjcf/%s", name);
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int inst =
      teal_mjcf_load_file(p, urdf_test_model_path(file, path, sizeof path), NULL, NULL, report, &e);
  ck_assert_msg(inst >= 2, "%s: %s", name, e.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* Loads an MJCF string (finalized); asserts success. */
static inline teal_plant *mjcf_test_load_string(const char *xml, teal_mjcf_report *report) {
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int inst = teal_mjcf_load_string(p, xml, NULL, NULL, report, &e);
  ck_assert_msg(inst >= 2, "%s", e.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* For each joint of a (by index), the joint of b with its name; asserts
 * that both plants have the same joints of the same kinds. */
static inline void mjcf_test_match_joints(const teal_plant *a, const teal_plant *b, int *map) {
  ck_assert_int_eq(teal_plant_num_joints(a), teal_plant_num_joints(b));
  ck_assert_int_eq(teal_plant_nq(a), teal_plant_nq(b));
  ck_assert_int_eq(teal_plant_nv(a), teal_plant_nv(b));
  for (int j = 0; j < teal_plant_num_joints(a); j++) {
    map[j] = teal_plant_get_joint_by_name(b, teal_plant_joint_name(a, j), -1, NULL);
    ck_assert_msg(map[j] >= 0, "joint %s missing", teal_plant_joint_name(a, j));
    ck_assert_int_eq(teal_plant_joint_kind(a, j), teal_plant_joint_kind(b, map[j]));
  }
}

/* Copies a's q (qa) or v (va) into b's order. */
static inline void mjcf_test_map_state(const teal_plant *a, const teal_plant *b, const int *map,
                                       const double *qa, const double *va, double *qb, double *vb) {
  for (int j = 0; j < teal_plant_num_joints(a); j++) {
    const teal_joint_type *t = teal_joint_type_get(teal_plant_joint_kind(a, j));
    memcpy(qb + teal_plant_joint_q_start(b, map[j]), qa + teal_plant_joint_q_start(a, j),
           sizeof(double) * (size_t)t->nq);
    memcpy(vb + teal_plant_joint_v_start(b, map[j]), va + teal_plant_joint_v_start(a, j),
           sizeof(double) * (size_t)t->nv);
  }
}

/* The damping and position limits of matched joints agree exactly. */
static inline void mjcf_test_same_joint_values(const teal_plant *a, const teal_plant *b,
                                               const int *map) {
  const teal_plant_tree *ta = teal_plant_get_tree(a), *tb = teal_plant_get_tree(b);
  for (int j = 0; j < teal_plant_num_joints(a); j++) {
    const teal_joint_type *t = teal_joint_type_get(teal_plant_joint_kind(a, j));
    int va = teal_plant_joint_v_start(a, j), vb = teal_plant_joint_v_start(b, map[j]);
    int qa = teal_plant_joint_q_start(a, j), qb = teal_plant_joint_q_start(b, map[j]);
    for (int i = 0; i < t->nv; i++) {
      ck_assert_double_eq(ta->damping[va + i], tb->damping[vb + i]);
    }
    for (int i = 0; i < t->nq && t->nq == 1; i++) {
      double lo = ta->q_lower[qa + i], hi = ta->q_upper[qa + i];
      ck_assert(lo == tb->q_lower[qb + i] || fabs(lo - tb->q_lower[qb + i]) <= 1e-15);
      ck_assert(hi == tb->q_upper[qb + i] || fabs(hi - tb->q_upper[qb + i]) <= 1e-15);
    }
  }
}

/* M(q), C(q, v) v and tau_g(q) of a and b agree to tol at trials random
 * states (q drawn around the default, quaternions normalized). */
static inline void mjcf_test_same_dynamics(const teal_plant *a, const teal_plant *b, int trials,
                                           double tol) {
  int map[64], nq = teal_plant_nq(a), nv = teal_plant_nv(a);
  ck_assert_int_le(nv, MJCF_TEST_MAX_NV);
  mjcf_test_match_joints(a, b, map);
  mjcf_test_same_joint_values(a, b, map);
  int vmap[64];
  for (int j = 0; j < teal_plant_num_joints(a); j++) {
    const teal_joint_type *t = teal_joint_type_get(teal_plant_joint_kind(a, j));
    for (int i = 0; i < t->nv; i++) {
      vmap[teal_plant_joint_v_start(a, j) + i] = teal_plant_joint_v_start(b, map[j]) + i;
    }
  }
  teal_mb_data *da = teal_mb_data_new(a, NULL), *db = teal_mb_data_new(b, NULL);
  ck_assert(da && db);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(teal_mb_data_gravity(da).v[i], teal_mb_data_gravity(db).v[i]);
  }
  unsigned seed = 20261126u;
  double qa[64], va[64], qb[64], vb[64], Ma[1024], Mb[1024], ca[64], cb[64], ga[64], gb[64];
  for (int trial = 0; trial < trials; trial++) {
    ck_assert_int_eq(teal_plant_default_q(a, qa), TEAL_OK);
    for (int i = 0; i < nq; i++) {
      qa[i] += ts_rand_uniform(&seed, -1.0, 1.0);
    }
    for (int i = 0; i < nv; i++) {
      va[i] = ts_rand_uniform(&seed, -2.0, 2.0);
    }
    ck_assert_int_eq(teal_plant_normalize_q(a, qa), TEAL_OK);
    mjcf_test_map_state(a, b, map, qa, va, qb, vb);
    ck_assert_int_eq(teal_mb_mass_matrix(a, da, qa, Ma), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix(b, db, qb, Mb), TEAL_OK);
    ck_assert_int_eq(teal_mb_bias_term(a, da, qa, va, ca), TEAL_OK);
    ck_assert_int_eq(teal_mb_bias_term(b, db, qb, vb, cb), TEAL_OK);
    ck_assert_int_eq(teal_mb_gravity_forces(a, da, qa, ga), TEAL_OK);
    ck_assert_int_eq(teal_mb_gravity_forces(b, db, qb, gb), TEAL_OK);
    /* b's results back in a's order */
    double Mba[1024], cba[64], gba[64];
    for (int r = 0; r < nv; r++) {
      for (int c = 0; c < nv; c++) {
        Mba[r * nv + c] = Mb[vmap[r] * nv + vmap[c]];
      }
      cba[r] = cb[vmap[r]];
      gba[r] = gb[vmap[r]];
    }
    for (int i = 0; i < nv * nv; i++) {
      ck_assert_msg(fabs(Ma[i] - Mba[i]) <= tol, "M[%d]: %.17g vs %.17g", i, Ma[i], Mba[i]);
    }
    for (int i = 0; i < nv; i++) {
      ck_assert_msg(fabs(ca[i] - cba[i]) <= tol, "Cv[%d]: %.17g vs %.17g", i, ca[i], cba[i]);
      ck_assert_msg(fabs(ga[i] - gba[i]) <= tol, "tau_g[%d]: %.17g vs %.17g", i, ga[i], gba[i]);
    }
  }
  teal_mb_data_free(da);
  teal_mb_data_free(db);
}

#endif
