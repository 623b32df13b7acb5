/* Exponential-spring test fixtures: a box of mass 1 on one to four springs
 * (multibody/forces/exponential_spring.h) in a diagram with the plant and a
 * spatial force adder, run by a simulator; and a lone spring with its
 * inputs fixed. The functions assert with Check, so they are for use inside
 * START_TEST bodies. */
#ifndef TEAL_TESTS_SUPPORT_MB_SPRING_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_SPRING_FIXTURES_H

#include "framework/context.h"
#include "framework/system.h"
#include "multibody/forces/exponential_spring.h"
#include "multibody/math/spatial.h"
#include "systems/analysis/simulator.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Gravity of the fixture plants (m/s^2). */
#define TS_ES_G 9.81
/** Most springs a rig holds. */
#define TS_ES_MAX_SPRINGS 4

/** Half sizes of the box (m). */
extern const double ts_es_half[3];

/** A box on springs, with its simulator. */
typedef struct ts_es_rig {
  teal_plant *plant; /**< owned by the diagram */
  int body;
  teal_transform X_WF;
  teal_system *diagram;
  const teal_system *springs[TS_ES_MAX_SPRINGS];
  int n;
  teal_simulator *sim;
  teal_context *ctx;
} ts_es_rig;

/** Station i of n on the box: its bottom corners, or the point under its
 *  center for n == 1. */
teal_vec3 ts_es_station(int n, int i);

/** A finalized plant (time step h: 0 continuous) holding the box; its body
 *  index into *body. */
teal_plant *ts_es_box_plant(double h, int *body);

/** Builds the diagram with n springs on the plane X_WF on a plant of time
 *  step h and a simulator (RK3, error control at accuracy, max step 0.01). */
void ts_es_rig_new(ts_es_rig *r, int n, teal_transform X_WF, double h, double accuracy);

/** Frees the simulator and the diagram. */
void ts_es_rig_free(ts_es_rig *r);

/** Places the box aligned with the plane, its center at p_F (in F), with
 *  velocity v_F (in F), every anchor under its station and Sliding s. */
void ts_es_rig_place(ts_es_rig *r, teal_vec3 p_F, teal_vec3 v_F, double sliding);

/** Advances the simulator to t, asserting success. */
void ts_es_rig_run(ts_es_rig *r, double t);

/** Box center position and velocity in F. */
void ts_es_block_in_plane(const ts_es_rig *r, teal_vec3 *p_F, teal_vec3 *v_F);

/** The evaluated data of spring i. */
const teal_exponential_spring_data *ts_es_data(const ts_es_rig *r, int i);

/** Height of a station where n springs share the load w: d1 exp(-d2 (h -
 *  d0)) = w / n with the default parameters. */
double ts_es_rest_height(double w, int n);

/** A plane tilted by theta about x, its origin off the world's. */
teal_transform ts_es_incline(double theta);

/** Fixes the inputs of a lone spring's context to body 1 at pose X_WB with
 *  velocity V_WB (body 0 at rest at the origin). */
void ts_es_fix_inputs(teal_context *ctx, teal_transform X_WB, teal_spatial_vector V_WB);

#ifdef __cplusplus
}
#endif
#endif
