/* The gravity of the model-based controllers in a context (see
 * controller_gravity.h). Each controller leaf declares it as its numeric
 * parameter TEAL_MBC_GRAVITY_PARAM (mb_controller_util.c); the inverse
 * dynamics controller, a diagram, holds it in its "inverse_dynamics" leaf. */
#include "multibody/controllers/controller_gravity.h"

#include <math.h>

#include "framework/context_access.h"
#include "framework/context_tree.h"
#include "framework/leaf_util.h"
#include "multibody/controllers/mb_controller_internal.h"

static const char k_kind[] = "mb_controller";
static const char k_what[] =
    "a model-based controller (inverse dynamics, joint stiffness or "
    "inverse dynamics controller)";

/* The context of the leaf holding controller c's gravity inside ctx, or
 * NULL with *status set (TEAL_EINVAL: not such a controller). */
static const teal_context *gravity_context(const teal_system *c, const teal_context *ctx,
                                           int *status) {
  if (!c || !ctx || !teal_system_is_diagram(c)) {
    return teal_leaf_util_own_context(c, teal_mbc_tag, ctx, status);
  }
  const teal_context *own = teal_context_subcontext(ctx, c);
  const teal_context *sub = own ? teal_context_subcontext_by_name(own, "inverse_dynamics") : NULL;
  if (!sub || teal_system_type_tag(teal_context_system(sub)) != teal_mbc_tag) {
    *status = own ? TEAL_EINVAL : TEAL_ENOTFOUND;
    return NULL;
  }
  *status = TEAL_OK;
  return sub;
}

int teal_mb_controller_set_gravity_in_context(const teal_system *controller, teal_context *ctx,
                                              teal_vec3 g_W) {
  static const char fn[] = "set_gravity_in_context";
  int status = TEAL_OK;
  teal_context *own = (teal_context *)gravity_context(controller, ctx, &status);
  if (!own) {
    return teal_leaf_util_bad_call(controller, ctx, status, k_kind, k_what, fn, NULL);
  }
  if (!isfinite(g_W.v[0]) || !isfinite(g_W.v[1]) || !isfinite(g_W.v[2])) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE,
                                     "%s '%s': %s: g_W (%g, %g, %g) is not "
                                     "finite",
                                     k_kind, teal_system_name(controller), fn, g_W.v[0], g_W.v[1],
                                     g_W.v[2]);
  }
  return teal_context_set_numeric_parameter(own, TEAL_MBC_GRAVITY_PARAM, g_W.v, 3);
}

int teal_mb_controller_get_gravity_in_context(const teal_system *controller,
                                              const teal_context *ctx, teal_vec3 *g_W) {
  static const char fn[] = "get_gravity_in_context";
  int status = TEAL_OK;
  const teal_context *own = gravity_context(controller, ctx, &status);
  if (!own || !g_W) {
    return teal_leaf_util_bad_call(controller, ctx, own ? TEAL_OK : status, k_kind, k_what, fn,
                                   "g_W");
  }
  const double *g = teal_context_numeric_parameter(own, TEAL_MBC_GRAVITY_PARAM);
  *g_W = teal_vec3_make(g[0], g[1], g[2]);
  return TEAL_OK;
}
