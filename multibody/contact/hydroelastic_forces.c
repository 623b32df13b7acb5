/* Hydroelastic contact forces: the surface of one soft-rigid pair and the
 * Hunt-Crossley pressure and Stribeck friction on its faces (see
 * hydroelastic.h). */
#include <math.h>

#include "geometry/hydroelastic/soft_half_space.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/contact/hydroelastic.h"

static double harmonic(double a, double b) {
  return a + b > 0.0 ? 2.0 * a * b / (a + b) : 0.0;
}

/* Room for the surfaces of mesh m: twice the largest of its cuts by planes
 * in a few directions, through its centre and near its ends (a box lying
 * flat cuts a whole face layer), at most the worst case. A surface that
 * needs more grows in the step (the plant's warning counter counts it). */
static void estimate_room(const teal_volume_mesh *m, teal_contact_surface_representation rep,
                          teal_contact_surface *scratch, int *faces, int *verts) {
  static const double kRpy[7][2] = {{0, 0},      {1.5708, 0},      {0, 1.5708},     {0.7854, 0},
                                    {0, 0.7854}, {0.7854, 0.7854}, {0.6155, 0.7854}};
  static const double kOffsets[5] = {0.0, 0.5, -0.5, 0.95, -0.95};
  int wf = 0, wv = 0;
  teal_soft_half_space_capacity(m, rep, &wf, &wv);
  teal_vec3 half = m->num_bvh_nodes > 0
                       ? teal_vec3_scale(teal_vec3_sub(m->bvh[0].hi, m->bvh[0].lo), 0.5)
                       : teal_vec3_zero();
  *faces = *verts = 0;
  for (int i = 0; i < 35; i++) {
    teal_rotation R = teal_rotation_from_rpy(teal_vec3_make(kRpy[i / 5][0], kRpy[i / 5][1], 0.0));
    teal_vec3 n = teal_rotation_apply(teal_rotation_inverse(R), teal_vec3_make(0, 0, 1));
    double reach = fabs(n.v[0]) * half.v[0] + fabs(n.v[1]) * half.v[1] + fabs(n.v[2]) * half.v[2];
    teal_transform X_WS = teal_transform_make(R, teal_vec3_make(0, 0, -kOffsets[i % 5] * reach));
    teal_soft_half_space_contact_surface(m, X_WS, teal_transform_identity(), rep, scratch, NULL);
    *faces = scratch->num_faces > *faces ? scratch->num_faces : *faces;
    *verts = scratch->num_vertices > *verts ? scratch->num_vertices : *verts;
  }
  *faces = 2 * *faces + 16 < wf ? 2 * *faces + 16 : wf;
  *verts = 2 * *verts + 48 < wv ? 2 * *verts + 48 : wv;
}

void teal_plant_hydro_room(const teal_plant *p, int *pairs, int *faces, int *verts) {
  int soft = 0, rigid = 0;
  teal_contact_surface_representation rep = teal_plant_get_contact_surface_representation(p);
  teal_contact_surface scratch = {0};
  *faces = *verts = 0;
  for (int i = 0; p->soft_mesh && i < p->geometries.n; i++) {
    const teal_plant_geometry *g = &GEOM(p)[i].g;
    int f = 0, v = 0;
    if (p->soft_mesh[i]) {
      soft++;
      estimate_room(p->soft_mesh[i], rep, &scratch, &f, &v);
    }
    rigid += g->role == TEAL_ROLE_PROXIMITY && g->shape.kind == TEAL_SHAPE_HALF_SPACE &&
             g->proximity.compliance == TEAL_HYDROELASTIC_RIGID;
    *faces = f > *faces ? f : *faces;
    *verts = v > *verts ? v : *verts;
  }
  teal_contact_surface_release(&scratch);
  *pairs = soft * rigid;
}

int teal_plant_hydro_reserve(const teal_plant *p, teal_contact_results *r) {
  int n, faces, verts;
  teal_plant_hydro_room(p, &n, &faces, &verts);
  int rc = teal_contact_results_reserve_hydroelastic(r, n);
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    rc = teal_contact_surface_reserve(&r->hydroelastic[i].surface, faces, verts);
  }
  return rc;
}

/* The combined friction and the soft geometry's dissipation of a pair. */
void teal_plant_hydro_pair_params(const teal_plant *p, int soft, int rigid,
                                  contact_pair_params *cp) {
  const teal_proximity_properties *ps = &GEOM(p)[soft].g.proximity;
  const teal_proximity_properties *pr = &GEOM(p)[rigid].g.proximity;
  cp->k = 0.0;
  cp->w_a = 1.0;
  cp->d = isnan(ps->hunt_crossley_dissipation) ? p->contact.default_dissipation
                                               : ps->hunt_crossley_dissipation;
  cp->mu_s = harmonic(ps->static_friction, pr->static_friction);
  cp->mu_d = harmonic(ps->dynamic_friction, pr->dynamic_friction);
  /* relaxation times add up as for point contact (SAP's dissipation) */
  double ts = ps->relaxation_time, tr = pr->relaxation_time;
  cp->tau = (isnan(ts) ? p->time_step : ts) + (isnan(tr) ? p->time_step : tr);
  cp->Rt = cp->Rn = cp->vn_hat = 0.0;
}

static teal_transform geometry_pose(const teal_plant *p, const teal_transform *X_WB, int g) {
  const teal_plant_geometry *geo = &GEOM(p)[g].g;
  return teal_transform_compose(X_WB[geo->body], geo->X_BG);
}

/* The force on B of one face (the law of hydroelastic.h), at its centroid. */
static teal_vec3 face_force(const teal_plant *p, const contact_pair_params *cp,
                            const teal_contact_polygon *face, teal_vec3 v) {
  return teal_contact_force_law(p, cp, face->normal, v, face->pressure * face->area, NULL, NULL);
}

int teal_plant_hydro_surface(const teal_plant *p, const teal_context *ctx,
                             const teal_transform *X_WB, int soft, int rigid,
                             teal_hydroelastic_contact_info *h) {
  teal_error err = {0};
  int rc = teal_soft_half_space_contact_surface(
      p->soft_mesh[soft], geometry_pose(p, X_WB, soft), geometry_pose(p, X_WB, rigid),
      teal_plant_get_contact_surface_representation(p), &h->surface, &err);
  if (rc < 0) {
    return teal_context_report_error(ctx, rc, "plant: hydroelastic contact: %s", err.message);
  }
  h->geometry_A = soft;
  h->geometry_B = rigid;
  h->body_A = GEOM(p)[soft].g.body;
  h->body_B = GEOM(p)[rigid].g.body;
  h->f_Bc_W = h->tau_Bc_W = teal_vec3_zero();
  return TEAL_OK;
}

void teal_hydro_add_face_force(teal_hydroelastic_contact_info *h, teal_vec3 p_WC, teal_vec3 f) {
  teal_vec3 r = teal_vec3_sub(p_WC, h->surface.centroid);
  h->f_Bc_W = teal_vec3_add(h->f_Bc_W, f);
  h->tau_Bc_W = teal_vec3_add(h->tau_Bc_W, teal_vec3_cross(r, f));
}

int teal_plant_hydro_contact(const teal_plant *p, const teal_context *ctx,
                             const teal_transform *X_WB, const teal_spatial_vector *V_WB, int soft,
                             int rigid, teal_hydroelastic_contact_info *h) {
  int rc = teal_plant_hydro_surface(p, ctx, X_WB, soft, rigid, h);
  if (rc) {
    return rc;
  }
  contact_pair_params cp;
  teal_plant_hydro_pair_params(p, soft, rigid, &cp);
  /* a point contact record per face gives the relative velocity at its centroid */
  teal_contact_info c = {.body_A = h->body_A, .body_B = h->body_B};
  for (int i = 0; i < h->surface.num_faces; i++) {
    const teal_contact_polygon *face = &h->surface.faces[i];
    c.p_WC = face->centroid;
    teal_vec3 f = face_force(p, &cp, face, teal_contact_relative_velocity(X_WB, V_WB, &c));
    teal_hydro_add_face_force(h, face->centroid, f);
  }
  return TEAL_OK;
}
