/* Linearization by a leaf's analytic Jacobian or central differences on a
 * private clone of the operating-point context. */
#include "systems/analysis/linearize.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/events.h"

void teal_linearize_options_init(teal_linearize_options *opts) {
  if (opts) {
    opts->input_port = TEAL_LINEARIZE_FIRST_PORT;
    opts->output_port = TEAL_LINEARIZE_FIRST_PORT;
    opts->eps = 1e-6;
    opts->use_analytic = 1;
    opts->equilibrium_tolerance = 1e-6;
  }
}

/* The problem being linearized: sizes, the clone, and the arrays. */
typedef struct lin_problem {
  const teal_system *sys;
  teal_context *ctx;
  teal_event_set *updates; /* discrete systems: the periodic updates */
  int in, out, nx, nu, ny, discrete;
  double period;
  double *block; /* A B f0 C D y0, then x0 u0 and scratch */
  double *A, *B, *f0, *C, *D, *y0;
  double *x0, *u0, *x, *u, *fp, *fm, *yp, *ym;
  teal_error *err;
} lin_problem;

static int resolve_port(int choice, int count) {
  return choice == TEAL_LINEARIZE_FIRST_PORT ? (count > 0 ? 0 : -1) : choice;
}

/* Checks the ports and the kind of state; fills in, out, sizes, discrete. */
static int classify(lin_problem *p, const teal_linearize_options *o) {
  const teal_system *s = p->sys;
  const char *name = teal_system_name(s);
  p->in = resolve_port(o->input_port, teal_system_num_input_ports(s));
  p->out = resolve_port(o->output_port, teal_system_num_output_ports(s));
  const teal_input_port *ip = teal_system_input_port(s, p->in);
  const teal_output_port *op = teal_system_output_port(s, p->out);
  if ((p->in != -1 && (!ip || teal_input_port_type(ip))) ||
      (p->out != -1 && (!op || teal_output_port_type(op)))) {
    return teal_error_set(p->err, TEAL_EINVAL, "linearize '%s': input %d / output %d must be "
                          "vector ports of the system (or -1)", name, p->in, p->out);
  }
  p->nu = ip ? teal_input_port_size(ip) : 0;
  p->ny = op ? teal_output_port_size(op) : 0;
  int nxc = teal_system_num_continuous_states(s, NULL, NULL, NULL);
  int nxd = teal_system_num_discrete_states(s);
  if (nxc > 0 && nxd > 0) {
    return teal_error_set(p->err, TEAL_EINVAL, "linearize '%s': it has both continuous (%d) and "
                          "discrete (%d) state; linearize a purely continuous or purely "
                          "discrete system", name, nxc, nxd);
  }
  p->discrete = nxd > 0;
  p->nx = p->discrete ? nxd : nxc;
  if (p->discrete) {
    double offset;
    return teal_system_periodic_discrete_update(s, &p->period, &offset, p->err);
  }
  return TEAL_OK;
}

static int allocate(lin_problem *p) {
  size_t nx = (size_t)p->nx, nu = (size_t)p->nu, ny = (size_t)p->ny;
  size_t n = nx * nx + nx * nu + nx + ny * nx + ny * nu + ny + 3 * nx + 2 * nu + 2 * ny + nx;
  p->block = teal_calloc(n + 1, sizeof(double));
  if (!p->block) {
    return teal_error_set(p->err, TEAL_ENOMEM, "linearize: out of memory");
  }
  double *at = p->block;
  p->A = at, at += nx * nx;
  p->B = at, at += nx * nu;
  p->f0 = at, at += nx;
  p->C = at, at += ny * nx;
  p->D = at, at += ny * nu;
  p->y0 = at, at += ny;
  p->x0 = at, at += nx;
  p->x = at, at += nx;
  p->fp = at, at += nx;
  p->fm = at, at += nx;
  p->u0 = at, at += nu;
  p->u = at, at += nu;
  p->yp = at, at += ny;
  p->ym = at;
  return TEAL_OK;
}

/* Reads the operating point x0 (and u0 from the fixed input). */
static int read_operating_point(lin_problem *p) {
  if (p->discrete) {
    memcpy(p->x0, teal_context_discrete_state(p->ctx), (size_t)p->nx * sizeof(double));
  } else if (p->nx) {
    teal_context_get_continuous_state(p->ctx, p->x0, p->nx);
  }
  if (p->in < 0) {
    return TEAL_OK;
  }
  if (!teal_context_input_is_fixed(p->ctx, p->in)) {
    return teal_error_set(p->err, TEAL_EINVAL, "linearize '%s': fix input port '%s' to the "
                          "operating point's value in the context first",
                          teal_system_name(p->sys),
                          teal_input_port_name(teal_system_input_port(p->sys, p->in)));
  }
  const double *u;
  int rc = teal_eval_vector_input(p->sys, p->ctx, p->in, &u);
  if (rc == TEAL_OK) {
    memcpy(p->u0, u, (size_t)p->nu * sizeof(double));
  }
  return rc;
}

/* Writes (x, u) into the clone. */
static int set_point(lin_problem *p, const double *x, const double *u) {
  if (p->discrete) {
    memcpy(teal_context_discrete_state_mut(p->ctx), x, (size_t)p->nx * sizeof(double));
  } else if (p->nx) {
    teal_context_set_continuous_state(p->ctx, x, p->nx);
  }
  return p->in >= 0 ? teal_context_fix_input(p->ctx, p->in, u, p->nu) : TEAL_OK;
}

/* f(x, u) (derivatives or next discrete state) and y(x, u) at (x, u). */
static int evaluate(lin_problem *p, const double *x, const double *u, double *f, double *y) {
  int rc = set_point(p, x, u);
  if (rc == TEAL_OK && p->out >= 0) {
    rc = teal_calc_vector_output(p->sys, p->ctx, p->out, y);
  }
  if (rc != TEAL_OK) {
    return rc;
  }
  if (!p->discrete) {
    return teal_calc_time_derivatives(p->sys, p->ctx, f);
  }
  rc = teal_dispatch_discrete_updates(p->sys, p->ctx, p->updates);
  if (rc == TEAL_OK) {
    memcpy(f, teal_context_discrete_state(p->ctx), (size_t)p->nx * sizeof(double));
  }
  return rc;
}

/* Column j of [A; C] (wrt x, by_u = 0) or [B; D] (wrt u) by central
 * differences. */
static int difference_column(lin_problem *p, int j, int by_u, double eps) {
  double *v = by_u ? p->u : p->x;
  const double *v0 = by_u ? p->u0 : p->x0;
  double h = eps * fmax(1.0, fabs(v0[j]));
  memcpy(p->x, p->x0, (size_t)p->nx * sizeof(double));
  memcpy(p->u, p->u0, (size_t)p->nu * sizeof(double));
  v[j] = v0[j] + h;
  int rc = evaluate(p, p->x, p->u, p->fp, p->yp);
  v[j] = v0[j] - h;
  if (rc == TEAL_OK) {
    rc = evaluate(p, p->x, p->u, p->fm, p->ym);
  }
  double *F = by_u ? p->B : p->A, *G = by_u ? p->D : p->C;
  int cols = by_u ? p->nu : p->nx;
  for (int i = 0; rc == TEAL_OK && i < p->nx; i++) {
    F[(size_t)i * cols + j] = (p->fp[i] - p->fm[i]) / (2.0 * h);
  }
  for (int i = 0; rc == TEAL_OK && i < p->ny; i++) {
    G[(size_t)i * cols + j] = (p->yp[i] - p->ym[i]) / (2.0 * h);
  }
  return rc;
}

static int differentiate(lin_problem *p, double eps) {
  int rc = TEAL_OK;
  for (int j = 0; rc == TEAL_OK && j < p->nx; j++) {
    rc = difference_column(p, j, 0, eps);
  }
  for (int j = 0; rc == TEAL_OK && j < p->nu; j++) {
    rc = difference_column(p, j, 1, eps);
  }
  return rc;
}

static int analytic(lin_problem *p) {
  teal_jacobian jac = {p->nx, p->nu, p->ny, p->A, p->nu ? p->B : NULL, p->ny ? p->C : NULL,
                       p->nu && p->ny ? p->D : NULL};
  return teal_calc_jacobian(p->sys, p->ctx, p->in, p->out, &jac);
}

/* f0 = f(x0, u0) - A x0 - B u0, y0 = y(x0, u0) - C x0 - D u0 (absolute form). */
static void affine_terms(lin_problem *p) {
  for (int i = 0; i < p->nx; i++) {
    double s = p->fp[i];
    for (int j = 0; j < p->nx; j++) {
      s -= p->A[(size_t)i * p->nx + j] * p->x0[j];
    }
    for (int j = 0; j < p->nu; j++) {
      s -= p->B[(size_t)i * p->nu + j] * p->u0[j];
    }
    p->f0[i] = s;
  }
  for (int i = 0; i < p->ny; i++) {
    double s = p->yp[i];
    for (int j = 0; j < p->nx; j++) {
      s -= p->C[(size_t)i * p->nx + j] * p->x0[j];
    }
    for (int j = 0; j < p->nu; j++) {
      s -= p->D[(size_t)i * p->nu + j] * p->u0[j];
    }
    p->y0[i] = s;
  }
}

/* Sets up the clone of ctx and, for discrete systems, the update set. */
static int prepare(lin_problem *p, const teal_context *ctx) {
  p->ctx = teal_context_clone(ctx, p->err);
  if (!p->ctx) {
    return p->err ? p->err->code : TEAL_ENOMEM;
  }
  if (!p->discrete) {
    return TEAL_OK;
  }
  double t_next;
  p->updates = teal_event_set_new(p->sys);
  if (!p->updates) {
    return teal_error_set(p->err, TEAL_ENOMEM, "linearize: out of memory");
  }
  return teal_calc_next_update_time(p->sys, p->ctx, &t_next, p->updates);
}

/* Records a context error (with its message) into err. */
static int context_failure(lin_problem *p, int rc) {
  const teal_error *e = p->ctx ? teal_context_error(p->ctx) : NULL;
  if (p->err && e && e->code) {
    teal_error_set(p->err, rc, "linearize '%s': %s", teal_system_name(p->sys), e->message);
  } else if (p->err && p->err->code == TEAL_OK) {
    teal_error_set(p->err, rc, "linearize '%s': %s", teal_system_name(p->sys), teal_strerror(rc));
  }
  return rc;
}

static int run(lin_problem *p, const teal_linearize_options *o) {
  int rc = read_operating_point(p);
  if (rc != TEAL_OK) {
    return p->err && p->err->code ? rc : context_failure(p, rc);
  }
  rc = evaluate(p, p->x0, p->u0, p->fp, p->yp); /* f(x0, u0), y(x0, u0) */
  if (rc == TEAL_OK) {
    rc = o->use_analytic && teal_system_has_jacobian(p->sys) ? analytic(p)
                                                             : differentiate(p, o->eps);
  }
  if (rc == TEAL_OK) {
    rc = evaluate(p, p->x0, p->u0, p->fp, p->yp);
  }
  if (rc != TEAL_OK) {
    return context_failure(p, rc);
  }
  affine_terms(p);
  return TEAL_OK;
}

int teal_linearize_matrices(const teal_system *sys, const teal_context *ctx,
                            const teal_linearize_options *opts, teal_linear_system_matrices *out,
                            teal_error *err) {
  teal_linearize_options defaults;
  teal_linearize_options_init(&defaults);
  const teal_linearize_options *o = opts ? opts : &defaults;
  if (!sys || !ctx || !out || teal_context_system(ctx) != sys || !teal_context_is_root(ctx)) {
    return teal_error_set(err, TEAL_EINVAL, "linearize: needs a system and a root context of "
                          "that system");
  }
  if (!(isfinite(o->eps) && o->eps > 0)) {
    return teal_error_set(err, TEAL_EINVAL, "linearize: eps %g must be positive", o->eps);
  }
  lin_problem p;
  memset(&p, 0, sizeof p);
  p.sys = sys;
  p.err = err;
  int rc = classify(&p, o);
  if (rc == TEAL_OK) {
    rc = allocate(&p);
  }
  if (rc == TEAL_OK) {
    rc = prepare(&p, ctx);
  }
  if (rc == TEAL_OK) {
    rc = run(&p, o);
  }
  teal_context_free(p.ctx);
  teal_event_set_free(p.updates);
  if (rc != TEAL_OK) {
    teal_free(p.block);
    return rc;
  }
  teal_linear_system_matrices m = {p.nx, p.nu, p.ny, p.discrete ? p.period : 0.0,
                                   p.A, p.B, p.f0, p.C, p.D, p.y0};
  *out = m;
  return TEAL_OK;
}

void teal_linear_system_matrices_free(teal_linear_system_matrices *m) {
  if (m) {
    teal_free((void *)m->A); /* the block starts at A */
    memset(m, 0, sizeof *m);
  }
}
