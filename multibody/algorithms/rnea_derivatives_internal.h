/* Private to multibody/algorithms/: the layout of the derivative workspace
 * (rnea_derivatives.h), shared by rnea_derivatives.c and aba_derivatives.c. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_RNEA_DERIVATIVES_INTERNAL_H
#define TEAL_MULTIBODY_ALGORITHMS_RNEA_DERIVATIVES_INTERNAL_H

#include "multibody/algorithms/rnea_derivatives.h"
#include "multibody/math/spatial.h"

struct teal_mb_derivatives {
  const teal_plant *plant;
  int nn, nv;
  void *buffer;            /* every array below, in one allocation */
  teal_spatial_vector *dV; /* [nn] tangents of the spatial velocities */
  teal_spatial_vector *da; /* [nn] of the spatial accelerations */
  teal_spatial_vector *df; /* [nn] of the (then accumulated) body forces */
  /* [nn] each, per-node products of the nominal pass (rnea_derivatives.c) */
  teal_spatial_vector *VJ, *Sa, *IV, *Ia, *bias;
  int *moving;             /* [nn] node outboard of the perturbed joint */
  double *dS;              /* [6 nv] tangents of the motion subspace columns */
  double *Minv;            /* [nv^2] M^-1 (aba_derivatives.c) */
  double *work;            /* [3 nv^2] right-hand sides of the solves (aba_derivatives.c) */
  int transposed;          /* write the derivatives direction by direction (rows) */
  double *tau;             /* [nv] the inverse dynamics when the caller wants none */
};

#endif
