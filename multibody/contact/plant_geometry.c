/* Geometry registration on plant bodies (see plant_geometry.h). */
#include "multibody/contact/plant_geometry.h"

#include <math.h>

#include "framework/alloc.h"
#include "multibody/tree/plant_internal.h"

/* Names are unique per (body, role): the record's instance field holds
 * that key so the generic name lookup can check it. */
static int name_key(int body, teal_geometry_role role) {
  return body * 4 + (int)role;
}

static int check_props(teal_plant *p, const char *name, const teal_proximity_properties *pp) {
  if (!teal_proximity_properties_valid(pp)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: collision geometry '%s' needs Coulomb friction with static >= "
                           "dynamic >= 0, stiffness > 0 and dissipation >= 0 (or NaN for the "
                           "defaults)%s",
                           name, NULL);
  }
  return TEAL_OK;
}

/* 1 when the shape is valid and every number it holds is finite (the
 * shape check does not look at every vertex of a hand-filled convex). */
static int shape_ok(const teal_shape *shape) {
  if (!teal_shape_is_valid(shape)) {
    return 0;
  }
  for (int i = 0; shape->kind == TEAL_SHAPE_CONVEX && i < shape->num_vertices; i++) {
    if (!teal_vec3_is_finite(shape->vertices[i])) {
      return 0;
    }
  }
  return 1;
}

/* X_BG must be finite (TEAL_ENONFINITE) and its R a proper rotation,
 * orthonormal to 1e-9 (as the plant's frames) with determinant +1. */
static int check_pose(teal_plant *p, const char *name, teal_transform X_BG) {
  int finite = teal_vec3_is_finite(X_BG.p);
  for (int i = 0; i < 9; i++) {
    finite = finite && isfinite(X_BG.R.m[i]);
  }
  if (!finite) {
    return teal_plant_fail(p, TEAL_ENONFINITE,
                           "plant: geometry '%s': its pose X_BG is not "
                           "finite%s",
                           name, NULL);
  }
  if (!teal_rotation_is_orthonormal(X_BG.R, 1e-9)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: geometry '%s': X_BG.R is not a rotation (it "
                           "must be orthonormal to 1e-9 with determinant +1)%s",
                           name, NULL);
  }
  return TEAL_OK;
}

static int register_geometry(teal_plant *p, int body, teal_transform X_BG, const teal_shape *shape,
                             const char *name, teal_geometry_role role) {
  int rc = teal_plant_check_open(p, "geometry", name);
  if (rc) {
    return rc;
  }
  if (body < 0 || body >= p->bodies.n || !shape_ok(shape)) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: geometry '%s' needs a valid body and shape%s",
                           name, NULL);
  }
  if ((rc = check_pose(p, name, X_BG))) {
    return rc;
  }
  if (teal_plant_find_name(&p->geometries, sizeof(geometry_rec), name, name_key(body, role)) >= 0) {
    return teal_plant_fail(p, TEAL_EDUPLICATE,
                           "plant: geometry '%s' already exists on body '%s' in that role", name,
                           BODY(p)[body].name);
  }
  geometry_rec *g = teal_plant_list_push(&p->geometries, sizeof(geometry_rec));
  char *nm = g ? teal_strdup(name) : NULL;
  if (!nm || teal_shape_copy(&g->g.shape, shape) != TEAL_OK) {
    teal_free(nm);
    if (g) {
      p->geometries.n--;
    }
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding geometry '%s'%s", name,
                           NULL);
  }
  g->name = nm;
  g->instance = name_key(body, role);
  g->g.body = body;
  g->g.X_BG = X_BG;
  g->g.name = nm;
  g->g.role = role;
  teal_plant_list_index(&p->geometries, sizeof(geometry_rec));
  return p->geometries.n - 1;
}

int teal_plant_register_collision_geometry(teal_plant *p, int body, teal_transform X_BG,
                                           const teal_shape *shape, const char *name,
                                           const teal_proximity_properties *props) {
  int rc = teal_plant_check_open(p, "geometry", name);
  if (rc == TEAL_OK && shape && shape->kind == TEAL_SHAPE_MESH) {
    rc = teal_plant_fail(p, TEAL_EINVAL,
                         "plant: mesh '%s' can only be visual geometry (no mesh collisions)%s",
                         name, NULL);
  }
  if (rc == TEAL_OK) {
    rc = check_props(p, name, props);
  }
  int i = rc ? rc : register_geometry(p, body, X_BG, shape, name, TEAL_ROLE_PROXIMITY);
  if (i >= 0) {
    GEOM(p)[i].g.proximity = *props;
  }
  return i;
}

int teal_plant_register_visual_geometry(teal_plant *p, int body, teal_transform X_BG,
                                        const teal_shape *shape, const char *name,
                                        const double rgba[4]) {
  static const double grey[4] = {0.7, 0.7, 0.7, 1.0};
  const double *c = rgba ? rgba : grey;
  for (int k = 0; k < 4 && p && p->err.code == TEAL_OK; k++) {
    if (!(c[k] >= 0.0 && c[k] <= 1.0)) {
      return teal_plant_fail(p, TEAL_EINVAL, "plant: visual geometry '%s' needs rgba in [0, 1]%s",
                             name ? name : "(null)", NULL);
    }
  }
  int i = register_geometry(p, body, X_BG, shape, name, TEAL_ROLE_ILLUSTRATION);
  if (i >= 0) {
    for (int k = 0; k < 4; k++) {
      GEOM(p)[i].g.rgba[k] = c[k];
    }
  }
  return i;
}

int teal_plant_num_geometries(const teal_plant *p) {
  return p ? p->geometries.n : 0;
}

const teal_plant_geometry *teal_plant_get_geometry(const teal_plant *p, int i) {
  return p && i >= 0 && i < p->geometries.n ? &GEOM(p)[i].g : NULL;
}
