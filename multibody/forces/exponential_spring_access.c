/* Friction coefficients and frame-choosing getters of an exponential spring
 * (see exponential_spring_access.h); built on exponential_spring.h alone. */
#include "multibody/forces/exponential_spring_access.h"

#include <math.h>

#include "framework/context_access.h"
#include "multibody/forces/exponential_spring.h"

static const char k_kind[] = "exponential_spring";

/* The message of a call that could not start: a spring missing from ctx or
 * not a spring at all. */
static int no_spring(const teal_system *spring, const teal_context *ctx, const char *fn) {
  int rc = teal_exponential_spring_geometry(spring, NULL, NULL, NULL);
  if (!ctx) {
    return TEAL_EINVAL;
  }
  return teal_context_report_error(
      ctx, TEAL_EINVAL, "%s: %s: %s", k_kind, fn,
      rc == TEAL_OK ? "the spring is not in this context" : "not an exponential spring");
}

/* ---- friction coefficients ----------------------------------------------------- */

/* Refuses a coefficient that is NaN, infinite or negative. */
static int check_mu(const teal_system *spring, const teal_context *ctx, const char *which,
                    double mu) {
  if (!isfinite(mu)) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE, "%s '%s': %s = %g is not finite", k_kind,
                                     teal_system_name(spring), which, mu);
  }
  if (mu < 0.0) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s '%s': %s = %g must be >= 0", k_kind,
                                     teal_system_name(spring), which, mu);
  }
  return TEAL_OK;
}

/* Sets one coefficient and moves the other to keep 0 <= mu_k <= mu_s. */
static int set_mu(const teal_system *spring, teal_context *ctx, int kinetic, double mu) {
  teal_exponential_spring_params p;
  int rc = teal_exponential_spring_get_params(spring, ctx, &p);
  if (rc != TEAL_OK) {
    return rc;
  }
  if ((rc = check_mu(spring, ctx, kinetic ? "mu_k" : "mu_s", mu)) != TEAL_OK) {
    return rc;
  }
  if (kinetic) {
    p.mu_k = mu;
    p.mu_s = p.mu_s < mu ? mu : p.mu_s;
  } else {
    p.mu_s = mu;
    p.mu_k = p.mu_k > mu ? mu : p.mu_k;
  }
  return teal_exponential_spring_set_params(spring, ctx, &p);
}

int teal_exponential_spring_set_mu_static(const teal_system *spring, teal_context *ctx,
                                          double mu_s) {
  return set_mu(spring, ctx, 0, mu_s);
}

int teal_exponential_spring_set_mu_kinetic(const teal_system *spring, teal_context *ctx,
                                           double mu_k) {
  return set_mu(spring, ctx, 1, mu_k);
}

/* Reads one coefficient into *out. */
static int get_mu(const teal_system *spring, const teal_context *ctx, int kinetic, double *out,
                  const char *fn) {
  teal_exponential_spring_params p;
  int rc = teal_exponential_spring_get_params(spring, ctx, &p);
  if (rc != TEAL_OK) {
    return rc;
  }
  if (!out) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s: the output is NULL", k_kind, fn);
  }
  *out = kinetic ? p.mu_k : p.mu_s;
  return TEAL_OK;
}

int teal_exponential_spring_get_mu_static(const teal_system *spring, const teal_context *ctx,
                                          double *mu_s) {
  return get_mu(spring, ctx, 0, mu_s, "get_mu_static");
}

int teal_exponential_spring_get_mu_kinetic(const teal_system *spring, const teal_context *ctx,
                                           double *mu_k) {
  return get_mu(spring, ctx, 1, mu_k, "get_mu_kinetic");
}

/* ---- getters ---------------------------------------------------------------------- */

/* The quantities a getter can return, each a point or a vector of F. */
typedef enum es_quantity {
  ES_STATION_POSITION,
  ES_STATION_VELOCITY,
  ES_ANCHOR_POINT,
  ES_NORMAL_ELASTIC,
  ES_NORMAL_DAMPING,
  ES_NORMAL,
  ES_FRICTION_ELASTIC,
  ES_FRICTION_DAMPING,
  ES_FRICTION,
  ES_FORCE
} es_quantity;

/* The quantity in F. */
static teal_vec3 in_plane(const teal_exponential_spring_data *d, es_quantity q) {
  const double *fe = d->friction_elastic, *fd = d->friction_damping;
  switch (q) {
    case ES_STATION_POSITION:
      return d->p_FS;
    case ES_STATION_VELOCITY:
      return d->v_FS;
    case ES_ANCHOR_POINT:
      return teal_vec3_make(d->p0[0], d->p0[1], 0.0);
    case ES_NORMAL_ELASTIC:
      return teal_vec3_make(0.0, 0.0, d->fz_elastic);
    case ES_NORMAL_DAMPING:
      return teal_vec3_make(0.0, 0.0, d->fz_damping);
    case ES_NORMAL:
      return teal_vec3_make(0.0, 0.0, d->fz);
    case ES_FRICTION_ELASTIC:
      return teal_vec3_make(fe[0], fe[1], 0.0);
    case ES_FRICTION_DAMPING:
      return teal_vec3_make(fd[0], fd[1], 0.0);
    case ES_FRICTION:
      return teal_vec3_make(fe[0] + fd[0], fe[1] + fd[1], 0.0);
    case ES_FORCE:
    default:
      return d->force;
  }
}

/* Evaluates the spring and writes quantity q in F or W into *out. */
static int get_vector(const teal_system *spring, const teal_context *ctx, int in_ground,
                      teal_vec3 *out, es_quantity q, const char *fn) {
  teal_transform X_WF;
  if (!ctx || teal_exponential_spring_geometry(spring, NULL, NULL, &X_WF) != TEAL_OK) {
    return no_spring(spring, ctx, fn);
  }
  if (in_ground != 0 && in_ground != 1) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "%s '%s': %s: in_ground = %d must be 0 "
                                     "(plane frame) or 1 (Ground)",
                                     k_kind, teal_system_name(spring), fn, in_ground);
  }
  if (!out) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s '%s': %s: the output is NULL", k_kind,
                                     teal_system_name(spring), fn);
  }
  const teal_exponential_spring_data *d;
  int rc = teal_exponential_spring_eval(spring, ctx, &d);
  if (rc != TEAL_OK) {
    return rc;
  }
  teal_vec3 v = in_plane(d, q);
  int is_point = q == ES_STATION_POSITION || q == ES_ANCHOR_POINT;
  *out = !in_ground ? v : is_point ? teal_transform_apply(X_WF, v) : teal_rotation_apply(X_WF.R, v);
  return TEAL_OK;
}

int teal_exponential_spring_get_station_position(const teal_system *spring, const teal_context *ctx,
                                                 int in_ground, teal_vec3 *p) {
  return get_vector(spring, ctx, in_ground, p, ES_STATION_POSITION, "get_station_position");
}

int teal_exponential_spring_get_station_velocity(const teal_system *spring, const teal_context *ctx,
                                                 int in_ground, teal_vec3 *v) {
  return get_vector(spring, ctx, in_ground, v, ES_STATION_VELOCITY, "get_station_velocity");
}

int teal_exponential_spring_get_anchor_point(const teal_system *spring, const teal_context *ctx,
                                             int in_ground, teal_vec3 *p0) {
  return get_vector(spring, ctx, in_ground, p0, ES_ANCHOR_POINT, "get_anchor_point");
}

int teal_exponential_spring_get_normal_force_elastic_part(const teal_system *spring,
                                                          const teal_context *ctx, int in_ground,
                                                          teal_vec3 *f) {
  return get_vector(spring, ctx, in_ground, f, ES_NORMAL_ELASTIC, "get_normal_force_elastic_part");
}

int teal_exponential_spring_get_normal_force_damping_part(const teal_system *spring,
                                                          const teal_context *ctx, int in_ground,
                                                          teal_vec3 *f) {
  return get_vector(spring, ctx, in_ground, f, ES_NORMAL_DAMPING, "get_normal_force_damping_part");
}

int teal_exponential_spring_get_normal_force(const teal_system *spring, const teal_context *ctx,
                                             int in_ground, teal_vec3 *f) {
  return get_vector(spring, ctx, in_ground, f, ES_NORMAL, "get_normal_force");
}

int teal_exponential_spring_get_friction_force_elastic_part(const teal_system *spring,
                                                            const teal_context *ctx, int in_ground,
                                                            teal_vec3 *f) {
  return get_vector(spring, ctx, in_ground, f, ES_FRICTION_ELASTIC,
                    "get_friction_force_elastic_part");
}

int teal_exponential_spring_get_friction_force_damping_part(const teal_system *spring,
                                                            const teal_context *ctx, int in_ground,
                                                            teal_vec3 *f) {
  return get_vector(spring, ctx, in_ground, f, ES_FRICTION_DAMPING,
                    "get_friction_force_damping_part");
}

int teal_exponential_spring_get_friction_force(const teal_system *spring, const teal_context *ctx,
                                               int in_ground, teal_vec3 *f) {
  return get_vector(spring, ctx, in_ground, f, ES_FRICTION, "get_friction_force");
}

int teal_exponential_spring_get_force(const teal_system *spring, const teal_context *ctx,
                                      int in_ground, teal_vec3 *f) {
  return get_vector(spring, ctx, in_ground, f, ES_FORCE, "get_force");
}
