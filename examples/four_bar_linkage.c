/* A crank-rocker four-bar linkage: three bars on revolute joints, the loop
 * closed by a ball constraint, simulated with the constraints projected
 * after every step.
 *
 * Lengths: crank a = 1, coupler b = 3, rocker c = 2.5, ground d = 3 (m);
 * a + b <= c + d with the crank the shortest link, so the crank can turn
 * all the way round while the rocker rocks (Grashof's condition). The bars
 * move in the (x, z) plane about -y, gravity along -z; a joint angle is
 * its bar's angle from the ground line. The planar loop is closed by a 3-D
 * ball constraint, so one of its three rows is redundant: the constraint
 * solve and the projection drop it.
 *
 * 1. Passive: released at rest with the crank at 1.2 rad, 5 s under
 *    gravity (RK45 at 1e-8).
 * 2. Driven: the crank gets a motor, and a PID controller makes it track
 *    q_d = 1.2 + 2 t (one turn every pi seconds) for 6 s.
 * At every 10 ms the program compares the rocker angle with the closed-form
 * position analysis (the circles of radius b about the crank tip and c
 * about the rocker pivot) and checks Freudenstein's equation
 *     K1 cos(t4) - K2 cos(t2) + K3 = cos(t2 - t4),
 *     K1 = d / a, K2 = d / c, K3 = (a^2 - b^2 + c^2 + d^2) / (2 a c),
 * with the constraint error and (passive) the energy, and writes every
 * sample to four_bar_linkage.csv. It exits non-zero when the linkage
 * leaves its manifold (error > 1e-8), the rocker angle or Freudenstein's
 * equation is off by more than 1e-7, the passive energy drifts by more
 * than 1e-7 of its size, or the crank does not follow its command. */
#include <math.h>
#include <stdio.h>

#include "teal.h"

#define LA 1.0
#define LB 3.0
#define LC 2.5
#define LD 3.0
#define CRANK0 1.2
#define CRANK_SPEED 2.0 /* rad/s, the driven phase */
#define PI 3.14159265358979323846

/* What the checks found over a run. */
typedef struct run_stats {
  double drift, angle, freudenstein, energy, tracking, crank_travel;
} run_stats;

static teal_spatial_inertia bar(double m, double l) {
  return teal_spatial_inertia_from_central(m, teal_vec3_make(0.5 * l, 0, 0),
                                           teal_mat3_diag(1e-4, m * l * l / 12, m * l * l / 12));
}

/* The linkage (joints 0, 1, 2: crank, coupler, rocker), with a motor on
 * the crank when motor is nonzero; finalized, or NULL with err set. */
static teal_plant *make_linkage(int motor, teal_error *err) {
  teal_plant *p = teal_plant_new(0.0, err);
  if (!p) {
    return NULL;
  }
  teal_vec3 axis = teal_vec3_make(0, -1, 0);
  teal_spatial_inertia Ma = bar(1.0, LA), Mb = bar(2.0, LB), Mc = bar(1.5, LC);
  int crank = teal_plant_add_rigid_body(p, "crank", TEAL_DEFAULT_MODEL_INSTANCE, &Ma);
  int coupler = teal_plant_add_rigid_body(p, "coupler", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
  int rocker = teal_plant_add_rigid_body(p, "rocker", TEAL_DEFAULT_MODEL_INSTANCE, &Mc);
  teal_rotation I = teal_rotation_identity();
  int tip = teal_plant_add_frame(p, "crank_tip", teal_plant_body_frame(p, crank),
                                 teal_transform_make(I, teal_vec3_make(LA, 0, 0)));
  int pivot = teal_plant_add_frame(p, "rocker_pivot", TEAL_WORLD_FRAME,
                                   teal_transform_make(I, teal_vec3_make(LD, 0, 0)));
  int j = teal_plant_add_joint(p, "crank", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, crank), &axis, 0);
  teal_plant_add_joint(p, "coupler", TEAL_JOINT_REVOLUTE, tip, teal_plant_body_frame(p, coupler),
                       &axis, 0);
  teal_plant_add_joint(p, "rocker", TEAL_JOINT_REVOLUTE, pivot, teal_plant_body_frame(p, rocker),
                       &axis, 0);
  teal_plant_add_ball_constraint(p, coupler, teal_vec3_make(LB, 0, 0), rocker,
                                 teal_vec3_make(LC, 0, 0));
  if (motor) {
    teal_plant_add_joint_actuator(p, "crank_motor", j, INFINITY);
  }
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81));
  if (teal_plant_finalize(p) != TEAL_OK) {
    *err = *teal_plant_error(p);
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

/* The closed-form rocker angle at crank angle t2 (the assembly branch
 * with the coupler-rocker joint above the line from the crank tip to the
 * rocker pivot). */
static double rocker_angle(double t2) {
  double bx = LA * cos(t2), bz = LA * sin(t2), dx = LD - bx, dz = -bz, e = hypot(dx, dz);
  double along = (LB * LB - LC * LC + e * e) / (2 * e), h = sqrt(LB * LB - along * along);
  double cx = bx + (along * dx - h * dz) / e, cz = bz + (along * dz + h * dx) / e;
  return atan2(cz, cx - LD);
}

static double freudenstein(double t2, double t4) {
  double K1 = LD / LA, K2 = LD / LC, K3 = (LA * LA - LB * LB + LC * LC + LD * LD) / (2 * LA * LC);
  return K1 * cos(t4) - K2 * cos(t2) + K3 - cos(t2 - t4);
}

/* The joint angles (crank, coupler, rocker) of ctx, and back. */
static void get_angles(const teal_plant *p, const teal_context *ctx, double *by_joint) {
  double q[3];
  teal_plant_get_positions(p, ctx, q, 3);
  for (int j = 0; j < 3; j++) {
    by_joint[j] = q[teal_plant_joint_q_start(p, j)];
  }
}
static int set_assembled(const teal_plant *p, teal_context *ctx) {
  double t4 = rocker_angle(CRANK0), q[3];
  double bx = LA * cos(CRANK0), bz = LA * sin(CRANK0);
  double t3 = atan2(LC * sin(t4) - bz, LD + LC * cos(t4) - bx);
  double by_joint[3] = {CRANK0, t3 - CRANK0, t4};
  for (int j = 0; j < 3; j++) {
    q[teal_plant_joint_q_start(p, j)] = by_joint[j];
  }
  return teal_plant_set_positions(p, ctx, q, 3);
}

static double energy(const teal_system *sys, const teal_context *ctx) {
  double ke = 0.0, pe = 0.0;
  teal_calc_kinetic_energy(sys, ctx, &ke);
  teal_calc_potential_energy(sys, ctx, &pe);
  return ke + pe;
}

/* One 10 ms sample: the checks, and a CSV row. */
static void sample(FILE *csv, int phase, const teal_plant *p, const teal_system *sys,
                   const teal_context *ctx, double e0, run_stats *st) {
  double a[3], perr[3], t = teal_context_time(ctx);
  get_angles(p, ctx, a);
  teal_plant_calc_constraint_position_errors(p, ctx, perr);
  double drift = fmax(fabs(perr[0]), fmax(fabs(perr[1]), fabs(perr[2])));
  double angle = fabs(remainder(a[2] - rocker_angle(a[0]), 2 * PI));
  double fr = fabs(freudenstein(a[0], a[2]));
  double de = phase == 1 ? fabs(energy(sys, ctx) - e0) / fabs(e0) : 0.0;
  double track = phase == 2 ? fabs(a[0] - (CRANK0 + CRANK_SPEED * t)) : 0.0;
  st->drift = fmax(st->drift, drift);
  st->angle = fmax(st->angle, angle);
  st->freudenstein = fmax(st->freudenstein, fr);
  st->energy = fmax(st->energy, de);
  st->tracking = t >= 1.0 ? fmax(st->tracking, track) : st->tracking;
  st->crank_travel = fmax(st->crank_travel, fabs(a[0] - CRANK0));
  if (csv) {
    fprintf(csv, "%d,%.4f,%.12f,%.12f,%.12f,%.12f,%.3e,%.3e,%.3e\n", phase, t, a[0], a[1], a[2],
            rocker_angle(a[0]), fr, drift, phase == 1 ? de : track);
  }
}

/* Advances sim to t_end in 10 ms samples. */
static int run(teal_simulator *sim, double t_end, FILE *csv, int phase, const teal_plant *p,
               run_stats *st) {
  teal_context *ctx = teal_simulator_context(sim);
  const teal_system *sys = teal_simulator_system(sim);
  double e0 = energy(sys, ctx);
  teal_sim_status status;
  for (int k = 1; k <= (int)lround(t_end / 0.01); k++) {
    if (teal_simulator_advance_to(sim, 0.01 * k, &status) != TEAL_OK) {
      fprintf(stderr, "four_bar_linkage: phase %d failed at t = %g: %s\n", phase, status.time,
              status.message);
      return 1;
    }
    sample(csv, phase, p, sys, ctx, e0, st);
  }
  return 0;
}

static teal_simulator *new_simulator(const teal_system *sys, teal_error *err) {
  teal_simulator *sim = teal_simulator_new(sys, NULL, err);
  if (sim) {
    teal_simulator_set_integrator(sim, teal_integrator_rk45);
    teal_simulator_set_accuracy(sim, 1e-8);
  }
  return sim;
}

static int passive(FILE *csv, run_stats *st, teal_error *err) {
  teal_plant *p = make_linkage(0, err);
  teal_simulator *sim = p ? new_simulator(teal_plant_system(p), err) : NULL;
  int rc = sim ? set_assembled(p, teal_simulator_context(sim)) : 1;
  rc = rc ? 1 : run(sim, 5.0, csv, 1, p, st);
  teal_simulator_free(sim);
  teal_plant_free(p);
  return rc;
}

/* The plant, a PID on the crank's [q; v] (picked from the state by a
 * matrix gain) and a ramp giving its desired [q_d; v_d]. */
static teal_system *driven_diagram(teal_plant *p, teal_error *err) {
  double select[12] = {0}, kp = 3000, ki = 2000, kd = 200;
  select[teal_plant_joint_q_start(p, 0)] = 1.0;
  select[6 + 3 + teal_plant_joint_q_start(p, 0)] = 1.0;
  double slope[2] = {CRANK_SPEED, 0.0}, start[2] = {CRANK0, CRANK_SPEED};
  teal_builder *b = teal_builder_new("four_bar_linkage");
  teal_builder_add(b, teal_plant_system(p));
  teal_builder_add(b, teal_matrix_gain_new("crank_state", select, 2, 6, err));
  teal_builder_add(b, teal_ramp_new("desired", slope, 0.0, start, 2, err));
  teal_builder_add(b, teal_pid_new("pid", &kp, &ki, &kd, 1, err));
  teal_builder_connect_by_name(b, "plant", "state", "crank_state", "u");
  teal_builder_connect_by_name(b, "crank_state", "y", "pid", "estimated_state");
  teal_builder_connect_by_name(b, "desired", "y", "pid", "desired_state");
  teal_builder_connect_by_name(b, "pid", "control", "plant", "actuation");
  return teal_builder_build(b, err);
}

static int driven(FILE *csv, run_stats *st, teal_error *err) {
  teal_plant *p = make_linkage(1, err);
  teal_system *d = p ? driven_diagram(p, err) : NULL; /* owns p once added */
  teal_simulator *sim = d ? new_simulator(d, err) : NULL;
  int rc = sim ? set_assembled(p, teal_simulator_context(sim)) : 1;
  rc = rc ? 1 : run(sim, 6.0, csv, 2, p, st);
  teal_simulator_free(sim);
  teal_system_free(d);
  return rc;
}

static int report(const char *phase, const run_stats *st) {
  printf("%s: constraint error %.2e, rocker angle %.2e, Freudenstein %.2e", phase, st->drift,
         st->angle, st->freudenstein);
  int ok = st->drift <= 1e-8 && st->angle <= 1e-7 && st->freudenstein <= 1e-7;
  if (st->energy > 0.0) {
    printf(", energy drift %.2e", st->energy);
    ok = ok && st->energy <= 1e-7;
  } else {
    printf(", crank tracking %.2e rad after 1 s, travel %.2f rad", st->tracking, st->crank_travel);
    ok = ok && st->tracking < 0.02 && st->crank_travel > 3 * PI; /* almost two turns */
  }
  printf(": %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

int main(void) {
  FILE *csv = fopen("four_bar_linkage.csv", "w");
  if (!csv) {
    perror("four_bar_linkage.csv");
    return 1;
  }
  fprintf(csv,
          "phase,t,crank,coupler,rocker,rocker_closed_form,freudenstein,constraint_error,"
          "energy_drift_or_tracking\n");
  teal_error err = {TEAL_OK, ""};
  run_stats ps = {0}, ds = {0};
  int rc = passive(csv, &ps, &err);
  rc = rc ? rc : driven(csv, &ds, &err);
  fclose(csv);
  if (rc) {
    fprintf(stderr, "four_bar_linkage: %s\n", err.code ? err.message : "simulation failed");
    return 1;
  }
  rc = report("passive", &ps) | report("driven ", &ds);
  printf("wrote four_bar_linkage.csv\n");
  return rc;
}
