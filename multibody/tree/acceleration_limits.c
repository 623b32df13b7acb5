/* Acceleration limits of joints: stored in the joint records, gathered per
 * generalized velocity after finalize (see acceleration_limits.h). */
#include "multibody/tree/acceleration_limits.h"

#include <math.h>
#include <string.h>

#include "multibody/tree/joints.h"
#include "multibody/tree/plant_internal.h"

int teal_plant_set_joint_acceleration_limits(teal_plant *p, int joint, const double *lower,
                                             const double *upper) {
  int rc = teal_plant_check_open(p, "joint", "");
  if (rc) {
    return rc;
  }
  if (joint < 0 || joint >= p->joints.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: acceleration limits: unknown joint %d", joint);
  }
  joint_rec *j = &JOINT(p)[joint];
  int nv = teal_joint_type_get(j->kind)->nv;
  if ((!lower || !upper) && nv > 0) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: joint '%s': acceleration limits: NULL array%s",
                           j->name, "");
  }
  for (int i = 0; i < nv; i++) {
    if (isnan(lower[i]) || isnan(upper[i]) || lower[i] > upper[i]) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "plant: joint '%s': acceleration limits of velocity %d: lower "
                                   "%g and upper %g (need lower <= upper, no NaN)",
                                   j->name, i, lower[i], upper[i]);
    }
  }
  memcpy(j->a_lo, lower, (size_t)nv * sizeof(double));
  memcpy(j->a_hi, upper, (size_t)nv * sizeof(double));
  return TEAL_OK;
}

int teal_plant_get_joint_acceleration_limits(const teal_plant *p, int joint, double *lower,
                                             double *upper, int n, teal_error *err) {
  static const char fn[] = "teal_plant_get_joint_acceleration_limits";
  if (!p || !lower || !upper) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, p ? "output array" : "plant");
  }
  if (joint < 0 || joint >= p->joints.n) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: unknown joint %d", fn, joint);
  }
  const joint_rec *j = &JOINT(p)[joint];
  int nv = teal_joint_type_get(j->kind)->nv;
  if (n != nv) {
    return teal_error_set(err, TEAL_ESIZE, "%s: joint '%s' has %d velocities, got room for %d", fn,
                          j->name, nv, n);
  }
  memcpy(lower, j->a_lo, (size_t)nv * sizeof(double));
  memcpy(upper, j->a_hi, (size_t)nv * sizeof(double));
  return TEAL_OK;
}

/* Gathers one side (upper = 0: lower limits) of every joint by v index. */
static int gather(const teal_plant *p, double *out, int n, int upper, const char *fn,
                  teal_error *err) {
  if (!p || !out) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, p ? "output array" : "plant");
  }
  if (!p->finalized) {
    return teal_error_set(err, TEAL_ESTATE, "%s: the plant is not finalized", fn);
  }
  if (n != p->nv) {
    return teal_error_set(err, TEAL_ESIZE, "%s: the plant has %d velocities, got room for %d", fn,
                          p->nv, n);
  }
  for (int k = 0; k < p->joints.n; k++) {
    const joint_rec *j = &JOINT(p)[k];
    int nv = teal_joint_type_get(j->kind)->nv;
    memcpy(out + j->v_start, upper ? j->a_hi : j->a_lo, (size_t)nv * sizeof(double));
  }
  return TEAL_OK;
}

int teal_plant_get_acceleration_lower_limits(const teal_plant *p, double *lower, int n,
                                             teal_error *err) {
  return gather(p, lower, n, 0, "teal_plant_get_acceleration_lower_limits", err);
}

int teal_plant_get_acceleration_upper_limits(const teal_plant *p, double *upper, int n,
                                             teal_error *err) {
  return gather(p, upper, n, 1, "teal_plant_get_acceleration_upper_limits", err);
}
