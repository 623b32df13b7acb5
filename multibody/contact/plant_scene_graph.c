/* Wiring a plant to its scene graph (Drake's AddMultibodyPlantSceneGraph;
 * see plant_scene_graph.h): at once for a finalized plant, at its finalize
 * for a plant still being built. */
#include "framework/alloc.h"
#include "framework/diagram.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_system.h"

static teal_scene_graph *fail(teal_scene_graph *sg, teal_error *err, int code, const char *what) {
  /* a failure without a message of its own still names its code */
  teal_error_set(err, code, "add_plant_and_scene_graph: %s", *what ? what : teal_strerror(code));
  teal_scene_graph_free(sg);
  return NULL;
}

/* Registers the plant with sg and finalizes sg (the plant is no source of
 * a scene graph that failed). */
static int register_and_finalize(teal_scene_graph *sg, teal_plant *p) {
  int rc = teal_plant_sg_register(sg, p);
  if (rc == TEAL_OK && (rc = teal_scene_graph_finalize(sg)) != TEAL_OK) {
    p->sg_source1 = 0;
  }
  return rc;
}

/* The scene graph's message for a failure, or the code's description. */
static const char *sg_message(const teal_scene_graph *sg, int rc) {
  const teal_error *se = teal_scene_graph_error(sg);
  return se->code ? se->message : teal_strerror(rc);
}

/* Connects the plant's geometry poses to its source's pose input and the
 * scene graph's query to the plant, both already added to b. */
static int connect_pair(teal_builder *b, teal_plant *p, teal_scene_graph *sg) {
  teal_system *plant = teal_plant_system(p), *sgs = teal_scene_graph_system(sg);
  int pose_port = teal_scene_graph_source_pose_port(sg, teal_plant_get_source_id(p));
  teal_builder_connect(b, teal_system_output_port(plant, p->sys.out_geometry_pose),
                       teal_system_input_port(sgs, pose_port));
  teal_builder_connect(b, teal_system_output_port(sgs, teal_scene_graph_query_output_port(sg)),
                       teal_system_input_port(plant, p->sys.in_query));
  return teal_builder_error(b)->code;
}

/* ---- Drake's order: added before finalize ------------------------------------ */

/* A plant given to a builder before its finalize: the builder's pending
 * entry, resolved when the plant's finalize adds both systems. */
typedef struct plant_sg_pending {
  teal_builder *builder;
  teal_plant *plant;    /* the plant (valid while the builder lives) */
  teal_scene_graph *sg; /* owned here until its system is the builder's */
  int owns_plant;       /* until the plant's system is the builder's */
  int wired;            /* both systems added and connected */
} plant_sg_pending;

static int pending_check(void *user, teal_error *err) {
  const plant_sg_pending *pend = user;
  if (pend->wired) {
    return TEAL_OK;
  }
  const teal_error *pe = teal_plant_error(pend->plant);
  if (pe->code != TEAL_OK) {
    return teal_error_set(err, TEAL_ESTATE,
                          "the plant added by teal_add_plant_and_scene_graph failed: %s",
                          pe->message);
  }
  return teal_error_set(err, TEAL_ESTATE,
                        "the plant added by teal_add_plant_and_scene_graph was never finalized "
                        "(call teal_plant_finalize before teal_builder_build)");
}

static void pending_release(void *user) {
  plant_sg_pending *pend = user;
  if (pend->owns_plant) {
    pend->plant->sg_pending = NULL;
    teal_plant_free(pend->plant);
  }
  teal_scene_graph_free(pend->sg);
  teal_free(pend);
}

static const teal_builder_pending_ops k_pending_ops = {pending_check, pending_release};

/* Gives the open plant p to b; its finalize wires it. */
static teal_scene_graph *add_before_finalize(teal_builder *b, teal_plant *p, teal_error *err) {
  teal_scene_graph *sg = teal_scene_graph_new("scene_graph", err);
  if (!sg) {
    return NULL;
  }
  plant_sg_pending *pend = teal_calloc(1, sizeof(*pend));
  if (!pend) {
    return fail(sg, err, TEAL_ENOMEM, "out of memory");
  }
  *pend = (plant_sg_pending){b, p, sg, 1, 0};
  if (teal_builder_add_pending(b, &k_pending_ops, pend) != TEAL_OK) {
    teal_free(pend);
    return fail(sg, err, teal_builder_error(b)->code, teal_builder_error(b)->message);
  }
  p->sg_pending = pend;
  return sg;
}

/* The builder must take both systems: refuse before adding either rather
 * than leave half a pair. */
static int check_builder(teal_plant *p, teal_builder *b) {
  const teal_error *be = teal_builder_error(b);
  if (be->code != TEAL_OK) {
    return teal_plant_fail(p, be->code, "plant: finalize: its builder failed before: %s%s",
                           be->message, NULL);
  }
  teal_system *plant = teal_plant_system(p);
  const char *clash = teal_builder_find(b, teal_system_name(plant)) ? teal_system_name(plant)
                      : teal_builder_find(b, "scene_graph")         ? "scene_graph"
                                                                    : NULL;
  if (clash) {
    return teal_plant_fail(p, TEAL_EDUPLICATE,
                           "plant: finalize: its builder already holds a subsystem named '%s'%s",
                           clash, NULL);
  }
  return TEAL_OK;
}

/* Adds the finalized plant's system to b; the plant stays the pending
 * entry's if that fails (its system is then gone). */
static int add_plant_system(teal_plant *p, teal_builder *b) {
  plant_sg_pending *pend = p->sg_pending;
  p->sys.ready = 0; /* a failed add frees the system, but not the plant */
  teal_system *added = teal_builder_add(b, p->system);
  if (!added) {
    p->system = NULL;
    return teal_plant_fail(p, teal_builder_error(b)->code, "plant: finalize: %s%s",
                           teal_builder_error(b)->message, NULL);
  }
  p->sys.ready = 1;
  pend->owns_plant = 0;
  p->sg_pending = NULL;
  return TEAL_OK;
}

int teal_plant_wire_scene_graph(teal_plant *p) {
  plant_sg_pending *pend = p->sg_pending;
  teal_builder *b = pend->builder;
  teal_scene_graph *sg = pend->sg;
  int rc = check_builder(p, b);
  if (rc == TEAL_OK && (rc = register_and_finalize(sg, p)) != TEAL_OK) {
    return teal_plant_fail(p, rc, "plant: finalize: registering with its scene graph: %s%s",
                           sg_message(sg, rc), NULL);
  }
  rc = rc ? rc : add_plant_system(p, b);
  if (rc != TEAL_OK) {
    return rc;
  }
  pend->sg = NULL; /* the builder frees it from here, also on failure */
  if (!teal_builder_add(b, teal_scene_graph_system(sg)) || connect_pair(b, p, sg) != TEAL_OK) {
    return teal_plant_fail(p, teal_builder_error(b)->code, "plant: finalize: %s%s",
                           teal_builder_error(b)->message, NULL);
  }
  pend->wired = 1;
  return TEAL_OK;
}

/* ---- a finalized plant --------------------------------------------------------- */

/* The error for a plant whose finalize failed (its own error says why). */
static teal_scene_graph *failed_plant(const teal_plant *p, teal_error *err) {
  teal_error_set(err, TEAL_ESTATE,
                 "add_plant_and_scene_graph: the plant is not finalized (it failed: %s)",
                 teal_plant_error(p)->message);
  return NULL;
}

teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *b, teal_plant *p, teal_error *err) {
  if (!b || !p) {
    return fail(NULL, err, TEAL_EINVAL, !b ? "NULL builder" : "NULL plant");
  }
  if (p->sg_pending || p->sg_source1) {
    return fail(NULL, err, TEAL_ESTATE,
                "the plant is already added to a builder with a scene graph, or registered "
                "with one by hand");
  }
  teal_system *plant = teal_plant_system(p);
  if (!plant) {
    return teal_plant_error(p)->code ? failed_plant(p, err) : add_before_finalize(b, p, err);
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
  int rc = register_and_finalize(sg, p);
  if (rc) {
    return fail(sg, err, rc, sg_message(sg, rc));
  }
  if (!teal_builder_add(b, teal_scene_graph_system(sg)) || connect_pair(b, p, sg) != TEAL_OK) {
    teal_error_set(err, teal_builder_error(b)->code, "add_plant_and_scene_graph: %s",
                   teal_builder_error(b)->message);
    return NULL;
  }
  return sg;
}
