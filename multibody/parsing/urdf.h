/** @file
 * A URDF parser (Drake's Parser::AddModels for .urdf files) that adds one
 * robot to an unfinalized plant as a new model instance.
 *
 * Supported elements:
 * @code{.unparsed}
 *   <robot name>           the instance name unless one is given.
 *   <link name>            <inertial> (<origin xyz rpy>, <mass value>,
 *                          <inertia ixx ixy ixz iyy iyz izz>: the matrix
 *                          entries about the center of mass in the inertial
 *                          frame, re-expressed in the link frame as R I R'),
 *                          <visual> and <collision>.
 *   <joint name type>      revolute, continuous (a revolute without position
 *                          limits), prismatic, fixed, floating (quaternion
 *                          floating) and planar, with <parent link>,
 *                          <child link>, <origin xyz rpy> (X_PJ, the joint
 *                          frame in the parent link frame), <axis xyz>
 *                          (default 1 0 0, in the joint frame), <limit lower
 *                          upper effort velocity> and <dynamics damping>.
 *   <drake:joint name type> also ball, universal and screw
 *                          (<drake:screw_thread_pitch value>).
 *   <transmission>         SimpleTransmission, old (<transmission type>,
 *                          <joint name>, <actuator name>) and ROS form
 *                          (<type>...SimpleTransmission</type>): a joint
 *                          actuator named after the actuator (or the
 *                          transmission) whose effort limit is the joint's.
 *   <material name>        top level (referenced from visuals by name) or
 *                          inline in a <visual>, with <color rgba>.
 *   <frame name link xyz rpy>  Drake's extra frame fixed on a link.
 *   geometry: <box size>, <sphere radius>, <cylinder radius length>,
 *             <capsule radius length> and <drake:capsule ...> (length between
 *             the cap centres), <drake:ellipsoid a b c>, <mesh filename
 *             scale> (uniform scale). A visual mesh is kept as a named
 *             mesh (file and scale, read when drawn); a collision mesh is
 *             read (geometry/shapes/mesh_file.h: STL, OBJ, ...) and
 *             collides as its convex hull, with a warning when the mesh is
 *             far from convex or not closed (mesh_hull.h). Relative mesh
 *             file names read from a file are prefixed with the file's
 *             directory; package:// and model:// names are resolved by
 *             teal_package_map_resolve (package_map.h) with the map of the
 *             options; an unresolved one is an error (TEAL_ENOTFOUND)
 *             naming the URI and the places searched.
 *   <drake:proximity_properties> in a <collision>: <drake:mu_static value>,
 *             <drake:mu_dynamic value> (one given alone sets both),
 *             <drake:point_contact_stiffness value>,
 *             <drake:hunt_crossley_dissipation value> and
 *             <drake:relaxation_time value> (SAP's). Without them friction
 *             is mu = 1.0 static and dynamic (Drake's default) and stiffness,
 *             dissipation and relaxation time are NaN (the plant's
 *             defaults).
 * @endcode
 * Other elements (gazebo, calibration, safety_controller, ...) are ignored;
 * unsupported Drake extensions, `<mimic>`, joint friction and the like are
 * ignored with a warning (see teal_urdf_report).
 *
 * Mapping to the plant:
 *   - A link named "world" (declared or only referenced) is the world body.
 *   - A link with mass > 0 becomes a rigid body of the new instance. A root
 *     link with mass (no parent joint) is left free: finalize gives it a
 *     floating joint, as in Drake.
 *   - Massless links (no `<inertial>`, or mass 0): the plant has no massless
 *     bodies, so such a link becomes a frame (named after the link) fixed on
 *     the body that carries it: a massless child of a fixed joint lives on
 *     its parent's body; a massless root link is welded to the world at the
 *     world origin. A massless link moved by any other joint is an error.
 *   - Every joint except a fixed joint to a massless link becomes a plant
 *     joint from frame F = "<joint>_parent" (fixed on the parent link at the
 *     joint origin) to the child body frame. A planar joint's F is turned so
 *     that its z axis is the URDF axis (the plane normal), with a matching
 *     frame "<joint>_child" on the child body.
 *   - Limits: missing lower/upper are -inf/+inf; effort 0 and velocity 0
 *     mean "no limit" (common in exported files). Velocity limits are
 *     symmetric. Damping applies to every velocity of the joint (ignored for
 *     fixed and floating joints).
 *   - Frames and geometries that land on the world body belong to the world
 *     model instance, so their names are prefixed with "<instance>::" to
 *     stay unique when several robots are loaded. Geometry names are the name
 *     attribute or "<link>_visual_<k>" / "<link>_collision_<k>" (k counts the
 *     link's visuals or collisions in document order from 0).
 *
 * Errors. Functions return the new instance index (>= 0) or a negative
 * status, and err (may be NULL) gets a message naming the source (the file's
 * base name, or "<string>"), the line and the element, e.g.
 * @code{.unparsed}
 *   acrobot.urdf:23: <joint name="elbow">: unknown joint type 'revolve'
 * @endcode
 * Codes: TEAL_EPARSE malformed XML, a missing required element or attribute,
 * an unknown type or tag, or text that is not a number; TEAL_ENONFINITE a NaN
 * or Inf number; TEAL_EINVAL a physically invalid value (negative mass,
 * non-physical inertia, zero axis, lower > upper, bad color), a massless
 * moving link, a link with two parent joints or a kinematic loop;
 * TEAL_ENOTFOUND a reference to an unknown link, joint or material, or an
 * unresolved package URI; errors of a collision mesh's file as
 * teal_mesh_load_file gives them (TEAL_EIO unreadable, TEAL_EPARSE not a
 * mesh, ...);
 * TEAL_EDUPLICATE a repeated name or an existing instance name; TEAL_EIO an
 * unreadable file or one that is not a regular file (a directory, a device
 * such as /dev/zero, a pipe); TEAL_ESIZE an input over a limit below;
 * TEAL_ESTATE a finalized plant; TEAL_EINVAL NULL arguments or limits that
 * are not positive. A plant that already holds a sticky error returns that
 * code.
 *
 * Limits (teal_urdf_options; the functions without options use the
 * defaults). Hostile documents must fail fast rather than hang, so before
 * libxml2 parses anything the input is checked against two limits, both
 * TEAL_ESIZE:
 *   - max_bytes, the document's size (default TEAL_URDF_DEFAULT_MAX_BYTES,
 *     64 MiB: a 100,000-link chain with inertias and joints takes 25 MiB,
 *     the largest shipped model 10 KB). A file larger than that is refused
 *     from its size, before it is read; a string is not read past it.
 *   - max_attributes, the attributes on one element, namespace declarations
 *     included (default TEAL_URDF_DEFAULT_MAX_ATTRIBUTES, 256; a URDF
 *     element needs at most 7). libxml2 2.9 spends time quadratic in the
 *     attributes of one element (100,000 take minutes); a 64 MiB document
 *     of elements with 256 attributes each parses in 5 s, one of plain
 *     elements in 3.5 s (libxml2 2.9.14; 1,024 attributes: 14 s).
 *
 * Also refused (TEAL_EPARSE), since they would defeat those checks: a
 * document type declaration with an internal subset (`<!DOCTYPE robot [
 * ... ]>`: its entities' replacement text is parsed as markup, and URDF
 * uses none) and UTF-16, UTF-32 or EBCDIC documents. Documents are read as
 * UTF-8 whatever their XML declaration says, as Drake's parser does.
 *
 * The whole file is parsed and checked before the plant is touched, so every
 * error above leaves the plant unchanged and usable. Only a failure reported
 * by the plant itself while the checked model is added (out of memory, or a
 * name clash with frames or geometries added to the world by other code)
 * leaves a partly added instance; the plant's sticky error is then set, so
 * finalize fails and teal_plant_free releases everything as usual.
 *
 * libxml2 does the XML parsing with network access, DTD loading and entity
 * substitution off; its messages go to the error record, never to stderr, and
 * no process-wide libxml2 callback is installed. libxml2's own memory does
 * not go through the teal_alloc hooks. Numbers are parsed independently of
 * the C locale's decimal separator. */
#ifndef TEAL_MULTIBODY_PARSING_URDF_H
#define TEAL_MULTIBODY_PARSING_URDF_H

#include "teal_export.h"

#include <stddef.h>

#include "framework/error.h"
#include "multibody/parsing/package_map.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest warning text kept in a report, including the terminator. */
#define TEAL_URDF_WARNING_MAX 256

/** What a load converted, skipped or ignored (warning counters instead of
 *  log spam). */
typedef struct teal_urdf_report {
  int num_warnings;            /**< all warnings */
  int mesh_collisions;         /**< `<collision>` meshes added as their convex hull (no warning) */
  int nonconvex_meshes;        /**< of those, far from convex or not closed (each warned) */
  int skipped_transmissions;   /**< not SimpleTransmission, or effort limit 0 */
  int ignored_elements;        /**< unsupported elements and attributes */
  char first_warning[TEAL_URDF_WARNING_MAX]; /**< "file:line: <elem>: ..." or "" */
} teal_urdf_report;

/** Default of teal_urdf_options.max_bytes: 64 MiB. */
#define TEAL_URDF_DEFAULT_MAX_BYTES ((size_t)64 << 20)

/** Default of teal_urdf_options.max_attributes. */
#define TEAL_URDF_DEFAULT_MAX_ATTRIBUTES 256

/** Limits on the input of a load (see "Limits" above); fill it with
 *  teal_urdf_options_init, then change what is needed. */
typedef struct teal_urdf_options {
  /** Longest document accepted, in bytes (> 0; values above INT_MAX, what
   *  libxml2 takes, act as INT_MAX). */
  size_t max_bytes;
  /** Most attributes on one element, namespace declarations included (> 0). */
  int max_attributes;
  /** Where package:// and model:// mesh names point (borrowed; NULL: the
   *  model search path only, see package_map.h). */
  const teal_package_map *packages;
} teal_urdf_options;

/** Fills options (may be NULL) with the defaults. */
TEAL_API void teal_urdf_options_init(teal_urdf_options *options);

/** Parses the URDF file at path into a new model instance of the
 *  unfinalized plant, named instance_name (NULL: the robot's name). A
 *  relative path that names no file in the working directory is looked up
 *  on the model search path (teal_model_path_find in model_path.h), so
 *  "acrobot.urdf" finds an installed model. Returns the instance index
 *  (>= 0) or a negative status with a message in err (TEAL_EIO, naming the
 *  places searched, when no file is found). */
TEAL_API int teal_urdf_load_file(teal_plant *plant, const char *path, const char *instance_name,
                                 teal_error *err);

/** As teal_urdf_load_file, for a NUL-terminated URDF document in memory
 *  (messages name the source "<string>"). */
TEAL_API int teal_urdf_load_string(teal_plant *plant, const char *xml, const char *instance_name,
                                   teal_error *err);

/** teal_urdf_load_file that also fills report (may be NULL; zeroed first). */
TEAL_API int teal_urdf_load_file_ex(teal_plant *plant, const char *path, const char *instance_name,
                                    teal_urdf_report *report, teal_error *err);

/** teal_urdf_load_string that also fills report (may be NULL; zeroed first). */
TEAL_API int teal_urdf_load_string_ex(teal_plant *plant, const char *xml, const char *instance_name,
                                      teal_urdf_report *report, teal_error *err);

/** teal_urdf_load_file_ex under the given limits (options NULL: the
 *  defaults); TEAL_EINVAL when a limit is not positive. */
TEAL_API int teal_urdf_load_file_opts(teal_plant *plant, const char *path,
                                      const char *instance_name, const teal_urdf_options *options,
                                      teal_urdf_report *report, teal_error *err);

/** teal_urdf_load_string_ex under the given limits (options NULL: the
 *  defaults); TEAL_EINVAL when a limit is not positive. */
TEAL_API int teal_urdf_load_string_opts(teal_plant *plant, const char *xml,
                                        const char *instance_name, const teal_urdf_options *options,
                                        teal_urdf_report *report, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
