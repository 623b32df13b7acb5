/* Adding a checked MJCF model to the plant: bodies (with intermediate
 * bodies for several joints in one body), joints, frames for massless
 * bodies and sites, geometries, motors, collision filters and gravity. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/forces/tendon_actuator.h"
#include "multibody/forces/tendons.h"
#include "multibody/parsing/mjcf_internal.h"
#include "multibody/plant/plant_defaults.h"
#include "multibody/tree/actuator_gain.h"
#include "multibody/tree/joint_armature.h"

/* Turns a plant failure (index < 0) into the model's error at node. */
static int plant_failed(mjcf_model *m, const teal_plant *plant, const urdf_node *node, int rc) {
  const teal_error *e = teal_plant_error(plant);
  return urdf_fail(&m->u, node, rc, "%s", e->code ? e->message : teal_strerror(rc));
}

/* Adds a frame (scoped on the world) named name+suffix; returns its index. */
static int add_frame(mjcf_model *m, teal_plant *plant, const urdf_node *node, const char *inst,
                     int body, const char *name, const char *suffix, teal_transform X_BF) {
  char *s = urdf_scoped_name(inst, body == TEAL_WORLD_BODY, name, suffix);
  if (!s) {
    return urdf_fail(&m->u, node, TEAL_ENOMEM, "out of memory");
  }
  int f = teal_plant_add_frame(plant, s, teal_plant_body_frame(plant, body), X_BF);
  teal_free(s);
  return f >= 0 ? f : plant_failed(m, plant, node, f);
}

static int add_body(mjcf_model *m, teal_plant *plant, const urdf_node *node, int inst,
                    const char *name, const char *suffix, const teal_spatial_inertia *M) {
  char *s = urdf_scoped_name("", 0, name, suffix);
  int b = s ? teal_plant_add_rigid_body(plant, s, inst, M) : TEAL_ENOMEM;
  teal_free(s);
  return b >= 0 ? b : plant_failed(m, plant, node, b);
}

static teal_joint_kind plant_kind(mjcf_joint_type t) {
  return t == MJCF_SLIDE  ? TEAL_JOINT_PRISMATIC
         : t == MJCF_BALL ? TEAL_JOINT_BALL
         : t == MJCF_FREE ? TEAL_JOINT_QUATERNION_FLOATING
                          : TEAL_JOINT_REVOLUTE;
}

/* Joint j from (parent body P, pose X_PJ0 of the moved frame before the
 * joint) to child body C: F at X_PJ0 * J(-ref) * T(pos) on P, M at T(pos) on
 * C, with J(x) the joint's motion at position x (mjcf_joint_motion): MuJoCo
 * moves a body by qpos - qpos0 from its pose in the model, so the plant's
 * joint at q has moved it by q - ref. */
static int add_joint(mjcf_model *m, teal_plant *plant, const char *inst, mjcf_joint *j, int P,
                     teal_transform X_PJ0, int C) {
  int F = TEAL_WORLD_FRAME, M = teal_plant_body_frame(plant, C);
  if (j->type != MJCF_FREE) {
    teal_transform T = teal_transform_make(teal_rotation_identity(), j->pos);
    teal_transform X_PF = teal_transform_compose(X_PJ0, mjcf_joint_motion(j, -j->ref));
    X_PF = teal_transform_compose(X_PF, T); /* = X_PJ0 T(pos) [R(-ref) or shift(-ref)] */
    F = add_frame(m, plant, j->node, inst, P, j->name, "_parent", X_PF);
    M = F < 0 ? F : add_frame(m, plant, j->node, inst, C, j->name, "_child", T);
  }
  if (F < 0 || M < 0) {
    return m->u.err->code;
  }
  j->plant_joint = teal_plant_add_joint(plant, j->name, plant_kind(j->type), F, M, &j->axis, 0.0);
  int pj = j->plant_joint, rc = pj < 0 ? pj : TEAL_OK;
  if (rc == TEAL_OK && j->type == MJCF_FREE) {
    /* MuJoCo's qpos0 of a free joint: the body's pose in the model */
    teal_quaternion qr = teal_rotation_to_quaternion(X_PJ0.R);
    double q[7] = {qr.w, qr.x, qr.y, qr.z, X_PJ0.p.v[0], X_PJ0.p.v[1], X_PJ0.p.v[2]};
    rc = teal_plant_set_joint_default_positions(plant, pj, q, 7);
  }
  if (rc == TEAL_OK && j->ref != 0.0) { /* MuJoCo's qpos0 of a hinge or slide */
    rc = teal_plant_set_joint_default_positions(plant, pj, &j->ref, 1);
  }
  double d[TEAL_JOINT_MAX_NV];
  for (int i = 0; i < TEAL_JOINT_MAX_NV; i++) {
    d[i] = j->damping;
  }
  rc = rc == TEAL_OK && j->damping > 0.0 ? teal_plant_set_joint_damping(plant, pj, d) : rc;
  /* MuJoCo adds armature to M's diagonal at every dof of the joint */
  rc = rc == TEAL_OK && j->armature > 0.0
           ? teal_plant_set_joint_default_armature(plant, pj, j->armature)
           : rc;
  if (rc == TEAL_OK && (isfinite(j->lower) || isfinite(j->upper))) {
    rc = teal_plant_set_joint_position_limits(plant, pj, &j->lower, &j->upper);
  }
  return rc ? plant_failed(m, plant, j->node, rc) : TEAL_OK;
}

/* A moving body: one plant body per joint, the last one the body itself;
 * the others carry a negligible point mass (the plant has no massless
 * bodies). A massless moving body with children gets that mass too. */
static int add_moving_body(mjcf_model *m, teal_plant *plant, int inst, const char *instance,
                           mjcf_body *B) {
  const mjcf_body *P = &MBODY(m)[B->parent];
  teal_spatial_inertia point =
      teal_spatial_inertia_make(TEAL_SPATIAL_INERTIA_MIN_MASS, teal_vec3_zero(), teal_mat3_zero());
  int parent = P->body;
  teal_transform X = teal_transform_compose(P->X_OB, B->X_PB);
  for (int k = 0; k < B->num_joints; k++) {
    mjcf_joint *j = &MJOINT(m)[B->first_joint + k];
    int last = k == B->num_joints - 1, child;
    if (last) {
      const teal_spatial_inertia *M = B->M_BBo_B.mass > 0.0 ? &B->M_BBo_B : &point;
      child = add_body(m, plant, B->node, inst, B->name, "", M);
    } else {
      char suffix[24];
      snprintf(suffix, sizeof(suffix), "_dof%d", k);
      child = add_body(m, plant, j->node, inst, B->name, suffix, &point);
    }
    int rc = child < 0 ? child : add_joint(m, plant, instance, j, parent, X, child);
    if (rc) {
      return rc;
    }
    parent = child;
    X = teal_transform_identity();
  }
  B->body = parent;
  return TEAL_OK;
}

/* A joint-less body: welded to its parent when it has mass, else a frame. */
static int add_fixed_body(mjcf_model *m, teal_plant *plant, int inst, const char *instance,
                          mjcf_body *B) {
  const mjcf_body *P = &MBODY(m)[B->parent];
  teal_transform X_OB = teal_transform_compose(P->X_OB, B->X_PB);
  if (!(B->M_BBo_B.mass > 0.0)) {
    B->body = P->body;
    B->X_OB = X_OB;
    B->frame = add_frame(m, plant, B->node, instance, P->body, B->name, "", X_OB);
    return B->frame < 0 ? B->frame : TEAL_OK;
  }
  B->body = add_body(m, plant, B->node, inst, B->name, "", &B->M_BBo_B);
  int F = B->body < 0 ? B->body
                      : add_frame(m, plant, B->node, instance, P->body, B->name, "_weld", X_OB);
  if (F < 0) {
    return F;
  }
  int j = teal_plant_add_joint(plant, B->name, TEAL_JOINT_WELD, F,
                               teal_plant_body_frame(plant, B->body), NULL, 0.0);
  return j < 0 ? plant_failed(m, plant, B->node, j) : TEAL_OK;
}

static int add_bodies(mjcf_model *m, teal_plant *plant, int inst, const char *instance) {
  MBODY(m)[MJCF_WORLD].body = TEAL_WORLD_BODY;
  MBODY(m)[MJCF_WORLD].frame = TEAL_WORLD_FRAME;
  MBODY(m)[MJCF_WORLD].X_OB = teal_transform_identity();
  for (int b = 1; b < m->bodies.n; b++) {
    mjcf_body *B = &MBODY(m)[b];
    B->X_OB = teal_transform_identity();
    int rc = B->num_joints > 0 ? add_moving_body(m, plant, inst, instance, B)
                               : add_fixed_body(m, plant, inst, instance, B);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

static int add_geometry(mjcf_model *m, teal_plant *plant, const char *instance, mjcf_geom *g) {
  const mjcf_body *B = &MBODY(m)[g->body];
  g->plant_geometry = -1;
  if (!g->has_shape) {
    return TEAL_OK;
  }
  teal_transform X = teal_transform_compose(B->X_OB, g->X_BG);
  int on_world = B->body == TEAL_WORLD_BODY, rc = TEAL_OK;
  char *name = urdf_scoped_name(instance, on_world, g->name, "");
  char *vname = urdf_scoped_name(instance, on_world, g->name, "_visual");
  if (!name || !vname) {
    rc = urdf_fail(&m->u, g->node, TEAL_ENOMEM, "out of memory");
  }
  if (rc == TEAL_OK && g->collide) {
    teal_proximity_properties props = teal_proximity_properties_make(g->friction, g->friction);
    rc = teal_plant_register_collision_geometry(plant, B->body, X, &g->shape, name, &props);
    g->plant_geometry = rc;
  }
  if (rc >= 0 && g->shape.kind != TEAL_SHAPE_HALF_SPACE) {
    const teal_shape *visual = g->has_visual ? &g->visual : &g->shape;
    rc = teal_plant_register_visual_geometry(plant, B->body, X, visual, vname, g->rgba);
  }
  teal_free(name);
  teal_free(vname);
  return rc < 0 ? plant_failed(m, plant, g->node, rc) : TEAL_OK;
}

static int add_sites_and_geoms(mjcf_model *m, teal_plant *plant, const char *instance) {
  for (int i = 0; i < m->sites.n; i++) {
    mjcf_site *s = &MSITE(m)[i];
    const mjcf_body *B = &MBODY(m)[s->body];
    s->frame = add_frame(m, plant, s->node, instance, B->body, s->name, "",
                         teal_transform_compose(B->X_OB, s->X_BS));
    if (s->frame < 0) {
      return s->frame;
    }
  }
  for (int i = 0; i < m->geoms.n; i++) {
    int rc = add_geometry(m, plant, instance, &MGEOM(m)[i]);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

/* A motor on a fixed tendon: the plant's tendon of the same name. */
static int add_tendon_motor(mjcf_model *m, teal_plant *plant, int inst, const mjcf_motor *a) {
  char buf[32];
  const char *name = mjcf_tendon_name(m, a->tendon, buf, sizeof(buf));
  int t = teal_plant_find_tendon(plant, name, inst);
  return t < 0 ? t : teal_plant_add_tendon_actuator(plant, a->name, t, a->limit);
}

static int add_motors_and_filters(mjcf_model *m, teal_plant *plant, int inst) {
  for (int i = 0; i < m->motors.n; i++) {
    const mjcf_motor *a = &MMOTOR(m)[i];
    if (a->skip) {
      continue;
    }
    int rc = a->joint >= 0 ? teal_plant_add_joint_actuator(
                                 plant, a->name, MJOINT(m)[a->joint].plant_joint, a->limit)
                           : add_tendon_motor(m, plant, inst, a);
    int gain_rc = rc >= 0 ? teal_plant_set_actuator_input_gain(plant, rc, a->gear) : TEAL_OK;
    rc = gain_rc < 0 ? gain_rc : rc;
    if (rc < 0) {
      return plant_failed(m, plant, a->node, rc);
    }
  }
  for (int i = 0; i < m->excludes.n; i++) {
    const mjcf_exclude *e = &MEXCL(m)[i];
    int b1 = urdf_index_find(&m->body_index, &m->bodies, sizeof(mjcf_body), e->body1);
    int b2 = urdf_index_find(&m->body_index, &m->bodies, sizeof(mjcf_body), e->body2);
    int rc =
        teal_plant_exclude_collisions_between_bodies(plant, MBODY(m)[b1].body, MBODY(m)[b2].body);
    if (rc < 0) {
      return plant_failed(m, plant, e->node, rc);
    }
  }
  return m->has_gravity ? teal_plant_set_gravity(plant, m->gravity) : TEAL_OK;
}

int mjcf_build(mjcf_model *m, teal_plant *plant, const char *instance) {
  int inst = teal_plant_add_model_instance(plant, instance);
  if (inst < 0) {
    return plant_failed(m, plant, m->u.xml.root, inst);
  }
  int rc = add_bodies(m, plant, inst, instance);
  rc = rc ? rc : add_sites_and_geoms(m, plant, instance);
  rc = rc ? rc : mjcf_build_collision_filters(m, plant);
  rc = rc ? rc : mjcf_build_tendons(m, plant, inst);
  rc = rc ? rc : add_motors_and_filters(m, plant, inst);
  rc = rc ? rc : mjcf_build_equalities(m, plant);
  return rc ? rc : inst;
}
