/* One model instance's part of the plant's state and arrays (see
 * plant_instances.h), through the per-instance index maps plant_system.c
 * builds at finalize. */
#include "multibody/plant/plant_instances.h"

#include <math.h>

#include "multibody/plant/plant_calc_internal.h"

/* The part of the state a context call reads or writes. */
enum { PART_Q = 1, PART_V = 2, PART_X = 3 };

/* The plant's own context, or NULL with the error in *rc (reported on ctx
 * when there is one). */
static const teal_context *own_context(const teal_plant *p, const teal_context *ctx, int instance,
                                       const void *x, const char *fn, int *rc) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  *rc = TEAL_OK;
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
  } else if (instance < 0 || instance >= p->instances.n) {
    *rc = teal_context_report_error(
        ctx, TEAL_ENOTFOUND, "%s: model instance %d is not in the plant (it has %d instances)", fn,
        instance, p->instances.n);
  } else if (!x) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: the array is NULL", fn);
  }
  return *rc ? NULL : own;
}

/* The number of values of part of instance i. */
static int part_count(const teal_plant *p, int i, int part) {
  return (part & PART_Q ? p->sys.inst_q_count[i] : 0) +
         (part & PART_V ? p->sys.inst_v_count[i] : 0);
}

static int check_count(const teal_plant *p, const teal_context *ctx, int i, int part, int n,
                       const char *fn) {
  int count = part_count(p, i, part);
  if (n == count) {
    return TEAL_OK;
  }
  return teal_context_report_error(ctx, TEAL_ESIZE,
                                   "%s: got %d values, model instance %d (\"%s\") "
                                   "has %d",
                                   fn, n, i, INST(p)[i].name, count);
}

static int get_part(const teal_plant *p, const teal_context *ctx, int i, int part, double *x, int n,
                    const char *fn) {
  int rc;
  const teal_context *own = own_context(p, ctx, i, x, fn, &rc);
  if (!own || (rc = check_count(p, ctx, i, part, n, fn)) != TEAL_OK) {
    return rc;
  }
  const plant_sys *s = &p->sys;
  const double *q, *v;
  teal_plant_qv(p, own, &q, &v);
  int nq = part & PART_Q ? s->inst_q_count[i] : 0;
  for (int r = 0; r < nq; r++) {
    x[r] = q[s->q_list[s->inst_q_start[i] + r]];
  }
  for (int r = 0; part & PART_V && r < s->inst_v_count[i]; r++) {
    x[nq + r] = v[s->v_list[s->inst_v_start[i] + r]];
  }
  return TEAL_OK;
}

static int check_finite(const teal_context *ctx, const double *x, int n, const char *fn) {
  for (int r = 0; r < n; r++) {
    if (!isfinite(x[r])) {
      return teal_context_report_error(ctx, TEAL_ENONFINITE, "%s: value %d is not finite (%g)", fn,
                                       r, x[r]);
    }
  }
  return TEAL_OK;
}

/* Every quaternion of instance i's joints in q_i must be normalizable. */
static int check_instance_quaternions(const teal_plant *p, const teal_context *ctx, int i,
                                      const double *q_i, const char *fn) {
  const teal_plant_tree *t = &p->tree;
  int at = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    if (JOINT(p)[BODY(p)[p->node_body[k]].inboard].instance != i) {
      continue;
    }
    int rc = teal_plant_check_quaternions(p, ctx, q_i + at, t->q_start[k], t->nq[k], fn);
    if (rc) {
      return rc;
    }
    at += t->nq[k];
  }
  return TEAL_OK;
}

static int set_part(const teal_plant *p, teal_context *ctx, int i, int part, const double *x, int n,
                    const char *fn) {
  int rc;
  teal_context *own = (teal_context *)own_context(p, ctx, i, x, fn, &rc);
  if (!own || (rc = check_count(p, ctx, i, part, n, fn)) != TEAL_OK ||
      (rc = check_finite(ctx, x, n, fn)) != TEAL_OK ||
      (part & PART_Q && (rc = check_instance_quaternions(p, ctx, i, x, fn)) != TEAL_OK)) {
    return rc;
  }
  const plant_sys *s = &p->sys;
  double *q = NULL, *v = NULL;
  if (s->discrete) {
    q = teal_context_discrete_group_mut(own, 0);
    v = q + p->nq;
  } else {
    q = part & PART_Q ? teal_context_q_mut(own) : NULL;
    v = part & PART_V ? teal_context_v_mut(own) : NULL;
  }
  int nq = part & PART_Q ? s->inst_q_count[i] : 0;
  for (int r = 0; r < nq; r++) {
    q[s->q_list[s->inst_q_start[i] + r]] = x[r];
  }
  for (int r = 0; part & PART_V && r < s->inst_v_count[i]; r++) {
    v[s->v_list[s->inst_v_start[i] + r]] = x[nq + r];
  }
  return TEAL_OK;
}

int teal_plant_get_instance_positions(const teal_plant *p, const teal_context *ctx, int instance,
                                      double *q_i, int n) {
  return get_part(p, ctx, instance, PART_Q, q_i, n, "plant get_instance_positions");
}
int teal_plant_set_instance_positions(const teal_plant *p, teal_context *ctx, int instance,
                                      const double *q_i, int n) {
  return set_part(p, ctx, instance, PART_Q, q_i, n, "plant set_instance_positions");
}
int teal_plant_get_instance_velocities(const teal_plant *p, const teal_context *ctx, int instance,
                                       double *v_i, int n) {
  return get_part(p, ctx, instance, PART_V, v_i, n, "plant get_instance_velocities");
}
int teal_plant_set_instance_velocities(const teal_plant *p, teal_context *ctx, int instance,
                                       const double *v_i, int n) {
  return set_part(p, ctx, instance, PART_V, v_i, n, "plant set_instance_velocities");
}
int teal_plant_get_instance_state(const teal_plant *p, const teal_context *ctx, int instance,
                                  double *x_i, int n) {
  return get_part(p, ctx, instance, PART_X, x_i, n, "plant get_instance_state");
}
int teal_plant_set_instance_state(const teal_plant *p, teal_context *ctx, int instance,
                                  const double *x_i, int n) {
  return set_part(p, ctx, instance, PART_X, x_i, n, "plant set_instance_state");
}

/* ---- writable views ------------------------------------------------------------ */

static int get_mutable(const teal_plant *p, teal_context *ctx, int part, double **out,
                       const char *fn) {
  int rc;
  teal_context *own = (teal_context *)own_context(p, ctx, TEAL_WORLD_MODEL_INSTANCE, out, fn, &rc);
  if (!own) {
    return rc;
  }
  double *x;
  if (p->sys.discrete) {
    x = teal_context_discrete_group_mut(own, 0);
    *out = part == PART_V ? x + p->nq : x;
  } else if (part == PART_X) {
    *out = teal_context_continuous_state_mut(own);
  } else {
    *out = part == PART_Q ? teal_context_q_mut(own) : teal_context_v_mut(own);
  }
  return TEAL_OK;
}

int teal_plant_get_mutable_positions(const teal_plant *p, teal_context *ctx, double **q) {
  return get_mutable(p, ctx, PART_Q, q, "plant get_mutable_positions");
}
int teal_plant_get_mutable_velocities(const teal_plant *p, teal_context *ctx, double **v) {
  return get_mutable(p, ctx, PART_V, v, "plant get_mutable_velocities");
}
int teal_plant_get_mutable_state(const teal_plant *p, teal_context *ctx, double **x) {
  return get_mutable(p, ctx, PART_X, x, "plant get_mutable_state");
}

/* ---- whole-plant arrays ---------------------------------------------------------- */

/* One kind of whole-plant array: its length and the per-instance map. */
typedef struct array_map {
  int total;
  const int *start, *count, *list;
} array_map;

static array_map map_of(const teal_plant *p, int part) {
  const plant_sys *s = &p->sys;
  return part == PART_Q   ? (array_map){p->nq, s->inst_q_start, s->inst_q_count, s->q_list}
         : part == PART_V ? (array_map){p->nv, s->inst_v_start, s->inst_v_count, s->v_list}
                          : (array_map){p->nu, s->inst_act_start, s->inst_act_count, s->act_list};
}

/* Checks a gather (scatter = 0: all -> inst) or scatter (inst -> all) call;
 * part is PART_Q, PART_V or 0 for the actuation. */
static int check_array_call(const teal_plant *p, int i, int part, const double *all, int n_all,
                            const double *inst, int n_inst, int scatter, teal_error *err,
                            const char *fn) {
  if (!p) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
  }
  if (!p->system) {
    return teal_error_set(err, TEAL_ESTATE,
                          "%s: the plant is not finalized (call teal_plant_finalize first)", fn);
  }
  if (i < 0 || i >= p->instances.n) {
    return teal_error_set(err, TEAL_ENOTFOUND,
                          "%s: model instance %d is not in the plant (it has %d instances)", fn, i,
                          p->instances.n);
  }
  if (!all || !inst) {
    return teal_error_set(err, TEAL_EINVAL, "%s: the %s array is NULL", fn,
                          all ? "instance's" : "whole-plant");
  }
  array_map m = map_of(p, part);
  if (n_all != m.total || n_inst != m.count[i]) {
    return teal_error_set(err, TEAL_ESIZE,
                          "%s: got arrays of %d (whole plant) and %d (instance) values; the "
                          "plant has %d and model instance %d (\"%s\") %d",
                          fn, n_all, n_inst, m.total, i, INST(p)[i].name, m.count[i]);
  }
  for (int r = 0; r < m.count[i]; r++) {
    int at = m.list[m.start[i] + r];
    double x = scatter ? inst[r] : all[at];
    if (!isfinite(x)) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s: %s value %d is not finite (%g)", fn,
                            scatter ? "the instance's" : "the whole-plant", scatter ? r : at, x);
    }
  }
  return TEAL_OK;
}

static int gather(const teal_plant *p, int i, int part, const double *all, int n_all, double *inst,
                  int n_inst, teal_error *err, const char *fn) {
  int rc = check_array_call(p, i, part, all, n_all, inst, n_inst, 0, err, fn);
  if (rc) {
    return rc;
  }
  array_map m = map_of(p, part);
  for (int r = 0; r < m.count[i]; r++) {
    inst[r] = all[m.list[m.start[i] + r]];
  }
  return TEAL_OK;
}

static int scatter(const teal_plant *p, int i, int part, const double *inst, int n_inst,
                   double *all, int n_all, teal_error *err, const char *fn) {
  int rc = check_array_call(p, i, part, all, n_all, inst, n_inst, 1, err, fn);
  if (rc) {
    return rc;
  }
  array_map m = map_of(p, part);
  for (int r = 0; r < m.count[i]; r++) {
    all[m.list[m.start[i] + r]] = inst[r];
  }
  return TEAL_OK;
}

int teal_plant_get_positions_from_array(const teal_plant *p, int instance, const double *q, int nq,
                                        double *q_i, int n_i, teal_error *err) {
  return gather(p, instance, PART_Q, q, nq, q_i, n_i, err, "plant get_positions_from_array");
}
int teal_plant_set_positions_in_array(const teal_plant *p, int instance, const double *q_i, int n_i,
                                      double *q, int nq, teal_error *err) {
  return scatter(p, instance, PART_Q, q_i, n_i, q, nq, err, "plant set_positions_in_array");
}
int teal_plant_get_velocities_from_array(const teal_plant *p, int instance, const double *v, int nv,
                                         double *v_i, int n_i, teal_error *err) {
  return gather(p, instance, PART_V, v, nv, v_i, n_i, err, "plant get_velocities_from_array");
}
int teal_plant_set_velocities_in_array(const teal_plant *p, int instance, const double *v_i,
                                       int n_i, double *v, int nv, teal_error *err) {
  return scatter(p, instance, PART_V, v_i, n_i, v, nv, err, "plant set_velocities_in_array");
}
int teal_plant_get_actuation_from_array(const teal_plant *p, int instance, const double *u, int nu,
                                        double *u_i, int n_i, teal_error *err) {
  return gather(p, instance, 0, u, nu, u_i, n_i, err, "plant get_actuation_from_array");
}
int teal_plant_set_actuation_in_array(const teal_plant *p, int instance, const double *u_i, int n_i,
                                      double *u, int nu, teal_error *err) {
  return scatter(p, instance, 0, u_i, n_i, u, nu, err, "plant set_actuation_in_array");
}
