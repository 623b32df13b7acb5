/* The Luenberger observer (see luenberger_observer.h): a model of the
 * observed system, run per context on a private evaluator, corrected by
 * L (y - yhat). */
#include "systems/estimators/luenberger_observer.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/context_access.h"
#include "framework/leaf_events.h"
#include "framework/leaf_system.h"
#include "framework/leaf_util.h"
#include "framework/ports.h"
#include "framework/system_dynamics.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "systems/analysis/state_space_evaluator.h"

static const char k_kind[] = "luenberger_observer";
static const char k_tag = 0; /* its address marks observers */

enum { PORT_Y = 0, PORT_U = 1 };

typedef struct observer_data {
  teal_system *owned;                /* the observed system, when owned */
  teal_state_space_evaluator *model; /* cloned into every context's scratch */
  teal_state_space_shape shape;
  int scratch;
  double L[]; /* nx x ny */
} observer_data;

/* ---- per-context scratch: the evaluator and room for yhat ------------------ */

typedef struct observer_scratch {
  teal_state_space_evaluator *ev;
  double *work; /* ny (yhat), nx (f), then the model's A, B, C, D (the Jacobian hook) */
} observer_scratch;

/* Doubles of a scratch's work array. */
static size_t work_size(teal_state_space_shape sh) {
  return (size_t)(sh.ny + sh.nx) + (size_t)(sh.nx + sh.ny) * (size_t)(sh.nx + sh.nu) + 1;
}

static void scratch_free(void *value) {
  observer_scratch *s = value;
  teal_state_space_evaluator_free(s->ev);
  teal_free(s->work);
  s->ev = NULL;
  s->work = NULL;
}

/* A context's scratch is working memory only: a destination that has its
 * evaluator keeps it (copies within a simulation allocate nothing). */
static int scratch_copy(void *dst, const void *src) {
  observer_scratch *d = dst;
  const observer_scratch *s = src;
  if (d->ev || !s->ev) {
    return TEAL_OK;
  }
  teal_state_space_shape shape = teal_state_space_evaluator_shape(s->ev);
  d->ev = teal_state_space_evaluator_clone(s->ev, NULL);
  d->work = teal_calloc(work_size(shape), sizeof(double));
  if (!d->ev || !d->work) {
    scratch_free(d);
    return TEAL_ENOMEM;
  }
  return TEAL_OK;
}

static const teal_value_type k_scratch_type = {
    "teal_luenberger_observer_scratch", sizeof(observer_scratch), NULL, scratch_copy, scratch_free};

/* ---- the observer's law ----------------------------------------------------------- */

/* f(xhat, u) + L (y - g(xhat, u)) into out (nx values). */
static int corrected_model(const teal_system *sys, const teal_context *ctx, const double *xhat,
                           double *out) {
  const observer_data *d = teal_system_user(sys);
  observer_scratch *s = teal_context_scratch_mut(ctx, d->scratch);
  const double *y, *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, PORT_Y, &y);
  if (rc == TEAL_OK && d->shape.nu > 0) {
    rc = teal_eval_vector_input(sys, ctx, PORT_U, &u);
  }
  if (rc != TEAL_OK) {
    return rc;
  }
  const int nx = d->shape.nx, ny = d->shape.ny;
  double *yhat = s->work;
  rc = teal_state_space_evaluator_eval(s->ev, xhat, u, out, yhat);
  if (rc != TEAL_OK) {
    const teal_error *e = teal_context_error(teal_state_space_evaluator_context(s->ev));
    return teal_context_report_error(ctx, rc, "%s '%s': the observed system failed: %s", k_kind,
                                     teal_system_name(sys), e->message);
  }
  for (int i = 0; i < nx; i++) {
    const double *Li = d->L + (size_t)i * (size_t)ny;
    for (int j = 0; j < ny; j++) {
      out[i] += Li[j] * (y[j] - yhat[j]);
    }
  }
  return TEAL_OK;
}

static int observer_derivatives(const teal_system *sys, const teal_context *ctx,
                                teal_continuous_view *xdot, void *user) {
  (void)user;
  return corrected_model(sys, ctx, teal_context_z(ctx), xdot->z);
}

static int observer_update(const teal_system *sys, const teal_context *ctx, double *next,
                           void *user) {
  (void)user;
  const observer_data *d = teal_system_user(sys);
  observer_scratch *s = teal_context_scratch_mut(ctx, d->scratch);
  double *xhat = s->work + d->shape.ny; /* next holds xhat on entry; keep a copy */
  memcpy(xhat, next, (size_t)d->shape.nx * sizeof(double));
  return corrected_model(sys, ctx, xhat, next);
}

static int observer_output(const teal_system *sys, const teal_context *ctx, double *out,
                           void *user) {
  const observer_data *d = user;
  const double *x = d->shape.discrete ? teal_context_discrete_group(ctx, 0) : teal_context_z(ctx);
  memcpy(out, x, (size_t)d->shape.nx * sizeof(double));
  (void)sys;
  return TEAL_OK;
}

/* ---- analytic Jacobian ------------------------------------------------------------ */

/* The model's blocks at (xhat, u) from its own hook, into the scratch. */
static int model_jacobian(const teal_system *sys, const teal_context *ctx, teal_jacobian *mj) {
  const observer_data *d = teal_system_user(sys);
  observer_scratch *s = teal_context_scratch_mut(ctx, d->scratch);
  const teal_state_space_shape sh = d->shape;
  const double *u = NULL;
  const double *xhat = sh.discrete ? teal_context_discrete_group(ctx, 0) : teal_context_z(ctx);
  int rc = sh.nu > 0 ? teal_eval_vector_input(sys, ctx, PORT_U, &u) : TEAL_OK;
  rc = rc ? rc : teal_state_space_evaluator_eval(s->ev, xhat, u, NULL, s->work);
  const teal_context *mctx = teal_state_space_evaluator_context(s->ev);
  double *blocks = s->work + sh.ny + sh.nx;
  *mj = (teal_jacobian){sh.nx, sh.nu, sh.ny, blocks, blocks + sh.nx * sh.nx, NULL, NULL};
  mj->C = mj->B + sh.nx * sh.nu;
  mj->D = mj->C + sh.ny * sh.nx;
  rc = rc ? rc : teal_calc_jacobian(teal_context_system(mctx), mctx, sh.nu > 0 ? 0 : -1, 0, mj);
  if (rc != TEAL_OK) {
    return teal_context_report_error(ctx, rc, "%s '%s': no analytic Jacobian of the model: %s",
                                     k_kind, teal_system_name(sys),
                                     teal_context_error(mctx)->message);
  }
  return TEAL_OK;
}

/* out (nx x m) = M - L N, N being ny x m. */
static void minus_gain_times(const observer_data *d, const double *M, const double *N, int m,
                             double *out) {
  const int nx = d->shape.nx, ny = d->shape.ny;
  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < m; j++) {
      double v = M ? M[i * m + j] : 0.0;
      for (int k = 0; k < ny; k++) {
        v -= d->L[i * ny + k] * N[k * m + j];
      }
      out[i * m + j] = v;
    }
  }
}

/* xhat' = f(xhat, u) + L (y - g(xhat, u)): A = A_m - L C_m, B = L for y and
 * B_m - L D_m for u; the output is xhat (C = I, D = 0). Declines when the
 * model has no hook. */
static int observer_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                             int output_port, teal_jacobian *jac, void *user) {
  const observer_data *d = user;
  teal_jacobian mj;
  int rc = model_jacobian(sys, ctx, &mj);
  if (rc != TEAL_OK) {
    return rc;
  }
  const int nx = d->shape.nx, ny = d->shape.ny;
  minus_gain_times(d, mj.A, mj.C, nx, jac->A);
  if (input_port == PORT_Y) {
    memcpy(jac->B, d->L, sizeof(double) * (size_t)nx * (size_t)ny);
  } else if (input_port == PORT_U) {
    minus_gain_times(d, mj.B, mj.D, d->shape.nu, jac->B);
  }
  for (int i = 0; output_port == 0 && i < nx; i++) {
    for (int j = 0; j < nx; j++) {
      jac->C[i * nx + j] = i == j;
    }
    for (int j = 0; jac->D && j < jac->nu; j++) {
      jac->D[i * jac->nu + j] = 0.0;
    }
  }
  return TEAL_OK;
}

/* ---- construction ------------------------------------------------------------------ */

static void data_free(void *user) {
  observer_data *d = user;
  teal_state_space_evaluator_free(d->model);
  teal_system_free(d->owned);
  teal_free(d);
}

/* The observed system's shape: one output, at most one input. */
static int check_observed(const char *name, const teal_system *observed,
                          const teal_context *observed_context, const double *L, teal_error *err) {
  if (!observed || !observed_context || !L) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': NULL %s", k_kind, teal_leaf_util_name(name),
                          !observed ? "observed system"
                          : !L      ? "gain L"
                                    : "observed context");
  }
  int nin = teal_system_num_input_ports(observed), nout = teal_system_num_output_ports(observed);
  if (nout != 1 || nin > 1) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s '%s': the observed system '%s' has %d input and %d output ports; "
                          "it needs at most one input and exactly one output",
                          k_kind, teal_leaf_util_name(name), teal_system_name(observed), nin, nout);
  }
  return TEAL_OK;
}

/* The model evaluator and the gain, checked. */
static observer_data *make_data(const char *name, const teal_system *observed,
                                const teal_context *observed_context, const double *L,
                                teal_error *err) {
  int in = teal_system_num_input_ports(observed) ? 0 : -1;
  teal_error local;
  teal_error_clear(&local);
  teal_state_space_evaluator *model =
      teal_state_space_evaluator_new(observed, observed_context, in, 0, &local);
  if (!model) {
    teal_error_set(err, local.code, "%s '%s': %s", k_kind, teal_leaf_util_name(name),
                   local.message);
    return NULL;
  }
  teal_state_space_shape shape = teal_state_space_evaluator_shape(model);
  size_t nL = (size_t)shape.nx * (size_t)shape.ny;
  int rc = shape.nx > 0 ? TEAL_OK
                        : teal_error_set(err, TEAL_EINVAL,
                                         "%s '%s': the observed system has no "
                                         "state to estimate",
                                         k_kind, teal_leaf_util_name(name));
  if (rc == TEAL_OK) {
    rc = teal_leaf_util_check_finite(err, k_kind, name, "L", L, (int)nL);
  }
  observer_data *d =
      rc ? NULL : teal_leaf_util_alloc(sizeof *d + nL * sizeof(double), err, k_kind, name);
  if (!d) {
    teal_state_space_evaluator_free(model);
    return NULL;
  }
  memset(d, 0, sizeof *d);
  d->model = model;
  d->shape = shape;
  memcpy(d->L, L, nL * sizeof(double));
  return d;
}

/* Ports, state, scratch and the update of the observer sys. */
static void declare(teal_system *sys, observer_data *d) {
  const teal_context *mctx = teal_state_space_evaluator_context(d->model);
  teal_leaf_declare_vector_input(sys, "observed_system_output", d->shape.ny);
  if (d->shape.nu > 0) {
    teal_leaf_declare_vector_input(sys, "observed_system_input", d->shape.nu);
  }
  observer_scratch model = {d->model, NULL};
  d->scratch = teal_leaf_declare_scratch(sys, "observed_system_model", &k_scratch_type, &model);
  teal_ticket state = d->shape.discrete ? TEAL_TICKET_XD : TEAL_TICKET_XC;
  teal_leaf_declare_vector_output(sys, "estimated_state", d->shape.nx, observer_output, d, &state,
                                  1);
  if (d->shape.discrete) {
    teal_leaf_declare_discrete_state(sys, d->shape.nx, teal_context_discrete_state(mctx));
    teal_leaf_declare_periodic_discrete_update(sys, d->shape.period, 0.0, observer_update, d);
  } else {
    teal_leaf_declare_continuous_state(sys, 0, 0, d->shape.nx, teal_context_continuous_state(mctx));
    teal_leaf_set_time_derivatives(sys, observer_derivatives, d);
  }
  if (teal_system_has_jacobian(teal_context_system(mctx))) {
    teal_leaf_set_jacobian(sys, observer_jacobian, d);
  }
}

teal_system *teal_luenberger_observer_new(const char *name, const teal_system *observed,
                                          const teal_context *observed_context, const double *L,
                                          teal_error *err) {
  if (check_observed(name, observed, observed_context, L, err) != TEAL_OK) {
    return NULL;
  }
  observer_data *d = make_data(name, observed, observed_context, L, err);
  teal_system *sys = d ? teal_leaf_util_new(name, d, data_free, err) : NULL;
  if (sys) {
    declare(sys, d);
  }
  return sys ? teal_leaf_util_finish_tagged(sys, &k_tag, k_kind, name, err) : NULL;
}

teal_system *teal_luenberger_observer_new_owning(const char *name, teal_system *observed,
                                                 const teal_context *observed_context,
                                                 const double *L, teal_error *err) {
  teal_system *sys = teal_luenberger_observer_new(name, observed, observed_context, L, err);
  if (!sys) {
    teal_system_free(observed);
    return NULL;
  }
  ((observer_data *)teal_system_user(sys))->owned = observed;
  return sys;
}

int teal_is_luenberger_observer(const teal_system *sys) {
  return sys && teal_system_type_tag(sys) == &k_tag;
}

int teal_luenberger_observer_gain(const teal_system *sys, double *L, int n) {
  if (!teal_is_luenberger_observer(sys) || !L) {
    return TEAL_EINVAL;
  }
  const observer_data *d = teal_system_user(sys);
  if (n != d->shape.nx * d->shape.ny) {
    return TEAL_ESIZE;
  }
  memcpy(L, d->L, (size_t)n * sizeof(double));
  return TEAL_OK;
}
