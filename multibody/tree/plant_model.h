/** @file
 * The multibody model container: bodies, frames, joints, actuators and model
 * instances, built with Drake-like calls and finalized into arrays per
 * property in topological order (MuJoCo's layout).
 *
 * Indices. Model instance 0 is the world ("WorldModelInstance"), 1 the
 * default ("DefaultModelInstance"). Body 0 is "world". Every body has a body
 * frame, created with it (frame 0 is the world frame; see
 * teal_plant_body_frame); teal_plant_add_frame adds fixed-offset frames.
 * Body, frame, joint and actuator indices are stable: finalize does not
 * renumber them. The ordered arrays are instead indexed by tree node k
 * (k = 0 is the world, parent[k] < k), with teal_plant_node_body and
 * teal_plant_body_node mapping between the two.
 *
 * Joints use one function, teal_plant_add_joint, taking a teal_joint_kind
 * (see joints.h for each type's coordinates). A joint connects frame F (on
 * the parent body P) to frame M (on the child body B); X_PF and X_BM are
 * derived from the frames. Each body may have at most one inboard joint and
 * the world may not be a child.
 *
 * Errors are sticky: the first failure is recorded (teal_plant_error) and
 * later add/set calls return that code without doing anything. Adds return
 * the new index (>= 0) or a negative status. After teal_plant_finalize, adds
 * and setters of the model return TEAL_ESTATE. Names must be unique among
 * elements of the same kind within a model instance, and non-empty without
 * a '/' (the framework's path separator: instance names become port names
 * such as "<instance>_state"); adding an element with another name fails
 * with TEAL_EINVAL. Adds and lookups by name take O(1) time on average (a
 * hash index), and finalize O(bodies), so a model of 100,000 links loads
 * and finalizes in well under a second (bench/model_scale.c). */
#ifndef TEAL_MULTIBODY_TREE_PLANT_MODEL_H
#define TEAL_MULTIBODY_TREE_PLANT_MODEL_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/joints.h"
#include "multibody/math/spatial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The multibody plant (model part). */
typedef struct teal_plant teal_plant;

/** The world model instance. */
#define TEAL_WORLD_MODEL_INSTANCE 0
/** The default model instance. */
#define TEAL_DEFAULT_MODEL_INSTANCE 1
/** The world body. */
#define TEAL_WORLD_BODY 0
/** The world frame (the world body's frame). */
#define TEAL_WORLD_FRAME 0

/** A new empty plant; time_step 0 for continuous, > 0 for discrete. NULL on
 *  failure (non-finite or negative time_step: TEAL_EINVAL; TEAL_ENOMEM) with
 *  the reason in err (may be NULL). Gravity defaults to (0, 0, -9.81). */
TEAL_API teal_plant *teal_plant_new(double time_step, teal_error *err);

/** Frees the plant (NULL is allowed). A plant owned by a builder or a
 *  diagram (through its system, or given to teal_add_plant_and_scene_graph
 *  before finalize) is left to its owner. */
TEAL_API void teal_plant_free(teal_plant *plant);

/** The sticky error record (code TEAL_OK when none). */
TEAL_API const teal_error *teal_plant_error(const teal_plant *plant);

/** The time step given to teal_plant_new. */
TEAL_API double teal_plant_time_step(const teal_plant *plant);

/** Sets the name of the plant's system (default "plant"), so that several
 *  plants can be added to one diagram (a builder refuses two subsystems of
 *  one name with TEAL_EDUPLICATE). Before finalize only (TEAL_ESTATE after,
 *  as for every model setter); the name must be non-empty without a '/'
 *  (TEAL_EINVAL). Errors are sticky. */
TEAL_API int teal_plant_set_name(teal_plant *plant, const char *name);

/** The plant's name ("plant" unless set; NULL for a NULL plant), also its
 *  system's name after finalize. */
TEAL_API const char *teal_plant_name(const teal_plant *plant);

/** Adds a model instance; returns its index. Its name (see the names rule
 *  above: non-empty, no '/') must not name another instance. */
TEAL_API int teal_plant_add_model_instance(teal_plant *plant, const char *name);

/** Adds a rigid body with spatial inertia M_BBo_B (about its origin, in its
 *  frame) to model instance; returns the body index. The inertia must pass
 *  teal_spatial_inertia_check (mass finite and > 0). */
TEAL_API int teal_plant_add_rigid_body(teal_plant *plant, const char *name, int instance,
                                       const teal_spatial_inertia *M_BBo_B);

/** Adds a frame F fixed to parent frame P at pose X_PF; returns the frame
 *  index. Its model instance is that of the parent frame. */
TEAL_API int teal_plant_add_frame(teal_plant *plant, const char *name, int parent_frame,
                                  teal_transform X_PF);

/** As teal_plant_add_frame, but the frame belongs to model instance (an
 *  index of the plant, TEAL_ENOTFOUND otherwise) whatever its parent's
 *  instance, as Drake's FixedOffsetFrame with a model instance: the
 *  SDFormat parser puts a joint's frames in the joint's model and a
 *  model's frame on a link of a nested model. Its name must be unique
 *  among the frames of that instance. */
TEAL_API int teal_plant_add_frame_in_instance(teal_plant *plant, const char *name, int instance,
                                              int parent_frame, teal_transform X_PF);

/** Adds a joint of type kind from parent_frame (F) to child_frame (M).
 *  axis (expressed in F and M, normalized here without overflow, so any
 *  finite axis with a norm of at least 1e-12 works, (1e300, 1e300, 0) as
 *  well as (1e-6, 0, 0); TEAL_EINVAL otherwise) is required for revolute,
 *  prismatic and screw and ignored otherwise (may be NULL then); pitch
 *  (finite) is used by screw only. The joint belongs to the model instance
 *  of child_frame (as in Drake): the child body's, unless the frame was
 *  added to another one (teal_plant_add_frame_in_instance). Returns the
 *  joint index. */
TEAL_API int teal_plant_add_joint(teal_plant *plant, const char *name, teal_joint_kind kind,
                                  int parent_frame, int child_frame, const teal_vec3 *axis,
                                  double pitch);

/** Sets the viscous damping of each of the joint's nv velocities (>= 0). */
TEAL_API int teal_plant_set_joint_damping(teal_plant *plant, int joint, const double *damping);

/** Sets position limits for each of the joint's nq positions (lower <= upper;
 *  infinities allowed). Defaults: -inf, +inf. */
TEAL_API int teal_plant_set_joint_position_limits(teal_plant *plant, int joint, const double *lower,
                                                  const double *upper);

/** Sets velocity limits for each of the joint's nv velocities. */
TEAL_API int teal_plant_set_joint_velocity_limits(teal_plant *plant, int joint, const double *lower,
                                                  const double *upper);

/** Sets the effort limit (> 0, may be inf) of each of the joint's nv
 *  velocities. It applies through actuators: an actuator on the joint is
 *  limited to the smaller of its own limit and this one (see
 *  teal_plant_actuator_effort_limit); an unactuated dof is not limited
 *  (applied generalized forces are never clamped). */
TEAL_API int teal_plant_set_joint_effort_limits(teal_plant *plant, int joint, const double *limit);

/** Adds an actuator on a single-dof joint (nv = 1) with effort_limit > 0 (may
 *  be inf); returns the actuator index (also its index in u). */
TEAL_API int teal_plant_add_joint_actuator(teal_plant *plant, const char *name, int joint,
                                           double effort_limit);

/** Sets gravity (finite), allowed also after finalize. */
TEAL_API int teal_plant_set_gravity(teal_plant *plant, teal_vec3 g_W);

/** Gravity in the world frame. */
TEAL_API teal_vec3 teal_plant_gravity(const teal_plant *plant);

/* ---- lookups: index >= 0, or TEAL_ENOTFOUND with a message in err (may be
 * NULL; the plant's sticky error is not touched). instance < 0 searches all
 * instances; as in Drake's Get*ByName, a name held by elements of more than
 * one model instance is then ambiguous: TEAL_EINVAL with a message naming
 * two of the instances (pass the instance to choose). Costs O(instances)
 * with instance < 0, O(1) otherwise. */

/** The model instance named name, or TEAL_ENOTFOUND (message in err). */
TEAL_API int teal_plant_get_model_instance_by_name(const teal_plant *plant, const char *name,
                                                   teal_error *err);
/** The body named name in instance (< 0: any), or TEAL_ENOTFOUND. */
TEAL_API int teal_plant_get_body_by_name(const teal_plant *plant, const char *name, int instance,
                                         teal_error *err);
/** The frame named name in instance (< 0: any), or TEAL_ENOTFOUND. */
TEAL_API int teal_plant_get_frame_by_name(const teal_plant *plant, const char *name, int instance,
                                          teal_error *err);
/** The joint named name in instance (< 0: any), or TEAL_ENOTFOUND. */
TEAL_API int teal_plant_get_joint_by_name(const teal_plant *plant, const char *name, int instance,
                                          teal_error *err);
/** The actuator named name in instance (< 0: any), or TEAL_ENOTFOUND. */
TEAL_API int teal_plant_get_actuator_by_name(const teal_plant *plant, const char *name,
                                             int instance, teal_error *err);

/** Number of bodies named name over all model instances (Drake's
 *  NumBodiesWithName): 0 when none, TEAL_EINVAL for a NULL plant or name. */
TEAL_API int teal_plant_num_bodies_with_name(const teal_plant *plant, const char *name);

/* ---- element queries (valid before and after finalize; an out-of-range
 * index gives -1 or NULL) ---- */

/** Number of model instances (world and default included). */
TEAL_API int teal_plant_num_model_instances(const teal_plant *plant);
TEAL_API int teal_plant_num_bodies(const teal_plant *plant); /**< including the world */
TEAL_API int teal_plant_num_frames(const teal_plant *plant); /**< body frames included */
TEAL_API int teal_plant_num_joints(
    const teal_plant *plant); /**< after finalize: with added floating joints */
/** Number of actuators. */
TEAL_API int teal_plant_num_actuators(const teal_plant *plant);
/** A body's name (NULL on a bad index). */
TEAL_API const char *teal_plant_body_name(const teal_plant *plant, int body);
/** A frame's name (NULL on a bad index). */
TEAL_API const char *teal_plant_frame_name(const teal_plant *plant, int frame);
/** A joint's name (NULL on a bad index). */
TEAL_API const char *teal_plant_joint_name(const teal_plant *plant, int joint);
/** A body's own frame (-1 on a bad index). */
TEAL_API int teal_plant_body_frame(const teal_plant *plant, int body);
/** The model instance a body belongs to (-1 on a bad index). */
TEAL_API int teal_plant_body_instance(const teal_plant *plant, int body);
/** The body a frame is fixed to (-1 on a bad index). */
TEAL_API int teal_plant_frame_body(const teal_plant *plant, int frame);
/** X_BF: the pose of frame in its body's frame (identity pointer NULL on a bad index). */
TEAL_API const teal_transform *teal_plant_frame_pose_in_body(const teal_plant *plant, int frame);
/** A joint's kind (a teal_joint_kind; -1 on a bad index). */
TEAL_API int teal_plant_joint_kind(const teal_plant *plant, int joint);
/** The body of a joint's parent frame (-1 on a bad index). */
TEAL_API int teal_plant_joint_parent_body(const teal_plant *plant, int joint);
/** The body of a joint's child frame (-1 on a bad index). */
TEAL_API int teal_plant_joint_child_body(const teal_plant *plant, int joint);

/* ---- the finalized model (0 / NULL before finalize) ---- */

/** The model arrays, indexed by node k (entry 0 is the world, whose parent is
 *  -1 and whose joint is a weld with nq = nv = 0). Read-only, valid until the
 *  plant is freed. */
typedef struct teal_plant_tree {
  int num_nodes;                      /**< nodes (= bodies, world included) */
  const int *parent;                  /**< parent node */
  const int *joint_kind;              /**< teal_joint_kind of the inboard joint */
  const teal_joint_type *const *type; /**< table of the inboard joint */
  const teal_joint_params *params;    /**< axis and pitch */
  const teal_transform *X_PF;         /**< F in the parent body frame */
  const teal_transform *X_BM;         /**< M in the child body frame */
  /** First q and v index and nq, nv of the inboard joint. @{ */
  const int *q_start, *v_start, *nq, *nv;
  /** @} */
  const teal_spatial_inertia *M_BBo_B; /**< spatial inertia about Bo in B */
  const double *damping;               /**< [nv] */
  /** Position limits, [nq] each. @{ */
  const double *q_lower, *q_upper;
  /** @} */
  /** Velocity limits, [nv] each. @{ */
  const double *v_lower, *v_upper;
  /** @} */
  const double *effort_limit; /**< [nv] */
  /** [nv] the default added diagonal of M: the joint's armature
   *  (joint_armature.h) plus the reflected inertia rho^2 I_r of the
   *  actuators on each dof (actuator_rotor.h) */
  const double *reflected_inertia;
} teal_plant_tree;

#ifdef __cplusplus
}
#endif
#endif
