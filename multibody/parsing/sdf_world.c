/* The <frame>s of a <world> as plant frames of the world model instance
 * (as Drake's parser adds them), on the body of the frame each is attached
 * to: checked against the plant before anything is built, added after the
 * models. */
#include <math.h>
#include <string.h>

#include "multibody/parsing/sdf_internal.h"

/* 1 for a frame declared in the <world> itself. */
static int is_world_frame(const sdf_state *s, int f) {
  return SFRAME(s)[f].kind == SDF_FRAME && SFRAME(s)[f].scope == SDF_WORLD;
}

/* X_LF: frame f's pose in the link frame carrying it. */
static teal_transform pose_on_link(const sdf_state *s, int f) {
  const sdf_frame *F = &SFRAME(s)[f];
  return teal_transform_compose(teal_transform_inverse(SFRAME(s)[F->body_link].X_WF), F->X_WF);
}

static int is_finite(teal_transform X) {
  int ok = teal_vec3_is_finite(X.p);
  for (int i = 0; i < 9; i++) {
    ok = ok && isfinite(X.R.m[i]);
  }
  return ok;
}

int sdf_check_world_frames(sdf_state *s, const teal_plant *plant) {
  for (int f = 1; f < s->frames.n; f++) {
    const sdf_frame *F = &SFRAME(s)[f];
    if (!is_world_frame(s, f)) {
      continue;
    }
    if (teal_plant_get_frame_by_name(plant, F->name, TEAL_WORLD_MODEL_INSTANCE, NULL) >= 0) {
      return urdf_fail(F->doc, F->node, TEAL_EDUPLICATE,
                       "frame '%.80s' already exists in the plant's world model instance", F->name);
    }
    if (!is_finite(pose_on_link(s, f))) {
      return urdf_fail(F->doc, F->node, TEAL_ENONFINITE, "pose of '%.80s' overflows", F->name);
    }
  }
  return TEAL_OK;
}

/* The plant frame of link frame `link` (the world frame for the world). */
static int link_plant_frame(const sdf_state *s, int link, const sdf_instance *inst, int n) {
  if (link == SDF_WORLD) {
    return TEAL_WORLD_FRAME;
  }
  const sdf_frame *L = &SFRAME(s)[link];
  for (int i = 0; i < n; i++) {
    if (inst[i].top == L->top) {
      return ULINK(&inst[i].out)[L->ulink].frame;
    }
  }
  return -1;
}

int sdf_build_world_frames(sdf_state *s, teal_plant *plant, const sdf_instance *inst, int n) {
  for (int f = 1; f < s->frames.n; f++) {
    const sdf_frame *F = &SFRAME(s)[f];
    if (!is_world_frame(s, f)) {
      continue;
    }
    int parent = link_plant_frame(s, F->body_link, inst, n);
    int rc = teal_plant_add_frame_in_instance(plant, F->name, TEAL_WORLD_MODEL_INSTANCE, parent,
                                              pose_on_link(s, f));
    if (rc < 0) {
      return urdf_fail(F->doc, F->node, rc, "%s", teal_plant_error(plant)->message);
    }
  }
  return TEAL_OK;
}
