/** @file
 * An SDFormat parser (Drake's Parser::AddModels for .sdf files) that adds
 * every model of a document to an unfinalized plant, one model instance per
 * model, nested models included.
 *
 * Supported (SDFormat 1.7 and later; the `version` attribute of `<sdf>` is
 * required):
 * @code{.unparsed}
 *   <sdf>        one <model> or one <world>.
 *   <world>      <model>, <include>, <frame> (a plant frame of the world
 *                model instance), <gravity> (sets the plant's gravity); other
 *                children (physics, scene, light, plugin) are ignored with
 *                a warning.
 *   <model name> <static>, <pose>, <link>, <joint>, <frame>, nested <model>,
 *                <include>, canonical_link attribute.
 *   <link name>  <pose>, <inertial> (<pose>, <mass>, <inertia> ixx ... izz
 *                about the center of mass in the inertial frame; without
 *                <inertial> SDFormat's default, mass 1 and unit inertia),
 *                <collision> and <visual> with <pose> and <geometry>: <box
 *                size>, <sphere radius>, <cylinder radius length>, <capsule
 *                radius length>, <ellipsoid radii>, <plane normal> (a
 *                half-space), <mesh uri scale> (uniform scale; a
 *                collision mesh is its convex hull, with a warning when
 *                the mesh is far from convex); visuals take
 *                <material><diffuse> as their color.
 *   <joint name type>  revolute, continuous, prismatic, ball, universal,
 *                screw (<screw_thread_pitch>, meters per revolution), fixed;
 *                <parent>, <child> (links of the model or "world"), <pose>,
 *                <axis> and <axis2> (<xyz expressed_in>, <limit lower upper
 *                effort velocity>, <dynamics damping friction>).
 *   <frame name attached_to>  with <pose>: a plant frame on the body it is
 *                attached to.
 *   <include>    <uri> (model://name, package://name/... (through
 *                teal_sdf_options.packages, package_map.h), or a path relative
 *                to the including file; a directory holds model.config or
 *                model.sdf), <name>, <pose>, <static> overrides.
 *   <drake:proximity_properties> in a <collision>: <drake:mu_dynamic>,
 *                <drake:mu_static>, <drake:point_contact_stiffness>,
 *                <drake:hunt_crossley_dissipation>,
 *                <drake:relaxation_time>; the hydroelastic ones
 *                are ignored with a warning; a <collision>'s <surface>
 *                is ignored with a warning.
 * @endcode
 *
 * Poses follow SDFormat 1.7's frame semantics: a `<pose relative_to="F">`
 * is relative to frame F of the same model scope (a link, joint, frame or
 * nested model name, "inner::link" into a nested model, `__model__` for the
 * enclosing model, "world" for the world); without relative_to a link's,
 * frame's and nested model's pose is relative to the enclosing model (a
 * frame: to the frame it is attached to), a joint's to its child link,
 * and a top-level model's to the world. `degrees="true"` takes the angles
 * in degrees. A cycle of relative_to or attached_to references is an error.
 *
 * Mapping to the plant, as Drake's parser does it: each model is a model
 * instance, added in document order: a top-level one named after the model
 * (or its `<include><name>`, or teal_sdf_options.instance_name), a nested
 * one with its scoped name ("outer::inner"). An instance holds its model's
 * links, joints, frames and actuators under their local names: link "l" of
 * nested model "inner" is the body "l" of instance "outer::inner". A joint
 * belongs to the model declaring it, also when its links are in nested
 * models (its frames are that model's too; teal_plant_add_frame_in_instance).
 * Each model has a frame `__model__` at the model's pose, fixed to its
 * canonical link (`canonical_link`, else its first link, else the
 * canonical link of its first nested model; a model without one, nested
 * or not, is an error), and each `<frame>` of the
 * `<world>` is a frame of the world model instance under its own name on
 * the body it is attached to. Frames that end up on the world body (those
 * of massless links of static models) are frames of the world model
 * instance named "<instance>::<name>", as in urdf.h. The tree, and so the
 * dynamics, is the same as if the models were one.
 * A link is a body whose frame is the SDFormat link frame.
 * A joint J becomes a plant joint from the frame `<joint>_parent` (J in
 * the parent link) to `<joint>_child` (J in the child link), so a revolute
 * or prismatic axis is its `<xyz>` in J. A universal joint's frames are
 * turned so that their x axis is `<axis>` and their y axis `<axis2>` (which
 * must be orthogonal). A joint with an effort limit other than 0 on one
 * degree of freedom gets an actuator named after the joint (a negative
 * limit: unlimited), as Drake's SDFormat parser does. Damping applies to
 * every velocity of the joint; joint friction and springs are ignored
 * with a warning. `<axis><mimic>` (SDFormat 1.11) and `<drake:mimic>`
 * make a coupler constraint, as URDF's `<mimic>`. Root links of a model are free
 * bodies whose default pose is their pose in the world; in a static model
 * (or a nested model of one, or one marked static itself) they are welded
 * to the world by a joint `<link>_static_weld`, as are massless root
 * links.
 *
 * Errors: the same codes and limits as the URDF parser (urdf.h), with the
 * source file, line and element in the message, e.g.
 * @code{.unparsed}
 *   arm.sdf:12: <pose>: relative_to frame 'nowhere' not found
 * @endcode
 * TEAL_ENOTFOUND also for an include that cannot be resolved, TEAL_EINVAL
 * for cyclic poses or attachments and cyclic includes, TEAL_ESIZE for
 * nesting or includes deeper than teal_sdf_options.max_depth,
 * TEAL_EDUPLICATE for a model instance (nested ones included) or a world
 * frame whose name the plant already has. Everything is
 * parsed and checked before the plant is touched, so on error the plant is
 * left as it was (except for plant failures while adding, as in urdf.h). */
#ifndef TEAL_MULTIBODY_PARSING_SDF_H
#define TEAL_MULTIBODY_PARSING_SDF_H

#include "teal_export.h"

#include <stddef.h>

#include "framework/error.h"
#include "multibody/parsing/package_map.h"
#include "multibody/parsing/parser.h"
#include "multibody/parsing/urdf.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a load added, skipped or ignored. */
typedef struct teal_sdf_report {
  int num_models;       /**< model instances added */
  int num_warnings;     /**< all warnings */
  int mesh_collisions;  /**< mesh collision geometries added as their convex hull */
  int nonconvex_meshes; /**< of those, far from convex or not closed (each warned) */
  int ignored_elements; /**< unsupported elements and attributes */
  char first_warning[TEAL_URDF_WARNING_MAX]; /**< "file:line: <elem>: ..." or "" */
} teal_sdf_report;

/** Default of teal_sdf_options.max_depth. */
#define TEAL_SDF_DEFAULT_MAX_DEPTH 32

/** Limits on the input of a load; fill with teal_sdf_options_init. */
typedef struct teal_sdf_options {
  size_t max_bytes;   /**< longest document, each file of an include too (> 0) */
  int max_attributes; /**< most attributes on one element (> 0) */
  int max_depth;      /**< deepest nesting of models and includes (> 0) */
  /** The instance name for a document of one top-level model (NULL: the
   *  model's name), also the prefix of its nested models' instances
   *  ("<instance_name>::inner"); a document of several refuses it
   *  (TEAL_EINVAL). */
  const char *instance_name;
  /** Where package:// and model:// URIs of includes and meshes point
   *  (borrowed; NULL: the model search path only, see package_map.h). */
  const teal_package_map *packages;
} teal_sdf_options;

/** Fills options (may be NULL) with the defaults (the URDF parser's limits,
 *  TEAL_SDF_DEFAULT_MAX_DEPTH, no instance name, no package map). */
TEAL_API void teal_sdf_options_init(teal_sdf_options *options);

/** Parses the SDFormat file at path (looked up on the model search path
 *  when relative and not in the working directory, as
 *  teal_urdf_load_file does) and adds its models to the unfinalized plant.
 *  Returns the index of the first new model instance (the others, nested
 *  ones included, follow it in document order) or a negative status with a
 *  message in err. */
TEAL_API int teal_sdf_load_file(teal_plant *plant, const char *path, teal_error *err);

/** As teal_sdf_load_file for a NUL-terminated document in memory (source
 *  "<string>"; relative include URIs are relative to the working
 *  directory). */
TEAL_API int teal_sdf_load_string(teal_plant *plant, const char *xml, teal_error *err);

/** teal_sdf_load_file under options (NULL: the defaults), filling report
 *  (may be NULL; zeroed first). */
TEAL_API int teal_sdf_load_file_opts(teal_plant *plant, const char *path,
                                     const teal_sdf_options *options, teal_sdf_report *report,
                                     teal_error *err);

/** teal_sdf_load_string under options (NULL: the defaults), filling report
 *  (may be NULL; zeroed first). */
TEAL_API int teal_sdf_load_string_opts(teal_plant *plant, const char *xml,
                                       const teal_sdf_options *options, teal_sdf_report *report,
                                       teal_error *err);

/** The SDFormat row of the parser's format table (parser.h,
 *  teal_parser_load_fn): loads input (a file when is_file, else a
 *  document) under options' limits and instance name, writes the first cap
 *  new instances to instances and their number to *count, and adds its
 *  warnings to report. */
TEAL_API int teal_sdf_parser_load(teal_plant *plant, const char *input, int is_file,
                                  const teal_parser_options *options, int *instances, int cap,
                                  int *count, teal_parser_report *report, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
