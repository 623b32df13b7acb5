/* One top-level SDFormat model as a URDF intermediate model: a model
 * instance for it and one for each nested model, links with their
 * inertias, joints (sdf_joints.c), <frame>s and each model's __model__
 * frame on the link carrying them, geometries (sdf_geometry.c), and the
 * welds of a static model. */
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

int sdf_sub(const sdf_state *s, int f) {
  const sdf_frame *F = &SFRAME(s)[f];
  return F->kind == SDF_MODEL ? F->sub : SFRAME(s)[F->scope].sub;
}

/* a + b + c in a string kept by out (NULL when out of memory, recorded) */
static const char *concat(urdf_model *out, const char *a, const char *b, const char *c) {
  size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
  char *r = teal_alloc(na + nb + nc + 1);
  if (r) {
    memcpy(r, a, na);
    memcpy(r + na, b, nb);
    memcpy(r + na + nb, c, nc + 1);
  }
  return urdf_keep(out, r);
}

/* The model instances: the top-level model's (in->name), then each nested
 * model's, named "<in->name>::<its name in the top-level model>". */
static int add_instances(sdf_state *s, sdf_instance *in) {
  urdf_model *out = &in->out;
  for (int f = in->top; f < s->frames.n; f++) {
    sdf_frame *F = &SFRAME(s)[f];
    if (F->kind != SDF_MODEL || F->top != in->top) {
      continue;
    }
    const char *local = f == in->top ? "" : sdf_local_name(s, f);
    const char *name = f == in->top ? in->name : concat(out, in->name, "::", local);
    urdf_instance *u = name ? urdf_push(out, &out->instances, sizeof(urdf_instance)) : NULL;
    if (!u) {
      return s->err->code;
    }
    *u = (urdf_instance){name, *local ? strlen(local) + 2 : 0, -1};
    SFRAME(s)[f].sub = out->instances.n - 1;
  }
  return TEAL_OK;
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
  L->inst = sdf_sub(s, f);
  in->link_frame[out->links.n - 1] = f;
  SFRAME(s)[f].ulink = out->links.n - 1;
  return sdf_convert_geometry(s, f, out->links.n - 1, out);
}

/* The plant frame for frame f (a <frame>, or a model's __model__ frame
 * then named name) on the link carrying it. */
static int add_frame(sdf_state *s, sdf_instance *in, int f, const char *name) {
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
  u->name = name;
  u->node = F->node;
  u->link_name = sdf_local_name(s, link);
  u->link = -1;
  u->X_LF = relative(s, link, f);
  u->inst = sdf_sub(s, f);
  return TEAL_OK;
}

/* Each model's frame __model__ ("inner::__model__" in the urdf_model), at
 * the model's pose on its canonical link, as Drake's parser adds it. A
 * model needs a link, its own or a nested model's, to carry it. */
static int add_model_frame(sdf_state *s, sdf_instance *in, int f) {
  const sdf_frame *M = &SFRAME(s)[f];
  if (M->body_link == SDF_WORLD) {
    return urdf_fail(M->doc, M->node, TEAL_EPARSE, "model '%.80s' has no link", M->name);
  }
  const char *name =
      f == in->top ? "__model__" : concat(&in->out, sdf_local_name(s, f), "::", "__model__");
  return name ? add_frame(s, in, f, name) : s->err->code;
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
    j->inst = ULINK(out)[l].inst;
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
  rc = rc ? rc : add_instances(s, in);
  for (int f = in->top; f < s->frames.n && rc == TEAL_OK; f++) {
    rc =
        SFRAME(s)[f].top == in->top && SFRAME(s)[f].kind == SDF_LINK ? add_link(s, in, f) : TEAL_OK;
  }
  for (int f = in->top; f < s->frames.n && rc == TEAL_OK; f++) {
    const sdf_frame *F = &SFRAME(s)[f];
    rc = F->top != in->top      ? TEAL_OK
         : F->kind == SDF_JOINT ? sdf_convert_joint(s, f, out)
         : F->kind == SDF_FRAME ? add_frame(s, in, f, sdf_local_name(s, f))
         : F->kind == SDF_MODEL ? add_model_frame(s, in, f)
                                : TEAL_OK;
  }
  if (rc == TEAL_OK && out->links.n == 1) {
    const sdf_frame *M = &SFRAME(s)[in->top];
    rc = urdf_fail(M->doc, M->node, TEAL_EPARSE, "model '%.80s' has no link", M->name);
  }
  return rc ? rc : weld_roots(s, in);
}
