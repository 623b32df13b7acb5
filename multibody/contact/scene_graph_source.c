/* The plant as a source of a scene graph (Drake's
 * RegisterAsSourceForSceneGraph; see scene_graph_source.h): its frames,
 * geometries and collision filters, and the two offsets that map its body
 * and geometry indices to the scene graph's ids. */
#include "multibody/contact/scene_graph_source.h"

#include "framework/alloc.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/joints.h"

/* Excludes the frames of bodies a and b. */
static int exclude_bodies(teal_scene_graph *sg, const teal_plant *p, int a, int b) {
  return teal_scene_graph_exclude_frame_pair(sg, p->sg_frame0 + a, p->sg_frame0 + b);
}

/* Bodies joined by a joint (other than a floating one or a weld) whose
 * parent is not the world. */
static int exclude_jointed_pairs(teal_scene_graph *sg, const teal_plant *p) {
  int rc = TEAL_OK;
  for (int b = 1; rc == TEAL_OK && b < p->bodies.n; b++) {
    int j = BODY(p)[b].inboard;
    /* an rpy floating joint is floating too (teal_joint_quaternion_kind) */
    if (j < 0 || teal_joint_quaternion_kind(JOINT(p)[j].kind) == TEAL_JOINT_QUATERNION_FLOATING ||
        JOINT(p)[j].kind == TEAL_JOINT_WELD) {
      continue;
    }
    int parent = FRAME(p)[JOINT(p)[j].parent_frame].body;
    if (parent != 0) {
      rc = exclude_bodies(sg, p, parent, b);
    }
  }
  return rc;
}

/* Every pair within one welded group (teal_plant_weld_groups; the world's
 * group holds everything welded to the world). The bodies are sorted by
 * group first (a counting sort on the root), so the cost is the number of
 * bodies plus the pairs excluded, not the square of the number of bodies. */
static int exclude_welded_pairs(teal_scene_graph *sg, const teal_plant *p) {
  int nb = p->bodies.n;
  int *root = teal_calloc(3 * (size_t)nb + 1, sizeof(int));
  if (!root) {
    return TEAL_ENOMEM;
  }
  int *start = root + nb, *order = start + nb + 1; /* start[r]: first slot of group r */
  teal_plant_weld_groups(p, root);
  for (int b = 0; b < nb; b++) {
    start[root[b] + 1]++;
  }
  for (int r = 0; r < nb; r++) {
    start[r + 1] += start[r];
  }
  for (int b = 0; b < nb; b++) {
    order[start[root[b]]++] = b; /* ascending within each group */
  }
  int rc = TEAL_OK;
  for (int i = 0; rc == TEAL_OK && i < nb; i++) {
    for (int k = i + 1; rc == TEAL_OK && k < nb && root[order[k]] == root[order[i]]; k++) {
      rc = exclude_bodies(sg, p, order[i], order[k]);
    }
  }
  teal_free(root);
  return rc;
}

/* Drake's default filters: jointed pairs and welded groups. */
static int exclude_default_pairs(teal_scene_graph *sg, const teal_plant *p) {
  int rc = exclude_jointed_pairs(sg, p);
  return rc ? rc : exclude_welded_pairs(sg, p);
}

/* The exclusions declared through the plant (plant_geometry.h). */
static int exclude_declared_pairs(teal_scene_graph *sg, const teal_plant *p) {
  const filter_pair_rec *f = p->filter_pairs.data;
  int rc = TEAL_OK;
  for (int i = 0; rc == TEAL_OK && i < p->filter_pairs.n; i++) {
    rc = f[i].geometries ? teal_scene_graph_exclude_geometry_pair(sg, p->sg_geometry0 + f[i].a,
                                                                  p->sg_geometry0 + f[i].b)
                         : exclude_bodies(sg, p, f[i].a, f[i].b);
  }
  return rc;
}

/* A frame per body in body order (so the plant's geometry_pose list, by
 * body index, is the source's pose list) and the geometries in index order.
 * Each run of ids is contiguous: the maps are two offsets. */
static int register_frames_and_geometries(teal_scene_graph *sg, teal_plant *p, int src) {
  for (int b = 0; b < p->bodies.n; b++) {
    int f = teal_scene_graph_register_frame(sg, src, BODY(p)[b].name);
    if (f < 0 || (b > 0 && f != p->sg_frame0 + b)) {
      return f < 0 ? f : TEAL_ESTATE; /* ids out of sequence: the scene graph renumbered */
    }
    p->sg_frame0 = b == 0 ? f : p->sg_frame0;
  }
  p->sg_geometry0 = teal_scene_graph_num_geometries(sg);
  for (int i = 0; i < p->geometries.n; i++) {
    const teal_plant_geometry *g = &GEOM(p)[i].g;
    int id = teal_scene_graph_register_geometry(sg, p->sg_frame0 + g->body, g->X_BG, &g->shape,
                                                g->name, g->role, &g->proximity, g->rgba);
    if (id != p->sg_geometry0 + i) {
      return id < 0 ? id : TEAL_ESTATE;
    }
  }
  return TEAL_OK;
}

int teal_plant_sg_register(teal_scene_graph *sg, teal_plant *p) {
  int src = teal_scene_graph_register_source(sg, "plant");
  int rc = src < 0 ? src : register_frames_and_geometries(sg, p, src);
  rc = rc ? rc : exclude_default_pairs(sg, p);
  rc = rc ? rc : exclude_declared_pairs(sg, p);
  if (rc != TEAL_OK) {
    p->sg_frame0 = p->sg_geometry0 = 0;
    return rc;
  }
  p->sg_source1 = 1 + src;
  return TEAL_OK;
}

/* Why p cannot register now, or NULL. */
static const char *not_registrable(const teal_plant *p, const teal_scene_graph *sg) {
  /* a call refused after finalize (a bad setting) leaves the model usable:
   * only a failure while building the model makes it unregistrable */
  if (!p->finalized && p->err.code != TEAL_OK) {
    return "the plant failed before";
  }
  if (p->sg_source1 || p->sg_pending) {
    return "the plant is already a source of a scene graph (or given to a builder by "
           "teal_add_plant_and_scene_graph, which registers it at its finalize)";
  }
  if (!p->finalized) {
    return "the plant is not finalized (its geometries are registered in one go: call "
           "teal_plant_finalize first)";
  }
  if (teal_scene_graph_system((teal_scene_graph *)sg)) {
    return "the scene graph is finalized (register sources before teal_scene_graph_finalize)";
  }
  return NULL;
}

int teal_plant_register_as_source_for_scene_graph(teal_plant *p, teal_scene_graph *sg,
                                                  teal_error *err) {
  static const char fn[] = "teal_plant_register_as_source_for_scene_graph";
  if (!p || !sg) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, !p ? "plant" : "scene graph");
  }
  const char *why = not_registrable(p, sg);
  if (why) {
    int failed = !p->finalized && p->err.code;
    return teal_error_set(err, TEAL_ESTATE, "%s: %s%s%s", fn, why, failed ? ": " : "",
                          failed ? p->err.message : "");
  }
  int rc = teal_plant_sg_register(sg, p);
  if (rc != TEAL_OK) {
    const teal_error *se = teal_scene_graph_error(sg);
    return teal_error_set(err, rc, "%s: %s", fn, se->code ? se->message : teal_strerror(rc));
  }
  return teal_plant_get_source_id(p);
}

int teal_plant_get_geometry_id(const teal_plant *p, int g) {
  int ok = p && p->sg_source1 > 0 && g >= 0 && g < p->geometries.n;
  return ok ? p->sg_geometry0 + g : -1;
}

int teal_plant_get_geometry_from_id(const teal_plant *p, int id) {
  if (!p || p->sg_source1 <= 0 || id < p->sg_geometry0) {
    return -1;
  }
  int g = id - p->sg_geometry0;
  return g < p->geometries.n ? g : -1;
}
