/* The checks between parsing and building: names to indices, the tree
 * order, loops, where massless links live, actuators, and the names the
 * build will create. */
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
                     "link '%.80s' already has parent joint '%.80s' (kinematic loops are not "
                     "supported)",
                     c->name, UJOINT(m)[c->parent_joint].name);
  }
  c->parent_joint = ji;
  return TEAL_OK;
}

static int resolve_joints(urdf_model *m) {
  m->joint_sorted = teal_calloc((size_t)m->joints.n + 1, sizeof(int));
  if (!m->joint_sorted) {
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  int rc = urdf_sort_names(m, &m->joints, sizeof(urdf_joint), m->joint_sorted, "joint");
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
      rc = urdf_fail(m, j->node, TEAL_EINVAL, "kinematic loop through link '%.80s'",
                     ULINK(m)[c].name);
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
  a->joint = urdf_find_name(&m->joints, sizeof(urdf_joint), m->joint_sorted, a->joint_name);
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
  return TEAL_OK;
}

static int resolve_actuators(urdf_model *m) {
  int *idx = teal_calloc((size_t)m->actuators.n + 1, sizeof(int));
  if (!idx) {
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  int rc = urdf_sort_names(m, &m->actuators, sizeof(urdf_actuator), idx, "actuator");
  teal_free(idx);
  for (int i = 0; i < m->actuators.n && rc == TEAL_OK; i++) {
    rc = resolve_actuator(m, &UACT(m)[i]);
  }
  return rc;
}

/* ---- names the build will create ------------------------------------------------- */

/* A name claimed in a scope (frames: 0 the instance, 1 the world instance;
 * geometries: owner body and role). */
typedef struct claim {
  char *name;
  xmlNode *node;
  int scope;
  long line; /* ties are reported at the later element */
  int seq;
} claim;

static int cmp_claim(const void *a, const void *b) {
  const claim *x = a, *y = b;
  if (x->scope != y->scope) {
    return x->scope < y->scope ? -1 : 1;
  }
  int c = strcmp(x->name, y->name);
  if (c) {
    return c;
  }
  if (x->line != y->line) {
    return x->line < y->line ? -1 : 1;
  }
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static int claim_name(urdf_model *m, urdf_list *l, xmlNode *node, int scope, char *name) {
  claim *c = name ? urdf_push(m, l, sizeof(claim)) : NULL;
  if (!c) {
    teal_free(name);
    return m->err->code ? m->err->code : urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  *c = (claim){name, node, scope, node ? xmlGetLineNo(node) : 0, l->n - 1};
  return TEAL_OK;
}

static void free_claims(urdf_list *l) {
  for (int i = 0; i < l->n; i++) {
    teal_free(((claim *)l->data)[i].name);
  }
  teal_free(l->data);
}

/* The frames: bodies' own frames, massless links, joint frames, <frame>s. */
static int claim_frames(urdf_model *m, urdf_list *l, const char *inst) {
  int rc = TEAL_OK;
  for (int i = 1; i < m->links.n && rc == TEAL_OK; i++) {
    const urdf_link *L = &ULINK(m)[i];
    int w = L->owner == URDF_WORLD;
    rc = claim_name(m, l, L->node, w, urdf_scoped_name(inst, w, L->name, ""));
  }
  for (int j = 0; j < m->joints.n && rc == TEAL_OK; j++) {
    const urdf_joint *J = &UJOINT(m)[j];
    int w = ULINK(m)[J->parent].owner == URDF_WORLD;
    if (J->type != URDF_FIXED || ULINK(m)[J->child].massive) {
      rc = claim_name(m, l, J->node, w, urdf_scoped_name(inst, w, J->name, "_parent"));
    }
    if (rc == TEAL_OK && J->type == URDF_PLANAR) {
      rc = claim_name(m, l, J->node, 0, urdf_scoped_name(inst, 0, J->name, "_child"));
    }
  }
  for (int i = 0; i < m->frames.n && rc == TEAL_OK; i++) {
    const urdf_frame *f = &UFRAME(m)[i];
    int w = ULINK(m)[f->link].owner == URDF_WORLD;
    rc = claim_name(m, l, f->node, w, urdf_scoped_name(inst, w, f->name, ""));
  }
  return rc;
}

static int claim_geometries(urdf_model *m, urdf_list *l, const char *inst) {
  int rc = TEAL_OK;
  for (int g = 0; g < m->geoms.n && rc == TEAL_OK; g++) {
    const urdf_geom *G = &UGEOM(m)[g];
    int owner = ULINK(m)[G->link].owner;
    rc = claim_name(m, l, G->node, owner * 4 + (int)G->role,
                    urdf_scoped_name(inst, owner == URDF_WORLD, G->name, ""));
  }
  return rc;
}

/* 1 if the plant already has a world geometry of that role and name. */
static int world_geometry_exists(const teal_plant *plant, int role, const char *name) {
  for (int i = 0; i < teal_plant_num_geometries(plant); i++) {
    const teal_plant_geometry *g = teal_plant_get_geometry(plant, i);
    if (g->body == TEAL_WORLD_BODY && (int)g->role == role && strcmp(g->name, name) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Sorts the claims; duplicates and clashes with the plant's world frames or
 * geometries are errors. */
static int check_claims(urdf_model *m, urdf_list *l, const teal_plant *plant, int frames) {
  claim *c = l->data;
  if (l->n > 1) {
    qsort(c, (size_t)l->n, sizeof(claim), cmp_claim);
  }
  for (int i = 0; i < l->n; i++) {
    const char *what = frames ? "frame" : "geometry";
    if (i > 0 && c[i].scope == c[i - 1].scope && strcmp(c[i].name, c[i - 1].name) == 0) {
      return urdf_fail(m, c[i].node, TEAL_EDUPLICATE,
                       "%s name '%.80s' is used twice (also line %ld)", what, c[i].name,
                       c[i - 1].line);
    }
    int world = frames ? c[i].scope == 1 : c[i].scope / 4 == URDF_WORLD;
    int exists = !world ? 0
                 : frames ? teal_plant_get_frame_by_name(plant, c[i].name,
                                                        TEAL_WORLD_MODEL_INSTANCE, NULL) >= 0
                          : world_geometry_exists(plant, c[i].scope % 4, c[i].name);
    if (exists) {
      return urdf_fail(m, c[i].node, TEAL_EDUPLICATE,
                       "%s '%.80s' already exists on the plant's world", what, c[i].name);
    }
  }
  return TEAL_OK;
}

/* The plant's rule for names (no '/': teal_plant_name_problem) on the
 * instance and on every link, joint, frame and actuator name the build
 * passes to the plant, so that the build cannot fail on one. */
static int check_name_rules(urdf_model *m, const char *inst) {
  const char *why = teal_plant_name_problem(inst);
  if (why) {
    return urdf_fail(m, xmlDocGetRootElement(m->doc), TEAL_EINVAL, "model instance name '%.80s' %s",
                     inst, why);
  }
  const urdf_list *lists[] = {&m->links, &m->joints, &m->frames, &m->actuators};
  const size_t elem[] = {sizeof(urdf_link), sizeof(urdf_joint), sizeof(urdf_frame),
                         sizeof(urdf_actuator)};
  const char *what[] = {"link", "joint", "frame", "actuator"};
  for (int k = 0; k < 4; k++) {
    for (int i = k == 0 ? URDF_WORLD + 1 : 0; i < lists[k]->n; i++) {
      const char *rec = (const char *)lists[k]->data + (size_t)i * elem[k];
      const char *name = *(const char *const *)rec; /* each record starts with its name */
      xmlNode *node = *(xmlNode *const *)(rec + sizeof(const char *));
      why = name ? teal_plant_name_problem(name) : NULL;
      if (why) {
        return urdf_fail(m, node, TEAL_EINVAL, "%s name '%.80s' %s", what[k], name, why);
      }
    }
  }
  return TEAL_OK;
}

static int check_names(urdf_model *m, const teal_plant *plant, const char *inst) {
  int rc = check_name_rules(m, inst);
  if (rc) {
    return rc;
  }
  if (teal_plant_get_model_instance_by_name(plant, inst, NULL) >= 0) {
    return urdf_fail(m, xmlDocGetRootElement(m->doc), TEAL_EDUPLICATE,
                     "model instance '%.80s' already exists in the plant", inst);
  }
  urdf_list frames = {NULL, 0, 0}, geoms = {NULL, 0, 0};
  rc = claim_frames(m, &frames, inst);
  rc = rc ? rc : check_claims(m, &frames, plant, 1);
  rc = rc ? rc : claim_geometries(m, &geoms, inst);
  rc = rc ? rc : check_claims(m, &geoms, plant, 0);
  free_claims(&frames);
  free_claims(&geoms);
  return rc;
}

int urdf_resolve(urdf_model *m, const teal_plant *plant, const char *instance) {
  int rc = urdf_index_links(m);
  rc = rc ? rc : resolve_joints(m);
  rc = rc ? rc : order_links(m);
  rc = rc ? rc : place_links(m);
  rc = rc ? rc : resolve_frames(m);
  rc = rc ? rc : resolve_actuators(m);
  return rc ? rc : check_names(m, plant, instance);
}
