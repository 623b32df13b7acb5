/* SDFormat frame semantics (1.7): references between frames resolved in
 * their scope, default relative_to and attached_to frames, world poses and
 * the link carrying each frame, with cycles reported. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/sdf_internal.h"

int sdf_lookup(sdf_state *s, int scope, const char *ref, urdf_model *doc, urdf_node *node,
               const char *what) {
  if (strcmp(ref, "__model__") == 0) {
    return scope;
  }
  if (strcmp(ref, "world") == 0) {
    return SDF_WORLD;
  }
  const char *prefix = scope == SDF_WORLD ? "" : SFRAME(s)[scope].name;
  size_t np = strlen(prefix), nr = strlen(ref);
  char *full = teal_alloc(np + nr + 3);
  if (!full) {
    urdf_fail(doc, node, TEAL_ENOMEM, "out of memory");
    return -1;
  }
  memcpy(full, prefix, np);
  memcpy(full + np, "::", np ? 2 : 0);
  memcpy(full + np + (np ? 2 : 0), ref, nr + 1);
  int f = urdf_index_find(&s->index, &s->frames, sizeof(sdf_frame), full);
  teal_free(full);
  if (f < 0) {
    urdf_fail(doc, node, TEAL_ENOTFOUND, "%s frame '%.80s' not found", what, ref);
  }
  return f;
}

/* The model's canonical link: canonical_link, else its first link, else
 * the canonical link of its first nested model (the world when none). */
static int canonical_frame(sdf_state *s, int model) {
  const sdf_frame *M = &SFRAME(s)[model];
  if (M->canonical) {
    return sdf_lookup(s, model, M->canonical, M->doc, M->node, "canonical_link");
  }
  int nested = -1;
  for (int f = model + 1; f < s->frames.n; f++) {
    const sdf_frame *F = &SFRAME(s)[f];
    if (F->scope == model && F->kind == SDF_LINK) {
      return f;
    }
    nested = nested < 0 && F->scope == model && F->kind == SDF_MODEL ? f : nested;
  }
  return nested >= 0 ? nested : SDF_WORLD;
}

/* The frame that carries frame f (attached): a <frame>'s attached_to (its
 * model by default), a joint's child link, a model's canonical link, a
 * link itself. -1 when the reference is unknown (recorded). */
static int attached_frame(sdf_state *s, int f) {
  const sdf_frame *F = &SFRAME(s)[f];
  switch (F->kind) {
    case SDF_FRAME:
      return F->attached_to
                 ? sdf_lookup(s, F->scope, F->attached_to, F->doc, F->node, "attached_to")
                 : F->scope;
    case SDF_JOINT:
      return sdf_lookup(s, F->scope, F->child, F->doc, F->node, "child");
    case SDF_MODEL:
      return canonical_frame(s, f);
    default:
      return f;
  }
}

/* The frames frame f's pose is relative to (rel) and that carries it
 * (attached). A pose without relative_to is relative to the enclosing
 * model for links and models, to the carrying frame for the others. */
static int link_references(sdf_state *s, int f) {
  int attached = attached_frame(s, f);
  sdf_frame *F = &SFRAME(s)[f];
  urdf_node *at = F->pose ? F->pose : F->node;
  urdf_model *doc = F->pose ? F->pose_doc : F->doc;
  int rel = attached < 0     ? -1
            : F->relative_to ? sdf_lookup(s, F->scope, F->relative_to, doc, at, "relative_to")
            : F->kind == SDF_LINK || F->kind == SDF_MODEL ? F->scope
                                                          : attached;
  F = &SFRAME(s)[f];
  F->attached = attached;
  F->rel = rel;
  if (rel == f) {
    return urdf_fail(doc, at, TEAL_EINVAL, "frame '%.80s' is relative to itself", F->name);
  }
  return rel < 0 ? s->err->code : TEAL_OK;
}

/* Settles frame f once the frame it follows is settled. */
static int settle(sdf_state *s, int f, int attach) {
  sdf_frame *F = &SFRAME(s)[f];
  if (attach) {
    F->body_link = F->kind == SDF_LINK ? f : SFRAME(s)[F->attached].body_link;
    return TEAL_OK;
  }
  F->X_WF = teal_transform_compose(SFRAME(s)[F->rel].X_WF, F->X_RF);
  int finite = teal_vec3_is_finite(F->X_WF.p);
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(F->X_WF.R.m[i]);
  }
  return finite ? TEAL_OK
                : urdf_fail(F->doc, F->node, TEAL_ENONFINITE, "pose of '%.80s' overflows", F->name);
}

/* Follows rel (attach = 0) or attached (attach = 1) from start to a settled
 * frame, then settles the path backwards; a frame met twice is a cycle. */
static int follow(sdf_state *s, int start, int attach, int *path) {
  int n = 0, f = start;
  while (SFRAME(s)[f].state != 2) {
    sdf_frame *F = &SFRAME(s)[f];
    if (F->state == 1) {
      return urdf_fail(F->doc, F->node, TEAL_EINVAL, "cycle of %s through frame '%.80s'",
                       attach ? "attached_to (or canonical link)" : "relative_to poses", F->name);
    }
    F->state = 1;
    path[n++] = f;
    f = attach ? F->attached : F->rel;
  }
  for (int k = n - 1; k >= 0; k--) {
    int rc = settle(s, path[k], attach);
    SFRAME(s)[path[k]].state = 2;
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

/* Settles every frame along rel or attached. */
static int follow_all(sdf_state *s, int attach, int *path) {
  for (int f = 0; f < s->frames.n; f++) {
    sdf_frame *F = &SFRAME(s)[f];
    F->state = f == SDF_WORLD || (attach && F->kind == SDF_LINK) ? 2 : 0;
    if (F->state == 2) {
      F->body_link = attach ? f : F->body_link;
    }
  }
  int rc = TEAL_OK;
  for (int f = 1; f < s->frames.n && rc == TEAL_OK; f++) {
    rc = follow(s, f, attach, path);
  }
  return rc;
}

int sdf_resolve_frames(sdf_state *s) {
  int rc = urdf_index_names(s->main, &s->frames, sizeof(sdf_frame), &s->index, "frame");
  for (int f = 1; f < s->frames.n && rc == TEAL_OK; f++) {
    rc = link_references(s, f);
  }
  int *path = rc ? NULL : teal_alloc((size_t)s->frames.n * sizeof(int));
  if (rc == TEAL_OK && !path) {
    rc = urdf_fail(s->main, NULL, TEAL_ENOMEM, "out of memory");
  }
  rc = rc ? rc : follow_all(s, 0, path);
  rc = rc ? rc : follow_all(s, 1, path);
  teal_free(path);
  return rc;
}
