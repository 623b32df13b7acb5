/* O(n) dynamics (multibody/dynamics.h): CRBA against RNEA columns, ABA against
 * RNEA, bias-term properties, energies, closed-form pendulum and acrobot,
 * energy conservation under RK4; M v and M^-1 against the CRBA matrix,
 * applied spatial forces against J' F from body velocities, reaction forces
 * against per-body Newton-Euler balance and closed forms; argument checks and
 * zero allocations. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/dynamics.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/topology.h"
#include "solvers/dense.h"
#include "support/test_support.h"

#define MAXN 64

/* ---- random trees -------------------------------------------------------------- */

/* One body of a topology: its parent (index into the same list, -1 for the
 * world, -2 for no joint, i.e. a floating body) and its joint kind. */
typedef struct body_spec {
  int parent;
  int kind;
} body_spec;

static const body_spec chain_spec[] = {
    {-1, TEAL_JOINT_REVOLUTE}, {0, TEAL_JOINT_PRISMATIC}, {1, TEAL_JOINT_BALL},
    {2, TEAL_JOINT_UNIVERSAL}, {3, TEAL_JOINT_REVOLUTE},  {4, TEAL_JOINT_SCREW}};
static const body_spec tree_spec[] = {
    {-2, 0},                   {0, TEAL_JOINT_REVOLUTE}, {0, TEAL_JOINT_BALL},
    {1, TEAL_JOINT_UNIVERSAL}, {1, TEAL_JOINT_PRISMATIC}, {2, TEAL_JOINT_PLANAR},
    {5, TEAL_JOINT_REVOLUTE},  {-1, TEAL_JOINT_BALL},     {7, TEAL_JOINT_QUATERNION_FLOATING}};
static const body_spec float_spec[] = {{-2, 0}, {0, TEAL_JOINT_BALL}, {1, TEAL_JOINT_UNIVERSAL},
                                       {-2, 0}};

static teal_transform rand_pose(unsigned *s, double scale) {
  teal_vec3 rpy = teal_vec3_make(ts_rand_uniform(s, -3, 3), ts_rand_uniform(s, -1.5, 1.5),
                                 ts_rand_uniform(s, -3, 3));
  teal_vec3 p = teal_vec3_make(ts_rand_uniform(s, -scale, scale), ts_rand_uniform(s, -scale, scale),
                               ts_rand_uniform(s, -scale, scale));
  return teal_transform_make(teal_rotation_from_rpy(rpy), p);
}

/* A random valid inertia about Bo in B: a box of random size and mass,
 * rotated and offset. */
static teal_spatial_inertia rand_inertia(unsigned *s) {
  double m = ts_rand_uniform(s, 0.5, 2.0);
  teal_spatial_inertia box = teal_spatial_inertia_solid_box(
      m, ts_rand_uniform(s, 0.1, 0.6), ts_rand_uniform(s, 0.1, 0.6), ts_rand_uniform(s, 0.1, 0.6));
  teal_transform X = rand_pose(s, 0.4);
  teal_spatial_inertia r = teal_spatial_inertia_reexpress(&box, X.R);
  return teal_spatial_inertia_from_central(m, X.p, r.I_SP_E);
}

static teal_plant *make_tree(const body_spec *spec, int n, unsigned seed) {
  unsigned s = seed;
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int bodies[32];
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "b%d", i);
    teal_spatial_inertia M = rand_inertia(&s);
    bodies[i] = teal_plant_add_rigid_body(p, name, 1, &M);
    ck_assert_int_ge(bodies[i], 0);
  }
  for (int i = 0; i < n; i++) {
    if (spec[i].parent == -2) {
      continue;
    }
    char fname[32], mname[32], jname[32];
    snprintf(fname, sizeof fname, "F%d", i);
    snprintf(mname, sizeof mname, "M%d", i);
    snprintf(jname, sizeof jname, "j%d", i);
    int pb = spec[i].parent < 0 ? TEAL_WORLD_BODY : bodies[spec[i].parent];
    int F = teal_plant_add_frame(p, fname, teal_plant_body_frame(p, pb), rand_pose(&s, 0.5));
    int Mf =
        teal_plant_add_frame(p, mname, teal_plant_body_frame(p, bodies[i]), rand_pose(&s, 0.3));
    teal_vec3 ax = teal_vec3_make(ts_rand_uniform(&s, -1, 1), ts_rand_uniform(&s, -1, 1),
                                  ts_rand_uniform(&s, -1, 1));
    ck_assert_int_ge(teal_plant_add_joint(p, jname, (teal_joint_kind)spec[i].kind, F, Mf, &ax,
                                          ts_rand_uniform(&s, -0.3, 0.3)),
                     0);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static void rand_vec(unsigned *s, double *x, int n, double a) {
  for (int i = 0; i < n; i++) {
    x[i] = ts_rand_uniform(s, -a, a);
  }
}

static void rand_state(const teal_plant *p, unsigned *s, double *q, double *v) {
  rand_vec(s, q, teal_plant_nq(p), 1.5);
  ck_assert_int_eq(teal_plant_normalize_q(p, q), TEAL_OK);
  if (v) {
    rand_vec(s, v, teal_plant_nv(p), 1.5);
  }
}

static double max_abs(const double *x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

static double max_abs_diff(const double *a, const double *b, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(a[i] - b[i]));
  }
  return m;
}

typedef struct topo {
  const body_spec *spec;
  int n;
} topo;

static const topo topologies[] = {{chain_spec, 6}, {tree_spec, 9}, {float_spec, 4}};
#define NTOPO ((int)(sizeof topologies / sizeof topologies[0]))

/* q + h N(q) v, normalized. */
static void step_q(const teal_plant *p, const double *q, const double *v, double h, double *out) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int k = 1; k < t->num_nodes; k++) {
    double qd[TEAL_JOINT_MAX_NQ];
    teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k], qd);
    for (int i = 0; i < t->nq[k]; i++) {
      out[t->q_start[k] + i] = q[t->q_start[k] + i] + h * qd[i];
    }
  }
  ck_assert_int_eq(teal_plant_normalize_q(p, out), TEAL_OK);
}

/* ---- properties on random trees --------------------------------------------------- */

START_TEST(test_crba_matches_rnea_columns) {
  const topo *tp = &topologies[_i];
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = make_tree(tp->spec, tp->n, 100 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    ck_assert_ptr_nonnull(ws);
    unsigned s = 7 * seed + 1;
    double q[MAXN], zero[MAXN] = {0}, e[MAXN], col[MAXN];
    double M[MAXN * MAXN], L[MAXN * MAXN], X[MAXN * MAXN], MX[MAXN * MAXN];
    rand_state(p, &s, q, NULL);
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    double scale = max_abs(M, nv * nv);
    for (int i = 0; i < nv; i++) {
      for (int j = 0; j < nv; j++) {
        ck_assert_msg(fabs(M[i * nv + j] - M[j * nv + i]) <= 1e-12 * scale, "asym %d %d", i, j);
      }
    }
    memcpy(L, M, sizeof(double) * (size_t)(nv * nv));
    ck_assert_int_eq(teal_cholesky_factor(L, nv, NULL), TEAL_OK); /* SPD */
    /* M e_j = ID(q, 0, e_j) without gravity */
    ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
    for (int j = 0; j < nv; j++) {
      memset(e, 0, sizeof e);
      e[j] = 1.0;
      ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, zero, e, NULL, col), TEAL_OK);
      for (int i = 0; i < nv; i++) {
        ck_assert_msg(fabs(col[i] - M[i * nv + j]) <= 1e-11 * scale, "topo %d M[%d][%d] %g vs %g",
                      _i, i, j, M[i * nv + j], col[i]);
      }
    }
    /* M M^-1 = I */
    memset(X, 0, sizeof X);
    for (int i = 0; i < nv; i++) {
      X[i * nv + i] = 1.0;
    }
    ck_assert_int_eq(teal_solve(M, nv, X, nv, NULL), TEAL_OK);
    ck_assert_int_eq(teal_gemm(0, 0, nv, nv, nv, 1.0, M, X, 0.0, MX, NULL), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      for (int j = 0; j < nv; j++) {
        ck_assert_msg(fabs(MX[i * nv + j] - (i == j)) < 1e-10, "M M^-1 %d %d", i, j);
      }
    }
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(test_aba_inverts_rnea) {
  const topo *tp = &topologies[_i];
  for (unsigned seed = 1; seed <= 4; seed++) {
    teal_plant *p = make_tree(tp->spec, tp->n, 31 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    unsigned s = 11 * seed + 5;
    double q[MAXN], v[MAXN], vdot[MAXN], tau[MAXN], tau_app[MAXN], vdot2[MAXN], tsum[MAXN];
    rand_state(p, &s, q, v);
    rand_vec(&s, vdot, nv, 2.0);
    rand_vec(&s, tau_app, nv, 3.0);
    ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, vdot, NULL, tau), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, vdot2), TEAL_OK);
    ck_assert_msg(max_abs_diff(vdot, vdot2, nv) <= 1e-10 * max_abs(vdot, nv), "topo %d: %g", _i,
                  max_abs_diff(vdot, vdot2, nv));
    /* with applied forces: ABA(tau + tau_app) = vdot */
    ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, vdot, tau_app, tau), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      tsum[i] = tau[i] + tau_app[i];
    }
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tsum, vdot2), TEAL_OK);
    ck_assert_msg(max_abs_diff(vdot, vdot2, nv) <= 1e-10 * max_abs(vdot, nv), "topo %d app", _i);
    /* ID = M vdot + C v - tau_g - tau_app, assembled from the parts */
    double M[MAXN * MAXN], Cv[MAXN], tg[MAXN], Mv[MAXN];
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, Cv), TEAL_OK);
    ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, tg), TEAL_OK);
    ck_assert_int_eq(teal_gemm(0, 0, nv, 1, nv, 1.0, M, vdot, 0.0, Mv, NULL), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      ck_assert_double_eq_tol(tau[i], Mv[i] + Cv[i] - tg[i] - tau_app[i], 1e-10 * max_abs(tau, nv));
    }
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(test_bias_term_properties) {
  const topo *tp = &topologies[_i];
  teal_plant *p = make_tree(tp->spec, tp->n, 77 + (unsigned)_i);
  int nv = teal_plant_nv(p);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  unsigned s = 99;
  double q[MAXN], v[MAXN], sv[MAXN], zero[MAXN] = {0}, C1[MAXN], C2[MAXN], M[MAXN * MAXN], Mv[MAXN];
  rand_state(p, &s, q, v);
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, zero, C1), TEAL_OK);
  ck_assert_double_eq(max_abs(C1, nv), 0.0);
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, C1), TEAL_OK);
  ck_assert_double_gt(max_abs(C1, nv), 1e-3);
  double sc = -2.7;
  for (int i = 0; i < nv; i++) {
    sv[i] = sc * v[i];
  }
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, sv, C2), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    ck_assert_double_eq_tol(C2[i], sc * sc * C1[i], 1e-11 * sc * sc * max_abs(C1, nv));
  }
  /* kinetic energy = 0.5 v' M v */
  double ke;
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, &ke), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
  ck_assert_int_eq(teal_gemm(0, 0, nv, 1, nv, 1.0, M, v, 0.0, Mv, NULL), TEAL_OK);
  double vMv = 0.0;
  for (int i = 0; i < nv; i++) {
    vMv += v[i] * Mv[i];
  }
  ck_assert_double_eq_tol(ke, 0.5 * vMv, 1e-12 * ke);
  /* and = sum over bodies of 0.5 V_WB . (M V_WB) from forward kinematics */
  const teal_plant_tree *t = teal_plant_get_tree(p);
  teal_transform X[32];
  teal_spatial_vector V[32];
  double ke_ref = 0.0;
  ck_assert_int_eq(teal_plant_calc_body_velocities(p, q, v, X, V), TEAL_OK);
  for (int k = 1; k < t->num_nodes; k++) {
    int b = teal_plant_node_body(p, k);
    teal_spatial_inertia Mw = teal_spatial_inertia_reexpress(&t->M_BBo_B[k], X[b].R);
    ke_ref += teal_spatial_inertia_kinetic_energy(&Mw, V[b]);
  }
  ck_assert_double_eq_tol(ke, ke_ref, 1e-12 * ke);
  /* skew property: v' (Mdot v - 2 C v) = 0 means dKE/dt = v' tau when passive
   * (checked below); here tau_g . v = -d/dt PE along q + h N v */
  double tg[MAXN], qp[MAXN], qm[MAXN], pep, pem, h = 1e-5;
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, tg), TEAL_OK);
  step_q(p, q, v, h, qp);
  step_q(p, q, v, -h, qm);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, qp, &pep), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, qm, &pem), TEAL_OK);
  double pw = 0.0;
  for (int i = 0; i < nv; i++) {
    pw += tg[i] * v[i];
  }
  ck_assert_double_eq_tol(pw, -(pep - pem) / (2 * h), 1e-6 * (1 + fabs(pw)));
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* Passive motion under ABA conserves KE + PE: the central difference of E
 * along (q, v) + h (N v, vdot) vanishes to O(h^2). This checks every
 * velocity-dependent term (Hdot v, Coriolis, gyroscopic) of ABA. */
START_TEST(test_energy_rate_zero) {
  const topo *tp = &topologies[_i];
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = make_tree(tp->spec, tp->n, 500 + 13 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    unsigned s = 3 * seed + 17;
    double q[MAXN], v[MAXN], vdot[MAXN], qs[MAXN], vs[MAXN], E[2], h = 1e-5;
    rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, vdot), TEAL_OK);
    double ke0;
    ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, &ke0), TEAL_OK);
    for (int side = 0; side < 2; side++) {
      double hh = side ? -h : h, ke, pe;
      step_q(p, q, v, hh, qs);
      for (int i = 0; i < nv; i++) {
        vs[i] = v[i] + hh * vdot[i];
      }
      ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, qs, vs, &ke), TEAL_OK);
      ck_assert_int_eq(teal_mb_potential_energy(p, ws, qs, &pe), TEAL_OK);
      E[side] = ke + pe;
    }
    double rate = (E[0] - E[1]) / (2 * h);
    ck_assert_msg(fabs(rate) < 1e-5 * (1 + ke0), "topo %d seed %u: dE/dt = %g", _i, seed, rate);
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST


/* A free system (two floating subtrees, no gravity) conserves its spatial
 * momentum about the world origin: the central difference along the ABA
 * motion vanishes. Energy is blind to the gyroscopic torque w x I w (it does
 * no work); momentum is not. */
static teal_spatial_vector total_momentum(const teal_plant *p, const double *q, const double *v) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  teal_transform X[32];
  teal_spatial_vector V[32], h = teal_spatial_vector_zero();
  ck_assert_int_eq(teal_plant_calc_body_velocities(p, q, v, X, V), TEAL_OK);
  for (int k = 1; k < t->num_nodes; k++) {
    int b = teal_plant_node_body(p, k);
    teal_spatial_inertia M = teal_spatial_inertia_reexpress(&t->M_BBo_B[k], X[b].R);
    teal_spatial_vector hb = teal_spatial_inertia_apply(&M, V[b]);
    h = teal_spatial_vector_add(h, teal_spatial_force_shift(hb, teal_vec3_neg(X[b].p)));
  }
  return h;
}

START_TEST(test_momentum_conservation) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = make_tree(float_spec, 4, 900 + seed);
    ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
    int nv = teal_plant_nv(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    unsigned s = 5 * seed + 2;
    double q[MAXN], v[MAXN], vdot[MAXN], qs[MAXN], vs[MAXN], h = 1e-5;
    rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, vdot), TEAL_OK);
    teal_spatial_vector hs[2];
    for (int side = 0; side < 2; side++) {
      double hh = side ? -h : h;
      step_q(p, q, v, hh, qs);
      for (int i = 0; i < nv; i++) {
        vs[i] = v[i] + hh * vdot[i];
      }
      hs[side] = total_momentum(p, qs, vs);
    }
    teal_spatial_vector h0 = total_momentum(p, q, v);
    double rate = teal_spatial_vector_max_abs_diff(hs[0], hs[1]) / (2 * h);
    double scale = teal_spatial_vector_max_abs_diff(h0, teal_spatial_vector_zero());
    ck_assert_msg(rate < 1e-5 * (1 + scale), "seed %u: dh/dt = %g", seed, rate);
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* ---- applied forces, M v, M^-1 ------------------------------------------------- */

static void rand_forces(unsigned *s, int nb, teal_spatial_vector *F) {
  for (int b = 0; b < nb; b++) {
    for (int i = 0; i < 6; i++) {
      F[b].v[i] = ts_rand_uniform(s, -2, 2);
    }
  }
}

/* J' F as the power of F with the body velocities at v = e_i: column i of J
 * is V_WB(e_i), exactly, since V_WB is linear in v. */
static void jacobian_transpose_times(const teal_plant *p, const double *q,
                                     const teal_spatial_vector *F, double *tau) {
  int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
  double e[MAXN] = {0};
  teal_transform X[32];
  teal_spatial_vector V[32];
  for (int i = 0; i < nv; i++) {
    e[i] = 1.0;
    ck_assert_int_eq(teal_plant_calc_body_velocities(p, q, e, X, V), TEAL_OK);
    e[i] = 0.0;
    tau[i] = 0.0;
    for (int b = 1; b < nb; b++) {
      tau[i] += teal_spatial_vector_dot(F[b], V[b]);
    }
  }
}

START_TEST(test_mass_matrix_times) {
  const topo *tp = &topologies[_i];
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = make_tree(tp->spec, tp->n, 60 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    unsigned s = 19 * seed;
    double q[MAXN], v[MAXN], Mv[MAXN], ref[MAXN], M[MAXN * MAXN];
    rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    ck_assert_int_eq(teal_gemm(0, 0, nv, 1, nv, 1.0, M, v, 0.0, ref, NULL), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix_times(p, ws, q, v, Mv), TEAL_OK);
    ck_assert_msg(max_abs_diff(Mv, ref, nv) <= 1e-12 * max_abs(ref, nv), "topo %d: %g", _i,
                  max_abs_diff(Mv, ref, nv));
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(test_articulated_solve) {
  const topo *tp = &topologies[_i];
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = make_tree(tp->spec, tp->n, 70 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    unsigned s = 23 * seed;
    double q[MAXN], v[MAXN], x[MAXN], Mv[MAXN], M[MAXN * MAXN], X[MAXN * MAXN], MX[MAXN * MAXN];
    rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_OK);
    /* M^-1 (M v) = v, solved in place */
    ck_assert_int_eq(teal_mb_mass_matrix_times(p, ws, q, v, Mv), TEAL_OK);
    memcpy(x, Mv, sizeof(double) * (size_t)nv);
    ck_assert_int_eq(teal_mb_articulated_solve(p, ws, x, NULL, x), TEAL_OK);
    ck_assert_msg(max_abs_diff(x, v, nv) <= 1e-10 * max_abs(v, nv), "topo %d: %g", _i,
                  max_abs_diff(x, v, nv));
    /* M [M^-1 e_1 ... M^-1 e_n] = I with the CRBA matrix */
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    for (int j = 0; j < nv; j++) {
      double e[MAXN] = {0}, col[MAXN];
      e[j] = 1.0;
      ck_assert_int_eq(teal_mb_articulated_solve(p, ws, e, NULL, col), TEAL_OK);
      for (int i = 0; i < nv; i++) {
        X[i * nv + j] = col[i];
      }
    }
    ck_assert_int_eq(teal_gemm(0, 0, nv, nv, nv, 1.0, M, X, 0.0, MX, NULL), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      for (int j = 0; j < nv; j++) {
        ck_assert_msg(fabs(MX[i * nv + j] - (i == j)) < 1e-10, "topo %d M M^-1 %d %d", _i, i, j);
      }
    }
    /* with forces: M^-1 (rhs + J' F) against a dense solve */
    teal_spatial_vector F[32];
    double rhs[MAXN], JtF[MAXN], ref[MAXN], L[MAXN * MAXN];
    rand_forces(&s, nb, F);
    rand_vec(&s, rhs, nv, 2.0);
    jacobian_transpose_times(p, q, F, JtF);
    for (int i = 0; i < nv; i++) {
      ref[i] = rhs[i] + JtF[i];
    }
    memcpy(L, M, sizeof(double) * (size_t)(nv * nv));
    ck_assert_int_eq(teal_solve(L, nv, ref, 1, NULL), TEAL_OK);
    ck_assert_int_eq(teal_mb_articulated_solve(p, ws, rhs, F, x), TEAL_OK);
    ck_assert_msg(max_abs_diff(x, ref, nv) <= 1e-10 * max_abs(ref, nv), "topo %d F: %g", _i,
                  max_abs_diff(x, ref, nv));
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* The factorization is valid exactly while the workspace stays at its q. */
START_TEST(test_factorization_validity) {
  teal_plant *p = make_tree(tree_spec, 9, 41);
  int nv = teal_plant_nv(p);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  unsigned s = 3;
  double q[MAXN], q2[MAXN], v[MAXN], x[MAXN], x2[MAXN], vd[MAXN], tau[MAXN], M[MAXN * MAXN];
  rand_state(p, &s, q, v);
  rand_state(p, &s, q2, NULL);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x), TEAL_ESTATE); /* none yet */
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, vd), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x), TEAL_OK); /* FD's factor */
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);             /* same q */
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, vd, NULL, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_OK);
  ck_assert_double_eq(max_abs_diff(x, x2, nv), 0.0);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q2, tau), TEAL_OK); /* another q */
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(teal_mb_workspace_error(ws)->message, "factor"));
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_OK);
  ck_assert_double_eq(max_abs_diff(x, x2, nv), 0.0);
  /* the same array changed in place is a new q */
  memcpy(q2, q, sizeof q);
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q2), TEAL_OK);
  q2[0] += 1e-3;
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q2, M), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_ESTATE);
  /* linearity: vdot(tau2) = vdot(tau1) + M^-1 (tau2 - tau1) */
  double tau1[MAXN], tau2[MAXN], d[MAXN], vd1[MAXN], vd2[MAXN];
  rand_vec(&s, tau1, nv, 2.0);
  rand_vec(&s, tau2, nv, 2.0);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau2, vd2), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau1, vd1), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    d[i] = tau2[i] - tau1[i];
  }
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, d, NULL, x), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    x[i] += vd1[i];
  }
  ck_assert_msg(max_abs_diff(x, vd2, nv) <= 1e-10 * max_abs(vd2, nv), "%g",
                max_abs_diff(x, vd2, nv));
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* The q cache changes nothing: a fresh workspace per call gives bitwise the
 * same results as one reused across different calls. */
START_TEST(test_cache_transparent) {
  teal_plant *p = make_tree(tree_spec, 9, 43);
  int nv = teal_plant_nv(p);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  unsigned s = 4;
  double q[MAXN], v[MAXN], v2[MAXN], a[MAXN], b[MAXN], M[MAXN * MAXN];
  rand_state(p, &s, q, v);
  rand_vec(&s, v2, nv, 1.0);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
  for (int fn = 0; fn < 4; fn++) {
    const double *vv = fn % 2 ? v2 : v;
    teal_mb_workspace *fresh = teal_mb_workspace_new(p, NULL);
    for (int pass = 0; pass < 2; pass++) {
      teal_mb_workspace *w = pass ? fresh : ws;
      double *out = pass ? b : a;
      int st = fn == 0   ? teal_mb_forward_dynamics(p, w, q, vv, NULL, out)
               : fn == 1 ? teal_mb_inverse_dynamics(p, w, q, vv, v, NULL, out)
               : fn == 2 ? teal_mb_bias_term(p, w, q, vv, out)
                         : teal_mb_mass_matrix_times(p, w, q, vv, out);
      ck_assert_int_eq(st, TEAL_OK);
    }
    ck_assert_msg(memcmp(a, b, sizeof(double) * (size_t)nv) == 0, "function %d", fn);
    teal_mb_workspace_free(fresh);
  }
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_applied_spatial_forces) {
  const topo *tp = &topologies[_i];
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = make_tree(tp->spec, tp->n, 80 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    unsigned s = 29 * seed;
    double q[MAXN], v[MAXN], tau[MAXN], tsum[MAXN], JtF[MAXN], vd1[MAXN], vd2[MAXN];
    double tau_app[MAXN], tid[MAXN];
    teal_spatial_vector F[32];
    rand_state(p, &s, q, v);
    rand_vec(&s, tau, nv, 2.0);
    rand_vec(&s, tau_app, nv, 2.0);
    rand_forces(&s, nb, F);
    F[0].v[2] = 1e3; /* on the world: ignored */
    jacobian_transpose_times(p, q, F, JtF);
    for (int i = 0; i < nv; i++) {
      tsum[i] = tau[i] + JtF[i];
    }
    /* FD with F equals FD with tau + J' F */
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, tau, F, vd1), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tsum, vd2), TEAL_OK);
    ck_assert_msg(max_abs_diff(vd1, vd2, nv) <= 1e-10 * max_abs(vd2, nv), "topo %d: %g", _i,
                  max_abs_diff(vd1, vd2, nv));
    /* ID_ex(FD_ex) recovers tau, with and without tau_applied */
    ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, ws, q, v, vd1, NULL, F, tid), TEAL_OK);
    ck_assert_msg(max_abs_diff(tid, tau, nv) <= 1e-10 * (1 + max_abs(tsum, nv)), "topo %d ID", _i);
    ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, ws, q, v, vd1, tau_app, F, tid), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      ck_assert_double_eq_tol(tid[i], tau[i] - tau_app[i], 1e-10 * (1 + max_abs(tsum, nv)));
    }
    /* without F the _ex functions match the plain ones */
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, tau, NULL, vd1), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, vd2), TEAL_OK);
    ck_assert_double_eq(max_abs_diff(vd1, vd2, nv), 0.0);
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* ---- reaction forces ------------------------------------------------------------ */

/* The node of joint j's child body. */
static int joint_node(const teal_plant *p, int j) {
  return teal_plant_body_node(p, teal_plant_joint_child_body(p, j));
}

/* F_CJc_Jc of joint j re-expressed in W and shifted to the point at p_WQ. */
static teal_spatial_vector reaction_at(const teal_plant *p, const teal_transform *X_WB, int j,
                                       teal_spatial_vector F_CJc_Jc, teal_vec3 p_WQ) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int k = joint_node(p, j);
  teal_transform X_WM = teal_transform_compose(X_WB[teal_plant_node_body(p, k)], t->X_BM[k]);
  teal_spatial_vector F_W = teal_spatial_vector_reexpress(X_WM.R, F_CJc_Jc);
  return teal_spatial_force_shift(F_W, teal_vec3_sub(p_WQ, X_WM.p));
}

/* Newton-Euler about the body origin Bo (classical): the rate of spatial
 * momentum [I alpha + w x I w + m c x a; m (a + alpha x c + w x (w x c))]. */
static teal_spatial_vector momentum_rate(const teal_spatial_inertia *M_BBo_B, teal_transform X_WB,
                                         teal_spatial_vector V, teal_spatial_vector A) {
  teal_spatial_inertia Mw = teal_spatial_inertia_reexpress(M_BBo_B, X_WB.R);
  teal_vec3 w = teal_spatial_vector_angular(V), al = teal_spatial_vector_angular(A);
  teal_vec3 a = teal_spatial_vector_linear(A), c = Mw.p_PScm_E;
  double m = Mw.mass;
  teal_vec3 n = teal_vec3_add(teal_mat3_apply(Mw.I_SP_E, al),
                              teal_vec3_cross(w, teal_mat3_apply(Mw.I_SP_E, w)));
  n = teal_vec3_add(n, teal_vec3_scale(teal_vec3_cross(c, a), m));
  teal_vec3 f = teal_vec3_add(a, teal_vec3_cross(al, c));
  f = teal_vec3_add(f, teal_vec3_cross(w, teal_vec3_cross(w, c)));
  return teal_spatial_vector_make(n, teal_vec3_scale(f, m));
}

/* Per body: own joint's reaction - children's reactions + gravity + applied
 * force = rate of momentum; per joint: H' (R_FM F) = tau of its velocities. */
START_TEST(test_reaction_force_balance) {
  const topo *tp = &topologies[_i];
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = make_tree(tp->spec, tp->n, 90 * seed + (unsigned)_i);
    const teal_plant_tree *t = teal_plant_get_tree(p);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p), nj = teal_plant_num_joints(p);
    teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
    unsigned s = 31 * seed;
    double q[MAXN], v[MAXN], tau[MAXN], vd[MAXN];
    teal_spatial_vector F[32], R[32], V[32], A[32], bal[32];
    teal_transform X[32];
    rand_state(p, &s, q, v);
    rand_vec(&s, tau, nv, 2.0);
    rand_forces(&s, nb, F);
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, tau, F, vd), TEAL_OK);
    ck_assert_int_eq(teal_mb_reaction_forces(p, ws, q, v, vd, F, R), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_body_accelerations(p, q, v, vd, X, V, A), TEAL_OK);
    teal_vec3 g = teal_plant_gravity(p);
    for (int b = 1; b < nb; b++) {
      const teal_spatial_inertia *M = &t->M_BBo_B[teal_plant_body_node(p, b)];
      teal_vec3 c = teal_rotation_apply(X[b].R, M->p_PScm_E), mg = teal_vec3_scale(g, M->mass);
      bal[b] = teal_spatial_vector_add(F[b], teal_spatial_vector_make(teal_vec3_cross(c, mg), mg));
    }
    for (int j = 0; j < nj; j++) {
      int child = teal_plant_joint_child_body(p, j), parent = teal_plant_joint_parent_body(p, j);
      bal[child] = teal_spatial_vector_add(bal[child], reaction_at(p, X, j, R[j], X[child].p));
      if (parent > 0) {
        bal[parent] = teal_spatial_vector_sub(bal[parent], reaction_at(p, X, j, R[j], X[parent].p));
      }
    }
    for (int b = 1; b < nb; b++) {
      teal_spatial_vector rate =
          momentum_rate(&t->M_BBo_B[teal_plant_body_node(p, b)], X[b], V[b], A[b]);
      ck_assert_msg(
          teal_spatial_vector_max_abs_diff(bal[b], rate) < 1e-9 * (1 + max_abs(rate.v, 6)),
          "topo %d body %d: %g", _i, b, teal_spatial_vector_max_abs_diff(bal[b], rate));
    }
    for (int j = 0; j < nj; j++) {
      int k = joint_node(p, j), n = t->nv[k], v0 = t->v_start[k];
      double H[36];
      teal_transform X_FM = t->type[k]->X_FM(&t->params[k], q + t->q_start[k]);
      teal_spatial_vector F_F = teal_spatial_vector_reexpress(X_FM.R, R[j]);
      t->type[k]->H_FM(&t->params[k], q + t->q_start[k], H);
      for (int c = 0; c < n; c++) {
        double proj = 0.0;
        for (int r = 0; r < 6; r++) {
          proj += H[r * n + c] * F_F.v[r];
        }
        ck_assert_double_eq_tol(proj, tau[v0 + c], 1e-9 * (1 + max_abs(tau, nv)));
      }
    }
    teal_mb_workspace_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* A pendulum hanging at rest carries its weight: F_CJc_Jc = R_MW [0; m g]
 * (upward, expressed in the child frame M, which is rotated against the
 * body), with no moment about the hinge; a welded body carries its weight
 * and the moment of its offset center of mass. */
START_TEST(test_reaction_forces_at_rest) {
  double m = 1.3, l = 0.6, g = 9.81;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(m, teal_vec3_make(0, 0, -l),
                                                             teal_mat3_diag(0.02, 0.03, 0.01));
  teal_spatial_inertia Mw = teal_spatial_inertia_from_central(2.0, teal_vec3_make(0.2, 0, 0),
                                                              teal_mat3_diag(0.1, 0.1, 0.1));
  int b = teal_plant_add_rigid_body(p, "bob", 1, &M);
  int w = teal_plant_add_rigid_body(p, "welded", 1, &Mw);
  teal_transform X_BM = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0.3, -0.2, 0.5)),
                                            teal_vec3_zero());
  int F = teal_plant_add_frame(p, "F", TEAL_WORLD_FRAME, X_BM); /* at q = 0, X_WB = I */
  int Mf = teal_plant_add_frame(p, "M", teal_plant_body_frame(p, b), X_BM);
  int Fw =
      teal_plant_add_frame(p, "Fw", TEAL_WORLD_FRAME,
                           teal_transform_make(teal_rotation_identity(), teal_vec3_make(1, 0, 0)));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int jp = teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, F, Mf, &y, 0);
  int jw =
      teal_plant_add_joint(p, "weld", TEAL_JOINT_WELD, Fw, teal_plant_body_frame(p, w), NULL, 0);
  ck_assert_int_ge(jp, 0);
  ck_assert_int_ge(jw, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_num_joints(p), 2);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  double q = 0.0, v = 0.0, vd;
  teal_spatial_vector R[2];
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &q, &v, NULL, &vd), TEAL_OK);
  ck_assert_double_eq_tol(vd, 0.0, 1e-12);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, &q, &v, &vd, NULL, R), TEAL_OK);
  teal_vec3 up_M = teal_rotation_apply_inverse(X_BM.R, teal_vec3_make(0, 0, m * g));
  teal_spatial_vector expect = teal_spatial_vector_make(teal_vec3_zero(), up_M);
  ck_assert_msg(teal_spatial_vector_max_abs_diff(R[jp], expect) < 1e-12, "pin");
  /* weld: F = [-(c x m g); -m g] with c = (0.2, 0, 0), m = 2 */
  expect =
      teal_spatial_vector_make(teal_vec3_make(0, -0.2 * 2.0 * g, 0), teal_vec3_make(0, 0, 2.0 * g));
  ck_assert_msg(teal_spatial_vector_max_abs_diff(R[jw], expect) < 1e-12, "weld");
  /* swinging through the bottom about the tilted axis a = R_WF y: the hinge
   * also carries the centripetal force -m w^2 c_perp (c_perp the offset of
   * the center of mass from the axis) */
  v = 1.7;
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &q, &v, NULL, &vd), TEAL_OK);
  ck_assert_double_eq_tol(vd, 0.0, 1e-12);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, &q, &v, &vd, NULL, R), TEAL_OK);
  teal_vec3 f_W = teal_rotation_apply(X_BM.R, teal_spatial_vector_linear(R[jp]));
  teal_vec3 a = teal_rotation_apply(X_BM.R, y), c = teal_vec3_make(0, 0, -l);
  teal_vec3 c_perp = teal_vec3_sub(c, teal_vec3_scale(a, teal_vec3_dot(a, c)));
  teal_vec3 f_ref = teal_vec3_add(teal_vec3_scale(c_perp, -m * v * v), teal_vec3_make(0, 0, m * g));
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(f_W.v[i], f_ref.v[i], 1e-11);
  }
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* A point mass on its own revolute axis has no articulated inertia. */
START_TEST(test_singular_articulated_inertia) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_point_mass(1.0, teal_vec3_zero());
  int b = teal_plant_add_rigid_body(p, "point", 1, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ck_assert_int_ge(
      teal_plant_add_joint(p, "spin", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b), &z, 0),
      0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  double q = 0.3, v = 1.0, x;
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &q, &v, NULL, &x), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_mb_workspace_error(ws)->message, "spin"));
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, &q), TEAL_ESINGULAR);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, &v, NULL, &x), TEAL_ESTATE);
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* A workspace's own gravity replaces the plant's in every function. */
START_TEST(test_workspace_gravity) {
  teal_plant *p = make_tree(chain_spec, 6, 12);
  int nv = teal_plant_nv(p);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  teal_mb_workspace *ref = teal_mb_workspace_new(p, NULL);
  unsigned s = 6;
  double q[MAXN], v[MAXN], a[MAXN], b[MAXN], pa, pb;
  rand_state(p, &s, q, v);
  teal_vec3 g2 = teal_vec3_make(1.0, -2.0, 3.0);
  ck_assert_int_eq(teal_mb_workspace_set_gravity(NULL, g2), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_workspace_set_gravity(ws, teal_vec3_make(0, NAN, 0)), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_workspace_set_gravity(ws, g2), TEAL_OK);
  /* ws with g2 against ref reading the plant's gravity, set to g2 later */
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, a), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, &pa), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ref, q, v, NULL, b), TEAL_OK);
  ck_assert_double_gt(max_abs_diff(a, b, nv), 1e-3);
  ck_assert_int_eq(teal_plant_set_gravity(p, g2), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ref, q, v, NULL, b), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, ref, q, &pb), TEAL_OK);
  ck_assert_double_eq(max_abs_diff(a, b, nv), 0.0);
  ck_assert_double_eq(pa, pb);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, a), TEAL_OK);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ref, q, b), TEAL_OK);
  ck_assert_double_eq(max_abs_diff(a, b, nv), 0.0);
  teal_mb_workspace_free(ws);
  teal_mb_workspace_free(ref);
  teal_plant_free(p);
}
END_TEST

/* ---- closed forms -------------------------------------------------------------- */

START_TEST(test_simple_pendulum) {
  double m = 1.7, l = 0.8, g = 9.81;
  teal_plant *p = teal_plant_new(0.0, NULL);
  /* a point mass at (0, 0, -l) in the body frame, which sits at the hinge */
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(m, teal_vec3_make(0, 0, -l), teal_mat3_zero());
  int b = teal_plant_add_rigid_body(p, "bob", 1, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  ck_assert_int_ge(
      teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b), &y, 0),
      0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  double th = 0.7, thd = -1.3, acc, tau, M11, tg, Cv;
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &th, &thd, NULL, &acc), TEAL_OK);
  ck_assert_double_eq_tol(acc, -g / l * sin(th), 1e-12);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, &th, &M11), TEAL_OK);
  ck_assert_double_eq_tol(M11, m * l * l, 1e-13);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, &th, &tg), TEAL_OK);
  ck_assert_double_eq_tol(tg, -m * g * l * sin(th), 1e-12);
  ck_assert_int_eq(teal_mb_bias_term(p, ws, &th, &thd, &Cv), TEAL_OK);
  ck_assert_double_eq_tol(Cv, 0.0, 1e-13);
  double a = 0.4;
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, &th, &thd, &a, NULL, &tau), TEAL_OK);
  ck_assert_double_eq_tol(tau, m * l * l * a + m * g * l * sin(th), 1e-12);
  double pe, ke;
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, &th, &pe), TEAL_OK);
  ck_assert_double_eq_tol(pe, -m * g * l * cos(th), 1e-12);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, &th, &thd, &ke), TEAL_OK);
  ck_assert_double_eq_tol(ke, 0.5 * m * l * l * thd * thd, 1e-12);
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* Spong's acrobot: link frames at the joints, links hanging along -z from
 * hinges about +y (theta = 0 hanging down; x = -l sin theta, z = -l cos theta). */
START_TEST(test_acrobot_closed_form) {
  const double m1 = 1, m2 = 1, l1 = 1, lc1 = 0.5, lc2 = 1, Ic1 = 0.083, Ic2 = 0.33, g = 9.81;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = teal_spatial_inertia_from_central(m1, teal_vec3_make(0, 0, -lc1),
                                                              teal_mat3_diag(Ic1, Ic1, 0.01));
  teal_spatial_inertia M2 = teal_spatial_inertia_from_central(m2, teal_vec3_make(0, 0, -lc2),
                                                              teal_mat3_diag(Ic2, Ic2, 0.01));
  int b2 = teal_plant_add_rigid_body(p, "link2", 1, &M2);
  int b1 = teal_plant_add_rigid_body(p, "link1", 1, &M1);
  int elbow_f = teal_plant_add_frame(
      p, "elbow_f", teal_plant_body_frame(p, b1),
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -l1)));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j2 = teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, elbow_f,
                                teal_plant_body_frame(p, b2), &y, 0);
  int j1 = teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b1),
                                &y, 0);
  ck_assert_int_ge(j1, 0);
  ck_assert_int_ge(j2, 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -g)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  int i1 = teal_plant_joint_v_start(p, j1), i2 = teal_plant_joint_v_start(p, j2);
  ck_assert_int_eq(teal_plant_joint_q_start(p, j1), i1);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  unsigned s = 42;
  for (int trial = 0; trial < 5; trial++) {
    double q1 = ts_rand_uniform(&s, -3, 3), q2 = ts_rand_uniform(&s, -3, 3);
    double v1 = ts_rand_uniform(&s, -2, 2), v2 = ts_rand_uniform(&s, -2, 2);
    double q[2], v[2], M[4], Cv[2], tg[2];
    q[i1] = q1, q[i2] = q2, v[i1] = v1, v[i2] = v2;
    double c2 = cos(q2), s2 = sin(q2), h = m2 * l1 * lc2;
    double M11 = Ic1 + Ic2 + m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2);
    double M12 = Ic2 + m2 * (lc2 * lc2 + l1 * lc2 * c2), M22 = Ic2 + m2 * lc2 * lc2;
    double C1 = -h * s2 * (2 * v1 * v2 + v2 * v2), C2 = h * s2 * v1 * v1;
    double G1 = -((m1 * lc1 + m2 * l1) * g * sin(q1) + m2 * lc2 * g * sin(q1 + q2));
    double G2 = -m2 * lc2 * g * sin(q1 + q2);
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    ck_assert_double_eq_tol(M[i1 * 2 + i1], M11, 1e-13);
    ck_assert_double_eq_tol(M[i1 * 2 + i2], M12, 1e-13);
    ck_assert_double_eq_tol(M[i2 * 2 + i1], M12, 1e-13);
    ck_assert_double_eq_tol(M[i2 * 2 + i2], M22, 1e-13);
    ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, Cv), TEAL_OK);
    ck_assert_double_eq_tol(Cv[i1], C1, 1e-12);
    ck_assert_double_eq_tol(Cv[i2], C2, 1e-12);
    ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, tg), TEAL_OK);
    ck_assert_double_eq_tol(tg[i1], G1, 1e-12);
    ck_assert_double_eq_tol(tg[i2], G2, 1e-12);
    /* forward dynamics against the 2x2 closed-form solve */
    double tau[2] = {0.3, -0.8}, vdot[2];
    double r1 = tau[i1] + G1 - C1, r2 = tau[i2] + G2 - C2, det = M11 * M22 - M12 * M12;
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, vdot), TEAL_OK);
    ck_assert_double_eq_tol(vdot[i1], (M22 * r1 - M12 * r2) / det, 1e-11);
    ck_assert_double_eq_tol(vdot[i2], (M11 * r2 - M12 * r1) / det, 1e-11);
  }
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* A passive 3-link pendulum (hinges along different axes) integrated with
 * RK4 on ABA for 2 s at dt = 1e-3 keeps its total energy. */
static void rhs(const teal_plant *p, teal_mb_workspace *ws, const double *x, double *xd) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nq = teal_plant_nq(p);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_joint_qdot(t->type[k], &t->params[k], x + t->q_start[k], x + nq + t->v_start[k],
                    xd + t->q_start[k]);
  }
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, x, x + nq, NULL, xd + nq), TEAL_OK);
}

START_TEST(test_rk4_energy_conservation) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 axes[3] = {teal_vec3_make(0, 1, 0), teal_vec3_make(1, 0, 0.3),
                       teal_vec3_make(0.2, 1, 0)};
  int prev_frame = 0;
  for (int i = 0; i < 3; i++) {
    char name[8] = {'l', (char)('0' + i), 0}, jn[8] = {'j', (char)('0' + i), 0},
         tn[8] = {'t', (char)('0' + i), 0};
    teal_spatial_inertia M = teal_spatial_inertia_from_central(
        1.0 - 0.2 * i, teal_vec3_make(0.05, 0, -0.5), teal_mat3_diag(0.03, 0.028, 0.004));
    int b = teal_plant_add_rigid_body(p, name, 1, &M);
    ck_assert_int_ge(teal_plant_add_joint(p, jn, TEAL_JOINT_REVOLUTE, prev_frame,
                                          teal_plant_body_frame(p, b), &axes[i], 0),
                     0);
    prev_frame = teal_plant_add_frame(
        p, tn, teal_plant_body_frame(p, b),
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -1.0)));
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  double x[6] = {1.2, -0.5, 0.8, 0.3, 1.0, -0.7}, k1[6], k2[6], k3[6], k4[6], xt[6], dt = 1e-3;
  double ke, pe;
  teal_mb_kinetic_energy(p, ws, x, x + 3, &ke);
  teal_mb_potential_energy(p, ws, x, &pe);
  double E0 = ke + pe, scale = fabs(ke) + fabs(pe);
  for (int step = 0; step < 2000; step++) {
    rhs(p, ws, x, k1);
    for (int i = 0; i < 6; i++) xt[i] = x[i] + 0.5 * dt * k1[i];
    rhs(p, ws, xt, k2);
    for (int i = 0; i < 6; i++) xt[i] = x[i] + 0.5 * dt * k2[i];
    rhs(p, ws, xt, k3);
    for (int i = 0; i < 6; i++) xt[i] = x[i] + dt * k3[i];
    rhs(p, ws, xt, k4);
    for (int i = 0; i < 6; i++) x[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  teal_mb_kinetic_energy(p, ws, x, x + 3, &ke);
  teal_mb_potential_energy(p, ws, x, &pe);
  ck_assert_double_gt(ke, 0.1); /* it moved */
  ck_assert_msg(fabs(ke + pe - E0) < 1e-8 * scale, "energy drift %g (scale %g)", ke + pe - E0,
                scale);
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- arguments and allocations -------------------------------------------------- */

START_TEST(test_argument_checks) {
  teal_plant *p = make_tree(chain_spec, 6, 3);
  teal_plant *other = make_tree(float_spec, 4, 3);
  teal_plant *raw = teal_plant_new(0.0, NULL);
  teal_error err;
  ck_assert_ptr_null(teal_mb_workspace_new(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_workspace_new(raw, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  int nv = teal_plant_nv(p);
  double q[MAXN], v[MAXN], out[MAXN], M[MAXN * MAXN], e;
  unsigned s = 5;
  rand_state(p, &s, q, v);
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
  ck_assert_ptr_nonnull(strstr(teal_mb_workspace_error(ws)->message, "v[3]"));
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, out), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, &e), TEAL_ENONFINITE);
  v[3] = 0.1;
  double tau[MAXN] = {0};
  tau[nv - 1] = INFINITY;
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, v, tau, out), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_workspace_error(ws)->message, "tau_applied"));
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, out), TEAL_ENONFINITE);
  /* the functions added with applied forces, M operators and reactions */
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
  ck_assert_ptr_nonnull(strstr(teal_mb_workspace_error(ws)->message, "F_app_Bo_W[2]"));
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
  q[0] = NAN;
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, out), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_workspace_error(ws)->message, "q[0]"));
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, &e), TEAL_ENONFINITE);
  rand_state(p, &s, q, NULL);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, q, &e), TEAL_OK);
  ck_assert_int_eq(teal_mb_workspace_error(ws)->code, TEAL_OK);
  teal_mb_workspace_free(ws);
  /* a zero quaternion (the floating bodies of float_spec) */
  ws = teal_mb_workspace_new(other, NULL);
  rand_state(other, &s, q, v);
  ck_assert_int_eq(
      teal_plant_joint_kind(other, teal_plant_body_joint(other, teal_plant_node_body(other, 1))),
      TEAL_JOINT_QUATERNION_FLOATING);
  q[teal_plant_get_tree(other)->q_start[1]] = 0.0;
  q[teal_plant_get_tree(other)->q_start[1] + 1] = 0.0;
  q[teal_plant_get_tree(other)->q_start[1] + 2] = 0.0;
  q[teal_plant_get_tree(other)->q_start[1] + 3] = 0.0;
  ck_assert_int_eq(teal_mb_forward_dynamics(other, ws, q, v, NULL, out), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_workspace_error(ws)->message, "quaternion"));
  teal_mb_workspace_free(ws);
  teal_mb_workspace_free(NULL);
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
  teal_plant *p = make_tree(tree_spec, 9, 8);
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nv = teal_plant_nv(p);
  double q[MAXN], v[MAXN], vdot[MAXN], tau[MAXN], M[MAXN * MAXN], e;
  unsigned s = 9;
  rand_state(p, &s, q, v);
  rand_vec(&s, vdot, nv, 1.0);
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
  ck_assert_int_eq(teal_plant_calc_body_accelerations(p, q, v, vdot, X, V, A), TEAL_OK);
  v[0] = NAN; /* the error path does not allocate either */
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, tau), TEAL_ENONFINITE);
  ck_assert_uint_eq(g_allocs, before);
  ck_assert_uint_eq(teal_alloc_count(), count_before);
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
  ck_assert_int_eq(teal_set_allocator(NULL), TEAL_OK);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dynamics_mb");
  TCase *tc = tcase_create("dynamics_mb");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_crba_matches_rnea_columns, 0, NTOPO);
  tcase_add_loop_test(tc, test_aba_inverts_rnea, 0, NTOPO);
  tcase_add_loop_test(tc, test_bias_term_properties, 0, NTOPO);
  tcase_add_loop_test(tc, test_energy_rate_zero, 0, NTOPO);
  tcase_add_test(tc, test_momentum_conservation);
  tcase_add_loop_test(tc, test_mass_matrix_times, 0, NTOPO);
  tcase_add_loop_test(tc, test_articulated_solve, 0, NTOPO);
  tcase_add_test(tc, test_factorization_validity);
  tcase_add_test(tc, test_cache_transparent);
  tcase_add_loop_test(tc, test_applied_spatial_forces, 0, NTOPO);
  tcase_add_loop_test(tc, test_reaction_force_balance, 0, NTOPO);
  tcase_add_test(tc, test_reaction_forces_at_rest);
  tcase_add_test(tc, test_singular_articulated_inertia);
  tcase_add_test(tc, test_workspace_gravity);
  tcase_add_test(tc, test_simple_pendulum);
  tcase_add_test(tc, test_acrobot_closed_form);
  tcase_add_test(tc, test_rk4_energy_conservation);
  tcase_add_test(tc, test_argument_checks);
  tcase_add_test(tc, test_no_allocations);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
