/* Linearization by a leaf's analytic Jacobian or central differences on a
 * private clone of the operating-point context; the linear and affine
 * systems built from it, and ZOH discretization. */
#include "systems/analysis/linearize.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/diagram.h"
#include "framework/events.h"
#include "solvers/expm.h"
#include "systems/analysis/finite_difference.h"
#include "systems/analysis/state_space_evaluator.h"

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
  teal_state_space_evaluator *ev; /* the map, on its clone of the context */
  teal_context *ctx;              /* that clone */
  int in, out, nx, nu, ny, discrete;
  double period;
  double *block; /* A C B D f0 y0 ([A; C] and [B; D] are contiguous), then
                    x0 u0 and scratch ([fp; yp] and [fm; ym] are too) */
  double *A, *B, *f0, *C, *D, *y0;
  double *x0, *u0, *x, *u, *fp, *fm, *yp, *ym;
  teal_error *err;
} lin_problem;

static int resolve_port(int choice, int count) {
  return choice == TEAL_LINEARIZE_FIRST_PORT ? (count > 0 ? 0 : -1) : choice;
}

/* The evaluator of the map at the chosen ports, on a clone of ctx; fills
 * in, out, the sizes and the kind. Its messages get linearize's prefix. */
static int make_map(lin_problem *p, const teal_context *ctx, const teal_linearize_options *o) {
  const teal_system *s = p->sys;
  p->in = resolve_port(o->input_port, teal_system_num_input_ports(s));
  p->out = resolve_port(o->output_port, teal_system_num_output_ports(s));
  teal_error local;
  teal_error_clear(&local);
  p->ev = teal_state_space_evaluator_new(s, ctx, p->in, p->out, &local);
  if (!p->ev) {
    return teal_error_set(p->err, local.code ? local.code : TEAL_ENOMEM, "linearize: %s",
                          local.message);
  }
  teal_state_space_shape shape = teal_state_space_evaluator_shape(p->ev);
  p->ctx = teal_state_space_evaluator_context(p->ev);
  p->nx = shape.nx;
  p->nu = shape.nu;
  p->ny = shape.ny;
  p->discrete = shape.discrete;
  p->period = shape.period;
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
  p->C = at, at += ny * nx;
  p->B = at, at += nx * nu;
  p->D = at, at += ny * nu;
  p->f0 = at, at += nx;
  p->y0 = at, at += ny;
  p->x0 = at, at += nx;
  p->x = at, at += nx;
  p->fp = at, at += nx;
  p->yp = at, at += ny;
  p->fm = at, at += nx;
  p->ym = at, at += ny;
  p->u0 = at, at += nu;
  p->u = at;
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

/* f(x, u) (derivatives or next discrete state) and y(x, u) at (x, u). */
static int evaluate(lin_problem *p, const double *x, const double *u, double *f, double *y) {
  return teal_state_space_evaluator_eval(p->ev, x, u, f, y);
}

/* [f; y] at (x, u) for the central differences: by_u says which of the
 * two the differenced argument is. */
typedef struct lin_arg {
  lin_problem *p;
  int by_u;
} lin_arg;

static int evaluate_fy(const double *v, double *fy, void *user) {
  lin_arg *a = user;
  lin_problem *p = a->p;
  return evaluate(p, a->by_u ? p->x : v, a->by_u ? v : p->u, fy, fy + p->nx);
}

/* [A; C] (wrt x) and [B; D] (wrt u) by central differences with steps
 * eps max(1, |v_j|); each pair is one contiguous (nx + ny)-row matrix. */
static int differentiate(lin_problem *p, double eps) {
  memcpy(p->x, p->x0, (size_t)p->nx * sizeof(double));
  memcpy(p->u, p->u0, (size_t)p->nu * sizeof(double));
  int m = p->nx + p->ny;
  lin_arg ax = {p, 0}, au = {p, 1};
  int rc = teal_fd_jacobian(TEAL_FD_CENTRAL, evaluate_fy, &ax, p->x, p->nx, m, eps, NULL, p->fp,
                            p->fm, p->A);
  if (rc == TEAL_OK) {
    rc = teal_fd_jacobian(TEAL_FD_CENTRAL, evaluate_fy, &au, p->u, p->nu, m, eps, NULL, p->fp,
                          p->fm, p->B);
  }
  return rc;
}

static int analytic(lin_problem *p) {
  /* back at (x0, u0): evaluating a discrete system's update advanced its
   * state to the next one */
  int rc = teal_state_space_evaluator_eval(p->ev, p->x0, p->u0, NULL, NULL);
  if (rc) {
    return rc;
  }
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

/* ---- non-finite values ------------------------------------------------------ */

/* Index of the first non-finite entry of v (n entries), or -1. */
static int first_nonfinite(const double *v, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      return i;
    }
  }
  return -1;
}

/* The first non-finite numeric parameter of the leaves below sys (in ctx):
 * TEAL_ENONFINITE naming the leaf, the parameter and the entry. */
static int check_parameters(lin_problem *p, const teal_system *sys, const teal_context *ctx) {
  if (teal_system_is_diagram(sys)) {
    int rc = TEAL_OK;
    for (int i = 0; rc == TEAL_OK && i < teal_diagram_num_subsystems(sys); i++) {
      const teal_system *sub = teal_diagram_subsystem(sys, i);
      const teal_context *sub_ctx = sub ? teal_context_subcontext(ctx, sub) : NULL;
      rc = sub_ctx ? check_parameters(p, sub, sub_ctx) : TEAL_OK;
    }
    return rc;
  }
  for (int i = 0; i < teal_system_num_numeric_parameters(sys); i++) {
    int n = teal_system_numeric_parameter_size(sys, i);
    const double *v = teal_context_numeric_parameter(ctx, i);
    int k = v && n > 0 ? first_nonfinite(v, n) : -1;
    if (k >= 0) {
      return teal_error_set(
          p->err, TEAL_ENONFINITE,
          "linearize '%s': numeric parameter %d of '%s' has entry %d = %g, not finite",
          teal_system_name(p->sys), i, teal_system_name(sys), k, v[k]);
    }
  }
  return TEAL_OK;
}

/* The fixed vector inputs other than the linearized one (u0 is checked with
 * the state). */
static int check_other_inputs(lin_problem *p) {
  for (int i = 0; i < teal_system_num_input_ports(p->sys); i++) {
    const teal_input_port *ip = teal_system_input_port(p->sys, i);
    const double *v = NULL;
    if (i == p->in || teal_input_port_type(ip) || !teal_context_input_is_fixed(p->ctx, i) ||
        teal_eval_vector_input(p->sys, p->ctx, i, &v) != TEAL_OK || !v) {
      continue;
    }
    int k = first_nonfinite(v, teal_input_port_size(ip));
    if (k >= 0) {
      return teal_error_set(p->err, TEAL_ENONFINITE,
                            "linearize '%s': input '%s'[%d] = %g is not finite",
                            teal_system_name(p->sys), teal_input_port_name(ip), k, v[k]);
    }
  }
  return TEAL_OK;
}

/* The operating point: time, x0, u0, the other fixed inputs and the
 * parameters must be finite, or the matrices would be NaN. */
static int check_operating_point(lin_problem *p) {
  const char *name = teal_system_name(p->sys);
  double t = teal_context_time(p->ctx);
  if (!isfinite(t)) {
    return teal_error_set(p->err, TEAL_ENONFINITE, "linearize '%s': time %g is not finite", name,
                          t);
  }
  int k = first_nonfinite(p->x0, p->nx);
  if (k >= 0) {
    return teal_error_set(p->err, TEAL_ENONFINITE,
                          "linearize '%s': %s state x0[%d] = %g is not finite", name,
                          p->discrete ? "discrete" : "continuous", k, p->x0[k]);
  }
  k = first_nonfinite(p->u0, p->nu);
  if (k >= 0) {
    return teal_error_set(p->err, TEAL_ENONFINITE,
                          "linearize '%s': input '%s'[%d] = %g is not finite", name,
                          teal_input_port_name(teal_system_input_port(p->sys, p->in)), k, p->u0[k]);
  }
  int rc = check_other_inputs(p);
  return rc ? rc : check_parameters(p, p->sys, p->ctx);
}

/* f(x0, u0) and y(x0, u0) in fp, yp. */
static int check_values(lin_problem *p) {
  const char *f = p->discrete ? "next state" : "time derivative";
  int k = first_nonfinite(p->fp, p->nx);
  if (k >= 0) {
    return teal_error_set(p->err, TEAL_ENONFINITE,
                          "linearize '%s': the %s f[%d] = %g at the operating point is not finite",
                          teal_system_name(p->sys), f, k, p->fp[k]);
  }
  k = first_nonfinite(p->yp, p->ny);
  if (k >= 0) {
    return teal_error_set(
        p->err, TEAL_ENONFINITE,
        "linearize '%s': the output y[%d] = %g at the operating point is not finite",
        teal_system_name(p->sys), k, p->yp[k]);
  }
  return TEAL_OK;
}

/* The results: A, B, C, D, f0, y0 (rows x cols each, row-major). */
static int check_results(lin_problem *p) {
  const struct {
    const char *name;
    const double *m;
    int rows, cols;
  } parts[] = {{"A", p->A, p->nx, p->nx}, {"B", p->B, p->nx, p->nu}, {"C", p->C, p->ny, p->nx},
               {"D", p->D, p->ny, p->nu}, {"f0", p->f0, p->nx, 1},   {"y0", p->y0, p->ny, 1}};
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    int k = first_nonfinite(parts[i].m, parts[i].rows * parts[i].cols);
    if (k >= 0) {
      return teal_error_set(p->err, TEAL_ENONFINITE,
                            "linearize '%s': %s(%d, %d) = %g is not finite (the system is not "
                            "finite or not differentiable near the operating point)",
                            teal_system_name(p->sys), parts[i].name, k / parts[i].cols,
                            k % parts[i].cols, parts[i].m[k]);
    }
  }
  return TEAL_OK;
}

static int run(lin_problem *p, const teal_linearize_options *o) {
  int rc = read_operating_point(p);
  if (rc != TEAL_OK) {
    return p->err && p->err->code ? rc : context_failure(p, rc);
  }
  if ((rc = check_operating_point(p)) != TEAL_OK) {
    return rc;
  }
  rc = evaluate(p, p->x0, p->u0, p->fp, p->yp); /* f(x0, u0), y(x0, u0) */
  if (rc == TEAL_OK && (rc = check_values(p)) != TEAL_OK) {
    return rc;
  }
  if (rc == TEAL_OK) {
    rc = o->use_analytic && teal_system_has_jacobian(p->sys) ? analytic(p) : TEAL_EUNSUPPORTED;
    /* a hook may decline a configuration it cannot differentiate (the
     * multibody plant with contact, say): central differences then */
    if (rc == TEAL_EUNSUPPORTED) {
      rc = differentiate(p, o->eps);
    }
  }
  if (rc == TEAL_OK) {
    rc = evaluate(p, p->x0, p->u0, p->fp, p->yp);
  }
  if (rc != TEAL_OK) {
    return context_failure(p, rc);
  }
  affine_terms(p);
  return check_results(p);
}

int teal_linearize_matrices(const teal_system *sys, const teal_context *ctx,
                            const teal_linearize_options *opts, teal_linear_system_matrices *out,
                            teal_error *err) {
  teal_linearize_options defaults;
  teal_linearize_options_init(&defaults);
  const teal_linearize_options *o = opts ? opts : &defaults;
  /* the steps below look at err to tell whether they already explained a
   * failure: an error left in it by an earlier call must not count */
  teal_error_clear(err);
  if (!out) {
    return teal_error_set(err, TEAL_EINVAL, "linearize: out is NULL");
  }
  if (!sys || !ctx || teal_context_system(ctx) != sys || !teal_context_is_root(ctx)) {
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
  int rc = make_map(&p, ctx, o);
  if (rc == TEAL_OK) {
    rc = allocate(&p);
  }
  if (rc == TEAL_OK) {
    rc = run(&p, o);
  }
  teal_state_space_evaluator_free(p.ev);
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

/* ---- linear and affine systems, ZOH discretization ------------------------- */

/* Largest |f(x0, u0)| (continuous) or |x_next - x0| (discrete). */
static double equilibrium_defect(const teal_linear_system_matrices *m, const double *x0,
                                 const double *u0) {
  double worst = 0.0;
  for (int i = 0; i < m->nx; i++) {
    double f = m->f0[i];
    for (int j = 0; j < m->nx; j++) {
      f += m->A[(size_t)i * m->nx + j] * x0[j];
    }
    for (int j = 0; j < m->nu; j++) {
      f += m->B[(size_t)i * m->nu + j] * u0[j];
    }
    worst = fmax(worst, fabs(m->time_period > 0 ? f - x0[i] : f));
  }
  return worst;
}

/* Name "<system>_linearized" into buf. */
static const char *result_name(const teal_system *sys, char *buf, size_t n) {
  snprintf(buf, n, "%s_linearized", teal_system_name(sys));
  return buf;
}

/* The operating point (x0, u0) read from ctx into one allocation. */
static double *operating_point(const teal_system *sys, const teal_context *ctx,
                               const teal_linear_system_matrices *m, int in) {
  double *p = teal_calloc((size_t)(m->nx + m->nu) + 1, sizeof(double));
  if (!p) {
    return NULL;
  }
  if (m->time_period > 0) {
    memcpy(p, teal_context_discrete_state(ctx), (size_t)m->nx * sizeof(double));
  } else if (m->nx) {
    teal_context_get_continuous_state(ctx, p, m->nx);
  }
  const double *u;
  if (m->nu && teal_eval_vector_input(sys, ctx, in, &u) == TEAL_OK) {
    memcpy(p + m->nx, u, (size_t)m->nu * sizeof(double));
  }
  return p;
}

static int input_of(const teal_system *sys, const teal_linearize_options *o) {
  int in = o ? o->input_port : TEAL_LINEARIZE_FIRST_PORT;
  return in == TEAL_LINEARIZE_FIRST_PORT ? (teal_system_num_input_ports(sys) ? 0 : -1) : in;
}

teal_system *teal_linearize(const teal_system *sys, const teal_context *ctx,
                            const teal_linearize_options *opts, teal_error *err) {
  teal_linearize_options defaults;
  teal_linearize_options_init(&defaults);
  const teal_linearize_options *o = opts ? opts : &defaults;
  teal_linear_system_matrices m;
  if (teal_linearize_matrices(sys, ctx, o, &m, err) != TEAL_OK) {
    return NULL;
  }
  double *point = operating_point(sys, ctx, &m, input_of(sys, o));
  teal_system *result = NULL;
  if (!point) {
    teal_error_set(err, TEAL_ENOMEM, "linearize: out of memory");
  } else if (o->equilibrium_tolerance > 0 &&
             equilibrium_defect(&m, point, point + m.nx) > o->equilibrium_tolerance) {
    teal_error_set(err, TEAL_EINVAL, "linearize '%s': the context is not an equilibrium "
                   "(defect %.3g > tolerance %.3g); use teal_first_order_taylor_approximation",
                   teal_system_name(sys), equilibrium_defect(&m, point, point + m.nx),
                   o->equilibrium_tolerance);
  } else {
    char name[256];
    result = teal_linear_system_new(result_name(sys, name, sizeof name), m.A, m.B, m.C, m.D,
                                    m.nx, m.nu, m.ny, m.time_period, err);
  }
  teal_free(point);
  teal_linear_system_matrices_free(&m);
  return result;
}

teal_system *teal_first_order_taylor_approximation(const teal_system *sys,
                                                   const teal_context *ctx,
                                                   const teal_linearize_options *opts,
                                                   teal_error *err) {
  teal_linear_system_matrices m;
  if (teal_linearize_matrices(sys, ctx, opts, &m, err) != TEAL_OK) {
    return NULL;
  }
  char name[256];
  teal_system *result = teal_affine_system_from(result_name(sys, name, sizeof name), &m, err);
  teal_linear_system_matrices_free(&m);
  return result;
}

int teal_discretize_zoh(const double *A, const double *B, int n, int m, double h, double *Ad,
                        double *Bd, teal_error *err) {
  if (n < 0 || m < 0 || (n > 0 && (!A || !Ad)) || (n > 0 && m > 0 && (!B || !Bd))) {
    return teal_error_set(err, TEAL_EINVAL, "discretize_zoh: bad arguments (n %d, m %d)", n, m);
  }
  if (!(isfinite(h) && h > 0)) {
    return teal_error_set(err, TEAL_EINVAL, "discretize_zoh: step %g must be positive", h);
  }
  int k = n + m;
  double *M = teal_calloc((size_t)k * (size_t)k * 2 + 1, sizeof(double));
  if (!M) {
    return teal_error_set(err, TEAL_ENOMEM, "discretize_zoh: out of memory");
  }
  double *E = M + (size_t)k * (size_t)k;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      M[(size_t)i * k + j] = A[(size_t)i * n + j] * h;
    }
    for (int j = 0; j < m; j++) {
      M[(size_t)i * k + n + j] = B[(size_t)i * m + j] * h;
    }
  }
  int rc = teal_expm(M, k, E, err);
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    memcpy(Ad + (size_t)i * n, E + (size_t)i * k, (size_t)n * sizeof(double));
    if (m > 0) {
      memcpy(Bd + (size_t)i * m, E + (size_t)i * k + n, (size_t)m * sizeof(double));
    }
  }
  teal_free(M);
  return rc;
}
