/* Dynamics test fixtures (see mb_dyn_fixtures.h). */
#include "support/mb_dyn_fixtures.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/tree/topology.h"
#include "support/test_support.h"

/* One body of a topology: its parent (index into the same list, -1 for the
 * world, -2 for no joint, i.e. a floating body) and its joint kind. */
static const ts_mb_body_spec chain_spec[] = {
    {-1, TEAL_JOINT_REVOLUTE}, {0, TEAL_JOINT_PRISMATIC}, {1, TEAL_JOINT_BALL},
    {2, TEAL_JOINT_UNIVERSAL}, {3, TEAL_JOINT_REVOLUTE},  {4, TEAL_JOINT_SCREW}};
static const ts_mb_body_spec tree_spec[] = {{-2, 0},
                                            {0, TEAL_JOINT_REVOLUTE},
                                            {0, TEAL_JOINT_BALL},
                                            {1, TEAL_JOINT_UNIVERSAL},
                                            {1, TEAL_JOINT_PRISMATIC},
                                            {2, TEAL_JOINT_PLANAR},
                                            {5, TEAL_JOINT_REVOLUTE},
                                            {-1, TEAL_JOINT_BALL},
                                            {7, TEAL_JOINT_QUATERNION_FLOATING},
                                            {4, TEAL_JOINT_BALL_RPY},
                                            {9, TEAL_JOINT_REVOLUTE},
                                            {-1, TEAL_JOINT_RPY_FLOATING}};
static const ts_mb_body_spec float_spec[] = {
    {-2, 0}, {0, TEAL_JOINT_BALL}, {1, TEAL_JOINT_UNIVERSAL}, {-2, 0}};

static const ts_mb_topology topologies[TS_MB_DYN_NUM_TOPOLOGIES] = {
    {"chain", chain_spec, 6}, {"tree", tree_spec, 12}, {"float", float_spec, 4}};

teal_plant *ts_mb_dyn_make_tree(int topology, unsigned seed) {
  return ts_mb_dyn_make_tree_stepped(topology, seed, 0.0);
}

teal_plant *ts_mb_dyn_make_tree_stepped(int topology, unsigned seed, double time_step) {
  const ts_mb_body_spec *spec = topologies[topology].spec;
  int n = topologies[topology].n;
  unsigned s = seed;
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  int bodies[32];
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "b%d", i);
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    bodies[i] = teal_plant_add_rigid_body(p, name, 1, &M);
    ck_assert_int_ge(bodies[i], 0);
  }
  for (int i = 0; i < n; i++) {
    if (spec[i].parent != -2) {
      ck_assert_int_ge(ts_mb_add_random_joint(p, spec, bodies, i, &s), 0);
    }
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

void ts_mb_dyn_rand_state(const teal_plant *p, unsigned *s, double *q, double *v) {
  ck_assert_int_eq(ts_mb_rand_state(p, s, q, v, 1.5), TEAL_OK);
}

void ts_mb_dyn_step_q(const teal_plant *p, const double *q, const double *v, double h,
                      double *out) {
  ck_assert_int_eq(ts_mb_step_q(p, q, v, h, out), TEAL_OK);
}

void ts_mb_dyn_rand_forces(unsigned *s, int nb, teal_spatial_vector *F) {
  for (int b = 0; b < nb; b++) {
    for (int i = 0; i < 6; i++) {
      F[b].v[i] = ts_rand_uniform(s, -2, 2);
    }
  }
}

/* Column j of the central differences of map (see ts_mb_dyn_rel_error_vs_fd). */
static void fd_column(const teal_plant *plant, ts_mb_dyn_map map, void *user, const double *q,
                      const double *v, const double *w, int which, int j, double h, double *col) {
  enum { N = TS_MB_DYN_MAXN };
  int nq = teal_plant_nq(plant), nv = teal_plant_nv(plant);
  double e[N] = {0}, qa[N], qb[N], va[N], vb[N], wa[N], wb[N], outa[N], outb[N];
  memcpy(qa, q, sizeof(double) * (size_t)nq);
  memcpy(qb, q, sizeof(double) * (size_t)nq);
  memcpy(va, v, sizeof(double) * (size_t)nv);
  memcpy(vb, v, sizeof(double) * (size_t)nv);
  memcpy(wa, w, sizeof(double) * (size_t)nv);
  memcpy(wb, w, sizeof(double) * (size_t)nv);
  e[j] = 1.0;
  if (which == 0) {
    ts_mb_dyn_step_q(plant, q, e, h, qa);
    ts_mb_dyn_step_q(plant, q, e, -h, qb);
  } else {
    double *pa = which == 1 ? va : wa, *pb = which == 1 ? vb : wb;
    pa[j] += h;
    pb[j] -= h;
  }
  map(plant, user, qa, va, wa, outa);
  map(plant, user, qb, vb, wb, outb);
  for (int i = 0; i < nv; i++) {
    col[i] = (outa[i] - outb[i]) / (2 * h);
  }
}

double ts_mb_dyn_rel_error_vs_fd(const teal_plant *plant, ts_mb_dyn_map map, void *user,
                                 const double *q, const double *v, const double *w, int which,
                                 const double *J, double h) {
  int nv = teal_plant_nv(plant);
  double col[TS_MB_DYN_MAXN], err = 0.0, scale = 1.0;
  for (int j = 0; j < nv; j++) {
    fd_column(plant, map, user, q, v, w, which, j, h, col);
    for (int i = 0; i < nv; i++) {
      err = fmax(err, fabs(J[i * nv + j] - col[i]));
      scale = fmax(scale, fabs(col[i]));
    }
  }
  return err / scale;
}
