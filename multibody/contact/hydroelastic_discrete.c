/* Hydroelastic contact in discrete plants: the faces of each contact
 * surface become point contacts of the discrete step (see
 * contact_internal.h), as Drake's TAMSI and SAP take them: a face of area A
 * with pressure p at its centroid and soft pressure gradient g along its
 * normal is a contact of stiffness k = A g at depth p / g, whose force at
 * the current configuration is k (p / g) = p A, and which stiffens as the
 * bodies approach as the pressure field does. */
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/contact/hydroelastic.h"

/* A gradient along the normal below this share of its norm is rounding of
 * a gradient parallel to the face (a box's side blocks under a flat
 * contact): such a face has no stiffness (Drake keeps faces with k > 0). */
#define GRADIENT_ROUNDING 1e-9

int teal_hydro_face_pushes(const teal_contact_polygon *face) {
  double g = teal_vec3_dot(face->grad_p, face->normal);
  return face->pressure > 0.0 && g > GRADIENT_ROUNDING * teal_vec3_norm(face->grad_p);
}

void teal_plant_hydro_face_contact(const teal_plant *p, int soft, int rigid,
                                   const teal_contact_polygon *face, teal_contact_info *c,
                                   contact_pair_params *cp) {
  double g = teal_vec3_dot(face->grad_p, face->normal);
  teal_plant_hydro_pair_params(p, soft, rigid, cp);
  cp->k = face->area * g;
  memset(c, 0, sizeof(*c));
  c->geometry_A = soft;
  c->geometry_B = rigid;
  c->body_A = GEOM(p)[soft].g.body;
  c->body_B = GEOM(p)[rigid].g.body;
  c->p_WC = face->centroid;
  c->nhat_BA_W = face->normal; /* out of the rigid B into the soft A */
  c->depth = face->pressure / g;
}

/* Room for n pairs' surfaces (the new ones empty). */
static int reserve_surfaces(teal_step_data *sd, int n) {
  if (n <= sd->hpairs_cap) {
    return TEAL_OK;
  }
  int cap = n > 2 * sd->hpairs_cap ? n : 2 * sd->hpairs_cap;
  teal_contact_surface *hs = teal_calloc((size_t)cap, sizeof(*hs));
  if (!hs) {
    return TEAL_ENOMEM;
  }
  if (sd->hpairs_cap > 0) {
    memcpy(hs, sd->hsurf, (size_t)sd->hpairs_cap * sizeof(*hs));
  }
  teal_free(sd->hsurf);
  sd->hsurf = hs;
  sd->hpairs_cap = cap;
  sd->growths++;
  return TEAL_OK;
}

int teal_plant_hydro_step_reserve(const teal_plant *p, teal_step_data *sd) {
  int n, faces, verts;
  teal_plant_hydro_room(p, &n, &faces, &verts);
  if (!p->soft_mesh) {
    return 0;
  }
  sd->hX_WB = teal_calloc((size_t)p->bodies.n, sizeof(*sd->hX_WB));
  int rc = sd->hX_WB ? reserve_surfaces(sd, n) : TEAL_ENOMEM;
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    rc = teal_contact_surface_reserve(&sd->hsurf[i], faces, verts);
  }
  sd->growths = 0; /* initialization, not a step */
  return rc ? rc : n * faces;
}

/* The pushing faces of the k-th hydroelastic pair's surface, computed into
 * the step's hsurf[k]. */
static int pair_faces(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                      const teal_transform *X_WB, int k, int soft, int rigid) {
  teal_hydroelastic_contact_info h = {.surface = s->step.hsurf[k]};
  int faces = h.surface.face_cap;
  int rc = teal_plant_hydro_surface(p, ctx, X_WB, soft, rigid, &h);
  s->step.hsurf[k] = h.surface; /* it may have grown */
  s->step.growths += h.surface.face_cap != faces;
  int n = 0;
  for (int f = 0; rc == TEAL_OK && f < h.surface.num_faces; f++) {
    n += teal_hydro_face_pushes(&h.surface.faces[f]);
  }
  return rc ? rc : n;
}

/* The body poses by body index from the position stage of s->data (the
 * step's q), into s->step.hX_WB. */
static const teal_transform *step_poses(const teal_plant_scratch *s) {
  const teal_mb_data *d = s->data;
  s->step.hX_WB[TEAL_WORLD_BODY] = teal_transform_identity();
  for (int k = 1; k < d->nn; k++) {
    s->step.hX_WB[d->body[k]] = d->X[k];
  }
  return s->step.hX_WB;
}

int teal_plant_hydro_step_surfaces(const teal_plant *p, teal_plant_scratch *s,
                                   const teal_context *ctx, const teal_point_pair_list *pairs) {
  if (p->contact_model == TEAL_CONTACT_MODEL_POINT || !s->step.hX_WB) {
    return pairs->n;
  }
  const teal_transform *X_WB = step_poses(s);
  int total = 0, k = 0;
  for (int i = 0; i < pairs->n; i++) {
    int soft, rigid, ga = teal_contact_plant_geometry(p, pairs->pairs[i].id_A);
    int hydro = teal_plant_hydro_pair(
        p, ctx, ga, teal_contact_plant_geometry(p, pairs->pairs[i].id_B), &soft, &rigid);
    if (hydro > 0 && reserve_surfaces(&s->step, k + 1) != TEAL_OK) {
      return teal_context_report_error(ctx, TEAL_ENOMEM,
                                       "plant: out of memory for %d hydroelastic surfaces", k + 1);
    }
    int n = hydro > 0 ? pair_faces(p, s, ctx, X_WB, k++, soft, rigid) : 1;
    if (hydro < 0 || n < 0) {
      return hydro < 0 ? hydro : n;
    }
    total += n;
  }
  return total;
}
