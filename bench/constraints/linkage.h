/* bench_constraints's parts (see bench/constraints.c): the two closed
 * linkages, each engine's rows and what they measure. */
#ifndef TEAL_BENCH_CONSTRAINTS_LINKAGE_H
#define TEAL_BENCH_CONSTRAINTS_LINKAGE_H

#include "common/mujoco_model.h"

/* ---- workload constants ------------------------------------------------------ */

#define NUM_LINKAGES 3
#define MAX_LINKS 25
static const double k_gravity = 9.81;
static const double k_dt = 1e-3;
static const double k_t_final = 1.0;
static const double k_rod_radius = 0.01; /* the links' inertia about their axis */
/* the projected continuous row's tolerance on |perr_i| and |(G v)_i| */
static const double k_projection_accuracy = 1e-12;

/* ---- the linkages (linkage.c) -------------------------------------------------- */

/* A planar linkage of rods in the x-z plane: link k is a uniform rod of
 * length len[k] and mass mass[k] along its frame's x axis, hinged about -y
 * (so a positive angle turns x toward +z) at point (at[k], 0, at_z[k]) of
 * its parent's frame (parent[k] = -1: the world), at the relative angle
 * q0[k] initially. A ball constraint closes the loop: the end (len, 0, 0)
 * of link close_b coincides with the end of link close_a, or with the
 * world point (world_x, 0, 0) when close_a is -1. */
typedef struct linkage_spec {
  char title[32], name[16]; /* name: the MJCF file's */
  int n;
  int parent[MAX_LINKS];
  double len[MAX_LINKS], mass[MAX_LINKS], at[MAX_LINKS], at_z[MAX_LINKS], q0[MAX_LINKS];
  int close_a, close_b;
  double world_x;
  /* kind LINKAGE_GEAR_WELD instead of the ball: a coupler q[gear_b] =
   * ratio q[gear_a] (MuJoCo: a joint equality) and a free sphere (mass
   * blob_mass, radius blob_radius) welded at the end of link weld_link
   * (MuJoCo: a weld equality) */
  int kind;
  int gear_a, gear_b, weld_link;
  double ratio, blob_mass, blob_radius;
} linkage_spec;

enum { LINKAGE_BALL_LOOP = 0, LINKAGE_GEAR_WELD = 1 };

/* The crank-rocker four-bar: ground 1.0 m, crank 0.3 m (at 90 degrees),
 * coupler 1.0 m, rocker 0.8 m, 1 kg per metre. */
void linkage_four_bar(linkage_spec *s);

/* 25 rods of 0.1 m and 0.1 kg hinged in a chain from the world origin, the
 * last one's end held at (1, 0, 0) by the ball constraint: a closed loop
 * started in a trapezoid (12 links down, one level, 12 up). */
void linkage_chain(linkage_spec *s);

/* Two rods hinged to the world (0.4 m, 0.4 kg at the origin, 0.3 m, 0.3 kg
 * at (0.6, 0, 0)) geared by q1 = -2 q0 from q0 = -0.3 rad, and a 0.5 kg
 * sphere of radius 0.05 m welded at the second rod's end. */
void linkage_gear_weld(linkage_spec *s);

/* The welded sphere's initial pose: its centre and the quaternion (w, x,
 * y, z) of the second rod's initial angle. */
void linkage_blob_pose(const linkage_spec *s, double p[3], double quat[4]);

/* What one engine's row measured: the median time of one constrained
 * forward dynamics and of 1 s of simulation, the constraint violation
 * after it (the norm of the position errors of all rows: for the ball the
 * distance between its two points), and the energy change over it. NAN:
 * not measured. */
typedef struct linkage_result {
  double fd_s, sim_s, violation, energy_change, max_violation;
} linkage_result;

/* ---- the engines -------------------------------------------------------------- */

/* Teal's rows (teal_linkage.c): 1 s of the discrete plant at 1 ms, of the
 * continuous plant without projection, and of the continuous plant
 * projected onto the constraints after every step (projectQ, projectU to
 * k_projection_accuracy); nonzero on failure (reported). */
int linkage_teal_discrete(const linkage_spec *s, linkage_result *r);
int linkage_teal_continuous(const linkage_spec *s, linkage_result *r);
int linkage_teal_projected(const linkage_spec *s, linkage_result *r);

#ifdef TEAL_BENCH_HAVE_MUJOCO
/* MuJoCo's row (mujoco_linkage.c): the same linkage in MJCF with a connect
 * equality, mj_forward and 1000 x mj_step (Euler, 1 ms). */
int linkage_mujoco(const linkage_spec *s, linkage_result *r);
#endif

/* The kernel timing of both engines: call(state) in interleaved batches
 * of about 5 ms for about budget_s; the median seconds per call, NAN when
 * a call failed. */
double linkage_time_kernel(int (*call)(void *state, int n), void *state, double budget_s);

/* The rod inertia of a link about its centre (its frame's axes): diagonal
 * m r^2 / 2 about x, m (3 r^2 + L^2) / 12 about y and z. */
void linkage_rod_inertia(double len, double mass, double I[3]);

#endif
