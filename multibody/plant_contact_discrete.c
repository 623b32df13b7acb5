/* The implicit discrete contact step (see plant_contact.h): Newton's method
 * on R(v) = M (v - v*) - h sum_i J_i' f_i(J_i v) = 0, where J_i maps v to
 * the velocity of B's point at contact i relative to A's (3 x nv, in W) and
 * f_i is the force on B: normal f_n = k (x + h xdot)_+ (1 + d xdot)_+ along
 * -n and regularized friction -mu f_n v_t / sqrt(|v_t|^2 + v_s^2). Its
 * Jacobian M - h sum J' G J (G = df/dv) is solved by LU; a backtracking
 * line search on |R| keeps the iteration safe when contacts switch. Trees
 * (subtrees hanging from the world) coupled by contacts form islands; M is
 * block diagonal over trees, so every island is solved on its own with a
 * matrix as small as its dofs. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/kinematics.h"
#include "multibody/plant_contact_internal.h"
#include "solvers/dense_lu.h"

#define NEWTON_MAX_ITERATIONS 60
#define NEWTON_TOLERANCE 1e-12

/* ---- per-contact law ------------------------------------------------------------ */

/* The implicit step tolerates a much sharper friction law than an explicit
 * integrator: regularize at a hundredth of the stiction tolerance, so that
 * stiction creeps at about 1e-5 m/s with the default 1 mm/s. */
static double discrete_regularization(const teal_plant *p) {
  return 1e-2 * teal_plant_stiction_tolerance(p);
}

/* Force on B and its derivative G (3x3 row-major, may be NULL) at the
 * relative contact velocity vc. */
static teal_vec3 discrete_force(const teal_contact_info *c, const contact_pair_params *cp,
                                double h, double eps, teal_vec3 vc, double *G) {
  teal_vec3 n = c->nhat_BA_W;
  double xdot = teal_vec3_dot(vc, n), x = c->depth + h * xdot, damp = 1.0 + cp->d * xdot;
  double fn = x > 0.0 && damp > 0.0 ? cp->k * x * damp : 0.0;
  double dfn = x > 0.0 && damp > 0.0 ? cp->k * (h * damp + x * cp->d) : 0.0;
  teal_vec3 vt = teal_vec3_sub(vc, teal_vec3_scale(n, xdot));
  double s = sqrt(teal_vec3_dot(vt, vt) + eps * eps), mu = cp->mu_d;
  teal_vec3 t = teal_vec3_scale(vt, 1.0 / s);
  teal_vec3 f = teal_vec3_sub(teal_vec3_scale(n, -fn), teal_vec3_scale(t, mu * fn));
  for (int r = 0; G && r < 3; r++) {
    for (int k = 0; k < 3; k++) {
      double P = (r == k) - n.v[r] * n.v[k];
      double dt = (P - vt.v[r] * vt.v[k] / (s * s)) / s;
      G[3 * r + k] = -(n.v[r] + mu * t.v[r]) * dfn * n.v[k] - mu * fn * dt;
    }
  }
  return f;
}

/* ---- contact Jacobians ------------------------------------------------------------ */

/* Adds sign times the Jacobian (3 x nv, wrt v, in W) of the velocity of
 * body b's point at p_WC into J. */
static int add_point_jacobian(const teal_plant *p, teal_plant_scratch *s, const double *q,
                              int b, teal_vec3 p_WC, double sign, double *J) {
  if (b == TEAL_WORLD_BODY) {
    return TEAL_OK;
  }
  const teal_transform *X = &s->X[b];
  teal_vec3 p_BC = teal_rotation_apply_inverse(X->R, teal_vec3_sub(p_WC, X->p));
  int rc = teal_mb_jacobian_translational_velocity(p, s->jws, q, TEAL_JACOBIAN_WRT_V,
                                                   teal_plant_body_frame(p, b), p_BC,
                                                   TEAL_WORLD_FRAME, TEAL_WORLD_FRAME, s->Jtmp);
  for (int i = 0; rc == TEAL_OK && i < 3 * p->nv; i++) {
    J[i] += sign * s->Jtmp[i];
  }
  return rc;
}

/* Fills the contacts, their parameters and Jacobians from the pairs. */
static int prepare_contacts(const teal_plant *p, teal_plant_scratch *s, const double *q,
                            const teal_point_pair_list *pairs) {
  int nv = p->nv, rc = teal_plant_calc_body_poses(p, q, s->X);
  for (int i = 0; rc == TEAL_OK && i < pairs->n; i++) {
    const teal_point_pair *pp = &pairs->pairs[i];
    teal_contact_info *c = &s->contacts[i];
    double *J = s->Jc + (size_t)i * 3 * nv;
    teal_contact_pair_params(p, pp->id_A, pp->id_B, &s->cparams[i]);
    teal_contact_from_pair(p, pp, &s->cparams[i], c);
    memset(J, 0, 3 * (size_t)nv * sizeof(double));
    rc = add_point_jacobian(p, s, q, c->body_B, c->p_WC, 1.0, J);
    if (rc == TEAL_OK) {
      rc = add_point_jacobian(p, s, q, c->body_A, c->p_WC, -1.0, J);
    }
  }
  return rc;
}

/* ---- islands ----------------------------------------------------------------------- */

/* Trees coupled by contacts form islands; M is block diagonal over trees,
 * so each island's Newton problem is independent and small. */
typedef struct island {
  int m, nc;          /* dofs and contacts */
  const int *dofs;    /* [m] plant v indices */
  const int *cidx;    /* [nc] contact indices */
} island;

static int uf_find(int *uf, int t) {
  while (uf[t] != t) {
    uf[t] = uf[uf[t]];
    t = uf[t];
  }
  return t;
}

/* The island root of contact c (-1 when it touches no moving tree). */
static int contact_root(teal_plant_scratch *s, int c) {
  int ta = s->body_tree[s->contacts[c].body_A], tb = s->body_tree[s->contacts[c].body_B];
  int t = tb >= 0 ? tb : ta;
  return t >= 0 ? uf_find(s->uf, t) : -1;
}

static void join_trees(teal_plant_scratch *s, int nc) {
  for (int t = 0; t < s->ntrees; t++) {
    s->uf[t] = t;
  }
  for (int c = 0; c < nc; c++) {
    int ta = s->body_tree[s->contacts[c].body_A], tb = s->body_tree[s->contacts[c].body_B];
    if (ta >= 0 && tb >= 0) {
      s->uf[uf_find(s->uf, ta)] = uf_find(s->uf, tb);
    }
  }
}

static int dof_root(teal_plant_scratch *s, int i) {
  return s->dof_tree[i] >= 0 ? uf_find(s->uf, s->dof_tree[i]) : -1;
}

/* Turns counts (in off[r + 1]) into offsets: bucket r is [off[r], off[r + 1]). */
static void prefix_sum(int *off, int nt) {
  off[0] = 0;
  for (int t = 0; t < nt; t++) {
    off[t + 1] += off[t];
  }
}

/* Buckets the contacts and the dofs by island root (counting sort): root r
 * owns island_contacts[contact_off[r] .. contact_off[r + 1]) and
 * island_dofs[dof_off[r] .. dof_off[r + 1]); only islands with contacts
 * get their dofs listed. */
static void bucket_islands(const teal_plant *p, teal_plant_scratch *s, int nc) {
  int nt = s->ntrees;
  memset(s->dof_off, 0, (size_t)(nt + 1) * sizeof(int));
  memset(s->contact_off, 0, (size_t)(nt + 1) * sizeof(int));
  for (int c = 0; c < nc; c++) {
    int r = contact_root(s, c);
    s->contact_off[r + 1] += r >= 0;
  }
  prefix_sum(s->contact_off, nt);
  for (int i = 0; i < p->nv; i++) {
    int r = dof_root(s, i);
    s->dof_off[r + 1] += r >= 0 && s->contact_off[r + 1] > s->contact_off[r];
  }
  prefix_sum(s->dof_off, nt);
  memcpy(s->cursor, s->contact_off, (size_t)nt * sizeof(int));
  for (int c = 0; c < nc; c++) {
    int r = contact_root(s, c);
    if (r >= 0) {
      s->island_contacts[s->cursor[r]++] = c;
    }
  }
  memcpy(s->cursor, s->dof_off, (size_t)nt * sizeof(int));
  for (int i = 0; i < p->nv; i++) {
    int r = dof_root(s, i);
    if (r >= 0 && s->contact_off[r + 1] > s->contact_off[r]) {
      s->island_dofs[s->cursor[r]++] = i;
    }
  }
}

/* ---- Newton on one island --------------------------------------------------------------- */

static teal_vec3 contact_velocity(const double *J, int nv, const island *is, const double *v) {
  teal_vec3 vc = teal_vec3_zero();
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < is->m; k++) {
      vc.v[r] += J[r * nv + is->dofs[k]] * v[k];
    }
  }
  return vc;
}

/* Adds -h J' G J of one contact into the island matrix A (m x m). */
static void add_contact_jacobian(const double *J, int nv, const island *is, const double *G,
                                 double h, double *A) {
  int m = is->m;
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      double g = h * G[3 * a + b];
      for (int i = 0; g != 0.0 && i < m; i++) {
        double Jai = J[a * nv + is->dofs[i]] * g;
        for (int j = 0; Jai != 0.0 && j < m; j++) {
          A[i * m + j] -= Jai * J[b * nv + is->dofs[j]];
        }
      }
    }
  }
}

/* R(v) of the island into r (local vectors); with A non-NULL also the
 * Newton matrix M - h J' G J. Returns max |r|. */
static double residual(const teal_plant *p, teal_plant_scratch *s, const island *is,
                       const double *vstar, const double *v, double *r, double *A) {
  int nv = p->nv, m = is->m;
  double h = p->time_step, eps = discrete_regularization(p), G[9], norm = 0.0;
  for (int i = 0; i < m; i++) {
    const double *Mi = s->M + (size_t)is->dofs[i] * nv;
    r[i] = 0.0;
    for (int j = 0; j < m; j++) {
      r[i] += Mi[is->dofs[j]] * (v[j] - vstar[j]);
      if (A) {
        A[i * m + j] = Mi[is->dofs[j]];
      }
    }
  }
  for (int k = 0; k < is->nc; k++) {
    int c = is->cidx[k];
    const double *J = s->Jc + (size_t)c * 3 * nv;
    teal_vec3 f = discrete_force(&s->contacts[c], &s->cparams[c], h, eps,
                                 contact_velocity(J, nv, is, v), A ? G : NULL);
    for (int j = 0; j < m; j++) {
      int d = is->dofs[j];
      r[j] -= h * (J[d] * f.v[0] + J[nv + d] * f.v[1] + J[2 * nv + d] * f.v[2]);
    }
    if (A) {
      add_contact_jacobian(J, nv, is, G, h, A);
    }
  }
  for (int i = 0; i < m; i++) {
    norm = fmax(norm, fabs(r[i]));
  }
  return norm;
}

/* One Newton iteration with a backtracking line search; returns the new
 * residual norm in *norm and the largest velocity change in *dv_max. */
static int newton_iteration(const teal_plant *p, teal_plant_scratch *s, const island *is,
                            const double *vstar, double *v, double *norm, double *dv_max) {
  int m = is->m;
  residual(p, s, is, vstar, v, s->res, s->A_newton);
  int rc = teal_lu_factor(s->A_newton, m, s->pivots, NULL);
  for (int i = 0; i < m; i++) {
    s->step[i] = -s->res[i];
  }
  if (rc == TEAL_OK) {
    rc = teal_lu_solve(s->A_newton, m, s->pivots, s->step, NULL);
  }
  if (rc) {
    return rc;
  }
  double alpha = 1.0, trial = INFINITY;
  for (int k = 0; k < 30; k++, alpha *= 0.5) {
    for (int i = 0; i < m; i++) {
      s->v_try[i] = v[i] + alpha * s->step[i];
    }
    trial = residual(p, s, is, vstar, s->v_try, s->r_try, NULL);
    if (trial <= (1.0 - 1e-4 * alpha) * *norm) {
      break;
    }
  }
  *dv_max = 0.0;
  for (int i = 0; i < m; i++) {
    *dv_max = fmax(*dv_max, fabs(s->v_try[i] - v[i]));
    v[i] = s->v_try[i];
  }
  *norm = trial;
  return TEAL_OK;
}

/* Solves one island in place in v_next. */
static int solve_island(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                        const island *is, const double *vstar, double *v_next) {
  double vscale = 1.0, dv = INFINITY;
  for (int i = 0; i < is->m; i++) {
    s->vstar_loc[i] = s->v_loc[i] = vstar[is->dofs[i]];
    vscale = fmax(vscale, fabs(s->vstar_loc[i]));
  }
  double norm = residual(p, s, is, s->vstar_loc, s->v_loc, s->res, NULL);
  int rc = TEAL_ENOCONV;
  for (int it = 0; it < NEWTON_MAX_ITERATIONS; it++) {
    if ((rc = newton_iteration(p, s, is, s->vstar_loc, s->v_loc, &norm, &dv)) != TEAL_OK) {
      break;
    }
    if (dv <= NEWTON_TOLERANCE * vscale) {
      for (int i = 0; i < is->m; i++) {
        v_next[is->dofs[i]] = s->v_loc[i];
      }
      return TEAL_OK;
    }
    rc = TEAL_ENOCONV;
  }
  return teal_context_report_error(ctx, rc, "plant: the discrete contact solve failed at t = %g "
                                   "(%s; residual %g, last step %g)", teal_context_time(ctx),
                                   teal_strerror(rc), norm, dv);
}

int teal_plant_contact_step(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                            const double *q, const teal_point_pair_list *pairs,
                            const double *vstar, double *v_next) {
  int nc = pairs ? pairs->n : 0;
  memcpy(v_next, vstar, (size_t)p->nv * sizeof(double));
  if (nc == 0) {
    return TEAL_OK;
  }
  int rc = teal_plant_scratch_reserve_contacts(s, nc);
  if (rc == TEAL_OK) {
    rc = prepare_contacts(p, s, q, pairs);
  }
  if (rc == TEAL_OK) {
    rc = teal_mb_mass_matrix(p, s->ws, q, s->M);
  }
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant: preparing the contact step failed (%s)",
                                     teal_strerror(rc));
  }
  join_trees(s, nc);
  bucket_islands(p, s, nc);
  for (int r = 0; r < s->ntrees; r++) {
    island is = {s->dof_off[r + 1] - s->dof_off[r], s->contact_off[r + 1] - s->contact_off[r],
                 s->island_dofs + s->dof_off[r], s->island_contacts + s->contact_off[r]};
    /* an island of welded bodies only (no dofs) has nothing to solve */
    if (is.nc > 0 && is.m > 0 && (rc = solve_island(p, s, ctx, &is, vstar, v_next)) != TEAL_OK) {
      return rc;
    }
  }
  return TEAL_OK;
}

int teal_plant_contact_forces_at(const teal_plant *p, teal_plant_scratch *s,
                                 const teal_context *ctx, const double *q,
                                 const teal_point_pair_list *pairs, const double *v_next,
                                 teal_contact_results *r) {
  int rc = teal_plant_calc_body_velocities(p, q, v_next, s->X, s->V);
  double h = p->time_step, eps = discrete_regularization(p);
  r->n = 0;
  for (int i = 0; rc == TEAL_OK && i < pairs->n; i++) {
    contact_pair_params cp;
    teal_contact_info *c = &r->c[r->n++];
    teal_contact_pair_params(p, pairs->pairs[i].id_A, pairs->pairs[i].id_B, &cp);
    teal_contact_from_pair(p, &pairs->pairs[i], &cp, c);
    teal_vec3 vc = teal_contact_relative_velocity(s->X, s->V, c);
    double xdot = teal_vec3_dot(vc, c->nhat_BA_W);
    c->f_Bc_W = discrete_force(c, &cp, h, eps, vc, NULL);
    c->separation_speed = -xdot;
    c->slip_speed = teal_vec3_norm(teal_vec3_sub(vc, teal_vec3_scale(c->nhat_BA_W, xdot)));
  }
  return rc ? teal_context_report_error(ctx, rc, "plant: contact results failed") : TEAL_OK;
}
