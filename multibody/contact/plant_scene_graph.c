/* Wiring a plant to its scene graph (Drake's AddMultibodyPlantSceneGraph;
 * see plant_contact.h). */
#include "framework/alloc.h"
#include "framework/diagram.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_system.h"

/* Drake's default filters: bodies joined by a joint (other than a floating
 * one or a weld) whose parent is not the world, and every pair of bodies in
 * one welded group (teal_plant_weld_groups; the world's group holds
 * everything welded to the world). */
static int exclude_default_pairs(teal_scene_graph *sg, const teal_plant *p) {
  int nb = p->bodies.n;
  int *root = teal_calloc((size_t)nb + 1, sizeof(int));
  if (!root) {
    return TEAL_ENOMEM;
  }
  teal_plant_weld_groups(p, root);
  int rc = TEAL_OK;
  for (int b = 1; rc == TEAL_OK && b < nb; b++) {
    int j = BODY(p)[b].inboard;
    int kind = j < 0 ? TEAL_JOINT_WELD : teal_joint_quaternion_kind(JOINT(p)[j].kind);
    if (kind == TEAL_JOINT_QUATERNION_FLOATING || kind == TEAL_JOINT_WELD) {
      continue;
    }
    int parent = FRAME(p)[JOINT(p)[j].parent_frame].body;
    if (parent != 0) {
      rc = teal_scene_graph_exclude_frame_pair(sg, parent, b);
    }
  }
  for (int a = 0; rc == TEAL_OK && a < nb; a++) {
    for (int b = a + 1; rc == TEAL_OK && b < nb; b++) {
      if (root[a] == root[b]) {
        rc = teal_scene_graph_exclude_frame_pair(sg, a, b);
      }
    }
  }
  teal_free(root);
  return rc;
}

/* The exclusions declared through the plant (plant_geometry.h). */
static int exclude_declared_pairs(teal_scene_graph *sg, const teal_plant *p) {
  const filter_pair_rec *f = p->filter_pairs.data;
  int rc = TEAL_OK;
  for (int i = 0; rc == TEAL_OK && i < p->filter_pairs.n; i++) {
    rc = teal_scene_graph_exclude_frame_pair(sg, f[i].a, f[i].b);
  }
  return rc;
}

/* The plant's bodies as frames (frame id == body index) and its geometries
 * (scene graph id == plant geometry index), with Drake's default filters. */
static int register_plant(teal_scene_graph *sg, const teal_plant *p) {
  int src = teal_scene_graph_register_source(sg, "plant");
  for (int b = 0; src >= 0 && b < p->bodies.n; b++) {
    if (teal_scene_graph_register_frame(sg, src, BODY(p)[b].name) != b) {
      return teal_scene_graph_error(sg)->code;
    }
  }
  for (int i = 0; src >= 0 && i < p->geometries.n; i++) {
    const teal_plant_geometry *g = &GEOM(p)[i].g;
    int id = teal_scene_graph_register_geometry(sg, g->body, g->X_BG, &g->shape, g->name, g->role,
                                                &g->proximity, g->rgba);
    if (id != i) {
      return teal_scene_graph_error(sg)->code;
    }
  }
  if (src < 0) {
    return src;
  }
  int rc = exclude_default_pairs(sg, p);
  if (rc == TEAL_OK) {
    rc = exclude_declared_pairs(sg, p);
  }
  return rc ? rc : teal_scene_graph_finalize(sg);
}

static teal_scene_graph *fail(teal_scene_graph *sg, teal_error *err, int code, const char *what) {
  /* a failure without a message of its own still names its code */
  teal_error_set(err, code, "add_plant_and_scene_graph: %s", *what ? what : teal_strerror(code));
  teal_scene_graph_free(sg);
  return NULL;
}

/* The error for a plant that has no system yet: never finalized, or its
 * finalize failed (then the plant's own error says why). */
static teal_scene_graph *not_finalized(const teal_plant *p, teal_error *err) {
  const teal_error *pe = teal_plant_error(p);
  if (pe->code != TEAL_OK) {
    teal_error_set(err, TEAL_ESTATE,
                   "add_plant_and_scene_graph: the plant is not finalized (it failed: %s)",
                   pe->message);
  } else {
    teal_error_set(err, TEAL_ESTATE,
                   "add_plant_and_scene_graph: the plant is not finalized (call "
                   "teal_plant_finalize first)");
  }
  return NULL;
}

teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *b, teal_plant *p, teal_error *err) {
  if (!b || !p) {
    return fail(NULL, err, TEAL_EINVAL, !b ? "NULL builder" : "NULL plant");
  }
  teal_system *plant = teal_plant_system(p);
  if (!plant) {
    return not_finalized(p, err);
  }
  if (p->sg_source1) {
    return fail(NULL, err, TEAL_ESTATE, "the plant is already wired to a scene graph");
  }
  /* the builder owns what it is given, also when adding fails (it frees
   * it): from here on the plant is the builder's, whatever happens below */
  if (!teal_builder_add(b, plant)) {
    return fail(NULL, err, teal_builder_error(b)->code, teal_builder_error(b)->message);
  }
  teal_scene_graph *sg = teal_scene_graph_new("scene_graph", err);
  if (!sg) {
    return NULL;
  }
  int rc = register_plant(sg, p);
  if (rc) {
    return fail(sg, err, rc, teal_scene_graph_error(sg)->message);
  }
  teal_system *sgs = teal_scene_graph_system(sg);
  if (!teal_builder_add(b, sgs)) {
    teal_error_set(err, teal_builder_error(b)->code, "add_plant_and_scene_graph: %s",
                   teal_builder_error(b)->message);
    return NULL;
  }
  teal_builder_connect(b, teal_system_output_port(plant, p->sys.out_geometry_pose),
                       teal_system_input_port(sgs, teal_scene_graph_source_pose_port(sg, 0)));
  teal_builder_connect(b, teal_system_output_port(sgs, teal_scene_graph_query_output_port(sg)),
                       teal_system_input_port(plant, p->sys.in_query));
  const teal_error *be = teal_builder_error(b);
  if (be->code != TEAL_OK) {
    teal_error_set(err, be->code, "add_plant_and_scene_graph: %s", be->message);
    return NULL;
  }
  p->sg_source1 = 1 + teal_scene_graph_frame_source(sg, 0); /* the world is the plant's */
  return sg;
}
