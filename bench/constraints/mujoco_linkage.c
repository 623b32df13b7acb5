/* bench_constraints: MuJoCo's row, the linkage in MJCF with the loop closed
 * by a connect equality (see linkage.h). Empty without
 * TEAL_BENCH_HAVE_MUJOCO. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/timing.h"
#include "linkage.h"

#ifdef TEAL_BENCH_HAVE_MUJOCO

/* Link k and, nested in it, its children; the bodies' frames are turned to
 * the initial angles, so that qpos0 is the assembled linkage (a connect
 * equality takes its second anchor from qpos0). */
static void mjcf_link(FILE *f, const linkage_spec *s, int k, int depth) {
  double I[3], half = 0.5 * s->q0[k];
  linkage_rod_inertia(s->len[k], s->mass[k], I);
  fprintf(f, "%*s<body name=\"l%d\" pos=\"%.17g 0 %.17g\" quat=\"%.17g 0 %.17g 0\">\n", depth, "",
          k, s->at[k], s->at_z[k], cos(half), -sin(half));
  fprintf(f, "%*s<joint name=\"j%d\" type=\"hinge\" axis=\"0 -1 0\"/>\n", depth + 1, "", k);
  fprintf(f, "%*s<inertial pos=\"%.17g 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
          depth + 1, "", 0.5 * s->len[k], s->mass[k], I[0], I[1], I[2]);
  for (int c = 0; c < s->n; c++) {
    if (s->parent[c] == k) {
      mjcf_link(f, s, c, depth + 1);
    }
  }
  fprintf(f, "%*s</body>\n", depth, "");
}

/* The welded sphere, a free body at its initial pose. */
static void mjcf_blob(FILE *f, const linkage_spec *s) {
  double p[3], quat[4], I = 0.4 * s->blob_mass * s->blob_radius * s->blob_radius;
  linkage_blob_pose(s, p, quat);
  fprintf(f, "    <body name=\"blob\" pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\">",
          p[0], p[1], p[2], quat[0], quat[1], quat[2], quat[3]);
  fprintf(f,
          "<freejoint/><inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>",
          s->blob_mass, I, I, I);
  fprintf(f, "</body>\n");
}

/* The equalities: a connect closing the loop, or a joint equality (the
 * gear; MuJoCo takes it about qpos0, where it holds) and a weld (its
 * relative pose from qpos0). */
static void mjcf_equalities(FILE *f, const linkage_spec *s) {
  fprintf(f, "  <equality>\n");
  if (s->kind == LINKAGE_GEAR_WELD) {
    fprintf(f, "    <joint joint1=\"j%d\" joint2=\"j%d\" polycoef=\"0 %.17g 0 0 0\"/>\n", s->gear_b,
            s->gear_a, s->ratio);
    fprintf(f, "    <weld body1=\"blob\" body2=\"l%d\"/>\n", s->weld_link);
  } else {
    fprintf(f, "    <connect body1=\"l%d\" ", s->close_b);
    if (s->close_a >= 0) {
      fprintf(f, "body2=\"l%d\" ", s->close_a);
    }
    fprintf(f, "anchor=\"%.17g 0 0\"/>\n", s->len[s->close_b]);
  }
  fprintf(f, "  </equality>\n");
}

static void mjcf_write(FILE *f, const void *model) {
  const linkage_spec *s = model;
  fprintf(f, "<mujoco model=\"linkage\">\n");
  fprintf(f, "  <option timestep=\"%.17g\" integrator=\"Euler\" gravity=\"0 0 %.17g\">\n", k_dt,
          -k_gravity);
  fprintf(f, "    <flag energy=\"enable\" contact=\"disable\"/>\n  </option>\n  <worldbody>\n");
  for (int k = 0; k < s->n; k++) {
    if (s->parent[k] < 0) {
      mjcf_link(f, s, k, 4);
    }
  }
  if (s->kind == LINKAGE_GEAR_WELD) {
    mjcf_blob(f, s);
  }
  fprintf(f, "  </worldbody>\n");
  mjcf_equalities(f, s);
  fprintf(f, "</mujoco>\n");
}

/* The norm of the equality rows' position errors (for a connect, the
 * distance between its anchors), after mj_forward. */
static double mj_violation(const mjModel *m, const mjData *d) {
  double sum = 0.0;
  (void)m;
  for (int i = 0; i < d->nefc; i++) {
    sum += d->efc_type[i] == mjCNSTR_EQUALITY ? d->efc_pos[i] * d->efc_pos[i] : 0.0;
  }
  return sqrt(sum);
}

typedef struct mj_run {
  mjModel *m;
  mjData *d;
} mj_run;

static int mj_call_forward(void *state, int n) {
  mj_run *r = state;
  (void)n;
  mj_forward(r->m, r->d);
  return 0;
}

/* 1 s of mj_step from qpos0 at rest; the largest violation after a step
 * into *max_violation when it is not NULL. */
static int mj_call_simulate(void *state, int n) {
  mj_run *r = state;
  (void)n;
  mj_resetData(r->m, r->d);
  int steps = (int)lround(k_t_final / k_dt);
  for (int k = 0; k < steps; k++) {
    mj_step(r->m, r->d);
  }
  return 0;
}

/* The untimed run: the largest violation and the energy change. */
static void mj_figures(mj_run *r, linkage_result *out) {
  mj_resetData(r->m, r->d);
  mj_forward(r->m, r->d);
  double e0 = r->d->energy[0] + r->d->energy[1];
  int steps = (int)lround(k_t_final / k_dt);
  out->max_violation = 0.0;
  for (int k = 0; k < steps; k++) {
    mj_step(r->m, r->d);
    mj_forward(r->m, r->d); /* xpos and energy at the new state */
    out->max_violation = fmax(out->max_violation, mj_violation(r->m, r->d));
  }
  out->violation = mj_violation(r->m, r->d);
  out->energy_change = r->d->energy[0] + r->d->energy[1] - e0;
}

int linkage_mujoco(const linkage_spec *s, linkage_result *out) {
  mj_run r = {bench_mj_load(s->name, mjcf_write, s), NULL};
  r.d = r.m ? mj_makeData(r.m) : NULL;
  int rc = !r.d || r.m->nv != s->n + 6 * s->kind || r.m->neq != 1 + s->kind;
  if (!rc) {
    mj_forward(r.m, r.d);
    rc = !(mj_violation(r.m, r.d) < 1e-12); /* qpos0 is the assembled linkage */
  }
  if (rc) {
    fprintf(stderr, "error: MuJoCo %s: not the specified linkage\n", s->title);
  } else {
    out->fd_s = linkage_time_kernel(mj_call_forward, &r, 1.0);
    mj_figures(&r, out);
    out->sim_s = linkage_time_kernel(mj_call_simulate, &r, 3.0);
    rc = bench_mj_check_warnings(r.d, "the simulation") || isnan(out->fd_s) || isnan(out->sim_s);
  }
  mj_deleteData(r.d);
  mj_deleteModel(r.m);
  return rc;
}

#else

typedef int linkage_no_mujoco; /* ISO C forbids an empty translation unit */

#endif /* TEAL_BENCH_HAVE_MUJOCO */
