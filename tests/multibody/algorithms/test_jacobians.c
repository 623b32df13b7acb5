/* Jacobians (multibody/algorithms/jacobians.h) on random trees with every joint kind:
 * J v against the kinematics, central differences of point positions and
 * orientations (for v and for arbitrary qdot), J' as the adjoint of J, frames
 * A and E against re-expression, the bias acceleration against a central
 * difference of the velocity, a closed-form two-link arm, argument checks and
 * zero allocations. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAXN 64
#define MAXB 32

typedef teal_spatial_vector sv;

/* ---- helpers ---------------------------------------------------------------------- */

static teal_plant *topo_plant(int i, unsigned seed) {
  const ts_mb_topology *tp = &ts_mb_topologies[i];
  teal_plant *p = ts_mb_random_tree(tp->spec, tp->n, seed, 1);
  ck_assert_ptr_nonnull(p);
  return p;
}

static teal_transform frame_pose(const teal_plant *p, const teal_transform *X_WB, int f) {
  teal_transform X_WF;
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X_WB, TEAL_WORLD_FRAME, f, &X_WF),
                   TEAL_OK);
  return X_WF;
}

/* V_WQ_W of the point of frame f's body at p_WQ, from body velocities. */
static sv body_point_velocity(const teal_plant *p, const teal_transform *X_WB, const sv *V_WB,
                              int f, teal_vec3 p_WQ) {
  int b = teal_plant_frame_body(p, f);
  return teal_spatial_velocity_shift(V_WB[b], teal_vec3_sub(p_WQ, X_WB[b].p));
}

/* y = J x for a rows x n row-major J. */
static void matvec(const double *J, int rows, int n, const double *x, double *y) {
  for (int r = 0; r < rows; r++) {
    y[r] = 0.0;
    for (int j = 0; j < n; j++) {
      y[r] += J[r * n + j] * x[j];
    }
  }
}

static double vmax(const double *x, int n) {
  return ts_mb_max_abs(x, n);
}

/* qdot = N(q) v, joint by joint. */
static void calc_qdot(const teal_plant *p, const double *q, const double *v, double *qdot) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k],
                    qdot + t->q_start[k]);
  }
}

/* p_AQ_A and R_AF at q for Q at p_FQ on frame F. */
static void relative_point(const teal_plant *p, const double *q, int F, teal_vec3 p_FQ, int A,
                           teal_vec3 *p_AQ, teal_rotation *R_AF) {
  teal_transform X_WB[MAXB], X_AF;
  ck_assert_int_eq(teal_mb_body_poses(p, q, X_WB), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X_WB, A, F, &X_AF), TEAL_OK);
  *p_AQ = teal_transform_apply(X_AF, p_FQ);
  *R_AF = X_AF.R;
}

/* The angular velocity w (in A) that takes R_m to R_p in time 2h. */
static teal_vec3 rotation_rate(teal_rotation R_p, teal_rotation R_m, double h) {
  teal_vec3 axis;
  double angle;
  teal_rotation_to_axis_angle(teal_rotation_mul(R_p, teal_rotation_inverse(R_m)), &axis, &angle);
  return teal_vec3_scale(axis, angle / (2 * h));
}

/* ---- J v against the kinematics ------------------------------------------------------ */

START_TEST(test_jv_matches_point_velocity) {
  for (unsigned seed = 1; seed <= 4; seed++) {
    teal_plant *p = topo_plant(_i, 10 * seed + (unsigned)_i);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    ck_assert_ptr_nonnull(ws);
    int nv = teal_plant_nv(p), nf = teal_plant_num_frames(p);
    unsigned s = 3 * seed + 1;
    double q[MAXN], v[MAXN], J[6 * MAXN], Jr[3 * MAXN], Jv[6];
    teal_transform X_WB[MAXB];
    sv V_WB[MAXB];
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X_WB, V_WB), TEAL_OK);
    for (int trial = 0; trial < 12; trial++) {
      int F = (int)(ts_rand_next(&s) % (unsigned)nf), E = (int)(ts_rand_next(&s) % (unsigned)nf);
      int A = trial % 3 == 0 ? TEAL_WORLD_FRAME : (int)(ts_rand_next(&s) % (unsigned)nf);
      teal_vec3 p_FQ = ts_mb_rand_pose(&s, 0.7).p;
      ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, F, p_FQ,
                                                         A, E, J),
                       TEAL_OK);
      matvec(J, 6, nv, v, Jv);
      /* V_AQ = V_WQ - V_WAq (Aq: the point of A at Q), re-expressed in E */
      teal_vec3 p_WQ = teal_transform_apply(frame_pose(p, X_WB, F), p_FQ);
      sv V = teal_spatial_vector_sub(body_point_velocity(p, X_WB, V_WB, F, p_WQ),
                                     body_point_velocity(p, X_WB, V_WB, A, p_WQ));
      V = teal_spatial_vector_reexpress(teal_rotation_inverse(frame_pose(p, X_WB, E).R), V);
      for (int r = 0; r < 6; r++) {
        ck_assert_msg(fabs(Jv[r] - V.v[r]) < 1e-12 * (1 + fabs(V.v[r])),
                      "topo %d F %d A %d E %d row %d: %g vs %g", _i, F, A, E, r, Jv[r], V.v[r]);
      }
      /* the 3-row variants are the rows of the spatial Jacobian */
      ck_assert_int_eq(teal_mb_jacobian_angular_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, F, A, E,
                                                         Jr),
                       TEAL_OK);
      ck_assert_double_le(ts_mb_max_abs_diff(Jr, J, 3 * nv), 1e-15);
      ck_assert_int_eq(teal_mb_jacobian_translational_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, F,
                                                               p_FQ, A, E, Jr),
                       TEAL_OK);
      ck_assert_double_le(ts_mb_max_abs_diff(Jr, J + 3 * nv, 3 * nv), 1e-15);
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* ---- central differences of positions and orientations ----------------------------- */

/* Checks Js_V_AFq_A s against the central difference of (p_AQ_A, R_AF) along
 * q(+-h): qp and qm. */
static void check_against_difference(const teal_plant *p, const double *Js, int n,
                                     const double *s, const double *qp, const double *qm,
                                     double h, int F, teal_vec3 p_FQ, int A, const char *what) {
  double V[6];
  teal_vec3 pp, pm;
  teal_rotation Rp, Rm;
  matvec(Js, 6, n, s, V);
  relative_point(p, qp, F, p_FQ, A, &pp, &Rp);
  relative_point(p, qm, F, p_FQ, A, &pm, &Rm);
  teal_vec3 w = rotation_rate(Rp, Rm, h);
  teal_vec3 vel = teal_vec3_scale(teal_vec3_sub(pp, pm), 1.0 / (2 * h));
  double fd[6] = {w.v[0], w.v[1], w.v[2], vel.v[0], vel.v[1], vel.v[2]};
  double scale = 1 + vmax(V, 6);
  ck_assert_msg(ts_mb_max_abs_diff(V, fd, 6) < 1e-7 * scale, "%s: F %d A %d: |J s - fd| = %g",
                what, F, A, ts_mb_max_abs_diff(V, fd, 6));
}

START_TEST(test_finite_differences) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = topo_plant(_i, 50 + 7 * seed + (unsigned)_i);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    int nv = teal_plant_nv(p), nq = teal_plant_nq(p), nf = teal_plant_num_frames(p);
    unsigned s = 17 * seed;
    double q[MAXN], v[MAXN], qd[MAXN], qp[MAXN], qm[MAXN], Jv[6 * MAXN], Jq[6 * MAXN], h = 1e-5;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    for (int trial = 0; trial < 6; trial++) {
      int F = (int)(ts_rand_next(&s) % (unsigned)nf);
      int A = trial % 2 ? TEAL_WORLD_FRAME : (int)(ts_rand_next(&s) % (unsigned)nf);
      teal_vec3 p_FQ = ts_mb_rand_pose(&s, 0.7).p;
      ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, F, p_FQ,
                                                         A, A, Jv),
                       TEAL_OK);
      ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_QDOT, F,
                                                         p_FQ, A, A, Jq),
                       TEAL_OK);
      /* along v: q +- h N v (normalized) */
      ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
      ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
      check_against_difference(p, Jv, nv, v, qp, qm, h, F, p_FQ, A, "Jv v");
      calc_qdot(p, q, v, qd);
      check_against_difference(p, Jq, nq, qd, qp, qm, h, F, p_FQ, A, "Jq N v");
      /* along an arbitrary qdot, quaternions left unnormalized: Jq is the
       * partial derivative with respect to q */
      ts_mb_rand_vec(&s, qd, nq, 1.0);
      for (int i = 0; i < nq; i++) {
        qp[i] = q[i] + h * qd[i];
        qm[i] = q[i] - h * qd[i];
      }
      check_against_difference(p, Jq, nq, qd, qp, qm, h, F, p_FQ, A, "Jq qdot");
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* Jq N = Jv, assembled joint by joint (N+ N = I). */
START_TEST(test_qdot_jacobian_times_n) {
  teal_plant *p = topo_plant(_i, 333 + (unsigned)_i);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  int nv = teal_plant_nv(p), nq = teal_plant_nq(p), nf = teal_plant_num_frames(p);
  unsigned s = 71;
  double q[MAXN], Jv[6 * MAXN], Jq[6 * MAXN];
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, NULL, 1.5), TEAL_OK);
  for (int F = 0; F < nf; F++) {
    teal_vec3 p_FQ = ts_mb_rand_pose(&s, 0.5).p;
    int A = (F * 7) % nf, E = (F * 5) % nf;
    ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, F, p_FQ,
                                                       A, E, Jv),
                     TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_QDOT, F, p_FQ,
                                                       A, E, Jq),
                     TEAL_OK);
    for (int k = 1; k < t->num_nodes; k++) {
      double N[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV];
      int nqk = t->nq[k], nvk = t->nv[k];
      t->type[k]->N(&t->params[k], q + t->q_start[k], N);
      for (int r = 0; r < 6; r++) {
        for (int j = 0; j < nvk; j++) {
          double x = 0.0;
          for (int c = 0; c < nqk; c++) {
            x += Jq[r * nq + t->q_start[k] + c] * N[c * nvk + j];
          }
          ck_assert_double_eq_tol(x, Jv[r * nv + t->v_start[k] + j], 1e-12);
        }
      }
    }
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- operators ------------------------------------------------------------------------- */

START_TEST(test_transpose_is_adjoint) {
  for (unsigned seed = 1; seed <= 4; seed++) {
    teal_plant *p = topo_plant(_i, 90 + 3 * seed + (unsigned)_i);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
    unsigned s = 5 * seed + 3;
    double q[MAXN], u[MAXN], tau[MAXN], J[6 * MAXN];
    sv V[MAXB], F[MAXB], V2[MAXB];
    teal_transform X_WB[MAXB];
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, u, 1.5), TEAL_OK);
    for (int b = 0; b < nb; b++) {
      ts_mb_rand_vec(&s, F[b].v, 6, 2.0);
    }
    /* J u is the velocity pass */
    ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, q, u, V), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_velocities(p, q, u, X_WB, V2), TEAL_OK);
    /* F . (J u) = (J' F) . u; the world's entry is ignored */
    ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, ws, q, F, tau), TEAL_OK);
    double lhs = 0.0, rhs = 0.0;
    for (int b = 1; b < nb; b++) {
      ck_assert_double_eq(teal_spatial_vector_max_abs_diff(V[b], V2[b]), 0.0);
      lhs += teal_spatial_vector_dot(F[b], V[b]);
    }
    for (int i = 0; i < nv; i++) {
      rhs += tau[i] * u[i];
    }
    ck_assert_msg(fabs(lhs - rhs) < 1e-12 * (1 + fabs(lhs)), "topo %d: %g vs %g", _i, lhs, rhs);
    /* J' of one body's force is the transposed explicit Jacobian of Bo */
    int b = 1 + (int)(seed % (unsigned)(nb - 1));
    sv one[MAXB];
    memset(one, 0, sizeof one);
    one[b] = F[b];
    ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, ws, q, one, tau), TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V,
                                                       teal_plant_body_frame(p, b),
                                                       teal_vec3_zero(), 0, 0, J),
                     TEAL_OK);
    for (int j = 0; j < nv; j++) {
      double x = 0.0;
      for (int r = 0; r < 6; r++) {
        x += J[r * nv + j] * F[b].v[r];
      }
      ck_assert_double_eq_tol(tau[j], x, 1e-12 * (1 + fabs(x)));
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* ---- frames A and E --------------------------------------------------------------------- */

START_TEST(test_frames_reexpress) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = topo_plant(_i, 200 + seed + (unsigned)_i);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    int nq = teal_plant_nq(p), nf = teal_plant_num_frames(p);
    unsigned s = 13 * seed;
    double q[MAXN], J[6 * MAXN], JF[6 * MAXN], JA[6 * MAXN];
    teal_transform X_WB[MAXB];
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, NULL, 1.5), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_poses(p, q, X_WB), TEAL_OK);
    for (int trial = 0; trial < 8; trial++) {
      int F = (int)(ts_rand_next(&s) % (unsigned)nf), A = (int)(ts_rand_next(&s) % (unsigned)nf);
      int E = (int)(ts_rand_next(&s) % (unsigned)nf);
      teal_jacobian_wrt wrt = trial % 2 ? TEAL_JACOBIAN_WRT_QDOT : TEAL_JACOBIAN_WRT_V;
      int n = wrt == TEAL_JACOBIAN_WRT_V ? teal_plant_nv(p) : nq;
      teal_vec3 p_FQ = ts_mb_rand_pose(&s, 0.7).p;
      teal_vec3 p_WQ = teal_transform_apply(frame_pose(p, X_WB, F), p_FQ);
      teal_vec3 p_AQ = teal_transform_apply(teal_transform_inverse(frame_pose(p, X_WB, A)), p_WQ);
      ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, wrt, F, p_FQ, A, E, J), 0);
      ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, wrt, F, p_FQ, 0, 0, JF), 0);
      ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, wrt, A, p_AQ, 0, 0, JA), 0);
      teal_rotation R_EW = teal_rotation_inverse(frame_pose(p, X_WB, E).R);
      for (int j = 0; j < n; j++) {
        sv c;
        for (int r = 0; r < 6; r++) {
          c.v[r] = JF[r * n + j] - JA[r * n + j];
        }
        c = teal_spatial_vector_reexpress(R_EW, c);
        for (int r = 0; r < 6; r++) {
          ck_assert_double_eq_tol(J[r * n + j], c.v[r], 1e-12);
        }
      }
    }
    /* a point measured in its own frame does not move */
    teal_vec3 p_FQ = teal_vec3_make(0.3, -0.2, 0.5);
    ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, nf - 1,
                                                       p_FQ, nf - 1, 0, J),
                     TEAL_OK);
    ck_assert_double_eq(vmax(J, 6 * teal_plant_nv(p)), 0.0);
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* ---- bias acceleration ---------------------------------------------------------------- */

/* V_AQ_A at (q, v) through the Jacobian. */
static void velocity_in_A(const teal_plant *p, teal_mb_data *ws, const double *q,
                          const double *v, int F, teal_vec3 p_FQ, int A, double *V) {
  double J[6 * MAXN];
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, F, p_FQ, A,
                                                     A, J),
                   TEAL_OK);
  matvec(J, 6, teal_plant_nv(p), v, V);
}

/* d/dt V_AQ_A along (q, v) + h (N v, vdot) equals J vdot + bias (A = E). */
static void check_bias(const teal_plant *p, teal_mb_data *ws, const double *q,
                       const double *v, const double *vdot, int F, teal_vec3 p_FQ, int A) {
  int nv = teal_plant_nv(p);
  double qs[MAXN], vs[MAXN], Vp[6], Vm[6], Jvd[6], h = 1e-5;
  for (int side = 0; side < 2; side++) {
    double hh = side ? -h : h;
    ck_assert_int_eq(ts_mb_step_q(p, q, v, hh, qs), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      vs[i] = v[i] + hh * vdot[i];
    }
    velocity_in_A(p, ws, qs, vs, F, p_FQ, A, side ? Vm : Vp);
  }
  velocity_in_A(p, ws, q, vdot, F, p_FQ, A, Jvd);
  sv bias;
  ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, ws, q, v, F, p_FQ, A, A, &bias), TEAL_OK);
  double acc[6], fd[6];
  for (int r = 0; r < 6; r++) {
    acc[r] = Jvd[r] + bias.v[r];
    fd[r] = (Vp[r] - Vm[r]) / (2 * h);
  }
  ck_assert_msg(ts_mb_max_abs_diff(acc, fd, 6) < 1e-6 * (1 + vmax(acc, 6)),
                "F %d A %d: |A - fd| = %g", F, A, ts_mb_max_abs_diff(acc, fd, 6));
}

START_TEST(test_bias_acceleration) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = topo_plant(_i, 400 + 11 * seed + (unsigned)_i);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    int nv = teal_plant_nv(p), nf = teal_plant_num_frames(p);
    unsigned s = 23 * seed;
    double q[MAXN], v[MAXN], vdot[MAXN];
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    ts_mb_rand_vec(&s, vdot, nv, 2.0);
    for (int trial = 0; trial < 6; trial++) {
      int F = (int)(ts_rand_next(&s) % (unsigned)nf);
      int A = trial % 2 ? TEAL_WORLD_FRAME : (int)(ts_rand_next(&s) % (unsigned)nf);
      teal_vec3 p_FQ = ts_mb_rand_pose(&s, 0.7).p;
      check_bias(p, ws, q, v, vdot, F, p_FQ, A);
      /* also at vdot = 0, where the acceleration is the bias alone */
      double zero[MAXN] = {0};
      check_bias(p, ws, q, v, zero, F, p_FQ, A);
      /* expressed in another frame E; the translational variant */
      int E = (int)(ts_rand_next(&s) % (unsigned)nf);
      sv bA, bE;
      teal_vec3 aE;
      teal_transform X_WB[MAXB], X_EA;
      ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, ws, q, v, F, p_FQ, A, A, &bA), 0);
      ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, ws, q, v, F, p_FQ, A, E, &bE), 0);
      ck_assert_int_eq(teal_mb_bias_translational_acceleration(p, ws, q, v, F, p_FQ, A, E, &aE),
                       TEAL_OK);
      ck_assert_int_eq(teal_mb_body_poses(p, q, X_WB), TEAL_OK);
      ck_assert_int_eq(teal_plant_calc_relative_transform(p, X_WB, E, A, &X_EA), TEAL_OK);
      sv b2 = teal_spatial_vector_reexpress(X_EA.R, bA);
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(b2, bE), 1e-12 * (1 + vmax(bE.v, 6)));
      ck_assert_double_le(ts_mb_max_abs_diff(aE.v, bE.v + 3, 3), 0.0);
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST


/* ---- closed form ------------------------------------------------------------------------ */

/* A planar two-link arm about z: the textbook Jacobian and tip acceleration. */
START_TEST(test_two_link_closed_form) {
  const double l1 = 0.7, l2 = 0.45;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b1 = teal_plant_add_rigid_body(p, "l1", 1, &M);
  int b2 = teal_plant_add_rigid_body(p, "l2", 1, &M);
  int elbow = teal_plant_add_frame(p, "elbow", teal_plant_body_frame(p, b1),
                                   teal_transform_make(teal_rotation_identity(),
                                                       teal_vec3_make(l1, 0, 0)));
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  int j1 = teal_plant_add_joint(p, "j1", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b1), &z,
                                0);
  int j2 = teal_plant_add_joint(p, "j2", TEAL_JOINT_REVOLUTE, elbow, teal_plant_body_frame(p, b2),
                                &z, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  int i1 = teal_plant_joint_v_start(p, j1), i2 = teal_plant_joint_v_start(p, j2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double q[2], v[2], J[12], t1 = 0.6, t2 = -1.1, w1 = 0.8, w2 = -1.7;
  q[i1] = t1, q[i2] = t2, v[i1] = w1, v[i2] = w2;
  teal_vec3 tip = teal_vec3_make(l2, 0, 0);
  int f2 = teal_plant_body_frame(p, b2);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, TEAL_JACOBIAN_WRT_V, f2, tip, 0, 0,
                                                     J),
                   TEAL_OK);
  double s1 = sin(t1), c1 = cos(t1), s12 = sin(t1 + t2), c12 = cos(t1 + t2);
  double expect[6][2] = {{0, 0}, {0, 0}, {1, 1}, {-l1 * s1 - l2 * s12, -l2 * s12},
                         {l1 * c1 + l2 * c12, l2 * c12}, {0, 0}};
  for (int r = 0; r < 6; r++) {
    ck_assert_double_eq_tol(J[r * 2 + i1], expect[r][0], 1e-14);
    ck_assert_double_eq_tol(J[r * 2 + i2], expect[r][1], 1e-14);
  }
  teal_vec3 a;
  ck_assert_int_eq(teal_mb_bias_translational_acceleration(p, ws, q, v, f2, tip, 0, 0, &a), 0);
  double w12 = w1 + w2;
  ck_assert_double_eq_tol(a.v[0], -(l1 * c1 * w1 * w1 + l2 * c12 * w12 * w12), 1e-13);
  ck_assert_double_eq_tol(a.v[1], -(l1 * s1 * w1 * w1 + l2 * s12 * w12 * w12), 1e-13);
  ck_assert_double_eq_tol(a.v[2], 0.0, 1e-13);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- arguments and allocations ------------------------------------------------------------ */

START_TEST(test_argument_checks) {
  teal_plant *p = topo_plant(0, 3), *other = topo_plant(2, 3);
  teal_plant *raw = teal_plant_new(0.0, NULL);
  teal_error err;
  ck_assert_ptr_null(teal_mb_data_new(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_data_new(raw, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(err.message, "finalized"));
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  const teal_error *e = teal_mb_data_error(ws);
  int nf = teal_plant_num_frames(p), nb = teal_plant_num_bodies(p);
  double q[MAXN], v[MAXN], J[6 * MAXN];
  sv A, V[MAXB], F[MAXB];
  teal_vec3 a, z = teal_vec3_zero();
  unsigned s = 5;
  const teal_jacobian_wrt W = TEAL_JACOBIAN_WRT_V;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  memset(F, 0, sizeof F);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, NULL, q, W, 1, z, 0, 0, J), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(NULL, ws, q, W, 1, z, 0, 0, J), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(raw, ws, q, W, 1, z, 0, 0, J), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(other, ws, q, W, 1, z, 0, 0, J), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "another plant"));
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, NULL, W, 1, z, 0, 0, J), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, W, 1, z, 0, 0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, (teal_jacobian_wrt)7, 1, z, 0, 0,
                                                     J),
                   TEAL_EINVAL);
  /* bad frame indices, each named */
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, W, nf, z, 0, 0, J), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "frame_F"));
  ck_assert_int_eq(teal_mb_jacobian_angular_velocity(p, ws, q, W, 1, -1, 0, J), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "frame_A"));
  ck_assert_int_eq(teal_mb_jacobian_translational_velocity(p, ws, q, W, 1, z, 0, nf + 3, J),
                   TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "frame_E"));
  ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, ws, q, v, -2, z, 0, 0, &A), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_bias_translational_acceleration(p, ws, q, v, 1, z, 0, 0, NULL),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, ws, q, NULL, 1, z, 0, 0, &A), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, q, v, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, ws, q, NULL, v), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, ws, q, F, NULL), TEAL_EINVAL);
  /* non-finite inputs */
  teal_vec3 bad = teal_vec3_make(0, NAN, 0);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, W, 1, bad, 0, 0, J),
                   TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e->message, "p_FQ[1]"));
  F[nb - 1].v[4] = INFINITY;
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, ws, q, F, v), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e->message, "F_Bo_W"));
  F[nb - 1].v[4] = 0.0;
  F[0].v[0] = NAN; /* the world's entry is ignored */
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, ws, q, F, J), TEAL_OK);
  v[2] = NAN;
  ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, ws, q, v, 1, z, 0, 0, &A), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e->message, "v[2]"));
  ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, q, v, V), TEAL_ENONFINITE);
  q[0] = NAN;
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, W, 1, z, 0, 0, J), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e->message, "q[0]"));
  ck_assert_int_eq(teal_mb_bias_translational_acceleration(p, ws, q, J, 1, z, 0, 0, &a),
                   TEAL_ENONFINITE);
  /* a good call clears the record */
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, W, 1, z, 0, 0, J), TEAL_OK);
  ck_assert_int_eq(e->code, TEAL_OK);
  ck_assert_ptr_null(teal_mb_data_error(NULL));
  teal_mb_data_free(ws);
  teal_mb_data_free(NULL);
  teal_plant_free(p);
  teal_plant_free(other);
  teal_plant_free(raw);
}
END_TEST

START_TEST(test_no_allocations) {
  ts_alloc_install();
  teal_plant *p = topo_plant(1, 8);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nb = teal_plant_num_bodies(p);
  double q[MAXN], v[MAXN], J[6 * MAXN], tau[MAXN];
  sv A, V[MAXB], F[MAXB];
  teal_vec3 a, z = teal_vec3_zero();
  unsigned s = 9;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  for (int b = 0; b < nb; b++) {
    ts_mb_rand_vec(&s, F[b].v, 6, 1.0);
  }
  unsigned long before = ts_alloc_allocs(), count_before = teal_alloc_count();
  for (teal_jacobian_wrt w = TEAL_JACOBIAN_WRT_V; w <= TEAL_JACOBIAN_WRT_QDOT; w++) {
    ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(p, ws, q, w, 5, z, 3, 2, J), TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_angular_velocity(p, ws, q, w, 5, 3, 2, J), TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_translational_velocity(p, ws, q, w, 5, z, 3, 2, J), 0);
  }
  ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, ws, q, v, 5, z, 3, 2, &A), TEAL_OK);
  ck_assert_int_eq(teal_mb_bias_translational_acceleration(p, ws, q, v, 5, z, 3, 2, &a), 0);
  ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, q, v, V), TEAL_OK);
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, ws, q, F, tau), TEAL_OK);
  q[0] = NAN; /* the error path does not allocate either */
  ck_assert_int_eq(teal_mb_jacobian_apply(p, ws, q, v, V), TEAL_ENONFINITE);
  ck_assert_uint_eq(ts_alloc_allocs(), before);
  ck_assert_uint_eq(teal_alloc_count(), count_before);
  teal_mb_data_free(ws);
  teal_plant_free(p);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
}
END_TEST

/* Every allocation failure in the constructor gives TEAL_ENOMEM and leaks nothing. */
START_TEST(test_data_out_of_memory) {
  teal_plant *p = topo_plant(1, 4);
  ts_alloc_install();
  for (long n = 0; n < 12; n++) {
    teal_error err;
    ts_alloc_reset();
    ts_alloc_fail_after(n, 0);
    teal_mb_data *ws = teal_mb_data_new(p, &err);
    if (ws) {
      ck_assert_uint_eq(ts_alloc_stats_get()->failures, 0);
      teal_mb_data_free(ws);
    } else {
      ck_assert_int_eq(err.code, TEAL_ENOMEM);
    }
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  }
  ts_alloc_uninstall();
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("jacobians");
  TCase *tc = tcase_create("jacobians");
  tcase_set_timeout(tc, 60);
  int nt = ts_mb_num_topologies;
  tcase_add_loop_test(tc, test_jv_matches_point_velocity, 0, nt);
  tcase_add_loop_test(tc, test_finite_differences, 0, nt);
  tcase_add_loop_test(tc, test_qdot_jacobian_times_n, 0, nt);
  tcase_add_loop_test(tc, test_transpose_is_adjoint, 0, nt);
  tcase_add_loop_test(tc, test_frames_reexpress, 0, nt);
  tcase_add_loop_test(tc, test_bias_acceleration, 0, nt);
  tcase_add_test(tc, test_two_link_closed_form);
  tcase_add_test(tc, test_argument_checks);
  tcase_add_test(tc, test_no_allocations);
  tcase_add_test(tc, test_data_out_of_memory);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
