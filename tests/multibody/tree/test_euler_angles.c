/* Quaternions or roll-pitch-yaw angles (multibody/tree/euler_angles.h) on
 * twin plants: the fixtures' "tree" topology (every joint kind, two of them
 * already roll-pitch-yaw) plus a free body with a default pose and a ball
 * joint with a default position, built once with quaternions and once with
 * teal_plant_set_use_euler_angles. References: the joint kinds and sizes
 * counted by hand; body poses and velocities computed by each twin from its
 * own state (converted); rotations compared as matrices (a quaternion's
 * sign may flip); a free body simulated in both forms from converted
 * states; every bad input checked for its code and message. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/context.h"
#include "math/rotation.h"
#include "multibody/plant/plant_defaults.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/euler_angles.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrators_explicit.h"
#include "systems/analysis/simulator.h"
#include "systems/analysis/simulator_run.h"
#include "systems/analysis/simulator_settings.h"

#define MAXX 160

/* Indices of the extra parts of a twin. */
typedef struct twin {
  teal_plant *p;
  int free_body, ball_joint;
} twin;

static const ts_mb_topology *tree_topology(void) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    if (strcmp(ts_mb_topologies[t].name, "tree") == 0) {
      return &ts_mb_topologies[t];
    }
  }
  ck_abort_msg("no tree topology");
  return NULL;
}

static const teal_transform kFreePose = {{{0.36, -0.48, 0.8, 0.8, 0.6, 0.0, -0.48, 0.64, 0.6}},
                                         {{0.1, -0.2, 0.3}}};

/* The unfinalized twin (the same random draws for either setting). */
static twin build(int use_euler, int finalize) {
  const ts_mb_topology *top = tree_topology();
  twin w;
  unsigned s = 17u;
  int bodies[32];
  w.p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(w.p);
  if (use_euler) {
    ck_assert_int_eq(teal_plant_set_use_euler_angles(w.p, 1), TEAL_OK);
  }
  for (int i = 0; i < top->n; i++) {
    char name[16];
    snprintf(name, sizeof name, "b%d", i);
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    bodies[i] = teal_plant_add_rigid_body(w.p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  }
  for (int i = 0; i < top->n; i++) {
    int j = top->spec[i].parent == -2 ? -1 : ts_mb_add_random_joint(w.p, top->spec, bodies, i, &s);
    ck_assert_int_ge(j, -1);
    if (top->spec[i].kind == TEAL_JOINT_BALL && top->spec[i].parent >= 0) {
      w.ball_joint = j;
    }
  }
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(2.0, 0.3, 0.5, 0.7);
  w.free_body = teal_plant_add_rigid_body(w.p, "fb", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_set_default_free_body_pose(w.p, w.free_body, kFreePose), TEAL_OK);
  const double e[4] = {2.0, 0.4, -0.6, 0.2}; /* not normalized: the setter normalizes */
  ck_assert_int_eq(teal_plant_set_joint_default_positions(w.p, w.ball_joint, e, 4), TEAL_OK);
  if (finalize) {
    ck_assert_msg(teal_plant_finalize(w.p) == TEAL_OK, "%s", teal_plant_error(w.p)->message);
  }
  return w;
}

static int has_quaternion(int kind) {
  return kind == TEAL_JOINT_BALL || kind == TEAL_JOINT_QUATERNION_FLOATING;
}

START_TEST(setting_applies_at_finalize) {
  twin a = build(0, 1), b = build(1, 1);
  ck_assert_int_eq(teal_plant_get_use_euler_angles(a.p), 0);
  ck_assert_int_eq(teal_plant_get_use_euler_angles(b.p), 1);
  ck_assert_int_eq(teal_plant_get_use_euler_angles(NULL), TEAL_EINVAL);
  int nj = teal_plant_num_joints(a.p), nquat = 0;
  ck_assert_int_eq(teal_plant_num_joints(b.p), nj);
  for (int j = 0; j < nj; j++) {
    int ka = teal_plant_joint_kind(a.p, j), kb = teal_plant_joint_kind(b.p, j);
    ck_assert_str_eq(teal_plant_joint_name(a.p, j), teal_plant_joint_name(b.p, j));
    ck_assert_int_eq(kb, teal_joint_euler_kind((teal_joint_kind)ka));
    ck_assert(!has_quaternion(kb));
    nquat += has_quaternion(ka);
  }
  ck_assert_int_ge(nquat, 5); /* 2 free bases, 2 balls, the explicit floating joint */
  ck_assert_int_eq(teal_plant_num_quaternions_in_use(a.p, NULL), nquat);
  ck_assert_int_eq(teal_plant_num_quaternions_in_use(b.p, NULL), 0);
  ck_assert_int_eq(teal_plant_nq(a.p) - teal_plant_nq(b.p), nquat); /* 4 -> 3 per rotation */
  ck_assert_int_eq(teal_plant_nv(a.p), teal_plant_nv(b.p));
  /* the ball joint's default quaternion became angles of the same rotation */
  double e[4], rpy[3];
  ck_assert_int_eq(teal_plant_get_joint_default_positions(a.p, a.ball_joint, e, 4), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_joint_default_positions(b.p, b.ball_joint, rpy, 3), TEAL_OK);
  teal_rotation Ra = teal_rotation_from_quaternion(teal_quaternion_make(e[0], e[1], e[2], e[3]));
  teal_rotation Rb = teal_rotation_from_rpy(teal_vec3_make(rpy[0], rpy[1], rpy[2]));
  ck_assert_double_le(teal_mat3_max_abs_diff(Ra, Rb), 1e-15);
  /* default contexts: the same body poses (defaults and free body pose) */
  teal_context *ca = teal_context_new(teal_plant_system(a.p), NULL);
  teal_context *cb = teal_context_new(teal_plant_system(b.p), NULL);
  const teal_transform *Xa, *Xb;
  ck_assert_int_eq(teal_plant_eval_body_poses(a.p, ca, &Xa), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_poses(b.p, cb, &Xb), TEAL_OK);
  for (int k = 0; k < teal_plant_num_bodies(a.p); k++) {
    ck_assert_double_le(teal_mat3_max_abs_diff(Xa[k].R, Xb[k].R), 1e-14);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(Xa[k].p, Xb[k].p)), 1e-14);
  }
  ck_assert_double_le(teal_mat3_max_abs_diff(Xb[b.free_body].R, kFreePose.R), 1e-15);
  /* the same floating bases in both forms: b0 and fb (implicit) and b11 */
  int count = 0, ga[8], gb[8];
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(a.p, ga, 8, &count), TEAL_OK);
  ck_assert_int_eq(count, 3);
  ck_assert_int_eq(teal_plant_get_floating_base_bodies(b.p, gb, 8, &count), TEAL_OK);
  ck_assert_int_eq(count, 3);
  ck_assert_int_eq(memcmp(ga, gb, 3 * sizeof(int)), 0);
  teal_context_free(ca);
  teal_context_free(cb);
  teal_plant_free(a.p);
  teal_plant_free(b.p);
}
END_TEST

START_TEST(quaternion_queries) {
  twin a = build(0, 1), b = build(1, 1);
  const teal_plant_tree *t = teal_plant_get_tree(a.p);
  int next = 0, last_q = -1;
  for (int k = 1; k < t->num_nodes; k++) {
    int body = teal_plant_node_body(a.p, k), index = -7;
    int quat = has_quaternion(t->joint_kind[k]);
    ck_assert_int_eq(teal_plant_is_using_quaternion(a.p, body, NULL), quat);
    ck_assert_int_eq(teal_plant_is_using_quaternion(b.p, body, NULL), 0);
    ck_assert_int_eq(teal_plant_quaternion_pool_index(a.p, body, &index, NULL), TEAL_OK);
    ck_assert_int_eq(index, quat ? next : -1);
    if (quat) {
      ck_assert_int_gt(t->q_start[k], last_q); /* pool order is q order */
      last_q = t->q_start[k];
      next++;
    }
    ck_assert_int_eq(teal_plant_quaternion_pool_index(b.p, body, &index, NULL), TEAL_OK);
    ck_assert_int_eq(index, -1);
  }
  ck_assert_int_eq(next, teal_plant_num_quaternions_in_use(a.p, NULL));
  int index = 5;
  ck_assert_int_eq(teal_plant_is_using_quaternion(a.p, TEAL_WORLD_BODY, NULL), 0);
  ck_assert_int_eq(teal_plant_quaternion_pool_index(a.p, TEAL_WORLD_BODY, &index, NULL), TEAL_OK);
  ck_assert_int_eq(index, -1);
  /* bad input */
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_is_using_quaternion(a.p, 99, &err), TEAL_ENOTFOUND, &err,
                  "unknown body 99");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_quaternion_pool_index(a.p, -1, &index, &err), TEAL_ENOTFOUND, &err,
                  "unknown body -1");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_quaternion_pool_index(a.p, 1, NULL, &err), TEAL_EINVAL, &err,
                  "index is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_num_quaternions_in_use(NULL, &err), TEAL_EINVAL, &err, "NULL plant");
  twin open = build(1, 0);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_num_quaternions_in_use(open.p, &err), TEAL_ESTATE, &err,
                  "not finalized");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_is_using_quaternion(open.p, 1, &err), TEAL_ESTATE, &err,
                  "is_using_quaternion");
  teal_plant_free(open.p);
  teal_plant_free(a.p);
  teal_plant_free(b.p);
}
END_TEST

/* Poses and velocities of every body from state x of plant p. */
static void kinematics(const teal_plant *p, const double *x, teal_transform *X,
                       teal_spatial_vector *V) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  const teal_transform *Xc;
  const teal_spatial_vector *Vc;
  int nb = teal_plant_num_bodies(p);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, teal_plant_nq(p) + teal_plant_nv(p)), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &Xc), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_velocities(p, ctx, &Vc), TEAL_OK);
  memcpy(X, Xc, (size_t)nb * sizeof *X);
  memcpy(V, Vc, (size_t)nb * sizeof *V);
  teal_context_free(ctx);
}

START_TEST(conversion_round_trip) {
  twin a = build(0, 1), b = build(1, 1);
  int na = teal_plant_nq(a.p) + teal_plant_nv(a.p), nb = teal_plant_nq(b.p) + teal_plant_nv(b.p);
  ck_assert_int_le(na, MAXX);
  double xa[MAXX], xb[MAXX], back[MAXX], copy[MAXX];
  unsigned s = 23u;
  ck_assert_int_eq(ts_mb_rand_state(a.p, &s, xa, xa + teal_plant_nq(a.p), 1.0), TEAL_OK);
  teal_error err = {0, ""};
  ck_assert_int_eq(teal_plant_convert_to_euler_angles(a.p, xa, na, b.p, xb, nb, &err), TEAL_OK);
  /* the same configuration and motion, computed by each twin */
  teal_transform Xa[32], Xb[32];
  teal_spatial_vector Va[32], Vb[32];
  kinematics(a.p, xa, Xa, Va);
  kinematics(b.p, xb, Xb, Vb);
  for (int k = 0; k < teal_plant_num_bodies(a.p); k++) {
    ck_assert_double_le(teal_mat3_max_abs_diff(Xa[k].R, Xb[k].R), 1e-13);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(Xa[k].p, Xb[k].p)), 1e-13);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(Va[k], Vb[k]), 1e-13);
  }
  /* and back: the same rotations (up to the quaternion's sign), the rest
   * identical */
  ck_assert_int_eq(teal_plant_convert_to_quaternions(b.p, xb, nb, a.p, back, na, &err), TEAL_OK);
  const teal_plant_tree *t = teal_plant_get_tree(a.p);
  for (int k = 1; k < t->num_nodes; k++) {
    const double *e = xa + t->q_start[k], *f = back + t->q_start[k];
    int off = has_quaternion(t->joint_kind[k]) ? 4 : 0;
    if (off) {
      teal_rotation Re =
          teal_rotation_from_quaternion(teal_quaternion_make(e[0], e[1], e[2], e[3]));
      teal_rotation Rf =
          teal_rotation_from_quaternion(teal_quaternion_make(f[0], f[1], f[2], f[3]));
      ck_assert_double_le(teal_mat3_max_abs_diff(Re, Rf), 1e-14);
      ck_assert_double_le(fabs(f[0] * f[0] + f[1] * f[1] + f[2] * f[2] + f[3] * f[3] - 1), 1e-15);
    }
    for (int i = off; i < t->nq[k]; i++) {
      ck_assert_double_eq(f[i], e[i]);
    }
  }
  for (int i = teal_plant_nq(a.p); i < na; i++) {
    ck_assert_double_eq(back[i], xa[i]);
  }
  /* a state that already has the target form is copied (Simbody's duplicate) */
  ck_assert_int_eq(teal_plant_convert_to_euler_angles(b.p, xb, nb, b.p, copy, nb, &err), TEAL_OK);
  ck_assert_int_eq(memcmp(copy, xb, (size_t)nb * sizeof(double)), 0);
  ck_assert_int_eq(teal_plant_convert_to_quaternions(a.p, xa, na, a.p, copy, na, &err), TEAL_OK);
  ck_assert_int_eq(memcmp(copy, xa, (size_t)na * sizeof(double)), 0);
  teal_plant_free(a.p);
  teal_plant_free(b.p);
}
END_TEST

START_TEST(conversion_errors) {
  twin a = build(0, 1), b = build(1, 1), open = build(0, 0);
  int na = teal_plant_nq(a.p) + teal_plant_nv(a.p), nb = teal_plant_nq(b.p) + teal_plant_nv(b.p);
  double xa[MAXX], xb[MAXX];
  unsigned s = 29u;
  ck_assert_int_eq(ts_mb_rand_state(a.p, &s, xa, xa + teal_plant_nq(a.p), 1.0), TEAL_OK);
  teal_error err;
  const char *fn = "convert_to_euler_angles";
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_euler_angles(a.p, xa, na - 1, b.p, xb, nb, &err),
                  TEAL_ESIZE, &err, "x_from has");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_euler_angles(a.p, xa, na, b.p, xb, na, &err), TEAL_ESIZE,
                  &err, fn);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_euler_angles(a.p, NULL, na, b.p, xb, nb, &err), TEAL_EINVAL,
                  &err, "x_from is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_quaternions(b.p, xb, nb, NULL, xa, na, &err), TEAL_EINVAL,
                  &err, "NULL plant");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_euler_angles(open.p, xa, na, b.p, xb, nb, &err),
                  TEAL_ESTATE, &err, "not finalized");
  /* the other direction */
  ck_assert_int_eq(teal_plant_convert_to_euler_angles(a.p, xa, na, b.p, xb, nb, NULL), TEAL_OK);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_euler_angles(b.p, xb, nb, a.p, xa, na, &err), TEAL_EINVAL,
                  &err, "teal_plant_convert_to_quaternions");
  /* a zero quaternion, a NaN */
  const teal_plant_tree *t = teal_plant_get_tree(a.p);
  int k = 1;
  while (!has_quaternion(t->joint_kind[k])) {
    k++;
  }
  double saved[4];
  memcpy(saved, xa + t->q_start[k], sizeof saved);
  memset(xa + t->q_start[k], 0, sizeof saved);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_euler_angles(a.p, xa, na, b.p, xb, nb, &err), TEAL_EINVAL,
                  &err, "cannot be normalized");
  memcpy(xa + t->q_start[k], saved, sizeof saved);
  xa[na - 1] = NAN;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_euler_angles(a.p, xa, na, b.p, xb, nb, &err),
                  TEAL_ENONFINITE, &err, "not finite");
  /* plants that are not twins */
  teal_plant *other = ts_mb_random_tree(ts_mb_topologies[0].spec, ts_mb_topologies[0].n, 3u, 1);
  int no = teal_plant_nq(other) + teal_plant_nv(other);
  double xo[MAXX];
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_convert_to_quaternions(b.p, xb, nb, other, xo, no, &err), TEAL_EINVAL,
                  &err, "not two forms of one model");
  teal_plant_free(other);
  teal_plant_free(open.p);
  teal_plant_free(a.p);
  teal_plant_free(b.p);
}
END_TEST

START_TEST(setting_after_finalize_is_refused) {
  twin a = build(0, 1);
  TS_EXPECT_ERROR(teal_plant_set_use_euler_angles(a.p, 1), TEAL_ESTATE, teal_plant_error(a.p),
                  "use_euler_angles");
  ck_assert_int_eq(teal_plant_get_use_euler_angles(a.p), 0);
  ck_assert_int_eq(teal_plant_set_use_euler_angles(NULL, 1), TEAL_EINVAL);
  teal_plant_free(a.p);
  /* the setting can be changed freely before finalize; the last one counts */
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_set_use_euler_angles(p, 7), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_use_euler_angles(p), 1);
  ck_assert_int_eq(teal_plant_set_use_euler_angles(p, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_use_euler_angles(p), 0);
  teal_plant_free(p);
}
END_TEST

/* A free box under gravity, with quaternions or angles. */
static teal_plant *free_box(int use_euler, int *body) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_plant_set_use_euler_angles(p, use_euler);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.5, 0.2, 0.5, 0.9);
  *body = teal_plant_add_rigid_body(p, "box", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static teal_simulator *rk4(teal_plant *p) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 1e-3), TEAL_OK);
  return sim;
}

START_TEST(free_body_same_trajectory_both_forms) {
  int bq, be;
  teal_plant *pq = free_box(0, &bq), *pe = free_box(1, &be);
  teal_simulator *sq = rk4(pq), *se = rk4(pe);
  teal_context *cq = teal_simulator_context(sq), *ce = teal_simulator_context(se);
  teal_transform X0 = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0.2, -0.3, 0.5)),
                                          teal_vec3_make(0.1, 0.2, 1.0));
  teal_spatial_vector V0 =
      teal_spatial_vector_make(teal_vec3_make(0.4, -0.3, 1.5), teal_vec3_make(0.5, 0.0, 2.0));
  ck_assert_int_eq(teal_plant_set_free_body_pose(pq, cq, bq, X0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(pq, cq, bq, V0), TEAL_OK);
  /* the angles' state converted from the quaternions' one, and as the
   * free-body setters make it */
  double xq[13], xe[12], xs[12];
  ck_assert_int_eq(teal_plant_get_state(pq, cq, xq, 13), TEAL_OK);
  ck_assert_int_eq(teal_plant_convert_to_euler_angles(pq, xq, 13, pe, xe, 12, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_pose(pe, ce, be, X0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(pe, ce, be, V0), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state(pe, ce, xs, 12), TEAL_OK);
  for (int i = 0; i < 12; i++) {
    ck_assert_double_eq_tol(xs[i], xe[i], 1e-15);
  }
  ck_assert_int_eq(teal_plant_set_state(pe, ce, xe, 12), TEAL_OK);
  teal_sim_status st;
  double worst = 0.0, min_cos = 1.0;
  for (int step = 1; step <= 10; step++) {
    double t = 0.1 * step;
    ck_assert_int_eq(teal_simulator_advance_to(sq, t, &st), TEAL_OK);
    if (step == 2) { /* no allocation once the run is going */
      ts_alloc_install();
      ts_alloc_reset();
    }
    ck_assert_int_eq(teal_simulator_advance_to(se, t, &st), TEAL_OK);
    const teal_transform *Xq, *Xe;
    ck_assert_int_eq(teal_plant_eval_body_poses(pq, cq, &Xq), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_body_poses(pe, ce, &Xe), TEAL_OK);
    worst = fmax(worst, teal_mat3_max_abs_diff(Xq[bq].R, Xe[be].R));
    worst = fmax(worst, teal_vec3_norm(teal_vec3_sub(Xq[bq].p, Xe[be].p)));
    ck_assert_int_eq(teal_plant_get_state(pe, ce, xe, 12), TEAL_OK);
    min_cos = fmin(min_cos, fabs(cos(xe[1])));
  }
  ck_assert_uint_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  ck_assert_double_gt(min_cos, 0.3); /* away from the gimbal lock throughout */
  ck_assert_double_le(worst, 1e-9);
  ts_report("free body: quaternion vs rpy pose difference %.3g over 1 s\n", worst);
  teal_simulator_free(sq);
  teal_simulator_free(se);
  teal_plant_free(pq);
  teal_plant_free(pe);
}
END_TEST

/* At the gimbal lock the angles still describe the rotation (only their
 * rates are singular): the conversions keep it both ways. */
START_TEST(conversion_at_the_lock) {
  int bq, be;
  teal_plant *pq = free_box(0, &bq), *pe = free_box(1, &be);
  teal_rotation R = teal_rotation_from_rpy(teal_vec3_make(0.3, 1.5707963267948966, -0.8));
  teal_transform X = teal_transform_make(R, teal_vec3_make(1, 2, 3));
  teal_context *cq = teal_context_new(teal_plant_system(pq), NULL);
  ck_assert_int_eq(teal_plant_set_free_body_pose(pq, cq, bq, X), TEAL_OK);
  double xq[13], xe[12], back[13];
  ck_assert_int_eq(teal_plant_get_state(pq, cq, xq, 13), TEAL_OK);
  ck_assert_int_eq(teal_plant_convert_to_euler_angles(pq, xq, 13, pe, xe, 12, NULL), TEAL_OK);
  teal_rotation Re = teal_rotation_from_rpy(teal_vec3_make(xe[0], xe[1], xe[2]));
  ck_assert_double_le(teal_mat3_max_abs_diff(Re, R), 1e-14);
  ck_assert_int_eq(teal_plant_convert_to_quaternions(pe, xe, 12, pq, back, 13, NULL), TEAL_OK);
  teal_rotation Rb =
      teal_rotation_from_quaternion(teal_quaternion_make(back[0], back[1], back[2], back[3]));
  ck_assert_double_le(teal_mat3_max_abs_diff(Rb, R), 1e-14);
  ck_assert_double_eq(back[4], 1.0);
  teal_context_free(cq);
  teal_plant_free(pq);
  teal_plant_free(pe);
}
END_TEST

#define THREE_LINKS XLINK("a") XLINK("b") XLINK("c")

/* A URDF model's floating and ball joints and its loose link follow the
 * setting too (the parser adds quaternion kinds; finalize converts them). */
START_TEST(urdf_joints_follow_the_setting) {
  const char *xml = "<robot name=\"r\" xmlns:drake=\"http://drake.mit.edu\">" THREE_LINKS
                    "<joint name=\"fj\" type=\"floating\"><parent link=\"world\"/>"
                    "<child link=\"a\"/></joint>"
                    "<drake:joint name=\"bj\" type=\"ball\"><parent link=\"a\"/>"
                    "<child link=\"b\"/></drake:joint></robot>";
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_set_use_euler_angles(p, 1), TEAL_OK);
  teal_error err;
  ck_assert_msg(teal_urdf_load_string(p, xml, NULL, &err) >= 0, "%s", err.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  int n_rpy_floating = 0, n_ball_rpy = 0;
  for (int j = 0; j < teal_plant_num_joints(p); j++) {
    n_rpy_floating += teal_plant_joint_kind(p, j) == TEAL_JOINT_RPY_FLOATING;
    n_ball_rpy += teal_plant_joint_kind(p, j) == TEAL_JOINT_BALL_RPY;
  }
  ck_assert_int_eq(n_rpy_floating, 2); /* fj and the loose link c's */
  ck_assert_int_eq(n_ball_rpy, 1);
  ck_assert_int_eq(teal_plant_nq(p), 15);
  ck_assert_int_eq(teal_plant_nv(p), 15);
  ck_assert_int_eq(teal_plant_num_quaternions_in_use(p, NULL), 0);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("euler_angles");
  TCase *tc = tcase_create("euler_angles");
  tcase_add_test(tc, setting_applies_at_finalize);
  tcase_add_test(tc, quaternion_queries);
  tcase_add_test(tc, conversion_round_trip);
  tcase_add_test(tc, conversion_errors);
  tcase_add_test(tc, setting_after_finalize_is_refused);
  tcase_add_test(tc, free_body_same_trajectory_both_forms);
  tcase_add_test(tc, conversion_at_the_lock);
  tcase_add_test(tc, urdf_joints_follow_the_setting);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
