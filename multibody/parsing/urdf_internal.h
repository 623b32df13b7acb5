/* Private to multibody/parsing/: the intermediate model a URDF document is
 * parsed into, checked as a whole, and only then added to a plant.
 *
 * Stages (one file each):
 *   urdf.c           entry points, reading the file, XML parsing.
 *   urdf_util.c      lists, messages and warnings, attributes, numbers,
 *                    <origin>.
 *   urdf_links.c     <link> and <inertial>, <frame>, the name index.
 *   urdf_geometry.c  <material>, <visual>, <collision>, shapes, friction.
 *   urdf_joints.c    <joint>, <drake:joint>, <transmission>.
 *   urdf_topology.c  names to indices, tree order, loops, massless links.
 *   urdf_build.c     adding the checked model to the plant.
 * Strings (names) point into the XML document or the model's string pool
 * and live as long as the model. */
#ifndef TEAL_MULTIBODY_PARSING_URDF_INTERNAL_H
#define TEAL_MULTIBODY_PARSING_URDF_INTERNAL_H

#include <libxml/tree.h>

#include "geometry/shapes/geometry_properties.h"
#include "geometry/shapes/shape.h"
#include "multibody/parsing/urdf.h"
#include "multibody/math/spatial_inertia.h"

/* The link index of the world (always present, declared or not). */
#define URDF_WORLD 0

/* a growable array of fixed-size elements (teal_alloc'd) */
typedef struct urdf_list {
  void *data;
  int n, cap;
} urdf_list;

typedef struct urdf_link {
  const char *name;
  xmlNode *node; /* NULL for an undeclared world */
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
  xmlNode *node;
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
  int has_actuator;
  int plant_joint;      /* build: the plant joint, -1 if none */
} urdf_joint;

typedef struct urdf_geom {
  int link;
  xmlNode *node;
  teal_geometry_role role;
  char *name; /* owned (teal_alloc) */
  teal_transform X_LG;
  teal_shape shape; /* owned */
  double rgba[4];
  teal_proximity_properties props;
} urdf_geom;

typedef struct urdf_material {
  const char *name;
  xmlNode *node;
  int has_color;
  double rgba[4];
} urdf_material;

typedef struct urdf_actuator {
  const char *name;
  xmlNode *node;
  const char *joint_name;
  int joint;
} urdf_actuator;

typedef struct urdf_frame {
  const char *name;
  xmlNode *node;
  const char *link_name;
  int link;
  teal_transform X_LF;
} urdf_frame;

typedef struct urdf_model {
  const char *source; /* file base name or "<string>" */
  const char *dir;    /* the file's directory with a trailing '/', or NULL */
  teal_error *err;
  teal_urdf_report *report;
  xmlDoc *doc;
  const char *robot_name;
  urdf_list links, joints, geoms, materials, actuators, frames;
  urdf_list strings; /* char * owned by the model */
  int *link_order;   /* links in tree order (parents first), links.n entries */
  int *link_sorted;  /* link indices sorted by name */
  int *joint_sorted; /* joint indices sorted by name */
} urdf_model;

#define ULINK(m) ((urdf_link *)(m)->links.data)
#define UJOINT(m) ((urdf_joint *)(m)->joints.data)
#define UGEOM(m) ((urdf_geom *)(m)->geoms.data)
#define UMAT(m) ((urdf_material *)(m)->materials.data)
#define UACT(m) ((urdf_actuator *)(m)->actuators.data)
#define UFRAME(m) ((urdf_frame *)(m)->frames.data)

/* ---- urdf_util.c ---- */

/* Appends a zeroed element; NULL (with TEAL_ENOMEM recorded) on failure. */
void *urdf_push(urdf_model *m, urdf_list *l, size_t elem);
/* Keeps a teal_alloc'd string until the model is freed (frees it on failure). */
const char *urdf_keep(urdf_model *m, char *s);
/* Records the first error as "source:line: <elem name="...">: message". */
int urdf_fail(urdf_model *m, const xmlNode *node, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Counts a warning (and *counter if not NULL), keeping the first message. */
void urdf_warn(urdf_model *m, const xmlNode *node, int *counter, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* 1 if node is an element with the qualified name qname ("link",
 * "drake:capsule"), with or without a declared namespace prefix. */
int urdf_is(const xmlNode *node, const char *qname);
/* 1 if node is an element whose prefix is "drake". */
int urdf_is_drake(const xmlNode *node);
/* Next element sibling at or after node (NULL at the end). */
xmlNode *urdf_element(xmlNode *node);
/* The only child element named qname in *out (NULL if none); TEAL_EPARSE
 * if there are several. */
int urdf_unique_child(urdf_model *m, xmlNode *node, const char *qname, xmlNode **out);
/* The attribute's value, or NULL if absent (or out of memory, recorded). */
const char *urdf_attr(urdf_model *m, xmlNode *node, const char *name);
/* A required non-empty attribute (TEAL_EPARSE if absent or empty). */
int urdf_attr_required(urdf_model *m, xmlNode *node, const char *name, const char **out);
/* Exactly n finite numbers from attribute name; absent: TEAL_OK with *present
 * = 0 and out untouched (present may be NULL only if required). */
int urdf_attr_numbers(urdf_model *m, xmlNode *node, const char *name, int n, double *out,
                      int *present);
/* One finite number; absent: out = def (or TEAL_EPARSE if required). */
int urdf_attr_double(urdf_model *m, xmlNode *node, const char *name, int required, double def,
                     double *out);
/* The <origin xyz rpy> child of node (identity when absent) as a transform. */
int urdf_origin(urdf_model *m, xmlNode *node, teal_transform *X);
/* The text content of node (kept by the model; "" if empty). */
const char *urdf_text(urdf_model *m, xmlNode *node);
/* Sorts idx[0..n) by the names of list elements (a name pointer at offset
 * 0 of each element) and reports the first duplicate as TEAL_EDUPLICATE. */
int urdf_sort_names(urdf_model *m, const urdf_list *l, size_t elem, int *idx, const char *what);
/* Index of name in a sorted index, or -1. */
int urdf_find_name(const urdf_list *l, size_t elem, const int *idx, const char *name);

/* ---- urdf_links.c ---- */

/* Adds the world link (index URDF_WORLD). */
int urdf_add_world(urdf_model *m);
int urdf_parse_link(urdf_model *m, xmlNode *node);
int urdf_parse_frame(urdf_model *m, xmlNode *node);
/* Sorts the link names (duplicates are errors); fills link_sorted. */
int urdf_index_links(urdf_model *m);
/* Link index by name, or -1. */
int urdf_link_by_name(const urdf_model *m, const char *name);

/* ---- urdf_geometry.c ---- */

int urdf_parse_material(urdf_model *m, xmlNode *node, int top_level, double rgba[4]);
int urdf_parse_visual(urdf_model *m, int link, xmlNode *node, int k);
int urdf_parse_collision(urdf_model *m, int link, xmlNode *node, int k);
/* Releases the shapes and names the geometries own. */
void urdf_free_geoms(urdf_model *m);

/* ---- urdf_joints.c ---- */

int urdf_parse_joint(urdf_model *m, xmlNode *node, int drake_joint);
int urdf_parse_transmission(urdf_model *m, xmlNode *node);
/* The joint type's name as written in URDF. */
const char *urdf_joint_type_name(urdf_joint_type t);
/* The number of velocities of a joint type. */
int urdf_joint_type_nv(urdf_joint_type t);

/* ---- urdf_topology.c ---- */

/* Resolves names, orders the tree, rejects loops and moving massless links,
 * places massless links, and checks the names the build will create. */
int urdf_resolve(urdf_model *m, const teal_plant *plant, const char *instance);

/* ---- urdf_build.c ---- */

/* Adds the checked model as instance; returns its index or the plant's error. */
int urdf_build(urdf_model *m, teal_plant *plant, const char *instance);
/* The plant-side name of a frame or geometry on body owner (prefixed with
 * "<instance>::" on the world); teal_alloc'd, NULL when out of memory. */
char *urdf_scoped_name(const char *instance, int on_world, const char *name,
                       const char *suffix);

#endif
