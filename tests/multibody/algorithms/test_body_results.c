/* Tests of the per-body results (body_results.h) on random trees with every
 * joint kind, each against an independent reference: composite inertias as
 * explicit subtree sums of the bodies' inertias; articulated inertias as the
 * body's own inertia for terminal bodies and the projection recursion with
 * motion subspaces taken from the body Jacobians otherwise; articulated
 * bias forces completing P A to the force the inboard joint transmits
 * (free-body reactions of a forward-dynamics motion); total Coriolis
 * accelerations against the bias spatial acceleration and against finite
 * differences of the body velocities along the motion at vdot = 0;
 * gyroscopic forces in closed form in the body frame; centrifugal forces
 * mapped by J' against C(q, v) v; free-body reaction forces against the
 * RNEA's reaction forces. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "math/small_dense.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/body_results.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/topology.h"
#include "support/mb_dyn_fixtures.h"
#include "support/mb_fixtures.h"

#define NMAX 128
#define BMAX 64

static teal_plant *make_plant(int topology) {
  const ts_mb_topology *top = &ts_mb_topologies[topology];
  teal_plant *p = ts_mb_random_tree(top->spec, top->n, 31u + (unsigned)topology, 2);
  ck_assert_ptr_nonnull(p);
  return p;
}

/* 1 when body a is body b or outboard of it. */
static int outboard_of(const teal_plant *p, int a, int b) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int k = teal_plant_body_node(p, a); k >= 0; k = t->parent[k]) {
    if (teal_plant_node_body(p, k) == b) {
      return 1;
    }
  }
  return 0;
}

/* Body b's spatial inertia about Bo in W. */
static teal_spatial_inertia inertia_W(const teal_plant *p, const teal_transform *X_WB, int b) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  return teal_spatial_inertia_reexpress(&t->M_BBo_B[teal_plant_body_node(p, b)], X_WB[b].R);
}

static double inertia_diff(const teal_spatial_inertia *a, const teal_spatial_inertia *b) {
  double d = fabs(a->mass - b->mass);
  for (int i = 0; i < 3; i++) {
    d = fmax(d, fabs(a->p_PScm_E.v[i] - b->p_PScm_E.v[i]));
  }
  for (int i = 0; i < 9; i++) {
    d = fmax(d, fabs(a->I_SP_E.m[i] - b->I_SP_E.m[i]));
  }
  return d;
}

START_TEST(composite_inertias_are_subtree_sums) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    teal_plant *p = make_plant(top);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    int nb = teal_plant_num_bodies(p);
    double q[NMAX], v[NMAX];
    teal_transform X[BMAX];
    teal_spatial_inertia R[BMAX];
    unsigned s = 5u + (unsigned)top;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_composite_body_inertias(p, data, q, R), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
    ck_assert_double_eq(R[0].mass, 0.0); /* the world's entry */
    for (int b = 1; b < nb; b++) {
      teal_spatial_inertia sum = {0};
      for (int c = 1; c < nb; c++) {
        if (outboard_of(p, c, b)) {
          teal_spatial_inertia Mc = inertia_W(p, X, c);
          teal_spatial_inertia sh = teal_spatial_inertia_shift(&Mc, teal_vec3_sub(X[b].p, X[c].p));
          sum = teal_spatial_inertia_add(&sum, &sh);
        }
      }
      ck_assert_double_le(inertia_diff(&sum, &R[b]), 1e-10);
    }
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

/* Pa = P - P S (S' P S)^-1 S' P for the n columns v0.. of the 6 x nv J. */
static teal_mat6 project(const teal_mat6 *P, const double *J, int nv, int v0, int n) {
  double U[6][6], D[36], x[6];
  teal_mat6 Pa = *P;
  for (int i = 0; i < 6; i++) {
    for (int m = 0; m < n; m++) {
      U[i][m] = 0.0;
      for (int j = 0; j < 6; j++) {
        U[i][m] += P->m[6 * i + j] * J[j * nv + v0 + m];
      }
    }
  }
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < n; b++) {
      D[a * n + b] = 0.0;
      for (int i = 0; i < 6; i++) {
        D[a * n + b] += J[i * nv + v0 + a] * U[i][b];
      }
    }
  }
  ck_assert_int_eq(teal_small_cholesky(D, n, 1e-300), 0);
  for (int j = 0; j < 6; j++) { /* column j of D^-1 U' */
    for (int m = 0; m < n; m++) {
      x[m] = U[j][m];
    }
    teal_small_cholesky_solve(D, n, x);
    for (int i = 0; i < 6; i++) {
      for (int m = 0; m < n; m++) {
        Pa.m[6 * i + j] -= U[i][m] * x[m];
      }
    }
  }
  return Pa;
}

/* The expected articulated inertia of body b from its children's results. */
static teal_mat6 expected_articulated(const teal_plant *p, teal_mb_data *data, const double *q,
                                      const teal_transform *X, const teal_mat6 *P, int b) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nb = teal_plant_num_bodies(p), nv = teal_plant_nv(p);
  static double J[6 * NMAX];
  teal_spatial_inertia Mb = inertia_W(p, X, b);
  teal_mat6 E = teal_spatial_inertia_to_mat6(&Mb);
  for (int c = 1; c < nb; c++) {
    int kc = teal_plant_body_node(p, c);
    if (teal_plant_node_body(p, t->parent[kc]) != b) {
      continue;
    }
    ck_assert_int_eq(teal_mb_jacobian_spatial_velocity(
                         p, data, q, TEAL_JACOBIAN_WRT_V, teal_plant_body_frame(p, c),
                         teal_vec3_zero(), TEAL_WORLD_FRAME, TEAL_WORLD_FRAME, J),
                     TEAL_OK);
    teal_mat6 Pa = P[c];
    if (t->nv[kc] > 0) {
      Pa = project(&P[c], J, nv, t->v_start[kc], t->nv[kc]);
    }
    /* V at Bc from V at Bb: [w; v - d x w], d = p_BbBc */
    teal_mat3 dx = teal_mat3_skew(teal_vec3_sub(X[c].p, X[b].p));
    teal_mat6 T = teal_mat6_from_blocks(teal_mat3_identity(), teal_mat3_zero(),
                                        teal_mat3_scale(dx, -1.0), teal_mat3_identity());
    teal_mat6 Tt = teal_mat6_transpose(&T), PT = teal_mat6_mul(&Pa, &T);
    teal_mat6 share = teal_mat6_mul(&Tt, &PT);
    E = teal_mat6_add(&E, &share);
  }
  return E;
}

START_TEST(articulated_inertias_follow_their_definition) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    teal_plant *p = make_plant(top);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    int nb = teal_plant_num_bodies(p);
    double q[NMAX], v[NMAX];
    teal_transform X[BMAX];
    teal_mat6 P[BMAX];
    unsigned s = 9u + (unsigned)top;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_articulated_body_inertias(p, data, q, P), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
    ck_assert_double_eq(teal_mat6_max_abs_diff(&P[0], &(teal_mat6){{0}}), 0.0);
    for (int b = 1; b < nb; b++) {
      teal_mat6 E = expected_articulated(p, data, q, X, P, b);
      double scale = 1.0 + teal_mat6_max_abs_diff(&E, &(teal_mat6){{0}});
      ck_assert_double_le(teal_mat6_max_abs_diff(&E, &P[b]), 1e-10 * scale);
    }
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

/* With no gravity, no actuation and no applied forces, each body's inboard
 * joint transmits P A + Z to the body's articulated subtree. */
START_TEST(articulated_bias_forces_complete_the_transmitted_force) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    teal_plant *p = make_plant(top);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    const teal_plant_tree *t = teal_plant_get_tree(p);
    int nb = teal_plant_num_bodies(p);
    double q[NMAX], v[NMAX], vd[NMAX];
    teal_transform X[BMAX];
    teal_spatial_vector V[BMAX], A[BMAX], Z[BMAX], R[BMAX];
    teal_mat6 P[BMAX];
    unsigned s = 41u + (unsigned)top;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_data_set_gravity(data, teal_vec3_zero()), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_articulated_body_bias_forces(p, data, q, v, Z), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_articulated_body_inertias(p, data, q, P), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, data, q, v, NULL, vd), TEAL_OK);
    ck_assert_int_eq(
        teal_mb_calc_mobilizer_reaction_forces_using_freebody_method(p, data, q, v, vd, NULL, R),
        TEAL_OK);
    ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, vd, X, V, A), TEAL_OK);
    ck_assert_double_eq(teal_spatial_vector_max_abs_diff(Z[0], teal_spatial_vector_zero()), 0.0);
    for (int b = 1; b < nb; b++) {
      teal_vec3 p_WMo = teal_transform_apply(X[b], t->X_BM[teal_plant_body_node(p, b)].p);
      teal_spatial_vector F_Bo = teal_spatial_force_shift(R[b], teal_vec3_sub(X[b].p, p_WMo));
      teal_spatial_vector ref = teal_spatial_vector_add(teal_mat6_apply(&P[b], A[b]), Z[b]);
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(ref, F_Bo), 1e-8);
    }
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(coriolis_accelerations_are_the_bias_accelerations) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    teal_plant *p = make_plant(top);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    int nb = teal_plant_num_bodies(p), nq = teal_plant_nq(p);
    double q[NMAX], v[NMAX], qp[NMAX], qm[NMAX], h = 1e-6;
    teal_transform X[BMAX];
    teal_spatial_vector A[BMAX], Am[BMAX], Vp[BMAX], Vm[BMAX];
    unsigned s = 13u + (unsigned)top;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_total_coriolis_accelerations(p, data, q, v, A), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_mobilizer_coriolis_accelerations(p, data, q, v, Am), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_velocities(p, qp, v, X, Vp), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_velocities(p, qm, v, X, Vm), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
    const teal_plant_tree *t = teal_plant_get_tree(p);
    ck_assert_double_eq(teal_spatial_vector_max_abs_diff(A[0], teal_spatial_vector_zero()), 0.0);
    for (int b = 1; b < nb; b++) {
      teal_spatial_vector ref;
      ck_assert_int_eq(teal_mb_bias_spatial_acceleration(p, data, q, v, teal_plant_body_frame(p, b),
                                                         teal_vec3_zero(), TEAL_WORLD_FRAME,
                                                         TEAL_WORLD_FRAME, &ref),
                       TEAL_OK);
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(ref, A[b]), 1e-10);
      teal_spatial_vector fd =
          teal_spatial_vector_scale(teal_spatial_vector_sub(Vp[b], Vm[b]), 0.5 / h);
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(fd, A[b]), 1e-5);
      /* mobilizer part: the total minus the rigid shift of the parent's */
      int pb = teal_plant_node_body(p, t->parent[teal_plant_body_node(p, b)]);
      teal_vec3 al = teal_spatial_vector_angular(A[pb]);
      teal_vec3 a = teal_vec3_add(teal_spatial_vector_linear(A[pb]),
                                  teal_vec3_cross(al, teal_vec3_sub(X[b].p, X[pb].p)));
      teal_spatial_vector mob = teal_spatial_vector_sub(A[b], teal_spatial_vector_make(al, a));
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(mob, Am[b]), 1e-10);
    }
    (void)nq;
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(gyroscopic_and_centrifugal_forces) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    teal_plant *p = make_plant(top);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    const teal_plant_tree *t = teal_plant_get_tree(p);
    int nb = teal_plant_num_bodies(p), nv = teal_plant_nv(p);
    double q[NMAX], v[NMAX], JtF[NMAX], Cv[NMAX];
    teal_transform X[BMAX];
    teal_spatial_vector V[BMAX], G[BMAX], F[BMAX];
    unsigned s = 17u + (unsigned)top;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_mb_calc_gyroscopic_forces(p, data, q, v, G), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
    for (int b = 1; b < nb; b++) { /* closed form in the body frame */
      const teal_spatial_inertia *M = &t->M_BBo_B[teal_plant_body_node(p, b)];
      teal_vec3 w = teal_rotation_apply_inverse(X[b].R, teal_spatial_vector_angular(V[b]));
      teal_vec3 ang = teal_vec3_cross(w, teal_mat3_apply(M->I_SP_E, w));
      teal_vec3 c = M->p_PScm_E;
      teal_vec3 lin = teal_vec3_scale(teal_vec3_cross(w, teal_vec3_cross(w, c)), M->mass);
      teal_spatial_vector ref =
          teal_spatial_vector_reexpress(X[b].R, teal_spatial_vector_make(ang, lin));
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(ref, G[b]), 1e-10);
    }
    ck_assert_int_eq(teal_mb_calc_total_centrifugal_forces(p, data, q, v, F), TEAL_OK);
    ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, data, q, F, JtF), TEAL_OK);
    ck_assert_int_eq(teal_mb_bias_term(p, data, q, v, Cv), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(JtF, Cv, nv), 1e-9);
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(freebody_reactions_match_the_rnea) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    teal_plant *p = make_plant(top);
    teal_mb_data *data = teal_mb_data_new(p, NULL);
    const teal_plant_tree *t = teal_plant_get_tree(p);
    int nb = teal_plant_num_bodies(p), nv = teal_plant_nv(p);
    double q[NMAX], v[NMAX], tau[NMAX], vd[NMAX];
    teal_transform X[BMAX];
    teal_spatial_vector Fapp[BMAX], R[BMAX], Rj[BMAX];
    unsigned s = 23u + (unsigned)top;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    ts_mb_rand_vec(&s, tau, nv, 2.0);
    ts_mb_dyn_rand_forces(&s, nb, Fapp);
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, data, q, v, tau, Fapp, vd), TEAL_OK);
    ck_assert_int_eq(
        teal_mb_calc_mobilizer_reaction_forces_using_freebody_method(p, data, q, v, vd, Fapp, R),
        TEAL_OK);
    ck_assert_int_eq(teal_mb_reaction_forces(p, data, q, v, vd, Fapp, Rj), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
    ck_assert_double_eq(teal_spatial_vector_max_abs_diff(R[0], teal_spatial_vector_zero()), 0.0);
    for (int b = 1; b < nb; b++) {
      int k = teal_plant_body_node(p, b);
      teal_rotation R_WM = teal_rotation_mul(X[b].R, t->X_BM[k].R);
      teal_spatial_vector ref =
          teal_spatial_vector_reexpress(R_WM, Rj[teal_plant_body_joint(p, b)]);
      ck_assert_double_le(teal_spatial_vector_max_abs_diff(ref, R[b]), 1e-8);
    }
    teal_mb_data_free(data);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(bad_input_is_an_error) {
  teal_plant *p = make_plant(0), *other = make_plant(1);
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  int nb = teal_plant_num_bodies(p);
  double q[NMAX], v[NMAX], vd[NMAX] = {0};
  teal_spatial_vector F[BMAX];
  teal_spatial_inertia R[BMAX];
  teal_mat6 P[BMAX];
  unsigned s = 3;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_calc_composite_body_inertias(p, data, NULL, R), TEAL_EINVAL);
  ck_assert_ptr_nonnull(
      strstr(teal_mb_data_error(data)->message, "teal_mb_calc_composite_body_inertias"));
  ck_assert_int_eq(teal_mb_calc_articulated_body_inertias(p, data, q, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "P_Bo_W"));
  ck_assert_int_eq(teal_mb_calc_composite_body_inertias(other, data, q, R), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_calc_gyroscopic_forces(p, NULL, q, v, F), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_calc_articulated_body_bias_forces(p, data, q, v, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "Z_Bo_W"));
  v[0] = NAN;
  ck_assert_int_eq(teal_mb_calc_total_coriolis_accelerations(p, data, q, v, F), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "v"));
  ck_assert_int_eq(teal_mb_calc_mobilizer_coriolis_accelerations(p, data, q, v, F),
                   TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_calc_total_centrifugal_forces(p, data, q, v, F), TEAL_ENONFINITE);
  v[0] = 0.0;
  vd[1] = INFINITY;
  ck_assert_int_eq(
      teal_mb_calc_mobilizer_reaction_forces_using_freebody_method(p, data, q, v, vd, NULL, F),
      TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "vdot"));
  vd[1] = 0.0;
  ck_assert_int_eq(
      teal_mb_calc_mobilizer_reaction_forces_using_freebody_method(p, data, q, v, NULL, NULL, F),
      TEAL_EINVAL);
  for (int b = 0; b < nb; b++) {
    F[b] = teal_spatial_vector_zero();
  }
  F[1].v[2] = NAN;
  teal_spatial_vector out[BMAX];
  ck_assert_int_eq(
      teal_mb_calc_mobilizer_reaction_forces_using_freebody_method(p, data, q, v, vd, F, out),
      TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "F_app_Bo_W"));
  (void)P;
  teal_mb_data_free(data);
  teal_plant_free(other);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("body_results");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, composite_inertias_are_subtree_sums);
  tcase_add_test(tc, articulated_inertias_follow_their_definition);
  tcase_add_test(tc, articulated_bias_forces_complete_the_transmitted_force);
  tcase_add_test(tc, coriolis_accelerations_are_the_bias_accelerations);
  tcase_add_test(tc, gyroscopic_and_centrifugal_forces);
  tcase_add_test(tc, freebody_reactions_match_the_rnea);
  tcase_add_test(tc, bad_input_is_an_error);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
