/* One top-level SDFormat model as a URDF intermediate model: links with
 * their inertias, joints (sdf_joints.c), <frame>s on the link carrying
 * them, geometries (sdf_geometry.c), and the welds of a static model. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/sdf_internal.h"

const char *sdf_local_name(const sdf_state *s, int f) {
  const sdf_frame *F = &SFRAME(s)[f];
  if (f == SDF_WORLD) {
    return "world";
  }
  return F->name + strlen(SFRAME(s)[F->top].name) + 2;
}

/* X_AB from the world poses of A and B. */
static teal_transform relative(const sdf_state *s, int a, int b) {
  return teal_transform_compose(teal_transform_inverse(SFRAME(s)[a].X_WF), SFRAME(s)[b].X_WF);
}

static int add_link(sdf_state *s, sdf_instance *in, int f) {
  urdf_model *out = &in->out;
  const sdf_frame *F = &SFRAME(s)[f];
  urdf_link *L = urdf_push(out, &out->links, sizeof(urdf_link));
  if (!L) {
    return s->err->code;
  }
  L->name = sdf_local_name(s, f);
  L->node = F->node;
  L->massive = F->massive;
  L->M_LLo_L = F->M_LLo_L;
  L->parent_joint = L->first_child = L->owner = -1;
  L->X_OL = teal_transform_identity();
  L->body = L->frame = -1;
  in->link_frame[out->links.n - 1] = f;
  return sdf_convert_geometry(s, f, out->links.n - 1, out);
}

static int add_frame(sdf_state *s, sdf_instance *in, int f) {
  const sdf_frame *F = &SFRAME(s)[f];
  int link = F->body_link;
  if (link != SDF_WORLD && SFRAME(s)[link].top != in->top) {
    return urdf_fail(F->doc, F->node, TEAL_EINVAL,
                     "frame '%.80s' is attached to link '%.80s' of another model", F->name,
                     SFRAME(s)[link].name);
  }
  urdf_frame *u = urdf_push(&in->out, &in->out.frames, sizeof(urdf_frame));
  if (!u) {
    return s->err->code;
  }
  u->name = sdf_local_name(s, f);
  u->node = F->node;
  u->link_name = sdf_local_name(s, link);
  u->link = -1;
  u->X_LF = relative(s, link, f);
  return TEAL_OK;
}

/* 1 if some joint of out has link l's name as its child. */
static int has_parent_joint(const urdf_model *out, const char *name) {
  for (int j = 0; j < out->joints.n; j++) {
    if (strcmp(UJOINT(out)[j].child_name, name) == 0) {
      return 1;
    }
  }
  return 0;
}

/* Root links are welded to the world where they are: those of static
 * models, and massless ones (the plant has no massless bodies). */
static int weld_roots(sdf_state *s, sdf_instance *in) {
  urdf_model *out = &in->out;
  int links = out->links.n;
  for (int l = 1; l < links; l++) {
    const urdf_link *L = &ULINK(out)[l];
    /* a link is static when its model is (a nested model inherits <static>) */
    int is_static = SFRAME(s)[SFRAME(s)[in->link_frame[l]].scope].is_static;
    if ((!is_static && L->massive) || has_parent_joint(out, L->name)) {
      continue;
    }
    size_t n = strlen(L->name);
    char *name = teal_alloc(n + 13);
    if (name) {
      memcpy(name, L->name, n);
      memcpy(name + n, "_static_weld", 13);
    }
    const char *kept = urdf_keep(out, name);
    urdf_joint *j = kept ? urdf_push(out, &out->joints, sizeof(urdf_joint)) : NULL;
    if (!j) {
      return s->err->code;
    }
    j->name = kept;
    j->node = ULINK(out)[l].node;
    j->type = URDF_FIXED;
    j->parent_name = "world";
    j->child_name = ULINK(out)[l].name;
    j->parent = j->child = j->next_sibling = j->plant_joint = -1;
    j->X_PJ = SFRAME(s)[in->link_frame[l]].X_WF;
    j->axis = teal_vec3_make(1, 0, 0);
    j->lower = -INFINITY;
    j->upper = j->effort = j->velocity = INFINITY;
  }
  return TEAL_OK;
}

int sdf_convert_model(sdf_state *s, sdf_instance *in) {
  urdf_model *out = &in->out;
  out->source = s->main->source;
  out->dir = s->main->dir;
  out->err = s->err;
  out->report = &s->ureport;
  in->link_frame = teal_calloc((size_t)s->frames.n + 1, sizeof(int));
  if (!in->link_frame) {
    return urdf_fail(s->main, NULL, TEAL_ENOMEM, "out of memory");
  }
  int rc = urdf_add_world(out);
  for (int f = in->top; f < s->frames.n && rc == TEAL_OK; f++) {
    rc =
        SFRAME(s)[f].top == in->top && SFRAME(s)[f].kind == SDF_LINK ? add_link(s, in, f) : TEAL_OK;
  }
  for (int f = in->top; f < s->frames.n && rc == TEAL_OK; f++) {
    const sdf_frame *F = &SFRAME(s)[f];
    rc = F->top != in->top      ? TEAL_OK
         : F->kind == SDF_JOINT ? sdf_convert_joint(s, f, out)
         : F->kind == SDF_FRAME ? add_frame(s, in, f)
                                : TEAL_OK;
  }
  if (rc == TEAL_OK && out->links.n == 1) {
    const sdf_frame *M = &SFRAME(s)[in->top];
    rc = urdf_fail(M->doc, M->node, TEAL_EPARSE, "model '%.80s' has no link", M->name);
  }
  return rc ? rc : weld_roots(s, in);
}
