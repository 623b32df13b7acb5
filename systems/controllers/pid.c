/* PID controller with optional derivative filter and anti-windup. */
#include "systems/controllers/pid.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"
#include "framework/ticket.h"

static const char k_kind[] = "pid";

typedef struct pid_data {
  int n;
  int filtered; /* derivative of the filtered position error */
  double inv_tau;
  int limited;  /* output limits and anti-windup */
  double *kp, *ki, *kd, *lo, *hi;
  double storage[]; /* 5 n: kp, ki, kd, lo, hi */
} pid_data;

enum { PORT_ESTIMATED = 0, PORT_DESIRED = 1 };

/* ---- validation -------------------------------------------------------- */

static int check_config(const char *name, const teal_pid_config *cfg, int n, teal_error *err) {
  double tau = cfg->derivative_time_constant;
  int rc = teal_leaf_util_check_scalar(err, k_kind, name, "derivative_time_constant", tau);
  if (rc == TEAL_OK && tau < 0) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': derivative_time_constant = %g must be >= 0",
                        k_kind, teal_leaf_util_name(name), tau);
  }
  if (rc == TEAL_OK && cfg->output_min) {
    rc = teal_leaf_util_check_not_nan(err, k_kind, name, "output_min", cfg->output_min, n);
  }
  if (rc == TEAL_OK && cfg->output_max) {
    rc = teal_leaf_util_check_not_nan(err, k_kind, name, "output_max", cfg->output_max, n);
  }
  for (int i = 0; rc == TEAL_OK && cfg->output_min && cfg->output_max && i < n; i++) {
    if (cfg->output_min[i] > cfg->output_max[i]) {
      rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': output_min[%d] = %g > output_max[%d] = %g",
                          k_kind, teal_leaf_util_name(name), i, cfg->output_min[i], i,
                          cfg->output_max[i]);
    }
  }
  return rc;
}

static int check_params(const char *name, const double *kp, const double *ki, const double *kd,
                        int n, const teal_pid_config *cfg, teal_error *err) {
  int rc = teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1);
  static const char *const names[3] = {"kp", "ki", "kd"};
  const double *gains[3] = {kp, ki, kd};
  for (int g = 0; rc == TEAL_OK && g < 3; g++) {
    rc = teal_leaf_util_check_finite(err, k_kind, name, names[g], gains[g], n);
  }
  return rc == TEAL_OK ? check_config(name, cfg, n, err) : rc;
}

/* ---- the control law ---------------------------------------------------- */

/* What one evaluation reads: both inputs and the state. */
typedef struct pid_reading {
  const double *x, *xd, *z;
} pid_reading;

static int pid_read(const teal_system *sys, const teal_context *ctx, pid_reading *r) {
  int rc = teal_eval_vector_input(sys, ctx, PORT_ESTIMATED, &r->x);
  if (rc == TEAL_OK) {
    rc = teal_eval_vector_input(sys, ctx, PORT_DESIRED, &r->xd);
  }
  r->z = teal_context_z(ctx);
  return rc;
}

static double position_error(const pid_reading *r, int i) {
  return r->xd[i] - r->x[i];
}

static double error_rate(const pid_data *d, const pid_reading *r, int i) {
  if (d->filtered) {
    return (position_error(r, i) - r->z[d->n + i]) * d->inv_tau;
  }
  return r->xd[d->n + i] - r->x[d->n + i];
}

static double unsaturated(const pid_data *d, const pid_reading *r, int i) {
  return d->kp[i] * position_error(r, i) + d->ki[i] * r->z[i] +
         d->kd[i] * error_rate(d, r, i);
}

static int saturated(const pid_data *d, double raw, int i) {
  return d->limited && (raw > d->hi[i] || raw < d->lo[i]);
}

/* Anti-windup: the integral stops while it would deepen the saturation. */
static int integral_stopped(const pid_data *d, double raw, double e, int i) {
  return d->limited && ((raw > d->hi[i] && d->ki[i] * e > 0) ||
                        (raw < d->lo[i] && d->ki[i] * e < 0));
}

static int pid_output(const teal_system *sys, const teal_context *ctx, double *out,
                      void *user) {
  const pid_data *d = user;
  pid_reading r;
  int rc = pid_read(sys, ctx, &r);
  for (int i = 0; rc == TEAL_OK && i < d->n; i++) {
    double raw = unsaturated(d, &r, i);
    out[i] = d->limited ? fmin(fmax(raw, d->lo[i]), d->hi[i]) : raw;
  }
  return rc;
}

static int pid_derivatives(const teal_system *sys, const teal_context *ctx,
                           teal_continuous_view *xdot, void *user) {
  const pid_data *d = user;
  pid_reading r;
  int rc = pid_read(sys, ctx, &r);
  for (int i = 0; rc == TEAL_OK && i < d->n; i++) {
    double e = position_error(&r, i);
    /* the unsaturated output matters only to anti-windup */
    int stopped = d->limited && integral_stopped(d, unsaturated(d, &r, i), e, i);
    xdot->z[i] = stopped ? 0.0 : e;
    if (d->filtered) {
      xdot->z[d->n + i] = (e - r.z[d->n + i]) * d->inv_tau;
    }
  }
  return rc;
}

/* ---- Jacobian ----------------------------------------------------------- */

static void zero(double *m, int rows, int cols) {
  if (m) {
    memset(m, 0, (size_t)rows * (size_t)cols * sizeof *m);
  }
}

/* Row i of the blocks (nx states, 2n inputs; sign -1 for the estimated
 * state, +1 for the desired state). */
static void jacobian_row(const pid_data *d, teal_jacobian *jac, int i, double sign, int sat,
                         int stopped) {
  int n = d->n, nx = jac->nx, nu = 2 * n;
  if (jac->A && d->filtered) {
    jac->A[(size_t)(n + i) * (size_t)nx + (size_t)(n + i)] = -d->inv_tau;
  }
  if (jac->B) {
    jac->B[(size_t)i * (size_t)nu + (size_t)i] = stopped ? 0.0 : sign;
    if (d->filtered) {
      jac->B[(size_t)(n + i) * (size_t)nu + (size_t)i] = sign * d->inv_tau;
    }
  }
  if (jac->C && !sat) {
    jac->C[(size_t)i * (size_t)nx + (size_t)i] = d->ki[i];
    if (d->filtered) {
      jac->C[(size_t)i * (size_t)nx + (size_t)(n + i)] = -d->kd[i] * d->inv_tau;
    }
  }
  if (jac->D && !sat) {
    double *row = jac->D + (size_t)i * (size_t)nu;
    row[i] = sign * (d->filtered ? d->kp[i] + d->kd[i] * d->inv_tau : d->kp[i]);
    row[n + i] = d->filtered ? 0.0 : sign * d->kd[i];
  }
}

static int pid_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                        int output_port, teal_jacobian *jac, void *user) {
  (void)output_port;
  const pid_data *d = user;
  pid_reading r = {NULL, NULL, NULL};
  if (d->limited) { /* saturation depends on the operating point */
    int rc = pid_read(sys, ctx, &r);
    if (rc) {
      return rc;
    }
  }
  zero(jac->A, jac->nx, jac->nx);
  zero(jac->B, jac->nx, jac->nu);
  zero(jac->C, jac->ny, jac->nx);
  zero(jac->D, jac->ny, jac->nu);
  double sign = input_port == PORT_ESTIMATED ? -1.0 : 1.0;
  for (int i = 0; i < d->n; i++) {
    double raw = d->limited ? unsaturated(d, &r, i) : 0.0;
    double e = d->limited ? position_error(&r, i) : 0.0;
    jacobian_row(d, jac, i, sign, saturated(d, raw, i), integral_stopped(d, raw, e, i));
  }
  return TEAL_OK;
}

/* ---- construction ------------------------------------------------------- */

static void pid_data_fill(pid_data *d, const double *kp, const double *ki, const double *kd,
                          int n, const teal_pid_config *cfg) {
  d->n = n;
  d->filtered = cfg->derivative_time_constant > 0;
  d->inv_tau = d->filtered ? 1.0 / cfg->derivative_time_constant : 0.0;
  d->limited = cfg->output_min || cfg->output_max;
  d->kp = d->storage;
  d->ki = d->kp + n;
  d->kd = d->ki + n;
  d->lo = d->kd + n;
  d->hi = d->lo + n;
  size_t bytes = (size_t)n * sizeof(double);
  memcpy(d->kp, kp, bytes);
  memcpy(d->ki, ki, bytes);
  memcpy(d->kd, kd, bytes);
  for (int i = 0; i < n; i++) {
    d->lo[i] = cfg->output_min ? cfg->output_min[i] : -INFINITY;
    d->hi[i] = cfg->output_max ? cfg->output_max[i] : INFINITY;
  }
}

static void declare(teal_system *sys, pid_data *d) {
  int n = d->n;
  teal_ticket deps[3] = {teal_ticket_input(PORT_ESTIMATED), teal_ticket_input(PORT_DESIRED),
                         TEAL_TICKET_Z};
  teal_leaf_declare_vector_input(sys, "estimated_state", 2 * n);
  teal_leaf_declare_vector_input(sys, "desired_state", 2 * n);
  teal_leaf_declare_continuous_state(sys, 0, 0, d->filtered ? 2 * n : n, NULL);
  teal_leaf_declare_vector_output(sys, "control", n, pid_output, d, deps, 3);
  teal_leaf_set_time_derivatives(sys, pid_derivatives, d);
  teal_leaf_set_jacobian(sys, pid_jacobian, d);
}

teal_system *teal_pid_new_ex(const char *name, const double *kp, const double *ki,
                             const double *kd, int n, const teal_pid_config *config,
                             teal_error *err) {
  const teal_pid_config plain = {0.0, NULL, NULL};
  const teal_pid_config *cfg = config ? config : &plain;
  if (check_params(name, kp, ki, kd, n, cfg, err)) {
    return NULL;
  }
  pid_data *d = teal_leaf_util_alloc(sizeof *d + 5 * (size_t)n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  pid_data_fill(d, kp, ki, kd, n, cfg);
  teal_system *sys = teal_leaf_new(name, d, teal_free); /* frees d on failure */
  if (sys) {
    declare(sys, d);
  }
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

teal_system *teal_pid_new(const char *name, const double *kp, const double *ki,
                          const double *kd, int n, teal_error *err) {
  return teal_pid_new_ex(name, kp, ki, kd, n, NULL, err);
}
