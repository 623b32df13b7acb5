/* Private to multibody/parsing/: the intermediate model an MJCF document is
 * parsed into, checked as a whole, and only then added to a plant. The XML
 * tree, messages, attribute and number parsing are the URDF parser's
 * (urdf_internal.h): the model embeds a urdf_model for them.
 *
 * Stages (one file each):
 *   mjcf.c           entry points, reading the file, walking <mujoco>.
 *   mjcf_defaults.c  <compiler>, <option>, <default> classes, attribute
 *                    lookup through the classes, orientations.
 *   mjcf_body.c      <worldbody>, <body>, <inertial>, <joint>, <site>.
 *   mjcf_geom.c      <geom>: shapes, poses (fromto), MuJoCo's geom inertia.
 *   mjcf_mesh.c      <asset><mesh>: files through meshdir, hulls, solids.
 *   mjcf_check.c     <actuator> and <contact>, and the checks of the whole
 *                    model (names, references, inertias) before the build.
 *   mjcf_claims.c    the frame and joint names the build will create.
 *   mjcf_equality.c  <equality>: connect, weld and joint as constraints.
 *   mjcf_tendon.c    <tendon>: fixed and spatial tendons.
 *   mjcf_tendon_equality.c  <equality><tendon> as a coupler.
 *   mjcf_filters.c   MuJoCo's collision filters the plant's defaults miss:
 *                    contype and conaffinity, the parent filter.
 *   mjcf_build.c     adding the checked model to the plant. */
#ifndef TEAL_MULTIBODY_PARSING_MJCF_INTERNAL_H
#define TEAL_MULTIBODY_PARSING_MJCF_INTERNAL_H

#include "geometry/shapes/mesh_file.h"
#include "geometry/shapes/mesh_hull.h"
#include "geometry/shapes/mesh_properties.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/parsing/urdf_internal.h"

/* The world body's index. */
#define MJCF_WORLD 0

/* The element kinds a default class holds. */
#define MJCF_CLASS_KINDS 6

typedef struct mjcf_class {
  const char *name;
  urdf_node *node;                      /* the <default> element */
  int parent;                           /* -1 for main */
  urdf_node *element[MJCF_CLASS_KINDS]; /* joint, geom, site, motor, tendon, equality */
} mjcf_class;

typedef enum mjcf_joint_type { MJCF_HINGE = 0, MJCF_SLIDE, MJCF_BALL, MJCF_FREE } mjcf_joint_type;

typedef struct mjcf_joint {
  const char *name;
  urdf_node *node;
  int body;
  mjcf_joint_type type;
  teal_vec3 pos, axis; /* in the body frame */
  double lower, upper; /* -inf, inf when not limited */
  double damping;
  double armature; /* the plant joint's armature, on each of its dofs */
  double ref;      /* hinge, slide: MuJoCo's qpos0, the position of the model's pose */
  int plant_joint;
} mjcf_joint;

typedef struct mjcf_body {
  const char *name;
  urdf_node *node;
  int parent;
  teal_transform X_PB; /* in the parent body frame, zero configuration */
  int childclass;
  int has_inertial;
  teal_spatial_inertia M_BBo_B; /* mass 0 when massless */
  int first_joint, num_joints;
  int has_children;
  /* build: the plant body carrying this body, its frame, and the pose */
  int body, frame;
  teal_transform X_OB;
} mjcf_body;

typedef struct mjcf_geom {
  const char *name;
  urdf_node *node;
  int body;
  teal_transform X_BG;
  teal_shape shape;  /* the collision shape (a mesh's convex hull) */
  int has_shape;     /* 0: skipped (a height field) */
  teal_shape visual; /* a mesh geom's visual, the mesh itself */
  int has_visual;    /* 0: the visual is shape */
  int collide;       /* contype or conaffinity nonzero */
  uint32_t contype, conaffinity; /* MuJoCo's collision bits */
  int plant_geometry;            /* build: the collision geometry, -1 if none */
  double rgba[4];
  double friction;
} mjcf_geom;

typedef struct mjcf_mesh {
  const char *name;
  urdf_node *node;
  const char *path; /* resolved through meshdir */
  double scale;
  int loaded, has_solid; /* the file read; the solid's properties known */
  teal_mesh_shapes shapes;
  teal_mesh_mass_properties solid;
} mjcf_mesh;

typedef struct mjcf_site {
  const char *name;
  urdf_node *node;
  int body;
  teal_transform X_BS;
  int frame; /* build: the plant frame */
} mjcf_site;

typedef struct mjcf_motor {
  const char *name;
  urdf_node *node;
  const char *joint_name, *tendon_name; /* its transmission: one of the two */
  int joint, tendon;                    /* check: the joint or the fixed tendon, else -1 */
  int skip;                             /* check: on a spatial tendon, left out */
  double limit;                         /* bound on ctrl, > 0, inf when unlimited */
  double gear;                          /* the input gain: joint (tendon) force = gear * ctrl */
} mjcf_motor;

typedef struct mjcf_exclude {
  urdf_node *node;
  const char *body1, *body2;
} mjcf_exclude;

typedef enum mjcf_equality_kind {
  MJCF_EQ_CONNECT,
  MJCF_EQ_WELD,
  MJCF_EQ_JOINT,
  MJCF_EQ_TENDON
} mjcf_equality_kind;

typedef struct mjcf_equality {
  urdf_node *node;
  mjcf_equality_kind kind;
  const char *name1,
      *name2;     /* body1, body2 (NULL: the world), joint1, joint2 or tendon1, tendon2 */
  double data[7]; /* connect: anchor; weld: relpose; joint, tendon: polycoef */
  int has_relpose;           /* weld: 0 uses the reference pose */
  int active;
  int i1, i2;           /* check: the bodies or joints (a tendon's: its coupler's) */
  double ratio, offset; /* check: a tendon equality's coupler; skip: left out */
  int skip;
  teal_transform X_1, X_2; /* check: the frames (points) in body1 and body2 */
} mjcf_equality;

/* A <joint> (fixed tendon) or <site> (spatial tendon) of a tendon's path. */
typedef struct mjcf_tendon_entry {
  urdf_node *node;
  const char *ref; /* the joint or site name */
  double coef;     /* fixed: the joint's coefficient */
  int index;       /* check: the joint or site */
} mjcf_tendon_entry;

typedef struct mjcf_tendon {
  const char *name; /* or NULL */
  urdf_node *node;
  int spatial;
  double stiffness, damping, springlength; /* < 0: the length at qpos0 (set by the check) */
  int first, n;                            /* its entries in tendon_entries */
} mjcf_tendon;

typedef struct mjcf_model {
  urdf_model u; /* the document, the error, the string pool */
  teal_urdf_report scratch;
  teal_mjcf_report *report;
  /* compiler and option */
  double angle_scale;  /* 1 or pi / 180 */
  char eulerseq[4];    /* "xyz" by default */
  int autolimits;      /* 1 by default */
  int inertiafromgeom; /* -1 auto, 0 false, 1 true */
  double boundmass;    /* the compiler's lower bound on body masses */
  const char *meshdir; /* or NULL */
  int has_gravity;
  teal_vec3 gravity;
  urdf_list classes, bodies, joints, geoms, sites, motors, excludes, meshes;
  urdf_list equalities, tendons, tendon_entries;
  urdf_list wrapping_tendon_names; /* const char *: spatial tendons left out */
  urdf_table class_index, body_index, joint_index, geom_index, site_index, mesh_index;
} mjcf_model;

#define MCLASS(m) ((mjcf_class *)(m)->classes.data)
#define MBODY(m) ((mjcf_body *)(m)->bodies.data)
#define MJOINT(m) ((mjcf_joint *)(m)->joints.data)
#define MGEOM(m) ((mjcf_geom *)(m)->geoms.data)
#define MSITE(m) ((mjcf_site *)(m)->sites.data)
#define MMOTOR(m) ((mjcf_motor *)(m)->motors.data)
#define MEXCL(m) ((mjcf_exclude *)(m)->excludes.data)
#define MTENDON(m) ((mjcf_tendon *)(m)->tendons.data)
#define MTENDON_ENTRY(m) ((mjcf_tendon_entry *)(m)->tendon_entries.data)

/* ---- mjcf_defaults.c ---- */

int mjcf_parse_compiler(mjcf_model *m, urdf_node *node);
int mjcf_parse_option(mjcf_model *m, urdf_node *node);
/* The <default> tree rooted at node (class "main", index 0). */
int mjcf_parse_defaults(mjcf_model *m, urdf_node *node);
/* Adds class main when the document has no <default>. */
int mjcf_ensure_main_class(mjcf_model *m);
/* Indexes the class names once all are parsed (duplicates are errors). */
int mjcf_index_classes(mjcf_model *m);
/* The index of the class called name (TEAL_ENOTFOUND at node if none). */
int mjcf_class_named(mjcf_model *m, urdf_node *node, const char *name, int *cls);
/* The class index named by node's class attribute, else fallback. */
int mjcf_element_class(mjcf_model *m, urdf_node *node, int fallback, int *cls);
/* The attribute of an element of kind (the tag: "joint", "geom", ...) from
 * the element itself, else from its class chain; NULL if nowhere. */
const char *mjcf_attr(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name);
/* Up to max finite numbers of the attribute (looked up as mjcf_attr) into
 * out; *count gets how many (0 when absent). Exactly n when n > 0. */
int mjcf_numbers(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name,
                 int max, double *out, int *count);
/* One number with a default. */
int mjcf_double(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name,
                double def, double *out);
/* The frame of an element: pos and one orientation attribute. */
int mjcf_pose(mjcf_model *m, urdf_node *node, const char *kind, int cls, teal_transform *X);
/* A rotation taking z to the direction of v (|v| > 0), MuJoCo's minimal one. */
teal_rotation mjcf_z_to(teal_vec3 v);
/* The index of the named value in words (NULL-terminated), or a
 * TEAL_EPARSE naming the attribute. def when absent. */
int mjcf_keyword(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name,
                 const char *const *words, int def, int *out);

/* ---- mjcf_body.c ---- */

int mjcf_parse_worldbody(mjcf_model *m, urdf_node *node);
/* The motion of hinge or slide j at position x in its body's frame: a
 * rotation by x about the axis through pos, or a shift by x along the axis
 * (the identity for ball and free joints). */
teal_transform mjcf_joint_motion(const mjcf_joint *j, double x);

/* ---- mjcf_geom.c ---- */

/* Parses a geom of body into the list and adds its inertia to *M_BBo_B
 * (when add_inertia). */
int mjcf_parse_geom(mjcf_model *m, urdf_node *node, int body, int cls, int k, int add_inertia,
                    teal_spatial_inertia *M_BBo_B);
void mjcf_free_geoms(mjcf_model *m);

/* ---- mjcf_mesh.c ---- */

/* The <mesh> elements of an <asset>. */
int mjcf_parse_asset(mjcf_model *m, urdf_node *node);
/* Indexes the mesh names (duplicates are errors). */
int mjcf_index_meshes(mjcf_model *m);
/* The mesh of a mesh geom (read on first use; its solid too when solid):
 * copies the hull and the visual into g and returns the mesh in *out. */
int mjcf_mesh_geom(mjcf_model *m, urdf_node *node, int cls, int solid, mjcf_geom *g,
                   const mjcf_mesh **out);
void mjcf_free_meshes(mjcf_model *m);

/* ---- mjcf_build.c ---- */

int mjcf_parse_actuators(mjcf_model *m, urdf_node *node);
int mjcf_parse_contact(mjcf_model *m, urdf_node *node);
/* Resolves names and checks what the plant would refuse (before any add). */
int mjcf_check(mjcf_model *m, const teal_plant *plant, const char *instance);
/* ---- mjcf_claims.c ---- */

/* The frame and joint names the build will create are unique and free. */
int mjcf_check_names(mjcf_model *m, const teal_plant *plant, const char *instance);

/* ---- mjcf_equality.c ---- */

/* The <equality> element's connect, weld and joint children. */
int mjcf_parse_equality(mjcf_model *m, urdf_node *node);
/* Resolves their bodies and joints and computes their frames. */
int mjcf_check_equalities(mjcf_model *m);
/* Adds them as constraints (after the joints). */
int mjcf_build_equalities(mjcf_model *m, teal_plant *plant);

/* ---- mjcf_tendon.c ---- */

/* The <tendon> element's fixed and spatial children. */
int mjcf_parse_tendons(mjcf_model *m, urdf_node *node);
/* 1 when name is a spatial tendon left out for its wrapping geoms. */
int mjcf_is_wrapping_tendon(const mjcf_model *m, const char *name);
/* Resolves their joints and sites. */
int mjcf_check_tendons(mjcf_model *m);
/* The plant's name of tendon i: its own, else "tendon<i>" (in buf). */
const char *mjcf_tendon_name(const mjcf_model *m, int i, char *buf, size_t size);
/* The index of the fixed or spatial tendon called name, or -1. */
int mjcf_find_tendon(const mjcf_model *m, const char *name);
/* An <equality tendon> over fixed tendons as the coupler q_i1 = ratio q_i2
 * + offset it amounts to (see mjcf_tendon_equality.c). */
int mjcf_check_tendon_equality(mjcf_model *m, mjcf_equality *e);
/* Adds them as the plant's tendons (after the joints and sites). */
int mjcf_build_tendons(mjcf_model *m, teal_plant *plant, int instance);

/* ---- mjcf_filters.c ---- */

/* Excludes the collision geometry pairs MuJoCo's contype and conaffinity
 * bits keep apart, and the body pairs its parent filter keeps apart beyond
 * the plant's default filters (after the geometries are added). */
int mjcf_build_collision_filters(mjcf_model *m, teal_plant *plant);

/* Adds the checked model as instance; returns its index or an error. */
int mjcf_build(mjcf_model *m, teal_plant *plant, const char *instance);

#endif
