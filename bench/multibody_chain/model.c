/* bench_multibody_chain: the models both engines get, and the points they
 * are evaluated at (see chain.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chain.h"

static const double k_rod_mass = 1.0, k_rod_length = 0.5;
static const double k_perturb = 1e-9;

double chain_max_abs(const double *x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

double chain_max_abs_diff(const double *a, const double *b, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(a[i] - b[i]));
  }
  return m;
}

void chain_kernel_point(int n, double *q, double *v, double *vdot) {
  for (int i = 0; i < n; i++) {
    q[i] = 0.1 * (i + 1);
    v[i] = 0.05 * (i + 1);
    vdot[i] = 0.3 - 0.02 * (i + 1);
  }
}

void chain_sim_start(int n, double *q) {
  for (int i = 0; i < n; i++) {
    q[i] = 0.1 * (i + 1);
  }
}

void chain_perturb_q1(double *q, double q1, int call) {
  q[0] = q1 + ((call & 1) ? k_perturb : -k_perturb);
}

teal_mat3 chain_inertia_from_principal(const double moments[3], teal_vec3 rpy) {
  teal_rotation R = teal_rotation_from_rpy(rpy);
  teal_mat3 D = teal_mat3_diag(moments[0], moments[1], moments[2]);
  return teal_mat3_mul(teal_mat3_mul(R, D), teal_mat3_transpose(R));
}

void chain_make_chain(model_spec *s, int n, int ref) {
  double I = k_rod_mass * k_rod_length * k_rod_length / 12.0;
  snprintf(s->name, sizeof s->name, "chain%d", n);
  snprintf(s->title, sizeof s->title, "n = %d", n);
  s->ref = ref;
  s->n = n;
  for (int i = 0; i < n; i++) {
    link_spec *l = &s->link[i];
    l->p_PJ = teal_vec3_make(0.0, 0.0, i == 0 ? 0.0 : -k_rod_length);
    l->axis = teal_vec3_make(0.0, 1.0, 0.0);
    l->mass = k_rod_mass;
    l->com = teal_vec3_make(0.0, 0.0, -0.5 * k_rod_length);
    l->moments[0] = I;
    l->moments[1] = I;
    l->moments[2] = 0.0;
    l->rpy = teal_vec3_zero();
    l->I_cm = teal_mat3_diag(I, I, 0.0);
  }
}

/* A KUKA-iiwa-like arm (numbers of this bench, not KUKA's): hinges about z,
 * y, z, y, z, y, z, joint frames offset along z and aligned with the world
 * at q = 0. Principal moments about the centre of mass (descending) and
 * the roll-pitch-yaw of the principal axes; some links have rotated axes,
 * hence products of inertia. */
typedef struct arm_link {
  double z_offset;
  char axis;
  double mass;
  double com[3];
  double moments[3];
  double rpy[3];
} arm_link;

static const arm_link k_arm_links[7] = {
    {0.16, 'z', 3.9, {0.0, -0.02, 0.11}, {0.060, 0.055, 0.012}, {0.08, 0.0, 0.0}},
    {0.20, 'y', 3.6, {0.003, 0.03, 0.09}, {0.040, 0.038, 0.011}, {-0.1, 0.0, 0.3}},
    {0.21, 'z', 3.0, {0.0, 0.02, 0.13}, {0.032, 0.030, 0.009}, {0.0, 0.07, 0.0}},
    {0.21, 'y', 2.6, {0.0, -0.03, 0.07}, {0.022, 0.021, 0.007}, {0.1, 0.0, 0.0}},
    {0.19, 'z', 1.8, {0.001, 0.02, 0.10}, {0.016, 0.014, 0.005}, {0.0, 0.0, -0.2}},
    {0.21, 'y', 1.2, {0.0, 0.002, 0.02}, {0.004, 0.0038, 0.003}, {0.0, 0.0, 0.0}},
    {0.08, 'z', 0.4, {0.0, 0.0, 0.03}, {0.0007, 0.0005, 0.0005}, {0.0, 0.0, 0.0}},
};

void chain_make_arm(model_spec *s) {
  snprintf(s->name, sizeof s->name, "arm7");
  snprintf(s->title, sizeof s->title, "arm, 7 dof");
  s->ref = -1;
  s->n = 7;
  for (int i = 0; i < 7; i++) {
    const arm_link *a = &k_arm_links[i];
    link_spec *l = &s->link[i];
    l->p_PJ = teal_vec3_make(0.0, 0.0, a->z_offset);
    l->axis = a->axis == 'z' ? teal_vec3_make(0.0, 0.0, 1.0) : teal_vec3_make(0.0, 1.0, 0.0);
    l->mass = a->mass;
    l->com = teal_vec3_make(a->com[0], a->com[1], a->com[2]);
    memcpy(l->moments, a->moments, sizeof l->moments);
    l->rpy = teal_vec3_make(a->rpy[0], a->rpy[1], a->rpy[2]);
    l->I_cm = chain_inertia_from_principal(l->moments, l->rpy);
  }
}
