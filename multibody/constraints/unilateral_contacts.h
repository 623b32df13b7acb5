/** @file
 * Unilateral contacts of a discrete plant (Simbody's
 * SimbodyMatterSubsystem::adoptUnilateralContact, getNumUnilateralContacts,
 * getUnilateralContact, updUnilateralContact): conditional constraints that
 * can push but never pull, each with a coefficient of restitution, and for
 * a point in a plane Coulomb friction. The kinds:
 * @code{.unparsed}
 *   point in plane  gap = n . (p_WS - p_WO)   S on body B, plane (O, n) on body A
 *   hard stop lower gap = q - limit           q of a single-dof joint
 *   hard stop upper gap = limit - q
 *   rope            gap = limit - |p_WQ - p_WP|   P on body A, Q on body B
 * @endcode
 * The time step keeps every gap >= 0 (see docs/unilateral.md): a contact
 * whose gap the free motion would close within the step becomes one row of
 * an impulse problem, its impulse >= 0 and complementary to its next gap
 * velocity, which must reach the Newton restitution target -e times the
 * approach speed (impacts slower than the capture speed are plastic, e = 0)
 * and at least close a penetration within the step. A point in plane with
 * friction mu > 0 adds two tangent rows whose impulse stays in the cone of
 * radius mu times the normal impulse. Simbody's event-driven continuous
 * treatment (impact and contact handlers, active-set changes at witness
 * events) is not provided: a continuous plant refuses unilateral contacts.
 *
 * Contacts are adopted before teal_plant_finalize (indices 0, 1, ... in
 * the order of adoption); a spec is read back with get and written back
 * with set (Simbody's upd), before or after finalize. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_UNILATERAL_CONTACTS_H
#define TEAL_MULTIBODY_CONSTRAINTS_UNILATERAL_CONTACTS_H

#include "teal_export.h"

#include "math/vec3.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The kinds of unilateral contact. */
typedef enum teal_unilateral_kind {
  TEAL_UNILATERAL_POINT_IN_PLANE = 0, /**< a body point above a plane of another body */
  TEAL_UNILATERAL_HARD_STOP_LOWER,    /**< a joint coordinate stays >= limit */
  TEAL_UNILATERAL_HARD_STOP_UPPER,    /**< a joint coordinate stays <= limit */
  TEAL_UNILATERAL_ROPE                /**< two body points at most limit apart */
} teal_unilateral_kind;

/** A unilateral contact. Points and normals are in their body's frame. */
typedef struct teal_unilateral_contact_spec {
  teal_unilateral_kind kind; /**< what the contact keeps */
  int body_a;                /**< plane body (point in plane), P's body (rope) */
  teal_vec3 p_a;             /**< plane origin O (point in plane), P (rope), in A */
  teal_vec3 n_a;             /**< plane normal in A (point in plane; normalized by adopt) */
  int body_b;                /**< S's body (point in plane), Q's body (rope) */
  teal_vec3 p_b;             /**< S (point in plane), Q (rope), in B */
  int joint;                 /**< the single-dof joint of a hard stop */
  double limit;              /**< hard stop: the coordinate's limit; rope: its length (> 0) */
  double restitution;        /**< Newton's coefficient e in [0, 1] */
  double capture_speed;      /**< approach speeds below it rebound with e = 0 (>= 0) */
  double friction;           /**< Coulomb coefficient mu >= 0 (point in plane only) */
  int enabled;               /**< 0: the contact is ignored */
} teal_unilateral_contact_spec;

/** A spec of kind with every other field neutral: bodies and joint -1,
 *  points 0, normal +z, limit 0, restitution 0, capture speed 0, friction
 *  0, enabled. */
TEAL_API teal_unilateral_contact_spec
teal_unilateral_contact_spec_default(teal_unilateral_kind kind);

/** Adopts a unilateral contact (before finalize, discrete plant only);
 *  returns its index or a negative status with the plant's sticky error
 *  set: TEAL_ESTATE after finalize or on a continuous plant, TEAL_EINVAL
 *  for a NULL spec, an unknown kind, a body against itself, a zero normal,
 *  a joint that is not single-dof, restitution outside [0, 1], a negative
 *  friction or capture speed, a rope length <= 0 or friction on a kind
 *  other than a point in plane, TEAL_ENOTFOUND for an unknown body or joint,
 *  TEAL_ENONFINITE for a NaN or infinite value. */
TEAL_API int teal_plant_adopt_unilateral_contact(teal_plant *plant,
                                                 const teal_unilateral_contact_spec *spec);

/** The number of unilateral contacts adopted (0 for NULL). */
TEAL_API int teal_plant_num_unilateral_contacts(const teal_plant *plant);

/** Copies contact index's spec (its normal unit length) into out.
 *  TEAL_EINVAL for NULL pointers, TEAL_ENOTFOUND for an unknown index
 *  (message in the plant's error record, not sticky). */
TEAL_API int teal_plant_get_unilateral_contact(const teal_plant *plant, int index,
                                               teal_unilateral_contact_spec *out);

/** Replaces contact index's spec (Simbody's updUnilateralContact), with the
 *  checks of adopt, before or after finalize; the kind may not change.
 *  After finalize contexts drop the steps they computed with the old spec,
 *  and a failure leaves the spec unchanged with a message in the plant's
 *  error record. */
TEAL_API int teal_plant_set_unilateral_contact(teal_plant *plant, int index,
                                               const teal_unilateral_contact_spec *spec);

#ifdef __cplusplus
}
#endif
#endif
