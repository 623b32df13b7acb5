/* Quaternion normalization and the rate matrices (see quaternion.h). */
#include "math/quaternion.h"

#include <math.h>

#include "framework/error.h"

int teal_quaternion_normalize(teal_quaternion *q) {
  if (!isfinite(q->w) || !isfinite(q->x) || !isfinite(q->y) || !isfinite(q->z)) {
    return TEAL_ENONFINITE;
  }
  double n = teal_quaternion_norm(*q);
  if (!(n > 0.0)) {
    return TEAL_EINVAL;
  }
  *q = teal_quaternion_make(q->w / n, q->x / n, q->y / n, q->z / n);
  return TEAL_OK;
}

void teal_quaternion_rate_matrix_parent(teal_quaternion q, double E[12]) {
  const double e[12] = {-q.x, -q.y, -q.z, q.w, q.z, -q.y, -q.z, q.w, q.x, q.y, -q.x, q.w};
  for (int i = 0; i < 12; i++) {
    E[i] = e[i];
  }
}

void teal_quaternion_rate_matrix_body(teal_quaternion q, double E[12]) {
  const double e[12] = {-q.x, -q.y, -q.z, q.w, -q.z, q.y, q.z, q.w, -q.x, -q.y, q.x, q.w};
  for (int i = 0; i < 12; i++) {
    E[i] = e[i];
  }
}
