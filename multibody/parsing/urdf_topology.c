/* The checks between parsing and building: names to indices, the tree
 * order, loops, where massless links live, actuators; then the names the
 * build will create (urdf_claims.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/urdf_internal.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/tree/plant_internal.h"

/* ---- joints to links ------------------------------------------------------- */

static int link_ref(urdf_model *m, const urdf_joint *j, const char *name, const char *what) {
  int l = urdf_link_by_name(m, name);
  if (l < 0) {
    urdf_fail(m, j->node, TEAL_ENOTFOUND, "%s link '%.80s' not found", what, name);
  }
  return l;
}

/* Checks one joint's links and records it as its child's parent joint. */
static int attach_joint(urdf_model *m, int ji) {
  urdf_joint *j = &UJOINT(m)[ji];
  j->parent = link_ref(m, j, j->parent_name, "parent");
  j->child = j->parent < 0 ? -1 : link_ref(m, j, j->child_name, "child");
  if (j->child < 0) {
    return m->err->code;
  }
  if (j->child == URDF_WORLD) {
    return urdf_fail(m, j->node, TEAL_EINVAL, "the world cannot be a child link");
  }
  if (j->child == j->parent) {
    return urdf_fail(m, j->node, TEAL_EINVAL, "parent and child are the same link");
  }
  urdf_link *c = &ULINK(m)[j->child];
  if (c->parent_joint >= 0) {
    return urdf_fail(m, j->node, TEAL_EINVAL,
                     "link '%.80s' has two parent joints, '%.80s' and '%.80s': they close a "
                     "kinematic loop; declare the closure as a constraint "
                     "(<teal:ball_constraint>, <drake:ball_constraint>, <teal:weld_constraint>)",
                     c->name, UJOINT(m)[c->parent_joint].name, j->name);
  }
  c->parent_joint = ji;
  return TEAL_OK;
}

static int resolve_joints(urdf_model *m) {
  int rc = urdf_index_names(m, &m->joints, sizeof(urdf_joint), &m->joint_index, "joint");
  for (int j = 0; j < m->joints.n && rc == TEAL_OK; j++) {
    rc = attach_joint(m, j);
  }
  /* child lists in document order */
  for (int j = m->joints.n - 1; j >= 0 && rc == TEAL_OK; j--) {
    urdf_link *p = &ULINK(m)[UJOINT(m)[j].parent];
    UJOINT(m)[j].next_sibling = p->first_child;
    p->first_child = j;
  }
  return rc;
}

/* ---- tree order --------------------------------------------------------------- */

/* Breadth-first from the roots (links without a parent joint); links never
 * reached hang on a cycle. */
static int order_links(urdf_model *m) {
  int n = m->links.n, count = 0;
  m->link_order = teal_calloc((size_t)n, sizeof(int));
  char *seen = teal_calloc((size_t)n, 1);
  if (!m->link_order || !seen) {
    teal_free(seen);
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  for (int l = 0; l < n; l++) {
    if (ULINK(m)[l].parent_joint < 0) {
      m->link_order[count++] = l;
      seen[l] = 1;
    }
  }
  for (int head = 0; head < count; head++) {
    for (int j = ULINK(m)[m->link_order[head]].first_child; j >= 0; j = UJOINT(m)[j].next_sibling) {
      int c = UJOINT(m)[j].child;
      m->link_order[count++] = c;
      seen[c] = 1;
    }
  }
  int rc = TEAL_OK;
  for (int l = 0; l < n && count < n && rc == TEAL_OK; l++) {
    if (!seen[l]) {
      /* n steps up the parent joints from an unreached link end on the cycle */
      int c = l;
      for (int k = 0; k < n; k++) {
        c = UJOINT(m)[ULINK(m)[c].parent_joint].parent;
      }
      const urdf_joint *j = &UJOINT(m)[ULINK(m)[c].parent_joint];
      rc = urdf_fail(m, j->node, TEAL_EINVAL,
                     "kinematic loop through link '%.80s' and joint '%.80s'; declare a "
                     "loop closure as a constraint (<teal:ball_constraint>)",
                     ULINK(m)[c].name, j->name);
    }
  }
  teal_free(seen);
  return rc;
}

/* ---- massless links ------------------------------------------------------------ */

static int transform_is_finite(teal_transform X) {
  for (int i = 0; i < 9; i++) {
    if (!isfinite(X.R.m[i])) {
      return 0;
    }
  }
  return teal_vec3_is_finite(X.p);
}

/* Decides the body (owner link) of each link and its pose there. */
static int place_link(urdf_model *m, int l) {
  urdf_link *L = &ULINK(m)[l];
  L->X_OL = teal_transform_identity();
  L->owner = l == URDF_WORLD || L->massive ? l : URDF_WORLD;
  if (l == URDF_WORLD || L->massive || L->parent_joint < 0) {
    return TEAL_OK;
  }
  const urdf_joint *j = &UJOINT(m)[L->parent_joint];
  if (j->type != URDF_FIXED) {
    return urdf_fail(m, L->node, TEAL_EINVAL,
                     "massless link (no <inertial> or mass 0) moved by %s joint '%.80s'; only "
                     "the world, root links and children of fixed joints may be massless",
                     urdf_joint_type_name(j->type), j->name);
  }
  const urdf_link *P = &ULINK(m)[j->parent];
  L->owner = P->owner;
  L->X_OL = teal_transform_compose(P->X_OL, j->X_PJ);
  if (j->has_X_CJ) { /* SDFormat: the child link frame sits at X_CJ in the joint frame */
    L->X_OL = teal_transform_compose(L->X_OL, teal_transform_inverse(j->X_CJ));
  }
  return TEAL_OK;
}

/* The frame F of every joint on its parent's body must stay finite. */
static int check_joint_pose(urdf_model *m, const urdf_joint *j) {
  teal_transform X = teal_transform_compose(ULINK(m)[j->parent].X_OL, j->X_PJ);
  return transform_is_finite(X) ? TEAL_OK
                                : urdf_fail(m, j->node, TEAL_ENONFINITE, "joint pose overflows");
}

static int place_links(urdf_model *m) {
  int rc = TEAL_OK;
  for (int i = 0; i < m->links.n && rc == TEAL_OK; i++) {
    rc = place_link(m, m->link_order[i]);
  }
  for (int j = 0; j < m->joints.n && rc == TEAL_OK; j++) {
    rc = check_joint_pose(m, &UJOINT(m)[j]);
  }
  for (int g = 0; g < m->geoms.n && rc == TEAL_OK; g++) {
    const urdf_geom *G = &UGEOM(m)[g];
    if (!transform_is_finite(teal_transform_compose(ULINK(m)[G->link].X_OL, G->X_LG))) {
      rc = urdf_fail(m, G->node, TEAL_ENONFINITE, "geometry pose overflows");
    }
  }
  return rc;
}

/* ---- frames and actuators ------------------------------------------------------- */

static int resolve_frames(urdf_model *m) {
  for (int i = 0; i < m->frames.n; i++) {
    urdf_frame *f = &UFRAME(m)[i];
    f->link = urdf_link_by_name(m, f->link_name);
    if (f->link < 0) {
      return urdf_fail(m, f->node, TEAL_ENOTFOUND, "link '%.80s' not found", f->link_name);
    }
    if (!transform_is_finite(teal_transform_compose(ULINK(m)[f->link].X_OL, f->X_LF))) {
      return urdf_fail(m, f->node, TEAL_ENONFINITE, "frame pose overflows");
    }
  }
  return TEAL_OK;
}

static int resolve_actuator(urdf_model *m, urdf_actuator *a) {
  a->joint = urdf_index_find(&m->joint_index, &m->joints, sizeof(urdf_joint), a->joint_name);
  if (a->joint < 0) {
    return urdf_fail(m, a->node, TEAL_ENOTFOUND, "joint '%.80s' not found", a->joint_name);
  }
  urdf_joint *j = &UJOINT(m)[a->joint];
  if (urdf_joint_type_nv(j->type) != 1) {
    return urdf_fail(m, a->node, TEAL_EINVAL, "%s joint '%.80s' cannot be actuated (needs 1 dof)",
                     urdf_joint_type_name(j->type), j->name);
  }
  if (j->effort == 0.0) {
    urdf_warn(m, a->node, &m->report->skipped_transmissions,
              "joint '%.80s' has effort limit 0; transmission skipped", j->name);
    a->joint = -1;
    return TEAL_OK;
  }
  if (j->has_actuator) {
    return urdf_fail(m, a->node, TEAL_EDUPLICATE, "joint '%.80s' already has an actuator",
                     j->name);
  }
  j->has_actuator = 1;
  a->inst = j->inst;
  return TEAL_OK;
}

static int resolve_actuators(urdf_model *m) {
  urdf_table names;
  int rc = urdf_index_names(m, &m->actuators, sizeof(urdf_actuator), &names, "actuator");
  urdf_table_free(&names);
  for (int i = 0; i < m->actuators.n && rc == TEAL_OK; i++) {
    rc = resolve_actuator(m, &UACT(m)[i]);
  }
  return rc;
}

int urdf_resolve(urdf_model *m, const teal_plant *plant, const char *instance) {
  int rc = urdf_index_links(m);
  rc = rc ? rc : resolve_joints(m);
  rc = rc ? rc : order_links(m);
  rc = rc ? rc : place_links(m);
  rc = rc ? rc : resolve_frames(m);
  rc = rc ? rc : resolve_actuators(m);
  rc = rc ? rc : urdf_resolve_constraints(m);
  return rc ? rc : urdf_check_names(m, plant, instance);
}
