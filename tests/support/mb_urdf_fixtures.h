/* URDF test fixtures: loading XML into fresh plants, looking up joints,
 * frames, geometries and actuators by name (asserting that they exist),
 * near-equality asserts, world poses, and macros that write URDF snippets.
 * The functions assert with Check, so they are for use inside START_TEST
 * bodies. The shipped models are found with
 * tests/multibody/parsing/urdf_models.h. */
#ifndef TEAL_TESTS_SUPPORT_MB_URDF_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_URDF_FIXTURES_H

#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/urdf.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An <inertial> of mass 1 and inertia diag(0.1, 0.1, 0.1). */
#define MASS                                                                    \
  "<inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\"/>" \
  "</inertial>"
/** A <link> named n with MASS. */
#define XLINK(n) "<link name=\"" n "\">" MASS "</link>"
/** A <joint> named n of type from link p to link c, with extra elements. */
#define XJOINT(n, type, p, c, extra)                                                         \
  "<joint name=\"" n "\" type=\"" type "\"><parent link=\"" p "\"/><child link=\"" c "\"/>" \
  extra "</joint>"

/** Loads xml into a fresh plant and finalizes it unless finalize is 0;
 *  asserts success. */
teal_plant *ts_urdf_load_xml(const char *xml, teal_urdf_report *report, int finalize);

/** The tree node of the child body of the joint named name (any instance). */
int ts_urdf_node_of_joint(const teal_plant *p, const char *name);

/** Asserts |a_i - b_i| <= tol for each component. */
void ts_urdf_assert_vec3_near(teal_vec3 a, teal_vec3 b, double tol);

/** Asserts that the positions and rotations of a and b agree within tol. */
void ts_urdf_assert_transform_near(teal_transform a, teal_transform b, double tol);

/** The pose of a frame (by name, in instance) in its body, stored in *body. */
teal_transform ts_urdf_frame_pose(const teal_plant *p, const char *name, int instance,
                                  int *body);

/** The geometry named name (aborts the test if there is none). */
const teal_plant_geometry *ts_urdf_geometry_named(const teal_plant *p, const char *name);

/** The effort limit of the actuator named name (any instance). */
double ts_urdf_actuator_effort(const teal_plant *p, const char *name);

/** Rotation by angle about the axis (x, y, z), normalized, built without
 *  teal_rotation_from_rpy. */
teal_rotation ts_urdf_rot(double x, double y, double z, double angle);

/** The pose in the world of the frame named name (any instance) at q. */
teal_transform ts_urdf_world_pose(const teal_plant *p, const char *name, const double *q);

#ifdef __cplusplus
}
#endif
#endif
