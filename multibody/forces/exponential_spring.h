/** @file
 * Exponential spring contact (Simbody's ExponentialSpringForce) as a leaf
 * system, and an adder that merges applied spatial force lists.
 *
 * One spring acts between a station S fixed on a body B (p_BS) and a contact
 * plane fixed to the world: the plane z = 0 of a frame F (pose X_WF), with
 * normal +z_F. The spring always applies a force; it is tiny far from the
 * plane (with the defaults, < 0.01 N above 1 cm). All quantities below are
 * in F: p = p_FS (station position, pz its height), v = v_FS (its velocity).
 *
 * Normal force (Hunt & Crossley form, kept >= 0):
 * @code{.unparsed}
 *   fz_elastic = d1 exp(-d2 (pz - d0)),   fz_damping = -cz vz fz_elastic,
 *   fz = max(0, fz_elastic + fz_damping).
 * @endcode
 * Friction, in the xy plane of F, with Sliding S in [0, 1]:
 * @code{.unparsed}
 *   mu = mu_s - S (mu_s - mu_k),   limit = mu fz
 *   model 1 (pure damping):  f_damp = -cxy vxy, clipped to |f_damp| <= limit
 *                            along -vxy
 *   model 2 (damped linear spring about the anchor p0):
 *     f_el_spr = -kxy (pxy - p0),  f_damp_spr = -cxy vxy; when
 *     |f_el_spr + f_damp_spr| > limit both are scaled by
 *     limit / |f_el_spr + f_damp_spr| (direction kept)
 *   blend:  f_el = (1 - S) f_el_spr,  f_dmp = f_damp_spr + S (f_damp - f_damp_spr)
 *   friction = f_el + f_dmp.
 * @endcode
 * The force [0; f] acts on B at S; f_W = R_WF f_F.
 *
 * State (Simbody's auto-update discrete variables): one discrete group
 * holding the anchor p0 (x, y in F; p0 always lies in the plane) and Sliding
 * S, plus the time of the last update. The force uses the stored p0 and S,
 * which stay fixed during an integration step. A per-step discrete update,
 * which the simulator runs at the start of every step (so after every
 * accepted step, from the state that step reached, as Simbody moves its
 * update cache into the state), sets
 * @code{.unparsed}
 *   p0  <- pxy + f_el / kxy
 *   S   <- stepUp(clamp(|dp0| / dt / v_settle, 0, 1)),
 *          stepUp(x) = x^3 (10 - 15 x + 6 x^2)
 * @endcode
 * where dp0 is this update's change of p0 and dt the time since the previous
 * update. The first update after construction, teal_exponential_spring_set_state,
 * teal_exponential_spring_reset_anchor or teal_exponential_spring_enable, and
 * any update at a time not after the previous one, has no dt: it moves p0
 * and keeps S. Outside a simulator the state changes only through the
 * functions below.
 * While the spring is within the friction limit and S = 0, f_el = -kxy (pxy -
 * p0) and the update leaves p0 where it is: a body held by static friction
 * does not drift. When the limit is exceeded, p0 follows the station so the
 * elastic force stays at the limit; its speed raises S toward 1 and mu falls
 * from mu_s to mu_k.
 *
 * Disabling (Simbody's Force::disable): a disabled spring applies no force,
 * has no potential energy and its discrete update leaves the state as it is.
 * Enabled or disabled is per context; contexts follow the spring's default
 * (enabled unless teal_exponential_spring_set_disabled_by_default) until
 * teal_exponential_spring_enable or _disable is called on them.
 *
 * Ports. Inputs "body_poses" (teal_transform_list, X_WB by body index) and
 * "body_spatial_velocities" (teal_spatial_vector_list, V_WB), to be connected
 * from the plant's outputs of the same names; output "spatial_force" (a
 * teal_applied_spatial_force_list with one entry: body B, p_BoBq_B = p_BS,
 * F_Bq_W = [0; f_W]) for the plant's applied_spatial_force input (through
 * teal_spatial_force_adder_new when several springs or sources share it).
 * The output depends on the inputs, the state and the parameters; the plant's pose
 * and velocity outputs do not depend on its inputs, so there is no loop.
 * The parameters live in the context (numeric parameter 0), so mu_s, mu_k
 * and the rest can change during a simulation, as Simbody's mu states can
 * (exponential_spring_access.h has Simbody's mu setters and getters).
 *
 * Functions taking a context accept the spring's own context or any context
 * above it (the spring's subcontext is then looked up). */
#ifndef TEAL_MULTIBODY_FORCES_EXPONENTIAL_SPRING_H
#define TEAL_MULTIBODY_FORCES_EXPONENTIAL_SPRING_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/math/spatial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Parameters of an exponential spring (units N, m, s, kg). */
typedef struct teal_exponential_spring_params {
  double d0;       /**< shift of the exponential (m, any sign); 0.0065905 */
  double d1;       /**< scale of the exponential (N, > 0); 0.5336 */
  double d2;       /**< rate of the exponential (1/m, > 0); 1150 */
  double cz;       /**< normal viscosity (s/m, >= 0); 0.5 */
  double kxy;      /**< friction spring elasticity (N/m, > 0); 20000 */
  double cxy;      /**< friction viscosity (N s/m, >= 0); 2 sqrt(kxy * 1 kg) */
  double mu_s;     /**< static friction coefficient (>= 0); 0.7 */
  double mu_k;     /**< kinetic friction coefficient (0 <= mu_k <= mu_s); 0.5 */
  double v_settle; /**< anchor speed at and above which Sliding is 1 (m/s, > 0); 0.01 */
} teal_exponential_spring_params;

/** Number of parameters, and so the size of the spring's numeric parameter. */
#define TEAL_EXPONENTIAL_SPRING_NUM_PARAMS 9

/** Where the spring keeps its variables in its own context, for generic
 *  access through teal_context_discrete_group / teal_context_numeric_parameter
 *  (Simbody's state-index getters): see teal_exponential_spring_indices. */
typedef struct teal_exponential_spring_index {
  int discrete_group;  /**< index of the spring's discrete state group */
  int anchor;          /**< offset of p0 (x, then y, in F) in that group */
  int sliding;         /**< offset of Sliding in that group */
  int last_update;     /**< offset of the previous update's time in that group */
  int has_last_update; /**< offset of the flag (0 or 1) telling that time is set */
  int state_size;      /**< size of the group */
  int parameters;      /**< index of the numeric parameter holding the params */
  int mu_static;       /**< offset of mu_s in that parameter */
  int mu_kinetic;      /**< offset of mu_k in that parameter */
  int disabled;        /**< index of the size-1 numeric parameter for disabling:
                            -1 follow the default, 0 enabled, 1 disabled */
} teal_exponential_spring_index;

/** Fills p with Simbody's defaults (listed with the fields). */
TEAL_API void teal_exponential_spring_params_default(teal_exponential_spring_params *p);

/** Sets cxy = 2 sqrt(kxy mass): critical damping of the friction spring for
 *  a body of that mass (> 0). TEAL_EINVAL on a bad mass or kxy. */
TEAL_API int
teal_exponential_spring_params_set_critical_damping(teal_exponential_spring_params *p, double mass);

/** TEAL_OK when every parameter is finite and within the range given with
 *  its field, else TEAL_EINVAL (TEAL_ENONFINITE for NaN or Inf) with a
 *  message naming the parameter in err (may be NULL). */
TEAL_API int teal_exponential_spring_params_check(const teal_exponential_spring_params *p,
                                                  teal_error *err);

/** Creates a spring between station p_BS of body (1 <= body < number of
 *  bodies of plant) and the plane z = 0 of X_WF (orthonormal rotation,
 *  finite). params NULL means the defaults. The default state is p0 = 0 and
 *  S = 0 with no previous update: call teal_exponential_spring_reset_anchor
 *  before a simulation that starts in contact. Returns NULL on error with
 *  the reason in err (may be NULL). */
TEAL_API teal_system *teal_exponential_spring_new(const char *name, const teal_plant *plant,
                                                  int body, teal_vec3 p_BS, teal_transform X_WF,
                                                  const teal_exponential_spring_params *params,
                                                  teal_error *err);

/** Everything one evaluation computes (Simbody's getters), in F unless
 *  marked _W. */
typedef struct teal_exponential_spring_data {
  teal_vec3 p_FS;            /**< station position; p_FS.v[2] is the height pz */
  teal_vec3 v_FS;            /**< station velocity */
  double fz_elastic;         /**< elastic part of the normal force */
  double fz_damping;         /**< damping part as applied: at least -fz_elastic, so
                                  that fz_elastic + fz_damping = fz */
  double fz;                 /**< normal force, >= 0 */
  double sliding;            /**< S clamped to [0, 1] */
  double mu;                 /**< instantaneous friction coefficient */
  double limit;              /**< friction limit mu fz */
  double friction_elastic[2]; /**< blended elastic friction f_el */
  double friction_damping[2]; /**< blended damping friction f_dmp */
  teal_vec3 force;           /**< total force on the body at the station */
  teal_vec3 force_W;         /**< the same in W */
  double p0[2];              /**< anchor point (state) */
  double p0_next[2];         /**< the anchor the next update sets: pxy + f_el / kxy */
  double sliding_next;       /**< the Sliding the next update sets (Simbody's
                                  getSliding: consistent with this state) */
  double potential_energy;   /**< (d1/d2) exp(-d2 (pz - d0)) + |f_el|^2 / (2 kxy) */
  int disabled;              /**< 1 when disabled: every force, the energy and the
                                  anchor's motion are then 0 */
} teal_exponential_spring_data;

/** The cached data of the spring in ctx (borrowed, valid until the context
 *  changes). Evaluates the spring's inputs. */
TEAL_API int teal_exponential_spring_eval(const teal_system *spring, const teal_context *ctx,
                                          const teal_exponential_spring_data **data);

/** Moves the anchor onto the station's projection on the plane (no elastic
 *  friction force): Simbody's resetAnchorPoint. Evaluates the inputs; the
 *  next update has no previous time. */
TEAL_API int teal_exponential_spring_reset_anchor(const teal_system *spring, teal_context *ctx);

/** Sets the anchor p0 (x, y in F, finite) and Sliding (in [0, 1]); the next
 *  update then has no previous time (it moves p0 and keeps S). */
TEAL_API int teal_exponential_spring_set_state(const teal_system *spring, teal_context *ctx,
                                               double p0_x, double p0_y, double sliding);

/** Reads the anchor and Sliding from the state (pointers may be NULL). */
TEAL_API int teal_exponential_spring_get_state(const teal_system *spring, const teal_context *ctx,
                                               double *p0_x, double *p0_y, double *sliding);

/** Replaces the parameters in ctx after teal_exponential_spring_params_check
 *  (which refuses mu_k > mu_s; the mu setters of exponential_spring_access.h
 *  adjust the other coefficient instead). */
TEAL_API int teal_exponential_spring_set_params(const teal_system *spring, teal_context *ctx,
                                                const teal_exponential_spring_params *params);

/** Reads the parameters held by ctx. */
TEAL_API int teal_exponential_spring_get_params(const teal_system *spring, const teal_context *ctx,
                                                teal_exponential_spring_params *params);

/** Body index, station p_BS and plane pose X_WF of a spring (any pointer
 *  may be NULL). TEAL_EINVAL when spring is not an exponential spring. */
TEAL_API int teal_exponential_spring_geometry(const teal_system *spring, int *body, teal_vec3 *p_BS,
                                              teal_transform *X_WF);

/** Where the spring's variables live in its own context (any pointer may be
 *  NULL). TEAL_EINVAL when spring is not an exponential spring. */
TEAL_API int teal_exponential_spring_indices(const teal_system *spring,
                                             teal_exponential_spring_index *index);

/** Disables the spring in ctx (Simbody's Force::disable): no force, no
 *  potential energy, its state left as it is by the updates. */
TEAL_API int teal_exponential_spring_disable(const teal_system *spring, teal_context *ctx);

/** Enables the spring in ctx (Simbody's Force::enable). When it was
 *  disabled, the next update has no previous time, so the time spent
 *  disabled does not count as anchor motion. */
TEAL_API int teal_exponential_spring_enable(const teal_system *spring, teal_context *ctx);

/** Whether the spring is disabled in ctx (1) or not (0) into *disabled. */
TEAL_API int teal_exponential_spring_is_disabled(const teal_system *spring, const teal_context *ctx,
                                                 int *disabled);

/** Makes contexts that were never enabled or disabled explicitly see the
 *  spring disabled (disabled = 1) or enabled (0): Simbody's
 *  setDisabledByDefault, a model-level setting. Only while the spring is not
 *  part of a diagram (TEAL_EINVAL after teal_builder_build), and it is meant
 *  to come before any context of the spring is made: values a context
 *  already computed do not see the change. A refusal is explained in err
 *  (may be NULL). */
TEAL_API int teal_exponential_spring_set_disabled_by_default(teal_system *spring, int disabled,
                                                             teal_error *err);

/** The spring's default (1 disabled, 0 enabled) into *disabled. */
TEAL_API int teal_exponential_spring_is_disabled_by_default(const teal_system *spring,
                                                            int *disabled);

#ifdef __cplusplus
}
#endif
#endif
