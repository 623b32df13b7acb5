/* The plant's markers: contact forces and the centre of mass as a marker
 * list for the visualizer (see plant_markers.h). */
#include "multibody/visualization/plant_markers.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_system.h"
#include "framework/leaf_util.h"
#include "framework/ports.h"
#include "geometry/scene_graph/pose_list.h"
#include "geometry/visualization/markers.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/plant/plant_parameters.h"
#include "multibody/plant/plant_system.h"

enum { IN_POSES = 0, IN_CONTACTS = 1 };

static const char k_kind[] = "plant_markers";

/* The bodies' default masses and centres of mass p_BoBcm_B. */
typedef struct markers_model {
  int num_bodies;
  double total_mass;
  double *mass;
  teal_vec3 *p_BoBcm_B;
} markers_model;

static void model_free(void *user) {
  markers_model *m = user;
  teal_free(m->mass);
  teal_free(m->p_BoBcm_B);
  teal_free(m);
}

/* Reads the masses from a default context of the plant. */
static int read_masses(const teal_plant *plant, markers_model *m, teal_error *err) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)plant), err);
  int rc = ctx ? TEAL_OK : TEAL_ENOMEM;
  for (int b = 1; rc == TEAL_OK && b < m->num_bodies; b++) { /* the world has no mass */
    rc = teal_plant_get_body_mass_in_context(plant, ctx, b, &m->mass[b]);
    rc = rc ? rc : teal_plant_get_body_center_of_mass_in_context(plant, ctx, b, &m->p_BoBcm_B[b]);
    m->total_mass += rc == TEAL_OK ? m->mass[b] : 0.0;
  }
  teal_context_free(ctx);
  if (rc == TEAL_OK && !(m->total_mass > 0)) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s: the plant has no mass", k_kind);
  } else if (rc && rc != TEAL_ENOMEM) {
    rc = teal_error_set(err, rc, "%s: cannot read the bodies' masses", k_kind);
  }
  return rc;
}

static markers_model *model_new(const teal_plant *plant, teal_error *err) {
  markers_model *m = teal_calloc(1, sizeof(*m));
  int n = teal_plant_num_bodies(plant);
  if (m) {
    m->num_bodies = n;
    m->mass = teal_calloc((size_t)n + 1, sizeof(double));
    m->p_BoBcm_B = teal_calloc((size_t)n + 1, sizeof(teal_vec3));
  }
  if (!m || !m->mass || !m->p_BoBcm_B) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", k_kind);
  } else if (read_masses(plant, m, err) == TEAL_OK) {
    return m;
  }
  if (m) {
    model_free(m);
  }
  return NULL;
}

/* p_WScm from the body poses and the default masses. */
static teal_vec3 center_of_mass(const markers_model *m, const teal_transform_list *poses) {
  teal_vec3 sum = teal_vec3_zero();
  for (int b = 0; b < m->num_bodies && b < poses->n; b++) {
    teal_vec3 p = teal_transform_apply(poses->X[b], m->p_BoBcm_B[b]);
    sum = teal_vec3_add(sum, teal_vec3_scale(p, m->mass[b]));
  }
  return teal_vec3_scale(sum, 1.0 / m->total_mass);
}

static int calc_markers(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  const markers_model *m = user;
  const teal_transform_list *poses;
  const teal_contact_results *contacts = NULL;
  int rc = teal_eval_abstract_input(sys, ctx, IN_POSES, (const void **)&poses);
  if (rc == TEAL_OK && teal_input_has_value(sys, ctx, IN_CONTACTS) > 0) {
    rc = teal_eval_abstract_input(sys, ctx, IN_CONTACTS, (const void **)&contacts);
  }
  int np = contacts ? contacts->n : 0, nh = contacts ? contacts->num_hydroelastic : 0;
  int nc = np + nh;
  teal_marker_list *list = out;
  if (rc || (rc = teal_marker_list_resize(list, nc + 1)) != TEAL_OK) {
    return rc;
  }
  for (int i = 0; i < np; i++) {
    list->m[i] = (teal_marker){TEAL_MARKER_CONTACT, contacts->c[i].p_WC, contacts->c[i].f_Bc_W};
  }
  for (int i = 0; i < nh; i++) { /* a hydroelastic surface's force at its centroid */
    const teal_hydroelastic_contact_info *h = &contacts->hydroelastic[i];
    list->m[np + i] = (teal_marker){TEAL_MARKER_CONTACT, h->surface.centroid, h->f_Bc_W};
  }
  list->m[nc] =
      (teal_marker){TEAL_MARKER_CENTER_OF_MASS, center_of_mass(m, poses), teal_vec3_zero()};
  return TEAL_OK;
}

teal_system *teal_plant_markers_new(const teal_plant *plant, const char *name, teal_error *err) {
  name = name ? name : k_kind;
  if (!plant || !teal_plant_system((teal_plant *)plant)) {
    teal_error_set(err, plant ? TEAL_ESTATE : TEAL_EINVAL, "%s '%s': %s", k_kind, name,
                   plant ? "the plant is not finalized" : "NULL plant");
    return NULL;
  }
  markers_model *m = model_new(plant, err);
  teal_system *sys = m ? teal_leaf_new(name, m, model_free) : NULL;
  if (!sys) {
    if (m) {
      model_free(m);
      teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", k_kind, name);
    }
    return NULL;
  }
  teal_leaf_declare_abstract_input(sys, "body_poses", &teal_transform_list_type);
  teal_leaf_declare_abstract_input(sys, "contact_results", &teal_contact_results_type);
  teal_ticket inputs = TEAL_TICKET_ALL_INPUTS;
  teal_leaf_declare_abstract_output(sys, "markers", &teal_marker_list_type, calc_markers, m,
                                    &inputs, 1);
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

teal_system *teal_add_plant_markers(teal_builder *b, const teal_plant *plant,
                                    teal_system *visualizer, teal_error *err) {
  if (!b || !visualizer) {
    teal_error_set(err, TEAL_EINVAL, "add_plant_markers: NULL %s", b ? "visualizer" : "builder");
    return NULL;
  }
  teal_system *sys = teal_plant_markers_new(plant, NULL, err);
  if (!sys) {
    return NULL;
  }
  teal_system *ps = teal_plant_system((teal_plant *)plant);
  if (!teal_builder_add(b, sys) ||
      teal_builder_connect(b, teal_system_output_port(ps, teal_plant_body_poses_output_port(plant)),
                           teal_system_input_port(sys, IN_POSES)) ||
      teal_builder_connect(
          b, teal_system_output_port(ps, teal_plant_contact_results_output_port(plant)),
          teal_system_input_port(sys, IN_CONTACTS)) ||
      teal_builder_connect(b, teal_system_output_port(sys, 0),
                           teal_system_input_port(visualizer, 1))) {
    const teal_error *be = teal_builder_error(b);
    teal_error_set(err, be->code, "add_plant_markers: %s", be->message);
    return NULL;
  }
  return sys;
}
