/* Wiring a plant to its scene graph (Drake's AddMultibodyPlantSceneGraph;
 * see plant_contact.h). */
#include "framework/diagram.h"
#include "multibody/plant_contact_internal.h"
#include "multibody/plant_system.h"

/* The plant's bodies as frames (frame id == body index) and its geometries
 * (scene graph id == plant geometry index), with bodies joined by a joint
 * (other than a floating one) filtered. */
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
  /* bodies joined by a joint do not collide, free bodies collide with all */
  for (int b = 1; src >= 0 && b < p->bodies.n; b++) {
    int j = BODY(p)[b].inboard;
    if (j >= 0 && JOINT(p)[j].kind != TEAL_JOINT_QUATERNION_FLOATING) {
      teal_scene_graph_exclude_frame_pair(sg, FRAME(p)[JOINT(p)[j].parent_frame].body, b);
    }
  }
  return src < 0 ? src : teal_scene_graph_finalize(sg);
}

static teal_scene_graph *fail(teal_scene_graph *sg, teal_error *err, int code, const char *what) {
  teal_error_set(err, code, "add_plant_and_scene_graph: %s", what);
  teal_scene_graph_free(sg);
  return NULL;
}

teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *b, teal_plant *p, teal_error *err) {
  if (!b || !p) {
    return fail(NULL, err, TEAL_EINVAL, "NULL builder or plant");
  }
  teal_system *plant = teal_plant_system(p);
  if (!plant) {
    return fail(NULL, err, TEAL_ESTATE, "finalize the plant first");
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
  teal_builder_add(b, plant);
  teal_builder_add(b, sgs);
  teal_builder_connect(b, teal_system_output_port(plant, p->sys.out_geometry_pose),
                       teal_system_input_port(sgs, teal_scene_graph_source_pose_port(sg, 0)));
  teal_builder_connect(b, teal_system_output_port(sgs, teal_scene_graph_query_output_port(sg)),
                       teal_system_input_port(plant, p->sys.in_query));
  const teal_error *be = teal_builder_error(b);
  if (be->code != TEAL_OK) {
    teal_error_set(err, be->code, "add_plant_and_scene_graph: %s", be->message);
    return NULL;
  }
  return sg;
}
