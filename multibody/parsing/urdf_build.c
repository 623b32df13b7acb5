/* Adding a checked URDF model to the plant: bodies, frames, joints with
 * their limits and damping, geometries and actuators. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/urdf_internal.h"
#include "multibody/tree/actuator_rotor.h"
#include "multibody/contact/plant_geometry.h"

char *urdf_scoped_name(const char *instance, int on_world, const char *name,
                       const char *suffix) {
  /* pieces copied with memcpy: snprintf was a tenth of a large load */
  const char *part[4] = {on_world ? instance : "", on_world ? "::" : "", name, suffix};
  size_t len[4], n = 1;
  for (int i = 0; i < 4; i++) {
    len[i] = strlen(part[i]);
    n += len[i];
  }
  char *s = teal_alloc(n);
  for (size_t i = 0, at = 0; s && i < 4; at += len[i], i++) {
    memcpy(s + at, part[i], len[i]);
  }
  if (s) {
    s[n - 1] = '\0';
  }
  return s;
}

/* Turns a plant failure (index < 0) into the model's error at node. */
static int plant_failed(urdf_model *m, const teal_plant *plant, const urdf_node *node, int rc) {
  const teal_error *e = teal_plant_error(plant);
  return urdf_fail(m, node, rc, "%s", e->code ? e->message : teal_strerror(rc));
}

/* Adds the frame name+suffix of an element of instance entry inst, fixed
 * to parent_frame: in that instance, or on the world (on_world) in the
 * world instance with its name scoped by the instance's. */
static int add_frame(urdf_model *m, teal_plant *plant, const urdf_node *node, int on_world,
                     int inst, const char *name, const char *suffix, int parent_frame,
                     teal_transform X_PF) {
  char *s = urdf_scoped_name(urdf_instance_name(m, inst), on_world, urdf_plant_name(m, inst, name),
                             suffix);
  if (!s) {
    return urdf_fail(m, node, TEAL_ENOMEM, "out of memory");
  }
  int f = on_world ? teal_plant_add_frame(plant, s, parent_frame, X_PF)
                   : teal_plant_add_frame_in_instance(plant, s, UINST(m)[inst].plant, parent_frame,
                                                      X_PF);
  teal_free(s);
  return f >= 0 ? f : plant_failed(m, plant, node, f);
}

/* Bodies for links with mass, frames for massless ones (parents first). */
static int add_links(urdf_model *m, teal_plant *plant) {
  ULINK(m)[URDF_WORLD].body = TEAL_WORLD_BODY;
  ULINK(m)[URDF_WORLD].frame = TEAL_WORLD_FRAME;
  for (int i = 0; i < m->links.n; i++) {
    urdf_link *L = &ULINK(m)[m->link_order[i]];
    if (m->link_order[i] == URDF_WORLD) {
      continue;
    }
    if (L->massive) {
      L->body = teal_plant_add_rigid_body(plant, urdf_plant_name(m, L->inst, L->name),
                                          UINST(m)[L->inst].plant, &L->M_LLo_L);
      if (L->body < 0) {
        return plant_failed(m, plant, L->node, L->body);
      }
      L->frame = teal_plant_body_frame(plant, L->body);
      continue;
    }
    const urdf_link *O = &ULINK(m)[L->owner];
    L->body = O->body;
    L->frame = add_frame(m, plant, L->node, L->owner == URDF_WORLD, L->inst, L->name, "", O->frame,
                         L->X_OL);
    if (L->frame < 0) {
      return L->frame;
    }
  }
  return TEAL_OK;
}

static teal_joint_kind plant_kind(urdf_joint_type t) {
  switch (t) {
    case URDF_PRISMATIC:
      return TEAL_JOINT_PRISMATIC;
    case URDF_FIXED:
      return TEAL_JOINT_WELD;
    case URDF_FLOATING:
      return TEAL_JOINT_QUATERNION_FLOATING;
    case URDF_PLANAR:
      return TEAL_JOINT_PLANAR;
    case URDF_BALL:
      return TEAL_JOINT_BALL;
    case URDF_UNIVERSAL:
      return TEAL_JOINT_UNIVERSAL;
    case URDF_SCREW:
      return TEAL_JOINT_SCREW;
    default:
      return TEAL_JOINT_REVOLUTE;
  }
}

/* Damping, limits and effort limit of a plant joint. */
static int set_joint_values(teal_plant *plant, const urdf_joint *j, int pj) {
  int nv = urdf_joint_type_nv(j->type);
  double d[TEAL_JOINT_MAX_NV];
  for (int i = 0; i < nv; i++) {
    d[i] = j->damping;
  }
  int rc = j->damping > 0.0 ? teal_plant_set_joint_damping(plant, pj, d) : TEAL_OK;
  if (nv != 1 || rc) {
    return rc;
  }
  if (isfinite(j->lower) || isfinite(j->upper)) {
    rc = teal_plant_set_joint_position_limits(plant, pj, &j->lower, &j->upper);
  }
  double vlo = -j->velocity;
  if (rc == TEAL_OK && isfinite(j->velocity)) {
    rc = teal_plant_set_joint_velocity_limits(plant, pj, &vlo, &j->velocity);
  }
  if (rc == TEAL_OK && j->effort > 0.0 && isfinite(j->effort)) {
    rc = teal_plant_set_joint_effort_limits(plant, pj, &j->effort);
  }
  return rc;
}

/* The plant joint of URDF joint j (none for a fixed joint to a massless link). */
static int add_joint(urdf_model *m, teal_plant *plant, urdf_joint *j) {
  const urdf_link *P = &ULINK(m)[j->parent], *C = &ULINK(m)[j->child];
  if (j->type == URDF_FIXED && !C->massive) {
    return TEAL_OK;
  }
  teal_rotation R =
      j->type == URDF_PLANAR ? urdf_rotation_z_to(j->axis, 1e-15) : teal_rotation_identity();
  teal_transform X_PF = teal_transform_compose(j->X_PJ, teal_transform_make(R, teal_vec3_zero()));
  int F = add_frame(m, plant, j->node, P->owner == URDF_WORLD, j->inst, j->name, "_parent",
                    P->frame, X_PF);
  int M = C->frame;
  teal_transform X_CM = teal_transform_make(R, teal_vec3_zero());
  if (F >= 0 && urdf_child_frame_needed(m, j)) {
    X_CM = j->has_X_CJ ? teal_transform_compose(j->X_CJ, X_CM) : X_CM;
    M = add_frame(m, plant, j->node, 0, j->inst, j->name, "_child", C->frame, X_CM);
  }
  if (F < 0 || M < 0) {
    return m->err->code;
  }
  j->plant_joint = teal_plant_add_joint(plant, urdf_plant_name(m, j->inst, j->name),
                                        plant_kind(j->type), F, M, &j->axis, j->pitch);
  int rc = j->plant_joint < 0 ? j->plant_joint : set_joint_values(plant, j, j->plant_joint);
  return rc ? plant_failed(m, plant, j->node, rc) : TEAL_OK;
}

static int add_joints(urdf_model *m, teal_plant *plant) {
  for (int i = 0; i < m->links.n; i++) {
    int pj = ULINK(m)[m->link_order[i]].parent_joint;
    int rc = pj < 0 ? TEAL_OK : add_joint(m, plant, &UJOINT(m)[pj]);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

static int add_extra_frames(urdf_model *m, teal_plant *plant) {
  for (int i = 0; i < m->frames.n; i++) {
    const urdf_frame *f = &UFRAME(m)[i];
    const urdf_link *L = &ULINK(m)[f->link];
    int rc = add_frame(m, plant, f->node, L->owner == URDF_WORLD, f->inst, f->name, "", L->frame,
                       f->X_LF);
    if (rc < 0) {
      return rc;
    }
  }
  return TEAL_OK;
}

static int add_geometry(urdf_model *m, teal_plant *plant, const urdf_geom *g) {
  const urdf_link *L = &ULINK(m)[g->link];
  int on_world = L->owner == URDF_WORLD;
  char *name = urdf_scoped_name(urdf_instance_name(m, L->inst), on_world, g->name, "");
  if (!name) {
    return urdf_fail(m, g->node, TEAL_ENOMEM, "out of memory");
  }
  teal_transform X_BG = teal_transform_compose(L->X_OL, g->X_LG);
  int rc = g->role == TEAL_ROLE_PROXIMITY
               ? teal_plant_register_collision_geometry(plant, L->body, X_BG, &g->shape, name,
                                                        &g->props)
               : teal_plant_register_visual_geometry(plant, L->body, X_BG, &g->shape, name,
                                                     g->rgba);
  teal_free(name);
  return rc < 0 ? plant_failed(m, plant, g->node, rc) : TEAL_OK;
}

static int add_actuators(urdf_model *m, teal_plant *plant) {
  for (int i = 0; i < m->actuators.n; i++) {
    const urdf_actuator *a = &UACT(m)[i];
    if (a->joint < 0) {
      continue;
    }
    const urdf_joint *j = &UJOINT(m)[a->joint];
    int rc = teal_plant_add_joint_actuator(plant, urdf_plant_name(m, a->inst, a->name),
                                           j->plant_joint, j->effort);
    if (rc >= 0) {
      int index = rc;
      rc = teal_plant_set_actuator_default_rotor_inertia(plant, index, a->rotor_inertia);
      rc = rc ? rc : teal_plant_set_actuator_default_gear_ratio(plant, index, a->gear_ratio);
    }
    if (rc < 0) {
      return plant_failed(m, plant, a->node, rc);
    }
  }
  return TEAL_OK;
}

/* The model instances, in order (urdf_check_names made the first). */
static int add_instances(urdf_model *m, teal_plant *plant) {
  for (int k = 0; k < m->instances.n; k++) {
    UINST(m)[k].plant = teal_plant_add_model_instance(plant, UINST(m)[k].name);
    if (UINST(m)[k].plant < 0) {
      return plant_failed(m, plant, m->xml.root, UINST(m)[k].plant);
    }
  }
  return m->instances.n ? TEAL_OK : urdf_fail(m, NULL, TEAL_ESTATE, "model not checked");
}

int urdf_build(urdf_model *m, teal_plant *plant) {
  int rc = add_instances(m, plant);
  rc = rc ? rc : add_links(m, plant);
  rc = rc ? rc : add_joints(m, plant);
  rc = rc ? rc : add_extra_frames(m, plant);
  for (int g = 0; g < m->geoms.n && rc == TEAL_OK; g++) {
    rc = add_geometry(m, plant, &UGEOM(m)[g]);
  }
  rc = rc ? rc : add_actuators(m, plant);
  rc = rc ? rc : urdf_build_constraints(m, plant);
  return rc ? rc : UINST(m)[0].plant;
}
