/* The constraints' per-context working memory, its staging at a context's
 * state, and the enabled-flags parameter (see constraint_internal.h). */
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_system.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/plant/plant_calc_internal.h"

void teal_constraint_work_free(teal_constraint_work *w) {
  if (w) {
    teal_free(w->X);
    teal_free(w->V);
    teal_free(w->zero_nv);
    teal_free(w->G);
    teal_free(w->W);
    teal_free(w->perm);
    teal_free(w);
  }
}

/* The vectors in three allocations: body kinematics, nv- and m-sized
 * doubles, and the m x nv and m x m matrices (with the solve's 2 m). */
static int work_alloc(teal_constraint_work *w) {
  size_t nb = (size_t)w->nb, nv = (size_t)w->nv, m = (size_t)w->m;
  w->X = teal_alloc(nb * sizeof(teal_transform));
  w->V = teal_alloc(4 * nb * sizeof(teal_spatial_vector));
  w->zero_nv = teal_calloc(3 * nv + 4 * m + 1, sizeof(double));
  w->G = teal_calloc(2 * m * nv + 1, sizeof(double));
  w->W = teal_calloc(2 * m * m + 2 * m + 1, sizeof(double));
  w->perm = teal_calloc(m + 1, sizeof(int));
  if (!w->X || !w->V || !w->zero_nv || !w->G || !w->W || !w->perm) {
    return TEAL_ENOMEM;
  }
  w->A = w->V + nb;
  w->Vu = w->A + nb;
  w->F = w->Vu + nb;
  w->tmp_nv = w->zero_nv + nv;
  w->tmp_nv2 = w->tmp_nv + nv;
  w->r1 = w->tmp_nv2 + nv;
  w->r2 = w->r1 + m;
  w->r3 = w->r2 + m;
  w->active = w->r3 + m;
  w->Y = w->G + m * nv;
  w->L = w->W + m * m;
  w->psd_work = w->L + m * m;
  return TEAL_OK;
}

teal_constraint_work *teal_constraint_work_new(const teal_plant *p, int *rc) {
  *rc = TEAL_OK;
  if (p->constraints.n == 0) {
    return NULL;
  }
  teal_constraint_work *w = teal_calloc(1, sizeof(*w));
  if (!w) {
    *rc = TEAL_ENOMEM;
    return NULL;
  }
  w->m = p->nc_rows;
  w->nv = p->nv;
  w->nq = p->nq;
  w->nb = p->bodies.n;
  w->nc = p->constraints.n;
  if ((*rc = work_alloc(w)) != TEAL_OK) {
    teal_constraint_work_free(w);
    return NULL;
  }
  return w;
}

int teal_plant_declare_constraint_parameter(teal_system *sys, const teal_plant *p) {
  int n = p->constraints.n > 0 ? p->constraints.n : 1;
  double *flags = teal_calloc((size_t)n, sizeof(double));
  if (!flags) {
    return TEAL_ENOMEM; /* the leaf's finalize then fails on the bad index */
  }
  for (int i = 0; i < p->constraints.n; i++) {
    flags[i] = CONSTRAINT(p)[i].default_enabled ? 1.0 : 0.0;
  }
  int index = teal_leaf_declare_numeric_parameter(sys, n, flags);
  teal_free(flags);
  return index;
}

/* The active rows of the enabled constraints. */
static void set_active(const teal_plant *p, teal_constraint_work *w, const teal_context *own) {
  w->enabled = teal_context_numeric_parameter(own, p->sys.param_constraints);
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    for (int r = 0; r < c->rows; r++) {
      w->active[c->row_start + r] = w->enabled[i] != 0.0 ? 1.0 : 0.0;
    }
  }
}

/* The scratch, q and v of the plant's own context in ctx. */
static teal_plant_scratch *staged(const teal_plant *p, const teal_context *ctx, const char *fn,
                                  int *rc, const double **q, const double **v) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
    return NULL;
  }
  teal_plant_scratch *s = teal_plant_staged_qv(p->system, own, p, q, v, rc);
  if (s && s->cwork) {
    set_active(p, s->cwork, own);
  }
  return s;
}

teal_constraint_work *teal_constraint_stage_positions(const teal_plant *p, const teal_context *ctx,
                                                      const char *fn, int *rc, const double **q) {
  const double *v;
  teal_plant_scratch *s = staged(p, ctx, fn, rc, q, &v);
  if (!s || !s->cwork) {
    return NULL;
  }
  *rc = teal_mb_body_poses(p, *q, s->cwork->X);
  if (*rc) {
    *rc = teal_context_report_error(ctx, *rc, "%s: the body poses failed", fn);
    return NULL;
  }
  return s->cwork;
}

teal_constraint_work *teal_constraint_stage(const teal_plant *p, const teal_context *ctx,
                                            const char *fn, int *rc, teal_plant_scratch **scratch,
                                            const double **q, const double **v) {
  const double *qq, *vv;
  teal_plant_scratch *s = staged(p, ctx, fn, rc, &qq, &vv);
  if (scratch) {
    *scratch = s;
  }
  if (q) {
    *q = qq;
  }
  if (v) {
    *v = vv;
  }
  if (!s || !s->cwork) {
    return NULL;
  }
  teal_constraint_work *w = s->cwork;
  w->velocity_stagings++;
  *rc = teal_mb_body_accelerations(p, qq, vv, w->zero_nv, w->X, w->V, w->A);
  if (*rc) {
    *rc = teal_context_report_error(ctx, *rc, "%s: the body kinematics failed", fn);
    return NULL;
  }
  return w;
}
