/* bench_multibody_chain: MuJoCo's model (written as URDF: its XML parser
 * rejects bodies nested deeper than 100), checked against the specification,
 * its kernels and simulation, and the agreement of the two engines (see
 * chain.h). Empty without TEAL_BENCH_HAVE_MUJOCO. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"

#ifdef TEAL_BENCH_HAVE_MUJOCO

/* The principal moments MuJoCo gets: a zero moment (a rod's about its own
 * axis) is raised to k_mj_min_moment. */
static void mj_link_moments(const link_spec *l, double moments[3]) {
  for (int k = 0; k < 3; k++) {
    moments[k] = fmax(l->moments[k], k_mj_min_moment);
  }
}

static void urdf_write_link(FILE *f, const link_spec *l, int i) {
  double I[3];
  mj_link_moments(l, I);
  fprintf(f, "  <link name=\"l%d\"><inertial>\n", i + 1);
  fprintf(f, "    <origin xyz=\"%.17g %.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/>\n", l->com.v[0],
          l->com.v[1], l->com.v[2], l->rpy.v[0], l->rpy.v[1], l->rpy.v[2]);
  fprintf(f,
          "    <mass value=\"%.17g\"/><inertia ixx=\"%.17g\" ixy=\"0\" ixz=\"0\" iyy=\"%.17g\""
          " iyz=\"0\" izz=\"%.17g\"/>\n",
          l->mass, I[0], I[1], I[2]);
  fprintf(f, "  </inertial></link>\n");
  fprintf(f, "  <joint name=\"j%d\" type=\"continuous\">", i + 1);
  if (i == 0) {
    fprintf(f, "<parent link=\"base\"/>");
  } else {
    fprintf(f, "<parent link=\"l%d\"/>", i);
  }
  fprintf(f, "<child link=\"l%d\"/>\n    <origin xyz=\"%.17g %.17g %.17g\" rpy=\"0 0 0\"/>", i + 1,
          l->p_PJ.v[0], l->p_PJ.v[1], l->p_PJ.v[2]);
  fprintf(f, "<axis xyz=\"%.17g %.17g %.17g\"/></joint>\n", l->axis.v[0], l->axis.v[1],
          l->axis.v[2]);
}

/* The model as URDF: a static base link at the world origin, no geoms. */
static void urdf_write(FILE *f, const model_spec *s) {
  fprintf(f, "<robot name=\"%s\">\n", s->name);
  fprintf(f,
          "  <mujoco><compiler discardvisual=\"true\" fusestatic=\"false\""
          " balanceinertia=\"false\" inertiafromgeom=\"false\"/></mujoco>\n");
  fprintf(f, "  <link name=\"base\"/>\n");
  for (int i = 0; i < s->n; i++) {
    urdf_write_link(f, &s->link[i], i);
  }
  fprintf(f, "</robot>\n");
}

static double vec3_diff(const mjtNum *a, teal_vec3 b) {
  return fmax(fabs(a[0] - b.v[0]), fmax(fabs(a[1] - b.v[1]), fabs(a[2] - b.v[2])));
}

/* |inertia MuJoCo compiled - inertia it was given|, from the principal
 * moments and axes: I = R diag(moments) R'. */
static double mj_inertia_diff(const mjModel *m, int b, const link_spec *l) {
  double R[9], moments[3], d = 0.0;
  mj_link_moments(l, moments);
  teal_mat3 I = chain_inertia_from_principal(moments, l->rpy);
  mju_quat2Mat(R, m->body_iquat + 4 * b);
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      double x = 0.0;
      for (int k = 0; k < 3; k++) {
        x += R[3 * r + k] * m->body_inertia[3 * b + k] * R[3 * c + k];
      }
      d = fmax(d, fabs(x - I.m[3 * r + c]));
    }
  }
  return d;
}

/* Link i must be body "l<i+1>" with one plain hinge at q and v index i. */
static int mj_check_joint(const mjModel *m, int b, int i) {
  int j = b >= 0 ? m->body_jntadr[b] : -1;
  int parent = i == 0 ? mj_name2id(m, mjOBJ_BODY, "base") : b - 1;
  if (b < 0 || m->body_jntnum[b] != 1 || m->jnt_type[j] != mjJNT_HINGE || m->jnt_qposadr[j] != i ||
      m->jnt_dofadr[j] != i || m->body_parentid[b] != parent) {
    fprintf(stderr, "error: MuJoCo link %d is not one hinge at index %d\n", i + 1, i);
    return 1;
  }
  int d = m->jnt_dofadr[j];
  if (m->jnt_limited[j] || m->jnt_stiffness[j] != 0.0 || m->dof_armature[d] != 0.0 ||
      m->dof_damping[d] != 0.0 || m->dof_frictionloss[d] != 0.0) {
    fprintf(stderr,
            "error: MuJoCo joint %d has limits, stiffness, armature, damping or"
            " friction loss\n",
            i + 1);
    return 1;
  }
  return 0;
}

static int mj_check_link(const mjModel *m, const link_spec *l, int i) {
  char name[32];
  snprintf(name, sizeof name, "l%d", i + 1);
  int b = mj_name2id(m, mjOBJ_BODY, name);
  if (mj_check_joint(m, b, i)) {
    return 1;
  }
  const mjtNum *quat = m->body_quat + 4 * b;
  double d = fabs(m->body_mass[b] - l->mass);
  d = fmax(d, vec3_diff(m->body_ipos + 3 * b, l->com));
  d = fmax(d, vec3_diff(m->body_pos + 3 * b, l->p_PJ));
  d = fmax(d, vec3_diff(m->jnt_axis + 3 * m->body_jntadr[b], l->axis));
  d = fmax(d, chain_max_abs(m->jnt_pos + 3 * m->body_jntadr[b], 3));
  d = fmax(d, fmax(fabs(quat[0] - 1.0), chain_max_abs(quat + 1, 3)));
  d = fmax(d, mj_inertia_diff(m, b, l));
  if (!(d <= 1e-14)) {
    fprintf(stderr, "error: MuJoCo link %d differs from the specification by %.3g\n", i + 1, d);
    return 1;
  }
  return 0;
}

/* Checks the compiled model against the specification. */
static int mj_check_model(const mjModel *m, const model_spec *s) {
  int base = mj_name2id(m, mjOBJ_BODY, "base");
  teal_vec3 g = teal_vec3_make(0.0, 0.0, -k_gravity);
  if (m->nq != s->n || m->nv != s->n || m->njnt != s->n || m->nu != 0 || m->neq != 0 ||
      m->ngeom != 0 || base != 1 || m->body_parentid[base] != 0 || m->body_jntnum[base] != 0 ||
      chain_max_abs(m->body_pos + 3 * base, 3) != 0.0 || vec3_diff(m->opt.gravity, g) != 0.0 ||
      m->opt.density != 0.0 || m->opt.viscosity != 0.0 || chain_max_abs(m->opt.wind, 3) != 0.0) {
    fprintf(stderr, "error: MuJoCo model %s: unexpected sizes, base or options\n", s->name);
    return 1;
  }
  for (int i = 0; i < s->n; i++) {
    if (mj_check_link(m, &s->link[i], i)) {
      return 1;
    }
  }
  return 0;
}

/* The URDF writer for bench_mj_load. */
static void urdf_write_model(FILE *f, const void *model) {
  urdf_write(f, model);
}

mjModel *chain_mj_build_model(const model_spec *s) {
  mjModel *m = bench_mj_load(s->name, urdf_write_model, s);
  if (m && mj_check_model(m, s)) {
    mj_deleteModel(m);
    return NULL;
  }
  if (m) {
    m->opt.timestep = k_dt;
    m->opt.integrator = mjINT_RK4;
    m->opt.disableflags |= mjDSBL_CONTACT;
  }
  return m;
}

void chain_mj_kernel_free(void *state) {
  chain_mj_kernel *e = state;
  if (e) {
    mj_deleteData(e->d);
    free(e->mass);
    free(e);
  }
}

void *chain_mj_kernel_new(const bench_model *bm) {
  int n = bm->spec->n;
  chain_mj_kernel *e = calloc(1, sizeof *e);
  if (!e) {
    return NULL;
  }
  e->m = bm->mj;
  e->d = mj_makeData(bm->mj);
  e->mass = malloc((size_t)(n * n) * sizeof(double));
  if (!e->d || !e->mass) {
    fprintf(stderr, "error: MuJoCo data: out of memory\n");
    chain_mj_kernel_free(e);
    return NULL;
  }
  chain_kernel_point(n, e->d->qpos, e->d->qvel, e->d->qacc);
  e->q1 = e->d->qpos[0];
  return e;
}

int chain_mj_call_forward(void *state, int call) {
  chain_mj_kernel *e = state;
  chain_perturb_q1(e->d->qpos, e->q1, call);
  mj_forward(e->m, e->d);
  return 0;
}

int chain_mj_call_fwd3(void *state, int call) {
  chain_mj_kernel *e = state;
  chain_perturb_q1(e->d->qpos, e->q1, call);
  mj_fwdPosition(e->m, e->d);
  mj_fwdVelocity(e->m, e->d);
  mj_fwdAcceleration(e->m, e->d);
  return 0;
}

int chain_mj_call_mass(void *state, int call) {
  chain_mj_kernel *e = state;
  chain_perturb_q1(e->d->qpos, e->q1, call);
  mj_kinematics(e->m, e->d);
  mj_comPos(e->m, e->d);
  mj_crb(e->m, e->d);
  mj_fullM(e->m, e->mass, e->d->qM);
  return 0;
}

int chain_mj_call_inv(void *state, int call) {
  chain_mj_kernel *e = state;
  chain_perturb_q1(e->d->qpos, e->q1, call);
  mj_inverse(e->m, e->d);
  return 0;
}

/* MuJoCo's own RK4 (mjINT_RK4): 1000 x mj_step at dt = 1 ms. */
typedef struct mj_sim {
  const mjModel *m;
  mjData *d;
  int n;
} mj_sim;

void chain_mj_sim_free(void *state) {
  mj_sim *s = state;
  if (s) {
    mj_deleteData(s->d);
    free(s);
  }
}

void *chain_mj_sim_new(const bench_model *bm) {
  mj_sim *s = calloc(1, sizeof *s);
  if (s) {
    s->m = bm->mj;
    s->n = bm->spec->n;
    s->d = mj_makeData(bm->mj);
  }
  if (!s || !s->d) {
    fprintf(stderr, "error: MuJoCo data: out of memory\n");
    chain_mj_sim_free(s);
    return NULL;
  }
  return s;
}

int chain_mj_sim_run(void *state, double *q_final) {
  mj_sim *s = state;
  mj_resetData(s->m, s->d);
  chain_sim_start(s->n, s->d->qpos);
  for (int k = 0; k < k_steps; k++) {
    mj_step(s->m, s->d);
  }
  memcpy(q_final, s->d->qpos, (size_t)s->n * sizeof(double));
  return bench_mj_check_warnings(s->d, "the simulation");
}

/* vdot, M and tau of both engines at the kernel point (no perturbation). */
int chain_agreement_fill(chain_teal_kernel *t, chain_mj_kernel *e, int n, agreement *a) {
  int rc = teal_mb_forward_dynamics(t->plant, t->ws, t->q, t->v, NULL, t->out);
  rc = chain_teal_check(rc, t->ws, "forward dynamics");
  if (rc == TEAL_OK) {
    rc = teal_mb_mass_matrix(t->plant, t->ws, t->q, t->mass);
    rc = chain_teal_check(rc, t->ws, "mass");
  }
  if (rc != TEAL_OK) {
    return rc;
  }
  mj_forward(e->m, e->d);
  mj_fullM(e->m, e->mass, e->d->qM);
  a->d_vdot = chain_max_abs_diff(t->out, e->d->qacc, n);
  a->max_vdot = chain_max_abs(t->out, n);
  a->d_mass = chain_max_abs_diff(t->mass, e->mass, n * n);
  a->max_mass = chain_max_abs(t->mass, n * n);
  rc = teal_mb_inverse_dynamics(t->plant, t->ws, t->q, t->v, t->vdot, NULL, t->out);
  if (chain_teal_check(rc, t->ws, "inverse dynamics") != TEAL_OK) {
    return rc;
  }
  memcpy(e->d->qacc, t->vdot, (size_t)n * sizeof(double));
  mj_inverse(e->m, e->d);
  a->d_tau = chain_max_abs_diff(t->out, e->d->qfrc_inverse, n);
  a->max_tau = chain_max_abs(t->out, n);
  return bench_mj_check_warnings(e->d, "the agreement check");
}

#else

typedef int chain_no_mujoco; /* ISO C forbids an empty translation unit */

#endif /* TEAL_BENCH_HAVE_MUJOCO */
