/* The plant's per-context scratch (its multibody data and the discrete
 * step's buffers), the lookup of its own context and its state arrays
 * (see plant_calc_internal.h). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/plant/plant_calc_internal.h"

/* ---- scratch ------------------------------------------------------------------ */

static void scratch_free(void *value) {
  teal_plant_scratch *s = value;
  teal_mb_data_free(s->data);
  teal_free(s->X);
  teal_free(s->vstar);
  teal_free(s->active);
  teal_plant_contact_scratch_free(s);
  memset(s, 0, sizeof(*s));
}

/* Buffers of the discrete contact solve: only for discrete plants with
 * collision geometry, sized by the kinematic trees (not by nv^2). */
static int scratch_alloc_contact(teal_plant_scratch *s, const teal_plant *p) {
  int proximity = 0;
  for (int g = 0; g < p->geometries.n; g++) {
    proximity += GEOM(p)[g].g.role == TEAL_ROLE_PROXIMITY;
  }
  if (!p->sys.discrete || proximity == 0) {
    return TEAL_OK;
  }
  return teal_plant_contact_scratch_alloc(s, p, 4 * proximity + 8);
}

/* Allocates the multibody data and buffers of a scratch for plant p. */
static int scratch_alloc(teal_plant_scratch *s, const teal_plant *p) {
  size_t nb = (size_t)p->bodies.n, nv = (size_t)p->nv, nl = (size_t)p->sys.nlimits;
  s->plant = p;
  s->data = teal_mb_data_new(p, NULL);
  if (s->data) {
    teal_mb_data_stage_by_owner(s->data); /* the ce_stage entry marks its stage */
  }
  s->X = teal_calloc(nb, sizeof(teal_transform) + 2 * sizeof(teal_spatial_vector));
  s->vstar = teal_calloc(2 * nv + nl * nv + 3 * nl + 1, sizeof(double));
  s->active = teal_calloc(nl + 1, sizeof(int));
  if (!s->data || !s->X || !s->vstar || !s->active || scratch_alloc_contact(s, p) != TEAL_OK) {
    scratch_free(s);
    return TEAL_ENOMEM;
  }
  s->V = (teal_spatial_vector *)(s->X + nb);
  s->A = s->V + nb;
  s->dv = s->vstar + nv;
  s->Wcols = s->dv + nv;
  s->lambda = s->Wcols + nl * nv;
  s->target = s->lambda + nl;
  s->sign = s->target + nl;
  return TEAL_OK;
}

/* A context's scratch is made from the model {plant, NULL}; copies between
 * existing contexts keep the destination's data (nothing to copy). */
static int scratch_copy(void *dst, const void *src) {
  teal_plant_scratch *d = dst;
  const teal_plant_scratch *s = src;
  if (d->data || !s->plant) {
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
