/** @file
 * Constraints of a plant (Drake's AddCouplerConstraint, AddDistanceConstraint,
 * AddBallConstraint, AddWeldConstraint; Simbody's PointInPlane, PointOnLine
 * and ConstantAngle), added before teal_plant_finalize. Each add returns the
 * constraint index (0, 1, ... in the order of the adds), or a negative
 * status with the plant's sticky error set (TEAL_ESTATE after finalize,
 * TEAL_ENOTFOUND for an unknown body or joint, TEAL_EINVAL for a constraint
 * between a body and itself, a zero-length axis or normal or a coupler
 * joint that is not single-dof, TEAL_ENONFINITE for a NaN or infinite
 * parameter).
 *
 * Every constraint is holonomic: its position errors perr(q) (Simbody's
 * perr) vanish when it holds. Its rows are the components of perr, and
 * their time derivative is P v, with P the constraint's rows of the
 * constraint Jacobian G (see constraint_operators.h). Points and vectors
 * fixed on a body are given in that body's frame; errors are expressed in
 * the world W. The equations, one line per row:
 * @code{.unparsed}
 *   coupler        q0 - rho q1 - offset                           (1 row)
 *   distance       |p_WQ - p_WP| - d                              (1 row; 0 if compliant)
 *   ball           p_WQ - p_WP                                    (3 rows)
 *   weld           [z_P . y_Q, x_P . z_Q, y_P . x_Q; p_WQo - p_WPo]  (6 rows)
 *   point in plane n . (p_WS - p_WAo) - h                          (1 row)
 *   point on line  n_i . (p_WS - p_WL), i = 1, 2                   (2 rows)
 *   constant angle a . b - cos(theta)                             (1 row)
 * @endcode
 * The weld's first three rows approach the rotation vector of frame Q
 * relative to frame P (in W) for small misalignments; its last three are a
 * ball between the frames' origins. As with Simbody's ConstantOrientation,
 * the orientation rows also vanish at half-turn misalignments (about x, y
 * or z of P), so a weld must start near its aligned pose. For the point on line, n_1 and n_2 are
 * two unit normals of the line fixed on the line's body.
 *
 * Rows. Finalize lays the rows out in the order of the adds; a constraint's
 * rows start at teal_plant_constraint_row_start. Finalize fails with
 * TEAL_EINVAL when the rows outnumber the velocities. Each constraint has a
 * default enabled flag (on unless set otherwise); a context holds its own
 * copy (constraint_context.h). */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_SPECS_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_SPECS_H

#include "teal_export.h"

#include "math/transform.h"
#include "math/vec3.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The kinds of constraint. */
typedef enum teal_constraint_kind {
  TEAL_CONSTRAINT_COUPLER = 0,    /**< q0 = rho q1 + offset (Drake's coupler) */
  TEAL_CONSTRAINT_DISTANCE,       /**< fixed distance between two points (Simbody's Rod) */
  TEAL_CONSTRAINT_BALL,           /**< two points coincide */
  TEAL_CONSTRAINT_WELD,           /**< two frames coincide */
  TEAL_CONSTRAINT_POINT_IN_PLANE, /**< a point stays in a plane of another body */
  TEAL_CONSTRAINT_POINT_ON_LINE,  /**< a point stays on a line of another body */
  TEAL_CONSTRAINT_CONSTANT_ANGLE  /**< fixed angle between two body-fixed axes */
} teal_constraint_kind;

/** Adds Drake's coupler constraint q0 = gear_ratio q1 + offset between the
 *  positions q0 and q1 of the single-dof joints joint0 and joint1
 *  (revolute, prismatic or screw; distinct). gear_ratio and offset must be
 *  finite; offset is in the units of q0. One row: q0 - gear_ratio q1 -
 *  offset. Returns the constraint index. */
TEAL_API int teal_plant_add_coupler_constraint(teal_plant *plant, int joint0, int joint1,
                                               double gear_ratio, double offset);

/** Adds Drake's distance constraint |p_WQ - p_WP| = distance between point P
 *  (p_AP in body A) and point Q (p_BQ in body B), bodies distinct, distance
 *  finite and > 0. With stiffness = INFINITY (damping must then be 0) it is
 *  rigid (one row). With a finite stiffness > 0 and damping >= 0 it is
 *  compliant, as Drake allows: a spring-damper force along P-Q, tension
 *  stiffness (l - distance) + damping ldot, added as a linear spring-damper
 *  force element (force_elements.h), and no row; disabling it in a context
 *  removes that force there. Returns the constraint index. */
TEAL_API int teal_plant_add_distance_constraint(teal_plant *plant, int body_A, teal_vec3 p_AP,
                                                int body_B, teal_vec3 p_BQ, double distance,
                                                double stiffness, double damping);

/** Adds Drake's ball constraint: point P (p_AP in body A) coincides with
 *  point Q (p_BQ in body B), bodies distinct. Three rows, p_WQ - p_WP.
 *  Returns the constraint index. */
TEAL_API int teal_plant_add_ball_constraint(teal_plant *plant, int body_A, teal_vec3 p_AP,
                                            int body_B, teal_vec3 p_BQ);

/** Adds Drake's weld constraint: frame P (pose X_AP in body A) coincides with
 *  frame Q (pose X_BQ in body B), bodies distinct. Six rows (see the file
 *  comment), orientation first. Returns the constraint index. */
TEAL_API int teal_plant_add_weld_constraint(teal_plant *plant, int body_A, teal_transform X_AP,
                                            int body_B, teal_transform X_BQ);

/** Adds Simbody's point-in-plane constraint: the follower point S (p_BS in
 *  body B) stays in the plane {x : n . x = height} of body A (n: the
 *  normal, given in A's frame, any finite length >= 1e-12, normalized here;
 *  height finite). One row, n . p_AS - height in W. Returns the constraint
 *  index. */
TEAL_API int teal_plant_add_point_in_plane_constraint(teal_plant *plant, int body_A,
                                                      teal_vec3 normal_A, double height, int body_B,
                                                      teal_vec3 p_BS);

/** Adds Simbody's point-on-line constraint: the follower point S (p_BS in
 *  body B) stays on the line of body A through p_AL with direction
 *  direction_A (in A's frame, finite, length >= 1e-12). Two rows: the
 *  offset of S from the line along two unit normals of the line. Returns
 *  the constraint index. */
TEAL_API int teal_plant_add_point_on_line_constraint(teal_plant *plant, int body_A,
                                                     teal_vec3 direction_A, teal_vec3 p_AL,
                                                     int body_B, teal_vec3 p_BS);

/** Adds Simbody's constant-angle constraint: the angle between axis a (a_A,
 *  fixed in body A) and axis b (b_B, fixed in body B) stays angle (radians,
 *  finite, in [0, pi]); the axes are normalized here (finite, length >=
 *  1e-12). One row, a . b - cos(angle). Near 0 or pi the row loses rank:
 *  Simbody's advice, keep the angle away from them, holds here too.
 *  Returns the constraint index. */
TEAL_API int teal_plant_add_constant_angle_constraint(teal_plant *plant, int body_A, teal_vec3 a_A,
                                                      int body_B, teal_vec3 b_B, double angle);

/** The number of constraints added (Drake's num_constraints), rigid and
 *  compliant; TEAL_EINVAL for a NULL plant. */
TEAL_API int teal_plant_num_constraints(const teal_plant *plant);

/** The kind (teal_constraint_kind) of constraint c; TEAL_EINVAL for a NULL
 *  plant, TEAL_ENOTFOUND for an unknown index. */
TEAL_API int teal_plant_constraint_kind(const teal_plant *plant, int c);

/** The rows of constraint c (0 for a compliant distance); errors as
 *  teal_plant_constraint_kind. */
TEAL_API int teal_plant_constraint_num_rows(const teal_plant *plant, int c);

/** The first row of constraint c among all rows (after finalize;
 *  TEAL_ESTATE before); errors as teal_plant_constraint_kind. */
TEAL_API int teal_plant_constraint_row_start(const teal_plant *plant, int c);

/** The total rows m of all constraints, disabled or not: the size of every
 *  constraint-space vector (after finalize; TEAL_ESTATE before). */
TEAL_API int teal_plant_num_constraint_rows(const teal_plant *plant);

/** The force element of a compliant distance constraint c, or -1 for
 *  any other constraint; errors as teal_plant_constraint_kind. */
TEAL_API int teal_plant_constraint_force_element(const teal_plant *plant, int c);

/** Sets the default enabled flag of constraint c (nonzero: enabled, the
 *  initial value) that new contexts start with; before finalize only
 *  (TEAL_ESTATE after). A compliant distance constraint disabled by
 *  default exerts no force until a context enables it. */
TEAL_API int teal_plant_set_constraint_default_enabled(teal_plant *plant, int c, int enabled);

/** 1 if constraint c is enabled by default, 0 if not; errors as
 *  teal_plant_constraint_kind. */
TEAL_API int teal_plant_constraint_default_enabled(const teal_plant *plant, int c);

#ifdef __cplusplus
}
#endif
#endif
