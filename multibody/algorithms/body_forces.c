/* Add-in helpers for body and mobility forces, and the tree-equivalent
 * mobility forces (see body_forces.h). */
#include "multibody/algorithms/body_forces.h"

#include <math.h>

#include "math/rotation.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/topology.h"

/* The plant must be finalized and the body one of its bodies. */
static int check_body(const teal_plant *plant, int body, const void *out, const char *fn,
                      teal_error *err) {
  if (!plant || !out) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, plant ? "output array" : "plant");
  }
  if (!teal_plant_is_finalized(plant)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: the plant is not finalized", fn);
  }
  int nb = teal_plant_num_bodies(plant);
  if (body < 0 || body >= nb) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s: body %d is not a body index (the plant has %d bodies)", fn, body,
                          nb);
  }
  return TEAL_OK;
}

static int check_finite(teal_vec3 x, const char *fn, const char *name, teal_error *err) {
  return teal_vec3_is_finite(x)
             ? TEAL_OK
             : teal_error_set(err, TEAL_ENONFINITE, "%s: %s = (%g, %g, %g) is not finite", fn, name,
                              x.v[0], x.v[1], x.v[2]);
}

int teal_mb_add_in_station_force(const teal_plant *plant, const teal_transform *X_WB, int body,
                                 teal_vec3 p_BS_B, teal_vec3 f_S_W, teal_spatial_vector *F_Bo_W,
                                 teal_error *err) {
  static const char fn[] = "teal_mb_add_in_station_force";
  int rc = check_body(plant, body, F_Bo_W, fn, err);
  if (rc == TEAL_OK && !X_WB) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s: NULL X_WB", fn);
  }
  if (rc || (rc = check_finite(p_BS_B, fn, "p_BS_B", err)) ||
      (rc = check_finite(f_S_W, fn, "f_S_W", err))) {
    return rc;
  }
  if (body == TEAL_WORLD_BODY) {
    return TEAL_OK;
  }
  teal_vec3 p_BoS_W = teal_rotation_apply(X_WB[body].R, p_BS_B);
  teal_vec3 moment = teal_vec3_cross(p_BoS_W, f_S_W);
  for (int c = 0; c < 3; c++) {
    F_Bo_W[body].v[c] += moment.v[c];
    F_Bo_W[body].v[3 + c] += f_S_W.v[c];
  }
  return TEAL_OK;
}

int teal_mb_add_in_body_torque(const teal_plant *plant, int body, teal_vec3 t_W,
                               teal_spatial_vector *F_Bo_W, teal_error *err) {
  static const char fn[] = "teal_mb_add_in_body_torque";
  int rc = check_body(plant, body, F_Bo_W, fn, err);
  if (rc || (rc = check_finite(t_W, fn, "t_W", err))) {
    return rc;
  }
  for (int c = 0; body != TEAL_WORLD_BODY && c < 3; c++) {
    F_Bo_W[body].v[c] += t_W.v[c];
  }
  return TEAL_OK;
}

int teal_mb_add_in_mobility_force(const teal_plant *plant, int joint, int which, double f,
                                  double *tau, teal_error *err) {
  static const char fn[] = "teal_mb_add_in_mobility_force";
  if (!plant || !tau) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, plant ? "tau" : "plant");
  }
  int nj = teal_plant_num_joints(plant);
  if (!teal_plant_is_finalized(plant) || joint < 0 || joint >= nj) {
    return teal_error_set(err, TEAL_EINVAL, "%s: joint %d is not a joint of the finalized plant",
                          fn, joint);
  }
  int nv = teal_joint_type_get((teal_joint_kind)teal_plant_joint_kind(plant, joint))->nv;
  if (which < 0 || which >= nv) {
    return teal_error_set(err, TEAL_EINVAL, "%s: joint '%s' has %d dofs, no dof %d", fn,
                          teal_plant_joint_name(plant, joint), nv, which);
  }
  if (!isfinite(f)) {
    return teal_error_set(err, TEAL_ENONFINITE, "%s: f is not finite (%g)", fn, f);
  }
  tau[teal_plant_joint_v_start(plant, joint) + which] += f;
  return TEAL_OK;
}

int teal_mb_calc_tree_equivalent_mobility_forces(const teal_plant *plant, teal_mb_data *data,
                                                 const double *q, const teal_spatial_vector *F_Bo_W,
                                                 double *tau) {
  return teal_mb_jacobian_apply_transpose(plant, data, q, F_Bo_W, tau);
}
