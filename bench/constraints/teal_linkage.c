/* bench_constraints: Teal's rows, the linkage as a plant of hinges closed by
 * a ball constraint (see linkage.h), stepped by teal_simulator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/timing.h"
#include "linkage.h"
#include "teal.h"

#define MAX_Q (MAX_LINKS + 7)

/* One Teal row: the plant, its simulator and the initial state. */
typedef struct teal_run {
  teal_plant *plant;
  teal_simulator *sim;
  teal_mb_data *data; /* for the energy */
  int nq, nv, m;
  double q0[MAX_Q], q[MAX_Q], v[MAX_Q], perr[32];
} teal_run;

/* Link k's body, hinged about -y at its place on its parent (or the world). */
static int add_link(teal_plant *p, const linkage_spec *s, int k, int *body) {
  char name[16];
  double I[3];
  linkage_rod_inertia(s->len[k], s->mass[k], I);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(
      s->mass[k], teal_vec3_make(0.5 * s->len[k], 0, 0), teal_mat3_diag(I[0], I[1], I[2]));
  snprintf(name, sizeof name, "l%d", k);
  body[k] = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int parent = s->parent[k] < 0 ? TEAL_WORLD_FRAME : teal_plant_body_frame(p, body[s->parent[k]]);
  teal_transform X_PF =
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(s->at[k], 0, s->at_z[k]));
  snprintf(name, sizeof name, "f%d", k);
  int frame = teal_plant_add_frame(p, name, parent, X_PF);
  teal_vec3 axis = teal_vec3_make(0, -1, 0);
  snprintf(name, sizeof name, "j%d", k);
  return teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, frame,
                              teal_plant_body_frame(p, body[k]), &axis, 0.0);
}

/* The gear (a coupler) and the welded sphere (a free body) of a
 * LINKAGE_GEAR_WELD linkage; a negative status on failure. */
static int add_gear_weld(teal_plant *p, const linkage_spec *s, const int *body) {
  int rc = teal_plant_add_coupler_constraint(p, s->gear_b, s->gear_a, s->ratio, 0.0);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(s->blob_mass, s->blob_radius);
  int blob = rc < 0 ? rc : teal_plant_add_rigid_body(p, "blob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  if (blob < 0) {
    return blob;
  }
  teal_transform X_AP =
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(s->len[s->weld_link], 0, 0));
  return teal_plant_add_weld_constraint(p, body[s->weld_link], X_AP, blob,
                                        teal_transform_identity());
}

static teal_plant *build_plant(const linkage_spec *s, double time_step, int project) {
  int body[MAX_LINKS];
  teal_plant *p = teal_plant_new(time_step, NULL);
  int rc = p ? teal_plant_set_gravity(p, teal_vec3_make(0, 0, -k_gravity)) : TEAL_ENOMEM;
  rc = rc < 0 ? rc : teal_plant_set_constraint_projection(p, project);
  for (int k = 0; k < s->n && rc >= 0; k++) {
    rc = add_link(p, s, k, body);
  }
  if (rc >= 0 && s->kind == LINKAGE_GEAR_WELD) {
    rc = add_gear_weld(p, s, body);
  } else if (rc >= 0) {
    int a = s->close_a < 0 ? TEAL_WORLD_BODY : body[s->close_a];
    teal_vec3 p_A = teal_vec3_make(s->close_a < 0 ? s->world_x : s->len[s->close_a], 0, 0);
    rc = teal_plant_add_ball_constraint(p, a, p_A, body[s->close_b],
                                        teal_vec3_make(s->len[s->close_b], 0, 0));
  }
  if (rc < 0 || teal_plant_finalize(p) != TEAL_OK) {
    fprintf(stderr, "error: Teal %s: %s\n", s->title, p ? teal_plant_error(p)->message : "");
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

/* The initial q: the links' angles and the welded sphere's pose. */
static void initial_q(teal_run *r, const linkage_spec *s) {
  teal_plant_default_q(r->plant, r->q0);
  for (int k = 0; k < s->n; k++) {
    r->q0[teal_plant_joint_q_start(r->plant, k)] = s->q0[k];
  }
  if (s->kind == LINKAGE_GEAR_WELD) {
    double p[3], quat[4];
    int blob = teal_plant_get_body_by_name(r->plant, "blob", TEAL_DEFAULT_MODEL_INSTANCE, NULL);
    double *q = r->q0 + teal_plant_joint_q_start(r->plant, teal_plant_body_joint(r->plant, blob));
    linkage_blob_pose(s, p, quat);
    memcpy(q, quat, sizeof quat); /* quaternion (w, x, y, z), then position */
    memcpy(q + 4, p, sizeof p);
  }
}

static void teal_run_free(teal_run *r) {
  teal_simulator_free(r->sim);
  teal_mb_data_free(r->data);
  teal_plant_free(r->plant);
}

/* The plant (time_step 0: continuous, with fixed-step RK4 at k_dt; project:
 * the constraints projected after every step to k_projection_accuracy),
 * its simulator and the initial angles; nonzero on failure (reported). */
static int teal_run_init(teal_run *r, const linkage_spec *s, double time_step, int project) {
  memset(r, 0, sizeof *r);
  r->plant = build_plant(s, time_step, project);
  r->sim = r->plant ? teal_simulator_new(teal_plant_system(r->plant), NULL, NULL) : NULL;
  r->data = r->plant ? teal_mb_data_new(r->plant, NULL) : NULL;
  int rc = r->sim && r->data ? TEAL_OK : TEAL_ENOMEM;
  if (rc == TEAL_OK && time_step == 0.0) {
    rc = teal_simulator_set_integrator(r->sim, teal_integrator_rk4);
    rc = rc ? rc : teal_simulator_set_fixed_step(r->sim, k_dt);
    /* the projection's tolerance: a fixed-step run's context otherwise has 1e-4 */
    rc = rc || !project
             ? rc
             : teal_context_set_accuracy(teal_simulator_context(r->sim), k_projection_accuracy);
  }
  if (rc == TEAL_OK) {
    r->nq = teal_plant_nq(r->plant);
    r->nv = teal_plant_nv(r->plant);
    r->m = teal_plant_num_constraint_rows(r->plant);
    rc = r->nq <= MAX_Q && r->m <= 32 ? TEAL_OK : TEAL_ESIZE;
  }
  if (rc == TEAL_OK) {
    initial_q(r, s);
  }
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal %s: simulator setup failed\n", s->title);
    teal_run_free(r);
  }
  return rc != TEAL_OK;
}

/* Back to the initial angles at rest, at t = 0. */
static int teal_reset(teal_run *r) {
  teal_context *ctx = teal_simulator_context(r->sim);
  double zero[MAX_Q] = {0};
  teal_context_set_time(ctx, 0.0);
  int rc = teal_plant_set_positions(r->plant, ctx, r->q0, r->nq);
  return rc ? rc : teal_plant_set_velocities(r->plant, ctx, zero, r->nv);
}

/* The norm of all the rows' position errors at the simulator's state (for
 * the ball, |p_WQ - p_WP|). */
static double teal_violation(teal_run *r) {
  const teal_context *ctx = teal_simulator_context(r->sim);
  double sum = 0.0;
  if (teal_plant_calc_constraint_position_errors(r->plant, ctx, r->perr) != TEAL_OK) {
    return NAN;
  }
  for (int i = 0; i < r->m; i++) {
    sum += r->perr[i] * r->perr[i];
  }
  return sqrt(sum);
}

static double teal_energy(teal_run *r) {
  const teal_context *ctx = teal_simulator_context(r->sim);
  double ke = NAN, pe = NAN;
  teal_plant_get_positions(r->plant, ctx, r->q, r->nq);
  teal_plant_get_velocities(r->plant, ctx, r->v, r->nv);
  teal_mb_kinetic_energy(r->plant, r->data, r->q, r->v, &ke);
  teal_mb_potential_energy(r->plant, r->data, r->q, &pe);
  return ke + pe;
}

/* 1 s from the initial state (the timed kernel). */
static int teal_call_simulate(void *state, int n) {
  teal_run *r = state;
  teal_sim_status st;
  (void)n;
  int rc = teal_reset(r);
  rc = rc ? rc : teal_simulator_initialize(r->sim, &st);
  return rc ? rc : teal_simulator_advance_to(r->sim, k_t_final, &st);
}

/* The untimed run: violation after every step, and the energy change. */
static int teal_figures(teal_run *r, linkage_result *out) {
  teal_sim_status st;
  int steps = (int)lround(k_t_final / k_dt), rc = teal_reset(r);
  rc = rc ? rc : teal_simulator_initialize(r->sim, &st);
  double e0 = teal_energy(r);
  out->max_violation = 0.0;
  for (int k = 1; rc == TEAL_OK && k <= steps; k++) {
    rc = teal_simulator_advance_to(r->sim, k * k_dt, &st);
    out->max_violation = fmax(out->max_violation, teal_violation(r));
  }
  out->violation = teal_violation(r);
  out->energy_change = teal_energy(r) - e0;
  return rc;
}

/* One constrained forward dynamics: the plant's accelerations at q0 (the
 * continuous plant's constrained accelerations, the discrete plant's
 * (v+ - v) / h of one step), q nudged by 1e-9 every other call so that no
 * cached value serves. */
static int teal_call_forward(void *state, int n) {
  teal_run *r = state;
  teal_context *ctx = teal_simulator_context(r->sim);
  const double *vdot;
  memcpy(r->q, r->q0, (size_t)r->nq * sizeof(double));
  r->q[0] += (n & 1) * 1e-9;
  int rc = teal_plant_set_positions(r->plant, ctx, r->q, r->nq);
  return rc ? rc : teal_plant_eval_generalized_acceleration(r->plant, ctx, &vdot);
}

static int teal_row(const linkage_spec *s, double time_step, int project, linkage_result *out) {
  teal_run r;
  if (teal_run_init(&r, s, time_step, project)) {
    return 1;
  }
  int rc = teal_figures(&r, out);
  if (rc == TEAL_OK) {
    out->sim_s = linkage_time_kernel(teal_call_simulate, &r, 3.0);
    out->fd_s = linkage_time_kernel(teal_call_forward, &r, 1.0);
    rc = isnan(out->sim_s) || isnan(out->fd_s);
  }
  if (rc) {
    fprintf(stderr, "error: Teal %s (%s) failed: %s\n", s->title,
            time_step > 0.0 ? "discrete" : "continuous", teal_simulator_error(r.sim)->message);
  }
  teal_run_free(&r);
  return rc != 0;
}

int linkage_teal_discrete(const linkage_spec *s, linkage_result *out) {
  return teal_row(s, k_dt, 0, out);
}

int linkage_teal_continuous(const linkage_spec *s, linkage_result *out) {
  return teal_row(s, 0.0, 0, out);
}

int linkage_teal_projected(const linkage_spec *s, linkage_result *out) {
  return teal_row(s, 0.0, 1, out);
}
