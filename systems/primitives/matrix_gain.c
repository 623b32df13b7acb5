/* MatrixGain: y = D u, built as a linear system without state. */
#include "systems/primitives/matrix_gain.h"

#include "framework/leaf_util.h"
#include "systems/primitives/linear_system_internal.h"

static const char k_kind[] = "matrix_gain";

teal_system *teal_matrix_gain_new(const char *name, const double *D, int ny, int nu,
                                  teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "ny", ny, 1) ||
      teal_leaf_util_check_count(err, k_kind, name, "nu", nu, 1)) {
    return NULL;
  }
  if (!D) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': D is NULL", k_kind, teal_leaf_util_name(name));
    return NULL;
  }
  teal_linear_system_matrices m = {0, nu, ny, 0.0, NULL, NULL, NULL, NULL, D, NULL};
  return teal_affine_system_make(k_kind, name, &m, err);
}
