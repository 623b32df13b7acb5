/* URDF <link> (with <inertial>) and Drake's <frame> elements. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/urdf_internal.h"

int urdf_add_world(urdf_model *m) {
  urdf_link *w = urdf_push(m, &m->links, sizeof(urdf_link));
  if (!w) {
    return m->err->code;
  }
  w->name = "world";
  w->parent_joint = w->first_child = -1;
  w->owner = URDF_WORLD;
  w->X_OL = teal_transform_identity();
  return TEAL_OK;
}

/* The rotational inertia matrix from <inertia ixx ixy ixz iyy iyz izz>
 * (matrix entries; each defaults to 0). */
static int parse_inertia_matrix(urdf_model *m, urdf_node *node, teal_mat3 *I) {
  static const char *const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
  double v[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 6 && node; i++) {
    int rc = urdf_attr_double(m, node, names[i], 0, 0.0, &v[i]);
    if (rc) {
      return rc;
    }
  }
  teal_mat3 M = {{v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5]}};
  *I = M;
  return TEAL_OK;
}

/* The <mass value> of an <inertial>: finite and >= 0. */
static int parse_mass(urdf_model *m, urdf_node *inertial, double *mass) {
  urdf_node *node;
  int rc = urdf_unique_child(m, inertial, "mass", &node);
  if (rc) {
    return rc;
  }
  if (!node) {
    return urdf_fail(m, inertial, TEAL_EPARSE, "missing <mass>");
  }
  rc = urdf_attr_double(m, node, "value", 1, 0.0, mass);
  if (rc == TEAL_OK && *mass < 0.0) {
    rc = urdf_fail(m, node, TEAL_EINVAL, "negative mass %g", *mass);
  }
  return rc;
}

/* The link's spatial inertia about its origin from <inertial>: the inertia
 * given about the center of mass in the inertial frame I (at X_LI) is
 * re-expressed in the link frame as R_LI I R_LI' and shifted to Lo. */
static int parse_inertial(urdf_model *m, int link, urdf_node *node) {
  urdf_node *in, *inertia;
  int rc = urdf_unique_child(m, node, "inertial", &in);
  if (rc || !in) {
    return rc;
  }
  if (link == URDF_WORLD) {
    urdf_warn(m, in, &m->report->ignored_elements, "the world's <inertial> is ignored");
    return TEAL_OK;
  }
  teal_transform X_LI;
  teal_mat3 I_I;
  double mass;
  rc = urdf_origin(m, in, &X_LI);
  rc = rc ? rc : parse_mass(m, in, &mass);
  rc = rc ? rc : urdf_unique_child(m, in, "inertia", &inertia);
  rc = rc ? rc : parse_inertia_matrix(m, inertia, &I_I);
  if (rc || mass == 0.0) {
    return rc;
  }
  teal_mat3 I_L = teal_mat3_mul(teal_mat3_mul(X_LI.R, I_I), teal_mat3_transpose(X_LI.R));
  teal_spatial_inertia M = teal_spatial_inertia_from_central(mass, X_LI.p, I_L);
  teal_error ierr = {TEAL_OK, ""};
  rc = teal_spatial_inertia_check(&M, &ierr);
  if (rc) {
    return urdf_fail(m, in, rc, "non-physical inertia (%s)", ierr.message);
  }
  ULINK(m)[link].massive = 1;
  ULINK(m)[link].M_LLo_L = M;
  return TEAL_OK;
}

/* The link's <visual> and <collision> children. */
static int parse_link_geometry(urdf_model *m, int link, urdf_node *node) {
  int kv = 0, kc = 0, rc = TEAL_OK;
  for (urdf_node *c = node->children; c && !rc; c = c->next) {
    if (urdf_is(c, "visual")) {
      rc = urdf_parse_visual(m, link, c, kv++);
    } else if (urdf_is(c, "collision")) {
      rc = urdf_parse_collision(m, link, c, kc++);
    } else if (urdf_is_drake(c)) {
      urdf_warn(m, c, &m->report->ignored_elements, "unsupported element ignored");
    }
  }
  return rc;
}

/* The link record for name: the world's, or a new one. */
static int link_record(urdf_model *m, urdf_node *node, const char *name, int *link) {
  if (strcmp(name, "world") == 0) {
    if (ULINK(m)[URDF_WORLD].node) {
      return urdf_fail(m, node, TEAL_EDUPLICATE, "duplicate link name 'world'");
    }
    ULINK(m)[URDF_WORLD].node = node;
    *link = URDF_WORLD;
    return TEAL_OK;
  }
  urdf_link *l = urdf_push(m, &m->links, sizeof(urdf_link));
  if (!l) {
    return m->err->code;
  }
  l->name = name;
  l->node = node;
  l->parent_joint = l->first_child = -1;
  l->owner = -1;
  l->X_OL = teal_transform_identity();
  l->body = l->frame = -1;
  *link = m->links.n - 1;
  return TEAL_OK;
}

int urdf_parse_link(urdf_model *m, urdf_node *node) {
  const char *name;
  int link = -1;
  int rc = urdf_attr_required(m, node, "name", &name);
  rc = rc ? rc : link_record(m, node, name, &link);
  rc = rc ? rc : parse_inertial(m, link, node);
  return rc ? rc : parse_link_geometry(m, link, node);
}

int urdf_parse_frame(urdf_model *m, urdf_node *node) {
  const char *name, *link;
  double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
  int present;
  int rc = urdf_attr_required(m, node, "name", &name);
  rc = rc ? rc : urdf_attr_required(m, node, "link", &link);
  rc = rc ? rc : urdf_attr_numbers(m, node, "xyz", 3, xyz, &present);
  rc = rc ? rc : urdf_attr_numbers(m, node, "rpy", 3, rpy, &present);
  urdf_frame *f = rc ? NULL : urdf_push(m, &m->frames, sizeof(urdf_frame));
  if (!f) {
    return m->err->code;
  }
  f->name = name;
  f->node = node;
  f->link_name = link;
  f->link = -1;
  f->X_LF = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(rpy[0], rpy[1], rpy[2])),
                                teal_vec3_make(xyz[0], xyz[1], xyz[2]));
  return TEAL_OK;
}

int urdf_index_links(urdf_model *m) {
  return urdf_index_names(m, &m->links, sizeof(urdf_link), &m->link_index, "link");
}

int urdf_link_by_name(const urdf_model *m, const char *name) {
  return urdf_index_find(&m->link_index, &m->links, sizeof(urdf_link), name);
}
