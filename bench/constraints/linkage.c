/* bench_constraints: the two linkages (see linkage.h). */
#define _XOPEN_SOURCE 700 /* M_PI */
#include "linkage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/timing.h"

static void add_link(linkage_spec *s, int parent, double len, double mass, double at, double q0) {
  int k = s->n++;
  s->parent[k] = parent;
  s->len[k] = len;
  s->mass[k] = mass;
  s->at[k] = at;
  s->at_z[k] = 0.0;
  s->q0[k] = q0;
}

void linkage_four_bar(linkage_spec *s) {
  const double ground = 1.0, crank = 0.3, coupler = 1.0, rocker = 0.8, theta2 = M_PI / 2;
  memset(s, 0, sizeof *s);
  snprintf(s->title, sizeof s->title, "four-bar");
  snprintf(s->name, sizeof s->name, "four_bar");
  /* the coupler's far end B is where the coupler's and the rocker's circles
   * meet, above the ground line */
  double ax = crank * cos(theta2), az = crank * sin(theta2);
  double dx = ground - ax, dz = -az, dist = sqrt(dx * dx + dz * dz);
  double along = (coupler * coupler - rocker * rocker + dist * dist) / (2 * dist);
  double across = sqrt(coupler * coupler - along * along);
  double bx = ax + (along * dx + across * dz) / dist;
  double bz = az + (along * dz - across * dx) / dist;
  if (bz < 0.0) {
    bx = ax + (along * dx - across * dz) / dist;
    bz = az + (along * dz + across * dx) / dist;
  }
  double theta3 = atan2(bz - az, bx - ax), theta4 = atan2(bz, bx - ground);
  add_link(s, -1, crank, crank, 0.0, theta2);
  add_link(s, 0, coupler, coupler, crank, theta3 - theta2);
  add_link(s, -1, rocker, rocker, ground, theta4);
  s->close_a = 2;
  s->close_b = 1;
}

void linkage_chain(linkage_spec *s) {
  const double len = 0.1, mass = 0.1, span = 1.0;
  const int n = 25, half = 12;
  double theta = acos((span - len) / (2 * half * len));
  memset(s, 0, sizeof *s);
  snprintf(s->title, sizeof s->title, "25-link loop");
  snprintf(s->name, sizeof s->name, "loop25");
  for (int k = 0; k < n; k++) {
    double q0 = k == 0 ? -theta : k == half ? theta : k == half + 1 ? theta : 0.0;
    add_link(s, k - 1, len, mass, k == 0 ? 0.0 : len, q0);
  }
  s->close_a = -1;
  s->close_b = n - 1;
  s->world_x = span;
}

void linkage_rod_inertia(double len, double mass, double I[3]) {
  double r2 = k_rod_radius * k_rod_radius;
  I[0] = 0.5 * mass * r2;
  I[1] = I[2] = mass * (3 * r2 + len * len) / 12.0;
}

double linkage_time_kernel(int (*call)(void *state, int n), void *state, double budget_s) {
  bench_batched row = {call, state, 0, 0, 0, {0}};
  if (bench_batched_calibrate(&row, 0.05, 5e-3) || bench_batched_interleave(&row, 1, 5, budget_s)) {
    return NAN;
  }
  return bench_median(row.t, row.count);
}

void linkage_gear_weld(linkage_spec *s) {
  memset(s, 0, sizeof *s);
  snprintf(s->title, sizeof s->title, "gear + weld");
  snprintf(s->name, sizeof s->name, "gear_weld");
  add_link(s, -1, 0.4, 0.4, 0.0, -0.3);
  add_link(s, -1, 0.3, 0.3, 0.6, 0.6);
  s->kind = LINKAGE_GEAR_WELD;
  s->gear_a = 0;
  s->gear_b = 1;
  s->ratio = -2.0;
  s->weld_link = 1;
  s->blob_mass = 0.5;
  s->blob_radius = 0.05;
}

void linkage_blob_pose(const linkage_spec *s, double p[3], double quat[4]) {
  int k = s->weld_link; /* a link hinged to the world */
  double a = s->q0[k];
  p[0] = s->at[k] + s->len[k] * cos(a);
  p[1] = 0.0;
  p[2] = s->at_z[k] + s->len[k] * sin(a);
  quat[0] = cos(0.5 * a); /* about -y */
  quat[1] = 0.0;
  quat[2] = -sin(0.5 * a);
  quat[3] = 0.0;
}
