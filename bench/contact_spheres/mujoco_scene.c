/* bench_contact_spheres: the MuJoCo row, MJCF with a plane geom and
 * free-joint sphere bodies, checked against the specification (see
 * spheres.h). Empty without TEAL_BENCH_HAVE_MUJOCO. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spheres.h"

#ifdef TEAL_BENCH_HAVE_MUJOCO

/* Contact and constraint buffers: one contact per sphere (pyramidal condim
 * 3: 4 constraint rows each) with room to spare. */
static int mj_nconmax(int k) {
  return k + 64;
}

static int mj_njmax(int k) {
  return 4 * k + 256;
}

/* The scene as MJCF: the default contact settings, Euler at dt = 1 ms. */
static void mjcf_write(FILE *f, const scene_spec *s) {
  double I = 0.4 * k_mass * k_radius * k_radius;
  fprintf(f, "<mujoco model=\"spheres%d\">\n", s->k);
  fprintf(f, "  <option timestep=\"%.17g\" integrator=\"Euler\" gravity=\"0 0 %.17g\"/>\n", k_dt,
          -k_gravity);
  fprintf(f, "  <size nconmax=\"%d\" njmax=\"%d\"/>\n", mj_nconmax(s->k), mj_njmax(s->k));
  fprintf(f, "  <worldbody>\n    <geom name=\"ground\" type=\"plane\" size=\"0 0 1\"/>\n");
  for (int i = 0; i < s->k; i++) {
    const double *p = s->p[i].v;
    fprintf(f, "    <body name=\"s%d\" pos=\"%.17g %.17g %.17g\"><freejoint/>", i, p[0], p[1],
            p[2]);
    fprintf(f, "<inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>", k_mass,
            I, I, I);
    fprintf(f, "<geom type=\"sphere\" size=\"%.17g\"/></body>\n", k_radius);
  }
  fprintf(f, "  </worldbody>\n</mujoco>\n");
}

/* The MJCF writer for bench_mj_load. */
static void mjcf_write_model(FILE *f, const void *model) {
  mjcf_write(f, model);
}

/* The ground: geom 0, a plane on the world at the origin, default contact. */
static int mj_check_ground(const mjModel *m) {
  if (m->geom_type[0] != mjGEOM_PLANE || m->geom_bodyid[0] != 0 || m->geom_pos[2] != 0.0 ||
      m->geom_quat[0] != 1.0 || m->geom_friction[0] != k_mu || m->geom_condim[0] != 3 ||
      m->geom_contype[0] != 1 || m->geom_conaffinity[0] != 1) {
    fprintf(stderr, "error: MuJoCo ground is not a default plane at z = 0\n");
    return 1;
  }
  return 0;
}

/* Sphere i: body s<i> at its grid point with one free joint and one default
 * sphere geom, mass and inertia as specified. */
static int mj_check_sphere(const mjModel *m, const scene_spec *s, int i) {
  char name[32];
  snprintf(name, sizeof name, "s%d", i);
  int b = mj_name2id(m, mjOBJ_BODY, name);
  int j = b >= 0 ? m->body_jntadr[b] : -1, g = b >= 0 ? m->body_geomadr[b] : -1;
  if (b < 0 || m->body_parentid[b] != 0 || m->body_jntnum[b] != 1 || m->jnt_type[j] != mjJNT_FREE ||
      m->body_geomnum[b] != 1 || m->geom_type[g] != mjGEOM_SPHERE || m->geom_condim[g] != 3 ||
      m->geom_friction[3 * g] != k_mu || m->geom_contype[g] != 1 || m->geom_conaffinity[g] != 1 ||
      m->dof_damping[m->jnt_dofadr[j]] != 0.0) {
    fprintf(stderr, "error: MuJoCo sphere %d is not a free body with one default sphere\n", i);
    return 1;
  }
  double I = 0.4 * k_mass * k_radius * k_radius, d = fabs(m->body_mass[b] - k_mass);
  d = fmax(d, fabs(m->geom_size[3 * g] - k_radius));
  for (int c = 0; c < 3; c++) {
    d = fmax(d, fabs(m->body_inertia[3 * b + c] - I));
    d = fmax(d, fabs(m->body_pos[3 * b + c] - s->p[i].v[c]));
    d = fmax(d, fabs(m->qpos0[m->jnt_qposadr[j] + c] - s->p[i].v[c]));
    d = fmax(d, fabs(m->body_ipos[3 * b + c]));
  }
  if (!(d <= 1e-15)) {
    fprintf(stderr, "error: MuJoCo sphere %d differs from the specification by %.3g\n", i, d);
    return 1;
  }
  return 0;
}

/* Checks the compiled model against the specification. */
static int mj_check_model(const mjModel *m, const scene_spec *s) {
  if (m->nbody != s->k + 1 || m->njnt != s->k || m->ngeom != s->k + 1 || m->nq != 7 * s->k ||
      m->nv != 6 * s->k || m->nu != 0 || m->neq != 0 || m->opt.timestep != k_dt ||
      m->opt.integrator != mjINT_EULER || m->opt.gravity[2] != -k_gravity ||
      m->opt.gravity[0] != 0.0 || m->opt.gravity[1] != 0.0 || m->opt.cone != mjCONE_PYRAMIDAL ||
      m->opt.disableflags != 0 || m->opt.density != 0.0 || m->opt.viscosity != 0.0) {
    fprintf(stderr, "error: MuJoCo model spheres%d: unexpected sizes or options\n", s->k);
    return 1;
  }
  if (mj_check_ground(m)) {
    return 1;
  }
  for (int i = 0; i < s->k; i++) {
    if (mj_check_sphere(m, s, i)) {
      return 1;
    }
  }
  return 0;
}

typedef struct mj_sim {
  const scene_spec *spec;
  mjModel *m;
  mjData *d;
} mj_sim;

void spheres_mj_sim_free(void *state) {
  mj_sim *s = state;
  if (s) {
    mj_deleteData(s->d);
    mj_deleteModel(s->m);
    free(s);
  }
}

void *spheres_mj_sim_new(const scene_spec *spec) {
  mj_sim *s = calloc(1, sizeof *s);
  if (!s) {
    return NULL;
  }
  s->spec = spec;
  char name[32];
  snprintf(name, sizeof name, "spheres%d", spec->k);
  s->m = bench_mj_load(name, mjcf_write_model, spec);
  if (!s->m || mj_check_model(s->m, spec)) {
    spheres_mj_sim_free(s);
    return NULL;
  }
  s->d = mj_makeData(s->m);
  if (!s->d) {
    fprintf(stderr, "error: MuJoCo data: out of memory\n");
    spheres_mj_sim_free(s);
    return NULL;
  }
  return s;
}

int spheres_mj_state_size(const void *state) {
  const mj_sim *s = state;
  return s->m->nq + s->m->nv;
}

static void mj_rest_figures(const mj_sim *s, run_info *info) {
  double z[MAX_SPHERES], speed[MAX_SPHERES];
  for (int i = 0; i < s->spec->k; i++) {
    int j = s->m->body_jntadr[i + 1];
    const double *v = s->d->qvel + s->m->jnt_dofadr[j]; /* free joint: linear first */
    z[i] = s->d->qpos[s->m->jnt_qposadr[j] + 2];
    speed[i] = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  spheres_rest_figures(z, speed, s->spec->k, info);
}

/* 1000 x mj_step from the model's qpos0 (the grid) at rest. */
int spheres_mj_run(void *state, int count_contacts, double *x, run_info *info) {
  mj_sim *s = state;
  int steps = (int)lround(k_t_final / k_dt), ncon = 0;
  mj_resetData(s->m, s->d);
  for (int k = 0; k < steps; k++) {
    mj_step(s->m, s->d);
    if (count_contacts && s->d->ncon > ncon) {
      ncon = s->d->ncon;
    }
  }
  memcpy(x, s->d->qpos, (size_t)s->m->nq * sizeof(double));
  memcpy(x + s->m->nq, s->d->qvel, (size_t)s->m->nv * sizeof(double));
  info->steps = steps;
  info->rejected = -1;
  info->evals = -1;
  info->max_contacts = count_contacts ? ncon : -1;
  mj_rest_figures(s, info);
  return bench_mj_check_warnings(s->d, "the simulation");
}

#else

typedef int spheres_no_mujoco; /* ISO C forbids an empty translation unit */

#endif /* TEAL_BENCH_HAVE_MUJOCO */
