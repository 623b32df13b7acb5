/* Force-element test fixtures: a finalized plant with its dynamics data,
 * free-body states, the element forces, their power and stored energy, and
 * an RK4 integrator with the element forces applied. The functions assert
 * with Check, so they are for use inside START_TEST bodies. */
#ifndef TEAL_TESTS_SUPPORT_MB_FORCE_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_FORCE_FIXTURES_H

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bounds on the bodies and on nq + nv of the fixture plants. */
#define TS_FE_MAXB 8
#define TS_FE_MAXX 64

/** A finalized plant with its dynamics data and sizes. */
typedef struct ts_fe_model {
  teal_plant *p;
  teal_mb_data *ws;
  int nq, nv, nb;
} ts_fe_model;

/** Finalizes p and makes its data; asserts that the sizes fit the bounds. */
ts_fe_model ts_fe_model_make(teal_plant *p);

/** Frees the data and the plant. */
void ts_fe_model_free(ts_fe_model *m);

/** The pose with roll-pitch-yaw (r, pi, y) and translation (px, py, pz). */
teal_transform ts_fe_pose(double r, double pi, double y, double px, double py, double pz);

/** A random box inertia of mass m with an offset, rotated center of mass. */
teal_spatial_inertia ts_fe_rand_inertia(unsigned *state, double m);

/** A spatial vector with components in [-a, a). */
teal_spatial_vector ts_fe_rand_spatial(unsigned *state, double a);

/** Writes the floating joint coordinates of a free body so that its pose is
 *  X_WB and its spatial velocity V_WB (both in W). */
void ts_fe_set_free(const teal_plant *p, int body, teal_transform X_WB, teal_spatial_vector V_WB,
                    double *q, double *v);

/** Poses, velocities and the element forces (F and tau cleared first);
 *  returns the status of teal_plant_calc_force_elements. */
int ts_fe_calc_all(const teal_plant *p, const double *q, const double *v, teal_transform *X,
                   teal_spatial_vector *V, teal_spatial_vector *F, double *tau, teal_error *err);

/** Power of the element forces: sum_b F_Bo_W[b] . V_WB[b] + tau . v. */
double ts_fe_element_power(const teal_plant *p, const double *q, const double *v);

/** The energy stored in the force elements at q. */
double ts_fe_element_energy(const teal_plant *p, const double *q);

/** dU/dt along v by a central difference over q +- h N(q) v. */
double ts_fe_energy_rate_fd(const teal_plant *p, const double *q, const double *v, double h);

/** One classical RK4 step of size dt of x = (q, v) with the element forces
 *  applied, quaternions renormalized after it. */
void ts_fe_rk4_step(const ts_fe_model *m, double *x, double dt);

/** Kinetic, gravity and element energies of x; returns their sum and, if
 *  scale is not NULL, the sum of their magnitudes in *scale. */
double ts_fe_total_energy(const ts_fe_model *m, const double *x, double *scale);

/** Net spatial force of all bodies (1 to nb - 1) about the world point p_WO. */
teal_spatial_vector ts_fe_net_force_about(const teal_transform *X, const teal_spatial_vector *F,
                                          int nb, teal_vec3 p_WO);

/** Largest |a_i|. */
double ts_fe_max_abs6(teal_spatial_vector a);

#ifdef __cplusplus
}
#endif
#endif
