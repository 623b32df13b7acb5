/* Selector matrices: Drake's MakeStateSelectorMatrix and
 * MakeActuatorSelectorMatrix (by actuator and by joint). */
#include "multibody/plant/selectors.h"

#include <string.h>

#include "multibody/tree/joints.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

static const char *const kStateFn = "teal_plant_make_state_selector_matrix";
static const char *const kSizeFn = "teal_plant_state_selector_size";
static const char *const kActFn = "teal_plant_make_actuator_selector_matrix";
static const char *const kActJointFn = "teal_plant_make_actuator_selector_matrix_for_joints";

static int check_plant(const char *fn, const teal_plant *p, teal_error *err) {
  if (!p) {
    return teal_error_set(err, TEAL_EINVAL, "%s: plant is NULL", fn);
  }
  if (!p->finalized) {
    return teal_error_set(err, TEAL_ESTATE,
                          "%s: the plant is not finalized (call "
                          "teal_plant_finalize first)",
                          fn);
  }
  return TEAL_OK;
}

/* Name of entry index of the list: a joint's or an actuator's. */
static const char *entry_name(const teal_plant *p, int is_joint, int index) {
  return is_joint ? JOINT(p)[index].name : ACT(p)[index].name;
}

/* Checks a list of n joint (is_joint) or actuator indices: non-NULL when n >
 * 0, every index in range, none repeated. */
static int check_list(const char *fn, const teal_plant *p, int is_joint, const int *list, int n,
                      teal_error *err) {
  const char *what = is_joint ? "joint" : "actuator";
  int count = is_joint ? p->joints.n : p->actuators.n;
  if (n < 0) {
    return teal_error_set(err, TEAL_ESIZE, "%s: negative number of %ss (%d)", fn, what, n);
  }
  if (n > 0 && !list) {
    return teal_error_set(err, TEAL_EINVAL, "%s: the list of %d %ss is NULL", fn, n, what);
  }
  for (int i = 0; i < n; i++) {
    if (list[i] < 0 || list[i] >= count) {
      return teal_error_set(err, TEAL_ENOTFOUND,
                            "%s: entry %d (%d) names no %s (the plant has %d "
                            "%ss)",
                            fn, i, list[i], what, count, what);
    }
    for (int k = 0; k < i; k++) {
      if (list[k] == list[i]) {
        return teal_error_set(err, TEAL_EINVAL,
                              "%s: %s '%s' (index %d) is repeated (entries %d "
                              "and %d)",
                              fn, what, entry_name(p, is_joint, list[i]), list[i], k, i);
      }
    }
  }
  return TEAL_OK;
}

/* Checks the output matrix: shape rows x cols must be want_rows x want_cols,
 * and M non-NULL unless it is empty. */
static int check_matrix(const char *fn, const char *name, const double *M, int rows, int cols,
                        int want_rows, int want_cols, teal_error *err) {
  if (rows != want_rows || cols != want_cols) {
    return teal_error_set(err, TEAL_ESIZE,
                          "%s: %s must be %d x %d for this selection, got %d x "
                          "%d",
                          fn, name, want_rows, want_cols, rows, cols);
  }
  if (!M && (size_t)rows * (size_t)cols > 0) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s is NULL", fn, name);
  }
  return TEAL_OK;
}

static int joint_nq(const teal_plant *p, int joint) {
  return teal_joint_type_get((teal_joint_kind)JOINT(p)[joint].kind)->nq;
}

static int joint_nv(const teal_plant *p, int joint) {
  return teal_joint_type_get((teal_joint_kind)JOINT(p)[joint].kind)->nv;
}

/* Checks plant and list and sums the listed joints' nq and nv. */
static int selected_size(const char *fn, const teal_plant *p, const int *joints, int n, int *nq,
                         int *nv, teal_error *err) {
  int rc = check_plant(fn, p, err);
  if (rc == TEAL_OK) {
    rc = check_list(fn, p, 1, joints, n, err);
  }
  if (rc) {
    return rc;
  }
  *nq = 0;
  *nv = 0;
  for (int i = 0; i < n; i++) {
    *nq += joint_nq(p, joints[i]);
    *nv += joint_nv(p, joints[i]);
  }
  return TEAL_OK;
}

int teal_plant_state_selector_size(const teal_plant *p, const int *joints, int n_joints,
                                   int *num_positions, int *num_velocities, teal_error *err) {
  int nq = 0, nv = 0;
  int rc = selected_size(kSizeFn, p, joints, n_joints, &nq, &nv, err);
  if (rc) {
    return rc;
  }
  if (num_positions) {
    *num_positions = nq;
  }
  if (num_velocities) {
    *num_velocities = nv;
  }
  return TEAL_OK;
}

int teal_plant_make_state_selector_matrix(const teal_plant *p, const int *joints, int n_joints,
                                          double *Sx, int rows, int cols, teal_error *err) {
  int nq_s = 0, nv_s = 0;
  int rc = selected_size(kStateFn, p, joints, n_joints, &nq_s, &nv_s, err);
  if (rc == TEAL_OK) {
    rc = check_matrix(kStateFn, "Sx", Sx, rows, cols, nq_s + nv_s, p->nq + p->nv, err);
  }
  if (rc) {
    return rc;
  }
  if (rows == 0 || cols == 0) {
    return TEAL_OK;
  }
  memset(Sx, 0, (size_t)rows * (size_t)cols * sizeof(double));
  size_t nx = (size_t)cols;
  int row_q = 0, row_v = nq_s;
  for (int i = 0; i < n_joints; i++) {
    const joint_rec *j = &JOINT(p)[joints[i]];
    for (int k = 0; k < joint_nq(p, joints[i]); k++) {
      Sx[(size_t)row_q++ * nx + (size_t)(j->q_start + k)] = 1.0;
    }
    for (int k = 0; k < joint_nv(p, joints[i]); k++) {
      Sx[(size_t)row_v++ * nx + (size_t)(p->nq + j->v_start + k)] = 1.0;
    }
  }
  return TEAL_OK;
}

/* Writes Su (nu x n) with Su[actuators[i]][i] = 1; the list is checked. */
static void fill_actuator_selector(const teal_plant *p, const int *actuators, int n, double *Su) {
  if (p->nu == 0 || n == 0) {
    return;
  }
  memset(Su, 0, (size_t)p->nu * (size_t)n * sizeof(double));
  for (int i = 0; i < n; i++) {
    Su[(size_t)actuators[i] * (size_t)n + (size_t)i] = 1.0;
  }
}

int teal_plant_make_actuator_selector_matrix(const teal_plant *p, const int *actuators,
                                             int n_actuators, double *Su, int rows, int cols,
                                             teal_error *err) {
  int rc = check_plant(kActFn, p, err);
  if (rc == TEAL_OK) {
    rc = check_list(kActFn, p, 0, actuators, n_actuators, err);
  }
  if (rc == TEAL_OK) {
    rc = check_matrix(kActFn, "Su", Su, rows, cols, p->nu, n_actuators, err);
  }
  if (rc == TEAL_OK) {
    fill_actuator_selector(p, actuators, n_actuators, Su);
  }
  return rc;
}

/* The one actuator driving joint, or a negative status with a message. */
static int joint_actuator(const teal_plant *p, int joint, teal_error *err) {
  int found = -1, count = 0;
  for (int a = 0; a < p->actuators.n; a++) {
    if (ACT(p)[a].joint == joint) {
      found = count++ == 0 ? a : found;
    }
  }
  if (count != 1) {
    return teal_error_set(
        err, TEAL_EINVAL, "%s: joint '%s' (index %d) %s", kActJointFn, JOINT(p)[joint].name, joint,
        count == 0 ? "has no actuator" : "has several actuators (list the actuators instead)");
  }
  return found;
}

int teal_plant_make_actuator_selector_matrix_for_joints(const teal_plant *p, const int *joints,
                                                        int n_joints, double *Su, int rows,
                                                        int cols, teal_error *err) {
  int rc = check_plant(kActJointFn, p, err);
  if (rc == TEAL_OK) {
    rc = check_list(kActJointFn, p, 1, joints, n_joints, err);
  }
  if (rc == TEAL_OK) {
    rc = check_matrix(kActJointFn, "Su", Su, rows, cols, p->nu, n_joints, err);
  }
  for (int i = 0; rc == TEAL_OK && i < n_joints; i++) {
    int a = joint_actuator(p, joints[i], err);
    rc = a < 0 ? a : TEAL_OK;
  }
  if (rc) {
    return rc;
  }
  if (p->nu == 0 || n_joints == 0) {
    return TEAL_OK;
  }
  memset(Su, 0, (size_t)p->nu * (size_t)n_joints * sizeof(double));
  for (int i = 0; i < n_joints; i++) {
    Su[(size_t)joint_actuator(p, joints[i], NULL) * (size_t)n_joints + (size_t)i] = 1.0;
  }
  return TEAL_OK;
}
