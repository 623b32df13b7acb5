/* The constraint operators (multibody/constraints/constraint_operators.h)
 * on random trees with each constraint kind, against independent
 * references: G against central differences of the position errors along
 * the velocity-space directions (q + h N(q) e_i, quaternions normalized),
 * G' as the adjoint of G, the explicit G against G e_i, the velocity
 * errors against G v, Pq N against G, and the bias b against the central
 * difference of G(q) v along the motion (b = -Gdot v). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "framework/alloc.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/operators.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/mb_constraint_fixtures.h"
#include "support/test_support.h"

/* One plant of a topology with one constraint of kind, at a random state. */
typedef struct fixture {
  teal_plant *p;
  teal_context *ctx;
  int nq, nv, m;
  double *q, *v, *G, *work; /* work: 8 (nq + nv + m) scratch doubles */
} fixture;

/* Sets up f; returns 0 when the topology has no room for kind. */
static int setup(fixture *f, const ts_mb_topology *t, int kind, unsigned seed) {
  unsigned s = seed;
  f->p = ts_mbc_open_tree(t, seed);
  ck_assert_ptr_nonnull(f->p);
  int c = ts_mbc_add_random_constraint(f->p, kind, &s);
  if (c == TEAL_ENOTFOUND) {
    teal_plant_free(f->p);
    return 0;
  }
  ck_assert_int_eq(c, 0);
  ck_assert_int_eq(teal_plant_finalize(f->p), TEAL_OK);
  f->ctx = ts_mbc_random_context(f->p, &s, 1.0);
  ck_assert_ptr_nonnull(f->ctx);
  f->nq = teal_plant_nq(f->p);
  f->nv = teal_plant_nv(f->p);
  f->m = teal_plant_num_constraint_rows(f->p);
  ck_assert_int_eq(f->m, teal_plant_constraint_num_rows(f->p, 0));
  size_t n = (size_t)(f->nq + f->nv + f->m);
  f->q = calloc((size_t)f->nq, sizeof(double));
  f->v = calloc((size_t)f->nv, sizeof(double));
  f->G = calloc((size_t)(f->m * f->nv), sizeof(double));
  f->work = calloc(8 * n, sizeof(double));
  ck_assert_int_eq(teal_plant_get_positions(f->p, f->ctx, f->q, f->nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_velocities(f->p, f->ctx, f->v, f->nv), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(f->p, f->ctx, f->G), TEAL_OK);
  return 1;
}

static void teardown(fixture *f) {
  teal_context_free(f->ctx);
  teal_plant_free(f->p);
  free(f->q);
  free(f->v);
  free(f->G);
  free(f->work);
}

/* perr at q + h N(q) e_i (quaternions normalized) into out. */
static void perr_along(fixture *f, int i, double h, double *out) {
  double *e = f->work, *qh = f->work + f->nv;
  for (int k = 0; k < f->nv; k++) {
    e[k] = k == i ? 1.0 : 0.0;
  }
  ck_assert_int_eq(ts_mb_step_q(f->p, f->q, e, h, qh), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(f->p, f->ctx, qh, f->nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(f->p, f->ctx, out), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(f->p, f->ctx, f->q, f->nq), TEAL_OK);
}

/* G's column i against the central difference of perr. */
static void check_g_by_differences(fixture *f, const char *name, int kind) {
  const double h = 1e-6;
  double *plus = f->work + f->nv + f->nq, *minus = plus + f->m;
  double worst = 0.0, scale = 1.0;
  for (int i = 0; i < f->nv; i++) {
    perr_along(f, i, h, plus);
    perr_along(f, i, -h, minus);
    for (int r = 0; r < f->m; r++) {
      double fd = (plus[r] - minus[r]) / (2.0 * h);
      worst = fmax(worst, fabs(fd - f->G[r * f->nv + i]));
      scale = fmax(scale, fabs(fd));
    }
  }
  ck_assert_msg(worst <= 1e-7 * scale, "%s kind %d: |G - dperr/dq N| = %g", name, kind, worst);
}

/* G' adjoint of G, explicit G equal to G u, velocity errors equal to G v. */
static void check_products(fixture *f, const char *name, int kind, unsigned *s) {
  double *u = f->work, *lam = u + f->nv, *Gu = lam + f->m, *Gtl = Gu + f->m;
  double *Gv = Gtl + f->nv, *verr = Gv + f->m;
  ts_mb_rand_vec(s, u, f->nv, 1.0);
  ts_mb_rand_vec(s, lam, f->m, 1.0);
  ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian(f->p, f->ctx, u, Gu), TEAL_OK);
  ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian_transpose(f->p, f->ctx, lam, Gtl),
                   TEAL_OK);
  double a = 0.0, b = 0.0, worst = 0.0;
  for (int r = 0; r < f->m; r++) {
    double g = 0.0;
    for (int k = 0; k < f->nv; k++) {
      g += f->G[r * f->nv + k] * u[k];
    }
    worst = fmax(worst, fabs(g - Gu[r]));
    a += lam[r] * Gu[r];
  }
  for (int k = 0; k < f->nv; k++) {
    b += Gtl[k] * u[k];
  }
  ck_assert_msg(worst < 1e-12 * (1 + ts_mb_max_abs(Gu, f->m)), "%s kind %d: G u", name, kind);
  ck_assert_msg(fabs(a - b) < 1e-12 * (1 + fabs(a)), "%s kind %d: lambda.Gu %g != G'lambda.u %g",
                name, kind, a, b);
  ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian(f->p, f->ctx, f->v, Gv), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_velocity_errors(f->p, f->ctx, verr), TEAL_OK);
  ck_assert_msg(ts_mb_max_abs_diff(Gv, verr, f->m) < 1e-12 * (1 + ts_mb_max_abs(Gv, f->m)),
                "%s kind %d: velocity errors != G v", name, kind);
}

/* Pq N = G, column by column through qdot = N e_i. */
static void check_pq(fixture *f, const char *name, int kind) {
  double *Pq = calloc((size_t)(f->m * f->nq), sizeof(double));
  double *e = f->work, *qd = e + f->nv;
  teal_mb_data *data = teal_mb_data_new(f->p, NULL);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian_q(f->p, f->ctx, Pq), TEAL_OK);
  for (int i = 0; i < f->nv; i++) {
    for (int k = 0; k < f->nv; k++) {
      e[k] = k == i ? 1.0 : 0.0;
    }
    ck_assert_int_eq(teal_mb_multiply_by_n(f->p, data, f->q, 0, e, qd), TEAL_OK);
    for (int r = 0; r < f->m; r++) {
      double g = 0.0;
      for (int k = 0; k < f->nq; k++) {
        g += Pq[r * f->nq + k] * qd[k];
      }
      ck_assert_msg(fabs(g - f->G[r * f->nv + i]) < 1e-10, "%s kind %d: Pq N != G", name, kind);
    }
  }
  /* the products against the explicit Pq, and Pq' as the adjoint of Pq */
  double *ql = calloc((size_t)f->nq, sizeof(double)), *out = calloc((size_t)f->m, sizeof(double));
  double *lam = calloc((size_t)f->m, sizeof(double)), *fq = calloc((size_t)f->nq, sizeof(double));
  unsigned s = 3;
  ts_mb_rand_vec(&s, ql, f->nq, 1.0);
  ts_mb_rand_vec(&s, lam, f->m, 1.0);
  ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian_q(f->p, f->ctx, ql, out), TEAL_OK);
  ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian_q_transpose(f->p, f->ctx, lam, fq),
                   TEAL_OK);
  double a = 0.0, b = 0.0;
  for (int r = 0; r < f->m; r++) {
    double x = 0.0;
    for (int k = 0; k < f->nq; k++) {
      x += Pq[r * f->nq + k] * ql[k];
    }
    ck_assert_msg(fabs(x - out[r]) < 1e-10 * (1 + fabs(x)), "%s kind %d: Pq q", name, kind);
    a += lam[r] * out[r];
  }
  for (int k = 0; k < f->nq; k++) {
    b += fq[k] * ql[k];
  }
  ck_assert_msg(fabs(a - b) < 1e-10 * (1 + fabs(a)), "%s kind %d: Pq' adjoint", name, kind);
  free(ql);
  free(out);
  free(lam);
  free(fq);
  teal_mb_data_free(data);
  free(Pq);
}

/* b = -Gdot v: the central difference of G(q) v along qdot = N v. */
static void check_bias(fixture *f, const char *name, int kind) {
  const double h = 1e-6;
  double *b = f->work, *plus = b + f->m, *minus = plus + f->m, *qh = minus + f->m;
  ck_assert_int_eq(teal_plant_calc_constraint_bias(f->p, f->ctx, b), TEAL_OK);
  for (int sgn = -1; sgn <= 1; sgn += 2) {
    ck_assert_int_eq(ts_mb_step_q(f->p, f->q, f->v, sgn * h, qh), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_positions(f->p, f->ctx, qh, f->nq), TEAL_OK);
    ck_assert_int_eq(
        teal_plant_calc_constraint_velocity_errors(f->p, f->ctx, sgn > 0 ? plus : minus), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_set_positions(f->p, f->ctx, f->q, f->nq), TEAL_OK);
  double worst = 0.0, scale = 1.0;
  for (int r = 0; r < f->m; r++) {
    double fd = (plus[r] - minus[r]) / (2.0 * h);
    worst = fmax(worst, fabs(fd + b[r]));
    scale = fmax(scale, fabs(fd));
  }
  ck_assert_msg(worst < 1e-6 * scale, "%s kind %d: |b + Gdot v| = %g", name, kind, worst);
}

START_TEST(operators_match_references_on_random_trees) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    for (int kind = 0; kind < TS_MBC_NUM_KINDS; kind++) {
      for (unsigned seed = 1; seed <= 3; seed++) {
        fixture f;
        unsigned s = 77 * seed + (unsigned)kind;
        if (!setup(&f, &ts_mb_topologies[t], kind, seed * 31 + (unsigned)kind)) {
          continue;
        }
        check_g_by_differences(&f, ts_mb_topologies[t].name, kind);
        check_products(&f, ts_mb_topologies[t].name, kind, &s);
        check_pq(&f, ts_mb_topologies[t].name, kind);
        check_bias(&f, ts_mb_topologies[t].name, kind);
        teardown(&f);
      }
    }
  }
}
END_TEST

static Suite *constraint_operators_suite(void) {
  Suite *s = suite_create("constraint_operators");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, operators_match_references_on_random_trees);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(constraint_operators_suite());
}
