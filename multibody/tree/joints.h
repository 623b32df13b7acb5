/** @file
 * Joint (mobilizer) types as const tables.
 *
 * A joint connects a frame F fixed on the parent body to a frame M fixed on
 * the child body. Each type describes, as functions of its generalized
 * positions q (nq of them) and velocities v (nv of them):
 * @code{.unparsed}
 *   X_FM(q)   the pose of M in F;
 *   H_FM(q)   the hinge matrix, 6 x nv row-major ([angular; linear] rows),
 *             with V_FM_F = H v: the spatial velocity of M's origin in F,
 *             expressed in F;
 *   Hdot v    the velocity-dependent term d/dt(H) v (time derivative taken
 *             in F), so that A_FM_F = H vdot + Hdot v. It is zero for every
 *             type whose H is constant (all but universal);
 *   N(q)      nq x nv row-major, qdot = N(q) v;
 *   N+(q)     nv x nq row-major, v = N+(q) qdot (a left inverse: N+ N = I);
 *   default q (zero angles, identity quaternion) and a normalization hook
 *             for the types with a quaternion (NULL otherwise).
 * @endcode
 *
 * Coordinates (as Drake):
 * @code{.unparsed}
 *   weld                 nq = nv = 0.
 *   revolute             q = angle about the unit axis a (in F and M alike).
 *   prismatic            q = translation along a.
 *   screw                q = angle about a; the translation is a * pitch *
 *                        q / (2 pi) (pitch is the travel per revolution).
 *   universal            q = (qx, qy): R_FM = Rx(qx) Ry(qy), the second axis
 *                        being y of an intermediate frame; v = qdot. H depends
 *                        on qx, so its Hdot v is nonzero.
 *   planar               q = (x, y, theta): R_FM = Rz(theta), p_FM = (x, y, 0);
 *                        v = qdot (translation rates and the rate about z, in F).
 *   ball                 q = quaternion q_FM = (w, x, y, z); v = w_FM_F, the
 *                        angular velocity expressed in F.
 *   quaternion_floating  q = (w, x, y, z, px, py, pz); v = (w_FM_F, v_FMo_F),
 *                        angular velocity and the velocity of Mo, both in F.
 *   ball_rpy             q = (r, p, y) roll-pitch-yaw: R_FM = Rz(y) Ry(p) Rx(r)
 *                        (teal_rotation_from_rpy); v = w_FM_F as for ball.
 *   rpy_floating         q = (r, p, y, px, py, pz); v = (w_FM_F, v_FMo_F) as
 *                        for quaternion_floating.
 * @endcode
 * The two roll-pitch-yaw types have N+ everywhere, but N(q) (v -> qdot)
 * divides by cos(p): it does not exist at the gimbal lock p = +-pi/2. Their
 * check_N reports TEAL_ESINGULAR once |cos p| < TEAL_JOINT_RPY_MIN_COS_PITCH,
 * and teal_joint_qdot returns that code, so nothing upstream integrates an
 * Inf or NaN rate.
 * The unit axis a is used by revolute, prismatic and screw only. */
#ifndef TEAL_MULTIBODY_TREE_JOINTS_H
#define TEAL_MULTIBODY_TREE_JOINTS_H

#include "teal_export.h"

#include "multibody/math/spatial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The joint types. */
typedef enum teal_joint_kind {
  TEAL_JOINT_WELD = 0,            /**< no motion: nq = nv = 0 */
  TEAL_JOINT_REVOLUTE,            /**< rotation about an axis: nq = nv = 1 */
  TEAL_JOINT_PRISMATIC,           /**< translation along an axis: nq = nv = 1 */
  TEAL_JOINT_BALL,                /**< free rotation, a quaternion: nq = 4, nv = 3 */
  TEAL_JOINT_UNIVERSAL,           /**< two rotations: nq = nv = 2 */
  TEAL_JOINT_PLANAR,              /**< motion in a plane: nq = nv = 3 */
  TEAL_JOINT_SCREW,               /**< rotation with coupled translation: nq = nv = 1 */
  TEAL_JOINT_QUATERNION_FLOATING, /**< free motion: nq = 7, nv = 6 */
  TEAL_JOINT_BALL_RPY,            /**< free rotation, roll-pitch-yaw: nq = nv = 3 */
  TEAL_JOINT_RPY_FLOATING,        /**< free motion, roll-pitch-yaw: nq = nv = 6 */
  TEAL_JOINT_KIND_COUNT           /**< number of kinds (not a kind) */
} teal_joint_kind;

/** Largest nq of any joint type. */
#define TEAL_JOINT_MAX_NQ 7
/** Largest nv of any joint type. */
#define TEAL_JOINT_MAX_NV 6

/** Below this |cos(pitch)| a roll-pitch-yaw joint's N(q) is reported as
 *  singular (the rpy rates grow as 1 / cos(pitch); Drake's RpyBallMobilizer
 *  refuses the same neighbourhood of the gimbal lock). */
#define TEAL_JOINT_RPY_MIN_COS_PITCH 1e-3

/** The constant parameters of one joint: a unit axis (revolute, prismatic,
 *  screw) and the screw pitch (meters per revolution). */
typedef struct teal_joint_params {
  teal_vec3 axis; /**< unit axis (revolute, prismatic, screw) */
  double pitch;   /**< screw pitch, meters per revolution */
} teal_joint_params;

/** A joint type: a const table of its sizes and kinematic maps (see the file
 *  comment for the meaning of each). */
typedef struct teal_joint_type {
  const char *name; /**< "revolute", ... */
  int nq;           /**< number of positions q */
  int nv;           /**< number of velocities v */
  /** The pose X_FM(q). */
  teal_transform (*X_FM)(const teal_joint_params *p, const double *q);
  /** H (6 x nv, row-major) with V_FM_F = H v. */
  void (*H_FM)(const teal_joint_params *p, const double *q, double *H);
  /** d/dt(H) v, in F. */
  teal_spatial_vector (*Hdot_v)(const teal_joint_params *p, const double *q, const double *v);
  /** N(q) (nq x nv, row-major): qdot = N v. */
  void (*N)(const teal_joint_params *p, const double *q, double *N);
  /** N+(q) (nv x nq, row-major): v = N+ qdot, with N+ N = I. */
  void (*Nplus)(const teal_joint_params *p, const double *q, double *Nplus);
  /** Writes the default q (zero angles and translations, identity quaternion). */
  void (*default_q)(double *q);
  /** Normalizes the quaternion in q in place (NULL for types without one).
   *  Returns TEAL_OK, TEAL_EINVAL (zero) or TEAL_ENONFINITE. */
  int (*normalize)(double *q);
  /** Ndot(q, v) (nq x nv, row-major): d/dt N(q) along qdot = N v, so that
   *  qddot = N vdot + Ndot v (NULL where N is constant). */
  void (*Ndot)(const teal_joint_params *p, const double *q, const double *v, double *Ndot);
  /** TEAL_OK when N(q) exists at q, TEAL_ESINGULAR near a singularity of the
   *  coordinates (NULL for types whose N exists everywhere). */
  int (*check_N)(const double *q);
} teal_joint_type;

/** The table of kind (NULL if kind is out of range). */
TEAL_API const teal_joint_type *teal_joint_type_get(teal_joint_kind kind);

/** V_FM_F = H v for one joint, without forming H in the caller. */
TEAL_API teal_spatial_vector teal_joint_velocity(const teal_joint_type *t,
                                                 const teal_joint_params *p, const double *q,
                                                 const double *v);

/** qdot = N(q) v for one joint. Returns TEAL_OK, or TEAL_ESINGULAR (with
 *  qdot zeroed) where the type's check_N refuses q. */
TEAL_API int teal_joint_qdot(const teal_joint_type *t, const teal_joint_params *p, const double *q,
                             const double *v, double *qdot);

/** The roll-pitch-yaw counterpart of a kind: ball -> ball_rpy and
 *  quaternion_floating -> rpy_floating; any other kind is returned as is. */
TEAL_API teal_joint_kind teal_joint_euler_kind(teal_joint_kind kind);

/** The quaternion counterpart of a kind: ball_rpy -> ball and rpy_floating ->
 *  quaternion_floating; any other kind is returned as is. */
TEAL_API teal_joint_kind teal_joint_quaternion_kind(teal_joint_kind kind);

#ifdef __cplusplus
}
#endif
#endif
