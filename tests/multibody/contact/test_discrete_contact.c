/* The discrete contact step (multibody/contact/discrete_contact.c): contacts
 * couple trees into islands (stacked balls, welded bodies, island buffers
 * grown once with a warning), the per-tree step solves the dense implicit
 * equations of the whole plant, and steps allocate nothing. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/diagram.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"

/* Two balls stacked on the ground (discrete): the ball-ball contact couples
 * two trees into one island; at rest each ball's net contact force
 * balances its weight and the ground carries both. */
START_TEST(stacked_balls_share_an_island) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  int b[2];
  for (int i = 0; i < 2; i++) {
    b[i] = teal_plant_add_rigid_body(w.plant, i ? "top" : "bottom", TEAL_DEFAULT_MODEL_INSTANCE,
                                     &M);
    teal_plant_register_collision_geometry(w.plant, b[i], teal_transform_identity(), &s,
                                           i ? "top" : "bottom", &props);
  }
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  for (int i = 0; i < 2; i++) {
    teal_transform X = teal_transform_make(teal_rotation_identity(),
                                           teal_vec3_make(0, 0, 0.1 + 0.2 * i));
    ck_assert_int_eq(teal_plant_set_free_body_pose(w.plant, w.ctx, b[i], X), TEAL_OK);
  }
  ts_contact_advance(&w, 2.0);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->n, 2);
  ck_assert_double_eq_tol(teal_contact_results_net_force(r, b[1]).v[2], 9.81, 1e-3);
  /* the bottom ball: 2 m g from the ground, m g down from the top ball */
  ck_assert_double_eq_tol(teal_contact_results_net_force(r, b[0]).v[2], 9.81, 1e-3);
  ck_assert_double_eq_tol(teal_contact_results_net_force(r, TEAL_WORLD_BODY).v[2], -2 * 9.81,
                          2e-3);
  double v[12];
  teal_plant_get_velocities(w.plant, w.ctx, v, 12);
  for (int i = 0; i < 12; i++) {
    ck_assert(fabs(v[i]) < 1e-6);
  }
  ts_contact_world_free(&w);
}
END_TEST

/* Two boxes welded to the world that overlap (a contact between two
 * bodies without dofs: an island with nothing to solve) and a ball resting
 * on one of them. */
START_TEST(welded_bodies_in_contact) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia Mb = teal_spatial_inertia_solid_box(5.0, 1, 1, 0.2);
  teal_spatial_inertia Ms = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int box = teal_plant_add_rigid_body(w.plant, "box", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
  int ball = teal_plant_add_rigid_body(w.plant, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &Ms);
  int f = teal_plant_add_frame(w.plant, "box_mount", TEAL_WORLD_FRAME,
                               teal_transform_make(teal_rotation_identity(),
                                                   teal_vec3_make(0, 0, 0.05)));
  teal_plant_add_joint(w.plant, "weld", TEAL_JOINT_WELD, f, teal_plant_body_frame(w.plant, box),
                       NULL, 0);
  int box2 = teal_plant_add_rigid_body(w.plant, "box2", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
  int f2 = teal_plant_add_frame(w.plant, "box2_mount", TEAL_WORLD_FRAME,
                                teal_transform_make(teal_rotation_identity(),
                                                    teal_vec3_make(0.9, 0, 0.05)));
  teal_plant_add_joint(w.plant, "weld2", TEAL_JOINT_WELD, f2,
                       teal_plant_body_frame(w.plant, box2), NULL, 0);
  teal_shape b, s;
  teal_shape_box(1, 1, 0.2, &b, NULL);
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  teal_plant_register_collision_geometry(w.plant, box, teal_transform_identity(), &b, "box",
                                         &props);
  teal_plant_register_collision_geometry(w.plant, box2, teal_transform_identity(), &b, "box2",
                                         &props);
  teal_plant_register_collision_geometry(w.plant, ball, teal_transform_identity(), &s, "ball",
                                         &props);
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.25));
  ck_assert_int_eq(teal_plant_set_free_body_pose(w.plant, w.ctx, ball, X), TEAL_OK);
  ts_contact_advance(&w, 1.5);
  double v[6];
  teal_plant_get_velocities(w.plant, w.ctx, v, 6);
  ck_assert(fabs(v[5]) < 1e-6);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  /* ball-box only: box and box2 are both welded to the world, one welded
   * subgraph, so their overlap is filtered (Drake's default) */
  ck_assert_int_eq(r->n, 1);
  ck_assert_double_eq_tol(teal_contact_results_net_force(r, ball).v[2], 9.81, 1e-3);
  ts_contact_world_free(&w);
}
END_TEST

/* Two free balls pressed together on the ground: their trees join in one
 * island of 12 dofs, more than the largest tree (6) the buffers were sized
 * for, so the step grows them once and counts a warning; later steps reuse
 * them. */
START_TEST(island_growth_counts_a_warning) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(1e-3, NULL);
  int a, b;
  ck_assert_int_ne(ts_contact_body_with_sphere(w.plant, "a", &a),
                   ts_contact_body_with_sphere(w.plant, "b", &b));
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  ck_assert_int_eq(teal_plant_warning_count(w.plant, w.ctx), 0);
  teal_transform Xa = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.099));
  teal_transform Xb = teal_transform_make(teal_rotation_identity(),
                                          teal_vec3_make(0.195, 0, 0.099));
  ck_assert_int_eq(teal_plant_set_free_body_pose(w.plant, w.ctx, a, Xa), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_pose(w.plant, w.ctx, b, Xb), TEAL_OK);
  ts_contact_advance(&w, 0.002);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->n, 3); /* a-ground, b-ground, a-b */
  ck_assert_int_eq(teal_plant_warning_count(w.plant, w.ctx), 1);
  ts_contact_advance(&w, 0.05);
  ck_assert_int_eq(teal_plant_warning_count(w.plant, w.ctx), 1);
  ck_assert_int_eq(teal_plant_warning_count(NULL, w.ctx), -1);
  ck_assert_int_eq(teal_plant_warning_count(w.plant, NULL), -1);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(discrete_contact_allocates_nothing) {
  ts_contact_world w = ts_contact_ball_world(1e-3, 0.1, NAN);
  ts_contact_advance(&w, 0.05);
  ts_alloc_install();
  ts_alloc_reset();
  ts_contact_advance(&w, 0.3);
  unsigned long n = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(n, 0);
  ts_contact_world_free(&w);
}
END_TEST

/* Adds a body with a collision sphere of radius r at p_BS. */
static int add_ball_body(teal_plant *p, const char *name, double mass, double r, teal_vec3 p_BS) {
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(mass, r);
  int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s;
  teal_shape_sphere(r, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.4);
  ck_assert_int_ge(teal_plant_register_collision_geometry(
                       p, b, teal_transform_make(teal_rotation_identity(), p_BS), &s, name,
                       &props),
                   0);
  return b;
}

/* An arm of two links (revolute about y) on a base welded at height 0.3,
 * its tip sphere pressing on a free ball; two more free balls, one resting
 * on the ground and one pressed against it from the side. Contacts couple
 * the arm with ball a (an island of two trees, 8 dofs), balls b and c with
 * the ground and each other (12 dofs). */
static ts_contact_world mixed_world(void) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(1e-3, NULL);
  teal_plant *p = w.plant;
  teal_spatial_inertia Mb = teal_spatial_inertia_solid_box(2.0, 0.1, 0.1, 0.1);
  int base = teal_plant_add_rigid_body(p, "base", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
  int mount = teal_plant_add_frame(p, "mount", TEAL_WORLD_FRAME,
                                   teal_transform_make(teal_rotation_identity(),
                                                       teal_vec3_make(0, 0, 0.3)));
  teal_plant_add_joint(p, "weld", TEAL_JOINT_WELD, mount, teal_plant_body_frame(p, base), NULL,
                       0.0);
  teal_vec3 y = teal_vec3_make(0, 1, 0), tip = teal_vec3_make(0.3, 0, 0);
  int l1 = add_ball_body(p, "link1", 1.0, 0.05, tip);
  int l2 = add_ball_body(p, "link2", 0.5, 0.05, tip);
  int elbow = teal_plant_add_frame(p, "elbow", teal_plant_body_frame(p, l1),
                                   teal_transform_make(teal_rotation_identity(), tip));
  ck_assert_int_ge(teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE,
                                        teal_plant_body_frame(p, base),
                                        teal_plant_body_frame(p, l1), &y, 0.0),
                   0);
  ck_assert_int_ge(teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, elbow,
                                        teal_plant_body_frame(p, l2), &y, 0.0),
                   0);
  int a = add_ball_body(p, "ball_a", 1.0, 0.1, teal_vec3_zero());
  int b = add_ball_body(p, "ball_b", 1.0, 0.1, teal_vec3_zero());
  int c = add_ball_body(p, "ball_c", 0.7, 0.1, teal_vec3_zero());
  ts_contact_add_ground(p, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  /* the tip is at (0.6, 0, 0.3); ball a 2 mm into it from below */
  teal_vec3 pos[3] = {teal_vec3_make(0.6, 0, 0.152), teal_vec3_make(-0.5, 0, 0.099),
                      teal_vec3_make(-0.302, 0, 0.0995)};
  int balls[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(teal_plant_set_free_body_pose(
                         p, w.ctx, balls[i], teal_transform_make(teal_rotation_identity(), pos[i])),
                     TEAL_OK);
  }
  double v[20] = {0};
  int nv = teal_plant_nv(p);
  ck_assert_int_le(nv, 20);
  for (int i = 0; i < nv; i++) {
    v[i] = 0.05 * sin(1.0 + i); /* sliding and spinning contacts */
  }
  ck_assert_int_eq(teal_plant_set_velocities(p, w.ctx, v, nv), TEAL_OK);
  return w;
}

/* The per-tree step solves the dense implicit equations of the whole
 * plant: with M(q) and the contact Jacobians J_i formed densely from q,
 * v* = v + h M^-1 (tau_g - C v), the next velocity v+ and the forces f_i
 * the contact results report, M (v+ - v*) = h sum_i J_i' f_i. */
START_TEST(per_tree_step_solves_dense_equations) {
  ts_contact_world w = mixed_world();
  const teal_plant *p = w.plant;
  const double h = teal_plant_time_step(p);
  enum { NV = 20 };
  int nv = teal_plant_nv(p), nq = teal_plant_nq(p);
  double q[32], v[NV], vdot[NV], vnext[NV], M[NV * NV], J[3 * NV], r[NV];
  teal_plant_get_positions(p, w.ctx, q, nq);
  teal_plant_get_velocities(p, w.ctx, v, nv);
  const teal_contact_results *res;
  ck_assert_int_eq(teal_plant_eval_contact_results(p, w.ctx, &res), TEAL_OK);
  ck_assert_int_eq(res->n, 4); /* tip-a, b-ground, c-ground, b-c */
  teal_contact_info c[4];
  memcpy(c, res->c, sizeof c);
  ts_contact_advance(&w, h);
  teal_plant_get_velocities(p, w.ctx, vnext, nv);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  teal_mb_data *jws = teal_mb_data_new(p, NULL);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, vdot), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
  double fmax_abs = 0.0;
  for (int i = 0; i < nv; i++) {
    r[i] = 0.0;
    for (int j = 0; j < nv; j++) {
      r[i] += M[i * nv + j] * (vnext[j] - (v[j] + h * vdot[j]));
    }
  }
  teal_transform X[16];
  ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
  for (int k = 0; k < 4; k++) {
    int bodies[2] = {c[k].body_B, c[k].body_A};
    fmax_abs = fmax(fmax_abs, teal_vec3_norm(c[k].f_Bc_W));
    for (int side = 0; side < 2; side++) {
      teal_vec3 p_BC = teal_rotation_apply_inverse(X[bodies[side]].R,
                                                   teal_vec3_sub(c[k].p_WC, X[bodies[side]].p));
      ck_assert_int_eq(teal_mb_jacobian_translational_velocity(
                           p, jws, q, TEAL_JACOBIAN_WRT_V, teal_plant_body_frame(p, bodies[side]),
                           p_BC, TEAL_WORLD_FRAME, TEAL_WORLD_FRAME, J),
                       TEAL_OK);
      double sign = side ? 1.0 : -1.0; /* r -= h J_B' f, r += h J_A' f */
      for (int i = 0; i < nv; i++) {
        for (int a = 0; a < 3; a++) {
          r[i] += sign * h * J[a * nv + i] * c[k].f_Bc_W.v[a];
        }
      }
    }
  }
  ck_assert(fmax_abs > 1.0); /* real contact forces, not an empty step */
  for (int i = 0; i < nv; i++) {
    ck_assert_msg(fabs(r[i]) < 1e-9 * h * fmax_abs, "dense residual %d = %g", i, r[i]);
  }
  /* the arm moved: its island was solved together with ball a */
  ck_assert(fabs(vnext[0]) + fabs(vnext[1]) + fabs(vnext[nv - 1]) > 0.0);
  teal_mb_data_free(jws);
  teal_mb_data_free(ws);
  ts_contact_world_free(&w);
}
END_TEST

/* Workload 2 of bench/README.md at K = 64: spheres dropped on the plane,
 * discrete; the steps while they land (contacts appear) allocate nothing,
 * and the scene graph reports no buffer growth. */
START_TEST(spheres_scene_step_allocates_nothing) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(1e-3, NULL);
  int body[64];
  for (int i = 0; i < 64; i++) {
    char name[16];
    snprintf(name, sizeof(name), "s%d", i);
    body[i] = add_ball_body(w.plant, name, 0.1, 0.05, teal_vec3_zero());
  }
  ts_contact_add_ground(w.plant, 0.0, 1.0, NAN);
  ts_contact_finish(&w);
  const double heights[4] = {0.15, 0.20, 0.25, 0.30};
  for (int i = 0; i < 64; i++) {
    teal_vec3 c = teal_vec3_make((i % 8 - 3.5) * 0.15, (i / 8 - 3.5) * 0.15, heights[i % 4]);
    teal_plant_set_free_body_pose(w.plant, w.ctx, body[i],
                                  teal_transform_make(teal_rotation_identity(), c));
  }
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(w.sim, &st), TEAL_OK);
  ts_contact_advance(&w, 0.01);
  ts_alloc_install();
  ts_alloc_reset();
  ts_contact_advance(&w, 0.5);
  unsigned long n = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(n, 0);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->n, 64);
  for (int i = 0; i < 64; i++) {
    ck_assert_double_eq_tol(teal_contact_results_net_force(r, body[i]).v[2], 0.1 * 9.81, 1e-3);
  }
  ts_contact_world_free(&w);
}
END_TEST

int main(void) {
  Suite *s = suite_create("discrete_contact");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, stacked_balls_share_an_island);
  tcase_add_test(tc, welded_bodies_in_contact);
  tcase_add_test(tc, island_growth_counts_a_warning);
  tcase_add_test(tc, discrete_contact_allocates_nothing);
  tcase_add_test(tc, per_tree_step_solves_dense_equations);
  tcase_add_test(tc, spheres_scene_step_allocates_nothing);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
