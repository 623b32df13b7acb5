/* SAP's contact law (Castro, Permenter and Han 2022; see
 * discrete_contact_solver.h): the regularization of each contact from the
 * Delassus operator's diagonal blocks, and the impulse as the projection of
 * the unconstrained impulse y = -R^-1 (vc - v_hat) onto the friction cone
 * in the norm of R, with its derivative (the Hessian of the cost is
 * A - J' dgamma/dvc J). The Newton iteration and its exact line search are
 * discrete_contact.c's.
 *
 * Frame: e = -nhat_BA_W is the normal along which a positive impulse
 * pushes B away from A, vn = vc . e the separation speed, vt = vc - vn e.
 * With rho = Rt / Rn and the dynamic friction mu, the projection has three
 * regions: stiction |yt| <= mu yn (gamma = y), separation mu rho |yt| <=
 * -yn (gamma = 0), and sliding otherwise, gamma = gn (e + mu t) with t =
 * yt / |yt| and gn = (yn + mu rho |yt|) / (1 + mu^2 rho). */
#include <math.h>
#include <string.h>

#include "math/small_dense.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/tree/forest.h"

#define SAP_SIGMA 1e-3 /* friction regularization, relative to w */
#define SAP_BETA 1.0   /* near-rigid threshold */

/* W += J_k M_t^-1 J_k' for block k of contact c (L: m^2, x: m doubles). */
static int add_delassus_block(const teal_plant_scratch *s, int c, int k, double *W, double *L,
                              double *x) {
  int t = s->step.jtree[2 * c + k];
  if (t < 0) {
    return TEAL_OK;
  }
  const teal_mb_trees *tr = s->step.trees;
  int m = teal_mb_trees_tree_nv(tr, t);
  const double *J = teal_contact_jac_block(s, c, k);
  memcpy(L, s->data->Mb + tr->block_start[t], (size_t)m * m * sizeof(double));
  if (teal_small_cholesky(L, m, 0.0)) {
    return TEAL_ESINGULAR;
  }
  for (int a = 0; a < 3; a++) {
    memcpy(x, J + a * m, (size_t)m * sizeof(double));
    teal_small_cholesky_solve(L, m, x);
    for (int b = 0; b < 3; b++) {
      for (int j = 0; j < m; j++) {
        W[3 * b + a] += J[b * m + j] * x[j];
      }
    }
  }
  return TEAL_OK;
}

/* Rn from the Kelvin-Voigt law, bounded below by the near-rigid value;
 * Rt = sigma w (w the rms norm of W_ii). */
static void regularize_contact(const teal_contact_info *ci, contact_pair_params *cp, double h,
                               const double *W) {
  double frob = 0.0;
  for (int i = 0; i < 9; i++) {
    frob += W[i] * W[i];
  }
  double w = sqrt(frob) / 3.0, pi = 4.0 * atan(1.0);
  double rn_compliant = 1.0 / (h * cp->k * (h + cp->tau));
  cp->Rn = fmax(SAP_BETA * SAP_BETA * w / (4.0 * pi * pi), rn_compliant);
  /* W = 0 when no dof moves the contact point (J = 0, e.g. on a joint's
   * axis): its impulse has no effect, any finite Rt serves, and Rt = 0
   * would divide by zero in the projection */
  cp->Rt = SAP_SIGMA * (w > 0.0 ? w : rn_compliant);
  cp->vn_hat = ci->depth / (h + cp->tau);
}

int teal_sap_regularize(const teal_plant *p, teal_plant_scratch *s, const int *cidx, int nc,
                        double *L, double *x) {
  for (int i = 0; i < nc; i++) {
    int c = cidx[i], rc = TEAL_OK;
    double W[9] = {0};
    for (int k = 0; rc == TEAL_OK && k < 2; k++) {
      rc = add_delassus_block(s, c, k, W, L, x);
    }
    if (rc) {
      return rc;
    }
    regularize_contact(&s->step.contacts[c], &s->step.cparams[c], p->time_step, W);
  }
  return TEAL_OK;
}

/* G = a P_t + b u u' + d e e' style terms are summed by these helpers. */
static void add_outer(double *G, teal_vec3 a, teal_vec3 b, double s) {
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) {
      G[3 * r + k] += s * a.v[r] * b.v[k];
    }
  }
}

/* The tangent-plane projector P = I - e e', scaled by s, added to G. */
static void add_tangent_projector(double *G, teal_vec3 e, double s) {
  for (int r = 0; r < 3; r++) {
    G[4 * r] += s;
  }
  add_outer(G, e, e, -s);
}

teal_vec3 teal_sap_force(const teal_contact_info *c, const contact_pair_params *cp, double h,
                         teal_vec3 vc, double *G) {
  teal_vec3 e = teal_vec3_scale(c->nhat_BA_W, -1.0);
  double vn = teal_vec3_dot(vc, e), mu = cp->mu_d, rho = cp->Rt / cp->Rn;
  teal_vec3 yt = teal_vec3_scale(teal_vec3_sub(vc, teal_vec3_scale(e, vn)), -1.0 / cp->Rt);
  double yn = (cp->vn_hat - vn) / cp->Rn, r = teal_vec3_norm(yt);
  if (G) {
    memset(G, 0, 9 * sizeof(double));
  }
  if (r <= mu * yn) { /* stiction: gamma = y */
    if (G) {
      add_tangent_projector(G, e, -1.0 / (h * cp->Rt));
      add_outer(G, e, e, -1.0 / (h * cp->Rn));
    }
    return teal_vec3_scale(teal_vec3_add(yt, teal_vec3_scale(e, yn)), 1.0 / h);
  }
  if (mu * rho * r <= -yn) { /* separation */
    return teal_vec3_zero();
  }
  /* sliding: on the cone's surface */
  teal_vec3 t = teal_vec3_scale(yt, 1.0 / r), u = teal_vec3_add(e, teal_vec3_scale(t, mu));
  double gn = (yn + mu * rho * r) / (1.0 + mu * mu * rho);
  if (G) {
    add_outer(G, u, u, -1.0 / (h * cp->Rn * (1.0 + mu * mu * rho)));
    add_tangent_projector(G, e, -mu * gn / (h * r * cp->Rt));
    add_outer(G, t, t, mu * gn / (h * r * cp->Rt));
  }
  return teal_vec3_scale(u, gn / h);
}
