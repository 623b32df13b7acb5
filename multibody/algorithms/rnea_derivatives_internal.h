/* Private to multibody/algorithms/: the layout of the derivative workspace
 * (rnea_derivatives.h), shared by rnea_derivatives.c and aba_derivatives.c. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_RNEA_DERIVATIVES_INTERNAL_H
#define TEAL_MULTIBODY_ALGORITHMS_RNEA_DERIVATIVES_INTERNAL_H

#include "multibody/algorithms/rnea_derivatives.h"
#include "multibody/math/spatial.h"

struct teal_mb_derivatives {
  const teal_plant *plant;
  int nn, nv;
  void *buffer; /* every array below, in one allocation */
  /* [nn] each, from the nominal pass: VJ = S v and Sa = S vdot of the
   * node's joint, Pc = sum of I V over the node's subtree */
  teal_spatial_vector *VJ, *Sa, *Pc;
  double *Qc;     /* [36 nn] sum over the subtree of I [V]x - [V]x* I (6 x 6) */
  double *Gc;     /* [18 nn] the applied forces' moment-arm term (6 x 3) */
  int *moving;    /* [nn] node outboard of (or at) the perturbed joint */
  double *dS;     /* [6 nv] the perturbed joint's own motion subspace tangents */
  double *rows;   /* [15 nv] per dof: Ic S, gamma - Q' S and G' S (rnea_derivatives.c) */
  double *Minv;   /* [nv^2] M, then its factor (aba_derivatives.c) */
  double *work;   /* [3 nv^2] right-hand sides of the solves (aba_derivatives.c) */
  double *tau;    /* [nv] the inverse dynamics when the caller wants none */
  int transposed; /* write the derivatives direction by direction (rows) */
};

#endif
