/* Simbody-style stage queries and q̈ on the plant's cache entries (see
 * plant_stages.h). */
#include "multibody/plant/plant_stages.h"

#include "framework/ports.h"
#include "multibody/algorithms/operators.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_state.h"

/* The plant's own context, or NULL after reporting why on ctx. */
static const teal_context *own_context(const teal_plant *p, const teal_context *ctx, const char *fn,
                                       int *rc) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  *rc = own ? TEAL_OK : teal_plant_bad_call(p, ctx, fn);
  return own;
}

/* 1 when every entry of the list (-1 ends it) is up to date in ctx. */
static int all_up_to_date(const teal_plant *p, const teal_context *ctx, const int *entries,
                          const char *fn) {
  int rc;
  const teal_context *own = own_context(p, ctx, fn, &rc);
  for (int k = 0; own && entries[k] >= 0; k++) {
    rc = teal_cache_entry_is_up_to_date(p->system, own, entries[k]);
    if (rc != 1) {
      return rc;
    }
  }
  return own ? 1 : rc;
}

/* Invalidates each entry of the list that the plant declares (-1 skips:
 * the discrete step of a continuous plant); n entries. */
static int invalidate_all(const teal_plant *p, teal_context *ctx, const int *entries, int n,
                          const char *fn) {
  int rc;
  teal_context *own = (teal_context *)own_context(p, ctx, fn, &rc);
  for (int k = 0; own && k < n && rc == TEAL_OK; k++) {
    rc = entries[k] < 0 ? TEAL_OK : teal_cache_entry_invalidate(p->system, own, entries[k]);
  }
  return rc;
}

int teal_plant_is_position_kinematics_realized(const teal_plant *p, const teal_context *ctx) {
  int entries[2] = {p ? p->sys.ce_poses : -1, -1};
  return all_up_to_date(p, ctx, entries, "plant is_position_kinematics_realized");
}

int teal_plant_is_velocity_kinematics_realized(const teal_plant *p, const teal_context *ctx) {
  int entries[2] = {p ? p->sys.ce_vels : -1, -1};
  return all_up_to_date(p, ctx, entries, "plant is_velocity_kinematics_realized");
}

/* The stages computed from the velocity kinematics, it included. */
#define VELOCITY_STAGES(s) \
  (s).ce_vels, (s).ce_forces, (s).ce_contacts, (s).ce_step, (s).ce_vdot, (s).ce_accs

int teal_plant_invalidate_position_kinematics(const teal_plant *p, teal_context *ctx) {
  static const char fn[] = "plant invalidate_position_kinematics";
  if (!p) {
    return invalidate_all(p, ctx, NULL, 0, fn);
  }
  int entries[] = {p->sys.ce_stage, p->sys.ce_poses, p->sys.ce_M, VELOCITY_STAGES(p->sys)};
  return invalidate_all(p, ctx, entries, (int)(sizeof entries / sizeof entries[0]), fn);
}

int teal_plant_invalidate_velocity_kinematics(const teal_plant *p, teal_context *ctx) {
  static const char fn[] = "plant invalidate_velocity_kinematics";
  if (!p) {
    return invalidate_all(p, ctx, NULL, 0, fn);
  }
  int entries[] = {VELOCITY_STAGES(p->sys)};
  return invalidate_all(p, ctx, entries, (int)(sizeof entries / sizeof entries[0]), fn);
}

int teal_plant_calc_qddot(const teal_plant *p, const teal_context *ctx, double *qddot, int n) {
  static const char fn[] = "plant calc_qddot";
  int rc;
  const teal_context *own = own_context(p, ctx, fn, &rc);
  if (!own) {
    return rc;
  }
  if (!qddot) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: the output array is NULL", fn);
  }
  if (n != p->nq) {
    return teal_context_report_error(ctx, TEAL_ESIZE, "%s: got room for %d values, nq is %d", fn, n,
                                     p->nq);
  }
  const double *vdot, *q, *v;
  rc = teal_plant_eval_generalized_acceleration(p, own, &vdot);
  teal_plant_scratch *s = rc ? NULL : teal_plant_staged_scratch(p->system, own, p, &rc);
  if (!s) {
    return rc;
  }
  teal_plant_qv(p, own, &q, &v);
  return teal_mb_calc_qddot(p, s->data, q, v, vdot, qddot);
}
