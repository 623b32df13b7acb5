/* The rows of G of one constraint, straight from the position stage of the
 * multibody data (see constraint_internal.h). */
#include <string.h>

#include "multibody/algorithms/data_internal.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/constraints/constraint_specs.h"

/* Adds J_b' F to the row Gi for the force F on body b (at Bo, in W): the
 * pairing of F, taken about the node's reference point O, with the motion
 * subspace columns of b's node and its ancestors; nothing for the world. */
static void add_body_force(const teal_plant *p, const teal_mb_data *d, int b, teal_spatial_vector F,
                           double *Gi) {
  const teal_plant_tree *t = &p->tree;
  int k = p->body_node[b];
  if (k <= 0) {
    return;
  }
  teal_spatial_vector Fo = teal_mb_force_about_O(d, k, F);
  for (; k > 0; k = t->parent[k]) {
    for (int j = t->v_start[k]; j < t->v_start[k] + t->nv[k]; j++) {
      const double *S = d->S + 6 * (size_t)j;
      Gi[j] += S[0] * Fo.v[0] + S[1] * Fo.v[1] + S[2] * Fo.v[2] + S[3] * Fo.v[3] + S[4] * Fo.v[4] +
               S[5] * Fo.v[5];
    }
  }
}

void teal_constraint_kernel_g_rows(const teal_plant *p, const constraint_rec *c,
                                   const teal_transform *X, const teal_mb_data *d,
                                   teal_spatial_vector *F, double *G) {
  double unit[6] = {0};
  int nv = p->nv;
  /* a coupler acts on its joints only (tau); the others on bodies A and B */
  int bodies = c->kind != TEAL_CONSTRAINT_COUPLER;
  for (int r = 0; r < c->rows; r++) {
    double *Gi = G + (size_t)r * nv;
    memset(Gi, 0, (size_t)nv * sizeof(double));
    if (bodies) {
      F[c->body_a] = F[c->body_b] = teal_spatial_vector_zero();
    }
    unit[r] = 1.0;
    teal_constraint_kernel_forces(p, c, X, unit, F, Gi); /* tau lands in Gi */
    unit[r] = 0.0;
    if (bodies) {
      add_body_force(p, d, c->body_a, F[c->body_a], Gi);
      if (c->body_b != c->body_a) {
        add_body_force(p, d, c->body_b, F[c->body_b], Gi);
      }
    }
  }
}
