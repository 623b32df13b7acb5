/* LinearSystem / AffineSystem, continuous or discrete (see linear_system.h). */
#include "systems/primitives/linear_system.h"

#include <limits.h>
#include <math.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"
#include "systems/primitives/linear_system_internal.h"

/* The address of this object marks model data made here. */
static const char k_tag[] = "teal_affine_system";

typedef struct lin_data {
  int nx, nu, ny;
  double time_period;
  int feedthrough; /* D has a nonzero entry */
  double *A, *B, *f0, *C, *D, *y0;
  double storage[];
} lin_data;

/* ---- validation ------------------------------------------------------- */

static int check_dims(teal_error *err, const char *kind, const char *name,
                      const teal_linear_system_matrices *m) {
  int rc;
  if ((rc = teal_leaf_util_check_count(err, kind, name, "nx", m->nx, 0)) ||
      (rc = teal_leaf_util_check_count(err, kind, name, "nu", m->nu, 0)) ||
      (rc = teal_leaf_util_check_count(err, kind, name, "ny", m->ny, 0))) {
    return rc;
  }
  long long big = m->nx > m->nu ? m->nx : m->nu;
  big = big > m->ny ? big : m->ny;
  if (big * big * 8 > INT_MAX) {
    return teal_error_set(err, TEAL_ESIZE, "%s '%s': sizes nx %d, nu %d, ny %d are too large", kind,
                          teal_leaf_util_name(name), m->nx, m->nu, m->ny);
  }
  return TEAL_OK;
}

static int check_period(teal_error *err, const char *kind, const char *name, double period) {
  int rc = teal_leaf_util_check_scalar(err, kind, name, "time_period", period);
  if (rc == TEAL_OK && period < 0) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': time_period = %g must be >= 0", kind,
                        teal_leaf_util_name(name), period);
  }
  return rc;
}

/* A NULL optional matrix means zeros; a NULL required one is an error. */
static int check_matrix(teal_error *err, const char *kind, const char *name, const char *what,
                        const double *M, int count, int required) {
  if (!M && (!required || count == 0)) {
    return TEAL_OK;
  }
  return teal_leaf_util_check_finite(err, kind, name, what, M, count);
}

static int check_model(teal_error *err, const char *kind, const char *name,
                       const teal_linear_system_matrices *m) {
  int rc;
  if ((rc = check_dims(err, kind, name, m)) ||
      (rc = check_period(err, kind, name, m->time_period))) {
    return rc;
  }
  int nx = m->nx, nu = m->nu, ny = m->ny;
  if ((rc = check_matrix(err, kind, name, "A", m->A, nx * nx, 1)) ||
      (rc = check_matrix(err, kind, name, "B", m->B, nx * nu, 1)) ||
      (rc = check_matrix(err, kind, name, "f0", m->f0, nx, 0)) ||
      (rc = check_matrix(err, kind, name, "C", m->C, ny * nx, 1)) ||
      (rc = check_matrix(err, kind, name, "D", m->D, ny * nu, 0)) ||
      (rc = check_matrix(err, kind, name, "y0", m->y0, ny, 0))) {
    return rc;
  }
  return TEAL_OK;
}

/* ---- model data ------------------------------------------------------- */

static int any_nonzero(const double *v, int n) {
  for (int i = 0; i < n; i++) {
    if (v[i] != 0.0) {
      return 1;
    }
  }
  return 0;
}

static lin_data *lin_data_new(const teal_linear_system_matrices *m, teal_error *err,
                              const char *kind, const char *name) {
  int nx = m->nx, nu = m->nu, ny = m->ny;
  size_t total = (size_t)(nx * nx + nx * nu + nx + ny * nx + ny * nu + ny);
  lin_data *d = teal_leaf_util_alloc(sizeof *d + total * sizeof(double), err, kind, name);
  if (!d) {
    return NULL;
  }
  d->nx = nx;
  d->nu = nu;
  d->ny = ny;
  d->time_period = m->time_period;
  d->A = d->storage;
  d->B = d->A + nx * nx;
  d->f0 = d->B + nx * nu;
  d->C = d->f0 + nx;
  d->D = d->C + ny * nx;
  d->y0 = d->D + ny * nu;
  teal_leaf_util_copy(d->A, m->A, nx * nx);
  teal_leaf_util_copy(d->B, m->B, nx * nu);
  teal_leaf_util_copy(d->f0, m->f0, nx);
  teal_leaf_util_copy(d->C, m->C, ny * nx);
  teal_leaf_util_copy(d->D, m->D, ny * nu);
  teal_leaf_util_copy(d->y0, m->y0, ny);
  d->feedthrough = any_nonzero(d->D, ny * nu);
  return d;
}

/* ---- evaluation ------------------------------------------------------- */

/* out[r] += sum_c M[r][c] x[c] for a rows x cols row-major M. */
static void mat_vec_acc(double *out, const double *M, int rows, int cols, const double *x) {
  for (int r = 0; r < rows; r++) {
    double s = 0.0;
    for (int c = 0; c < cols; c++) {
      s += M[r * cols + c] * x[c];
    }
    out[r] += s;
  }
}

static const double *lin_state(const teal_context *ctx, const lin_data *d) {
  return d->time_period > 0 ? teal_context_discrete_group(ctx, 0) : teal_context_z(ctx);
}

/* out = A x + B u + f0 (the derivative or the next discrete state). */
static int lin_dynamics(const teal_system *sys, const teal_context *ctx, const lin_data *d,
                        double *out) {
  teal_leaf_util_copy(out, d->f0, d->nx);
  mat_vec_acc(out, d->A, d->nx, d->nx, lin_state(ctx, d));
  if (d->nu > 0) {
    const double *u;
    int rc = teal_eval_vector_input(sys, ctx, 0, &u);
    if (rc) {
      return rc;
    }
    mat_vec_acc(out, d->B, d->nx, d->nu, u);
  }
  return TEAL_OK;
}

static int lin_derivatives(const teal_system *sys, const teal_context *ctx,
                           teal_continuous_view *xdot, void *user) {
  return lin_dynamics(sys, ctx, user, xdot->z);
}

static int lin_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                      void *user) {
  return lin_dynamics(sys, ctx, user, xd_next);
}

static int lin_output(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  const lin_data *d = user;
  teal_leaf_util_copy(y, d->y0, d->ny);
  if (d->nx > 0) {
    mat_vec_acc(y, d->C, d->ny, d->nx, lin_state(ctx, d));
  }
  if (d->feedthrough) {
    const double *u;
    int rc = teal_eval_vector_input(sys, ctx, 0, &u);
    if (rc) {
      return rc;
    }
    mat_vec_acc(y, d->D, d->ny, d->nu, u);
  }
  return TEAL_OK;
}

static int lin_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                        int output_port, teal_jacobian *jac, void *user) {
  const lin_data *d = user;
  if (jac->nx != d->nx) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "Jacobian of '%s': nx %d given, the system has %d",
                                     teal_system_name(sys), jac->nx, d->nx);
  }
  teal_leaf_util_copy(jac->A, d->A, d->nx * d->nx);
  if (input_port >= 0) {
    teal_leaf_util_copy(jac->B, d->B, d->nx * d->nu);
  }
  if (output_port >= 0) {
    teal_leaf_util_copy(jac->C, d->C, d->ny * d->nx);
  }
  if (input_port >= 0 && output_port >= 0) {
    teal_leaf_util_copy(jac->D, d->D, d->ny * d->nu);
  }
  return TEAL_OK;
}

/* ---- declaration ------------------------------------------------------ */

static void declare_state(teal_system *sys, lin_data *d) {
  if (d->nx == 0) {
    return;
  }
  if (d->time_period > 0) {
    teal_leaf_declare_discrete_state(sys, d->nx, NULL);
    teal_leaf_declare_periodic_discrete_update(sys, d->time_period, 0.0, lin_update, d);
  } else {
    teal_leaf_declare_continuous_state(sys, 0, 0, d->nx, NULL);
    teal_leaf_set_time_derivatives(sys, lin_derivatives, d);
  }
}

static void declare_output(teal_system *sys, lin_data *d) {
  if (d->ny == 0) {
    return;
  }
  teal_ticket deps[2];
  int n = 0;
  if (d->nx > 0) {
    deps[n++] = d->time_period > 0 ? teal_ticket_discrete(0) : TEAL_TICKET_Z;
  }
  if (d->feedthrough) {
    deps[n++] = teal_ticket_input(0);
  }
  if (n == 0) {
    deps[n++] = TEAL_TICKET_NOTHING;
  }
  teal_leaf_declare_vector_output(sys, "y", d->ny, lin_output, d, deps, n);
}

teal_system *teal_affine_system_make(const char *kind, const char *name,
                                     const teal_linear_system_matrices *m, teal_error *err) {
  if (!m) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': NULL model", kind, teal_leaf_util_name(name));
    return NULL;
  }
  if (check_model(err, kind, name, m)) {
    return NULL;
  }
  lin_data *d = lin_data_new(m, err, kind, name);
  teal_system *sys = d ? teal_leaf_util_new(name, d, teal_free, err) : NULL;
  if (!sys) {
    return NULL;
  }
  if (d->nu > 0) {
    teal_leaf_declare_vector_input(sys, "u", d->nu);
  }
  declare_state(sys, d);
  declare_output(sys, d);
  teal_leaf_set_jacobian(sys, lin_jacobian, d);
  teal_leaf_set_type_tag(sys, k_tag);
  return teal_leaf_util_finish(sys, err);
}

/* ---- public constructors and accessors -------------------------------- */

teal_system *teal_affine_system_from(const char *name, const teal_linear_system_matrices *m,
                                     teal_error *err) {
  return teal_affine_system_make("affine_system", name, m, err);
}

teal_system *teal_affine_system_new(const char *name, const double *A, const double *B,
                                    const double *f0, const double *C, const double *D,
                                    const double *y0, int nx, int nu, int ny,
                                    double time_period, teal_error *err) {
  teal_linear_system_matrices m = {nx, nu, ny, time_period, A, B, f0, C, D, y0};
  return teal_affine_system_make("affine_system", name, &m, err);
}

teal_system *teal_linear_system_new(const char *name, const double *A, const double *B,
                                    const double *C, const double *D, int nx, int nu, int ny,
                                    double time_period, teal_error *err) {
  teal_linear_system_matrices m = {nx, nu, ny, time_period, A, B, NULL, C, D, NULL};
  return teal_affine_system_make("linear_system", name, &m, err);
}

static const lin_data *lin_data_of(const teal_system *sys) {
  if (!sys || teal_system_is_diagram(sys) || !teal_system_has_jacobian(sys)) {
    return NULL;
  }
  return teal_system_type_tag(sys) == k_tag ? teal_system_user(sys) : NULL;
}

int teal_is_linear_system(const teal_system *sys) { return lin_data_of(sys) != NULL; }

int teal_linear_system_get(const teal_system *sys, teal_linear_system_matrices *out) {
  const lin_data *d = lin_data_of(sys);
  if (!d || !out) {
    return TEAL_EINVAL;
  }
  teal_linear_system_matrices m = {d->nx, d->nu, d->ny, d->time_period, d->A,
                                   d->B,  d->f0, d->C,  d->D,           d->y0};
  *out = m;
  return TEAL_OK;
}
