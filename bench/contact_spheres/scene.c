/* bench_contact_spheres: the scene and the figures of a run's final state
 * (see spheres.h). */
#include <math.h>
#include <stdio.h>

#include "spheres.h"

static const double k_spacing = 0.15;
static const double k_heights[4] = {0.15, 0.20, 0.25, 0.30};

/* Rows x columns: the most nearly square factorization of k (rows <= cols). */
void spheres_make_scene(scene_spec *s, int k) {
  s->k = k;
  s->rows = 1;
  for (int r = 1; r * r <= k; r++) {
    if (k % r == 0) {
      s->rows = r;
    }
  }
  s->cols = k / s->rows;
  snprintf(s->title, sizeof s->title, "K = %d", k);
  for (int i = 0; i < k; i++) {
    int row = i / s->cols, col = i % s->cols;
    s->p[i] = teal_vec3_make((col - 0.5 * (s->cols - 1)) * k_spacing,
                             (row - 0.5 * (s->rows - 1)) * k_spacing, k_heights[i % 4]);
  }
}

/* The final heights and speeds of the spheres. */
void spheres_rest_figures(const double *z, const double *speed, int k, run_info *info) {
  info->z_mean = 0.0;
  info->z_min = INFINITY;
  info->speed_max = 0.0;
  for (int i = 0; i < k; i++) {
    info->z_mean += z[i] / k;
    info->z_min = fmin(info->z_min, z[i]);
    info->speed_max = fmax(info->speed_max, speed[i]);
  }
}
