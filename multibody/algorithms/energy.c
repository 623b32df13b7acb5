/* Kinetic and potential energy (see energy.h). */
#include "multibody/algorithms/energy.h"

#include "multibody/algorithms/data_internal.h"

int teal_mb_kinetic_energy(const teal_plant *plant, teal_mb_data *data, const double *q,
                           const double *v, double *ke) {
  static const char fn[] = "teal_mb_kinetic_energy";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, v, 1, ke, "ke", &st);
  if (!t || (st = teal_mb_data_position(data, t, q))) {
    return st;
  }
  teal_mb_data_velocity(data, t, q, v);
  double e = 0.0;
  for (int k = 1; k < t->num_nodes; k++) {
    e += teal_spatial_vector_dot(data->V[k], teal_mb_inertia_apply(&data->I[k], data->V[k]));
  }
  for (int i = 0; i < data->nv; i++) {
    e += data->reflected[i] * v[i] * v[i]; /* the rotors' energy */
  }
  *ke = 0.5 * e;
  return TEAL_OK;
}

int teal_mb_potential_energy(const teal_plant *plant, teal_mb_data *data, const double *q,
                             double *pe) {
  static const char fn[] = "teal_mb_potential_energy";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, pe, "pe", &st);
  if (!t || (st = teal_mb_data_position(data, t, q))) {
    return st;
  }
  /* sum m p_WBcm = sum (m O + h) */
  teal_vec3 mp = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    mp = teal_vec3_add(mp, teal_vec3_add(teal_vec3_scale(data->O[k], data->I[k].m), data->I[k].h));
  }
  *pe = -teal_vec3_dot(teal_mb_data_g(data), mp);
  return TEAL_OK;
}
