/* Whole-system kinematics (multibody/algorithms/system_kinematics.h) on random
 * trees with every joint kind (revolute, prismatic, ball, universal, screw,
 * planar, weld, floating): points in other frames against the world
 * positions and central differences along the point Jacobian; the mass
 * matrix by inverse dynamics against the CRBA; the center-of-mass Jacobian in
 * frames A and E (v and qdot) and its bias against central differences of the
 * center of mass position and velocity; the system inertia against per-body
 * sums; the center-of-mass acceleration against a central difference along
 * the motion; the system Jacobian and its bias against per-body point
 * Jacobians, J u and bias accelerations; argument checks and no allocations. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/momentum.h"
#include "multibody/algorithms/system_kinematics.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAXN 64
#define MAXB 32

typedef teal_spatial_vector sv;

/* ---- helpers ---------------------------------------------------------------------- */

static teal_plant *topo_plant(int i, unsigned seed, int num_instances) {
  const ts_mb_topology *tp = &ts_mb_topologies[i];
  teal_plant *p = ts_mb_random_tree(tp->spec, tp->n, seed, num_instances);
  ck_assert_ptr_nonnull(p);
  return p;
}

static double d3(teal_vec3 a, teal_vec3 b) {
  return ts_mb_max_abs_diff(a.v, b.v, 3);
}

static double n3(teal_vec3 a) {
  return ts_mb_max_abs(a.v, 3);
}

/* qdot = N(q) v, joint by joint. */
static void calc_qdot(const teal_plant *p, const double *q, const double *v, double *qdot) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k],
                    qdot + t->q_start[k]);
  }
}

static teal_transform frame_pose(const teal_plant *p, const double *q, int f) {
  teal_transform X_WB[MAXB], X_WF;
  ck_assert_int_eq(teal_mb_body_poses(p, q, X_WB), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X_WB, TEAL_WORLD_FRAME, f, &X_WF),
                   TEAL_OK);
  return X_WF;
}

/* p_ACcm_A by hand: the center of mass (momentum.h) moved into frame A. */
static teal_vec3 com_in_A(const teal_plant *p, teal_mb_data *ws, const double *q, const int *inst,
                          int ni, int A) {
  teal_vec3 c;
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, inst, ni, &c), TEAL_OK);
  teal_transform X_WA = frame_pose(p, q, A);
  return teal_rotation_apply_inverse(X_WA.R, teal_vec3_sub(c, X_WA.p));
}

/* v_ACcm_A by hand: v_WCcm minus the velocity of the point of A at Ccm, in A. */
static teal_vec3 com_velocity_in_A(const teal_plant *p, teal_mb_data *ws, const double *q,
                                   const double *v, const int *inst, int ni, int A) {
  teal_vec3 c, vc;
  teal_transform X_WB[MAXB];
  sv V_WB[MAXB];
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, inst, ni, &c), TEAL_OK);
  ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, q, v, inst, ni, &vc), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X_WB, V_WB), TEAL_OK);
  int b = teal_plant_frame_body(p, A);
  sv V = teal_spatial_velocity_shift(V_WB[b], teal_vec3_sub(c, X_WB[b].p));
  teal_rotation R_WA = frame_pose(p, q, A).R;
  return teal_rotation_apply_inverse(R_WA, teal_vec3_sub(vc, teal_spatial_vector_linear(V)));
}

/* ---- points ------------------------------------------------------------------------ */

START_TEST(test_points_positions) {
  teal_plant *p = topo_plant(_i, 11, 1);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nf = teal_plant_num_frames(p), nv = teal_plant_nv(p);
  unsigned s = 5;
  double q[MAXN], v[MAXN], qp[MAXN], qm[MAXN], J[3 * MAXN];
  teal_vec3 pB[4], pA[4], pAp[4], pAm[4];
  for (int trial = 0; trial < 6; trial++) {
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    int B = (int)(ts_rand_next(&s) % (unsigned)nf), A = (int)(ts_rand_next(&s) % (unsigned)nf);
    for (int i = 0; i < 4; i++) {
      ts_mb_rand_vec(&s, pB[i].v, 3, 1.0);
    }
    ck_assert_int_eq(teal_mb_calc_points_positions(p, ws, q, B, pB, 4, A, pA), TEAL_OK);
    teal_transform X_WA = frame_pose(p, q, A), X_WBf = frame_pose(p, q, B);
    double h = 1e-6;
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_points_positions(p, ws, qp, B, pB, 4, A, pAp), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_points_positions(p, ws, qm, B, pB, 4, A, pAm), TEAL_OK);
    for (int i = 0; i < 4; i++) {
      /* reference 1: through the world */
      teal_vec3 pW = teal_transform_apply(X_WBf, pB[i]);
      teal_vec3 ref = teal_rotation_apply_inverse(X_WA.R, teal_vec3_sub(pW, X_WA.p));
      ck_assert_double_le(d3(pA[i], ref), 1e-12 * (1 + n3(ref)));
      /* reference 2: d/dt p_AQ_A = Jv_v_AQ_A v */
      double vq[3];
      ck_assert_int_eq(
          teal_mb_jacobian_translational_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, B, pB[i], A, A, J),
          TEAL_OK);
      for (int r = 0; r < 3; r++) {
        vq[r] = 0.0;
        for (int j = 0; j < nv; j++) {
          vq[r] += J[r * nv + j] * v[j];
        }
        double fd = (pAp[i].v[r] - pAm[i].v[r]) / (2 * h);
        ck_assert_double_le(fabs(fd - vq[r]), 1e-6 * (1 + fabs(vq[r])));
      }
    }
    /* in place */
    ck_assert_int_eq(teal_mb_calc_points_positions(p, ws, q, B, pB, 4, A, pB), TEAL_OK);
    ck_assert_double_le(d3(pB[3], pA[3]), 0.0);
  }
  ck_assert_int_eq(teal_mb_calc_points_positions(p, ws, q, 0, NULL, 0, 0, NULL), TEAL_OK);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- mass matrix ---------------------------------------------------------------------- */

START_TEST(test_mass_matrix_via_inverse_dynamics) {
  teal_plant *p = topo_plant(_i, 21, 1);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  ck_assert_int_eq(teal_mb_data_set_gravity(ws, teal_vec3_make(0.3, -1, -9.81)), TEAL_OK);
  int nv = teal_plant_nv(p);
  double q[MAXN], M[MAXN * MAXN], Mc[MAXN * MAXN];
  unsigned s = 3;
  for (int trial = 0; trial < 4; trial++) {
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, NULL, 2.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_mass_matrix_via_inverse_dynamics(p, ws, q, M), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, Mc), TEAL_OK);
    double scale = 1 + ts_mb_max_abs(Mc, nv * nv);
    ck_assert_double_le(ts_mb_max_abs_diff(M, Mc, nv * nv), 1e-12 * scale);
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- center of mass ------------------------------------------------------------------- */

START_TEST(test_com_jacobian_any_frame) {
  teal_plant *p = topo_plant(_i, 31, 2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nf = teal_plant_num_frames(p), nv = teal_plant_nv(p);
  int nq = teal_plant_nq(p), inst = 1;
  double q[MAXN], v[MAXN], qd[MAXN], qp[MAXN], qm[MAXN], Jv[3 * MAXN], Jq[3 * MAXN];
  unsigned s = 17;
  for (int trial = 0; trial < 8; trial++) {
    const int *sel = trial % 2 ? &inst : NULL;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    int A = (int)(ts_rand_next(&s) % (unsigned)nf), E = (int)(ts_rand_next(&s) % (unsigned)nf);
    if (trial == 0) {
      A = E = TEAL_WORLD_FRAME;
    }
    ck_assert_int_eq(teal_mb_calc_jacobian_center_of_mass_translational_velocity(
                         p, ws, q, sel, 1, TEAL_JACOBIAN_WRT_V, A, E, Jv),
                     TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_jacobian_center_of_mass_translational_velocity(
                         p, ws, q, sel, 1, TEAL_JACOBIAN_WRT_QDOT, A, E, Jq),
                     TEAL_OK);
    calc_qdot(p, q, v, qd);
    double h = 1e-6;
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    teal_vec3 cp = com_in_A(p, ws, qp, sel, 1, A), cm = com_in_A(p, ws, qm, sel, 1, A);
    teal_vec3 fd_A = teal_vec3_scale(teal_vec3_sub(cp, cm), 0.5 / h);
    teal_rotation R_EA =
        teal_rotation_mul(teal_rotation_inverse(frame_pose(p, q, E).R), frame_pose(p, q, A).R);
    teal_vec3 fd = teal_rotation_apply(R_EA, fd_A);
    teal_vec3 by_hand = teal_rotation_apply(R_EA, com_velocity_in_A(p, ws, q, v, sel, 1, A));
    teal_vec3 jv, jq;
    for (int r = 0; r < 3; r++) {
      jv.v[r] = jq.v[r] = 0.0;
      for (int j = 0; j < nv; j++) {
        jv.v[r] += Jv[r * nv + j] * v[j];
      }
      for (int j = 0; j < nq; j++) {
        jq.v[r] += Jq[r * nq + j] * qd[j];
      }
    }
    ck_assert_double_le(d3(jv, by_hand), 1e-12 * (1 + n3(jv)));
    ck_assert_double_le(d3(jv, fd), 1e-6 * (1 + n3(jv)));
    ck_assert_double_le(d3(jq, jv), 1e-12 * (1 + n3(jv)));
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_com_bias_any_frame) {
  teal_plant *p = topo_plant(_i, 41, 2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nf = teal_plant_num_frames(p), inst = 2;
  double q[MAXN], v[MAXN], qp[MAXN], qm[MAXN];
  unsigned s = 23;
  for (int trial = 0; trial < 8; trial++) {
    const int *sel = trial % 2 ? &inst : NULL;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    int A = (int)(ts_rand_next(&s) % (unsigned)nf), E = (int)(ts_rand_next(&s) % (unsigned)nf);
    if (trial == 0) {
      A = E = TEAL_WORLD_FRAME;
    }
    teal_vec3 ab;
    ck_assert_int_eq(teal_mb_calc_bias_center_of_mass_translational_acceleration(
                         p, ws, q, v, sel, 1, TEAL_JACOBIAN_WRT_V, A, E, &ab),
                     TEAL_OK);
    /* reference: d/dt of v_ACcm_A along (q, v) at vdot = 0, re-expressed in E */
    double h = 1e-5;
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    teal_vec3 vp = com_velocity_in_A(p, ws, qp, v, sel, 1, A);
    teal_vec3 vm = com_velocity_in_A(p, ws, qm, v, sel, 1, A);
    teal_rotation R_EA =
        teal_rotation_mul(teal_rotation_inverse(frame_pose(p, q, E).R), frame_pose(p, q, A).R);
    teal_vec3 fd = teal_rotation_apply(R_EA, teal_vec3_scale(teal_vec3_sub(vp, vm), 0.5 / h));
    ck_assert_msg(d3(ab, fd) <= 1e-5 * (1 + n3(fd)), "trial %d: |bias - fd| = %g", trial,
                  d3(ab, fd));
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_com_acceleration) {
  teal_plant *p = topo_plant(_i, 51, 2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nv = teal_plant_nv(p), inst = 1;
  double q[MAXN], v[MAXN], vd[MAXN], qp[MAXN], qm[MAXN], vp[MAXN], vm[MAXN];
  unsigned s = 29;
  for (int trial = 0; trial < 6; trial++) {
    const int *sel = trial % 2 ? &inst : NULL;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    ts_mb_rand_vec(&s, vd, nv, 2.0);
    teal_vec3 a, cp, cm;
    ck_assert_int_eq(
        teal_mb_calc_system_mass_center_acceleration_in_ground(p, ws, q, v, vd, sel, 1, &a),
        TEAL_OK);
    double h = 1e-5;
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    for (int j = 0; j < nv; j++) {
      vp[j] = v[j] + h * vd[j];
      vm[j] = v[j] - h * vd[j];
    }
    ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, qp, vp, sel, 1, &cp), TEAL_OK);
    ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, qm, vm, sel, 1, &cm), TEAL_OK);
    teal_vec3 fd = teal_vec3_scale(teal_vec3_sub(cp, cm), 0.5 / h);
    ck_assert_double_le(d3(a, fd), 1e-5 * (1 + n3(fd)));
    /* a_WScm = Jv vdot + bias */
    double J[3 * MAXN];
    teal_vec3 ab;
    ck_assert_int_eq(teal_mb_center_of_mass_jacobian(p, ws, q, sel, 1, J), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_bias_center_of_mass_translational_acceleration(
                         p, ws, q, v, sel, 1, TEAL_JACOBIAN_WRT_V, 0, 0, &ab),
                     TEAL_OK);
    for (int r = 0; r < 3; r++) {
      for (int j = 0; j < nv; j++) {
        ab.v[r] += J[r * nv + j] * vd[j];
      }
    }
    ck_assert_double_le(d3(a, ab), 1e-11 * (1 + n3(a)));
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- system inertia -------------------------------------------------------------------- */

START_TEST(test_system_inertia) {
  teal_plant *p = topo_plant(_i, 61, 2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int inst = 1;
  double q[MAXN];
  unsigned s = 37;
  for (int trial = 0; trial < 4; trial++) {
    const int *sel = trial % 2 ? &inst : NULL;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, NULL, 2.0), TEAL_OK);
    teal_spatial_inertia M;
    teal_mat3 Ic;
    ck_assert_int_eq(teal_mb_calc_system_mass_properties_in_ground(p, ws, q, sel, 1, &M), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_system_central_inertia_in_ground(p, ws, q, sel, 1, &Ic), TEAL_OK);
    /* brute force: sum over bodies of R I_Bcm R' + m point inertia, about Wo and about Scm */
    teal_transform X[MAXB];
    ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
    double m;
    teal_vec3 c;
    ck_assert_int_eq(teal_mb_total_mass(p, ws, sel, 1, &m), TEAL_OK);
    ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, sel, 1, &c), TEAL_OK);
    teal_mat3 I_o = teal_mat3_zero(), I_c = teal_mat3_zero();
    for (int k = 1; k < t->num_nodes; k++) {
      int b = teal_plant_node_body(p, k);
      if (sel && teal_plant_body_instance(p, b) != inst) {
        continue;
      }
      const teal_spatial_inertia *Mb = &t->M_BBo_B[k];
      teal_mat3 R = X[b].R, Icm = teal_spatial_inertia_central(Mb);
      teal_mat3 Iw = teal_mat3_mul(teal_mat3_mul(R, Icm), teal_mat3_transpose(R));
      teal_vec3 pc = teal_transform_apply(X[b], Mb->p_PScm_E);
      I_o = teal_mat3_add(
          I_o, teal_mat3_add(Iw, teal_mat3_scale(teal_mat3_point_inertia(pc), Mb->mass)));
      teal_vec3 r = teal_vec3_sub(pc, c);
      I_c = teal_mat3_add(I_c,
                          teal_mat3_add(Iw, teal_mat3_scale(teal_mat3_point_inertia(r), Mb->mass)));
    }
    double scale = 1 + ts_mb_max_abs(I_o.m, 9);
    ck_assert_double_le(fabs(M.mass - m), 1e-13 * m);
    ck_assert_double_le(d3(M.p_PScm_E, c), 1e-12 * (1 + n3(c)));
    ck_assert_double_le(teal_mat3_max_abs_diff(M.I_SP_E, I_o), 1e-12 * scale);
    ck_assert_double_le(teal_mat3_max_abs_diff(Ic, I_c), 1e-12 * scale);
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- system Jacobian ---------------------------------------------------------------------- */

START_TEST(test_system_jacobian_and_bias) {
  teal_plant *p = topo_plant(_i, 71, 1);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nb = teal_plant_num_bodies(p), nv = teal_plant_nv(p);
  static double JG[6 * MAXB * MAXN], Jb[6 * MAXN];
  double q[MAXN], v[MAXN], qp[MAXN], qm[MAXN];
  sv Ju[MAXB], B[MAXB], Vp[MAXB], Vm[MAXB];
  unsigned s = 43;
  for (int trial = 0; trial < 4; trial++) {
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_system_jacobian(p, ws, q, JG), TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, q, v, Ju), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_bias_for_system_jacobian(p, ws, q, v, B), TEAL_OK);
    double h = 1e-5;
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, qp, v, Vp), TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, qm, v, Vm), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs(JG, 6 * nv), 0.0); /* the world's rows */
    ck_assert_double_le(ts_mb_max_abs(B[0].v, 6), 0.0);
    for (int b = 1; b < nb; b++) {
      int f = teal_plant_body_frame(p, b);
      ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, f,
                                                         teal_vec3_zero(), 0, 0, Jb),
                       TEAL_OK);
      const double *rows = JG + 6 * b * nv;
      ck_assert_double_le(ts_mb_max_abs_diff(rows, Jb, 6 * nv),
                          1e-12 * (1 + ts_mb_max_abs(Jb, 6 * nv)));
      double Jv[6];
      for (int r = 0; r < 6; r++) {
        Jv[r] = 0.0;
        for (int j = 0; j < nv; j++) {
          Jv[r] += rows[r * nv + j] * v[j];
        }
      }
      ck_assert_double_le(ts_mb_max_abs_diff(Jv, Ju[b].v, 6), 1e-12 * (1 + ts_mb_max_abs(Jv, 6)));
      /* bias: the point Jacobian's bias at Bo, and d/dt V_WB at vdot = 0 */
      sv ref, fd;
      ck_assert_int_eq(
          teal_mb_bias_spatial_acceleration(p, ws, q, v, f, teal_vec3_zero(), 0, 0, &ref), TEAL_OK);
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(B[b], ref),
                          1e-12 * (1 + ts_mb_max_abs(ref.v, 6)));
      for (int r = 0; r < 6; r++) {
        fd.v[r] = (Vp[b].v[r] - Vm[b].v[r]) / (2 * h);
      }
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(B[b], fd),
                          1e-5 * (1 + ts_mb_max_abs(fd.v, 6)));
    }
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- argument checks ------------------------------------------------------------------------ */

static void expect(teal_mb_data *ws, int got, int code, const char *needle) {
  ck_assert_int_eq(got, code);
  ck_assert_int_eq(teal_mb_data_error(ws)->code, code);
  ck_assert_msg(strstr(teal_mb_data_error(ws)->message, needle), "\"%s\" not in \"%s\"", needle,
                teal_mb_data_error(ws)->message);
}

START_TEST(test_argument_checks) {
  teal_plant *p = topo_plant(1, 8, 2), *other = topo_plant(0, 8, 1);
  teal_mb_data *ws = teal_mb_data_new(p, NULL), *wo = teal_mb_data_new(other, NULL);
  ck_assert_ptr_nonnull(ws);
  ck_assert_ptr_nonnull(wo);
  int nf = teal_plant_num_frames(p), bad_inst = 7, vw = TEAL_JACOBIAN_WRT_V;
  static double q[MAXN], v[MAXN], J[6 * MAXB * MAXN];
  teal_vec3 pts[2] = {teal_vec3_zero(), teal_vec3_zero()}, out[2], a;
  teal_spatial_inertia M;
  teal_mat3 I;
  sv B[MAXB];
  unsigned s = 1;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  /* NULLs and wrong data */
  ck_assert_int_eq(teal_mb_calc_points_positions(NULL, ws, q, 0, pts, 2, 0, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_calc_points_positions(p, NULL, q, 0, pts, 2, 0, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_calc_points_positions(p, wo, q, 0, pts, 2, 0, out), TEAL_EINVAL);
  expect(ws, teal_mb_calc_points_positions(p, ws, q, 0, NULL, 2, 0, out), TEAL_EINVAL, "p_BQi");
  expect(ws, teal_mb_calc_points_positions(p, ws, q, 0, pts, 2, 0, NULL), TEAL_EINVAL, "p_AQi");
  expect(ws, teal_mb_calc_points_positions(p, ws, q, 0, pts, -1, 0, out), TEAL_EINVAL,
         "num_points");
  expect(ws, teal_mb_calc_points_positions(p, ws, q, nf, pts, 2, 0, out), TEAL_EINVAL, "frame_B");
  expect(ws, teal_mb_calc_points_positions(p, ws, q, 0, pts, 2, -1, out), TEAL_EINVAL, "frame_A");
  pts[1].v[2] = NAN;
  expect(ws, teal_mb_calc_points_positions(p, ws, q, 0, pts, 2, 0, out), TEAL_ENONFINITE,
         "p_BQi[1]");
  expect(ws, teal_mb_calc_mass_matrix_via_inverse_dynamics(p, ws, q, NULL), TEAL_EINVAL, "M");
  expect(ws, teal_mb_calc_system_jacobian(p, ws, NULL, J), TEAL_EINVAL, "q");
  expect(ws, teal_mb_calc_bias_for_system_jacobian(p, ws, q, NULL, B), TEAL_EINVAL, "v");
  expect(ws, teal_mb_calc_bias_for_system_jacobian(p, ws, q, v, NULL), TEAL_EINVAL, "JDotu");
  /* frames, wrt and selections */
  expect(
      ws,
      teal_mb_calc_jacobian_center_of_mass_translational_velocity(p, ws, q, NULL, 0, vw, nf, 0, J),
      TEAL_EINVAL, "frame_A");
  expect(ws,
         teal_mb_calc_jacobian_center_of_mass_translational_velocity(p, ws, q, NULL, 0, 9, 0, 0, J),
         TEAL_EINVAL, "wrt");
  expect(ws,
         teal_mb_calc_jacobian_center_of_mass_translational_velocity(p, ws, q, &bad_inst, 1, vw, 0,
                                                                     0, J),
         TEAL_EINVAL, "instances[0]");
  expect(ws,
         teal_mb_calc_bias_center_of_mass_translational_acceleration(
             p, ws, q, v, NULL, 0, TEAL_JACOBIAN_WRT_QDOT, 0, 0, &a),
         TEAL_EINVAL, "TEAL_JACOBIAN_WRT_V");
  expect(ws,
         teal_mb_calc_bias_center_of_mass_translational_acceleration(p, ws, q, v, NULL, 0, vw, 0,
                                                                     -3, &a),
         TEAL_EINVAL, "frame_E");
  int world_only = TEAL_WORLD_MODEL_INSTANCE;
  expect(ws, teal_mb_calc_system_central_inertia_in_ground(p, ws, q, &world_only, 1, &I),
         TEAL_EINVAL, "no mass");
  expect(ws, teal_mb_calc_system_mass_properties_in_ground(p, ws, q, &world_only, -2, &M),
         TEAL_EINVAL, "num_instances");
  expect(ws, teal_mb_calc_system_mass_center_acceleration_in_ground(p, ws, q, v, NULL, NULL, 0, &a),
         TEAL_EINVAL, "vdot");
  /* non-finite */
  v[0] = NAN;
  expect(ws, teal_mb_calc_system_mass_center_acceleration_in_ground(p, ws, q, v, v, NULL, 0, &a),
         TEAL_ENONFINITE, "v[0]");
  q[1] = INFINITY;
  expect(ws, teal_mb_calc_mass_matrix_via_inverse_dynamics(p, ws, q, J), TEAL_ENONFINITE, "q[1]");
  expect(
      ws,
      teal_mb_calc_jacobian_center_of_mass_translational_velocity(p, ws, q, NULL, 0, vw, 0, 0, J),
      TEAL_ENONFINITE, "q[1]");
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_system_jacobian(p, ws, q, J), TEAL_OK);
  ck_assert_int_eq(teal_mb_data_error(ws)->code, TEAL_OK);
  teal_mb_data_free(ws);
  teal_mb_data_free(wo);
  teal_plant_free(p);
  teal_plant_free(other);
}
END_TEST

START_TEST(test_no_allocations) {
  ts_alloc_install();
  teal_plant *p = topo_plant(1, 8, 2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int inst = 1, vw = TEAL_JACOBIAN_WRT_V;
  static double q[MAXN], v[MAXN], J[6 * MAXB * MAXN];
  teal_vec3 pts[2] = {teal_vec3_zero(), teal_vec3_make(1, 2, 3)}, a;
  teal_spatial_inertia M;
  teal_mat3 I;
  sv B[MAXB];
  unsigned s = 9;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  unsigned long before = ts_alloc_allocs(), count_before = teal_alloc_count();
  ck_assert_int_eq(teal_mb_calc_points_positions(p, ws, q, 3, pts, 2, 5, pts), TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_mass_matrix_via_inverse_dynamics(p, ws, q, J), TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_jacobian_center_of_mass_translational_velocity(
                       p, ws, q, &inst, 1, TEAL_JACOBIAN_WRT_QDOT, 4, 2, J),
                   TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_bias_center_of_mass_translational_acceleration(p, ws, q, v, NULL, 0,
                                                                               vw, 4, 2, &a),
                   TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_system_mass_properties_in_ground(p, ws, q, NULL, 0, &M), TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_system_central_inertia_in_ground(p, ws, q, NULL, 0, &I), TEAL_OK);
  ck_assert_int_eq(
      teal_mb_calc_system_mass_center_acceleration_in_ground(p, ws, q, v, v, NULL, 0, &a), TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_system_jacobian(p, ws, q, J), TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_bias_for_system_jacobian(p, ws, q, v, B), TEAL_OK);
  ck_assert_uint_eq(ts_alloc_allocs(), before);
  ck_assert_uint_eq(teal_alloc_count(), count_before);
  teal_mb_data_free(ws);
  teal_plant_free(p);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
}
END_TEST

int main(void) {
  Suite *s = suite_create("system_kinematics");
  TCase *tc = tcase_create("system_kinematics");
  tcase_set_timeout(tc, 60);
  int nt = ts_mb_num_topologies;
  tcase_add_loop_test(tc, test_points_positions, 0, nt);
  tcase_add_loop_test(tc, test_mass_matrix_via_inverse_dynamics, 0, nt);
  tcase_add_loop_test(tc, test_com_jacobian_any_frame, 0, nt);
  tcase_add_loop_test(tc, test_com_bias_any_frame, 0, nt);
  tcase_add_loop_test(tc, test_com_acceleration, 0, nt);
  tcase_add_loop_test(tc, test_system_inertia, 0, nt);
  tcase_add_loop_test(tc, test_system_jacobian_and_bias, 0, nt);
  tcase_add_test(tc, test_argument_checks);
  tcase_add_test(tc, test_no_allocations);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
