/* Forward kinematics: a planar double pendulum against closed form, V_WB
 * against finite differences of X_WB along q + h N(q) v, and A_WB against
 * finite differences of V_WB, on mixed chains. */
#include <check.h>
#include <math.h>

#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

START_TEST(test_double_pendulum) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  double l1 = 1.3, l2 = 0.7;
  /* added out of order: link2 first */
  int b2 = teal_plant_add_rigid_body(p, "link2", 1, &M);
  int b1 = teal_plant_add_rigid_body(p, "link1", 1, &M);
  int tip1 = teal_plant_add_frame(
      p, "tip1", teal_plant_body_frame(p, b1),
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -l1)));
  teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b1), &y, 0);
  teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, tip1, teal_plant_body_frame(p, b2), &y, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_transform X[3];
  double q[2] = {0.4, -1.1};
  ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
  int j1 = teal_plant_get_joint_by_name(p, "shoulder", -1, NULL);
  int j2 = teal_plant_get_joint_by_name(p, "elbow", -1, NULL);
  double t1 = q[teal_plant_joint_q_start(p, j1)], t2 = q[teal_plant_joint_q_start(p, j2)];
  teal_vec3 end;
  ck_assert_int_eq(teal_plant_calc_point_in_world(p, X, teal_plant_body_frame(p, b2),
                                                  teal_vec3_make(0, 0, -l2), &end), TEAL_OK);
  /* rotation about +y by t maps (0,0,-l) to (-l sin t, 0, -l cos t) */
  ck_assert_double_eq_tol(end.v[0], -l1 * sin(t1) - l2 * sin(t1 + t2), 1e-14);
  ck_assert_double_eq_tol(end.v[1], 0.0, 1e-14);
  ck_assert_double_eq_tol(end.v[2], -l1 * cos(t1) - l2 * cos(t1 + t2), 1e-14);
  teal_transform X12;
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X, teal_plant_body_frame(p, b1),
                                                      teal_plant_body_frame(p, b2), &X12), TEAL_OK);
  ck_assert_double_eq_tol(X12.p.v[2], -l1, 1e-14);
  ck_assert_double_eq_tol(X12.R.m[0], cos(t2), 1e-14);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_velocity_fd) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_vec3 ax = teal_vec3_make(0.2, 0.9, -0.4);
  unsigned s = 3;
  int prev = 0, kinds[5] = {TEAL_JOINT_UNIVERSAL, TEAL_JOINT_BALL, TEAL_JOINT_SCREW,
                            TEAL_JOINT_PLANAR, TEAL_JOINT_PRISMATIC};
  for (int i = 0; i < 5; i++) {
    char name[16] = {(char)('a' + i), 0}, jn[16] = {'j', (char)('a' + i), 0};
    int b = teal_plant_add_rigid_body(p, name, 1, &M);
    teal_transform X_PF = teal_transform_make(
        teal_rotation_from_rpy(teal_vec3_make(0.1 * i, 0.3, -0.2)), teal_vec3_make(0.5, 0.1, -0.3));
    int F = teal_plant_add_frame(p, jn, teal_plant_body_frame(p, prev), X_PF);
    char mn[16] = {'m', (char)('a' + i), 0};
    int Mf = teal_plant_add_frame(
        p, mn, teal_plant_body_frame(p, b),
        teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(-0.4, 0.2, 0.5)),
                            teal_vec3_make(0.0, 0.2, 0.3)));
    ck_assert_int_ge(teal_plant_add_joint(p, jn, kinds[i], F, Mf, &ax, 0.05), 0);
    prev = b;
  }
  teal_plant_add_rigid_body(p, "free", 1, &M);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
  double q[64], v[64], qp[64], qm[64], h = 1e-6;
  for (int i = 0; i < nq; i++) q[i] = ts_rand_uniform(&s, -1, 1);
  for (int i = 0; i < nv; i++) v[i] = ts_rand_uniform(&s, -1, 1);
  ck_assert_int_eq(teal_plant_normalize_q(p, q), TEAL_OK);
  for (int k = 1; k < t->num_nodes; k++) {
    double qd[7];
    teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k], qd);
    for (int i = 0; i < t->nq[k]; i++) {
      qp[t->q_start[k] + i] = q[t->q_start[k] + i] + h * qd[i];
      qm[t->q_start[k] + i] = q[t->q_start[k] + i] - h * qd[i];
    }
  }
  teal_transform X[8], Xp[8], Xm[8];
  teal_spatial_vector V[8];
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
  teal_mb_body_poses(p, qp, Xp);
  teal_mb_body_poses(p, qm, Xm);
  for (int b = 1; b < nb; b++) {
    teal_mat3 W = teal_mat3_mul(teal_mat3_scale(teal_mat3_sub(Xp[b].R, Xm[b].R), 0.5 / h),
                                teal_mat3_transpose(X[b].R));
    teal_spatial_vector fd =
        teal_spatial_vector_make(teal_vec3_make(W.m[7], W.m[2], W.m[3]),
                                 teal_vec3_scale(teal_vec3_sub(Xp[b].p, Xm[b].p), 0.5 / h));
    ck_assert_msg(teal_spatial_vector_max_abs_diff(fd, V[b]) < 1e-7, "body %d", b);
  }
  teal_plant_free(p);
}
END_TEST

/* A_WB against the central difference of V_WB along q + h N(q) v, v + h vdot
 * on a chain with every joint type (the universal joint's Hdot v included),
 * and against zero for a resting body. */
START_TEST(test_acceleration_fd) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_vec3 ax = teal_vec3_make(-0.3, 0.5, 0.8);
  unsigned s = 11;
  int prev = 0, kinds[7] = {TEAL_JOINT_REVOLUTE, TEAL_JOINT_UNIVERSAL, TEAL_JOINT_BALL,
                            TEAL_JOINT_PRISMATIC, TEAL_JOINT_SCREW, TEAL_JOINT_PLANAR,
                            TEAL_JOINT_WELD};
  for (int i = 0; i < 7; i++) {
    char name[16] = {(char)('a' + i), 0}, fn[16] = {'f', (char)('a' + i), 0};
    char mn[16] = {'m', (char)('a' + i), 0}, jn[16] = {'j', (char)('a' + i), 0};
    int b = teal_plant_add_rigid_body(p, name, 1, &M);
    teal_transform X_PF = teal_transform_make(
        teal_rotation_from_rpy(teal_vec3_make(0.2 * i, -0.3, 0.4)), teal_vec3_make(0.3, -0.2, 0.4));
    teal_transform X_BM = teal_transform_make(
        teal_rotation_from_rpy(teal_vec3_make(0.5, 0.1 * i, -0.2)), teal_vec3_make(0.1, 0.2, -0.3));
    int F = teal_plant_add_frame(p, fn, teal_plant_body_frame(p, prev), X_PF);
    int Mf = teal_plant_add_frame(p, mn, teal_plant_body_frame(p, b), X_BM);
    ck_assert_int_ge(teal_plant_add_joint(p, jn, kinds[i], F, Mf, &ax, 0.07), 0);
    prev = b;
  }
  teal_plant_add_rigid_body(p, "free", 1, &M);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
  double q[64], v[64], vd[64], qs[2][64], vs[2][64], h = 1e-6;
  for (int i = 0; i < nq; i++) q[i] = ts_rand_uniform(&s, -1, 1);
  for (int i = 0; i < nv; i++) v[i] = ts_rand_uniform(&s, -1.5, 1.5);
  for (int i = 0; i < nv; i++) vd[i] = ts_rand_uniform(&s, -2, 2);
  ck_assert_int_eq(teal_plant_normalize_q(p, q), TEAL_OK);
  for (int side = 0; side < 2; side++) {
    double hh = side ? -h : h;
    for (int k = 1; k < t->num_nodes; k++) {
      double qd[7];
      teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k], qd);
      for (int i = 0; i < t->nq[k]; i++) {
        qs[side][t->q_start[k] + i] = q[t->q_start[k] + i] + hh * qd[i];
      }
    }
    for (int i = 0; i < nv; i++) vs[side][i] = v[i] + hh * vd[i];
  }
  teal_transform X[10];
  teal_spatial_vector V[10], A[10], Vp[10], Vm[10], V0[10];
  ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, vd, X, V, A), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_velocities(p, qs[0], vs[0], X, Vp), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_velocities(p, qs[1], vs[1], X, Vm), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V0), TEAL_OK);
  for (int b = 0; b < nb; b++) {
    teal_spatial_vector fd =
        teal_spatial_vector_scale(teal_spatial_vector_sub(Vp[b], Vm[b]), 0.5 / h);
    ck_assert_msg(teal_spatial_vector_max_abs_diff(fd, A[b]) < 1e-6, "body %d: %g", b,
                  teal_spatial_vector_max_abs_diff(fd, A[b]));
    ck_assert_double_eq(teal_spatial_vector_max_abs_diff(V[b], V0[b]), 0.0);
  }
  /* at rest with zero vdot every acceleration vanishes */
  double zero[64] = {0};
  ck_assert_int_eq(teal_mb_body_accelerations(p, q, zero, zero, X, V, A), TEAL_OK);
  for (int b = 0; b < nb; b++) {
    ck_assert_double_eq(teal_spatial_vector_max_abs_diff(A[b], teal_spatial_vector_zero()), 0.0);
  }
  /* bad arguments */
  teal_plant *raw = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_mb_body_accelerations(NULL, q, v, vd, X, V, A), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_body_accelerations(raw, q, v, vd, X, V, A), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, NULL, X, V, A), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, vd, NULL, V, A), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, vd, X, V, NULL), TEAL_EINVAL);
  teal_plant_free(raw);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("kinematics");
  TCase *tc = tcase_create("kinematics");
  tcase_add_test(tc, test_double_pendulum);
  tcase_add_test(tc, test_velocity_fd);
  tcase_add_test(tc, test_acceleration_fd);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
