/* Multibody test fixtures (see mb_fixtures.h). */
#include "support/mb_fixtures.h"

#include <check.h>
#include <math.h>
#include <stdio.h>

#include "multibody/tree/topology.h"
#include "support/test_support.h"

#define MAX_BODIES 32
#define MAX_INSTANCES 8

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
                                            {3, TEAL_JOINT_WELD},
                                            {9, TEAL_JOINT_SCREW},
                                            {-1, TEAL_JOINT_RPY_FLOATING},
                                            {11, TEAL_JOINT_REVOLUTE},
                                            {4, TEAL_JOINT_BALL_RPY}};
static const ts_mb_body_spec free_spec[] = {
    {-2, 0}, {0, TEAL_JOINT_BALL}, {1, TEAL_JOINT_UNIVERSAL}, {-2, 0}, {3, TEAL_JOINT_REVOLUTE}};

const ts_mb_topology ts_mb_topologies[] = {
    {"chain", chain_spec, 6}, {"tree", tree_spec, 14}, {"free", free_spec, 5}};
const int ts_mb_num_topologies = (int)(sizeof ts_mb_topologies / sizeof ts_mb_topologies[0]);

teal_transform ts_mb_rand_pose(unsigned *s, double scale) {
  teal_vec3 rpy = teal_vec3_make(ts_rand_uniform(s, -3, 3), ts_rand_uniform(s, -1.5, 1.5),
                                 ts_rand_uniform(s, -3, 3));
  teal_vec3 p = teal_vec3_make(ts_rand_uniform(s, -scale, scale),
                               ts_rand_uniform(s, -scale, scale),
                               ts_rand_uniform(s, -scale, scale));
  return teal_transform_make(teal_rotation_from_rpy(rpy), p);
}

teal_spatial_inertia ts_mb_rand_inertia(unsigned *s) {
  double m = ts_rand_uniform(s, 0.5, 2.0);
  teal_spatial_inertia box = teal_spatial_inertia_solid_box(
      m, ts_rand_uniform(s, 0.1, 0.6), ts_rand_uniform(s, 0.1, 0.6), ts_rand_uniform(s, 0.1, 0.6));
  teal_transform X = ts_mb_rand_pose(s, 0.4);
  teal_spatial_inertia r = teal_spatial_inertia_reexpress(&box, X.R);
  return teal_spatial_inertia_from_central(m, X.p, r.I_SP_E);
}

int ts_mb_add_random_joint(teal_plant *p, const ts_mb_body_spec *spec, const int *bodies, int i,
                           unsigned *s) {
  char fname[32], mname[32], jname[32];
  snprintf(fname, sizeof fname, "F%d", i);
  snprintf(mname, sizeof mname, "M%d", i);
  snprintf(jname, sizeof jname, "j%d", i);
  int pb = spec[i].parent < 0 ? TEAL_WORLD_BODY : bodies[spec[i].parent];
  int F = teal_plant_add_frame(p, fname, teal_plant_body_frame(p, pb), ts_mb_rand_pose(s, 0.5));
  int M = teal_plant_add_frame(p, mname, teal_plant_body_frame(p, bodies[i]),
                               ts_mb_rand_pose(s, 0.3));
  teal_vec3 ax = teal_vec3_make(ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1),
                                ts_rand_uniform(s, -1, 1));
  return teal_plant_add_joint(p, jname, (teal_joint_kind)spec[i].kind, F, M, &ax,
                              ts_rand_uniform(s, -0.3, 0.3));
}

static int add_instances(teal_plant *p, int num_instances, int *inst) {
  inst[0] = TEAL_DEFAULT_MODEL_INSTANCE;
  for (int i = 1; i < num_instances; i++) {
    char name[16];
    snprintf(name, sizeof name, "mi%d", i);
    if ((inst[i] = teal_plant_add_model_instance(p, name)) < 0) {
      return inst[i];
    }
  }
  return TEAL_OK;
}

teal_plant *ts_mb_random_tree(const ts_mb_body_spec *spec, int n, unsigned seed,
                              int num_instances) {
  teal_plant *p = ts_mb_random_tree_open(spec, n, seed, num_instances);
  if (p && teal_plant_finalize(p) < 0) {
    fprintf(stderr, "ts_mb_random_tree: %s\n", teal_plant_error(p)->message);
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

teal_plant *ts_mb_random_tree_open(const ts_mb_body_spec *spec, int n, unsigned seed,
                                   int num_instances) {
  unsigned s = seed ? seed : 1;
  int bodies[MAX_BODIES], inst[MAX_INSTANCES];
  if (!spec || n < 1 || n > MAX_BODIES || num_instances < 1 || num_instances > MAX_INSTANCES) {
    fprintf(stderr, "ts_mb_random_tree: bad arguments\n");
    return NULL;
  }
  teal_plant *p = teal_plant_new(0.0, NULL);
  int st = p ? add_instances(p, num_instances, inst) : TEAL_ENOMEM;
  for (int i = 0; st >= 0 && i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "b%d", i);
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    st = bodies[i] = teal_plant_add_rigid_body(p, name, inst[i % num_instances], &M);
  }
  for (int i = 0; st >= 0 && i < n; i++) {
    st = spec[i].parent == -2 ? TEAL_OK : ts_mb_add_random_joint(p, spec, bodies, i, &s);
  }
  if (st < 0) {
    fprintf(stderr, "ts_mb_random_tree_open: %s\n", p ? teal_plant_error(p)->message : "no memory");
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

void ts_mb_rand_vec(unsigned *s, double *x, int n, double a) {
  for (int i = 0; i < n; i++) {
    x[i] = ts_rand_uniform(s, -a, a);
  }
}

int ts_mb_rand_state(const teal_plant *p, unsigned *s, double *q, double *v, double a) {
  ts_mb_rand_vec(s, q, teal_plant_nq(p), a);
  if (v) {
    ts_mb_rand_vec(s, v, teal_plant_nv(p), a);
  }
  return teal_plant_normalize_q(p, q);
}

int ts_mb_step_q(const teal_plant *p, const double *q, const double *v, double h, double *out) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  if (!t) {
    return TEAL_ESTATE;
  }
  for (int k = 1; k < t->num_nodes; k++) {
    double qd[TEAL_JOINT_MAX_NQ];
    teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k], qd);
    for (int i = 0; i < t->nq[k]; i++) {
      out[t->q_start[k] + i] = q[t->q_start[k] + i] + h * qd[i];
    }
  }
  return teal_plant_normalize_q(p, out);
}

double ts_mb_max_abs(const double *x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

double ts_mb_max_abs_diff(const double *a, const double *b, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(a[i] - b[i]));
  }
  return m;
}

int ts_mb_connect(teal_plant *p, const char *name, teal_joint_kind kind, int parent_body,
                  int child_body, const teal_vec3 *axis) {
  int j = teal_plant_add_joint(p, name, kind, teal_plant_body_frame(p, parent_body),
                               teal_plant_body_frame(p, child_body), axis, 0.0);
  ck_assert_msg(j >= 0, "joint %s: %s", name, teal_plant_error(p)->message);
  return j;
}
