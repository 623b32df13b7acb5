/* Replacing a built leaf's default state (see leaf_defaults.h). */
#include "framework/leaf_defaults.h"

#include <math.h>
#include <string.h>

#include "framework/system_internal.h"

/* Checks the target and the values; TEAL_OK or the reported error. */
static int check(const teal_system *sys, const double *x0, int n, int size, const char *fn,
                 teal_error *err) {
  if (!sys || !x0) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, sys ? "values" : "system");
  }
  if (sys->is_diagram) {
    return teal_error_set(err, TEAL_EINVAL, "%s: '%s' is a diagram, not a leaf", fn, sys->name);
  }
  if (n != size) {
    return teal_error_set(err, TEAL_ESIZE, "%s: '%s' has %d values there, got %d", fn, sys->name,
                          size, n);
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(x0[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s: value %d for '%s' is not finite (%g)", fn, i,
                            sys->name, x0[i]);
    }
  }
  return TEAL_OK;
}

int teal_leaf_set_default_continuous_state(teal_system *sys, const double *x0, int n,
                                           teal_error *err) {
  static const char fn[] = "teal_leaf_set_default_continuous_state";
  int size = sys ? sys->nq + sys->nv + sys->nz : 0;
  int rc = check(sys, x0, n, size, fn, err);
  if (rc == TEAL_OK && n > 0) {
    memcpy(sys->xc0, x0, (size_t)n * sizeof(double));
  }
  return rc;
}

int teal_leaf_set_default_discrete_state(teal_system *sys, int group, const double *x0, int n,
                                         teal_error *err) {
  static const char fn[] = "teal_leaf_set_default_discrete_state";
  if (sys && !sys->is_diagram && (group < 0 || group >= sys->nxd_groups)) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: '%s' has no discrete group %d", fn, sys->name,
                          group);
  }
  int size = sys && !sys->is_diagram ? sys->xd_sizes[group] : 0;
  int rc = check(sys, x0, n, size, fn, err);
  if (rc == TEAL_OK && n > 0) {
    memcpy(sys->xd0 + sys->xd_offsets[group], x0, (size_t)n * sizeof(double));
  }
  return rc;
}
