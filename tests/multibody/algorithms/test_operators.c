/* Tests of the O(n) operators (operators.h) on random trees with every joint
 * kind in random configurations: station and frame J u and J' F against the
 * explicit Jacobians of jacobians.h, M^-1 against a dense LU inverse of the
 * CRBA mass matrix, N and N+ against central differences of the exact flow
 * q(t) at constant v (quaternions rotated by exp(w t)), Ndot and qddot
 * against differences of N along that flow, the transposes by the identity
 * y . (B x) = (B' y) . x, and every bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "math/quaternion.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/operators.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/topology.h"
#include "solvers/dense_lu.h"
#include "support/mb_fixtures.h"

#define NMAX 96
#define NT 5

typedef struct fixture {
  teal_plant *p;
  teal_mb_data *data;
  int nq, nv, nb;
  double q[NMAX], v[NMAX];
} fixture;

static void fixture_make(fixture *f, int topology, unsigned seed) {
  const ts_mb_topology *top = &ts_mb_topologies[topology];
  f->p = ts_mb_random_tree(top->spec, top->n, seed, 1);
  ck_assert_ptr_nonnull(f->p);
  f->data = teal_mb_data_new(f->p, NULL);
  ck_assert_ptr_nonnull(f->data);
  f->nq = teal_plant_nq(f->p);
  f->nv = teal_plant_nv(f->p);
  f->nb = teal_plant_num_bodies(f->p);
  ck_assert_int_le(f->nq, NMAX);
  unsigned s = seed * 31u + 5u;
  ck_assert_int_eq(ts_mb_rand_state(f->p, &s, f->q, f->v, 1.5), TEAL_OK);
}

static void fixture_free(fixture *f) {
  teal_mb_data_free(f->data);
  teal_plant_free(f->p);
}

/* Random tasks: the last body twice, the first, the world and one more. */
static void rand_tasks(const fixture *f, unsigned *s, int *bodies, teal_vec3 *p_B) {
  const int pick[NT] = {f->nb - 1, 1, 0, f->nb - 1, (int)(*s % (unsigned)f->nb)};
  for (int i = 0; i < NT; i++) {
    bodies[i] = pick[i];
    ts_mb_rand_vec(s, p_B[i].v, 3, 0.7);
  }
}

/* J (rows x nv) of task i: the explicit spatial velocity Jacobian in W. */
static void explicit_jacobian(fixture *f, int body, teal_vec3 p_B, double *J) {
  int frame = teal_plant_body_frame(f->p, body);
  ck_assert_int_eq(
      teal_mb_jacobian_spatial_velocity(f->p, f->data, f->q, TEAL_JACOBIAN_WRT_V, frame, p_B,
                                        TEAL_WORLD_FRAME, TEAL_WORLD_FRAME, J),
      TEAL_OK);
}

START_TEST(station_and_frame_products_match_explicit_jacobians) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    fixture f;
    fixture_make(&f, top, 3u + (unsigned)top);
    unsigned s = 77u + (unsigned)top;
    int bodies[NT];
    teal_vec3 p_B[NT], v_WP[NT], f_WP[NT];
    teal_spatial_vector V_WA[NT], F_WA[NT];
    double u[NMAX], tau_s[NMAX], tau_f[NMAX], ref_s[NMAX] = {0}, ref_f[NMAX] = {0};
    static double J[6 * NMAX];
    rand_tasks(&f, &s, bodies, p_B);
    ts_mb_rand_vec(&s, u, f.nv, 1.0);
    for (int i = 0; i < NT; i++) {
      ts_mb_rand_vec(&s, f_WP[i].v, 3, 2.0);
      ts_mb_rand_vec(&s, F_WA[i].v, 6, 2.0);
    }
    ck_assert_int_eq(
        teal_mb_multiply_by_station_jacobian(f.p, f.data, f.q, NT, bodies, p_B, u, v_WP), TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_frame_jacobian(f.p, f.data, f.q, NT, bodies, p_B, u, V_WA),
                     TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_station_jacobian_transpose(f.p, f.data, f.q, NT, bodies,
                                                                    p_B, f_WP, tau_s),
                     TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_frame_jacobian_transpose(f.p, f.data, f.q, NT, bodies, p_B,
                                                                  F_WA, tau_f),
                     TEAL_OK);
    for (int i = 0; i < NT; i++) {
      explicit_jacobian(&f, bodies[i], p_B[i], J);
      for (int r = 0; r < 6; r++) {
        double Ju = 0.0;
        for (int c = 0; c < f.nv; c++) {
          Ju += J[r * f.nv + c] * u[c];
          ref_f[c] += J[r * f.nv + c] * F_WA[i].v[r];
          ref_s[c] += r >= 3 ? J[r * f.nv + c] * f_WP[i].v[r - 3] : 0.0;
        }
        ck_assert_double_eq_tol(V_WA[i].v[r], Ju, 1e-12);
        if (r >= 3) {
          ck_assert_double_eq_tol(v_WP[i].v[r - 3], Ju, 1e-12);
        }
      }
    }
    ck_assert_double_le(ts_mb_max_abs_diff(tau_s, ref_s, f.nv), 1e-11);
    ck_assert_double_le(ts_mb_max_abs_diff(tau_f, ref_f, f.nv), 1e-11);
    /* no tasks: J' F is zero */
    ck_assert_int_eq(
        teal_mb_multiply_by_frame_jacobian_transpose(f.p, f.data, f.q, 0, NULL, NULL, NULL, tau_f),
        TEAL_OK);
    ck_assert_double_eq(ts_mb_max_abs(tau_f, f.nv), 0.0);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(mass_matrix_inverse_matches_a_dense_inverse) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    fixture f;
    fixture_make(&f, top, 9u + (unsigned)top);
    static double M[NMAX * NMAX], Minv[NMAX * NMAX], col[NMAX];
    int piv[NMAX], n = f.nv;
    ck_assert_int_eq(teal_mb_mass_matrix_inverse(f.p, f.data, f.q, Minv), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix(f.p, f.data, f.q, M), TEAL_OK);
    ck_assert_int_eq(teal_dense_lu_factor(M, n, piv, NULL), TEAL_OK);
    double scale = ts_mb_max_abs(Minv, n * n);
    for (int j = 0; j < n; j++) {
      memset(col, 0, sizeof col);
      col[j] = 1.0;
      ck_assert_int_eq(teal_dense_lu_solve(M, n, piv, col, NULL), TEAL_OK);
      for (int i = 0; i < n; i++) {
        ck_assert_double_eq_tol(Minv[i * n + j], col[i], 1e-9 * scale);
        ck_assert_double_eq(Minv[i * n + j], Minv[j * n + i]);
      }
    }
    fixture_free(&f);
  }
}
END_TEST

static const double k_two_pi = 6.283185307179586;

/* The rotation exp([w] t) as a quaternion. */
static teal_quaternion turn(const double *w, double t) {
  double norm = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]), half = 0.5 * norm * t;
  double s = norm > 0 ? sin(half) / norm : 0.0;
  return teal_quaternion_make(cos(half), s * w[0], s * w[1], s * w[2]);
}

/* Roll-pitch-yaw angles turned by exp([w] t) in the parent frame: the
 * rotation's angles taken on the branch of q0 (roll and yaw unwrapped by
 * 2 pi; q0's pitch lies in (-pi/2, pi/2)). */
static void flow_rpy(const double *q0, const double *w, double t, double *q) {
  teal_rotation R = teal_mat3_mul(teal_rotation_from_quaternion(turn(w, t)),
                                  teal_rotation_from_rpy(teal_vec3_make(q0[0], q0[1], q0[2])));
  teal_vec3 rpy = teal_rotation_to_rpy(R);
  for (int i = 0; i < 3; i++) {
    q[i] = rpy.v[i] + k_two_pi * round((q0[i] - rpy.v[i]) / k_two_pi);
  }
}

/* q(t) from q0 moving at constant v: quaternions and roll-pitch-yaw angles
 * turned by exp(w t) in the parent frame, every other coordinate (and the
 * floating translation) moving linearly. */
static void flow(const teal_plant *p, const double *q0, const double *v, double t, double *q) {
  const teal_plant_tree *tr = teal_plant_get_tree(p);
  memcpy(q, q0, (size_t)teal_plant_nq(p) * sizeof(double));
  for (int k = 1; k < tr->num_nodes; k++) {
    int kind = tr->joint_kind[k], qs = tr->q_start[k], vs = tr->v_start[k];
    if ((int)teal_joint_quaternion_kind(kind) != kind) {
      flow_rpy(q0 + qs, v + vs, t, q + qs);
      for (int i = 3; i < tr->nq[k]; i++) {
        q[qs + i] = q0[qs + i] + t * v[vs + i];
      }
      continue;
    }
    if (kind != TEAL_JOINT_BALL && kind != TEAL_JOINT_QUATERNION_FLOATING) {
      for (int i = 0; i < tr->nq[k]; i++) {
        q[qs + i] = q0[qs + i] + t * v[vs + i];
      }
      continue;
    }
    teal_quaternion r = turn(v + vs, t);
    teal_quaternion e =
        teal_quaternion_mul(r, teal_quaternion_make(q0[qs], q0[qs + 1], q0[qs + 2], q0[qs + 3]));
    q[qs] = e.w;
    q[qs + 1] = e.x;
    q[qs + 2] = e.y;
    q[qs + 3] = e.z;
    for (int i = 0; kind == TEAL_JOINT_QUATERNION_FLOATING && i < 3; i++) {
      q[qs + 4 + i] = q0[qs + 4 + i] + t * v[vs + 3 + i];
    }
  }
}

START_TEST(n_and_n_inv_match_the_flow) {
  const double h = 1e-5;
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    fixture f;
    fixture_make(&f, top, 21u + (unsigned)top);
    double qp[NMAX], qm[NMAX], qd_fd[NMAX], qd[NMAX], back[NMAX], v_fd[NMAX];
    flow(f.p, f.q, f.v, h, qp);
    flow(f.p, f.q, f.v, -h, qm);
    for (int i = 0; i < f.nq; i++) {
      qd_fd[i] = (qp[i] - qm[i]) / (2 * h);
    }
    ck_assert_int_eq(teal_mb_multiply_by_n(f.p, f.data, f.q, 0, f.v, qd), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(qd, qd_fd, f.nq), 1e-8);
    ck_assert_int_eq(teal_mb_multiply_by_n_inv(f.p, f.data, f.q, 0, qd_fd, v_fd), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(v_fd, f.v, f.nv), 1e-8);
    ck_assert_int_eq(teal_mb_multiply_by_n_inv(f.p, f.data, f.q, 0, qd, back), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(back, f.v, f.nv), 1e-13);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(n_dot_and_qddot_match_finite_differences) {
  const double h = 1e-5;
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    fixture f;
    fixture_make(&f, top, 41u + (unsigned)top);
    unsigned s = 5u;
    double x[NMAX], vd[NMAX], qp[NMAX], qm[NMAX], yp[NMAX], ym[NMAX], y[NMAX], ref[NMAX];
    double vp[NMAX], vm[NMAX];
    ts_mb_rand_vec(&s, x, f.nv, 1.0);
    ts_mb_rand_vec(&s, vd, f.nv, 1.0);
    flow(f.p, f.q, f.v, h, qp);
    flow(f.p, f.q, f.v, -h, qm);
    /* Ndot x = d/dt (N(q(t)) x) */
    ck_assert_int_eq(teal_mb_multiply_by_n(f.p, f.data, qp, 0, x, yp), TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_n(f.p, f.data, qm, 0, x, ym), TEAL_OK);
    for (int i = 0; i < f.nq; i++) {
      ref[i] = (yp[i] - ym[i]) / (2 * h);
    }
    ck_assert_int_eq(teal_mb_multiply_by_n_dot(f.p, f.data, f.q, f.v, 0, x, y), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(y, ref, f.nq), 1e-8);
    /* qddot = d/dt (N(q(t)) v(t)) with v(t) = v + t vdot */
    for (int i = 0; i < f.nv; i++) {
      vp[i] = f.v[i] + h * vd[i];
      vm[i] = f.v[i] - h * vd[i];
    }
    ck_assert_int_eq(teal_mb_multiply_by_n(f.p, f.data, qp, 0, vp, yp), TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_n(f.p, f.data, qm, 0, vm, ym), TEAL_OK);
    for (int i = 0; i < f.nq; i++) {
      ref[i] = (yp[i] - ym[i]) / (2 * h);
    }
    ck_assert_int_eq(teal_mb_calc_qddot(f.p, f.data, f.q, f.v, vd, y), TEAL_OK);
    ck_assert_double_le(ts_mb_max_abs_diff(y, ref, f.nq), 1e-8);
    /* at vdot = 0, qddot is the flow's second difference */
    memset(vd, 0, sizeof vd);
    ck_assert_int_eq(teal_mb_calc_qddot(f.p, f.data, f.q, f.v, vd, y), TEAL_OK);
    flow(f.p, f.q, f.v, 1e-3, qp);
    flow(f.p, f.q, f.v, -1e-3, qm);
    for (int i = 0; i < f.nq; i++) {
      ck_assert_double_eq_tol(y[i], (qp[i] - 2 * f.q[i] + qm[i]) / 1e-6, 1e-5);
    }
    fixture_free(&f);
  }
}
END_TEST

static double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += a[i] * b[i];
  }
  return s;
}

START_TEST(transposes_satisfy_the_dot_product_identity) {
  for (int top = 0; top < ts_mb_num_topologies; top++) {
    fixture f;
    fixture_make(&f, top, 61u + (unsigned)top);
    unsigned s = 8u;
    double xv[NMAX], xq[NMAX], Bx[NMAX], Bty[NMAX];
    ts_mb_rand_vec(&s, xv, f.nv, 1.0);
    ts_mb_rand_vec(&s, xq, f.nq, 1.0);
    /* N and Ndot: nv -> nq; N+: nq -> nv */
    ck_assert_int_eq(teal_mb_multiply_by_n(f.p, f.data, f.q, 0, xv, Bx), TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_n(f.p, f.data, f.q, 1, xq, Bty), TEAL_OK);
    ck_assert_double_eq_tol(dot(xq, Bx, f.nq), dot(Bty, xv, f.nv), 1e-12);
    ck_assert_int_eq(teal_mb_multiply_by_n_dot(f.p, f.data, f.q, f.v, 0, xv, Bx), TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_n_dot(f.p, f.data, f.q, f.v, 1, xq, Bty), TEAL_OK);
    ck_assert_double_eq_tol(dot(xq, Bx, f.nq), dot(Bty, xv, f.nv), 1e-12);
    ck_assert_int_eq(teal_mb_multiply_by_n_inv(f.p, f.data, f.q, 0, xq, Bx), TEAL_OK);
    ck_assert_int_eq(teal_mb_multiply_by_n_inv(f.p, f.data, f.q, 1, xv, Bty), TEAL_OK);
    ck_assert_double_eq_tol(dot(xv, Bx, f.nv), dot(Bty, xq, f.nq), 1e-12);
    fixture_free(&f);
  }
}
END_TEST

/* rc and data's message contain fn and what. */
static void expect(teal_mb_data *data, int rc, int code, const char *fn, const char *what) {
  ck_assert_int_eq(rc, code);
  const char *msg = teal_mb_data_error(data)->message;
  ck_assert_msg(strstr(msg, fn) && strstr(msg, what), "message \"%s\" lacks %s / %s", msg, fn,
                what);
}

START_TEST(bad_input_gives_clear_errors) {
  fixture f, g;
  fixture_make(&f, 1, 3u);
  fixture_make(&g, 0, 4u);
  teal_mb_data *d = f.data;
  int bodies[NT] = {1, 1, 1, 1, 1};
  teal_vec3 p_B[NT] = {{{0}}}, v_WP[NT];
  teal_spatial_vector F[NT] = {{{0}}};
  double u[NMAX] = {0}, out[NMAX], q[NMAX];
  static double Minv[NMAX * NMAX];
  const char *st = "teal_mb_multiply_by_station_jacobian";
  expect(d, teal_mb_multiply_by_station_jacobian(f.p, d, f.q, -1, bodies, p_B, u, v_WP),
         TEAL_EINVAL, st, "nt is negative");
  expect(d, teal_mb_multiply_by_station_jacobian(f.p, d, f.q, NT, NULL, p_B, u, v_WP), TEAL_EINVAL,
         st, "NULL bodies");
  expect(d, teal_mb_multiply_by_station_jacobian(f.p, d, f.q, NT, bodies, p_B, u, NULL),
         TEAL_EINVAL, st, "v_WP");
  bodies[2] = f.nb;
  expect(d, teal_mb_multiply_by_station_jacobian(f.p, d, f.q, NT, bodies, p_B, u, v_WP),
         TEAL_EINVAL, st, "bodies[2]");
  bodies[2] = 1;
  p_B[3].v[1] = NAN;
  expect(d, teal_mb_multiply_by_frame_jacobian(f.p, d, f.q, NT, bodies, p_B, u, F), TEAL_ENONFINITE,
         "teal_mb_multiply_by_frame_jacobian", "p_BAo[3]");
  p_B[3].v[1] = 0.0;
  u[0] = INFINITY;
  expect(d, teal_mb_multiply_by_station_jacobian(f.p, d, f.q, NT, bodies, p_B, u, v_WP),
         TEAL_ENONFINITE, st, "u[0]");
  u[0] = 0.0;
  expect(d, teal_mb_multiply_by_frame_jacobian_transpose(f.p, d, f.q, NT, bodies, p_B, NULL, out),
         TEAL_EINVAL, "teal_mb_multiply_by_frame_jacobian_transpose", "F_WAo");
  F[4].v[5] = NAN;
  expect(d, teal_mb_multiply_by_frame_jacobian_transpose(f.p, d, f.q, NT, bodies, p_B, F, out),
         TEAL_ENONFINITE, "teal_mb_multiply_by_frame_jacobian_transpose", "F_WAo[4]");
  expect(d, teal_mb_multiply_by_station_jacobian_transpose(f.p, d, f.q, NT, bodies, p_B, p_B, NULL),
         TEAL_EINVAL, "teal_mb_multiply_by_station_jacobian_transpose", "tau");
  /* data of another plant */
  ck_assert_int_eq(teal_mb_multiply_by_station_jacobian(f.p, g.data, f.q, 0, NULL, NULL, u, NULL),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_mass_matrix_inverse(f.p, NULL, f.q, Minv), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_multiply_by_n(f.p, NULL, f.q, 0, u, out), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_calc_qddot(NULL, d, f.q, u, u, out), TEAL_EINVAL);
  /* a zero quaternion: the "tree" topology's first joint is floating */
  memcpy(q, f.q, sizeof q);
  const teal_plant_tree *tr = teal_plant_get_tree(f.p);
  int k = 1;
  while (!tr->type[k]->normalize) {
    k++;
  }
  memset(q + tr->q_start[k], 0, 4 * sizeof(double));
  expect(d, teal_mb_multiply_by_n_inv(f.p, d, q, 0, q, out), TEAL_EINVAL,
         "teal_mb_multiply_by_n_inv", "zero");
  expect(d, teal_mb_mass_matrix_inverse(f.p, d, q, Minv), TEAL_EINVAL,
         "teal_mb_mass_matrix_inverse", "zero");
  expect(d, teal_mb_multiply_by_n(f.p, d, f.q, 1, NULL, out), TEAL_EINVAL, "teal_mb_multiply_by_n",
         "in");
  expect(d, teal_mb_multiply_by_n_dot(f.p, d, f.q, NULL, 0, u, out), TEAL_EINVAL,
         "teal_mb_multiply_by_n_dot", "v");
  u[1] = NAN;
  expect(d, teal_mb_calc_qddot(f.p, d, f.q, f.v, u, out), TEAL_ENONFINITE, "teal_mb_calc_qddot",
         "vdot[1]");
  expect(d, teal_mb_mass_matrix_inverse(f.p, d, f.q, NULL), TEAL_EINVAL,
         "teal_mb_mass_matrix_inverse", "Minv");
  fixture_free(&f);
  fixture_free(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("operators");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, station_and_frame_products_match_explicit_jacobians);
  tcase_add_test(tc, mass_matrix_inverse_matches_a_dense_inverse);
  tcase_add_test(tc, n_and_n_inv_match_the_flow);
  tcase_add_test(tc, n_dot_and_qddot_match_finite_differences);
  tcase_add_test(tc, transposes_satisfy_the_dot_product_identity);
  tcase_add_test(tc, bad_input_gives_clear_errors);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
