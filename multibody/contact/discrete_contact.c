/* The implicit discrete contact step (see plant_contact.h): Newton's method
 * on R(v) = M (v - v*) - h sum_i J_i' f_i(J_i v) = 0, where J_i maps v to
 * the velocity of B's point at contact i relative to A's (3 x nv, in W) and
 * f_i is the force on B: normal f_n = k (x + h xdot)_+ (1 + d xdot)_+ along
 * -n and regularized friction -mu f_n v_t / sqrt(|v_t|^2 + v_s^2). Its
 * Jacobian M - h sum J' G J (G = df/dv) is solved by LU; a backtracking
 * line search on |R| keeps the iteration safe when contacts switch. Here
 * M stands for M + h D with the joint damping D, implicit as in Drake's
 * discrete solvers: the blocks of M the free motion left in the data hold
 * it (plant_discrete.c).
 *
 * Everything works per kinematic tree (multibody/tree/forest.h), as Drake's SAP
 * and TAMSI do: M is block diagonal over trees, so the step forms only the
 * blocks, and a contact touches at most two trees, so its Jacobian is kept
 * as at most two 3 x m_t blocks. Trees coupled by contacts form islands;
 * each island's Newton problem is independent and as small as its dofs. A
 * forest of K free bodies resting on the ground costs O(K) memory and work
 * per step; a single articulated tree is one island with the full M, as
 * before. */
#include <math.h>
#include <string.h>

#include "math/small_dense.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/contact/discrete_contact_solver.h"
#include "multibody/plant/discrete_constraints_internal.h"
#include "multibody/tree/forest.h"
#include "solvers/dense_lu.h"

#define NEWTON_MAX_ITERATIONS 60
#define NEWTON_TOLERANCE 1e-12
/* islands up to this many dofs use the inline LU below, larger ones LAPACK */
#define SMALL_LU_MAX 24

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

static int use_sap(const teal_plant *p) {
  return p->contact.discrete_solver == TEAL_DISCRETE_CONTACT_SOLVER_SAP;
}

/* The force on B of contact c at vc and its derivative G (NULL: none) by
 * the law of the plant's solver (SAP's needs the step's regularization). */
static teal_vec3 contact_force(const teal_plant *p, const teal_plant_scratch *s, int c,
                               teal_vec3 vc, double *G) {
  const teal_contact_info *ci = &s->step.contacts[c];
  if (use_sap(p)) {
    return teal_sap_force(ci, &s->step.cparams[c], p->time_step, vc, G);
  }
  return discrete_force(ci, &s->step.cparams[c], p->time_step, discrete_regularization(p), vc, G);
}

/* ---- contact Jacobians ------------------------------------------------------------ */

/* (contact c's Jacobian blocks: teal_contact_jac_block, contact_internal.h) */
static double *jac_block(const teal_plant_scratch *s, int c, int k) {
  return teal_contact_jac_block(s, c, k);
}

static int tree_nv(const teal_plant_scratch *s, int t) {
  return teal_mb_trees_tree_nv(s->step.trees, t);
}

/* The Jacobian blocks of contact c (the kinematics are in s->data). */
static int contact_jacobian(const teal_plant *p, teal_plant_scratch *s, int c) {
  const teal_contact_info *ci = &s->step.contacts[c];
  int tb = s->step.trees->body_tree[ci->body_B], ta = s->step.trees->body_tree[ci->body_A];
  int *jt = s->step.jtree + 2 * c;
  jt[0] = tb;
  jt[1] = ta != tb ? ta : -1;
  for (int k = 0; k < 2; k++) {
    memset(jac_block(s, c, k), 0, 3 * (size_t)tree_nv(s, jt[k]) * sizeof(double));
  }
  int rc = teal_mb_tree_point_jacobian(p, s->data, s->step.trees, ci->body_B, ci->p_WC, 1.0,
                                       jac_block(s, c, 0));
  if (rc == TEAL_OK) {
    rc = teal_mb_tree_point_jacobian(p, s->data, s->step.trees, ci->body_A, ci->p_WC, -1.0,
                                     jac_block(s, c, ta != tb));
  }
  return rc;
}

/* Fills step contacts [c, c + n) from the pushing faces of the k-th
 * hydroelastic pair's surface (teal_plant_hydro_step_surfaces made it); n
 * returned. */
static int hydro_contacts(const teal_plant *p, teal_plant_scratch *s, int k, int soft, int rigid,
                          int c, int *rc) {
  const teal_contact_surface *hs = &s->step.hsurf[k];
  int n = 0;
  for (int f = 0; *rc == TEAL_OK && f < hs->num_faces; f++) {
    if (teal_hydro_face_pushes(&hs->faces[f])) {
      teal_plant_hydro_face_contact(p, soft, rigid, &hs->faces[f], &s->step.contacts[c + n],
                                    &s->step.cparams[c + n]);
      *rc = contact_jacobian(p, s, c + n);
      n++;
    }
  }
  return n;
}

/* Fills the contacts, their parameters and Jacobians from the pairs (the
 * kinematics are those of teal_mb_forward_dynamics_blocks's q in s->data):
 * one per point pair, one per face of a hydroelastic pair. */
static int prepare_contacts(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                            const teal_point_pair_list *pairs) {
  int rc = TEAL_OK, c = 0, k = 0;
  for (int i = 0; rc == TEAL_OK && i < pairs->n; i++) {
    const teal_point_pair *pp = &pairs->pairs[i];
    int soft, rigid,
        hydro = teal_plant_hydro_pair(p, ctx, teal_contact_plant_geometry(p, pp->id_A),
                                      teal_contact_plant_geometry(p, pp->id_B), &soft, &rigid);
    if (hydro) {
      c += hydro > 0 ? hydro_contacts(p, s, k++, soft, rigid, c, &rc) : 0;
      rc = hydro < 0 ? hydro : rc;
      continue;
    }
    teal_contact_pair_params(p, pp, &s->step.cparams[c]);
    teal_contact_from_pair(p, pp, &s->step.cparams[c], &s->step.contacts[c]);
    rc = contact_jacobian(p, s, c++);
  }
  return rc;
}

/* ---- islands ----------------------------------------------------------------------- */

/* Trees coupled by contacts or constraint rows form islands (union-find
 * over trees). */
typedef struct island {
  int m, nc, nt, nr; /* dofs, contacts, trees, constraint rows */
  const int *trees;  /* [nt] tree indices; tree_off[t] is t's first local dof */
  const int *cidx;   /* [nc] contact indices */
  const int *ridx;   /* [nr] constraint row indices */
} island;

/* The island root of contact c (-1 when it touches no tree). */
static int contact_root(teal_plant_scratch *s, int c) {
  int t = s->step.jtree[2 * c] >= 0 ? s->step.jtree[2 * c] : s->step.jtree[2 * c + 1];
  return t >= 0 ? teal_island_find(s->step.uf, t) : -1;
}

static void join_trees(teal_plant_scratch *s, int nc) {
  for (int t = 0; t < s->step.trees->ntrees; t++) {
    s->step.uf[t] = t;
  }
  for (int c = 0; c < nc; c++) {
    int ta = s->step.jtree[2 * c], tb = s->step.jtree[2 * c + 1];
    if (ta >= 0 && tb >= 0) {
      s->step.uf[teal_island_find(s->step.uf, ta)] = teal_island_find(s->step.uf, tb);
    }
  }
  teal_discrete_rows_join(s);
}

/* Turns counts (in off[r + 1]) into offsets: bucket r is [off[r], off[r + 1]). */
static void prefix_sum(int *off, int nt) {
  off[0] = 0;
  for (int t = 0; t < nt; t++) {
    off[t + 1] += off[t];
  }
}

/* Whether the island of root r has contacts or constraint rows to solve
 * (the rows are bucketed first). */
static int island_has_work(const teal_plant_scratch *s, int r) {
  return s->step.contact_off[r + 1] > s->step.contact_off[r] ||
         s->step.row_off[r + 1] > s->step.row_off[r];
}

/* Buckets the contacts and the trees by island root (counting sort): root
 * r owns island_contacts[contact_off[r] .. contact_off[r + 1]) and
 * island_trees[tree_bucket[r] .. tree_bucket[r + 1]); only islands with
 * contacts or constraint rows get their trees listed. */
static void bucket_islands(teal_plant_scratch *s, int nc) {
  int nt = s->step.trees->ntrees;
  teal_discrete_rows_bucket(s);
  memset(s->step.tree_bucket, 0, (size_t)(nt + 1) * sizeof(int));
  memset(s->step.contact_off, 0, (size_t)(nt + 1) * sizeof(int));
  for (int c = 0; c < nc; c++) {
    int r = contact_root(s, c);
    s->step.contact_off[r + 1] += r >= 0;
  }
  prefix_sum(s->step.contact_off, nt);
  for (int t = 0; t < nt; t++) {
    int r = teal_island_find(s->step.uf, t);
    s->step.tree_bucket[r + 1] += island_has_work(s, r);
  }
  prefix_sum(s->step.tree_bucket, nt);
  memcpy(s->step.cursor, s->step.contact_off, (size_t)nt * sizeof(int));
  for (int c = 0; c < nc; c++) {
    int r = contact_root(s, c);
    if (r >= 0) {
      s->step.island_contacts[s->step.cursor[r]++] = c;
    }
  }
  memcpy(s->step.cursor, s->step.tree_bucket, (size_t)nt * sizeof(int));
  for (int t = 0; t < nt; t++) {
    int r = teal_island_find(s->step.uf, t);
    if (island_has_work(s, r)) {
      s->step.island_trees[s->step.cursor[r]++] = t;
    }
  }
}

/* ---- Newton on one island --------------------------------------------------------------- */

/* J v of contact c over the island's local velocities v. */
static teal_vec3 contact_velocity(const teal_plant_scratch *s, int c, const double *v) {
  teal_vec3 vc = teal_vec3_zero();
  for (int k = 0; k < 2; k++) {
    int t = s->step.jtree[2 * c + k], m = tree_nv(s, t);
    const double *J = jac_block(s, c, k), *vt = t >= 0 ? v + s->step.tree_off[t] : NULL;
    for (int r = 0; r < 3; r++) {
      for (int j = 0; j < m; j++) {
        vc.v[r] += J[r * m + j] * vt[j];
      }
    }
  }
  return vc;
}

/* r -= h J' f for contact c (local vectors). */
static void add_contact_force(const teal_plant_scratch *s, int c, teal_vec3 f, double h,
                              double *r) {
  for (int k = 0; k < 2; k++) {
    int t = s->step.jtree[2 * c + k], m = tree_nv(s, t);
    const double *J = jac_block(s, c, k);
    for (int j = 0; j < m; j++) {
      r[s->step.tree_off[t] + j] -= h * (J[j] * f.v[0] + J[m + j] * f.v[1] + J[2 * m + j] * f.v[2]);
    }
  }
}

/* A -= h J_k1' G J_k2 over the blocks of contact c (A is m x m, local). */
static void add_contact_jacobian(const teal_plant_scratch *s, int c, const double *G, double h,
                                 double *A, int m) {
  for (int k2 = 0; k2 < 2; k2++) {
    int t2 = s->step.jtree[2 * c + k2], m2 = tree_nv(s, t2);
    const double *J2 = jac_block(s, c, k2);
    for (int j = 0; j < m2; j++) {
      double gj[3]; /* h G J2 column j */
      for (int a = 0; a < 3; a++) {
        gj[a] = h * (G[3 * a] * J2[j] + G[3 * a + 1] * J2[m2 + j] + G[3 * a + 2] * J2[2 * m2 + j]);
      }
      int col = s->step.tree_off[t2] + j;
      for (int k1 = 0; k1 < 2; k1++) {
        int t1 = s->step.jtree[2 * c + k1], m1 = tree_nv(s, t1);
        const double *J1 = jac_block(s, c, k1);
        for (int i = 0; i < m1; i++) {
          A[(s->step.tree_off[t1] + i) * m + col] -=
              J1[i] * gj[0] + J1[m1 + i] * gj[1] + J1[2 * m1 + i] * gj[2];
        }
      }
    }
  }
}

/* r = M (v - v*) over the island's trees; with A non-NULL also A = M
 * (block diagonal, the rest zeroed). */
static void mass_residual(const teal_plant_scratch *s, const island *is, const double *vstar,
                          const double *v, double *r, double *A) {
  if (A) {
    memset(A, 0, (size_t)is->m * (size_t)is->m * sizeof(double));
  }
  for (int k = 0; k < is->nt; k++) {
    int t = is->trees[k], mt = tree_nv(s, t), o = s->step.tree_off[t];
    const double *Mt = s->data->Mb + s->step.trees->block_start[t];
    for (int i = 0; i < mt; i++) {
      double acc = 0.0;
      for (int j = 0; j < mt; j++) {
        acc += Mt[i * mt + j] * (v[o + j] - vstar[o + j]);
      }
      r[o + i] = acc;
      if (A) {
        memcpy(A + (size_t)(o + i) * is->m + o, Mt + i * mt, (size_t)mt * sizeof(double));
      }
    }
  }
}

/* R(v) of the island into r (local vectors); with A non-NULL also the
 * Newton matrix M - h J' G J. Returns max |r|. */
static double residual(const teal_plant *p, teal_plant_scratch *s, const island *is,
                       const double *vstar, const double *v, double *r, double *A) {
  double h = p->time_step, G[9], norm = 0.0;
  mass_residual(s, is, vstar, v, r, A);
  for (int k = 0; k < is->nc; k++) {
    int c = is->cidx[k];
    teal_vec3 f = contact_force(p, s, c, contact_velocity(s, c, v), A ? G : NULL);
    add_contact_force(s, c, f, h, r);
    if (A) {
      add_contact_jacobian(s, c, G, h, A, is->m);
    }
  }
  teal_discrete_rows_add(p, s, is->ridx, is->nr, v, r, A, is->m);
  for (int i = 0; i < is->m; i++) {
    norm = fmax(norm, fabs(r[i]));
  }
  return norm;
}

/* step = -A^-1 res (A is factored in place). */
static int newton_direction(teal_plant_scratch *s, int m) {
  for (int i = 0; i < m; i++) {
    s->step.dir[i] = -s->step.res[i];
  }
  if (m <= SMALL_LU_MAX) {
    /* islands of a few free bodies (6 to 24 dofs): loops beat a LAPACK call */
    if (teal_small_lu_factor(s->step.A_newton, m, s->step.pivots)) {
      return TEAL_ESINGULAR;
    }
    teal_small_lu_solve(s->step.A_newton, m, s->step.pivots, s->step.dir);
    return TEAL_OK;
  }
  int rc = teal_dense_lu_factor(s->step.A_newton, m, s->step.pivots, NULL);
  return rc ? rc : teal_dense_lu_solve(s->step.A_newton, m, s->step.pivots, s->step.dir, NULL);
}

/* TAMSI's line search: halves the step from 1 until |R| decreases enough;
 * v_try and r_try hold the accepted point. Returns its max |R|. */
static double backtracking_line_search(const teal_plant *p, teal_plant_scratch *s, const island *is,
                                       const double *vstar, const double *v, double norm) {
  double alpha = 1.0, trial = INFINITY;
  for (int k = 0; k < 30; k++, alpha *= 0.5) {
    for (int i = 0; i < is->m; i++) {
      s->step.v_try[i] = v[i] + alpha * s->step.dir[i];
    }
    trial = residual(p, s, is, vstar, s->step.v_try, s->step.r_try, NULL);
    if (trial <= (1.0 - 1e-4 * alpha) * norm) {
      break;
    }
  }
  return trial;
}

/* The slope dir . grad l(v + alpha dir) of SAP's cost along the Newton
 * direction (the residual is the cost's gradient); v_try and r_try are
 * left at that point, *norm gets its max |R|. */
static double slope_at(const teal_plant *p, teal_plant_scratch *s, const island *is,
                       const double *vstar, const double *v, double alpha, double *norm) {
  for (int i = 0; i < is->m; i++) {
    s->step.v_try[i] = v[i] + alpha * s->step.dir[i];
  }
  *norm = residual(p, s, is, vstar, s->step.v_try, s->step.r_try, NULL);
  double g = 0.0;
  for (int i = 0; i < is->m; i++) {
    g += s->step.dir[i] * s->step.r_try[i];
  }
  return g;
}

/* SAP's exact line search: the cost is convex along the direction, so its
 * slope grows from g(0) = dir . R(v) < 0; the step is the slope's root in
 * (0, 1] (regula falsi, Illinois variant, which keeps the bracket), or 1
 * when the slope is still <= 0 there. v_try and r_try hold the point;
 * returns its max |R|. */
static double exact_line_search(const teal_plant *p, teal_plant_scratch *s, const island *is,
                                const double *vstar, const double *v) {
  double g0 = 0.0, norm;
  for (int i = 0; i < is->m; i++) {
    g0 += s->step.dir[i] * s->step.res[i];
  }
  double lo = 0.0, hi = 1.0, glo = g0, ghi = slope_at(p, s, is, vstar, v, 1.0, &norm);
  if (ghi <= 0.0 || g0 >= 0.0) {
    return norm;
  }
  for (int k = 0, side = 0; k < 60; k++) {
    double a = (lo * ghi - hi * glo) / (ghi - glo);
    a = a > lo && a < hi ? a : 0.5 * (lo + hi);
    double g = slope_at(p, s, is, vstar, v, a, &norm);
    if (fabs(g) <= 1e-10 * -g0 || hi - lo <= 1e-14) {
      break;
    }
    /* Illinois: halve the kept end's slope when the same end moves twice */
    if (g < 0.0) {
      ghi *= side < 0 ? 0.5 : 1.0;
      lo = a;
      glo = g;
      side = -1;
    } else {
      glo *= side > 0 ? 0.5 : 1.0;
      hi = a;
      ghi = g;
      side = 1;
    }
  }
  return norm;
}

/* One Newton iteration with a line search (backtracking for TAMSI, exact
 * for SAP); returns the new residual norm in *norm and the largest
 * velocity change in *dv_max. A
 * step below tol is taken whole: the iteration has converged, and near
 * round-off the residual cannot show a decrease to the line search. */
static int newton_iteration(const teal_plant *p, teal_plant_scratch *s, const island *is,
                            const double *vstar, double tol, double *v, double *norm,
                            double *dv_max) {
  int m = is->m;
  residual(p, s, is, vstar, v, s->step.res, s->step.A_newton);
  int rc = newton_direction(s, m);
  if (rc) {
    return rc;
  }
  *dv_max = 0.0;
  for (int i = 0; i < m; i++) {
    *dv_max = fmax(*dv_max, fabs(s->step.dir[i]));
  }
  if (*dv_max <= tol) {
    for (int i = 0; i < m; i++) {
      v[i] += s->step.dir[i];
    }
    return TEAL_OK;
  }
  double trial = use_sap(p) ? exact_line_search(p, s, is, vstar, v)
                            : backtracking_line_search(p, s, is, vstar, v, *norm);
  *dv_max = 0.0;
  for (int i = 0; i < m; i++) {
    *dv_max = fmax(*dv_max, fabs(s->step.v_try[i] - v[i]));
    v[i] = s->step.v_try[i];
  }
  *norm = trial;
  return TEAL_OK;
}

/* Local offsets of the island's trees, its dof count, v* gathered into
 * vstar_loc and the guess v0 into v_loc (the Newton start); returns
 * max(1, |v*|). */
static double gather_island(teal_plant_scratch *s, island *is, const double *v0,
                            const double *vstar) {
  double vscale = 1.0;
  is->m = 0;
  for (int k = 0; k < is->nt; k++) {
    int t = is->trees[k], mt = tree_nv(s, t);
    const int *dofs = s->step.trees->dofs + s->step.trees->dof_start[t];
    s->step.tree_off[t] = is->m;
    for (int j = 0; j < mt; j++) {
      double x = vstar[dofs[j]];
      s->step.vstar_loc[is->m + j] = x;
      s->step.v_loc[is->m + j] = v0[dofs[j]];
      vscale = fmax(vscale, fabs(x));
    }
    is->m += mt;
  }
  return vscale;
}

static void scatter_island(const teal_plant_scratch *s, const island *is, double *v_next) {
  for (int k = 0; k < is->nt; k++) {
    int t = is->trees[k], mt = tree_nv(s, t);
    const int *dofs = s->step.trees->dofs + s->step.trees->dof_start[t];
    for (int j = 0; j < mt; j++) {
      v_next[dofs[j]] = s->step.v_loc[s->step.tree_off[t] + j];
    }
  }
}

/* An island of constraint rows only: R(v) is linear in v, so one Newton
 * step from any v solves it. */
static int solve_linear_island(const teal_plant *p, teal_plant_scratch *s, const island *is,
                               double *v_next) {
  residual(p, s, is, s->step.vstar_loc, s->step.v_loc, s->step.res, s->step.A_newton);
  int rc = newton_direction(s, is->m);
  for (int i = 0; rc == TEAL_OK && i < is->m; i++) {
    s->step.v_loc[i] += s->step.dir[i];
  }
  if (rc == TEAL_OK) {
    scatter_island(s, is, v_next);
    teal_discrete_rows_multipliers(p, s, is->ridx, is->nr, s->step.v_loc);
  }
  return rc;
}

/* SAP's forces at the island's solution, kept in the contacts for the
 * contact results (teal_plant_contact_forces_at). */
static void record_sap_forces(const teal_plant *p, teal_plant_scratch *s, const island *is) {
  for (int k = 0; k < is->nc; k++) {
    int c = is->cidx[k];
    s->step.contacts[c].f_Bc_W =
        contact_force(p, s, c, contact_velocity(s, c, s->step.v_loc), NULL);
  }
}

/* Solves one island, writing its dofs of v_next. */
static int solve_island(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                        island *is, const double *v0, const double *vstar, double *v_next) {
  double vscale = gather_island(s, is, v0, vstar), dv = INFINITY;
  int rc = teal_step_data_reserve_island(&s->step, is->m);
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant: no memory for a contact island of %d "
                                     "dofs", is->m);
  }
  if (is->nc == 0 && (rc = solve_linear_island(p, s, is, v_next)) == TEAL_OK) {
    return TEAL_OK;
  }
  /* SAP's regularization: the Cholesky factor of a tree's block of M in
   * A_newton and one column in dir, before Newton needs them */
  if (use_sap(p) &&
      (rc = teal_sap_regularize(p, s, is->cidx, is->nc, s->step.A_newton, s->step.dir))) {
    return teal_context_report_error(ctx, rc,
                                     "plant: SAP contact step at t = %g: a block of "
                                     "the mass matrix is not positive definite",
                                     teal_context_time(ctx));
  }
  double norm = residual(p, s, is, s->step.vstar_loc, s->step.v_loc, s->step.res, NULL);
  rc = TEAL_ENOCONV;
  for (int it = 0; it < NEWTON_MAX_ITERATIONS; it++) {
    double tol = NEWTON_TOLERANCE * vscale;
    if ((rc = newton_iteration(p, s, is, s->step.vstar_loc, tol, s->step.v_loc, &norm, &dv)) !=
        TEAL_OK) {
      break;
    }
    if (dv <= tol) {
      scatter_island(s, is, v_next);
      if (use_sap(p)) {
        record_sap_forces(p, s, is);
      }
      teal_discrete_rows_multipliers(p, s, is->ridx, is->nr, s->step.v_loc);
      return TEAL_OK;
    }
    rc = TEAL_ENOCONV;
  }
  return teal_context_report_error(ctx, rc, "plant: the discrete contact solve failed at t = %g "
                                   "(%s; residual %g, last step %g)", teal_context_time(ctx),
                                   teal_strerror(rc), norm, dv);
}

int teal_plant_contact_step(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                            const teal_point_pair_list *pairs,
                            const double *v0, const double *vstar, double *v_next) {
  int nc = pairs && pairs->n > 0 ? teal_plant_hydro_step_surfaces(p, s, ctx, pairs) : 0;
  memcpy(v_next, vstar, (size_t)p->nv * sizeof(double));
  if (nc < 0 || (nc == 0 && s->step.nrows == 0)) {
    return nc < 0 ? nc : TEAL_OK;
  }
  int rc = nc > 0 ? teal_step_data_reserve_contacts(&s->step, nc) : TEAL_OK;
  if (rc == TEAL_OK && nc > 0) {
    rc = prepare_contacts(p, s, ctx, pairs);
  }
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant: preparing the contact step failed (%s: %s)",
                                     teal_strerror(rc), teal_mb_data_error(s->data)->message);
  }
  join_trees(s, nc);
  bucket_islands(s, nc);
  for (int r = 0; r < s->step.trees->ntrees; r++) {
    island is = {0,
                 s->step.contact_off[r + 1] - s->step.contact_off[r],
                 s->step.tree_bucket[r + 1] - s->step.tree_bucket[r],
                 s->step.row_off[r + 1] - s->step.row_off[r],
                 s->step.island_trees + s->step.tree_bucket[r],
                 s->step.island_contacts + s->step.contact_off[r],
                 s->step.island_rows + s->step.row_off[r]};
    /* contacts between anchored bodies only belong to no island */
    if ((is.nc > 0 || is.nr > 0) && is.nt > 0) {
      rc = solve_island(p, s, ctx, &is, v0 ? v0 : vstar, vstar, v_next);
    }
    if (rc != TEAL_OK) {
      return rc;
    }
  }
  return TEAL_OK;
}

/* The SAP force of contact i as the step that made v_next left it, after
 * checking that the step's contact i is the same contact. */
static int sap_step_force(const teal_plant_scratch *s, int i, teal_contact_info *c) {
  const teal_contact_info *sc = i < s->step.nc_cap ? &s->step.contacts[i] : NULL;
  if (!sc || sc->geometry_A != c->geometry_A || sc->geometry_B != c->geometry_B ||
      sc->depth != c->depth) {
    return TEAL_ESTATE;
  }
  c->f_Bc_W = sc->f_Bc_W;
  return TEAL_OK;
}

/* The force on B of step contact i (c with parameters cp, at relative
 * velocity vc) at v_next: the discrete law, or SAP's as the step left it. */
static int result_force(const teal_plant *p, const teal_plant_scratch *s, int i,
                        const contact_pair_params *cp, teal_vec3 vc, teal_contact_info *c) {
  if (use_sap(p)) { /* SAP's law needs the step's regularization */
    return sap_step_force(s, i, c);
  }
  c->f_Bc_W = discrete_force(c, cp, p->time_step, discrete_regularization(p), vc, NULL);
  return TEAL_OK;
}

/* Appends the hydroelastic contact of pair (soft, rigid) to r: its surface
 * at the step's q and the forces of its faces' step contacts, from step
 * contact *sc on. */
static int hydro_result(const teal_plant *p, const teal_plant_scratch *s, const teal_context *ctx,
                        int soft, int rigid, int *sc, teal_contact_results *r) {
  int n = r->num_hydroelastic;
  if (n == r->hydroelastic_cap && teal_contact_results_reserve_hydroelastic(r, 2 * n + 1)) {
    return TEAL_ENOMEM;
  }
  teal_hydroelastic_contact_info *h = &r->hydroelastic[n];
  int rc = teal_plant_hydro_surface(p, ctx, s->data->X_WB, soft, rigid, h);
  for (int f = 0; rc == TEAL_OK && f < h->surface.num_faces; f++) {
    const teal_contact_polygon *face = &h->surface.faces[f];
    if (!teal_hydro_face_pushes(face)) {
      continue;
    }
    teal_contact_info c;
    contact_pair_params cp;
    teal_plant_hydro_face_contact(p, soft, rigid, face, &c, &cp);
    teal_vec3 vc = teal_contact_relative_velocity(s->data->X_WB, s->data->V_WB, &c);
    if ((rc = result_force(p, s, (*sc)++, &cp, vc, &c)) == TEAL_OK) {
      teal_hydro_add_face_force(h, face->centroid, c.f_Bc_W);
    }
  }
  r->num_hydroelastic += rc == TEAL_OK && h->surface.num_faces > 0;
  return rc;
}

/* Appends the point contact of pair pp, step contact sc, to r. */
static int point_result(const teal_plant *p, const teal_plant_scratch *s, const teal_point_pair *pp,
                        int sc, teal_contact_results *r) {
  contact_pair_params cp;
  teal_contact_info *c = &r->c[r->n++];
  teal_contact_pair_params(p, pp, &cp);
  teal_contact_from_pair(p, pp, &cp, c);
  teal_vec3 vc = teal_contact_relative_velocity(s->data->X_WB, s->data->V_WB, c);
  double xdot = teal_vec3_dot(vc, c->nhat_BA_W);
  c->separation_speed = -xdot;
  c->slip_speed = teal_vec3_norm(teal_vec3_sub(vc, teal_vec3_scale(c->nhat_BA_W, xdot)));
  return result_force(p, s, sc, &cp, vc, c);
}

int teal_plant_contact_forces_at(const teal_plant *p, teal_plant_scratch *s,
                                 const teal_context *ctx, const double *q,
                                 const teal_point_pair_list *pairs, const double *v_next,
                                 teal_contact_results *r) {
  int rc = teal_mb_body_velocities(p, q, v_next, s->data->X_WB, s->data->V_WB), sc = 0;
  r->n = 0;
  for (int i = 0; rc == TEAL_OK && i < pairs->n; i++) {
    const teal_point_pair *pp = &pairs->pairs[i];
    int soft, rigid,
        hydro = teal_plant_hydro_pair(p, ctx, teal_contact_plant_geometry(p, pp->id_A),
                                      teal_contact_plant_geometry(p, pp->id_B), &soft, &rigid);
    if (hydro < 0) {
      return hydro;
    }
    rc = hydro ? hydro_result(p, s, ctx, soft, rigid, &sc, r) : point_result(p, s, pp, sc++, r);
  }
  return rc ? teal_context_report_error(ctx, rc, "plant: contact results failed (%s)",
                                        rc == TEAL_ESTATE ? "the SAP step's contacts are not "
                                                            "those of the query"
                                                          : teal_strerror(rc))
            : TEAL_OK;
}
