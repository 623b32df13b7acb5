/* 6x6 spatial matrices: block assembly, products and Featherstone's motion
 * and force transforms. */
#include "multibody/math/spatial_mat6.h"

#include <math.h>

teal_mat6 teal_mat6_identity(void) {
  teal_mat6 r = teal_mat6_zero();
  for (int i = 0; i < 6; i++) {
    r.m[7 * i] = 1.0;
  }
  return r;
}

teal_mat6 teal_mat6_from_blocks(teal_mat3 a, teal_mat3 b, teal_mat3 c, teal_mat3 d) {
  const teal_mat3 *blk[4] = {&a, &b, &c, &d};
  teal_mat6 r;
  for (int k = 0; k < 4; k++) {
    int r0 = 3 * (k / 2), c0 = 3 * (k % 2);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        r.m[6 * (r0 + i) + c0 + j] = blk[k]->m[3 * i + j];
      }
    }
  }
  return r;
}

teal_mat3 teal_mat6_block(const teal_mat6 *M, int bi, int bj) {
  teal_mat3 r;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      r.m[3 * i + j] = M->m[6 * (3 * bi + i) + 3 * bj + j];
    }
  }
  return r;
}

teal_mat6 teal_mat6_add(const teal_mat6 *A, const teal_mat6 *B) {
  teal_mat6 r;
  for (int i = 0; i < 36; i++) {
    r.m[i] = A->m[i] + B->m[i];
  }
  return r;
}

teal_mat6 teal_mat6_scale(const teal_mat6 *A, double s) {
  teal_mat6 r;
  for (int i = 0; i < 36; i++) {
    r.m[i] = s * A->m[i];
  }
  return r;
}

teal_mat6 teal_mat6_mul(const teal_mat6 *A, const teal_mat6 *B) {
  teal_mat6 r;
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      double s = 0.0;
      for (int k = 0; k < 6; k++) {
        s += A->m[6 * i + k] * B->m[6 * k + j];
      }
      r.m[6 * i + j] = s;
    }
  }
  return r;
}

teal_mat6 teal_mat6_transpose(const teal_mat6 *A) {
  teal_mat6 r;
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      r.m[6 * i + j] = A->m[6 * j + i];
    }
  }
  return r;
}

teal_spatial_vector teal_mat6_apply(const teal_mat6 *M, teal_spatial_vector s) {
  teal_spatial_vector r;
  for (int i = 0; i < 6; i++) {
    double t = 0.0;
    for (int k = 0; k < 6; k++) {
      t += M->m[6 * i + k] * s.v[k];
    }
    r.v[i] = t;
  }
  return r;
}

double teal_mat6_max_abs_diff(const teal_mat6 *A, const teal_mat6 *B) {
  double d = 0.0;
  for (int i = 0; i < 36; i++) {
    double e = fabs(A->m[i] - B->m[i]);
    d = e > d ? e : d;
  }
  return d;
}

teal_mat6 teal_mat6_motion_transform(teal_transform X_AB) {
  teal_mat3 pxR = teal_mat3_mul(teal_mat3_skew(X_AB.p), X_AB.R);
  return teal_mat6_from_blocks(X_AB.R, teal_mat3_zero(), pxR, X_AB.R);
}

teal_mat6 teal_mat6_force_transform(teal_transform X_AB) {
  teal_mat3 pxR = teal_mat3_mul(teal_mat3_skew(X_AB.p), X_AB.R);
  return teal_mat6_from_blocks(X_AB.R, pxR, teal_mat3_zero(), X_AB.R);
}

teal_mat6 teal_mat6_cross_motion(teal_spatial_vector V) {
  teal_mat3 wx = teal_mat3_skew(teal_spatial_vector_angular(V));
  teal_mat3 vx = teal_mat3_skew(teal_spatial_vector_linear(V));
  return teal_mat6_from_blocks(wx, teal_mat3_zero(), vx, wx);
}

teal_mat6 teal_mat6_cross_force(teal_spatial_vector V) {
  teal_mat3 wx = teal_mat3_skew(teal_spatial_vector_angular(V));
  teal_mat3 vx = teal_mat3_skew(teal_spatial_vector_linear(V));
  return teal_mat6_from_blocks(wx, vx, teal_mat3_zero(), wx);
}
