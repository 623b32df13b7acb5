/* Whole-tree continuous dynamics: time derivatives, velocity maps, energy
 * and analytic Jacobians, evaluated leaf by leaf into one caller array. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "framework/system_dynamics.h"
#include "framework/system_internal.h"

/* The error for a NULL array where results or arguments were expected. */
static int null_array(const teal_context *ctx, const char *fn, const char *what) {
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s on '%s': %s is NULL", fn,
                                   ctx->system->name, what);
}

int teal_calc_time_derivatives(const teal_system *sys, const teal_context *ctx, double *xcdot) {
  int rc = teal_check_context(sys, ctx);
  if (rc || (!xcdot && sys->nq + sys->nv + sys->nz)) {
    return rc ? rc : null_array(ctx, "calc_time_derivatives", "xcdot");
  }
  const teal_context_root *root = ctx->root;
  double *qd = xcdot, *vd = xcdot + sys->nq, *zd = xcdot + sys->nq + sys->nv;
  for (int k = ctx->xc_begin; k < ctx->xc_end; k++) {
    const teal_context *leaf = root->xc_leaves[k];
    const teal_system *ls = leaf->system;
    teal_continuous_view view = {qd + (leaf->q - ctx->q), vd + (leaf->v - ctx->v),
                                 zd + (leaf->z - ctx->z)};
    unsigned long serial = root->error_serial;
    rc = ls->derivatives(ls, leaf, &view, ls->derivatives_user);
    if (rc) {
      return teal_callback_failed(leaf, rc, serial, "time derivatives");
    }
  }
  return TEAL_OK;
}

/* Applies each leaf's map (or the identity) between v-shaped and q-shaped
 * arrays; to_qdot selects the direction. */
static int map_velocity(const teal_system *sys, const teal_context *ctx, const double *in,
                        double *out, int to_qdot) {
  int rc = teal_check_context(sys, ctx);
  if (rc || ((!in || !out) && (sys->nq || sys->nv))) {
    const char *fn = to_qdot ? "map_velocity_to_qdot" : "map_qdot_to_velocity";
    const char *what = (!in) == to_qdot ? "v" : "qdot"; /* the NULL one */
    return rc ? rc : null_array(ctx, fn, what);
  }
  const teal_context_root *root = ctx->root;
  for (int k = ctx->leaf_begin; k < ctx->leaf_end; k++) {
    const teal_context *leaf = root->leaves[k];
    const teal_system *ls = leaf->system;
    const double *src = in + (to_qdot ? leaf->v - ctx->v : leaf->q - ctx->q);
    double *dst = out + (to_qdot ? leaf->q - ctx->q : leaf->v - ctx->v);
    teal_velocity_map_fn fn = to_qdot ? ls->v_to_qdot : ls->qdot_to_v;
    if (!fn) {
      teal_copy_doubles(dst, src, ls->nq); /* nq == nv here */
      continue;
    }
    unsigned long serial = root->error_serial;
    rc = fn(ls, leaf, src, dst, ls->velocity_map_user);
    if (rc) {
      return teal_callback_failed(leaf, rc, serial, "velocity map");
    }
  }
  return TEAL_OK;
}

int teal_map_velocity_to_qdot(const teal_system *sys, const teal_context *ctx, const double *v,
                              double *qdot) {
  return map_velocity(sys, ctx, v, qdot, 1);
}

int teal_map_qdot_to_velocity(const teal_system *sys, const teal_context *ctx, const double *qdot,
                              double *v) {
  return map_velocity(sys, ctx, qdot, v, 0);
}

static int sum_energy(const teal_system *sys, const teal_context *ctx, double *total, int kinetic) {
  int rc = teal_check_context(sys, ctx);
  if (rc || !total) {
    return rc ? rc
              : null_array(ctx, kinetic ? "calc_kinetic_energy" : "calc_potential_energy",
                           "the result pointer");
  }
  *total = 0.0;
  const teal_context_root *root = ctx->root;
  for (int k = ctx->leaf_begin; k < ctx->leaf_end; k++) {
    const teal_context *leaf = root->leaves[k];
    const teal_system *ls = leaf->system;
    teal_energy_fn fn = kinetic ? ls->kinetic : ls->potential;
    double e = 0.0;
    unsigned long serial = root->error_serial;
    if (fn && (rc = fn(ls, leaf, &e, ls->energy_user)) != TEAL_OK) {
      return teal_callback_failed(leaf, rc, serial,
                                  kinetic ? "kinetic energy" : "potential energy");
    }
    *total += e;
  }
  return TEAL_OK;
}

int teal_calc_potential_energy(const teal_system *sys, const teal_context *ctx, double *pe) {
  return sum_energy(sys, ctx, pe, 0);
}

int teal_calc_kinetic_energy(const teal_system *sys, const teal_context *ctx, double *ke) {
  return sum_energy(sys, ctx, ke, 1);
}

/* Names the first block with entries but no storage, or returns NULL. */
static const char *jacobian_block_missing(const teal_jacobian *jac) {
  const double *blocks[4] = {jac->A, jac->B, jac->C, jac->D};
  const int rows[4] = {jac->nx, jac->nx, jac->ny, jac->ny};
  const int cols[4] = {jac->nx, jac->nu, jac->nx, jac->nu};
  static const char *const names[4] = {"A", "B", "C", "D"};
  for (int b = 0; b < 4; b++) {
    if (!blocks[b] && rows[b] > 0 && cols[b] > 0) {
      return names[b];
    }
  }
  return NULL;
}

int teal_calc_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                       int output_port, teal_jacobian *jac) {
  int rc = teal_check_context(sys, ctx);
  if (rc || !jac) {
    return rc ? rc : null_array(ctx, "calc_jacobian", "jac");
  }
  if (sys->is_diagram || !sys->jacobian) {
    return teal_context_report_error(ctx, TEAL_EUNSUPPORTED, "system '%s' has no analytic Jacobian",
                                     sys->name);
  }
  if (input_port < -1 || input_port >= sys->ninputs || output_port < -1 ||
      output_port >= sys->noutputs) {
    return teal_context_report_error(ctx, TEAL_ENOTFOUND,
                                     "calc_jacobian on '%s': port index out of "
                                     "range (input %d, output %d)",
                                     sys->name, input_port, output_port);
  }
  int nxc = sys->nq + sys->nv + sys->nz;
  int nu = input_port >= 0 ? sys->inputs[input_port]->size : 0;
  int ny = output_port >= 0 ? sys->outputs[output_port]->size : 0;
  int nx = nxc > 0 ? nxc : sys->nxd; /* continuous state when there is any */
  if (jac->nx != nx || jac->nu != nu || jac->ny != ny) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "calc_jacobian on '%s': blocks sized nx %d, nu %d, "
                                     "ny %d; the system has nx %d, nu %d, ny %d",
                                     sys->name, jac->nx, jac->nu, jac->ny, nx, nu, ny);
  }
  const char *missing = jacobian_block_missing(jac);
  if (missing) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "calc_jacobian on '%s': block %s is NULL but has entries "
                                     "(nx %d, nu %d, ny %d)",
                                     sys->name, missing, nx, nu, ny);
  }
  unsigned long serial = ctx->root->error_serial;
  rc = sys->jacobian(sys, ctx, input_port, output_port, jac, sys->jacobian_user);
  return teal_callback_failed(ctx, rc, serial, "analytic Jacobian");
}

int teal_calc_witness_values(const teal_system *sys, const teal_context *ctx, double *w) {
  int rc = teal_check_context(sys, ctx);
  if (rc || (!w && sys->nwitnesses)) {
    return rc ? rc : null_array(ctx, "calc_witness_values", "w");
  }
  const teal_context_root *root = ctx->root;
  int n = 0;
  for (int k = ctx->leaf_begin; k < ctx->leaf_end; k++) {
    const teal_context *leaf = root->leaves[k];
    const teal_system *ls = leaf->system;
    for (int e = 0; ls->nwitnesses && e < ls->nevents; e++) {
      const teal_event_decl *ev = &ls->events[e];
      if (ev->trigger != TEAL_TRIGGER_WITNESS) {
        continue;
      }
      unsigned long serial = root->error_serial;
      if ((rc = ev->witness(ls, leaf, &w[n++], ev->user)) != TEAL_OK) {
        return teal_callback_failed(leaf, rc, serial, "witness function");
      }
    }
  }
  return TEAL_OK;
}

/* 1 when some leaf of sys (sys itself for a leaf) has the hook leaf_has
 * tells of. */
static int some_leaf_has(const teal_system *sys, int (*leaf_has)(const teal_system *leaf)) {
  if (!sys) {
    return 0;
  }
  if (!sys->is_diagram) {
    return leaf_has(sys);
  }
  for (int c = 0; c < sys->nchildren; c++) {
    if (some_leaf_has(sys->children[c], leaf_has)) {
      return 1;
    }
  }
  return 0;
}

static int leaf_has_projection(const teal_system *leaf) {
  return leaf->projection != NULL;
}

static int leaf_has_error_projection(const teal_system *leaf) {
  return leaf->error_projection != NULL;
}

int teal_system_has_projection(const teal_system *sys) {
  return some_leaf_has(sys, leaf_has_projection);
}

int teal_project_continuous_state(const teal_system *sys, teal_context *ctx) {
  int rc = teal_check_context(sys, ctx);
  if (rc) {
    return rc;
  }
  const teal_context_root *root = ctx->root;
  for (int k = ctx->xc_begin; k < ctx->xc_end; k++) {
    teal_context *leaf = root->xc_leaves[k];
    const teal_system *ls = leaf->system;
    if (!ls->projection) {
      continue;
    }
    teal_continuous_view x = {teal_context_q_mut(leaf), teal_context_v_mut(leaf),
                              teal_context_z_mut(leaf)};
    unsigned long serial = root->error_serial;
    rc = ls->projection(ls, leaf, &x, ls->projection_user);
    if (rc) {
      return teal_callback_failed(leaf, rc, serial, "state projection");
    }
  }
  return TEAL_OK;
}

/* ---- error estimate projection ---------------------------------------------------- */

int teal_leaf_set_error_projection(teal_system *sys, teal_error_projection_fn fn, void *user) {
  static const char what[] = "set error projection";
  int rc = teal_leaf_callback_guard(sys, what, fn != NULL);
  if (rc) {
    return rc;
  }
  sys->error_projection = fn;
  sys->error_projection_user = user;
  return TEAL_OK;
}

int teal_system_has_error_projection(const teal_system *sys) {
  return some_leaf_has(sys, leaf_has_error_projection);
}

int teal_project_error_estimate(const teal_system *sys, const teal_context *ctx, double *xerr) {
  int rc = teal_check_context(sys, ctx);
  if (rc || (!xerr && sys->nq + sys->nv + sys->nz)) {
    return rc ? rc : null_array(ctx, "project_error_estimate", "xerr");
  }
  const teal_context_root *root = ctx->root;
  double *eq = xerr, *ev = xerr + sys->nq, *ez = xerr + sys->nq + sys->nv;
  for (int k = ctx->xc_begin; k < ctx->xc_end; k++) {
    const teal_context *leaf = root->xc_leaves[k];
    const teal_system *ls = leaf->system;
    if (!ls->error_projection) {
      continue;
    }
    teal_continuous_view err = {eq + (leaf->q - ctx->q), ev + (leaf->v - ctx->v),
                                ez + (leaf->z - ctx->z)};
    unsigned long serial = root->error_serial;
    rc = ls->error_projection(ls, leaf, &err, ls->error_projection_user);
    if (rc) {
      return teal_callback_failed(leaf, rc, serial, "error estimate projection");
    }
  }
  return TEAL_OK;
}

/* ---- implicit residual ------------------------------------------------------------- */

int teal_leaf_set_implicit_time_derivatives_residual(teal_system *sys, teal_implicit_residual_fn fn,
                                                     void *user) {
  static const char what[] = "set implicit time derivatives residual";
  int rc = teal_leaf_callback_guard(sys, what, fn != NULL);
  if (rc) {
    return rc;
  }
  sys->implicit_residual = fn;
  sys->implicit_residual_user = user;
  return TEAL_OK;
}

int teal_implicit_time_derivatives_residual_size(const teal_system *sys) {
  return sys && sys->finalized ? sys->nq + sys->nv + sys->nz : -1;
}

/* Checks the arguments of teal_calc_implicit_time_derivatives_residual. */
static int check_residual_args(const teal_system *sys, const teal_context *ctx,
                               const double *proposed, int nproposed, const double *residual,
                               int nresidual) {
  static const char fn[] = "calc_implicit_time_derivatives_residual";
  int rc = teal_check_context(sys, ctx);
  if (rc) {
    return rc;
  }
  int nx = sys->nq + sys->nv + sys->nz;
  if (nx == 0 && sys->nxd > 0) {
    return teal_context_report_error(ctx, TEAL_EUNSUPPORTED,
                                     "%s on '%s': the system has discrete state but no continuous "
                                     "state; implicit residuals are defined only for "
                                     "continuous-time dynamics",
                                     fn, sys->name);
  }
  if (nproposed != nx || nresidual != nx) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "%s on '%s': proposed has %d values and residual %d; the "
                                     "continuous state has %d",
                                     fn, sys->name, nproposed, nresidual, nx);
  }
  if (nx && (!proposed || !residual)) {
    return null_array(ctx, fn, proposed ? "residual" : "proposed");
  }
  for (int i = 0; i < nx; i++) {
    if (!isfinite(proposed[i])) {
      return teal_context_report_error(ctx, TEAL_ENONFINITE,
                                       "%s on '%s': proposed[%d] is %g (not finite)", fn, sys->name,
                                       i, proposed[i]);
    }
  }
  return TEAL_OK;
}

/* The default residual of one leaf: its derivatives into r, then p - r. */
static int default_residual(const teal_system *ls, const teal_context *leaf,
                            const teal_const_continuous_view *p, teal_continuous_view *r) {
  int rc = ls->derivatives(ls, leaf, r, ls->derivatives_user);
  if (rc) {
    return rc;
  }
  for (int i = 0; i < ls->nq; i++) {
    r->q[i] = p->q[i] - r->q[i];
  }
  for (int i = 0; i < ls->nv; i++) {
    r->v[i] = p->v[i] - r->v[i];
  }
  for (int i = 0; i < ls->nz; i++) {
    r->z[i] = p->z[i] - r->z[i];
  }
  return TEAL_OK;
}

int teal_calc_implicit_time_derivatives_residual(const teal_system *sys, const teal_context *ctx,
                                                 const double *proposed, int nproposed,
                                                 double *residual, int nresidual) {
  int rc = check_residual_args(sys, ctx, proposed, nproposed, residual, nresidual);
  if (rc) {
    return rc;
  }
  const teal_context_root *root = ctx->root;
  int oq = 0, ov = sys->nq, oz = sys->nq + sys->nv; /* where v and z begin */
  for (int k = ctx->xc_begin; k < ctx->xc_end; k++) {
    const teal_context *leaf = root->xc_leaves[k];
    const teal_system *ls = leaf->system;
    ptrdiff_t dq = oq + (leaf->q - ctx->q), dv = ov + (leaf->v - ctx->v),
              dz = oz + (leaf->z - ctx->z);
    teal_const_continuous_view p = {proposed + dq, proposed + dv, proposed + dz};
    teal_continuous_view r = {residual + dq, residual + dv, residual + dz};
    unsigned long serial = root->error_serial;
    rc = ls->implicit_residual ? ls->implicit_residual(ls, leaf, &p, &r, ls->implicit_residual_user)
                               : default_residual(ls, leaf, &p, &r);
    if (rc) {
      return teal_callback_failed(leaf, rc, serial, "implicit time derivatives residual");
    }
  }
  return TEAL_OK;
}
