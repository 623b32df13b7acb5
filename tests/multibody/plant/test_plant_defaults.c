/* Default and random states (multibody/plant/plant_defaults.h) on a random
 * tree with every joint kind (tests/support/mb_fixtures.c's "tree" topology:
 * an implicit floating base, weld, explicit quaternion-floating and
 * roll-pitch-yaw joints),
 * plus a free body, a quaternion-floating joint from the world between
 * offset frames, and a chain of two welds ending in frame A. References:
 * the values set, normalized by hand; poses read back through
 * teal_plant_eval_body_poses against the requested ones; the pose of A
 * composed by hand from the weld frames; the moments of uniform rotations
 * (E[R_ij] = 0, E[R_ij^2] = 1/3) and of uniform positions. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/context.h"
#include "math/rotation.h"
#include "multibody/plant/plant_defaults.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define TREE_N 14

/* The tree of every joint kind and the extra bodies (indices). */
typedef struct scene {
  teal_plant *p;
  int tree[TREE_N], tree_joint[TREE_N];
  int fb, ef, w1, w2; /* free body, explicit floating, welds */
  int frame_A, inst_free, inst_weld;
  teal_transform X_WA; /* the pose of A composed by hand */
} scene;

static const ts_mb_body_spec *tree_spec(void) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    if (strcmp(ts_mb_topologies[t].name, "tree") == 0) {
      ck_assert_int_eq(ts_mb_topologies[t].n, TREE_N);
      return ts_mb_topologies[t].spec;
    }
  }
  ck_abort_msg("no tree topology");
  return NULL;
}

static int add_body(teal_plant *p, const char *name, int inst, unsigned *s) {
  teal_spatial_inertia M = ts_mb_rand_inertia(s);
  int b = teal_plant_add_rigid_body(p, name, inst, &M);
  ck_assert_int_ge(b, 0);
  return b;
}

static int add_frame(teal_plant *p, const char *name, int body, teal_transform X) {
  int f = teal_plant_add_frame(p, name, teal_plant_body_frame(p, body), X);
  ck_assert_int_ge(f, 0);
  return f;
}

/* Welds body b to frame F of its parent at frame M on b: X_WB = X_WF X_BM^-1. */
static teal_transform weld(scene *sc, int parent, teal_transform X_WP, int b, unsigned *s) {
  teal_transform X_PF = ts_mb_rand_pose(s, 0.5), X_BM = ts_mb_rand_pose(s, 0.5);
  char fn[16], mn[16], jn[16];
  snprintf(fn, sizeof fn, "WF%d", b);
  snprintf(mn, sizeof mn, "WM%d", b);
  snprintf(jn, sizeof jn, "weld%d", b);
  int F = add_frame(sc->p, fn, parent, X_PF), M = add_frame(sc->p, mn, b, X_BM);
  ck_assert_int_ge(teal_plant_add_joint(sc->p, jn, TEAL_JOINT_WELD, F, M, NULL, 0.0), 0);
  return teal_transform_compose(teal_transform_compose(X_WP, X_PF), teal_transform_inverse(X_BM));
}

/* The unfinalized scene. */
static void build(scene *sc, double time_step, unsigned seed) {
  unsigned s = seed;
  const ts_mb_body_spec *spec = tree_spec();
  sc->p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(sc->p);
  teal_plant *p = sc->p;
  for (int i = 0; i < TREE_N; i++) {
    char name[16];
    snprintf(name, sizeof name, "b%d", i);
    sc->tree[i] = add_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &s);
  }
  for (int i = 0; i < TREE_N; i++) {
    sc->tree_joint[i] =
        spec[i].parent == -2 ? -1 : ts_mb_add_random_joint(p, spec, sc->tree, i, &s);
    ck_assert_int_ge(sc->tree_joint[i], -1);
  }
  sc->inst_free = teal_plant_add_model_instance(p, "loose");
  sc->inst_weld = teal_plant_add_model_instance(p, "welded");
  sc->fb = add_body(p, "fb", sc->inst_free, &s);
  sc->ef = add_body(p, "ef", TEAL_DEFAULT_MODEL_INSTANCE, &s);
  int F = add_frame(p, "EF", TEAL_WORLD_BODY, ts_mb_rand_pose(&s, 0.5));
  int M = add_frame(p, "EM", sc->ef, ts_mb_rand_pose(&s, 0.5));
  ck_assert_int_ge(teal_plant_add_joint(p, "ej", TEAL_JOINT_QUATERNION_FLOATING, F, M, NULL, 0), 0);
  sc->w1 = add_body(p, "w1", sc->inst_weld, &s);
  sc->w2 = add_body(p, "w2", sc->inst_weld, &s);
  teal_transform X_W1 = weld(sc, TEAL_WORLD_BODY, teal_transform_identity(), sc->w1, &s);
  teal_transform X_W2 = weld(sc, sc->w1, X_W1, sc->w2, &s);
  teal_transform X_2A = ts_mb_rand_pose(&s, 0.5);
  sc->frame_A = add_frame(p, "A", sc->w2, X_2A);
  sc->X_WA = teal_transform_compose(X_W2, X_2A);
}

static teal_context *finalize(scene *sc) {
  ck_assert_msg(teal_plant_finalize(sc->p) == TEAL_OK, "%s", teal_plant_error(sc->p)->message);
  teal_error e;
  teal_context *ctx = teal_context_new(teal_plant_system(sc->p), &e);
  ck_assert_msg(ctx != NULL, "%s", e.message);
  return ctx;
}

static void assert_pose(teal_transform A, teal_transform B, double tol, const char *what) {
  for (int i = 0; i < 9; i++) {
    ck_assert_msg(fabs(A.R.m[i] - B.R.m[i]) <= tol, "%s: R[%d] %.17g vs %.17g", what, i, A.R.m[i],
                  B.R.m[i]);
  }
  for (int i = 0; i < 3; i++) {
    ck_assert_msg(fabs(A.p.v[i] - B.p.v[i]) <= tol, "%s: p[%d] %.17g vs %.17g", what, i, A.p.v[i],
                  B.p.v[i]);
  }
}

static const teal_transform *poses(const scene *sc, const teal_context *ctx) {
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(sc->p, ctx, &X), TEAL_OK);
  return X;
}

/* Random default q for joint j (quaternions not normalized) into q and the
 * normalized reference into ref; returns nq. */
static int random_default(const scene *sc, int j, unsigned *s, double *q, double *ref) {
  int kind = teal_plant_joint_kind(sc->p, j);
  int nq = teal_joint_type_get((teal_joint_kind)kind)->nq;
  ts_mb_rand_vec(s, q, nq, 1.5);
  memcpy(ref, q, (size_t)nq * sizeof(double));
  if (kind == TEAL_JOINT_BALL || kind == TEAL_JOINT_QUATERNION_FLOATING) {
    q[0] += 2.0; /* away from zero */
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    ref[0] = q[0] / n, ref[1] = q[1] / n, ref[2] = q[2] / n, ref[3] = q[3] / n;
  }
  return nq;
}

static void check_joint_defaults(double time_step) {
  scene sc;
  build(&sc, time_step, 11u);
  unsigned s = 5u;
  double ref[TREE_N][7];
  for (int i = 0; i < TREE_N; i++) {
    int j = sc.tree_joint[i];
    if (j >= 0) {
      double q[7];
      int nq = random_default(&sc, j, &s, q, ref[i]);
      ck_assert_msg(teal_plant_set_joint_default_positions(sc.p, j, q, nq) == TEAL_OK, "%s",
                    teal_plant_error(sc.p)->message);
    }
  }
  teal_context *ctx = finalize(&sc);
  double x[128];
  int nx = teal_plant_nq(sc.p) + teal_plant_nv(sc.p);
  ck_assert_int_le(nx, 128);
  for (int pass = 0; pass < 2; pass++) {
    ck_assert_int_eq(teal_plant_get_state(sc.p, ctx, x, nx), TEAL_OK);
    for (int i = 0; i < TREE_N; i++) {
      int j = sc.tree_joint[i];
      if (j < 0) {
        continue;
      }
      double back[7];
      int nq = teal_joint_type_get((teal_joint_kind)teal_plant_joint_kind(sc.p, j))->nq;
      ck_assert_int_eq(teal_plant_get_joint_default_positions(sc.p, j, back, nq), TEAL_OK);
      for (int k = 0; k < nq; k++) {
        double in_ctx = x[teal_plant_joint_q_start(sc.p, j) + k];
        ck_assert_msg(fabs(in_ctx - ref[i][k]) <= 1e-15, "joint %d q%d: %g vs %g", j, k, in_ctx,
                      ref[i][k]);
        ck_assert_double_eq_tol(back[k], ref[i][k], 1e-15);
      }
    }
    for (int i = teal_plant_nq(sc.p); i < nx; i++) {
      ck_assert_double_eq(x[i], 0.0);
    }
    /* scramble, then set_to_defaults (Drake's SetDefaultState) restores */
    for (int i = 0; i < nx; i++) {
      x[i] += 0.3;
    }
    ck_assert_int_eq(teal_plant_set_state(sc.p, ctx, x, nx), TEAL_OK);
    ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  }
  /* the implicit floating base's joint keeps the identity default */
  double q7[7];
  int jb = teal_plant_body_joint(sc.p, sc.tree[0]);
  ck_assert_int_eq(teal_plant_get_joint_default_positions(sc.p, jb, q7, 7), TEAL_OK);
  ck_assert_double_eq(q7[0], 1.0);
  teal_context_free(ctx);
  teal_plant_free(sc.p);
}

START_TEST(joint_default_positions_continuous_and_discrete) {
  check_joint_defaults(0.0);
  check_joint_defaults(0.01);
}
END_TEST

/* After finalize (as Drake allows): an existing context keeps its state
 * until teal_context_set_to_defaults, a context made afterwards starts at
 * the new pose, the other bodies keep their defaults, and bad arguments
 * still fail with their messages. */
static void check_default_pose_after_finalize(scene *sc, teal_context *ctx, const int *bodies,
                                              const teal_transform *want, unsigned *s) {
  teal_transform moved = ts_mb_rand_pose(s, 2.0);
  ck_assert_int_eq(teal_plant_set_default_free_body_pose(sc->p, sc->fb, moved), TEAL_OK);
  assert_pose(poses(sc, ctx)[sc->fb], want[0], 1e-13, "existing context before reset");
  teal_context *later = teal_context_new(teal_plant_system(sc->p), NULL);
  assert_pose(poses(sc, later)[sc->fb], moved, 1e-13, "context made after the change");
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  const teal_transform *X = poses(sc, ctx);
  assert_pose(X[sc->fb], moved, 1e-13, "existing context after reset");
  for (int i = 1; i < 3; i++) {
    assert_pose(X[bodies[i]], want[i], 1e-13, "other default poses");
  }
  teal_transform got;
  ck_assert_int_eq(teal_plant_get_default_free_body_pose(sc->p, sc->fb, &got), TEAL_OK);
  assert_pose(got, moved, 0.0, "get_default_free_body_pose after finalize");
  teal_context_free(later);
  ck_assert_int_eq(teal_plant_set_default_free_body_pose(sc->p, 0, moved), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(teal_plant_error(sc->p)->message, "unknown body 0"));
}

START_TEST(default_free_body_poses) {
  for (int d = 0; d < 2; d++) {
    scene sc;
    build(&sc, d ? 0.005 : 0.0, 21u);
    unsigned s = 3u;
    int bodies[3] = {sc.fb, sc.ef, sc.tree[0]};
    teal_transform want[3];
    for (int i = 0; i < 3; i++) {
      want[i] = ts_mb_rand_pose(&s, 2.0);
      ck_assert_int_eq(teal_plant_set_default_free_body_pose(sc.p, bodies[i], want[i]), TEAL_OK);
    }
    /* a body with a revolute joint: stored, but ignored by the state */
    teal_transform ignored = ts_mb_rand_pose(&s, 2.0);
    ck_assert_int_eq(teal_plant_set_default_free_body_pose(sc.p, sc.tree[1], ignored), TEAL_OK);
    teal_context *ctx = finalize(&sc);
    for (int pass = 0; pass < 2; pass++) {
      const teal_transform *X = poses(&sc, ctx);
      for (int i = 0; i < 3; i++) {
        assert_pose(X[bodies[i]], want[i], 1e-13, "default free-body pose");
        teal_transform got;
        ck_assert_int_eq(teal_plant_get_default_free_body_pose(sc.p, bodies[i], &got), TEAL_OK);
        assert_pose(got, want[i], 0.0, "get_default_free_body_pose");
      }
      int j1 = sc.tree_joint[1];
      double x[128];
      int nq = teal_plant_nq(sc.p);
      ck_assert_int_eq(teal_plant_get_positions(sc.p, ctx, x, nq), TEAL_OK);
      ck_assert_double_eq(x[teal_plant_joint_q_start(sc.p, j1)], 0.0);
      ck_assert_int_eq(teal_plant_set_free_body_pose(sc.p, ctx, sc.fb, ts_mb_rand_pose(&s, 1)),
                       TEAL_OK);
      ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
    }
    teal_transform none;
    ck_assert_int_eq(teal_plant_get_default_free_body_pose(sc.p, sc.tree[2], &none), TEAL_OK);
    assert_pose(none, teal_transform_identity(), 0.0, "unset default");
    check_default_pose_after_finalize(&sc, ctx, bodies, want, &s);
    teal_context_free(ctx);
    teal_plant_free(sc.p);
  }
}
END_TEST

START_TEST(free_body_pose_in_anchored_frame) {
  scene sc;
  build(&sc, 0.0, 31u);
  teal_context *ctx = finalize(&sc);
  unsigned s = 9u;
  /* a random state first: A's pose must not depend on q */
  double q[128];
  int nq = teal_plant_nq(sc.p);
  ts_mb_rand_vec(&s, q, nq, 1.0);
  teal_plant_normalize_q(sc.p, q);
  ck_assert_int_eq(teal_plant_set_positions(sc.p, ctx, q, nq), TEAL_OK);
  int targets[2] = {sc.fb, sc.ef};
  for (int i = 0; i < 2; i++) {
    teal_transform X_FB = ts_mb_rand_pose(&s, 1.0);
    ck_assert_int_eq(
        teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, sc.frame_A, targets[i], X_FB),
        TEAL_OK);
    assert_pose(poses(&sc, ctx)[targets[i]], teal_transform_compose(sc.X_WA, X_FB), 1e-12,
                "X_WB = X_WA X_AB");
    /* the world frame is anchored too: X_WB = X_FB */
    ck_assert_int_eq(teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, TEAL_WORLD_FRAME,
                                                                     targets[i], X_FB),
                     TEAL_OK);
    assert_pose(poses(&sc, ctx)[targets[i]], X_FB, 1e-12, "in the world frame");
  }
  /* errors: a frame behind a non-weld joint, unknown frame, non-free body,
   * NaN, a reflection, no context */
  teal_transform X = teal_transform_identity();
  int F_b1 = teal_plant_body_frame(sc.p, sc.tree[1]);
  ck_assert_int_eq(teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, F_b1, sc.fb, X),
                   TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "not anchored"));
  ck_assert_int_eq(teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, 9999, sc.fb, X),
                   TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, -1, sc.fb, X),
                   TEAL_ENOTFOUND);
  ck_assert_int_eq(
      teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, sc.frame_A, sc.tree[1], X),
      TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, sc.frame_A, sc.w1, X),
                   TEAL_EINVAL);
  teal_transform bad = X;
  bad.p.v[1] = NAN;
  ck_assert_int_eq(
      teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, sc.frame_A, sc.fb, bad),
      TEAL_ENONFINITE);
  bad = X;
  bad.R.m[0] = -1.0; /* a reflection */
  ck_assert_int_eq(
      teal_plant_set_free_body_pose_in_anchored_frame(sc.p, ctx, sc.frame_A, sc.fb, bad),
      TEAL_EINVAL);
  ck_assert_int_eq(
      teal_plant_set_free_body_pose_in_anchored_frame(sc.p, NULL, sc.frame_A, sc.fb, X),
      TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_free_body_pose_in_anchored_frame(NULL, ctx, sc.frame_A, sc.fb, X),
                   TEAL_EINVAL);
  teal_context_free(ctx);
  teal_plant_free(sc.p);
}
END_TEST

/* The distributions: fb position in a box and uniform rotation, ef position
 * only, the implicit base b0 rotation only (with a default pose). */
static const double kLo[3] = {-1.0, 0.5, 2.0}, kHi[3] = {1.0, 0.75, 5.0};

static void set_distributions(scene *sc) {
  teal_vec3 lo = teal_vec3_make(kLo[0], kLo[1], kLo[2]);
  teal_vec3 hi = teal_vec3_make(kHi[0], kHi[1], kHi[2]);
  ck_assert_int_eq(teal_plant_set_free_body_random_position_distribution(sc->p, sc->fb, lo, hi),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_random_rotation_distribution_to_uniform(sc->p, sc->fb),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_random_position_distribution(sc->p, sc->ef, lo, hi),
                   TEAL_OK);
  ck_assert_int_eq(
      teal_plant_set_free_body_random_rotation_distribution_to_uniform(sc->p, sc->tree[0]),
      TEAL_OK);
}

static void random_state(scene *sc, teal_context *ctx, uint64_t seed, double *x, int nx) {
  teal_rng rng;
  teal_rng_seed(&rng, seed);
  ck_assert_int_eq(teal_plant_set_random_state(sc->p, ctx, &rng), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state(sc->p, ctx, x, nx), TEAL_OK);
}

START_TEST(random_state_seeded_bounded_uniform) {
  scene sc;
  build(&sc, 0.0, 41u);
  unsigned s = 17u;
  teal_transform X_b0 = ts_mb_rand_pose(&s, 1.0), X_ef = ts_mb_rand_pose(&s, 1.0);
  ck_assert_int_eq(teal_plant_set_default_free_body_pose(sc.p, sc.tree[0], X_b0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_default_free_body_pose(sc.p, sc.ef, X_ef), TEAL_OK);
  teal_context *ctx = finalize(&sc);
  set_distributions(&sc);
  int nq = teal_plant_nq(sc.p), nx = nq + teal_plant_nv(sc.p);
  double x0[128], x1[128], x2[128], x3[128];
  ck_assert_int_eq(teal_plant_get_state(sc.p, ctx, x0, nx), TEAL_OK); /* the defaults */
  random_state(&sc, ctx, 42u, x1, nx);
  random_state(&sc, ctx, 42u, x2, nx);
  random_state(&sc, ctx, 43u, x3, nx);
  int differ = 0;
  for (int i = 0; i < nx; i++) {
    ck_assert_double_eq(x1[i], x2[i]); /* reproducible */
    differ += x1[i] != x3[i];
  }
  ck_assert_int_gt(differ, 0);
  /* joints that are not free bodies' keep their defaults; v = 0 */
  for (int i = 1; i < TREE_N; i++) {
    int j = sc.tree_joint[i], q0 = j >= 0 ? teal_plant_joint_q_start(sc.p, j) : 0;
    int n = j >= 0 ? teal_joint_type_get((teal_joint_kind)teal_plant_joint_kind(sc.p, j))->nq : 0;
    for (int k = 0; k < n; k++) {
      ck_assert_double_eq(x1[q0 + k], x0[q0 + k]);
    }
  }
  for (int i = nq; i < nx; i++) {
    ck_assert_double_eq(x1[i], 0.0);
  }
  /* moments over many draws */
  enum { N = 4000 };
  double mR[9] = {0}, mR2[9] = {0}, mp[3] = {0};
  for (int n = 0; n < N; n++) {
    teal_rng rng;
    teal_rng_seed(&rng, 1000u + (uint64_t)n);
    ck_assert_int_eq(teal_plant_set_random_state(sc.p, ctx, &rng), TEAL_OK);
    const teal_transform *X = poses(&sc, ctx);
    teal_transform fb = X[sc.fb];
    for (int i = 0; i < 3; i++) {
      ck_assert(fb.p.v[i] >= kLo[i] - 1e-12 && fb.p.v[i] <= kHi[i] + 1e-12);
      ck_assert(X[sc.ef].p.v[i] >= kLo[i] - 1e-12 && X[sc.ef].p.v[i] <= kHi[i] + 1e-12);
      mp[i] += fb.p.v[i] / N;
    }
    for (int i = 0; i < 9; i++) {
      mR[i] += fb.R.m[i] / N;
      mR2[i] += fb.R.m[i] * fb.R.m[i] / N;
    }
    /* the other parts of the poses keep their defaults */
    assert_pose(teal_transform_make(X[sc.ef].R, X_ef.p), X_ef, 1e-12, "ef rotation");
    assert_pose(teal_transform_make(X_b0.R, X[sc.tree[0]].p), X_b0, 1e-12, "b0 position");
  }
  /* 5 standard deviations: Var R_ij = 1/3, Var R_ij^2 = 1/5 - 1/9 */
  double sR = 5.0 * sqrt(1.0 / 3.0 / N), sR2 = 5.0 * sqrt((1.0 / 5.0 - 1.0 / 9.0) / N);
  for (int i = 0; i < 9; i++) {
    ck_assert_msg(fabs(mR[i]) < sR, "E[R%d] = %g", i, mR[i]);
    ck_assert_msg(fabs(mR2[i] - 1.0 / 3.0) < sR2, "E[R%d^2] = %g", i, mR2[i]);
  }
  for (int i = 0; i < 3; i++) {
    double w = kHi[i] - kLo[i], sp = 5.0 * w / sqrt(12.0 * N);
    ck_assert_msg(fabs(mp[i] - 0.5 * (kLo[i] + kHi[i])) < sp, "E[p%d] = %g", i, mp[i]);
  }
  ck_assert_int_eq(teal_plant_set_random_state(sc.p, ctx, NULL), TEAL_EINVAL);
  teal_rng rng;
  teal_rng_seed(&rng, 1u);
  ck_assert_int_eq(teal_plant_set_random_state(sc.p, NULL, &rng), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_random_state(NULL, ctx, &rng), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_plant_free(sc.p);
}
END_TEST

/* The free bodies by brute force from the public per-body queries. */
static int brute_free_bodies(const teal_plant *p, int *out) {
  int n = 0;
  for (int b = 1; b < teal_plant_num_bodies(p); b++) {
    int j = teal_plant_body_joint(p, b);
    int kind = j >= 0 ? teal_plant_joint_kind(p, j) : -1;
    if ((kind == TEAL_JOINT_QUATERNION_FLOATING || kind == TEAL_JOINT_RPY_FLOATING) &&
        teal_plant_body_node(p, b) >= 0 &&
        teal_plant_get_tree(p)->parent[teal_plant_body_node(p, b)] == 0) {
      out[n++] = b;
    }
  }
  return n;
}

START_TEST(floating_base_queries) {
  scene sc;
  build(&sc, 0.0, 51u);
  int count = -1, got[64];
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(sc.p, got, 64, &count), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(sc.p, sc.inst_free), TEAL_ESTATE);
  teal_context *ctx = finalize(&sc);
  int want[64], nw = brute_free_bodies(sc.p, want);
  ck_assert_int_eq(nw, 4); /* b0 (implicit), b11 (rpy), fb (implicit), ef (explicit) */
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(sc.p, got, 64, &count), TEAL_OK);
  ck_assert_int_eq(count, nw);
  for (int i = 0; i < nw; i++) {
    ck_assert_int_eq(got[i], want[i]);
  }
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(sc.p, NULL, 0, &count), TEAL_ESIZE);
  ck_assert_int_eq(count, nw);
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(sc.p, got, 2, &count), TEAL_ESIZE);
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(sc.p, got, 64, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(sc.p, NULL, 3, &count), TEAL_EINVAL);
  /* "loose": one base body, free; "welded": one base body (w1), welded;
   * default: b0, b7 (ball from the world) and ef are base bodies */
  int body = -1;
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(sc.p, sc.inst_free), 1);
  ck_assert_int_eq(teal_plant_get_unique_free_base_body(sc.p, sc.inst_free, &body), TEAL_OK);
  ck_assert_int_eq(body, sc.fb);
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(sc.p, sc.inst_weld), 0);
  ck_assert_int_eq(teal_plant_get_unique_free_base_body(sc.p, sc.inst_weld, &body), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(sc.p, TEAL_DEFAULT_MODEL_INSTANCE), 0);
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(sc.p, 0), 0); /* the world's */
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(sc.p, 99), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(sc.p, -1), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_has_unique_free_base_body(NULL, 0), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_unique_free_base_body(sc.p, sc.inst_free, NULL), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_plant_free(sc.p);
}
END_TEST

/* A fresh unfinalized scene per error case: model errors are sticky. */
static int joint_default_error(int case_id, const char **msg) {
  static scene sc;
  build(&sc, 0.0, 61u);
  int jrev = sc.tree_joint[1], jball = sc.tree_joint[2];
  double q[7] = {0.1, 0, 0, 0, 0, 0, 0}, zero4[4] = {0};
  int rc = TEAL_OK;
  switch (case_id) {
    case 0:
      rc = teal_plant_set_joint_default_positions(sc.p, jrev, q, 2);
      break;
    case 1:
      q[0] = NAN;
      rc = teal_plant_set_joint_default_positions(sc.p, jrev, q, 1);
      break;
    case 2:
      rc = teal_plant_set_joint_default_positions(sc.p, jball, zero4, 4);
      break;
    case 3:
      rc = teal_plant_set_joint_default_positions(sc.p, 9999, q, 1);
      break;
    case 4:
      rc = teal_plant_set_joint_default_positions(sc.p, jrev, NULL, 1);
      break;
    case 5:
      teal_plant_finalize(sc.p);
      rc = teal_plant_set_joint_default_positions(sc.p, jrev, q, 1);
      break;
    case 6:
      rc = teal_plant_set_default_free_body_pose(sc.p, 0, teal_transform_identity());
      break;
    default: {
      teal_transform X = teal_transform_identity();
      X.R.m[4] = 2.0; /* not orthonormal */
      rc = teal_plant_set_default_free_body_pose(sc.p, sc.fb, X);
    }
  }
  *msg = teal_plant_error(sc.p)->message;
  static char copy[512];
  snprintf(copy, sizeof copy, "%s", *msg);
  *msg = copy;
  teal_plant_free(sc.p);
  return rc;
}

START_TEST(default_setter_errors) {
  const int want[8] = {TEAL_ESIZE,  TEAL_ENONFINITE, TEAL_EINVAL,    TEAL_ENOTFOUND,
                       TEAL_EINVAL, TEAL_ESTATE,     TEAL_ENOTFOUND, TEAL_EINVAL};
  for (int c = 0; c < 8; c++) {
    const char *msg;
    ck_assert_int_eq(joint_default_error(c, &msg), want[c]);
    ck_assert_msg(strstr(msg, c < 6 ? "set_joint_default_positions" : "default_free_body_pose") ||
                      (c == 5 && strstr(msg, "after finalize")),
                  "case %d: %s", c, msg);
  }
  /* getters */
  scene sc;
  build(&sc, 0.0, 62u);
  double q[7];
  teal_transform X;
  ck_assert_int_eq(teal_plant_get_joint_default_positions(sc.p, sc.tree_joint[1], q, 3),
                   TEAL_ESIZE);
  ck_assert_int_eq(teal_plant_get_joint_default_positions(sc.p, -1, q, 1), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_get_joint_default_positions(NULL, 0, q, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_default_free_body_pose(sc.p, 0, &X), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_get_default_free_body_pose(sc.p, sc.fb, NULL), TEAL_EINVAL);
  /* distributions need a finalized plant and a free body */
  teal_vec3 lo = teal_vec3_make(0, 0, 0), hi = teal_vec3_make(1, 1, 1);
  ck_assert_int_eq(teal_plant_set_free_body_random_position_distribution(sc.p, sc.fb, lo, hi),
                   TEAL_ESTATE);
  teal_plant_free(sc.p);
  const int codes[4] = {TEAL_EINVAL, TEAL_EINVAL, TEAL_ENONFINITE, TEAL_EINVAL};
  for (int c = 0; c < 4; c++) {
    build(&sc, 0.0, 63u);
    teal_context *ctx = finalize(&sc);
    teal_vec3 l = lo, h = hi;
    int body = sc.fb, rc;
    if (c == 0) {
      body = sc.tree[1];
    } else if (c == 1) {
      l.v[2] = 2.0;
    } else if (c == 2) {
      h.v[0] = INFINITY;
    }
    if (c == 3) {
      rc = teal_plant_set_free_body_random_rotation_distribution_to_uniform(sc.p, sc.w1);
    } else {
      rc = teal_plant_set_free_body_random_position_distribution(sc.p, body, l, h);
    }
    ck_assert_int_eq(rc, codes[c]);
    ck_assert_ptr_nonnull(strstr(teal_plant_error(sc.p)->message, "random"));
    teal_context_free(ctx);
    teal_plant_free(sc.p);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_defaults");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, joint_default_positions_continuous_and_discrete);
  tcase_add_test(tc, default_free_body_poses);
  tcase_add_test(tc, free_body_pose_in_anchored_frame);
  tcase_add_test(tc, random_state_seeded_bounded_uniform);
  tcase_add_test(tc, floating_base_queries);
  tcase_add_test(tc, default_setter_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
