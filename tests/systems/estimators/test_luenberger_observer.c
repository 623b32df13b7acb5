/* Tests of the Luenberger observer (systems/estimators/luenberger_observer.h).
 * References: with a linear plant and its own model, the estimation error
 * obeys edot = (A - L C) e whatever the input, so e(t) = expm((A - L C) t) e0
 * (solvers/expm.h) in continuous time and e[n] = (A - L C)^n e0 in discrete
 * time; an affine model's offset f0 must cancel; no allocation per step
 * (the allocator hook); every bad construction with its message. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_tree.h"
#include "framework/context_access.h"
#include "framework/diagram.h"
#include "framework/diagram_builder.h"
#include "framework/events.h"
#include "framework/ports.h"
#include "framework/system.h"
#include "framework/system_dynamics.h"
#include "solvers/expm.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "systems/estimators/luenberger_observer.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/demultiplexer.h"
#include "systems/primitives/linear_system.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A lightly damped oscillator with a forced offset, y = first state. */
static const double kA[4] = {0.0, 1.0, -4.0, -0.3};
static const double kB[2] = {0.0, 1.0};
static const double kC[2] = {1.0, 0.0};
static const double kF0[2] = {0.2, -0.1};
static const double kL[2] = {3.0, 5.0};

typedef struct rig {
  teal_system *model, *diagram;
  teal_context *model_ctx;
  teal_simulator *sim;
} rig;

/* plant (affine, period h) <- constant u; observer(plant y, u). */
static rig make_rig(double h) {
  rig r;
  teal_error err;
  r.model = teal_affine_system_new("model", kA, kB, kF0, kC, NULL, NULL, 2, 1, 1, h, &err);
  ck_assert_msg(r.model != NULL, "%s", err.message);
  r.model_ctx = teal_context_new(r.model, &err);
  ck_assert_ptr_nonnull(r.model_ctx);
  teal_system *obs = teal_luenberger_observer_new("obs", r.model, r.model_ctx, kL, &err);
  ck_assert_msg(obs != NULL, "%s", err.message);
  teal_builder *b = teal_builder_new("rig");
  double u = 0.7;
  teal_builder_add(b, teal_constant_vector_source_new("u", &u, 1, NULL));
  teal_builder_add(b,
                   teal_affine_system_new("plant", kA, kB, kF0, kC, NULL, NULL, 2, 1, 1, h, NULL));
  teal_builder_add(b, obs);
  teal_builder_connect_by_name(b, "u", "y", "plant", "u");
  teal_builder_connect_by_name(b, "u", "y", "obs", "observed_system_input");
  teal_builder_connect_by_name(b, "plant", "y", "obs", "observed_system_output");
  r.diagram = teal_builder_build(b, &err);
  ck_assert_msg(r.diagram != NULL, "%s", err.message);
  r.sim = teal_simulator_new(r.diagram, NULL, &err);
  ck_assert_ptr_nonnull(r.sim);
  return r;
}

static void free_rig(rig *r) {
  teal_simulator_free(r->sim);
  teal_system_free(r->diagram);
  teal_context_free(r->model_ctx);
  teal_system_free(r->model);
}

/* The plant's state and the estimate in the rig's context. */
static void read_states(rig *r, double *x, double *xhat) {
  teal_context *root = teal_simulator_context(r->sim);
  const teal_system *plant = teal_diagram_find_subsystem(r->diagram, "plant");
  const teal_system *obs = teal_diagram_find_subsystem(r->diagram, "obs");
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(obs, teal_context_subcontext(root, obs), 0, &y),
                   TEAL_OK);
  const teal_context *pc = teal_context_subcontext(root, plant);
  const double *xp = teal_system_num_discrete_groups(plant) ? teal_context_discrete_group(pc, 0)
                                                            : teal_context_z(pc);
  memcpy(x, xp, 2 * sizeof(double));
  memcpy(xhat, y, 2 * sizeof(double));
}

static void set_plant_state(rig *r, const double *x0) {
  teal_context *root = teal_simulator_context(r->sim);
  const teal_system *plant = teal_diagram_find_subsystem(r->diagram, "plant");
  teal_context *pc = teal_context_subcontext_mut(root, plant);
  if (teal_system_num_discrete_groups(plant)) {
    ck_assert_int_eq(teal_context_set_discrete_group(pc, 0, x0, 2), TEAL_OK);
  } else {
    ck_assert_int_eq(teal_context_set_continuous_state(pc, x0, 2), TEAL_OK);
  }
}

START_TEST(test_continuous_error_follows_the_closed_loop_exponential) {
  rig r = make_rig(0.0);
  const double x0[2] = {1.0, -0.5};
  set_plant_state(&r, x0);
  teal_simulator_set_integrator(r.sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(r.sim, 1e-11);
  const double T = 1.5;
  ck_assert_int_eq(teal_simulator_advance_to(r.sim, T, NULL), TEAL_OK);
  double x[2], xhat[2], E[4];
  read_states(&r, x, xhat);
  double ALC[4] = {kA[0] - kL[0] * kC[0], kA[1] - kL[0] * kC[1], kA[2] - kL[1] * kC[0],
                   kA[3] - kL[1] * kC[1]};
  for (int i = 0; i < 4; i++) {
    ALC[i] *= T;
  }
  ck_assert_int_eq(teal_expm(ALC, 2, E, NULL), TEAL_OK);
  for (int i = 0; i < 2; i++) {
    double want = E[2 * i] * x0[0] + E[2 * i + 1] * x0[1]; /* xhat(0) = 0 */
    ck_assert_double_eq_tol(x[i] - xhat[i], want, 1e-8);
  }
  ck_assert_double_gt(fabs(x[0]), 1e-2); /* the plant moved: the estimate tracks a motion */
  free_rig(&r);
}
END_TEST

START_TEST(test_discrete_error_follows_the_matrix_power) {
  const double h = 0.05;
  rig r = make_rig(h);
  const double x0[2] = {0.4, 1.0};
  set_plant_state(&r, x0);
  const double ALC[4] = {kA[0] - kL[0] * kC[0], kA[1] - kL[0] * kC[1], kA[2] - kL[1] * kC[0],
                         kA[3] - kL[1] * kC[1]};
  double e[2] = {x0[0], x0[1]};
  for (int n = 1; n <= 12; n++) {
    ck_assert_int_eq(teal_simulator_advance_to(r.sim, n * h, NULL), TEAL_OK);
    double e1[2] = {ALC[0] * e[0] + ALC[1] * e[1], ALC[2] * e[0] + ALC[3] * e[1]};
    memcpy(e, e1, sizeof e);
    double x[2], xhat[2];
    read_states(&r, x, xhat);
    for (int i = 0; i < 2; i++) {
      ck_assert_double_eq_tol(x[i] - xhat[i], e[i], 1e-12 * (1 + fabs(e[i])));
    }
  }
  free_rig(&r);
}
END_TEST

/* Drake lets the observed system be the diagram's own plant: the observer
 * keeps clones of a context made before the plant joined the diagram. */
START_TEST(test_the_observed_system_may_be_the_diagrams_plant) {
  teal_error err;
  teal_system *plant =
      teal_affine_system_new("plant", kA, kB, kF0, kC, NULL, NULL, 2, 1, 1, 0.0, &err);
  teal_context *plant_ctx = teal_context_new(plant, &err);
  ck_assert_ptr_nonnull(plant_ctx);
  teal_system *obs = teal_luenberger_observer_new("obs", plant, plant_ctx, kL, &err);
  ck_assert_msg(obs != NULL, "%s", err.message);
  teal_context_free(plant_ctx); /* the observer keeps what it needs */
  teal_builder *b = teal_builder_new("rig");
  double u = 0.7;
  teal_builder_add(b, teal_constant_vector_source_new("u", &u, 1, NULL));
  teal_builder_add(b, plant);
  teal_builder_add(b, obs);
  teal_builder_connect_by_name(b, "u", "y", "plant", "u");
  teal_builder_connect_by_name(b, "u", "y", "obs", "observed_system_input");
  teal_builder_connect_by_name(b, "plant", "y", "obs", "observed_system_output");
  rig r = {NULL, teal_builder_build(b, &err), NULL, NULL};
  ck_assert_msg(r.diagram != NULL, "%s", err.message);
  r.sim = teal_simulator_new(r.diagram, NULL, &err);
  ck_assert_msg(r.sim != NULL, "%s", err.message);
  const double x0[2] = {1.0, -0.5};
  set_plant_state(&r, x0);
  teal_simulator_set_integrator(r.sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(r.sim, 1e-11);
  ck_assert_int_eq(teal_simulator_advance_to(r.sim, 8.0, NULL), TEAL_OK);
  double x[2], xhat[2];
  read_states(&r, x, xhat);
  for (int i = 0; i < 2; i++) {
    ck_assert_double_eq_tol(xhat[i], x[i], 1e-4); /* e decays as exp(-1.65 t) at worst */
  }
  teal_simulator_free(r.sim);
  teal_system_free(r.diagram);
}
END_TEST

START_TEST(test_steps_allocate_nothing) {
  for (int discrete = 0; discrete < 2; discrete++) {
    rig r = make_rig(discrete ? 0.01 : 0.0);
    ck_assert_int_eq(teal_simulator_advance_to(r.sim, 0.1, NULL), TEAL_OK); /* warm up */
    ts_alloc_install();
    ts_alloc_reset();
    ck_assert_int_eq(teal_simulator_advance_to(r.sim, 1.0, NULL), TEAL_OK);
    unsigned long allocs = ts_alloc_allocs();
    ts_alloc_uninstall();
    ck_assert_uint_eq(allocs, 0);
    free_rig(&r);
  }
}
END_TEST

START_TEST(test_gain_reads_back) {
  rig r = make_rig(0.0);
  const teal_system *obs = teal_diagram_find_subsystem(r.diagram, "obs");
  ck_assert(teal_is_luenberger_observer(obs));
  ck_assert(!teal_is_luenberger_observer(r.model));
  double L[2];
  ck_assert_int_eq(teal_luenberger_observer_gain(obs, L, 2), TEAL_OK);
  ck_assert(L[0] == kL[0] && L[1] == kL[1]);
  ck_assert_int_eq(teal_luenberger_observer_gain(obs, L, 3), TEAL_ESIZE);
  ck_assert_int_eq(teal_luenberger_observer_gain(r.model, L, 2), TEAL_EINVAL);
  free_rig(&r);
}
END_TEST

START_TEST(test_bad_observed_systems_are_refused) {
  teal_error err;
  teal_system *model = teal_linear_system_new("m", kA, kB, kC, NULL, 2, 1, 1, 0.0, NULL);
  teal_context *ctx = teal_context_new(model, NULL);
  const double bad[2] = {1.0, NAN};
  TS_EXPECT_ERROR(teal_luenberger_observer_new("o", model, ctx, bad, &err) ? 0 : err.code,
                  TEAL_ENONFINITE, &err, "luenberger_observer 'o'");
  TS_EXPECT_ERROR(teal_luenberger_observer_new("o", model, NULL, kL, &err) ? 0 : err.code,
                  TEAL_EINVAL, &err, "NULL observed context");
  TS_EXPECT_ERROR(teal_luenberger_observer_new("o", model, ctx, NULL, &err) ? 0 : err.code,
                  TEAL_EINVAL, &err, "NULL gain L");
  /* a system with two outputs */
  const int sizes[2] = {1, 1};
  teal_system *demux = teal_demultiplexer_new("demux", sizes, 2, NULL);
  teal_context *dctx = teal_context_new(demux, NULL);
  TS_EXPECT_ERROR(teal_luenberger_observer_new("o", demux, dctx, kL, &err) ? 0 : err.code,
                  TEAL_EINVAL, &err, "exactly one output");
  /* a context of another system */
  TS_EXPECT_ERROR(teal_luenberger_observer_new("o", model, dctx, kL, &err) ? 0 : err.code,
                  TEAL_EINVAL, &err, "root context");
  teal_context_free(dctx);
  teal_system_free(demux);
  /* no state to estimate: a static gain */
  teal_system *gain = teal_linear_system_new("g", NULL, NULL, NULL, kB + 1, 0, 1, 1, 0.0, &err);
  ck_assert_msg(gain != NULL, "%s", err.message);
  teal_context *gctx = teal_context_new(gain, NULL);
  TS_EXPECT_ERROR(teal_luenberger_observer_new("o", gain, gctx, kL, &err) ? 0 : err.code,
                  TEAL_EINVAL, &err, "no state to estimate");
  teal_context_free(gctx);
  teal_system_free(gain);
  /* the owning form frees the system it was given on failure (ASan checks) */
  teal_system *owned = teal_linear_system_new("m2", kA, kB, kC, NULL, 2, 1, 1, 0.0, NULL);
  teal_context *octx = teal_context_new(owned, NULL);
  ck_assert_ptr_null(teal_luenberger_observer_new_owning("o", owned, octx, bad, &err));
  teal_context_free(octx);
  teal_context_free(ctx);
  teal_system_free(model);
}
END_TEST

/* The analytic Jacobian: A - L C, L, B - L D and the identity output, with
 * the model's D nonzero; central differences of the derivatives agree. */
START_TEST(test_jacobian_blocks) {
  const double D[1] = {0.5};
  teal_system *model = teal_affine_system_new("m", kA, kB, kF0, kC, D, NULL, 2, 1, 1, 0.0, NULL);
  teal_context *mctx = teal_context_new(model, NULL);
  const double u0 = 0.0;
  teal_context_fix_input(mctx, 0, &u0, 1);
  teal_system *obs = teal_luenberger_observer_new("obs", model, mctx, kL, NULL);
  ck_assert(teal_system_has_jacobian(obs));
  teal_context *ctx = teal_context_new(obs, NULL);
  const double y = 0.3, u = -0.7, xhat[2] = {0.4, -1.1};
  teal_context_fix_input(ctx, 0, &y, 1);
  teal_context_fix_input(ctx, 1, &u, 1);
  teal_context_set_continuous_state(ctx, xhat, 2);
  double A[4], By[2], Bu[2], C[4], Dy[2];
  teal_jacobian jy = {2, 1, 2, A, By, C, Dy}, ju = {2, 1, 0, A, Bu, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(obs, ctx, 0, 0, &jy), TEAL_OK);
  ck_assert_int_eq(teal_calc_jacobian(obs, ctx, 1, -1, &ju), TEAL_OK);
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      ck_assert_double_eq(A[i * 2 + j], kA[i * 2 + j] - kL[i] * kC[j]);
      ck_assert_double_eq(C[i * 2 + j], i == j);
    }
    ck_assert_double_eq(By[i], kL[i]);
    ck_assert_double_eq(Dy[i], 0.0);
    ck_assert_double_eq(Bu[i], kB[i] - kL[i] * D[0]);
  }
  /* the derivatives move as A says */
  double f0[2], f1[2], x1[2] = {xhat[0] + 1e-3, xhat[1]};
  ck_assert_int_eq(teal_calc_time_derivatives(obs, ctx, f0), TEAL_OK);
  teal_context_set_continuous_state(ctx, x1, 2);
  ck_assert_int_eq(teal_calc_time_derivatives(obs, ctx, f1), TEAL_OK);
  for (int i = 0; i < 2; i++) {
    ck_assert_double_eq_tol((f1[i] - f0[i]) / 1e-3, A[i * 2], 1e-9);
  }
  teal_context_free(ctx);
  teal_system_free(obs);
  teal_context_free(mctx);
  teal_system_free(model);
}
END_TEST

static Suite *observer_suite(void) {
  Suite *s = suite_create("luenberger_observer");
  TCase *tc = tcase_create("observer");
  tcase_add_test(tc, test_continuous_error_follows_the_closed_loop_exponential);
  tcase_add_test(tc, test_discrete_error_follows_the_matrix_power);
  tcase_add_test(tc, test_the_observed_system_may_be_the_diagrams_plant);
  tcase_add_test(tc, test_steps_allocate_nothing);
  tcase_add_test(tc, test_gain_reads_back);
  tcase_add_test(tc, test_bad_observed_systems_are_refused);
  tcase_add_test(tc, test_jacobian_blocks);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(observer_suite());
}
