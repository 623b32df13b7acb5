/* The frame, joint and actuator names the MJCF build will give the plant, checked
 * before anything is added: MJCF names are unique per kind (a site may be
 * called like a body), the plant's frames share one namespace per model
 * instance, and generated names ("<joint>_parent", "<body>_dof0") may meet
 * written ones. Frames on the world are "<instance>::<name>" and must not
 * exist in the plant yet. Geometry names need no check: the model's are
 * unique, and the plant keeps them per body and role. */
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/mjcf_internal.h"
#include "multibody/tree/plant_internal.h" /* teal_plant_name_problem, as urdf_claims.c */

/* A claimed name, with the element that claims it. */
typedef struct claim {
  const char *name;
  urdf_node *node;
} claim;

typedef struct claims {
  urdf_list frames, joints, actuators; /* frames scoped: "<instance>::" on the world */
  const char *instance;
} claims;

/* 1 when the body becomes a plant body (else a frame on its parent's). */
static int is_real(const mjcf_body *B) {
  return B->num_joints > 0 || B->M_BBo_B.mass > 0.0;
}

static int add_claim(mjcf_model *m, urdf_list *l, urdf_node *node, const char *prefix,
                     const char *name, const char *suffix) {
  size_t n = strlen(prefix) + strlen(name) + strlen(suffix) + 1;
  char *s = teal_alloc(n);
  if (s) {
    snprintf(s, n, "%s%s%s", prefix, name, suffix);
  }
  const char *kept = urdf_keep(&m->u, s);
  const char *why = kept ? teal_plant_name_problem(kept) : NULL;
  if (why) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "name '%.80s' %s", kept, why);
  }
  claim *c = kept ? urdf_push(&m->u, l, sizeof(claim)) : NULL;
  if (!c) {
    return m->u.err->code;
  }
  c->name = kept;
  c->node = node;
  return TEAL_OK;
}

/* A frame on the world (scoped) or on a body of the instance. */
static int claim_frame(mjcf_model *m, claims *c, int on_world, urdf_node *node, const char *name,
                       const char *suffix) {
  char scope[512];
  snprintf(scope, sizeof scope, "%s::", c->instance);
  return add_claim(m, &c->frames, node, on_world ? scope : "", name, suffix);
}

/* The frames and joints of body b; *world (per body) says whether the
 * body's frame lives on the world. */
static int claim_body(mjcf_model *m, claims *c, int b, unsigned char *world) {
  const mjcf_body *B = &MBODY(m)[b];
  int parent_world = world[B->parent], rc = TEAL_OK;
  world[b] = parent_world && !is_real(B);
  if (!is_real(B)) {
    return claim_frame(m, c, parent_world, B->node, B->name, "");
  }
  rc = claim_frame(m, c, 0, B->node, B->name, "");
  for (int k = 0; k + 1 < B->num_joints && rc == TEAL_OK; k++) {
    char suffix[24];
    snprintf(suffix, sizeof suffix, "_dof%d", k);
    rc = claim_frame(m, c, 0, B->node, B->name, suffix);
  }
  if (rc == TEAL_OK && B->num_joints == 0) {
    rc = claim_frame(m, c, parent_world, B->node, B->name, "_weld");
    rc = rc ? rc : add_claim(m, &c->joints, B->node, "", B->name, "");
  }
  for (int k = 0; k < B->num_joints && rc == TEAL_OK; k++) {
    const mjcf_joint *j = &MJOINT(m)[B->first_joint + k];
    rc = add_claim(m, &c->joints, j->node, "", j->name, "");
    if (rc == TEAL_OK && j->type != MJCF_FREE) {
      rc = claim_frame(m, c, k == 0 && parent_world, j->node, j->name, "_parent");
      rc = rc ? rc : claim_frame(m, c, 0, j->node, j->name, "_child");
    }
  }
  return rc;
}

/* No claimed world frame may exist in the plant already. */
static int check_world_frames(mjcf_model *m, const claims *c, const teal_plant *plant) {
  size_t n = strlen(c->instance) + 2;
  const claim *f = c->frames.data;
  for (int i = 0; i < c->frames.n; i++) {
    if (strncmp(f[i].name, c->instance, n - 2) == 0 && strncmp(f[i].name + n - 2, "::", 2) == 0 &&
        teal_plant_get_frame_by_name(plant, f[i].name, TEAL_WORLD_MODEL_INSTANCE, NULL) >= 0) {
      return urdf_fail(&m->u, f[i].node, TEAL_EDUPLICATE, "the plant already has a frame '%s'",
                       f[i].name);
    }
  }
  return TEAL_OK;
}

static int check_claims(mjcf_model *m, claims *c, const teal_plant *plant) {
  int rc = TEAL_OK;
  unsigned char *world = teal_calloc((size_t)m->bodies.n, 1);
  if (!world) {
    return urdf_fail(&m->u, NULL, TEAL_ENOMEM, "out of memory");
  }
  world[MJCF_WORLD] = 1;
  for (int b = 1; b < m->bodies.n && rc == TEAL_OK; b++) {
    rc = claim_body(m, c, b, world);
  }
  for (int i = 0; i < m->sites.n && rc == TEAL_OK; i++) {
    const mjcf_site *s = &MSITE(m)[i];
    rc = claim_frame(m, c, world[s->body], s->node, s->name, "");
  }
  for (int i = 0; i < m->motors.n && rc == TEAL_OK; i++) {
    if (MMOTOR(m)[i].skip) {
      continue;
    }
    rc = add_claim(m, &c->actuators, MMOTOR(m)[i].node, "", MMOTOR(m)[i].name, "");
  }
  teal_free(world);
  urdf_table frames = {0}, joints = {0}, actuators = {0};
  rc = rc ? rc : urdf_index_names(&m->u, &c->frames, sizeof(claim), &frames, "frame");
  rc = rc ? rc : urdf_index_names(&m->u, &c->joints, sizeof(claim), &joints, "joint");
  rc = rc ? rc : urdf_index_names(&m->u, &c->actuators, sizeof(claim), &actuators, "actuator");
  urdf_table_free(&frames);
  urdf_table_free(&joints);
  urdf_table_free(&actuators);
  return rc ? rc : check_world_frames(m, c, plant);
}

int mjcf_check_names(mjcf_model *m, const teal_plant *plant, const char *instance) {
  const char *why = teal_plant_name_problem(instance);
  if (why) {
    return urdf_fail(&m->u, m->u.xml.root, TEAL_EINVAL, "model instance name '%.80s' %s", instance,
                     why);
  }
  claims c;
  memset(&c, 0, sizeof c);
  c.instance = instance;
  int rc = check_claims(m, &c, plant);
  teal_free(c.frames.data);
  teal_free(c.joints.data);
  teal_free(c.actuators.data);
  return rc;
}
