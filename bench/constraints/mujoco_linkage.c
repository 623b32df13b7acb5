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
  fprintf(f, "%*s<joint type=\"hinge\" axis=\"0 -1 0\"/>\n", depth + 1, "");
  fprintf(f, "%*s<inertial pos=\"%.17g 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
          depth + 1, "", 0.5 * s->len[k], s->mass[k], I[0], I[1], I[2]);
  for (int c = 0; c < s->n; c++) {
    if (s->parent[c] == k) {
      mjcf_link(f, s, c, depth + 1);
    }
  }
  fprintf(f, "%*s</body>\n", depth, "");
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
  fprintf(f, "  </worldbody>\n  <equality>\n    <connect body1=\"l%d\" ", s->close_b);
  if (s->close_a >= 0) {
    fprintf(f, "body2=\"l%d\" ", s->close_a);
  }
  fprintf(f, "anchor=\"%.17g 0 0\"/>\n  </equality>\n</mujoco>\n", s->len[s->close_b]);
}

/* The distance between the connect's two anchors (eq_data: the anchor in
 * body 1, then in body 2, each in its body's frame). */
static double mj_violation(const mjModel *m, const mjData *d) {
  double p[2][3];
  for (int i = 0; i < 2; i++) {
    int b = i == 0 ? m->eq_obj1id[0] : m->eq_obj2id[0];
    const double *a = m->eq_data + 3 * i, *R = d->xmat + 9 * b, *o = d->xpos + 3 * b;
    for (int r = 0; r < 3; r++) {
      p[i][r] = o[r] + R[3 * r] * a[0] + R[3 * r + 1] * a[1] + R[3 * r + 2] * a[2];
    }
  }
  double dx = p[0][0] - p[1][0], dy = p[0][1] - p[1][1], dz = p[0][2] - p[1][2];
  return sqrt(dx * dx + dy * dy + dz * dz);
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
  int rc = !r.d || r.m->nv != s->n || r.m->neq != 1;
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
