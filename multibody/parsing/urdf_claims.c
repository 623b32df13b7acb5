/* The names the build will create, checked before it starts so that it
 * cannot fail on one: the plant's rule for names, the model instance, and
 * every frame and geometry name in its scope (no duplicates, no clash with
 * what the plant's world already has). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/urdf_internal.h"
#include "multibody/tree/plant_internal.h"

/* A name claimed in a scope (frames: 0 the world instance, 1 + k instance
 * entry k; geometries: owner body and role). */
typedef struct claim {
  const char *name;
  char *owned; /* name, when it was built for the claim */
  urdf_node *node;
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

/* Claims the plant-side name of name + suffix (urdf_scoped_name), built
 * only when it differs from name. */
static int claim_name(urdf_model *m, urdf_list *l, urdf_node *node, int scope, const char *inst,
                      int on_world, const char *name, const char *suffix) {
  char *built = on_world || *suffix ? urdf_scoped_name(inst, on_world, name, suffix) : NULL;
  claim *c = built || (!on_world && !*suffix) ? urdf_push(m, l, sizeof(claim)) : NULL;
  if (!c) {
    teal_free(built);
    return m->err->code ? m->err->code : urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  *c = (claim){built ? built : name, built, node, scope, node ? node->line : 0, l->n - 1};
  return TEAL_OK;
}

static void free_claims(urdf_list *l) {
  for (int i = 0; i < l->n; i++) {
    teal_free(((claim *)l->data)[i].owned);
  }
  teal_free(l->data);
}

const char *urdf_plant_name(const urdf_model *m, int inst, const char *name) {
  return inst < m->instances.n ? name + UINST(m)[inst].prefix_len : name;
}

const char *urdf_instance_name(const urdf_model *m, int inst) {
  return inst < m->instances.n ? UINST(m)[inst].name : "";
}

int urdf_child_frame_needed(const urdf_model *m, const urdf_joint *j) {
  return j->type == URDF_PLANAR || j->has_X_CJ || ULINK(m)[j->child].inst != j->inst;
}

/* Claims the frame an element of instance entry inst named name + suffix
 * creates, on the world (w) or not. */
static int claim_frame(urdf_model *m, urdf_list *l, urdf_node *node, int inst, int w,
                       const char *name, const char *suffix) {
  return claim_name(m, l, node, w ? 0 : 1 + inst, urdf_instance_name(m, inst), w,
                    urdf_plant_name(m, inst, name), suffix);
}

/* The frames: bodies' own frames, massless links, joint frames, <frame>s. */
static int claim_frames(urdf_model *m, urdf_list *l) {
  int rc = TEAL_OK;
  for (int i = 1; i < m->links.n && rc == TEAL_OK; i++) {
    const urdf_link *L = &ULINK(m)[i];
    rc = claim_frame(m, l, L->node, L->inst, L->owner == URDF_WORLD, L->name, "");
  }
  for (int j = 0; j < m->joints.n && rc == TEAL_OK; j++) {
    const urdf_joint *J = &UJOINT(m)[j];
    int w = ULINK(m)[J->parent].owner == URDF_WORLD;
    if (J->type != URDF_FIXED || ULINK(m)[J->child].massive) {
      rc = claim_frame(m, l, J->node, J->inst, w, J->name, "_parent");
      rc = rc || !urdf_child_frame_needed(m, J)
               ? rc
               : claim_frame(m, l, J->node, J->inst, 0, J->name, "_child");
    }
  }
  for (int i = 0; i < m->frames.n && rc == TEAL_OK; i++) {
    const urdf_frame *f = &UFRAME(m)[i];
    rc = claim_frame(m, l, f->node, f->inst, ULINK(m)[f->link].owner == URDF_WORLD, f->name, "");
  }
  return rc;
}

static int claim_geometries(urdf_model *m, urdf_list *l) {
  int rc = TEAL_OK;
  for (int g = 0; g < m->geoms.n && rc == TEAL_OK; g++) {
    const urdf_geom *G = &UGEOM(m)[g];
    int owner = ULINK(m)[G->link].owner;
    const char *inst = urdf_instance_name(m, ULINK(m)[G->link].inst);
    rc =
        claim_name(m, l, G->node, owner * 4 + (int)G->role, inst, owner == URDF_WORLD, G->name, "");
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

/* 1 if the claim clashes with a frame or geometry already on the plant's world. */
static int on_plants_world(const teal_plant *plant, const claim *c, int frames) {
  int world = frames ? c->scope == 0 : c->scope / 4 == URDF_WORLD;
  if (!world) {
    return 0;
  }
  return frames ? teal_plant_get_frame_by_name(plant, c->name, TEAL_WORLD_MODEL_INSTANCE, NULL) >= 0
                : world_geometry_exists(plant, c->scope % 4, c->name);
}

/* The sorted check: sorts the claims and reports the first duplicate or
 * clash with the plant's world frames or geometries in (scope, name) order. */
static int sorted_check(urdf_model *m, urdf_list *l, const teal_plant *plant, int frames) {
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
    if (on_plants_world(plant, &c[i], frames)) {
      return urdf_fail(m, c[i].node, TEAL_EDUPLICATE,
                       "%s '%.80s' already exists on the plant's world", what, c[i].name);
    }
  }
  return TEAL_OK;
}

typedef struct claim_key {
  const claim *all;
  const claim *c;
} claim_key;

static int same_claim(const void *ctx, int entry) {
  const claim_key *k = ctx;
  const claim *e = &k->all[entry];
  return e->scope == k->c->scope && strcmp(e->name, k->c->name) == 0;
}

/* Duplicates and clashes found with a hash table (no sort of 100,000s of
 * names); when there is one, the sorted check reports it, so the message
 * names the same element as it always has. */
static int check_claims(urdf_model *m, urdf_list *l, const teal_plant *plant, int frames) {
  urdf_table t;
  int rc = urdf_table_init(m, &t, l->n), bad = 0;
  const claim *c = l->data;
  for (int i = 0; i < l->n && rc == TEAL_OK && !bad; i++) {
    claim_key k = {c, &c[i]};
    uint64_t h = urdf_hash(c[i].name, URDF_HASH_SEED ^ (uint64_t)(unsigned)c[i].scope);
    int *slot = urdf_table_slot(&t, h, same_claim, &k);
    bad = *slot >= 0 || on_plants_world(plant, &c[i], frames);
    *slot = i;
  }
  urdf_table_free(&t);
  return rc || !bad ? rc : sorted_check(m, l, plant, frames);
}

/* The plant's rule for names (no '/': teal_plant_name_problem) on the
 * instances and on every link, joint, frame and actuator name the build
 * passes to the plant, so that the build cannot fail on one. */
static int check_name_rules(urdf_model *m) {
  for (int k = 0; k < m->instances.n; k++) {
    const char *why = teal_plant_name_problem(UINST(m)[k].name);
    if (why) {
      return urdf_fail(m, m->xml.root, TEAL_EINVAL, "model instance name '%.80s' %s",
                       UINST(m)[k].name, why);
    }
  }
  const urdf_list *lists[] = {&m->links, &m->joints, &m->frames, &m->actuators};
  const size_t elem[] = {sizeof(urdf_link), sizeof(urdf_joint), sizeof(urdf_frame),
                         sizeof(urdf_actuator)};
  const size_t inst[] = {offsetof(urdf_link, inst), offsetof(urdf_joint, inst),
                         offsetof(urdf_frame, inst), offsetof(urdf_actuator, inst)};
  const char *what[] = {"link", "joint", "frame", "actuator"};
  for (int k = 0; k < 4; k++) {
    for (int i = k == 0 ? URDF_WORLD + 1 : 0; i < lists[k]->n; i++) {
      const char *rec = (const char *)lists[k]->data + (size_t)i * elem[k];
      const char *name = *(const char *const *)rec; /* each record starts with its name */
      urdf_node *node = *(urdf_node *const *)(rec + sizeof(const char *));
      name = name ? urdf_plant_name(m, *(const int *)(rec + inst[k]), name) : NULL;
      const char *why = name ? teal_plant_name_problem(name) : NULL;
      if (why) {
        return urdf_fail(m, node, TEAL_EINVAL, "%s name '%.80s' %s", what[k], name, why);
      }
    }
  }
  return TEAL_OK;
}

/* The instances must be new to the plant. */
static int check_instances(urdf_model *m, const teal_plant *plant, const char *inst) {
  urdf_instance *first = m->instances.n ? NULL : urdf_push(m, &m->instances, sizeof(urdf_instance));
  if (first) {
    *first = (urdf_instance){inst, 0, -1};
  }
  int rc = m->err->code ? m->err->code : check_name_rules(m);
  for (int k = 0; k < m->instances.n && rc == TEAL_OK; k++) {
    if (teal_plant_get_model_instance_by_name(plant, UINST(m)[k].name, NULL) >= 0) {
      rc = urdf_fail(m, m->xml.root, TEAL_EDUPLICATE,
                     "model instance '%.80s' already exists in the plant", UINST(m)[k].name);
    }
  }
  return rc;
}

int urdf_check_names(urdf_model *m, const teal_plant *plant, const char *inst) {
  int rc = check_instances(m, plant, inst);
  if (rc) {
    return rc;
  }
  urdf_list frames = {NULL, 0, 0}, geoms = {NULL, 0, 0};
  rc = claim_frames(m, &frames);
  rc = rc ? rc : check_claims(m, &frames, plant, 1);
  rc = rc ? rc : claim_geometries(m, &geoms);
  rc = rc ? rc : check_claims(m, &geoms, plant, 0);
  free_claims(&frames);
  free_claims(&geoms);
  return rc;
}
