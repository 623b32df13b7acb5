/* The plant's per-context scratch (its multibody data and the discrete
 * step's working memory), the lookup of its own context and its state arrays
 * (see plant_calc_internal.h). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/constraints/unilateral_internal.h"
#include "multibody/plant/held_dofs_internal.h"
#include "multibody/plant/plant_projection_internal.h"
#include "multibody/plant/plant_calc_internal.h"

/* ---- scratch ------------------------------------------------------------------ */

static void scratch_free(void *value) {
  teal_plant_scratch *s = value;
  teal_mb_data_free(s->data);
  teal_step_data_release(&s->step);
  teal_mb_derivatives_free(s->deriv);
  teal_free(s->jac);
  teal_free(s->fe);
  teal_free(s->held_work);
  teal_free(s->proj_work);
  teal_constraint_work_free(s->cwork);
  teal_unilateral_work_free(s->uwork);
  memset(s, 0, sizeof(*s));
}

/* Allocates the multibody data of a scratch for plant p, and the working
 * memory of the time step when p is discrete. */
static int scratch_alloc(teal_plant_scratch *s, const teal_plant *p) {
  s->plant = p;
  s->data = teal_mb_data_new(p, NULL);
  int rc = TEAL_OK;
  s->cwork = s->data ? teal_constraint_work_new(p, &rc) : NULL;
  if (s->data && rc == TEAL_OK && p->sys.discrete) {
    s->uwork = teal_unilateral_work_new(p, &rc);
  }
  if (!s->data || rc || (p->sys.discrete && teal_step_data_init(&s->step, p) != TEAL_OK) ||
      teal_plant_held_reserve(s, p, teal_plant_num_prescribed(p)) != TEAL_OK ||
      (!p->sys.discrete && teal_plant_projection_reserve(s, p) != TEAL_OK)) {
    scratch_free(s);
    return TEAL_ENOMEM;
  }
  teal_mb_data_stage_by_owner(s->data); /* the ce_stage entry marks its stage */
  return TEAL_OK;
}

/* The declaration's value {plant, declaration = 1} is copied into the
 * system's model, which names the plant and holds no data (it would cost
 * a multibody data that nothing uses); a context's scratch, copied from that
 * model, gets its own. Copies between existing contexts keep the
 * destination's data (nothing to copy). */
static int scratch_copy(void *dst, const void *src) {
  teal_plant_scratch *d = dst;
  const teal_plant_scratch *s = src;
  if (d->data || !s->plant) {
    return TEAL_OK;
  }
  if (s->declaration) {
    d->plant = s->plant;
    return TEAL_OK;
  }
  return scratch_alloc(d, s->plant);
}

const teal_value_type teal_plant_scratch_type = {"teal_plant_scratch", sizeof(teal_plant_scratch),
                                                 NULL, scratch_copy, scratch_free};

teal_plant_scratch *teal_plant_get_scratch(const teal_plant *p, const teal_context *ctx) {
  teal_plant_scratch *s = teal_context_scratch_mut(ctx, p->sys.scratch);
  if (!s || !s->data) {
    return NULL;
  }
  const double *g = teal_context_numeric_parameter(ctx, p->sys.param_gravity);
  teal_mb_data_use_gravity(s->data, g);
  teal_mb_data_use_inertias(s->data, teal_plant_inertias(p, ctx),
                            teal_plant_central_inertias(p, ctx));
  teal_mb_data_use_reflected_inertia(s->data, teal_plant_reflected_inertias(p, ctx));
  return s;
}

size_t teal_plant_forces_bytes(const teal_plant *p) {
  return (size_t)p->nv * sizeof(double) + (size_t)p->bodies.n * sizeof(teal_spatial_vector);
}

void teal_plant_qv(const teal_plant *p, const teal_context *ctx, const double **q,
                   const double **v) {
  if (p->sys.discrete) {
    const double *x = teal_context_discrete_group(ctx, 0);
    *q = x;
    *v = x + p->nq;
  } else {
    *q = teal_context_q(ctx);
    *v = teal_context_v(ctx);
  }
}

int teal_plant_no_scratch(const teal_context *ctx) {
  return teal_context_report_error(ctx, TEAL_ENOMEM, "plant: no multibody data in context");
}

teal_plant_scratch *teal_plant_staged_scratch(const teal_system *sys, const teal_context *ctx,
                                              const teal_plant *p, int *rc) {
  const void *marker;
  *rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_stage, &marker);
  teal_plant_scratch *s = *rc ? NULL : teal_plant_get_scratch(p, ctx);
  if (!s && *rc == TEAL_OK) {
    *rc = teal_plant_no_scratch(ctx);
  }
  return s;
}

teal_plant_scratch *teal_plant_staged_qv(const teal_system *sys, const teal_context *ctx,
                                         const teal_plant *p, const double **q, const double **v,
                                         int *rc) {
  teal_plant_scratch *s = teal_plant_staged_scratch(sys, ctx, p, rc);
  if (s) {
    teal_plant_qv(p, ctx, q, v);
  }
  return s;
}
