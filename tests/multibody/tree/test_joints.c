/* Joint tables: d/dt X_FM(q(t)) with qdot = N v equals V_FM = H v (central
 * differences), N+ N = I, Hdot v against differenced H, normalization. */
#include <check.h>
#include <math.h>

#include "multibody/tree/joints.h"
#include "support/test_support.h"

static teal_joint_params params(void) {
  teal_joint_params p = {teal_vec3_make(0.3, -0.5, 0.8), 0.07};
  p.axis = teal_vec3_scale(p.axis, 1.0 / teal_vec3_norm(p.axis));
  return p;
}

/* a random q (normalized) and v for type t */
static void rand_qv(const teal_joint_type *t, unsigned *s, double *q, double *v) {
  for (int i = 0; i < t->nq; i++) {
    q[i] = ts_rand_uniform(s, -1, 1);
  }
  for (int i = 0; i < t->nv; i++) {
    v[i] = ts_rand_uniform(s, -1, 1);
  }
  if (t->normalize) {
    ck_assert_int_eq(t->normalize(q), TEAL_OK);
  }
}

/* q + h N(q) v, normalized */
static void step(const teal_joint_type *t, const teal_joint_params *p, const double *q,
                 const double *v, double h, double *out) {
  double qd[TEAL_JOINT_MAX_NQ];
  teal_joint_qdot(t, p, q, v, qd);
  for (int i = 0; i < t->nq; i++) {
    out[i] = q[i] + h * qd[i];
  }
}

START_TEST(test_fd_twist) {
  unsigned s = 7;
  teal_joint_params p = params();
  for (int kind = 0; kind < TEAL_JOINT_KIND_COUNT; kind++) {
    const teal_joint_type *t = teal_joint_type_get(kind);
    ck_assert_ptr_nonnull(t);
    for (int trial = 0; trial < 20; trial++) {
      double q[7], v[6], qp[7], qm[7];
      rand_qv(t, &s, q, v);
      double h = 1e-6;
      step(t, &p, q, v, h, qp);
      step(t, &p, q, v, -h, qm);
      teal_transform Xp = t->X_FM(&p, qp), Xm = t->X_FM(&p, qm), X = t->X_FM(&p, q);
      /* w: [w]x = Rdot R'; v = pdot */
      teal_mat3 Rdot = teal_mat3_scale(teal_mat3_sub(Xp.R, Xm.R), 0.5 / h);
      teal_mat3 W = teal_mat3_mul(Rdot, teal_mat3_transpose(X.R));
      teal_spatial_vector fd = teal_spatial_vector_make(
          teal_vec3_make(W.m[7], W.m[2], W.m[3]),
          teal_vec3_scale(teal_vec3_sub(Xp.p, Xm.p), 0.5 / h));
      teal_spatial_vector V = teal_joint_velocity(t, &p, q, v);
      ck_assert_msg(teal_spatial_vector_max_abs_diff(fd, V) < 1e-7, "%s: fd twist mismatch",
                    t->name);
      /* Hdot v against d/dt H (in F) along the motion */
      double Hp[36], Hm[36];
      t->H_FM(&p, qp, Hp);
      t->H_FM(&p, qm, Hm);
      teal_spatial_vector hd = teal_spatial_vector_zero();
      for (int i = 0; i < 6; i++) {
        for (int j = 0; j < t->nv; j++) {
          hd.v[i] += (Hp[i * t->nv + j] - Hm[i * t->nv + j]) / (2 * h) * v[j];
        }
      }
      ck_assert_msg(teal_spatial_vector_max_abs_diff(hd, t->Hdot_v(&p, q, v)) < 1e-7,
                    "%s: Hdot v mismatch", t->name);
    }
  }
}
END_TEST

START_TEST(test_nplus_n) {
  unsigned s = 11;
  teal_joint_params p = params();
  for (int kind = 0; kind < TEAL_JOINT_KIND_COUNT; kind++) {
    const teal_joint_type *t = teal_joint_type_get(kind);
    double q[7], v[6], N[42], Np[42];
    rand_qv(t, &s, q, v);
    t->N(&p, q, N);
    t->Nplus(&p, q, Np);
    for (int i = 0; i < t->nv; i++) {
      for (int j = 0; j < t->nv; j++) {
        double e = 0;
        for (int k = 0; k < t->nq; k++) {
          e += Np[i * t->nq + k] * N[k * t->nv + j];
        }
        ck_assert_double_eq_tol(e, i == j ? 1.0 : 0.0, 1e-14);
      }
    }
  }
}
END_TEST

START_TEST(test_defaults_and_normalize) {
  teal_joint_params p = params();
  for (int kind = 0; kind < TEAL_JOINT_KIND_COUNT; kind++) {
    const teal_joint_type *t = teal_joint_type_get(kind);
    double q[7];
    t->default_q(q);
    teal_transform X = t->X_FM(&p, q);
    ck_assert_double_le(teal_mat3_max_abs_diff(X.R, teal_mat3_identity()), 1e-15);
    ck_assert_double_le(teal_vec3_norm(X.p), 1e-15);
  }
  const teal_joint_type *ball = teal_joint_type_get(TEAL_JOINT_BALL);
  double q[4] = {2, 0, 0, 0}, z[4] = {0, 0, 0, 0}, nan4[4] = {NAN, 0, 0, 0};
  ck_assert_int_eq(ball->normalize(q), TEAL_OK);
  ck_assert_double_eq_tol(q[0], 1.0, 1e-15);
  ck_assert_int_eq(ball->normalize(z), TEAL_EINVAL);
  ck_assert_int_eq(ball->normalize(nan4), TEAL_ENONFINITE);
  ck_assert_ptr_null(teal_joint_type_get(TEAL_JOINT_KIND_COUNT));
  ck_assert(teal_joint_type_get(TEAL_JOINT_REVOLUTE)->normalize == NULL);
}
END_TEST

int main(void) {
  Suite *s = suite_create("joints");
  TCase *tc = tcase_create("joints");
  tcase_add_test(tc, test_fd_twist);
  tcase_add_test(tc, test_nplus_n);
  tcase_add_test(tc, test_defaults_and_normalize);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
