/* Body inertias and joint damping as context parameters
 * (multibody/plant/plant_parameters.h): a context with changed values
 * against a plant rebuilt with those values in its model (mass matrix,
 * continuous and discrete accelerations, energies, center of mass), the
 * center of mass against a sum over body poses, cache invalidation, two
 * independent contexts, contact results of a heavier ball, a plant inside a
 * diagram, clone / copy / defaults, an allocation-free Monte Carlo loop, and
 * bad inputs with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_tree.h"
#include "framework/diagram_builder.h"
#include "framework/system_dynamics.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/plant/plant_parameters.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"

/* ---- the model ------------------------------------------------------------------ */

/* A revolute link, a prismatic slider on it and a ball-jointed link on the
 * slider, and a body on an explicit floating joint: one joint of each
 * velocity count (1, 1, 3, 6). Bodies 1..4, joints 0..3 (joint j moves
 * body j + 1). */
enum { NB = 5, NJ = 4, NQ = 13, NV = 11 };
static const int k_joint_nv[NJ] = {1, 1, 3, 6};

typedef struct model_values {
  teal_spatial_inertia M[NB]; /* [0] unused (the world) */
  double b[NJ][6];
} model_values;

static teal_spatial_inertia box_at(double m, double lx, double ly, double lz, teal_vec3 com) {
  teal_spatial_inertia box = teal_spatial_inertia_solid_box(m, lx, ly, lz);
  return teal_spatial_inertia_from_central(m, com, box.I_SP_E);
}

static model_values default_values(void) {
  model_values v;
  memset(&v, 0, sizeof(v));
  v.M[1] = box_at(1.5, 0.1, 0.1, 1.0, teal_vec3_make(0.0, 0.0, -0.5));
  v.M[2] = box_at(0.7, 0.3, 0.2, 0.2, teal_vec3_make(0.1, 0.0, 0.0));
  v.M[3] = box_at(1.1, 0.2, 0.4, 0.8, teal_vec3_make(0.0, 0.05, -0.4));
  v.M[4] = box_at(2.0, 0.5, 0.3, 0.2, teal_vec3_make(0.02, -0.01, 0.03));
  double b[NJ][6] = {{0.3}, {0.2}, {0.1, 0.15, 0.05}, {0.0, 0.01, 0.0, 0.02, 0.0, 0.03}};
  memcpy(v.b, b, sizeof(b));
  return v;
}

static int add_frame(teal_plant *p, const char *name, int body, double x, double z) {
  teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(x, 0.0, z));
  return teal_plant_add_frame(p, name, teal_plant_body_frame(p, body), X);
}

static teal_plant *build(const model_values *v, double time_step) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  int inst = teal_plant_add_model_instance(p, "robot");
  const char *names[NB] = {NULL, "link", "slider", "arm", "free"};
  int body[NB] = {TEAL_WORLD_BODY};
  for (int i = 1; i < NB; i++) {
    body[i] = teal_plant_add_rigid_body(p, names[i], inst, &v->M[i]);
    ck_assert_int_eq(body[i], i);
  }
  teal_vec3 y = teal_vec3_make(0, 1, 0), x = teal_vec3_make(1, 0, 0);
  int tip = add_frame(p, "tip", body[1], 0.0, -1.0), mid = add_frame(p, "mid", body[2], 0.2, 0.0);
  int j[NJ] = {
      teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                           teal_plant_body_frame(p, body[1]), &y, 0.0),
      teal_plant_add_joint(p, "slide", TEAL_JOINT_PRISMATIC, tip,
                           teal_plant_body_frame(p, body[2]), &x, 0.0),
      teal_plant_add_joint(p, "ball", TEAL_JOINT_BALL, mid, teal_plant_body_frame(p, body[3]),
                           NULL, 0.0),
      teal_plant_add_joint(p, "float", TEAL_JOINT_QUATERNION_FLOATING, TEAL_WORLD_FRAME,
                           teal_plant_body_frame(p, body[4]), NULL, 0.0)};
  for (int i = 0; i < NJ; i++) {
    ck_assert_int_eq(j[i], i);
    ck_assert_int_eq(teal_plant_set_joint_damping(p, j[i], v->b[i]), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_nq(p), NQ);
  ck_assert_int_eq(teal_plant_nv(p), NV);
  return p;
}

static teal_context *new_context(const teal_plant *p) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  ck_assert_ptr_nonnull(ctx);
  return ctx;
}

/* A fixed random state (valid quaternions), the same for every plant built
 * here since they share their topology. */
static void set_test_state(const teal_plant *p, teal_context *ctx) {
  unsigned seed = 12345;
  double x[NQ + NV];
  ck_assert_int_eq(ts_mb_rand_state(p, &seed, x, x + NQ, 0.8), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, NQ + NV), TEAL_OK);
}

/* ---- what is compared ------------------------------------------------------- */

/* Everything the plant computes from the parameters at ctx's state. */
typedef struct results {
  double M[NV * NV], vdot[NV], ke, pe, mass;
  teal_vec3 com;
} results;

static results compute(const teal_plant *p, const teal_context *ctx) {
  results r;
  const double *M, *vdot;
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  memcpy(r.M, M, sizeof(r.M));
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  memcpy(r.vdot, vdot, sizeof(r.vdot));
  /* the energies are the plant system's: on its own (sub)context */
  const teal_system *sys = teal_plant_system((teal_plant *)p);
  const teal_context *own =
      teal_context_system(ctx) == sys ? ctx : teal_context_subcontext(ctx, sys);
  ck_assert_int_eq(teal_calc_kinetic_energy(sys, own, &r.ke), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(sys, own, &r.pe), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_total_mass(p, ctx, NULL, 0, &r.mass), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_center_of_mass_position(p, ctx, NULL, 0, &r.com), TEAL_OK);
  return r;
}

static double rel_diff(double a, double b) {
  return fabs(a - b) / fmax(1.0, fmax(fabs(a), fabs(b)));
}

static void expect_same(const results *a, const results *b, double tol, const char *what) {
  for (int i = 0; i < NV * NV; i++) {
    ck_assert_msg(rel_diff(a->M[i], b->M[i]) <= tol, "%s: M[%d] %.17g vs %.17g", what, i,
                  a->M[i], b->M[i]);
  }
  for (int i = 0; i < NV; i++) {
    ck_assert_msg(rel_diff(a->vdot[i], b->vdot[i]) <= tol, "%s: vdot[%d] %.17g vs %.17g", what,
                  i, a->vdot[i], b->vdot[i]);
  }
  ck_assert_msg(rel_diff(a->ke, b->ke) <= tol, "%s: ke %.17g vs %.17g", what, a->ke, b->ke);
  ck_assert_msg(rel_diff(a->pe, b->pe) <= tol, "%s: pe %.17g vs %.17g", what, a->pe, b->pe);
  ck_assert_msg(rel_diff(a->mass, b->mass) <= tol, "%s: mass", what);
  for (int i = 0; i < 3; i++) {
    ck_assert_msg(rel_diff(a->com.v[i], b->com.v[i]) <= tol, "%s: com[%d]", what, i);
  }
}

/* The largest relative difference between two results' M and vdot. */
static double max_change(const results *a, const results *b) {
  double d = 0.0;
  for (int i = 0; i < NV * NV; i++) {
    d = fmax(d, rel_diff(a->M[i], b->M[i]));
  }
  for (int i = 0; i < NV; i++) {
    d = fmax(d, rel_diff(a->vdot[i], b->vdot[i]));
  }
  return d;
}

/* ---- the changes under test ---------------------------------------------------- */

typedef enum change_kind { SET_MASS, SET_COM, SET_INERTIA, SET_DAMPING } change_kind;

typedef struct change {
  change_kind kind;
  int index; /* body or joint */
  const char *name;
} change;

static const change k_changes[] = {
    {SET_MASS, 1, "mass of the link"},       {SET_MASS, 4, "mass of the free body"},
    {SET_COM, 2, "center of mass of slider"}, {SET_COM, 3, "center of mass of the arm"},
    {SET_INERTIA, 3, "inertia of the arm"},   {SET_INERTIA, 4, "inertia of the free body"},
    {SET_DAMPING, 0, "damping of the hinge"}, {SET_DAMPING, 2, "damping of the ball"},
    {SET_DAMPING, 3, "damping of the floating joint"},
};
static const int k_num_changes = (int)(sizeof(k_changes) / sizeof(k_changes[0]));

/* Applies c to ctx and, independently, to the model values mv that a
 * rebuilt plant should have. Mass keeps the unit inertia (I scales with m),
 * the center of mass keeps the central inertia. */
static void apply_change(const teal_plant *p, teal_context *ctx, const change *c,
                         model_values *mv) {
  teal_spatial_inertia *M = &mv->M[c->index];
  int rc = TEAL_OK;
  if (c->kind == SET_MASS) {
    double m = 3.0 * M->mass + 0.25;
    M->I_SP_E = teal_mat3_scale(M->I_SP_E, m / M->mass);
    M->mass = m;
    rc = teal_plant_set_body_mass_in_context(p, ctx, c->index, m);
  } else if (c->kind == SET_COM) {
    teal_vec3 com = teal_vec3_make(-0.15, 0.2, 0.35);
    *M = teal_spatial_inertia_from_central(M->mass, com, teal_spatial_inertia_central(M));
    rc = teal_plant_set_body_center_of_mass_in_context(p, ctx, c->index, com);
  } else if (c->kind == SET_INERTIA) {
    teal_rotation R = teal_rotation_from_rpy(teal_vec3_make(0.3, -0.5, 1.1));
    teal_spatial_inertia box = box_at(0.9, 0.6, 0.1, 0.3, teal_vec3_zero());
    box = teal_spatial_inertia_reexpress(&box, R);
    *M = teal_spatial_inertia_from_central(0.9, teal_vec3_make(0.1, -0.2, 0.05), box.I_SP_E);
    rc = teal_plant_set_body_spatial_inertia_in_context(p, ctx, c->index, M);
  } else {
    int n = k_joint_nv[c->index];
    for (int i = 0; i < n; i++) {
      mv->b[c->index][i] = 2.5 + 0.5 * i;
    }
    rc = teal_plant_set_joint_damping_in_context(p, ctx, c->index, mv->b[c->index], n);
  }
  ck_assert_msg(rc == TEAL_OK, "%s: %s", c->name, teal_context_error(ctx)->message);
}

/* The parameters held by ctx equal the model values mv (to tol, relative). */
static void expect_values(const teal_plant *p, const teal_context *ctx, const model_values *mv,
                          double tol) {
  for (int b = 1; b < NB; b++) {
    teal_spatial_inertia M;
    ck_assert_int_eq(teal_plant_get_body_spatial_inertia_in_context(p, ctx, b, &M), TEAL_OK);
    ck_assert(rel_diff(M.mass, mv->M[b].mass) <= tol);
    for (int i = 0; i < 3; i++) {
      ck_assert(rel_diff(M.p_PScm_E.v[i], mv->M[b].p_PScm_E.v[i]) <= tol);
    }
    for (int i = 0; i < 9; i++) {
      ck_assert(rel_diff(M.I_SP_E.m[i], mv->M[b].I_SP_E.m[i]) <= tol);
    }
  }
  for (int j = 0; j < NJ; j++) {
    double b[6];
    ck_assert_int_eq(teal_plant_get_joint_damping_in_context(p, ctx, j, b, k_joint_nv[j]),
                     TEAL_OK);
    for (int i = 0; i < k_joint_nv[j]; i++) {
      ck_assert(rel_diff(b[i], mv->b[j][i]) <= tol);
    }
  }
}

/* ---- tests ------------------------------------------------------------------------ */

/* Each change in a context gives what a plant rebuilt with the changed
 * model gives, continuous (ABA) and discrete (the step's (v+ - v) / h). */
static void check_changes_against_rebuilt(double time_step) {
  model_values v0 = default_values();
  teal_plant *p = build(&v0, time_step);
  for (int c = 0; c < k_num_changes; c++) {
    teal_context *ctx = new_context(p);
    set_test_state(p, ctx);
    results before = compute(p, ctx);
    model_values mv = v0;
    apply_change(p, ctx, &k_changes[c], &mv);
    expect_values(p, ctx, &mv, 1e-15);
    results after = compute(p, ctx); /* the cached values are invalidated */
    teal_plant *q = build(&mv, time_step);
    teal_context *qctx = new_context(q);
    set_test_state(q, qctx);
    results rebuilt = compute(q, qctx);
    expect_same(&after, &rebuilt, 1e-14, k_changes[c].name);
    ck_assert_msg(max_change(&before, &after) > 1e-6, "%s changed nothing", k_changes[c].name);
    teal_context_free(qctx);
    teal_plant_free(q);
    teal_context_free(ctx);
  }
  teal_plant_free(p);
}

START_TEST(changes_match_rebuilt_plant_continuous) {
  check_changes_against_rebuilt(0.0);
}
END_TEST

START_TEST(changes_match_rebuilt_plant_discrete) {
  check_changes_against_rebuilt(1e-3);
}
END_TEST

/* The center of mass and total mass against a sum over the body poses with
 * the context's masses and centers of mass. */
START_TEST(center_of_mass_is_the_mass_weighted_mean) {
  model_values v0 = default_values();
  teal_plant *p = build(&v0, 0.0);
  teal_context *ctx = new_context(p);
  set_test_state(p, ctx);
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(p, ctx, 2, 5.0), TEAL_OK);
  ck_assert_int_eq(
      teal_plant_set_body_center_of_mass_in_context(p, ctx, 4, teal_vec3_make(0.3, 0.1, -0.2)),
      TEAL_OK);
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK);
  double m_sum = 0.0;
  teal_vec3 mp = teal_vec3_zero();
  for (int b = 1; b < NB; b++) {
    double m;
    teal_vec3 c;
    ck_assert_int_eq(teal_plant_get_body_mass_in_context(p, ctx, b, &m), TEAL_OK);
    ck_assert_int_eq(teal_plant_get_body_center_of_mass_in_context(p, ctx, b, &c), TEAL_OK);
    m_sum += m;
    mp = teal_vec3_add(mp, teal_vec3_scale(teal_transform_apply(X[b], c), m));
  }
  double mass;
  teal_vec3 com;
  ck_assert_int_eq(teal_plant_calc_total_mass(p, ctx, NULL, 0, &mass), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_center_of_mass_position(p, ctx, NULL, 0, &com), TEAL_OK);
  ck_assert_double_eq_tol(mass, 1.5 + 5.0 + 1.1 + 2.0, 1e-14);
  ck_assert_double_eq_tol(m_sum, mass, 1e-14);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(com.v[i], mp.v[i] / m_sum, 1e-14);
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* Setting the mass keeps the unit inertia; setting the center of mass keeps
 * the mass and the central inertia. */
START_TEST(mass_and_center_of_mass_setters_keep_the_rest) {
  model_values v0 = default_values();
  teal_plant *p = build(&v0, 0.0);
  teal_context *ctx = new_context(p);
  teal_spatial_inertia M;
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(p, ctx, 3, 2.2), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_body_spatial_inertia_in_context(p, ctx, 3, &M), TEAL_OK);
  ck_assert_double_eq(M.mass, 2.2);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(M.I_SP_E.m[i] / 2.2, v0.M[3].I_SP_E.m[i] / 1.1, 1e-15);
  }
  teal_vec3 c = teal_vec3_make(0.5, -0.5, 0.25);
  ck_assert_int_eq(teal_plant_set_body_center_of_mass_in_context(p, ctx, 3, c), TEAL_OK);
  teal_spatial_inertia N;
  ck_assert_int_eq(teal_plant_get_body_spatial_inertia_in_context(p, ctx, 3, &N), TEAL_OK);
  ck_assert_double_eq(N.mass, 2.2);
  teal_mat3 before = teal_spatial_inertia_central(&M), after = teal_spatial_inertia_central(&N);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(N.p_PScm_E.v[i], c.v[i]);
  }
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(after.m[i], before.m[i], 1e-14);
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* Two contexts of one plant hold their own values; a clone and a copy carry
 * them; set_to_defaults restores the model's. */
START_TEST(contexts_are_independent_and_copies_carry_values) {
  model_values v0 = default_values(), mv = v0;
  teal_plant *p = build(&v0, 0.0);
  teal_context *a = new_context(p), *b = new_context(p);
  set_test_state(p, a);
  set_test_state(p, b);
  results base = compute(p, b);
  apply_change(p, a, &k_changes[0], &mv);
  apply_change(p, a, &k_changes[4], &mv);
  apply_change(p, a, &k_changes[7], &mv);
  results changed = compute(p, a);
  results still = compute(p, b);
  expect_same(&still, &base, 0.0, "untouched context");
  expect_values(p, b, &v0, 0.0);
  teal_context *clone = teal_context_clone(a, NULL);
  ck_assert_ptr_nonnull(clone);
  expect_values(p, clone, &mv, 0.0);
  results cloned = compute(p, clone);
  expect_same(&cloned, &changed, 0.0, "clone");
  ck_assert_int_eq(teal_context_copy_from(b, a), TEAL_OK);
  expect_values(p, b, &mv, 0.0);
  results copied = compute(p, b);
  expect_same(&copied, &changed, 0.0, "copy");
  ck_assert_int_eq(teal_context_set_to_defaults(a), TEAL_OK);
  expect_values(p, a, &v0, 0.0);
  set_test_state(p, a);
  results reset = compute(p, a);
  expect_same(&reset, &base, 0.0, "defaults");
  teal_context_free(clone);
  teal_context_free(a);
  teal_context_free(b);
  teal_plant_free(p);
}
END_TEST

/* With caching off every evaluation recomputes: the results are the same. */
START_TEST(caching_off_gives_identical_results) {
  model_values v0 = default_values(), mv = v0;
  teal_plant *p = build(&v0, 0.0);
  teal_context *ctx = new_context(p);
  set_test_state(p, ctx);
  apply_change(p, ctx, &k_changes[1], &mv);
  results cached = compute(p, ctx);
  teal_context_set_caching(ctx, 0);
  results fresh = compute(p, ctx);
  expect_same(&fresh, &cached, 0.0, "caching off");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A Monte Carlo loop over masses and damping of a discrete plant: once the
 * simulator runs, setting parameters and stepping allocate nothing, and a
 * sample repeated gives the same trajectory. */
START_TEST(monte_carlo_loop_allocates_nothing) {
  model_values v0 = default_values();
  teal_plant *p = build(&v0, 1e-3);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_context *ctx = teal_simulator_context(sim);
  teal_sim_status st;
  set_test_state(p, ctx);
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01, &st), TEAL_OK);
  double first[NQ + NV], again[NQ + NV], t = 0.01;
  ts_alloc_install();
  ts_alloc_reset();
  for (int sample = 0; sample < 12; sample++) {
    double m = 0.5 + 0.25 * (sample % 6), b = 0.1 * (sample % 6);
    ck_assert_int_eq(teal_plant_set_body_mass_in_context(p, ctx, 1, m), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_joint_damping_in_context(p, ctx, 0, &b, 1), TEAL_OK);
    set_test_state(p, ctx);
    t += 0.02;
    ck_assert_int_eq(teal_simulator_advance_to(sim, t, &st), TEAL_OK);
    double *dst = sample == 0 ? first : sample == 6 ? again : NULL;
    if (dst) {
      ck_assert_int_eq(teal_plant_get_state(p, ctx, dst, NQ + NV), TEAL_OK);
    }
  }
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, 0);
  for (int i = 0; i < NQ + NV; i++) {
    ck_assert_double_eq(first[i], again[i]);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* Contact results use the context's masses: a heavier ball comes to rest
 * with the contact force carrying its new weight. The default contact
 * stiffness is derived at finalize from the model's masses (m g / allowance
 * for the model's 1 kg), so the heavier ball sinks by its mass ratio times
 * the penetration allowance. */
static void heavier_ball_rests_on_ground(double time_step) {
  const double m = 2.5;
  ts_contact_world w = ts_contact_ball_world(time_step, 0.15, NAN);
  int ball = teal_plant_get_body_by_name(w.plant, "ball", -1, NULL);
  ck_assert_int_ge(ball, 1);
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(w.plant, w.ctx, ball, m), TEAL_OK);
  ts_contact_advance(&w, 3.0);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  double g = -teal_plant_gravity(w.plant).v[2], q[7];
  ck_assert_double_eq_tol(teal_contact_results_net_force(r, ball).v[2], m * g, 1e-3 * m * g);
  ck_assert_int_eq(teal_plant_get_positions(w.plant, w.ctx, q, 7), TEAL_OK);
  double sink = 0.1 - q[6], delta = teal_plant_penetration_allowance(w.plant);
  ck_assert_msg(fabs(sink - m * delta) < 0.02 * m * delta, "penetration %g vs %g", sink, m * delta);
  ts_contact_world_free(&w);
}

START_TEST(contact_carries_the_context_mass_continuous) {
  heavier_ball_rests_on_ground(0.0);
}
END_TEST

START_TEST(contact_carries_the_context_mass_discrete) {
  heavier_ball_rests_on_ground(1e-3);
}
END_TEST

/* Through a diagram's root context the setters reach the plant's own
 * subcontext: the results equal those of a plant context changed alike. */
START_TEST(diagram_context_reaches_the_plant) {
  model_values v0 = default_values(), mv = v0;
  teal_plant *p = build(&v0, 0.0);
  teal_context *alone = new_context(p);
  set_test_state(p, alone);
  apply_change(p, alone, &k_changes[5], &mv);
  apply_change(p, alone, &k_changes[8], &mv);
  results expected = compute(p, alone);
  teal_context_free(alone);
  teal_builder *bld = teal_builder_new("with_plant");
  teal_builder_add(bld, teal_plant_system(p));
  teal_error err = {0};
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  teal_context *root = teal_context_new(d, NULL);
  ck_assert_ptr_nonnull(root);
  set_test_state(p, root);
  mv = v0;
  apply_change(p, root, &k_changes[5], &mv);
  apply_change(p, root, &k_changes[8], &mv);
  expect_values(p, root, &mv, 0.0);
  results got = compute(p, root);
  expect_same(&got, &expected, 0.0, "diagram");
  teal_context_free(root);
  teal_system_free(d);
}
END_TEST

/* Bad inputs fail with a code and a message, and leave the values as they were. */
START_TEST(bad_inputs_are_refused_with_messages) {
  model_values v0 = default_values();
  teal_plant *p = build(&v0, 0.0), *other = build(&v0, 0.0);
  teal_context *ctx = new_context(p), *wrong = new_context(other);
  const teal_error *e = teal_context_error(ctx);
  double nan = NAN;
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, ctx, 1, -1.0), TEAL_EINVAL, e,
                  "mass -1 is not positive");
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, ctx, 1, 0.0), TEAL_EINVAL, e,
                  "body \"link\"");
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, ctx, 1, 1e-120), TEAL_EINVAL, e,
                  "smallest supported mass");
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, ctx, 1, nan), TEAL_ENONFINITE, e,
                  "not finite");
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, ctx, 0, 1.0), TEAL_EINVAL, e,
                  "body 0 is the world");
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, ctx, NB, 1.0), TEAL_EINVAL, e,
                  "body 5 is not a body of the plant (1..4)");
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, ctx, -1, 1.0), TEAL_EINVAL, e,
                  "body -1 is not a body");
  TS_EXPECT_ERROR(teal_plant_set_body_mass_in_context(p, wrong, 1, 1.0), TEAL_EINVAL,
                  teal_context_error(wrong), "holds no context of the plant");
  /* a rod's inertia with a negative moment, then one violating the triangle inequality */
  teal_spatial_inertia bad = teal_spatial_inertia_from_central(
      1.0, teal_vec3_zero(), teal_mat3_diag(1.0, 1.0, -0.5));
  TS_EXPECT_ERROR(teal_plant_set_body_spatial_inertia_in_context(p, ctx, 2, &bad), TEAL_EINVAL,
                  e, "body \"slider\"");
  bad = teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(1.0, 1.0, 3.0));
  TS_EXPECT_ERROR(teal_plant_set_body_spatial_inertia_in_context(p, ctx, 2, &bad), TEAL_EINVAL,
                  e, "triangle inequality");
  bad.I_SP_E.m[4] = NAN;
  TS_EXPECT_ERROR(teal_plant_set_body_spatial_inertia_in_context(p, ctx, 2, &bad),
                  TEAL_ENONFINITE, e, "not finite");
  TS_EXPECT_ERROR(teal_plant_set_body_spatial_inertia_in_context(p, ctx, 2, NULL), TEAL_EINVAL, e,
                  "M_BBo_B is NULL");
  TS_EXPECT_ERROR(teal_plant_set_body_center_of_mass_in_context(p, ctx, 3,
                                                                teal_vec3_make(0, INFINITY, 0)),
                  TEAL_ENONFINITE, e, "p_BoBcm_B is not finite");
  TS_EXPECT_ERROR(teal_plant_get_body_mass_in_context(p, ctx, 1, NULL), TEAL_EINVAL, e,
                  "mass is NULL");
  TS_EXPECT_ERROR(teal_plant_get_body_center_of_mass_in_context(p, ctx, 0, &(teal_vec3){0}),
                  TEAL_EINVAL, e, "world");
  double b3[3] = {0.1, -0.2, 0.3};
  TS_EXPECT_ERROR(teal_plant_set_joint_damping_in_context(p, ctx, 2, b3, 3), TEAL_EINVAL, e,
                  "damping[1] = -0.2 must be finite and >= 0");
  b3[1] = NAN;
  TS_EXPECT_ERROR(teal_plant_set_joint_damping_in_context(p, ctx, 2, b3, 3), TEAL_ENONFINITE, e,
                  "joint \"ball\"");
  TS_EXPECT_ERROR(teal_plant_set_joint_damping_in_context(p, ctx, 2, b3, 2), TEAL_ESIZE, e,
                  "got 2 values, joint \"ball\" has 3 velocities");
  TS_EXPECT_ERROR(teal_plant_get_joint_damping_in_context(p, ctx, 3, b3, 3), TEAL_ESIZE, e,
                  "has 6 velocities");
  TS_EXPECT_ERROR(teal_plant_set_joint_damping_in_context(p, ctx, NJ, b3, 1), TEAL_EINVAL, e,
                  "joint 4 is not a joint of the plant (0..3)");
  TS_EXPECT_ERROR(teal_plant_set_joint_damping_in_context(p, ctx, 0, NULL, 1), TEAL_EINVAL, e,
                  "damping is NULL");
  TS_EXPECT_ERROR(teal_plant_set_joint_damping_in_context(p, wrong, 0, b3, 1), TEAL_EINVAL,
                  teal_context_error(wrong), "holds no context of the plant");
  TS_EXPECT_ERROR(teal_plant_calc_center_of_mass_position(p, ctx, NULL, 0, NULL), TEAL_EINVAL, e,
                  "p_WScm is NULL");
  int unknown = 7;
  double mass;
  TS_EXPECT_ERROR(teal_plant_calc_total_mass(p, ctx, &unknown, 1, &mass), TEAL_EINVAL, e,
                  "not a model instance");
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(NULL, ctx, 1, 1.0), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(p, NULL, 1, 1.0), TEAL_EINVAL);
  expect_values(p, ctx, &v0, 0.0); /* nothing above changed a value */
  teal_context_free(wrong);
  teal_context_free(ctx);
  teal_plant_free(other);
  teal_plant_free(p);
}
END_TEST

static Suite *plant_parameters_suite(void) {
  Suite *s = suite_create("plant_parameters");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, changes_match_rebuilt_plant_continuous);
  tcase_add_test(tc, changes_match_rebuilt_plant_discrete);
  tcase_add_test(tc, center_of_mass_is_the_mass_weighted_mean);
  tcase_add_test(tc, mass_and_center_of_mass_setters_keep_the_rest);
  tcase_add_test(tc, contexts_are_independent_and_copies_carry_values);
  tcase_add_test(tc, caching_off_gives_identical_results);
  tcase_add_test(tc, contact_carries_the_context_mass_continuous);
  tcase_add_test(tc, contact_carries_the_context_mass_discrete);
  tcase_add_test(tc, diagram_context_reaches_the_plant);
  tcase_add_test(tc, monte_carlo_loop_allocates_nothing);
  tcase_add_test(tc, bad_inputs_are_refused_with_messages);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(plant_parameters_suite());
}
