/* Constraint test fixtures (see mb_constraint_fixtures.h). */
#include "support/mb_constraint_fixtures.h"

#include <math.h>
#include <stdio.h>

#include "framework/alloc.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/prescribed_motion.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

teal_plant *ts_mbc_open_tree(const ts_mb_topology *t, unsigned seed) {
  unsigned s = seed ? seed : 1;
  int bodies[32];
  teal_plant *p = t->n <= 32 ? teal_plant_new(0.0, NULL) : NULL;
  int st = p ? TEAL_OK : TEAL_ENOMEM;
  for (int i = 0; st >= 0 && i < t->n; i++) {
    char name[32];
    snprintf(name, sizeof name, "b%d", i);
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    st = bodies[i] = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  }
  for (int i = 0; st >= 0 && i < t->n; i++) {
    st = t->spec[i].parent == -2 ? TEAL_OK : ts_mb_add_random_joint(p, t->spec, bodies, i, &s);
  }
  if (st < 0) {
    fprintf(stderr, "ts_mbc_open_tree: %s\n", p ? teal_plant_error(p)->message : "no memory");
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

/* Two distinct random single-dof joints, or TEAL_ENOTFOUND. */
static int two_single_dof_joints(const teal_plant *p, unsigned *s, int *j0, int *j1) {
  int list[64], n = 0;
  for (int j = 0; j < teal_plant_num_joints(p) && n < 64; j++) {
    int k = teal_plant_joint_kind(p, j);
    if (k == TEAL_JOINT_REVOLUTE || k == TEAL_JOINT_PRISMATIC || k == TEAL_JOINT_SCREW) {
      list[n++] = j;
    }
  }
  if (n < 2) {
    return TEAL_ENOTFOUND;
  }
  int a = (int)(ts_rand_uniform(s, 0.0, n)) % n;
  int b = (a + 1 + (int)(ts_rand_uniform(s, 0.0, n - 1)) % (n - 1)) % n;
  *j0 = list[a];
  *j1 = list[b];
  return TEAL_OK;
}

static teal_vec3 rand_point(unsigned *s) {
  double x[3];
  ts_mb_rand_vec(s, x, 3, 0.5);
  return teal_vec3_make(x[0], x[1], x[2]);
}

int ts_mbc_add_random_constraint(teal_plant *p, int kind, unsigned *s) {
  int nb = teal_plant_num_bodies(p);
  int a = (int)ts_rand_uniform(s, 0.0, nb) % nb;
  int b = (a + 1 + (int)ts_rand_uniform(s, 0.0, nb - 1) % (nb - 1)) % nb;
  teal_vec3 pa = rand_point(s), pb = rand_point(s);
  switch (kind) {
    case TEAL_CONSTRAINT_COUPLER: {
      int j0, j1;
      int rc = two_single_dof_joints(p, s, &j0, &j1);
      return rc ? rc : teal_plant_add_coupler_constraint(p, j0, j1, ts_rand_uniform(s, -2, 2), 0.3);
    }
    case TEAL_CONSTRAINT_DISTANCE:
      return teal_plant_add_distance_constraint(p, a, pa, b, pb, 0.7, INFINITY, 0.0);
    case TEAL_CONSTRAINT_BALL:
      return teal_plant_add_ball_constraint(p, a, pa, b, pb);
    case TEAL_CONSTRAINT_WELD:
      return teal_plant_add_weld_constraint(p, a, ts_mb_rand_pose(s, 0.5), b,
                                            ts_mb_rand_pose(s, 0.5));
    case TEAL_CONSTRAINT_POINT_IN_PLANE:
      return teal_plant_add_point_in_plane_constraint(p, a, rand_point(s), 0.2, b, pb);
    case TEAL_CONSTRAINT_POINT_ON_LINE:
      return teal_plant_add_point_on_line_constraint(p, a, rand_point(s), pa, b, pb);
    default:
      return teal_plant_add_constant_angle_constraint(p, a, rand_point(s), b, rand_point(s), 1.1);
  }
}

teal_context *ts_mbc_random_context(const teal_plant *p, unsigned *s, double a) {
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  double *q = teal_calloc((size_t)nq + 1, sizeof(double));
  double *v = teal_calloc((size_t)nv + 1, sizeof(double));
  teal_context *ctx = q && v ? teal_context_new(teal_plant_system((teal_plant *)p), NULL) : NULL;
  int rc = ctx ? ts_mb_rand_state(p, s, q, v, a) : TEAL_ENOMEM;
  rc = rc ? rc : teal_plant_set_positions(p, ctx, q, nq);
  rc = rc ? rc : teal_plant_set_velocities(p, ctx, v, nv);
  teal_free(q);
  teal_free(v);
  if (rc) {
    fprintf(stderr, "ts_mbc_random_context: status %d\n", rc);
    teal_context_free(ctx);
    return NULL;
  }
  return ctx;
}

teal_plant *ts_mbc_conflicting_slider(int baumgarte) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "slider", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 x = teal_vec3_make(1, 0, 0);
  teal_plant_add_joint(p, "slide", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, b), &x, 0.0);
  int rc = teal_plant_add_distance_constraint(p, TEAL_WORLD_BODY, teal_vec3_make(0, 1, 0), b,
                                              teal_vec3_zero(), 1.0, INFINITY, 0.0);
  rc = rc < 0 || !baumgarte ? rc : teal_plant_set_baumgarte_stabilization(p, 2.0, 3.0);
  if (rc < 0 || teal_plant_finalize(p) != TEAL_OK) {
    fprintf(stderr, "ts_mbc_conflicting_slider: %s\n", teal_plant_error(p)->message);
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

/* A slender bar of mass m and length l along its body x axis. */
static teal_spatial_inertia slender_bar(double m, double l) {
  return teal_spatial_inertia_from_central(m, teal_vec3_make(0.5 * l, 0, 0),
                                           teal_mat3_diag(1e-4, m * l * l / 12, m * l * l / 12));
}

teal_plant *ts_mbc_four_bar(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 axis = teal_vec3_make(0, -1, 0);
  teal_spatial_inertia Ma = slender_bar(1.0, TS_MBC_LA), Mb = slender_bar(2.0, TS_MBC_LB),
                       Mc = slender_bar(1.5, TS_MBC_LC);
  int crank = teal_plant_add_rigid_body(p, "crank", TEAL_DEFAULT_MODEL_INSTANCE, &Ma);
  int coupler = teal_plant_add_rigid_body(p, "coupler", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
  int rocker = teal_plant_add_rigid_body(p, "rocker", TEAL_DEFAULT_MODEL_INSTANCE, &Mc);
  teal_rotation I = teal_rotation_identity();
  int tip = teal_plant_add_frame(p, "crank_tip", teal_plant_body_frame(p, crank),
                                 teal_transform_make(I, teal_vec3_make(TS_MBC_LA, 0, 0)));
  int pivot = teal_plant_add_frame(p, "rocker_pivot", TEAL_WORLD_FRAME,
                                   teal_transform_make(I, teal_vec3_make(TS_MBC_LD, 0, 0)));
  teal_plant_add_joint(p, "crank", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, crank), &axis, 0);
  teal_plant_add_joint(p, "coupler", TEAL_JOINT_REVOLUTE, tip, teal_plant_body_frame(p, coupler),
                       &axis, 0);
  teal_plant_add_joint(p, "rocker", TEAL_JOINT_REVOLUTE, pivot, teal_plant_body_frame(p, rocker),
                       &axis, 0);
  teal_plant_add_ball_constraint(p, coupler, teal_vec3_make(TS_MBC_LB, 0, 0), rocker,
                                 teal_vec3_make(TS_MBC_LC, 0, 0));
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -TS_MBC_GRAV));
  if (teal_plant_error(p)->code != TEAL_OK) {
    fprintf(stderr, "ts_mbc_four_bar: %s\n", teal_plant_error(p)->message);
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

double ts_mbc_four_bar_rocker(double t2, double s) {
  double bx = TS_MBC_LA * cos(t2), bz = TS_MBC_LA * sin(t2), dx = TS_MBC_LD - bx, dz = -bz;
  double e = hypot(dx, dz);
  double along = (TS_MBC_LB * TS_MBC_LB - TS_MBC_LC * TS_MBC_LC + e * e) / (2 * e);
  double h = sqrt(TS_MBC_LB * TS_MBC_LB - along * along);
  double cx = bx + (along * dx - s * h * dz) / e, cz = bz + (along * dz + s * h * dx) / e;
  return atan2(cz, cx - TS_MBC_LD);
}

void ts_mbc_four_bar_assemble(double t2, double *q) {
  double t4 = ts_mbc_four_bar_rocker(t2, 1.0);
  double bx = TS_MBC_LA * cos(t2), bz = TS_MBC_LA * sin(t2);
  double cx = TS_MBC_LD + TS_MBC_LC * cos(t4), cz = TS_MBC_LC * sin(t4);
  q[0] = t2;
  q[1] = atan2(cz - bz, cx - bx) - t2;
  q[2] = t4;
}
