/* Model instances of a plant (multibody/tree/model_instances.h and
 * multibody/plant/plant_instances.h): names, counts and element indices,
 * per-instance state access, gathering and scattering instance entries of
 * whole-plant arrays, writable state views and the
 * "<instance>_generalized_acceleration" ports, on a plant of two acrobots
 * (models/acrobot.urdf loaded twice) and a free body in a third instance,
 * continuous and discrete. Every result is checked against slices of the
 * whole-plant arrays taken by hand from the public per-body queries
 * (teal_plant_body_instance, teal_plant_body_joint, the joint's q and v
 * offsets), not from the maps the functions use. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "../parsing/urdf_models.h"
#include "framework/context.h"
#include "framework/system.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_instances.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/model_instances.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

#define MAXN 32

typedef struct scene {
  teal_plant *p;
  int a, b, fl; /* the acrobots' and the floater's instances */
  int box;      /* the free body */
} scene;

static teal_plant *scene_plant(scene *s, double time_step, int finalize) {
  char path[1024];
  urdf_test_model_path("acrobot.urdf", path, sizeof(path));
  teal_error e;
  s->p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(s->p);
  s->a = teal_urdf_load_file(s->p, path, "acrobot_a", &e);
  ck_assert_msg(s->a >= 0, "%s", e.message);
  s->fl = teal_plant_add_model_instance(s->p, "floater");
  s->b = teal_urdf_load_file(s->p, path, "acrobot_b", &e);
  ck_assert_msg(s->b >= 0, "%s", e.message);
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(2.0, teal_vec3_make(0.1, 0, 0), teal_mat3_diag(1, 2, 3));
  s->box = teal_plant_add_rigid_body(s->p, "box", s->fl, &M);
  ck_assert_int_ge(s->box, 0);
  if (finalize) {
    ck_assert_int_eq(teal_plant_finalize(s->p), TEAL_OK);
  }
  return s->p;
}

/* The instance's q (v) indices, by hand: the q (v) ranges of the inboard
 * joints of its bodies, in increasing order. Returns their number. */
static int ref_indices(const teal_plant *p, int inst, int velocities, int *idx) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int n = 0;
  for (int b = 1; b < teal_plant_num_bodies(p); b++) {
    if (teal_plant_body_instance(p, b) != inst) {
      continue;
    }
    int j = teal_plant_body_joint(p, b), k = teal_plant_body_node(p, b);
    int start = velocities ? teal_plant_joint_v_start(p, j) : teal_plant_joint_q_start(p, j);
    int count = velocities ? t->nv[k] : t->nq[k];
    for (int r = 0; r < count; r++) {
      idx[n++] = start + r;
    }
  }
  for (int i = 1; i < n; i++) { /* insertion sort */
    for (int k = i; k > 0 && idx[k - 1] > idx[k]; k--) {
      int tmp = idx[k];
      idx[k] = idx[k - 1];
      idx[k - 1] = tmp;
    }
  }
  return n;
}

/* A valid random q (unit quaternions) and v. */
static void random_state(const teal_plant *p, unsigned *seed, double *x) {
  int nx = teal_plant_nq(p) + teal_plant_nv(p);
  for (int i = 0; i < nx; i++) {
    x[i] = ts_rand_uniform(seed, -1, 1);
  }
  teal_plant_normalize_q(p, x);
}

START_TEST(names_counts_and_indices) {
  scene s;
  teal_plant *p = scene_plant(&s, 0.0, 0);
  teal_error e;
  /* before finalize: names and lists work, q/v/u counts need finalize */
  ck_assert_str_eq(teal_plant_get_model_instance_name(p, s.a, &e), "acrobot_a");
  ck_assert_int_eq(teal_plant_instance_nq(p, s.a, &e), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(e.message, "plant instance_nq"));
  ck_assert_int_eq(teal_plant_instance_num_joints(p, s.fl, &e), 0); /* no floating joint yet */
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  const char *names[] = {"WorldModelInstance", "DefaultModelInstance", "acrobot_a", "floater",
                         "acrobot_b"};
  int ni = teal_plant_num_model_instances(p);
  ck_assert_int_eq(ni, 5);
  int sum_q = 0, sum_v = 0, sum_u = 0;
  for (int i = 0; i < ni; i++) {
    ck_assert_str_eq(teal_plant_get_model_instance_name(p, i, &e), names[i]);
    ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, names[i], NULL), i);
    int idx[MAXN];
    int nq = teal_plant_instance_nq(p, i, &e), nv = teal_plant_instance_nv(p, i, &e);
    ck_assert_int_eq(nq, ref_indices(p, i, 0, idx));
    ck_assert_int_eq(nv, ref_indices(p, i, 1, idx));
    ck_assert_int_eq(teal_plant_instance_num_multibody_states(p, i, &e), nq + nv);
    sum_q += nq;
    sum_v += nv;
    sum_u += teal_plant_instance_nu(p, i, &e);
    /* element lists against a brute-force scan of the per-element queries */
    int got[MAXN], want[MAXN], n, m;
    n = teal_plant_get_body_indices(p, i, got, MAXN, &e);
    m = 0;
    for (int b = 0; b < teal_plant_num_bodies(p); b++) {
      if (teal_plant_body_instance(p, b) == i) {
        want[m++] = b;
      }
    }
    ck_assert_int_eq(n, m);
    ck_assert_int_eq(teal_plant_instance_num_bodies(p, i, &e), m);
    ck_assert_mem_eq(got, want, (size_t)m * sizeof(int));
    n = teal_plant_get_joint_indices(p, i, got, MAXN, &e);
    m = 0;
    for (int j = 0; j < teal_plant_num_joints(p); j++) {
      if (teal_plant_body_instance(p, teal_plant_joint_child_body(p, j)) == i) {
        want[m++] = j;
      }
    }
    ck_assert_int_eq(n, m);
    ck_assert_int_eq(teal_plant_instance_num_joints(p, i, &e), m);
    ck_assert_mem_eq(got, want, (size_t)m * sizeof(int));
    n = teal_plant_get_frame_indices(p, i, got, MAXN, &e);
    m = 0;
    for (int f = 0; f < teal_plant_num_frames(p); f++) {
      if (teal_plant_body_instance(p, teal_plant_frame_body(p, f)) == i) {
        want[m++] = f;
      }
    }
    ck_assert_int_eq(n, m);
    ck_assert_mem_eq(got, want, (size_t)m * sizeof(int));
    ck_assert_int_eq(teal_plant_get_frame_indices(p, i, NULL, 0, &e), m); /* size query */
  }
  ck_assert_int_eq(sum_q, teal_plant_nq(p));
  ck_assert_int_eq(sum_v, teal_plant_nv(p));
  ck_assert_int_eq(sum_u, teal_plant_nu(p));
  ck_assert_int_eq(teal_plant_instance_nq(p, s.fl, &e), 7);
  ck_assert_int_eq(teal_plant_instance_nv(p, s.fl, &e), 6);
  ck_assert_int_eq(teal_plant_instance_nq(p, TEAL_DEFAULT_MODEL_INSTANCE, &e), 0);
  ck_assert_int_eq(teal_plant_instance_nu(p, s.b, &e), 1);
  int act;
  ck_assert_int_eq(teal_plant_get_actuator_indices(p, s.b, &act, 1, &e), 1);
  ck_assert_int_eq(act, teal_plant_get_actuator_by_name(p, "elbow_motor", s.b, NULL));
  ck_assert_int_eq(teal_plant_get_actuator_indices(p, s.fl, NULL, 0, &e), 0);
  ck_assert_int_eq(teal_plant_get_body_indices(p, s.a, &act, 1, &e), TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(e.message, "plant get_body_indices"));
  teal_system_free(teal_plant_system(p));
}
END_TEST

/* Per-instance get/set in a context against hand slices of the whole
 * state, continuous (_i = 0) and discrete (_i = 1). */
START_TEST(instance_state_matches_slices) {
  scene s;
  teal_plant *p = scene_plant(&s, _i ? 1e-3 : 0.0, 1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  unsigned seed = 7;
  double x[MAXN], y[MAXN], xi[MAXN];
  random_state(p, &seed, x);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, nq + nv), TEAL_OK);
  for (int i = 0; i < teal_plant_num_model_instances(p); i++) {
    int qi[MAXN], vi[MAXN];
    int mq = ref_indices(p, i, 0, qi), mv = ref_indices(p, i, 1, vi);
    /* get: the slices */
    ck_assert_int_eq(teal_plant_get_instance_positions(p, ctx, i, xi, mq), TEAL_OK);
    for (int r = 0; r < mq; r++) {
      ck_assert_double_eq(xi[r], x[qi[r]]);
    }
    ck_assert_int_eq(teal_plant_get_instance_velocities(p, ctx, i, xi, mv), TEAL_OK);
    for (int r = 0; r < mv; r++) {
      ck_assert_double_eq(xi[r], x[nq + vi[r]]);
    }
    ck_assert_int_eq(teal_plant_get_instance_state(p, ctx, i, xi, mq + mv), TEAL_OK);
    const double *port;
    ck_assert_int_eq(teal_eval_vector_output(teal_plant_system(p), ctx,
                                             teal_plant_instance_state_output_port(p, i), &port),
                     TEAL_OK);
    for (int r = 0; r < mq + mv; r++) {
      ck_assert_double_eq(xi[r], r < mq ? x[qi[r]] : x[nq + vi[r - mq]]);
      ck_assert_double_eq(xi[r], port[r]);
    }
    /* set: new values land in the slices, the rest of the state stays */
    double z[MAXN];
    random_state(p, &seed, z);
    for (int r = 0; r < mq; r++) {
      xi[r] = z[qi[r]]; /* unit quaternions stay unit */
      x[qi[r]] = xi[r];
    }
    for (int r = 0; r < mv; r++) {
      xi[mq + r] = z[nq + vi[r]];
      x[nq + vi[r]] = xi[mq + r];
    }
    if (i % 2) {
      ck_assert_int_eq(teal_plant_set_instance_state(p, ctx, i, xi, mq + mv), TEAL_OK);
    } else {
      ck_assert_int_eq(teal_plant_set_instance_positions(p, ctx, i, xi, mq), TEAL_OK);
      ck_assert_int_eq(teal_plant_set_instance_velocities(p, ctx, i, xi + mq, mv), TEAL_OK);
    }
    ck_assert_int_eq(teal_plant_get_state(p, ctx, y, nq + nv), TEAL_OK);
    ck_assert_mem_eq(y, x, (size_t)(nq + nv) * sizeof(double));
    /* round trip */
    double back[MAXN];
    ck_assert_int_eq(teal_plant_get_instance_state(p, ctx, i, back, mq + mv), TEAL_OK);
    ck_assert_mem_eq(back, xi, (size_t)(mq + mv) * sizeof(double));
  }
  teal_context_free(ctx);
  teal_system_free(teal_plant_system(p));
}
END_TEST

/* Gather and scatter of q, v and u against hand slices. */
START_TEST(arrays_gather_and_scatter) {
  scene s;
  teal_plant *p = scene_plant(&s, 0.0, 1);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p), nu = teal_plant_nu(p);
  ck_assert_int_eq(nu, 2);
  unsigned seed = 11;
  teal_error e;
  for (int i = 0; i < teal_plant_num_model_instances(p); i++) {
    double q[MAXN], v[MAXN], u[2], xi[MAXN], q2[MAXN], v2[MAXN], u2[2];
    for (int r = 0; r < MAXN; r++) {
      q[r] = ts_rand_uniform(&seed, -5, 5);
      v[r] = ts_rand_uniform(&seed, -5, 5);
      q2[r] = q[r];
      v2[r] = v[r];
    }
    u[0] = u2[0] = 0.25;
    u[1] = u2[1] = -1.5;
    int qi[MAXN], vi[MAXN], ui[2];
    int mq = ref_indices(p, i, 0, qi), mv = ref_indices(p, i, 1, vi);
    int mu = 0;
    for (int a = 0; a < nu; a++) {
      if (teal_plant_get_actuator_by_name(p, "elbow_motor", i, NULL) == a) {
        ui[mu++] = a;
      }
    }
    ck_assert_int_eq(teal_plant_get_positions_from_array(p, i, q, nq, xi, mq, &e), TEAL_OK);
    for (int r = 0; r < mq; r++) {
      ck_assert_double_eq(xi[r], q[qi[r]]);
      xi[r] = 100 + r;
      q2[qi[r]] = 100 + r;
    }
    ck_assert_int_eq(teal_plant_set_positions_in_array(p, i, xi, mq, q, nq, &e), TEAL_OK);
    ck_assert_mem_eq(q, q2, sizeof(q));
    ck_assert_int_eq(teal_plant_get_velocities_from_array(p, i, v, nv, xi, mv, &e), TEAL_OK);
    for (int r = 0; r < mv; r++) {
      ck_assert_double_eq(xi[r], v[vi[r]]);
      xi[r] = -100 - r;
      v2[vi[r]] = -100 - r;
    }
    ck_assert_int_eq(teal_plant_set_velocities_in_array(p, i, xi, mv, v, nv, &e), TEAL_OK);
    ck_assert_mem_eq(v, v2, sizeof(v));
    ck_assert_int_eq(teal_plant_get_actuation_from_array(p, i, u, nu, xi, mu, &e), TEAL_OK);
    for (int r = 0; r < mu; r++) {
      ck_assert_double_eq(xi[r], u[ui[r]]);
      xi[r] = 7;
      u2[ui[r]] = 7;
    }
    ck_assert_int_eq(teal_plant_set_actuation_in_array(p, i, xi, mu, u, nu, &e), TEAL_OK);
    ck_assert_mem_eq(u, u2, sizeof(u));
  }
  teal_system_free(teal_plant_system(p));
}
END_TEST

/* Writable views: writes through them reach the state and the caches
 * (body poses) are recomputed, as after teal_plant_set_positions. */
START_TEST(mutable_views_write_the_state) {
  scene s;
  teal_plant *p = scene_plant(&s, _i ? 1e-3 : 0.0, 1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_context *ref = teal_context_new(teal_plant_system(p), NULL);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  unsigned seed = 3;
  double x[MAXN], y[MAXN];
  random_state(p, &seed, x);
  const teal_transform *X, *Xr;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK); /* cache at defaults */
  double *q, *v, *all;
  ck_assert_int_eq(teal_plant_get_mutable_positions(p, ctx, &q), TEAL_OK);
  memcpy(q, x, (size_t)nq * sizeof(double));
  ck_assert_int_eq(teal_plant_get_mutable_velocities(p, ctx, &v), TEAL_OK);
  memcpy(v, x + nq, (size_t)nv * sizeof(double));
  ck_assert_int_eq(teal_plant_get_state(p, ctx, y, nq + nv), TEAL_OK);
  ck_assert_mem_eq(y, x, (size_t)(nq + nv) * sizeof(double));
  ck_assert_int_eq(teal_plant_set_state(p, ref, x, nq + nv), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ref, &Xr), TEAL_OK);
  for (int b = 0; b < teal_plant_num_bodies(p); b++) {
    ck_assert_mem_eq(&X[b], &Xr[b], sizeof(teal_transform));
  }
  ck_assert_int_eq(teal_plant_get_mutable_state(p, ctx, &all), TEAL_OK);
  ck_assert_ptr_eq(all, q);
  all[nq + nv - 1] = 42.0; /* the last velocity */
  ck_assert_int_eq(teal_plant_get_state(p, ctx, y, nq + nv), TEAL_OK);
  ck_assert_double_eq(y[nq + nv - 1], 42.0);
  teal_context_free(ref);
  teal_context_free(ctx);
  teal_system_free(teal_plant_system(p));
}
END_TEST

/* "<instance>_generalized_acceleration": names, sizes, and values equal to
 * slices of "generalized_acceleration"; the actuation scattered by
 * teal_plant_get_actuation_from_array into the per-instance actuation
 * ports gives the same accelerations as the whole-plant port. */
START_TEST(instance_acceleration_ports) {
  scene s;
  teal_plant *p = scene_plant(&s, _i ? 1e-3 : 0.0, 1);
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  teal_context *per = teal_context_new(sys, NULL);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p), nu = teal_plant_nu(p);
  unsigned seed = 5;
  double x[MAXN], u[2] = {0.7, -1.3};
  random_state(p, &seed, x);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, nq + nv), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_state(p, per, x, nq + nv), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), u, nu), TEAL_OK);
  teal_error e;
  for (int i = 0; i < teal_plant_num_model_instances(p); i++) {
    double ui[2];
    int mu = teal_plant_instance_nu(p, i, &e);
    ck_assert_int_eq(teal_plant_get_actuation_from_array(p, i, u, nu, ui, mu, &e), TEAL_OK);
    ck_assert_int_eq(
        teal_context_fix_input(per, teal_plant_instance_actuation_input_port(p, i), ui, mu),
        TEAL_OK);
  }
  const double *vdot, *vdot_per, *vi;
  ck_assert_int_eq(
      teal_eval_vector_output(sys, ctx, teal_plant_generalized_acceleration_output_port(p), &vdot),
      TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(
                       sys, per, teal_plant_generalized_acceleration_output_port(p), &vdot_per),
                   TEAL_OK);
  for (int r = 0; r < nv; r++) {
    ck_assert_double_eq_tol(vdot_per[r], vdot[r], 1e-12 * (1 + fabs(vdot[r])));
  }
  for (int i = 0; i < teal_plant_num_model_instances(p); i++) {
    int port = teal_plant_instance_generalized_acceleration_output_port(p, i);
    ck_assert_int_ge(port, 0);
    char name[64];
    snprintf(name, sizeof(name), "%s_generalized_acceleration",
             teal_plant_get_model_instance_name(p, i, NULL));
    const teal_output_port *op = teal_system_output_port(sys, port);
    ck_assert_ptr_eq(teal_system_output_port_by_name(sys, name), op);
    int idx[MAXN];
    int mv = ref_indices(p, i, 1, idx);
    ck_assert_int_eq(teal_output_port_size(op), mv);
    ck_assert_int_eq(teal_eval_vector_output(sys, ctx, port, &vi), TEAL_OK);
    for (int r = 0; r < mv; r++) {
      ck_assert_double_eq(vi[r], vdot[idx[r]]);
    }
  }
  ck_assert_int_eq(teal_plant_instance_generalized_acceleration_output_port(p, 5), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_instance_generalized_acceleration_output_port(p, -1), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_instance_generalized_acceleration_output_port(NULL, 0), TEAL_EINVAL);
  teal_context_free(per);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* code, and the message on ctx names fn */
static void expect_ctx_error(const teal_context *ctx, int rc, int code, const char *fn) {
  ck_assert_int_eq(rc, code);
  ck_assert_int_eq(teal_context_error(ctx)->code, code);
  ck_assert_msg(strstr(teal_context_error(ctx)->message, fn), "message \"%s\" lacks \"%s\"",
                teal_context_error(ctx)->message, fn);
}

START_TEST(bad_context_calls) {
  scene s;
  teal_plant *p = scene_plant(&s, 0.0, 1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  double x0[MAXN], y[MAXN], buf[MAXN] = {0}, *ptr;
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x0, nq + nv), TEAL_OK);
  const char *fn = "plant set_instance_positions";
  expect_ctx_error(ctx, teal_plant_set_instance_positions(p, ctx, 5, buf, 2), TEAL_ENOTFOUND, fn);
  expect_ctx_error(ctx, teal_plant_set_instance_positions(p, ctx, -1, buf, 2), TEAL_ENOTFOUND, fn);
  expect_ctx_error(ctx, teal_plant_set_instance_positions(p, ctx, s.a, buf, 3), TEAL_ESIZE, fn);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "acrobot_a"));
  expect_ctx_error(ctx, teal_plant_set_instance_positions(p, ctx, s.a, NULL, 2), TEAL_EINVAL, fn);
  expect_ctx_error(ctx, teal_plant_set_instance_positions(NULL, ctx, s.a, buf, 2), TEAL_EINVAL, fn);
  ck_assert_int_eq(teal_plant_set_instance_positions(p, NULL, s.a, buf, 2), TEAL_EINVAL);
  /* a zero quaternion for the free body, and NaN */
  expect_ctx_error(ctx, teal_plant_set_instance_positions(p, ctx, s.fl, buf, 7), TEAL_EINVAL, fn);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "quaternion"));
  double bad[13] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NAN};
  expect_ctx_error(ctx, teal_plant_set_instance_state(p, ctx, s.fl, bad, 13), TEAL_ENONFINITE,
                   "plant set_instance_state");
  expect_ctx_error(ctx, teal_plant_set_instance_velocities(p, ctx, s.b, bad + 11, 2),
                   TEAL_ENONFINITE, "plant set_instance_velocities");
  /* nothing was written */
  ck_assert_int_eq(teal_plant_get_state(p, ctx, y, nq + nv), TEAL_OK);
  ck_assert_mem_eq(y, x0, (size_t)(nq + nv) * sizeof(double));
  expect_ctx_error(ctx, teal_plant_get_instance_velocities(p, ctx, s.b, buf, 1), TEAL_ESIZE,
                   "plant get_instance_velocities");
  expect_ctx_error(ctx, teal_plant_get_instance_state(p, ctx, 9, buf, 4), TEAL_ENOTFOUND,
                   "plant get_instance_state");
  expect_ctx_error(ctx, teal_plant_get_instance_positions(p, ctx, s.a, NULL, 2), TEAL_EINVAL,
                   "plant get_instance_positions");
  expect_ctx_error(ctx, teal_plant_get_mutable_state(p, ctx, NULL), TEAL_EINVAL,
                   "plant get_mutable_state");
  /* a context of another system */
  scene s2;
  teal_plant *p2 = scene_plant(&s2, 0.0, 1);
  expect_ctx_error(ctx, teal_plant_get_mutable_positions(p2, ctx, &ptr), TEAL_EINVAL,
                   "plant get_mutable_positions");
  teal_system_free(teal_plant_system(p2));
  /* an unfinalized plant */
  teal_plant *open = scene_plant(&s2, 0.0, 0);
  expect_ctx_error(ctx, teal_plant_get_instance_positions(open, ctx, 2, buf, 2), TEAL_ESTATE,
                   "plant get_instance_positions");
  ck_assert_int_eq(teal_plant_instance_generalized_acceleration_output_port(open, 2), TEAL_ESTATE);
  teal_plant_free(open);
  teal_context_free(ctx);
  teal_system_free(teal_plant_system(p));
}
END_TEST

START_TEST(bad_array_and_query_calls) {
  scene s;
  teal_plant *p = scene_plant(&s, 0.0, 1);
  int nq = teal_plant_nq(p), nu = teal_plant_nu(p);
  double q[MAXN] = {0}, qi[2] = {1, 2}, u[2] = {3, 4}, ui[1] = {NAN};
  teal_error e;
  const char *fn = "plant set_positions_in_array";
  ck_assert_int_eq(teal_plant_set_positions_in_array(p, 7, qi, 2, q, nq, &e), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(e.message, fn));
  ck_assert_int_eq(teal_plant_set_positions_in_array(p, s.a, qi, 2, q, nq - 1, &e), TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(e.message, fn));
  ck_assert_int_eq(teal_plant_set_positions_in_array(p, s.a, qi, 1, q, nq, &e), TEAL_ESIZE);
  ck_assert_int_eq(teal_plant_set_positions_in_array(p, s.a, NULL, 2, q, nq, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_positions_in_array(p, s.a, qi, 2, NULL, nq, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_positions_in_array(NULL, s.a, qi, 2, q, nq, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_positions_in_array(p, s.a, qi, 2, q, nq, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_actuation_in_array(p, s.a, ui, 1, u, nu, &e), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e.message, "plant set_actuation_in_array"));
  ck_assert_double_eq(u[0], 3); /* untouched */
  u[1] = INFINITY;
  ck_assert_int_eq(teal_plant_get_actuation_from_array(p, s.b, u, nu, ui, 1, &e), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_plant_get_actuation_from_array(p, s.a, u, nu, ui, 1, &e), TEAL_OK);
  ck_assert_double_eq(ui[0], 3); /* the other instance's infinity is not read */
  ck_assert_int_eq(teal_plant_get_velocities_from_array(p, s.fl, q, 5, q, 6, &e), TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(e.message, "plant get_velocities_from_array"));
  /* queries */
  ck_assert_ptr_null(teal_plant_get_model_instance_name(p, 5, &e));
  ck_assert_int_eq(e.code, TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(e.message, "plant get_model_instance_name"));
  ck_assert_ptr_null(teal_plant_get_model_instance_name(NULL, 0, &e));
  ck_assert_int_eq(e.code, TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_instance_nv(p, -1, &e), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_instance_num_bodies(NULL, 0, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_joint_indices(p, 99, NULL, 0, &e), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_get_body_indices(p, 0, NULL, 0, NULL), 1); /* the world */
  teal_system_free(teal_plant_system(p));
  teal_plant *open = scene_plant(&s, 0.0, 0);
  ck_assert_int_eq(teal_plant_get_positions_from_array(open, 2, q, 0, qi, 0, &e), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(e.message, "not finalized"));
  teal_plant_free(open);
}
END_TEST

static Suite *plant_instances_suite(void) {
  Suite *s = suite_create("plant_instances");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, names_counts_and_indices);
  tcase_add_loop_test(tc, instance_state_matches_slices, 0, 2);
  tcase_add_test(tc, arrays_gather_and_scatter);
  tcase_add_loop_test(tc, mutable_views_write_the_state, 0, 2);
  tcase_add_loop_test(tc, instance_acceleration_ports, 0, 2);
  tcase_add_test(tc, bad_context_calls);
  tcase_add_test(tc, bad_array_and_query_calls);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(plant_instances_suite());
}
