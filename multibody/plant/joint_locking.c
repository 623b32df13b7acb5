/* Joint locks as a context parameter (see joint_locking.h; the dynamics of
 * locked dofs are held_dofs.c's). */
#include "multibody/plant/joint_locking.h"

#include "multibody/plant/held_dofs_internal.h"
#include "multibody/tree/joints.h"

/* The joint record of a lock call, or NULL with *rc reported. */
static const joint_rec *lock_joint(const teal_plant *p, const teal_context *ctx, int joint,
                                   const char *fn, int *rc) {
  *rc = TEAL_OK;
  if (!teal_plant_own_context(p, ctx)) {
    *rc = teal_plant_bad_call(p, ctx, fn);
  } else if (joint < 0 || joint >= p->joints.n) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL,
                                    "%s: joint %d is not a joint of the "
                                    "plant (0..%d)",
                                    fn, joint, p->joints.n - 1);
  } else if (JOINT(p)[joint].motion) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL,
                                    "%s: joint \"%s\" has a prescribed "
                                    "motion; it cannot be locked",
                                    fn, JOINT(p)[joint].name);
  }
  return *rc ? NULL : &JOINT(p)[joint];
}

/* The writable velocities of the plant's own context. */
static double *velocities_mut(const teal_plant *p, teal_context *own) {
  return p->sys.discrete ? teal_context_discrete_group_mut(own, 0) + p->nq
                         : teal_context_v_mut(own);
}

/* Writes flag into the joint's lock entries. */
static void set_flags(const teal_plant *p, teal_context *own, const joint_rec *J, double flag) {
  double *locks = teal_context_numeric_parameter_mut(own, p->sys.param_locks);
  int nv = teal_joint_type_get(J->kind)->nv;
  for (int d = 0; d < nv; d++) {
    locks[J->v_start + d] = flag;
  }
}

int teal_plant_lock_joint(const teal_plant *plant, teal_context *ctx, int joint) {
  const char *fn = "plant lock_joint";
  int rc;
  const joint_rec *J = lock_joint(plant, ctx, joint, fn, &rc);
  if (!J) {
    return rc;
  }
  teal_context *own = (teal_context *)teal_plant_own_context(plant, ctx);
  int nv = teal_joint_type_get(J->kind)->nv;
  if (nv == 0) {
    return TEAL_OK;
  }
  set_flags(plant, own, J, 1.0);
  /* the work of the held dofs' solve grows here, never during a step */
  teal_plant_scratch *s = teal_plant_get_scratch(plant, own);
  if (!s) {
    return teal_plant_no_scratch(ctx);
  }
  if (teal_plant_held_reserve(s, plant, teal_plant_num_held(plant, own)) != TEAL_OK) {
    set_flags(plant, own, J, 0.0);
    return teal_context_report_error(ctx, TEAL_ENOMEM, "%s: no memory for the held dofs' solve",
                                     fn);
  }
  double *v = velocities_mut(plant, own);
  for (int d = 0; d < nv; d++) {
    v[J->v_start + d] = 0.0;
  }
  return TEAL_OK;
}

int teal_plant_unlock_joint(const teal_plant *plant, teal_context *ctx, int joint) {
  int rc;
  const joint_rec *J = lock_joint(plant, ctx, joint, "plant unlock_joint", &rc);
  if (J) {
    set_flags(plant, (teal_context *)teal_plant_own_context(plant, ctx), J, 0.0);
  }
  return rc;
}

int teal_plant_joint_is_locked(const teal_plant *plant, const teal_context *ctx, int joint,
                               int *locked) {
  const char *fn = "plant joint_is_locked";
  int rc;
  const joint_rec *J = lock_joint(plant, ctx, joint, fn, &rc);
  if (J && !locked) {
    rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: locked is NULL", fn);
  }
  if (rc) {
    return rc;
  }
  const double *f =
      teal_context_numeric_parameter(teal_plant_own_context(plant, ctx), plant->sys.param_locks);
  *locked = teal_joint_type_get(J->kind)->nv > 0 && f[J->v_start] != 0.0;
  return TEAL_OK;
}
