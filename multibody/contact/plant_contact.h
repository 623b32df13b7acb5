/** @file
 * Contact between a plant's bodies through a scene graph (Drake's point
 * contact model with MultibodyPlant + SceneGraph).
 *
 * Wiring. teal_add_plant_and_scene_graph (Drake's
 * AddMultibodyPlantSceneGraph, plant_scene_graph.h) makes a scene graph
 * with the plant as its source (one frame per body, every geometry the
 * plant registered, collisions filtered between bodies joined by a joint),
 * adds both to the builder and connects plant.geometry_pose ->
 * scene_graph.plant_pose and scene_graph.query -> plant.geometry_query:
 * at once for a finalized plant, at its finalize for one that is not (as
 * in Drake). An unconnected geometry_query means no contact.
 *
 * Contact law. For a penetrating pair with depth x and unit normal n =
 * nhat_BA_W (from B into A), the contact point is C = (k_A p_WCa + k_B
 * p_WCb) / (k_A + k_B); with v the velocity of B's point at C relative to
 * A's, the penetration rate is xdot = v . n, the tangential slip v_t =
 * v - (v . n) n, and the force on B at C is
 * @code{.unparsed}
 *     f_B = -f_n n - mu(|v_t|) f_n v_t / |v_t|,   f_n = k x (1 + d xdot)_+,
 * @endcode
 * (the opposite force acts on A at C). Per-geometry values combine as
 * Drake's: k = k_A k_B / (k_A + k_B), d = (k_B d_A + k_A d_B) / (k_A + k_B),
 * mu = 2 mu_A mu_B / (mu_A + mu_B) for the static and dynamic coefficients.
 * Missing stiffness and dissipation come from the penetration allowance
 * delta (default 1 mm): with m the largest body mass and g = |gravity| (9.81
 * when zero), the combined stiffness is m g / delta (each geometry gets
 * twice that, so the heaviest body rests at about delta) and d =
 * sqrt(delta / g) / delta (about 10 s/m at 1 mm: critically damped, so a
 * dropped object does not bounce; set a smaller hunt_crossley_dissipation
 * on the geometries for bouncing).
 *   - Continuous plants use a regularized Stribeck friction: with s =
 *     |v_t| / v_s (v_s the stiction tolerance, default 1 mm/s), mu = mu_s
 *     step(s) for s < 1, blends to mu_d for 1 <= s < 3, and is mu_d beyond
 *     (step(x) = x^3 (10 - 15 x + 6 x^2)).
 *   - Discrete plants solve for the next velocities with the contact forces
 *     evaluated at them (an implicit, TAMSI-like step): the normal force
 *     uses the predicted depth x + h xdot+, the friction the regularized law
 *     mu_d v_t / sqrt(|v_t|^2 + eps^2) with eps = v_s / 100 (the implicit
 *     step tolerates the sharper law; stiction then creeps at about
 *     1e-5 m/s with the default v_s). Newton's method on
 *     (M + h D)(v+ - v*) = h J' f(J v+) (D the joint damping, implicit as
 *     in Drake's discrete solvers) with a backtracking line search, started
 *     from the current velocities; v* is the free-motion velocity (joint
 *     limits are enforced afterwards). M is kept as its per-tree blocks
 *     and each island of trees coupled by contacts is solved on its own
 *     (multibody/tree/forest.h), so free bodies cost O(1) each. This is
 *     the default discrete solver; discrete_contact_solver.h selects SAP,
 *     which replaces the law and the line search.
 *
 * Ports added by finalize: input geometry_query (teal_point_pair_list);
 * outputs geometry_pose (teal_transform_list, X_WB by body index),
 * contact_results (teal_contact_results), generalized_contact_forces (nv)
 * and `<instance>_generalized_contact_forces`. */
#ifndef TEAL_MULTIBODY_CONTACT_PLANT_CONTACT_H
#define TEAL_MULTIBODY_CONTACT_PLANT_CONTACT_H

#include "teal_export.h"

#include "framework/diagram.h"
#include "geometry/scene_graph/scene_graph.h"
#include "multibody/contact/hydroelastic.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One contact (Drake's PointPairContactInfo). */
typedef struct teal_contact_info {
  /** Plant body indices of A and B. @{ */
  int body_A, body_B;
  /** @} */
  /** Plant geometry indices of A and B (teal_plant_get_geometry_id gives
   *  their scene graph ids). @{ */
  int geometry_A, geometry_B;
  /** @} */
  teal_vec3 p_WC;          /**< contact point */
  teal_vec3 nhat_BA_W;     /**< normal from B into A */
  double depth;            /**< penetration (> 0) */
  double separation_speed; /**< -xdot: > 0 when separating */
  double slip_speed;       /**< |v_t| */
  teal_vec3 f_Bc_W;        /**< force on B at C (the opposite acts on A) */
} teal_contact_info;

/** A list of contacts: point contacts, then hydroelastic contacts
 *  (hydroelastic.h; none under the point contact model). */
typedef struct teal_contact_results {
  /** Number of contacts and capacity of the array. @{ */
  int n, cap;
  /** @} */
  teal_contact_info *c; /**< the contacts (heap, cap entries) */
  /** Number of hydroelastic contacts and capacity of their array. @{ */
  int num_hydroelastic, hydroelastic_cap;
  /** @} */
  teal_hydroelastic_contact_info *hydroelastic; /**< (heap, hydroelastic_cap entries) */
} teal_contact_results;

/** Value type "teal_contact_results". */
TEAL_API extern const teal_value_type teal_contact_results_type;

/** Makes room for cap contacts (keeps the entries). */
TEAL_API int teal_contact_results_reserve(teal_contact_results *r, int cap);

/** Makes room for cap hydroelastic contacts (keeps the entries; new ones
 *  start with empty surfaces). TEAL_EINVAL for NULL or cap < 0. */
TEAL_API int teal_contact_results_reserve_hydroelastic(teal_contact_results *r, int cap);

/** Sets the penetration allowance (m, finite and > 0), at any time (Drake's
 *  set_penetration_allowance). After finalize the default stiffness and
 *  dissipation are derived again from it, and existing contexts use them
 *  from their next step, time derivative or teal_plant_eval_* call, which
 *  drops the values they cached with the old settings. Until then an
 *  output port read straight from such a context's cache (contact_results,
 *  generalized_contact_forces, the accelerations) still shows the old
 *  values (docs/contact.md). A bad value returns TEAL_EINVAL with a message and
 *  keeps the old one (before finalize the error is sticky, as for every
 *  declaration). Not safe while another thread evaluates a context of the
 *  plant. */
TEAL_API int teal_plant_set_penetration_allowance(teal_plant *plant, double allowance);
/** Sets the stiction tolerance (m/s, finite and > 0), at any time, with the
 *  effect and errors of teal_plant_set_penetration_allowance. */
TEAL_API int teal_plant_set_stiction_tolerance(teal_plant *plant, double v_stiction);
/** The penetration allowance (m); 1e-3 when unset. */
TEAL_API double teal_plant_penetration_allowance(const teal_plant *plant);
/** The stiction tolerance (m/s); 1e-3 when unset. */
TEAL_API double teal_plant_stiction_tolerance(const teal_plant *plant);

/** The contact time scale sqrt(delta / g) (Drake's
 *  get_contact_penalty_method_time_scale). */
TEAL_API double teal_plant_contact_time_scale(const teal_plant *plant);

/** The cached contact results in ctx (the plant's context or one above). */
TEAL_API int teal_plant_eval_contact_results(const teal_plant *plant, const teal_context *ctx,
                                             const teal_contact_results **results);

/** Warning counter of the plant in ctx (its context or one above): the
 *  model's warnings, given once at finalize (see teal_plant_warning_message),
 *  plus the times a discrete step had to grow its contact or island buffers,
 *  or a hydroelastic contact surface its room (hydroelastic.h), inside the
 *  step (they are sized at initialization for every contact the
 *  scene graph can report and for the largest kinematic tree; an island
 *  coupling several trees through contact can need more). -1 on bad
 *  arguments. */
TEAL_API long teal_plant_warning_count(const teal_plant *plant, const teal_context *ctx);

/** The message of the model's warning ("" when none, or for a NULL plant).
 *  The one warning today: a continuous plant (time_step = 0) with finite
 *  position limits on some joint ignores them (as Drake does, which prints
 *  a warning); the message names how many joints and the first. */
TEAL_API const char *teal_plant_warning_message(const teal_plant *plant);

/** Net contact force on body (in W, summed over its point and
 *  hydroelastic contacts) from results. */
TEAL_API teal_vec3 teal_contact_results_net_force(const teal_contact_results *results, int body);

#ifdef __cplusplus
}
#endif
#endif
