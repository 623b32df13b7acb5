/** @file
 * An MJCF parser (MuJoCo's XML format) that adds one `<mujoco>` model to an
 * unfinalized plant as a new model instance, with MuJoCo's dynamics: the
 * same bodies, joints, masses and inertias, so M(q) and the bias forces
 * agree with MuJoCo's (see docs/models_and_controllers.md for the attribute
 * table and the state mapping).
 *
 * Supported elements:
 * @code{.unparsed}
 *   <mujoco model>     the instance name unless one is given.
 *   <compiler>         angle (degree, the default, or radian), eulerseq,
 *                      autolimits (default true), inertiafromgeom (auto,
 *                      true, false), boundmass, meshdir (else assetdir).
 *   <option>           gravity (sets the plant's gravity) and timestep
 *                      (reported in teal_mjcf_report.timestep).
 *   <default class>    nested classes inheriting from their parent, with
 *                      joint, geom, site, motor and equality (active,
 *                      solref, solimp) defaults; elements take their class,
 *                      else their body's childclass, else main (equalities:
 *                      their class, else main).
 *   <worldbody>, <body name pos childclass> and its orientation (quat,
 *                      axisangle, euler, xyaxes, zaxis), nested freely.
 *   <inertial pos mass diaginertia|fullinertia> and its orientation.
 *   <joint> / <freejoint> hinge, slide, ball, free with pos, axis, range,
 *                      limited, damping, armature, ref.
 *   <geom>             sphere, capsule, cylinder, box, ellipsoid, plane
 *                      (size or fromto), mesh; mass or density, friction,
 *                      rgba, contype / conaffinity; hfield is skipped with a
 *                      warning.
 *   <asset><mesh name file scale>  a mesh file (STL, OBJ, ... through
 *                      geometry/shapes/mesh_hull.h) under meshdir, relative
 *                      to the model file's directory; uniform scales only.
 *   <site>             a frame on its body.
 *   <actuator><motor joint|tendon gear ctrlrange forcerange>  a joint
 *                      actuator, or a tendon actuator on a fixed tendon.
 *   <contact><exclude body1 body2>  a collision filter between the bodies.
 * @endcode
 * Other elements and attributes are ignored with a warning (see
 * teal_mjcf_report).
 *
 * Mapping to the plant:
 *   - Every body with mass or a joint becomes a rigid body named after the
 *     body (an unnamed one "body<k>", k its index in document order, the
 *     world being 0). Its inertia is its `<inertial>` or, as MuJoCo's
 *     compiler does, the sum of its geoms' solid inertias (density 1000 by
 *     default).
 *   - A body's joint becomes a plant joint from "<joint>_parent", a frame on
 *     the parent at the joint's anchor in the zero configuration, to
 *     "<joint>_child" on the body at its pos. Several joints in one body act
 *     in order, as MuJoCo's: every joint but the last moves an intermediate
 *     body "<body>_dof<k>" carrying a point mass of
 *     TEAL_SPATIAL_INERTIA_MIN_MASS at its origin (the plant has no massless
 *     bodies; the mass is 1e-100 kg, below anything double arithmetic sees).
 *   - A joint-less body with mass is welded to its parent; a massless one
 *     becomes a frame on its parent's body.
 *   - A free joint's default positions are the body's pose in the model
 *     (MuJoCo's qpos0); a hinge's or slide's are its ref (0 by default).
 *     As in MuJoCo the body's pose in the model is its pose at q = ref and
 *     the joint moves it by q - ref, so the plant's kinematics at q are
 *     MuJoCo's at qpos = q; joint and tendon equalities measure from qpos0
 *     (their couplers' offsets include the refs). A ball or free joint's
 *     ref is ignored, as MuJoCo does.
 *   - Ball and free joints: Teal's quaternion joints take the angular
 *     velocity in the parent frame, MuJoCo's in the body frame (w_F = R_FM
 *     w_M); the positions are the same quaternion (w, x, y, z), a free
 *     joint's q being (quaternion, position) in Teal and (position,
 *     quaternion) in MuJoCo.
 *   - Geometries are collision geometries (unless contype and conaffinity
 *     are both 0: visual only) and visual geometries ("<name>_visual").
 *     Two collision geometries on different bodies collide iff MuJoCo's
 *     (contype_a & conaffinity_b) || (contype_b & conaffinity_a): every
 *     other pair is excluded (teal_plant_exclude_collision_geometry_pair;
 *     nothing is recorded when all geoms keep the defaults 1, 1). MuJoCo's
 *     body filters are the plant's default filters, plus the body pairs
 *     its parent filter reaches beyond them (weld groups, bodies with
 *     several joints); MuJoCo does not filter a body against a parent
 *     welded to the world, the plant does. Unnamed geoms are
 *     "<body>_geom<k>" (k counts the body's geoms). A mesh geom collides as
 *     its convex hull (warned when far from convex or open), its visual is
 *     the mesh, and its solid (a closed mesh: TEAL_EINVAL otherwise, when
 *     the body's inertia comes from its geoms) gives its mass and inertia,
 *     as MuJoCo computes them exactly (exactmeshinertia; MuJoCo 2.2's
 *     legacy approximation is not modelled). Friction is the sliding coefficient (static and
 *     dynamic); torsional and rolling friction are ignored.
 *   - A motor is a joint actuator whose input is MuJoCo's ctrl: its input
 *     gain (actuator_gain.h) is the gear's first component, so the joint
 *     force is gear * ctrl (a gear of 0 is TEAL_EINVAL). Its effort limit,
 *     a bound on ctrl, is the smaller of the limited ranges (forcerange
 *     clamps the force before the gear, ctrlrange the control), infinite
 *     when neither is limited: exact for symmetric ranges; an asymmetric
 *     range is widened to +-its larger bound, with a warning. A motor with
 *     tendon="..." on a fixed tendon is a tendon actuator
 *     (multibody/forces/tendon_actuator.h) with the same gain and limit, so
 *     its generalized force is J_L^T gear ctrl as MuJoCo's; one on a
 *     spatial tendon is ignored with a warning.
 *
 *   - The model's names (bodies, joints, geoms, sites, meshes) must be
 *     unique per kind, and the plant's frames (bodies, sites, massless
 *     bodies and the generated "<joint>_parent", "<joint>_child",
 *     "<body>_dof<k>", "<body>_weld") per model instance: a clash, e.g. a
 *     site named like a body, is TEAL_EDUPLICATE before the plant is
 *     touched.
 *
 * Errors (as teal_urdf_load_file, with the same libxml2 options, limits and
 * pre-scan): messages name the source, the line and the element; codes
 * TEAL_EPARSE (malformed XML, unknown element types, bad numbers),
 * TEAL_ENONFINITE, TEAL_EINVAL (non-physical values), TEAL_ENOTFOUND
 * (unknown class, joint or body), TEAL_EDUPLICATE, TEAL_EIO, TEAL_ESIZE,
 * TEAL_ESTATE. The whole document is checked before the plant is touched,
 * so every error leaves the plant unchanged. */
#ifndef TEAL_MULTIBODY_PARSING_MJCF_H
#define TEAL_MULTIBODY_PARSING_MJCF_H

#include "teal_export.h"

#include <stddef.h>

#include "framework/error.h"
#include "multibody/parsing/parser.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest warning text kept in a report, including the terminator. */
#define TEAL_MJCF_WARNING_MAX 256

/** What a load skipped or ignored, and the model's option values. */
typedef struct teal_mjcf_report {
  int num_warnings;       /**< all warnings below */
  int ignored_elements;   /**< unsupported elements (equality, tendon, ...) */
  int ignored_attributes; /**< unsupported attributes with no effect here */
  int skipped_geoms;      /**< geoms left out (height fields) */
  int mesh_collisions;    /**< mesh geoms colliding as their convex hull */
  int nonconvex_meshes;   /**< meshes far from convex or not closed (each warned) */
  double timestep;        /**< `<option timestep>` (MuJoCo's default 0.002) */
  char first_warning[TEAL_MJCF_WARNING_MAX]; /**< "file:line: <elem>: ..." or "" */
} teal_mjcf_report;

/** Limits on the input of a load (as teal_urdf_options); fill it with
 *  teal_mjcf_options_init, then change what is needed. */
typedef struct teal_mjcf_options {
  size_t max_bytes;   /**< longest document accepted, in bytes (> 0) */
  int max_attributes; /**< most attributes on one element (> 0) */
} teal_mjcf_options;

/** Fills options (may be NULL) with the URDF parser's defaults. */
TEAL_API void teal_mjcf_options_init(teal_mjcf_options *options);

/** Parses the MJCF file at path into a new model instance of the
 *  unfinalized plant, named instance_name (NULL: the model attribute, else
 *  "mujoco"). Returns the instance index (>= 0) or a negative status with
 *  a message in err. options and report may be NULL. */
TEAL_API int teal_mjcf_load_file(teal_plant *plant, const char *path, const char *instance_name,
                                 const teal_mjcf_options *options, teal_mjcf_report *report,
                                 teal_error *err);

/** As teal_mjcf_load_file for a NUL-terminated document in memory (messages
 *  name the source "<string>"; relative mesh files are taken as written). */
TEAL_API int teal_mjcf_load_string(teal_plant *plant, const char *xml, const char *instance_name,
                                   const teal_mjcf_options *options, teal_mjcf_report *report,
                                   teal_error *err);

/** The MJCF row of the parser's format table (teal_parser_load_fn, see
 *  parser.h): loads input (a file path when is_file, else a document) as
 *  teal_mjcf_load_file / _string do under options' limits and instance
 *  name, writes the one instance to instances[0] (when cap > 0) and 1 to
 *  *count, and adds its warnings to report (ignored_elements counts the
 *  ignored elements and attributes and the skipped geoms). */
TEAL_API int teal_mjcf_parser_load(teal_plant *plant, const char *input, int is_file,
                                   const teal_parser_options *options, int *instances, int cap,
                                   int *count, teal_parser_report *report, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
