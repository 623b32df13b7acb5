/* The roll-pitch-yaw joint tables (multibody/tree/joints_rpy.c). References:
 * R_FM composed by hand from axis-angle rotations about x, y and z; V_FM
 * against central differences of X_FM along qdot = N v; N+ N = N N+ = I;
 * Ndot (of every type that has one, the quaternion ones included) against
 * central differences of N along qdot = N v. The gimbal lock is reported by
 * check_N, teal_joint_qdot, the plant's derivatives, v_to_qdot, implicit
 * residual and discrete step and the O(n) maps through N, each naming the
 * joint; N+ stays usable there. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/system_dynamics.h"
#include "math/rotation.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/operators.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"
#include "systems/analysis/simulator_run.h"

static const double kHalfPi = 1.5707963267948966;

static const teal_joint_kind kRpyKinds[2] = {TEAL_JOINT_BALL_RPY, TEAL_JOINT_RPY_FLOATING};

/* random q (pitch within +-1.2, away from the lock) and v */
static void rand_qv(const teal_joint_type *t, unsigned *s, double *q, double *v) {
  for (int i = 0; i < t->nq; i++) {
    q[i] = ts_rand_uniform(s, -3.0, 3.0);
  }
  if (t->nq == 3 || t->nq == 6) {
    q[1] = ts_rand_uniform(s, -1.2, 1.2);
  }
  for (int i = 0; i < t->nv; i++) {
    v[i] = ts_rand_uniform(s, -1.0, 1.0);
  }
  if (t->normalize) {
    ck_assert_int_eq(t->normalize(q), TEAL_OK);
  }
}

static teal_rotation about(double x, double y, double z, double angle) {
  return teal_rotation_from_axis_angle(teal_vec3_make(x, y, z), angle);
}

START_TEST(pose_is_rz_ry_rx) {
  unsigned s = 3u;
  teal_joint_params prm = {teal_vec3_make(0, 0, 1), 0.0};
  for (int c = 0; c < 2; c++) {
    const teal_joint_type *t = teal_joint_type_get(kRpyKinds[c]);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->nq, c ? 6 : 3);
    ck_assert_int_eq(t->nv, c ? 6 : 3);
    ck_assert(t->normalize == NULL); /* no quaternion to normalize */
    for (int trial = 0; trial < 20; trial++) {
      double q[6], v[6];
      rand_qv(t, &s, q, v);
      teal_rotation R = teal_mat3_mul(about(0, 0, 1, q[2]),
                                      teal_mat3_mul(about(0, 1, 0, q[1]), about(1, 0, 0, q[0])));
      teal_transform X = t->X_FM(&prm, q);
      ck_assert_double_le(teal_mat3_max_abs_diff(X.R, R), 1e-14);
      teal_vec3 p = c ? teal_vec3_make(q[3], q[4], q[5]) : teal_vec3_zero();
      ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(X.p, p)), 0.0);
    }
  }
}
END_TEST

/* q + h N(q) v */
static void step(const teal_joint_type *t, const double *q, const double *v, double h,
                 double *out) {
  double qd[TEAL_JOINT_MAX_NQ];
  teal_joint_params prm = {teal_vec3_make(0, 0, 1), 0.0};
  ck_assert_int_eq(teal_joint_qdot(t, &prm, q, v, qd), TEAL_OK);
  for (int i = 0; i < t->nq; i++) {
    out[i] = q[i] + h * qd[i];
  }
}

START_TEST(twist_matches_differenced_pose) {
  unsigned s = 5u;
  teal_joint_params prm = {teal_vec3_make(0, 0, 1), 0.0};
  const double h = 1e-6;
  for (int c = 0; c < 2; c++) {
    const teal_joint_type *t = teal_joint_type_get(kRpyKinds[c]);
    for (int trial = 0; trial < 20; trial++) {
      double q[6], v[6], qp[6], qm[6], H[36];
      rand_qv(t, &s, q, v);
      step(t, q, v, h, qp);
      step(t, q, v, -h, qm);
      teal_transform Xp = t->X_FM(&prm, qp), Xm = t->X_FM(&prm, qm), X = t->X_FM(&prm, q);
      /* [w]x = Rdot R' in F */
      teal_mat3 W = teal_mat3_mul(teal_mat3_scale(teal_mat3_sub(Xp.R, Xm.R), 0.5 / h),
                                  teal_mat3_transpose(X.R));
      double fd[6] = {W.m[7], W.m[2], W.m[3], 0, 0, 0};
      for (int i = 0; i < 3; i++) {
        fd[3 + i] = (Xp.p.v[i] - Xm.p.v[i]) / (2 * h);
      }
      t->H_FM(&prm, q, H);
      for (int i = 0; i < 6; i++) {
        double Hv = 0.0;
        for (int j = 0; j < t->nv; j++) {
          Hv += H[i * t->nv + j] * v[j];
        }
        ck_assert_double_eq_tol(Hv, fd[i], 1e-8);
      }
      /* H is constant: its Hdot v is zero, as differencing it shows */
      teal_spatial_vector Hdv = t->Hdot_v(&prm, q, v);
      ck_assert_double_eq(teal_spatial_vector_max_abs_diff(Hdv, teal_spatial_vector_zero()), 0.0);
    }
  }
}
END_TEST

START_TEST(n_and_nplus_are_inverses) {
  unsigned s = 7u;
  teal_joint_params prm = {teal_vec3_make(0, 0, 1), 0.0};
  for (int c = 0; c < 2; c++) {
    const teal_joint_type *t = teal_joint_type_get(kRpyKinds[c]);
    int n = t->nv;
    for (int trial = 0; trial < 20; trial++) {
      double q[6], v[6], N[36], Np[36];
      rand_qv(t, &s, q, v);
      ck_assert_int_eq(t->check_N(q), TEAL_OK);
      t->N(&prm, q, N);
      t->Nplus(&prm, q, Np);
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          double a = 0.0, b = 0.0;
          for (int k = 0; k < n; k++) {
            a += Np[i * n + k] * N[k * n + j];
            b += N[i * n + k] * Np[k * n + j];
          }
          ck_assert_double_eq_tol(a, i == j, 1e-13);
          ck_assert_double_eq_tol(b, i == j, 1e-13);
        }
      }
    }
  }
}
END_TEST

/* Ndot of every type against (N(q + h qd) - N(q - h qd)) / 2h, qd = N v */
START_TEST(ndot_matches_differenced_n) {
  unsigned s = 9u;
  teal_joint_params prm = {teal_vec3_make(0, 0, 1), 0.0};
  const double h = 1e-6;
  int with_ndot = 0;
  for (int kind = 0; kind < TEAL_JOINT_KIND_COUNT; kind++) {
    const teal_joint_type *t = teal_joint_type_get((teal_joint_kind)kind);
    int nn = t->nq * t->nv;
    for (int trial = 0; trial < 10; trial++) {
      double q[7], v[6], qp[7], qm[7], Np[42], Nm[42], Nd[42];
      rand_qv(t, &s, q, v);
      step(t, q, v, h, qp);
      step(t, q, v, -h, qm);
      t->N(&prm, qp, Np);
      t->N(&prm, qm, Nm);
      memset(Nd, 0, sizeof Nd);
      if (t->Ndot) {
        t->Ndot(&prm, q, v, Nd);
      }
      for (int i = 0; i < nn; i++) {
        ck_assert_msg(fabs((Np[i] - Nm[i]) / (2 * h) - Nd[i]) < 1e-7, "%s: Ndot[%d] %g vs %g",
                      t->name, i, Nd[i], (Np[i] - Nm[i]) / (2 * h));
      }
    }
    with_ndot += t->Ndot != NULL;
  }
  ck_assert_int_eq(with_ndot, 4); /* ball, quaternion floating and the two rpy types */
}
END_TEST

START_TEST(kind_maps) {
  ck_assert_int_eq(teal_joint_euler_kind(TEAL_JOINT_BALL), TEAL_JOINT_BALL_RPY);
  ck_assert_int_eq(teal_joint_euler_kind(TEAL_JOINT_QUATERNION_FLOATING), TEAL_JOINT_RPY_FLOATING);
  ck_assert_int_eq(teal_joint_quaternion_kind(TEAL_JOINT_BALL_RPY), TEAL_JOINT_BALL);
  ck_assert_int_eq(teal_joint_quaternion_kind(TEAL_JOINT_RPY_FLOATING),
                   TEAL_JOINT_QUATERNION_FLOATING);
  for (int k = 0; k < TEAL_JOINT_KIND_COUNT; k++) {
    teal_joint_kind kind = (teal_joint_kind)k;
    ck_assert_int_eq(teal_joint_quaternion_kind(teal_joint_euler_kind(kind)),
                     teal_joint_quaternion_kind(kind));
    int rpy = kind == TEAL_JOINT_BALL_RPY || kind == TEAL_JOINT_RPY_FLOATING;
    ck_assert_int_eq(teal_joint_euler_kind(kind) == kind,
                     rpy || !teal_joint_type_get(kind)->normalize);
  }
  ck_assert_str_eq(teal_joint_type_get(TEAL_JOINT_BALL_RPY)->name, "ball_rpy");
  ck_assert_str_eq(teal_joint_type_get(TEAL_JOINT_RPY_FLOATING)->name, "rpy_floating");
}
END_TEST

START_TEST(table_reports_the_lock) {
  teal_joint_params prm = {teal_vec3_make(0, 0, 1), 0.0};
  const teal_joint_type *t = teal_joint_type_get(TEAL_JOINT_RPY_FLOATING);
  double v[6] = {1, 2, 3, 4, 5, 6}, qd[6] = {9, 9, 9, 9, 9, 9};
  double near[6] = {0.3, kHalfPi - 2e-3, 0.1, 1, 2, 3}, lock[6] = {0.3, -kHalfPi, 0.1, 1, 2, 3};
  ck_assert_int_eq(t->check_N(near), TEAL_OK); /* |cos| = 2e-3 > 1e-3 */
  ck_assert_int_eq(teal_joint_qdot(t, &prm, near, v, qd), TEAL_OK);
  ck_assert(isfinite(qd[0]) && isfinite(qd[2]));
  ck_assert_int_eq(t->check_N(lock), TEAL_ESINGULAR);
  ck_assert_int_eq(teal_joint_qdot(t, &prm, lock, v, qd), TEAL_ESINGULAR);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(qd[i], 0.0); /* zeroed, never Inf */
  }
  lock[1] = 3 * kHalfPi; /* the other lock, cos = 0 too */
  ck_assert_int_eq(teal_joint_type_get(TEAL_JOINT_BALL_RPY)->check_N(lock), TEAL_ESINGULAR);
  ck_assert(teal_joint_type_get(TEAL_JOINT_BALL)->check_N == NULL);
}
END_TEST

/* A plant of one body on a ball_rpy joint "gimbal" from the world. */
static teal_plant *gimbal_plant(double time_step) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.2, 0.3, 0.4);
  int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_ge(teal_plant_add_joint(p, "gimbal", TEAL_JOINT_BALL_RPY, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), NULL, 0.0),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(plant_and_operators_report_the_lock) {
  teal_plant *p = gimbal_plant(0.0);
  const teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  ck_assert_ptr_nonnull(ctx);
  double q[3] = {0.2, kHalfPi, -0.4}, v[3] = {0.1, 0.2, 0.3}, out[6], back[3];
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 3), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 3), TEAL_OK);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_time_derivatives(sys, ctx, out), TEAL_ESINGULAR,
                  teal_context_error(ctx), "\"gimbal\"");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_map_velocity_to_qdot(sys, ctx, v, out), TEAL_ESINGULAR,
                  teal_context_error(ctx), "gimbal lock");
  double proposed[6] = {0}, residual[6];
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_implicit_time_derivatives_residual(sys, ctx, proposed, 6, residual, 6),
                  TEAL_ESINGULAR, teal_context_error(ctx), "plant implicit residual");
  /* the O(n) maps: N and Ndot refuse, N+ (w from rpy rates) exists */
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(d);
  TS_EXPECT_ERROR(teal_mb_multiply_by_n(p, d, q, 0, v, out), TEAL_ESINGULAR, teal_mb_data_error(d),
                  "\"gimbal\" (ball_rpy)");
  TS_EXPECT_ERROR(teal_mb_multiply_by_n_dot(p, d, q, v, 0, v, out), TEAL_ESINGULAR,
                  teal_mb_data_error(d), "teal_mb_multiply_by_n_dot");
  TS_EXPECT_ERROR(teal_mb_calc_qddot(p, d, q, v, v, out), TEAL_ESINGULAR, teal_mb_data_error(d),
                  "pitch q[1]");
  ck_assert_int_eq(teal_mb_multiply_by_n_inv(p, d, q, 0, v, back), TEAL_OK);
  /* away from the lock the plant's qdot is N v, and N+ maps it back */
  q[1] = 0.7;
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 3), TEAL_OK);
  ck_assert_int_eq(teal_map_velocity_to_qdot(sys, ctx, v, out), TEAL_OK);
  ck_assert_int_eq(teal_mb_multiply_by_n_inv(p, d, q, 0, out, back), TEAL_OK);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(back[i], v[i], 1e-14);
  }
  teal_mb_data_free(d);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A discrete plant stepping onto the lock fails with the joint's name. */
START_TEST(discrete_step_reports_the_lock) {
  teal_plant *p = gimbal_plant(0.01);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  double q[3] = {0.0, -kHalfPi, 0.5};
  ck_assert_int_eq(teal_plant_set_positions(p, teal_simulator_context(sim), q, 3), TEAL_OK);
  teal_sim_status st;
  TS_EXPECT_ERROR(teal_simulator_advance_to(sim, 0.05, &st), TEAL_ESINGULAR,
                  teal_simulator_error(sim), "\"gimbal\"");
  ck_assert_ptr_nonnull(strstr(teal_simulator_error(sim)->message, "discrete step"));
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("joints_rpy");
  TCase *tc = tcase_create("joints_rpy");
  tcase_add_test(tc, pose_is_rz_ry_rx);
  tcase_add_test(tc, twist_matches_differenced_pose);
  tcase_add_test(tc, n_and_nplus_are_inverses);
  tcase_add_test(tc, ndot_matches_differenced_n);
  tcase_add_test(tc, kind_maps);
  tcase_add_test(tc, table_reports_the_lock);
  tcase_add_test(tc, plant_and_operators_report_the_lock);
  tcase_add_test(tc, discrete_step_reports_the_lock);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
