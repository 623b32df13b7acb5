/* Hydroelastic contact: the model setting, the soft meshes made at
 * finalize, the pairs it handles and their forces (see hydroelastic.h). */
#include "multibody/contact/hydroelastic.h"

#include <math.h>

#include "framework/alloc.h"
#include "geometry/hydroelastic/soft_half_space.h"
#include "multibody/contact/contact_internal.h"

static const char *model_name(int model) {
  static const char *const kNames[] = {"point", "hydroelastic", "hydroelastic with fallback"};
  return model >= 0 && model <= 2 ? kNames[model] : "unknown";
}

int teal_plant_set_contact_model(teal_plant *p, teal_contact_model model) {
  int rc = teal_plant_check_open(p, "the contact model", model_name((int)model));
  if (rc) {
    return rc;
  }
  if ((int)model < 0 || (int)model > 2) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: unknown contact model %s%s",
                           "(not point, hydroelastic or hydroelastic with fallback)", NULL);
  }
  p->contact_model = (int)model;
  return TEAL_OK;
}

teal_contact_model teal_plant_get_contact_model(const teal_plant *p) {
  return p ? (teal_contact_model)p->contact_model : TEAL_CONTACT_MODEL_POINT;
}

int teal_plant_set_contact_surface_representation(teal_plant *p,
                                                  teal_contact_surface_representation rep) {
  int rc = teal_plant_check_open(p, "the contact surface representation", "");
  if (rc == TEAL_OK && rep != TEAL_CONTACT_SURFACE_POLYGONS &&
      rep != TEAL_CONTACT_SURFACE_TRIANGLES) {
    rc = teal_plant_fail(p, TEAL_EINVAL, "plant: unknown contact surface representation %s%s",
                         "(not polygons or triangles)", NULL);
  }
  if (rc == TEAL_OK) {
    p->surface_polygons = rep == TEAL_CONTACT_SURFACE_POLYGONS;
  }
  return rc;
}

teal_contact_surface_representation teal_plant_get_contact_surface_representation(
    const teal_plant *p) {
  return p && p->surface_polygons ? TEAL_CONTACT_SURFACE_POLYGONS : TEAL_CONTACT_SURFACE_TRIANGLES;
}

/* ---- finalize: the soft meshes ------------------------------------------------------ */

static teal_volume_mesh *soft_mesh_of(const teal_plant_geometry *g, teal_error *err) {
  const teal_proximity_properties *pp = &g->proximity;
  double hint = pp->resolution_hint;
  if (g->shape.kind == TEAL_SHAPE_SPHERE) {
    return teal_volume_mesh_soft_sphere(g->shape.radius, pp->hydroelastic_modulus,
                                        hint > 0.0 ? hint : g->shape.radius / 8.0, err);
  }
  if (g->shape.kind == TEAL_SHAPE_BOX) {
    return teal_volume_mesh_soft_box(g->shape.size, pp->hydroelastic_modulus, hint, err);
  }
  teal_error_set(err, TEAL_EUNSUPPORTED, "a soft %s is not supported (spheres and boxes are)",
                 teal_shape_kind_name(g->shape.kind));
  return NULL;
}

int teal_plant_hydro_finalize(teal_plant *p) {
  if (p->contact_model == TEAL_CONTACT_MODEL_POINT || p->geometries.n == 0) {
    return TEAL_OK;
  }
  p->soft_mesh = teal_calloc((size_t)p->geometries.n, sizeof(*p->soft_mesh));
  if (!p->soft_mesh) {
    return teal_error_set_sticky(&p->err, TEAL_ENOMEM, "plant: out of memory for soft meshes");
  }
  for (int i = 0; i < p->geometries.n; i++) {
    const teal_plant_geometry *g = &GEOM(p)[i].g;
    if (g->role != TEAL_ROLE_PROXIMITY || g->proximity.compliance != TEAL_HYDROELASTIC_SOFT) {
      continue;
    }
    teal_error why = {0};
    p->soft_mesh[i] = soft_mesh_of(g, &why);
    int fallback = why.code == TEAL_EUNSUPPORTED &&
                   p->contact_model == TEAL_CONTACT_MODEL_HYDROELASTIC_WITH_FALLBACK;
    if (!p->soft_mesh[i] && !fallback) {
      return teal_error_set_sticky(&p->err, why.code, "plant: finalize: soft geometry '%s': %s",
                                   g->name, why.message);
    }
  }
  return TEAL_OK;
}

/* ---- pairs ------------------------------------------------------------------------------ */

int teal_plant_hydro_pair(const teal_plant *p, const teal_context *ctx, int ga, int gb, int *soft,
                          int *rigid) {
  if (p->contact_model == TEAL_CONTACT_MODEL_POINT) {
    return 0;
  }
  for (int k = 0; k < 2; k++) {
    int s = k ? gb : ga, r = k ? ga : gb;
    const teal_plant_geometry *gr = &GEOM(p)[r].g;
    if (p->soft_mesh[s] && gr->proximity.compliance == TEAL_HYDROELASTIC_RIGID &&
        gr->shape.kind == TEAL_SHAPE_HALF_SPACE) {
      *soft = s;
      *rigid = r;
      return 1;
    }
  }
  if (p->contact_model == TEAL_CONTACT_MODEL_HYDROELASTIC_WITH_FALLBACK) {
    return 0;
  }
  return teal_context_report_error(
      ctx, TEAL_EUNSUPPORTED,
      "plant: hydroelastic contact between geometries '%s' and '%s' is not supported (only a "
      "soft sphere or box against a rigid half-space is; use the hydroelastic with fallback "
      "model for point contact on the other pairs)",
      GEOM(p)[ga].g.name, GEOM(p)[gb].g.name);
}
