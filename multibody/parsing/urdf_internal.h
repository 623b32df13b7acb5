/* Private to multibody/parsing/: the intermediate model a URDF document is
 * parsed into, checked as a whole, and only then added to a plant.
 *
 * Stages (one file each):
 *   urdf.c           entry points, reading the file, the pre-scan.
 *   urdf_xml.c       XML parsing into a compact element tree (urdf_node).
 *   urdf_util.c      lists, messages and warnings, attributes, numbers,
 *                    <origin>.
 *   urdf_names.c     name lookups (hash tables) and duplicate names.
 *   urdf_links.c     <link> and <inertial>, <frame>, the name index.
 *   urdf_geometry.c  <material>, <visual>, <collision>, shapes, friction.
 *   urdf_joints.c    <joint>, <drake:joint>, <transmission>.
 *   urdf_topology.c  names to indices, tree order, loops, massless links.
 *   urdf_claims.c    the frame and geometry names the build will create.
 *   urdf_build.c     adding the checked model to the plant.
 * Strings (names) point into the element tree (urdf_xml) or the model's
 * string pool and live as long as the model. */
#ifndef TEAL_MULTIBODY_PARSING_URDF_INTERNAL_H
#define TEAL_MULTIBODY_PARSING_URDF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h> /* xmlDict */

#include "geometry/shapes/geometry_properties.h"
#include "geometry/shapes/shape.h"
#include "multibody/parsing/urdf.h"
#include "multibody/math/spatial_inertia.h"

/* The link index of the world (always present, declared or not). */
#define URDF_WORLD 0

/* ---- the document (urdf_xml.c) ---- */

/* An attribute without a declared namespace prefix. */
typedef struct urdf_xattr {
  const char *name;  /* in the parser's dictionary; "prefix:name" if undeclared */
  const char *value; /* NULL when it holds an entity reference */
} urdf_xattr;

/* The value of a rewritten empty attribute: "", but libxml2's DOM had no
 * text for it, so a message does not quote it. */
extern const char urdf_no_text[1];

/* A piece of an element's direct text or CDATA. */
typedef struct urdf_chunk {
  struct urdf_chunk *next;
  size_t len;
  char data[]; /* len bytes and a NUL */
} urdf_chunk;

/* An element; the tree holds elements only, in document order. */
typedef struct urdf_node urdf_node;
struct urdf_node {
  const char *name;   /* local name, or "prefix:name" when the prefix is undeclared */
  const char *prefix; /* the declared namespace prefix, or NULL */
  urdf_node *children, *next;
  urdf_xattr *attrs;
  urdf_chunk *text;
  int nattrs;
  int line; /* as libxml2 counts them (an int) */
};

typedef struct urdf_block urdf_block;

/* The parsed document: the root element, the dictionary its names point
 * into, and the arena blocks holding the rest. */
typedef struct urdf_xml {
  urdf_node *root;
  xmlDict *dict;
  urdf_block *blocks;
} urdf_xml;

/* an open-addressing hash table of element indices (-1: empty slot) */
typedef struct urdf_table {
  int *slot;
  size_t mask; /* capacity - 1, a power of two minus one */
} urdf_table;

/* a growable array of fixed-size elements (teal_alloc'd) */
typedef struct urdf_list {
  void *data;
  int n, cap;
} urdf_list;

typedef struct urdf_link {
  const char *name;
  urdf_node *node; /* NULL for an undeclared world */
  int massive;   /* mass > 0 */
  teal_spatial_inertia M_LLo_L;
  int parent_joint; /* -1 for a root */
  int first_child;  /* first joint whose parent is this link, -1 if none */
  /* topology: the link whose body carries this link (URDF_WORLD for the
   * world body) and the link frame's pose in that body's frame */
  int owner;
  teal_transform X_OL;
  /* build: the plant body and the link's frame */
  int body, frame;
  int inst; /* its entry of urdf_model.instances (0: the model's own) */
} urdf_link;

typedef enum urdf_joint_type {
  URDF_REVOLUTE = 0,
  URDF_CONTINUOUS,
  URDF_PRISMATIC,
  URDF_FIXED,
  URDF_FLOATING,
  URDF_PLANAR,
  URDF_BALL,
  URDF_UNIVERSAL,
  URDF_SCREW
} urdf_joint_type;

typedef struct urdf_joint {
  const char *name;
  urdf_node *node;
  urdf_joint_type type;
  const char *parent_name, *child_name;
  int parent, child;    /* link indices */
  int next_sibling;     /* next joint with the same parent link, -1 if none */
  teal_transform X_PJ;  /* joint frame in the parent link frame */
  teal_vec3 axis;       /* unit, in the joint frame */
  double lower, upper;  /* position limits (single-dof joints) */
  double effort;        /* > 0 or inf */
  double velocity;      /* > 0 or inf */
  double damping;       /* >= 0 */
  double pitch;         /* screw */
  int has_X_CJ;         /* SDFormat: the joint frame is not the child link frame */
  teal_transform X_CJ;  /* then: the joint frame in the child link frame */
  int has_actuator;
  int plant_joint;      /* build: the plant joint, -1 if none */
  int inst;             /* its entry of urdf_model.instances */
} urdf_joint;

typedef struct urdf_geom {
  int link;
  urdf_node *node;
  teal_geometry_role role;
  char *name; /* owned (teal_alloc) */
  teal_transform X_LG;
  teal_shape shape; /* owned */
  double rgba[4];
  teal_proximity_properties props;
} urdf_geom;

typedef struct urdf_material {
  const char *name;
  urdf_node *node;
  int has_color;
  double rgba[4];
} urdf_material;

typedef struct urdf_actuator {
  const char *name;
  urdf_node *node;
  const char *joint_name;
  int joint;
  double rotor_inertia, gear_ratio; /* <drake:rotor_inertia>, <drake:gear_ratio>: 0, 1 */
  int inst;                         /* resolve: its joint's entry of urdf_model.instances */
} urdf_actuator;

typedef struct urdf_frame {
  const char *name;
  urdf_node *node;
  const char *link_name;
  int link;
  teal_transform X_LF;
  int inst; /* its entry of urdf_model.instances */
} urdf_frame;

/* A constraint element or a <mimic> (urdf_constraints.c): bodies A and B
 * by link (a coupler: a the mimicking joint, b the mimicked one); points
 * in .p of the link-frame poses X_AP, X_BQ. */
typedef enum urdf_constraint_kind {
  URDF_C_BALL = 0,
  URDF_C_DISTANCE,
  URDF_C_WELD,
  URDF_C_COUPLER
} urdf_constraint_kind;

typedef struct urdf_constraint {
  urdf_node *node;
  urdf_constraint_kind kind;
  const char *a_name, *b_name;
  int a, b; /* link indices, or joint indices for a coupler */
  teal_transform X_AP, X_BQ;
  double distance, stiffness, damping; /* distance */
  double ratio, offset;                /* coupler */
} urdf_constraint;

/* A model instance the build adds. A URDF document is one (named by the
 * caller); an SDFormat model is one and each of its nested models another,
 * whose elements' names start with prefix_len bytes ("inner::") that the
 * plant's names drop (urdf_plant_name). */
typedef struct urdf_instance {
  const char *name; /* the plant's instance name */
  size_t prefix_len;
  int plant; /* build: its index in the plant */
} urdf_instance;

typedef struct urdf_model {
  const char *source; /* file base name or "<string>" */
  const char *dir;    /* the file's directory with a trailing '/', or NULL */
  teal_error *err;
  teal_urdf_report *report;
  const teal_package_map *packages; /* package URIs (may be NULL) */
  urdf_xml xml;
  const char *robot_name;
  urdf_list links, joints, geoms, materials, actuators, frames;
  urdf_list constraints; /* urdf_constraint */
  urdf_list instances;   /* urdf_instance; empty until urdf_check_names adds the one named */
  urdf_list strings; /* char * owned by the model */
  int *link_order;   /* links in tree order (parents first), links.n entries */
  urdf_table link_index;  /* link indices by name */
  urdf_table joint_index; /* joint indices by name */
} urdf_model;

#define ULINK(m) ((urdf_link *)(m)->links.data)
#define UJOINT(m) ((urdf_joint *)(m)->joints.data)
#define UGEOM(m) ((urdf_geom *)(m)->geoms.data)
#define UMAT(m) ((urdf_material *)(m)->materials.data)
#define UACT(m) ((urdf_actuator *)(m)->actuators.data)
#define UFRAME(m) ((urdf_frame *)(m)->frames.data)
#define UCONSTRAINT(m) ((urdf_constraint *)(m)->constraints.data)
#define UINST(m) ((urdf_instance *)(m)->instances.data)

/* Parses the document into m->xml (the caller has run the pre-scan); a
 * malformed one gives TEAL_EPARSE with its line. No network, no DTD
 * loading, no entity substitution, nothing on stderr; the bytes are UTF-8
 * whatever the XML declaration says. */
int urdf_xml_parse(urdf_model *m, const char *buf, size_t len);
/* Releases the tree (a zeroed urdf_xml is empty). */
void urdf_xml_free(urdf_xml *x);

/* ---- urdf.c, shared with the MJCF parser ---- */

/* The pre-scan run before urdf_xml_parse: refuses non-UTF-8 documents, a
 * DTD internal subset and elements with more than max attributes. */
int urdf_prescan(urdf_model *m, const char *buf, size_t len, int max);
/* Reads a regular file of at most max bytes into a teal_alloc'd,
 * NUL-terminated buffer. */
int urdf_read_file(const char *path, size_t max, char **buf, size_t *len, teal_error *err);
/* The file's directory with a trailing '/' (teal_alloc'd; NULL without '/'). */
int urdf_file_dir(const char *path, char **dir, teal_error *err);

/* ---- urdf.c, shared with the SDFormat parser ---- */

/* Releases everything m owns (a zeroed model is empty). */
void urdf_free_model(urdf_model *m);
/* TEAL_OK when plant is not NULL, not finalized and free of errors. */
int urdf_check_plant(const teal_plant *plant, const char *source, teal_error *err);

/* ---- urdf_util.c ---- */

/* Exactly n finite numbers separated by white space in s: TEAL_OK,
 * TEAL_EPARSE (not n numbers) or TEAL_ENONFINITE; records nothing. */
int urdf_parse_numbers(const char *s, int n, double *out);

/* The rotation taking z to the unit vector n: about z x n by their angle,
 * the identity when n is within parallel_tol of z (1 - z.n <= tol) and half
 * a turn about x when within it of -z. Shared by the URDF, SDFormat and
 * MJCF parsers (planar joints, planes, zaxis and fromto frames). */
teal_rotation urdf_rotation_z_to(teal_vec3 n, double parallel_tol);

/* Appends a zeroed element; NULL (with TEAL_ENOMEM recorded) on failure. */
void *urdf_push(urdf_model *m, urdf_list *l, size_t elem);
/* Keeps a teal_alloc'd string until the model is freed (frees it on failure). */
const char *urdf_keep(urdf_model *m, char *s);
/* Records the first error as "source:line: <elem name="...">: message". */
int urdf_fail(urdf_model *m, const urdf_node *node, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Counts a warning (and *counter if not NULL), keeping the first message. */
void urdf_warn(urdf_model *m, const urdf_node *node, int *counter, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* 1 if node is an element with the qualified name qname ("link",
 * "drake:capsule"), with or without a declared namespace prefix. */
int urdf_is(const urdf_node *node, const char *qname);
/* 1 if node is an element whose prefix is "drake". */
int urdf_is_drake(const urdf_node *node);
/* The only child element named qname in *out (NULL if none); TEAL_EPARSE
 * if there are several. */
int urdf_unique_child(urdf_model *m, urdf_node *node, const char *qname, urdf_node **out);
/* The attribute's value, or NULL if absent (or out of memory, recorded). */
const char *urdf_attr(urdf_model *m, urdf_node *node, const char *name);
/* A required non-empty attribute (TEAL_EPARSE if absent or empty). */
int urdf_attr_required(urdf_model *m, urdf_node *node, const char *name, const char **out);
/* Exactly n finite numbers from attribute name; absent: TEAL_OK with *present
 * = 0 and out untouched (present may be NULL only if required). */
int urdf_attr_numbers(urdf_model *m, urdf_node *node, const char *name, int n, double *out,
                      int *present);
/* One finite number; absent: out = def (or TEAL_EPARSE if required). */
int urdf_attr_double(urdf_model *m, urdf_node *node, const char *name, int required, double def,
                     double *out);
/* The <origin xyz rpy> child of node (identity when absent) as a transform. */
int urdf_origin(urdf_model *m, urdf_node *node, teal_transform *X);
/* The text content of node (kept by the model; "" if empty). */
const char *urdf_text(urdf_model *m, urdf_node *node);

/* ---- urdf_names.c ---- */

#define URDF_HASH_SEED UINT64_C(0xcbf29ce484222325)

/* The FNV-1a hash of s continued from h (URDF_HASH_SEED to start). */
uint64_t urdf_hash(const char *s, uint64_t h);
/* An empty table for up to n entries. */
int urdf_table_init(urdf_model *m, urdf_table *t, int n);
void urdf_table_free(urdf_table *t);
/* The slot of the entry with this hash that same() accepts, or the empty
 * slot where it would go (*slot < 0). */
int *urdf_table_slot(const urdf_table *t, uint64_t hash, int (*same)(const void *ctx, int entry),
                     const void *ctx);
/* Indexes the names of l's elements (each starts with its name and node);
 * a duplicate is TEAL_EDUPLICATE, reported at the later element of the
 * first duplicate in name order. */
int urdf_index_names(urdf_model *m, const urdf_list *l, size_t elem, urdf_table *t,
                     const char *what);
/* The index of the element of l named name, or -1. */
int urdf_index_find(const urdf_table *t, const urdf_list *l, size_t elem, const char *name);

/* ---- urdf_links.c ---- */

/* Adds the world link (index URDF_WORLD). */
int urdf_add_world(urdf_model *m);
int urdf_parse_link(urdf_model *m, urdf_node *node);
int urdf_parse_frame(urdf_model *m, urdf_node *node);
/* Indexes the link names (duplicates are errors). */
int urdf_index_links(urdf_model *m);
/* Link index by name, or -1. */
int urdf_link_by_name(const urdf_model *m, const char *name);

/* ---- urdf_geometry.c ---- */

int urdf_parse_material(urdf_model *m, urdf_node *node, int top_level, double rgba[4]);
int urdf_parse_visual(urdf_model *m, int link, urdf_node *node, int k);
int urdf_parse_collision(urdf_model *m, int link, urdf_node *node, int k);
/* Releases the shapes and names the geometries own. */
void urdf_free_geoms(urdf_model *m);

/* ---- urdf_joints.c ---- */

int urdf_parse_joint(urdf_model *m, urdf_node *node, int drake_joint);
int urdf_parse_transmission(urdf_model *m, urdf_node *node);
/* The joint type's name as written in URDF. */
const char *urdf_joint_type_name(urdf_joint_type t);
/* The number of velocities of a joint type. */
int urdf_joint_type_nv(urdf_joint_type t);

/* ---- urdf_constraints.c ---- */

/* 1 if node is a top-level constraint element. */
int urdf_is_constraint(const urdf_node *node);
int urdf_parse_constraint(urdf_model *m, urdf_node *node);
/* The <mimic> child of a joint named joint_name, if any. */
int urdf_parse_mimic(urdf_model *m, urdf_node *joint_node, const char *joint_name);
/* Link and joint names to indices (after the joints are resolved). */
int urdf_resolve_constraints(urdf_model *m);
/* Adds the constraints to the plant (after the joints). */
int urdf_build_constraints(urdf_model *m, teal_plant *plant);

/* ---- urdf_topology.c ---- */

/* Resolves names, orders the tree, rejects loops and moving massless links,
 * places massless links, and checks the names the build will create. */
int urdf_resolve(urdf_model *m, const teal_plant *plant, const char *instance);

/* ---- urdf_claims.c ---- */

/* The plant's name rules, the instance names (instance when m has no
 * instances yet, which it then adds), and the frame and geometry names
 * the build will create (no duplicates, no clash with the world). */
int urdf_check_names(urdf_model *m, const teal_plant *plant, const char *instance);
/* The plant's name of an element of instance entry inst named name. */
const char *urdf_plant_name(const urdf_model *m, int inst, const char *name);
/* The plant's name of instance entry inst. */
const char *urdf_instance_name(const urdf_model *m, int inst);
/* 1 if joint j's child frame M is a frame of its own, "<joint>_child"
 * (planar joints, SDFormat joint frames off the child link frame, and
 * joints of another model instance than their child link's). */
int urdf_child_frame_needed(const urdf_model *m, const urdf_joint *j);

/* ---- urdf_build.c ---- */

/* Adds the checked model's instances (urdf_model.instances); returns the
 * plant index of the first or the plant's error. */
int urdf_build(urdf_model *m, teal_plant *plant);
/* The plant-side name of a frame or geometry on body owner (prefixed with
 * "<instance>::" on the world); teal_alloc'd, NULL when out of memory. */
char *urdf_scoped_name(const char *instance, int on_world, const char *name,
                       const char *suffix);

#endif
