/* Private to multibody/parsing/: the SDFormat parser. Each document (the
 * main one and every included file) is parsed into its own urdf_model,
 * which holds its element tree, source name and strings, so the URDF
 * helpers (attributes, numbers, messages) work on SDFormat elements. The
 * walk (sdf_parse.c) records every frame of the documents (world, models,
 * links, joints, <frame>s) in one list with scoped names; sdf_frames.c
 * resolves relative_to and attached_to into world poses; sdf_convert.c and
 * sdf_geometry.c turn each top-level model into a URDF intermediate model,
 * which urdf_resolve checks and urdf_build adds to the plant.
 *
 * Stages: sdf.c (entry points, documents, includes), sdf_parse.c,
 * sdf_frames.c, sdf_convert.c, sdf_joints.c, sdf_mimic.c, sdf_geometry.c,
 * sdf_world.c (the <world>'s frames). */
#ifndef TEAL_MULTIBODY_PARSING_SDF_INTERNAL_H
#define TEAL_MULTIBODY_PARSING_SDF_INTERNAL_H

#include "multibody/parsing/sdf.h"
#include "multibody/parsing/urdf_internal.h"

/* The frame index of the world. */
#define SDF_WORLD 0

typedef enum sdf_kind { SDF_WORLD_FRAME = 0, SDF_MODEL, SDF_LINK, SDF_JOINT, SDF_FRAME } sdf_kind;

/* A frame of the document: the world, a model, a link, a joint or a <frame>. */
typedef struct sdf_frame {
  const char *name; /* scoped from the world ("arm::inner::link"); first for urdf_table */
  urdf_node *node;  /* the element (NULL for the world); second for urdf_table */
  urdf_model *doc;  /* the document node lives in */
  sdf_kind kind;
  int scope;            /* the enclosing model's frame, SDF_WORLD at world scope */
  int top;              /* the top-level model's frame (-1 at world scope) */
  const char *prefix;   /* the scope's name prefix ("arm::inner::", "" at world scope) */
  urdf_node *pose;      /* the <pose> element or NULL */
  urdf_model *pose_doc; /* its document */
  const char *relative_to, *attached_to; /* as written, NULL for the default */
  teal_transform X_RF;                   /* the pose relative to frame rel */
  int rel, attached;                     /* resolved frame indices */
  int state;                             /* resolution state: 0 new, 1 on the path, 2 done */
  teal_transform X_WF;                   /* resolved */
  int body_link;                         /* the link frame (or SDF_WORLD) carrying this frame */
  /* models */
  int sub; /* its entry in its top-level model's instances (0: the top-level) */
  int is_static;
  const char *canonical; /* canonical_link as written, or NULL */
  /* joints: <parent> and <child> as written */
  const char *parent, *child;
  /* links */
  int massive;
  teal_spatial_inertia M_LLo_L;
  int ulink; /* its link in its top-level model's urdf_model */
} sdf_frame;

#define SFRAME(s) ((sdf_frame *)(s)->frames.data)

/* A top-level model on its way to the plant, with its nested models (each
 * one an entry of out.instances, built as its own model instance). */
typedef struct sdf_instance {
  int top;         /* its model frame */
  const char *name; /* its model instance's name */
  urdf_model out;  /* the URDF intermediate model */
  int *link_frame; /* the frame of each of out's links (teal_alloc'd) */
} sdf_instance;

typedef struct sdf_state {
  teal_error *err;
  teal_urdf_report ureport; /* the warnings of every stage */
  teal_sdf_options opts;
  urdf_model *main;        /* the first document (lists and messages) */
  urdf_list docs;          /* urdf_model *, owned */
  urdf_list frames;        /* sdf_frame; SDF_WORLD first */
  urdf_list include_stack; /* const char * (resolved paths being included) */
  urdf_table index;        /* frames by scoped name */
  int has_gravity;
  teal_vec3 gravity;
  int mesh_collisions, nonconvex_meshes; /* collision meshes, and those warned about */
  const char *instance_name;             /* for a document of one model, or NULL */
} sdf_state;

/* ---- sdf.c ---- */

/* Records the model an <include> names, under scope. */
int sdf_include(sdf_state *s, urdf_model *doc, urdf_node *node, int scope, int depth);

/* ---- sdf_parse.c ---- */

/* Walks the <sdf> root of doc (depth: the include depth). */
int sdf_parse_root(sdf_state *s, urdf_model *doc, int depth);
/* Records the <model> node under scope, with the <include> overrides (NULL:
 * none; is_static < 0: none). */
int sdf_parse_model(sdf_state *s, urdf_model *doc, urdf_node *node, int scope, int depth,
                    const char *name, urdf_node *pose, urdf_model *pose_doc, int is_static);
/* The text of a child element parsed as n numbers; *present = 0 when absent. */
int sdf_child_numbers(urdf_model *doc, urdf_node *node, const char *child, int n, double *out,
                      int *present);
/* The <pose> of node (identity when NULL): 6 numbers, degrees="true". */
int sdf_parse_pose(urdf_model *doc, urdf_node *pose, teal_transform *X);

/* ---- sdf_frames.c ---- */

/* Resolves every frame's pose in the world and the link carrying it. */
int sdf_resolve_frames(sdf_state *s);
/* The frame named ref from scope frame `scope`, or -1 (message recorded at node). */
int sdf_lookup(sdf_state *s, int scope, const char *ref, urdf_model *doc, urdf_node *node,
               const char *what);

/* ---- sdf_convert.c ---- */

/* Turns top-level model inst->top (named inst->name) into inst->out
 * (zeroed before), one urdf_instance per model. */
int sdf_convert_model(sdf_state *s, sdf_instance *inst);
/* The name of frame f inside its top-level model (its scoped name without
 * the top-level model's prefix: "inner::link"), unique in the urdf_model;
 * the plant's name drops its model's prefix as well (urdf_plant_name). */
const char *sdf_local_name(const sdf_state *s, int f);
/* The instance entry of a frame: that of its model (of itself for a model). */
int sdf_sub(const sdf_state *s, int f);

/* ---- sdf_joints.c ---- */

/* Adds the joint frame f (and its actuator) to out. */
int sdf_convert_joint(sdf_state *s, int f, urdf_model *out);

/* ---- sdf_mimic.c ---- */

/* The <axis><mimic> or <drake:mimic> of joint f (axis: its <axis> or NULL)
 * as a coupler constraint of out. */
int sdf_convert_mimic(sdf_state *s, int f, urdf_node *axis, urdf_model *out);

/* ---- sdf_geometry.c ---- */

/* Adds the <visual>s and <collision>s of link frame f (urdf link index l). */
int sdf_convert_geometry(sdf_state *s, int f, int l, urdf_model *out);

/* ---- sdf_world.c ---- */

/* The <world>'s <frame>s must be new to the plant's world model instance. */
int sdf_check_world_frames(sdf_state *s, const teal_plant *plant);
/* Adds them (after the n models inst are built). */
int sdf_build_world_frames(sdf_state *s, teal_plant *plant, const sdf_instance *inst, int n);

#endif
