/* The plant's output ports that are not cache entries themselves: the
 * state, per-instance state and reaction forces (see plant_system.h). */
#include <math.h>
#include <string.h>

#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_system.h"

/* ---- outputs ------------------------------------------------------------------------- */

int teal_plant_output_state(const teal_system *sys, const teal_context *ctx, double *out,
                            void *user) {
  (void)sys;
  const teal_plant *p = user;
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  memcpy(out, q, (size_t)p->nq * sizeof(double));
  memcpy(out + p->nq, v, (size_t)p->nv * sizeof(double));
  return TEAL_OK;
}

int teal_plant_output_instance_state(const teal_system *sys, const teal_context *ctx, double *out,
                                     void *user) {
  const teal_plant *p = teal_plant_from_system(sys);
  const int *port = user;
  int i = (int)(port - p->sys.out_state_inst);
  const plant_sys *s = &p->sys;
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  int nq = s->inst_q_count[i];
  for (int r = 0; r < nq; r++) {
    out[r] = q[s->q_list[s->inst_q_start[i] + r]];
  }
  for (int r = 0; r < s->inst_v_count[i]; r++) {
    out[nq + r] = v[s->v_list[s->inst_v_start[i] + r]];
  }
  return TEAL_OK;
}

int teal_plant_output_reactions(const teal_system *sys, const teal_context *ctx, void *out,
                                void *user) {
  const teal_plant *p = user;
  int rc;
  teal_plant_scratch *s = teal_plant_staged_scratch(sys, ctx, p, &rc);
  if (!s) {
    return rc;
  }
  const double *vdot, *tau, *q, *v;
  rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vdot, (const void **)&vdot);
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_forces, (const void **)&tau);
  }
  teal_spatial_vector_list *list = out;
  if (rc == TEAL_OK && teal_spatial_vector_list_resize(list, p->joints.n) != TEAL_OK) {
    rc = teal_context_report_error(ctx, TEAL_ENOMEM, "plant: out of memory for reaction forces");
  }
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  const teal_spatial_vector *F = (const teal_spatial_vector *)(tau + p->nv);
  rc = teal_mb_reaction_forces(p, s->data, q, v, vdot, F, list->V);
  return rc ? teal_context_report_error(ctx, rc, "plant: %s", teal_mb_data_error(s->data)->message)
            : TEAL_OK;
}

/* <instance>_generalized_acceleration: the instance's entries of the
 * generalized_acceleration stage, in the order of its v indices. */
int teal_plant_output_instance_generalized_acceleration(const teal_system *sys,
                                                        const teal_context *ctx, double *out,
                                                        void *user) {
  const teal_plant *p = teal_plant_from_system(sys);
  const plant_sys *s = &p->sys;
  int i = (int)((const int *)user - s->out_vdot_inst);
  const double *vdot;
  int rc = teal_eval_cache_entry(sys, ctx, s->ce_vdot, (const void **)&vdot);
  for (int r = 0; rc == TEAL_OK && r < s->inst_v_count[i]; r++) {
    out[r] = vdot[s->v_list[s->inst_v_start[i] + r]];
  }
  return rc;
}
