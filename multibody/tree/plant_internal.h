/* Private to multibody/: the plant's records and model arrays, shared by
 * plant_model.c (bodies, frames, joints, actuators), force_elements.c and
 * plant_system.c. */
#ifndef TEAL_MULTIBODY_TREE_PLANT_INTERNAL_H
#define TEAL_MULTIBODY_TREE_PLANT_INTERNAL_H

#include <limits.h>

#include "framework/value.h"
#include "multibody/forces/force_elements.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/random_samplers.h"

/* The most coordinates (nq + nv) a plant may have: every int product of
 * nq and nv the library forms (6 nv, 4 nv + 2 nq, ...) then fits an int. */
#define TEAL_PLANT_MAX_COORDINATES (INT_MAX / 8)

/* The largest dense array of doubles that grows as nv^2 a plant keeps per
 * context: 256 MiB (2^25 doubles), the nv x nv mass matrix of up to 5792
 * dofs. The framework allocates and zeroes every cache entry and scratch
 * when it makes a context, so such an array costs its size in every context
 * whether or not it is used. Beyond the cap the plant's mass_matrix cache
 * entry (plant_system.c), the per-tree blocks of M in teal_mb_data (data.c)
 * and the discrete step's Newton matrix of the largest tree (step_data.c)
 * are left out, and what needs them fails with TEAL_ESIZE. */
#define TEAL_PLANT_DENSE_MAX_BYTES ((size_t)1 << 28)

/* every record starts with (name, instance), which find_name relies on */
typedef struct instance_rec {
  char *name;
  int instance; /* its own index */
} instance_rec;

typedef struct body_rec {
  char *name;
  int instance;
  int frame;   /* body frame */
  int inboard; /* inboard joint, -1 if none */
  teal_spatial_inertia M_BBo_B;
  /* plant_defaults.c: default pose (used when the body is free) and the
   * random distributions of teal_plant_set_random_state (a plant_random_kind
   * each; the uniform box or the Gaussian's mean and standard deviation in
   * random_lo, random_hi; plant_random.c's samplers) */
  int has_default_pose, random_position, random_rotation;
  teal_transform X_WB_default;
  teal_vec3 random_lo, random_hi;
  teal_position_sampler_fn position_sampler;
  teal_rotation_sampler_fn rotation_sampler;
  void *position_user, *rotation_user;
} body_rec;

/* The kinds of a free body's random position or rotation. */
typedef enum plant_random_kind {
  PLANT_RANDOM_NONE = 0, /* keep the default */
  PLANT_RANDOM_UNIFORM,  /* uniform box, uniform rotation */
  PLANT_RANDOM_GAUSSIAN, /* position only: per-axis normal */
  PLANT_RANDOM_SAMPLER   /* the user's sampler */
} plant_random_kind;

typedef struct frame_rec {
  char *name;
  int instance;
  int body;
  teal_transform X_BF;
} frame_rec;

typedef struct joint_rec {
  char *name;
  int instance;
  int kind;
  int parent_frame, child_frame;
  teal_joint_params params;
  double damping[TEAL_JOINT_MAX_NV], effort[TEAL_JOINT_MAX_NV];
  double armature; /* added to M's diagonal at each velocity (joint_armature.c) */
  double v_lo[TEAL_JOINT_MAX_NV], v_hi[TEAL_JOINT_MAX_NV];
  double q_lo[TEAL_JOINT_MAX_NQ], q_hi[TEAL_JOINT_MAX_NQ];
  double a_lo[TEAL_JOINT_MAX_NV], a_hi[TEAL_JOINT_MAX_NV]; /* acceleration limits, not enforced */
  int q_start, v_start;
  int has_default_q; /* q_default set by teal_plant_set_joint_default_positions */
  double q_default[TEAL_JOINT_MAX_NQ];
  teal_joint_positions_sampler_fn q_sampler; /* plant_random.c (NULL: default q) */
  void *q_sampler_user;
  /* prescribed motion (multibody/plant/prescribed_motion.c): NULL when free */
  int (*motion)(double t, double *q, double *qdot, double *qddot, void *user);
  void *motion_user;
} joint_rec;

typedef struct actuator_rec {
  char *name;
  int instance;
  int joint;  /* the driven joint, -1 for a tendon actuator */
  int tendon; /* the driven fixed tendon's force element, -1 for a joint actuator */
  double effort_limit;
  double rotor_inertia, gear_ratio; /* defaults (actuator_rotor.c): 0 and 1 */
  double input_gain;                /* tau = gain * u (actuator_gain.c): 1 */
} actuator_rec;

/* a force element; name is a user element's name, NULL for the built-ins */
typedef struct force_rec {
  char *name;
  int instance;
  int kind;           /* teal_force_element_kind */
  int body_a, body_b; /* spring-damper / bushing bodies */
  int joint;          /* revolute spring */
  teal_transform X_AF, X_BF; /* P and Q (spring) or frames A and C (bushing) in their bodies */
  double k, d, rest;         /* spring-damper: stiffness, damping, free length; spring: k, q0 */
  teal_vec3 k_rpy, d_rpy, k_xyz, d_xyz;
  int frame_a, frame_c;       /* bushing frames as given */
  teal_force_element_ops ops; /* user element: its callbacks and data */
  void *user;
  /* tendon (multibody/forces/tendons.c): its joints (fixed) or frames
   * (spatial), coefficients (fixed), range and the range's penalty */
  int tendon_kind, n_path;
  int *path;
  double *coef;
  double lower, upper, k_limit, d_limit;
} force_rec;

/* a constraint (multibody/constraints/constraint_specs.c; name: unused,
 * NULL). Points and frames on bodies A and B (the coupler's joints in
 * joint0, joint1); rows: its equations (0 for a compliant distance, which is
 * the force element force_element), row_start its first row at finalize. */
typedef struct constraint_rec {
  char *name;
  int instance;
  int kind; /* teal_constraint_kind */
  int body_a, body_b, joint0, joint1, force_element;
  teal_transform X_AP, X_BQ; /* weld frames; the points in .p otherwise */
  teal_vec3 dir_a, dir_b;    /* unit directions fixed in A and B */
  teal_vec3 perp1, perp2;    /* point on line: the line's normals in A */
  double ratio, offset, distance, cos_angle, height;
  int rows, row_start, default_enabled;
} constraint_rec;

/* a registered geometry; the public view follows the (name, instance) head */
typedef struct geometry_rec {
  char *name;
  int instance;
  teal_plant_geometry g;
} geometry_rec;

/* a collision filter exclusion between two bodies (or, with geometries set,
 * two geometries), declared through the plant and applied when it is wired
 * to its scene graph (name: unused, NULL) */
typedef struct filter_pair_rec {
  char *name;
  int instance;
  int a, b;
  int geometries; /* 1: a, b are geometry indices; 0: body indices */
} filter_pair_rec;

/* A slot of a name index: the record's index + 1 (0: empty) and its hash. */
typedef struct teal_plant_name_slot {
  unsigned hash;
  int rec;
} teal_plant_name_slot;

/* A growable array of records, with a hash index of their names
 * (plant_names.c): by_key holds every indexed record under (name, instance),
 * by_name the first record of each name. Records [0, indexed) are in it;
 * lookups scan the rest. */
typedef struct teal_plant_list {
  void *data;
  int n, cap;
  teal_plant_name_slot *by_key, *by_name; /* nslots each (a power of 2), or NULL */
  int nslots, indexed;
} teal_plant_list;

/* The plant's leaf system: port, cache and scratch indices, the per-plant
 * value types of its fixed-size cache entries, and per-instance index maps. */
typedef struct plant_sys {
  int ready; /* the system owns the plant once built */
  int discrete;
  /* inputs */
  int in_u, in_tau, in_F;
  int *in_u_inst; /* [instances] */
  /* outputs */
  int out_state, out_vdot, out_poses, out_vels, out_accs, out_reactions;
  int *out_state_inst; /* [instances] */
  /* cache entries, scratch, parameters (gravity, body inertias by node,
   * joint damping by v index: plant_parameters.c) */
  int ce_stage, ce_poses, ce_vels, ce_M, ce_u, ce_forces, ce_vdot, ce_step, ce_accs;
  int ce_lambda; /* constrained accelerations: lambda [m] then vdot [nv] */
  int scratch, param_gravity, param_inertia, param_damping;
  int param_contact; /* the contact settings version a context's caches saw */
  int param_locks;   /* 1 per locked dof (multibody/plant/joint_locking.c) */
  int param_constraints; /* constraint enabled flags (1 or 0) by constraint */
  int param_weights;     /* projection error weights (multibody/plant/error_weights.c) */
  int out_multipliers;   /* the constraint multipliers, one per row */
  int param_rotor; /* rotor inertias, gear ratios, reflected inertia (actuator_parameters.c) */
  teal_value_type forces_type;
  /* per instance: actuators, q and v indices (offsets into the arrays below) */
  int *inst_act_start, *inst_act_count, *act_list;
  int *inst_q_start, *inst_q_count, *q_list;
  int *inst_v_start, *inst_v_count, *v_list;
  int *limit_dofs; /* tree nodes of 1-dof joints with a finite position limit */
  int *u_tickets;  /* [1 + instances] tickets of the actuation ports */
  int nlimits;
  /* contact ports and cache */
  int in_query, out_geometry_pose, out_contacts, out_gcf;
  int *out_gcf_inst;  /* [instances] */
  int *out_vdot_inst; /* [instances] <instance>_generalized_acceleration */
  int ce_contacts;
} plant_sys;

/* Contact settings and the defaults derived from them (at finalize, and
 * again when a setting changes after). */
typedef struct plant_contact_params {
  double penetration_allowance, stiction_tolerance;
  double default_stiffness, default_dissipation; /* per geometry */
  double version; /* counts the changes after finalize (multibody/contact/plant_contact.c) */
  int discrete_solver; /* teal_discrete_contact_solver (0: TAMSI; discrete_contact_solver.c) */
} plant_contact_params;

struct teal_plant {
  double time_step;
  teal_vec3 gravity;
  teal_error err;
  int finalized;
  teal_plant_list instances, bodies, frames, joints, actuators, forces, geometries;
  /* finalized model */
  int nq, nv, nu;
  int *body_node, *node_body;
  teal_plant_tree tree;
  struct teal_mb_trees *forest; /* the kinematic trees, made at finalize */
  void *blocks[20];
  struct teal_system *system; /* the leaf made by finalize; owns the plant */
  plant_sys sys;
  plant_contact_params contact;
  int nblocks;
  teal_plant_list filter_pairs; /* filter_pair_rec (multibody/contact/plant_geometry.c) */
  int sg_source1;               /* scene graph source id + 1 once registered; 0 before */
  int sg_frame0, sg_geometry0;  /* scene graph ids of body 0's frame and of geometry 0 */
  /* added to a builder before finalize (multibody/contact/plant_scene_graph.c):
   * the builder owns the plant, and finalize wires it; NULL otherwise */
  struct plant_sg_pending *sg_pending;
  char *name; /* the system's name (teal_plant_set_name); NULL: "plant" */
  /* warnings of the model, given once at finalize (plant_system.c) */
  int num_model_warnings;
  char model_warning[256];
  int use_euler_angles; /* teal_plant_set_use_euler_angles (euler_angles.c) */
  /* how held dofs and constraints are kept on their manifold
   * (multibody/plant/constraint_stabilization.c) */
  double baumgarte_alpha, baumgarte_beta;
  int projection_off;
  teal_plant_list constraints; /* constraint_rec (multibody/constraints/) */
  int nc_rows;                 /* the constraints' rows, counted at finalize */
  /* hydroelastic contact (multibody/contact/hydroelastic.c) */
  int contact_model;                   /* teal_contact_model */
  int surface_polygons;                /* 1: polygons, 0: triangles (the default) */
  struct teal_volume_mesh **soft_mesh; /* [geometries] at finalize, NULL: not soft */
  /* unilateral contacts and state-limited friction (multibody/constraints/) */
  teal_plant_list unilaterals, slfrictions;
};

#define INST(p) ((instance_rec *)(p)->instances.data)
#define BODY(p) ((body_rec *)(p)->bodies.data)
#define FRAME(p) ((frame_rec *)(p)->frames.data)
#define JOINT(p) ((joint_rec *)(p)->joints.data)
#define ACT(p) ((actuator_rec *)(p)->actuators.data)
#define FORCE(p) ((force_rec *)(p)->forces.data)
#define GEOM(p) ((geometry_rec *)(p)->geometries.data)
#define CONSTRAINT(p) ((constraint_rec *)(p)->constraints.data)

/* Appends one zeroed element of size elem; returns it or NULL. */
void *teal_plant_list_push(teal_plant_list *l, size_t elem);
/* Records a sticky error with up to two string arguments; returns code. */
int teal_plant_fail(teal_plant *p, int code, const char *fmt, const char *a, const char *b);
/* Entry checks of every add/set call (plant open, no sticky error, name). */
int teal_plant_check_open(teal_plant *p, const char *what, const char *name);
/* Index of the record named name in instance (< 0: any), or -1; the
 * lowest index when several match (plant_names.c). */
int teal_plant_find_name(const teal_plant_list *l, size_t elem, const char *name, int instance);
/* Adds the records appended since the last call to l's name index; call it
 * once a new record is complete (name and instance set): a record may be
 * dropped again (n--) only before. Without memory for the index the new
 * records stay unindexed, and lookups scan them. */
void teal_plant_list_index(teal_plant_list *l, size_t elem);
/* The dofs actuator a drives and their weights in its column of B before
 * the input gain: a joint actuator its joint's dof with weight 1, a tendon
 * actuator the dof of each joint of its fixed tendon with the tendon's
 * coefficient (J_L^T). teal_plant_actuator_dof returns the v index of entry
 * k (0 <= k < teal_plant_actuator_num_dofs) and writes its weight; finalized
 * plant, valid a and k (actuator_dofs.c). */
int teal_plant_actuator_num_dofs(const teal_plant *p, int a);
int teal_plant_actuator_dof(const teal_plant *p, int a, int k, double *weight);
/* reflected[v] = the armature of dof v's joint plus the sum of rho^2 I_r
 * over the actuators of dof v, from the actuators' rotor inertias and gear
 * ratios (by actuator; NULL: the model's defaults; nv values out; finalized
 * plant; actuator_rotor.c). */
void teal_plant_reflected_inertia(const teal_plant *p, const double *rotor_inertia,
                                  const double *gear_ratio, double *reflected);
/* Frees l's records' names, the records and the index. */
void teal_plant_list_free(teal_plant_list *l, size_t elem);
/* Why name cannot name a plant element (NULL, empty, or with a '/', the
 * framework's path separator: instance names become port names), or NULL
 * if it can. */
const char *teal_plant_name_problem(const char *name);
/* teal_plant_check_open, then teal_plant_name_problem as a sticky
 * TEAL_EINVAL naming what (e.g. "body") and the name. */
int teal_plant_check_new_name(teal_plant *p, const char *what, const char *name);

/* Appends a checked joint record (plant_model.c; finalize adds the floating
 * joints of free bodies with it). Returns the joint index or an error code. */
int teal_plant_push_joint(teal_plant *p, const char *name, teal_joint_kind kind, int pf, int cf,
                          const teal_vec3 *axis, double pitch);

/* The q (7, or 6 for rpy_floating) of the floating joint j (parent frame on
 * the world) that put its child body at X_WB: X_FM = X_WF^-1 X_WB X_BM
 * (topology.c). */
void teal_plant_free_pose_q(const teal_plant *p, int j, teal_transform X_WB, double *q);

/* Finalize's first step under teal_plant_set_use_euler_angles: every ball
 * and quaternion-floating joint becomes its roll-pitch-yaw kind, with its
 * default q converted (euler_angles.c). TEAL_OK when the setting is off. */
int teal_plant_apply_euler_angles_setting(teal_plant *p);

/* Builds the plant's leaf system (plant_system.c), called by finalize. */
int teal_plant_system_create(teal_plant *p);
/* Adds the plant's system and its scene graph to the builder the plant was
 * given to before finalize, and connects them (plant_scene_graph.c); called
 * by finalize once the system exists when p->sg_pending is set. */
int teal_plant_wire_scene_graph(teal_plant *p);
/* Frees the model memory only (the system's user_free). */
void teal_plant_destroy(teal_plant *p);

#endif
