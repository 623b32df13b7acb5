/* The unilateral impulse problem of the discrete step: activation of the
 * contacts the step would close and projected Gauss-Seidel on their rows
 * and the friction elements' (see unilateral_internal.h). */
#include <math.h>
#include <string.h>

#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/constraints/unilateral_internal.h"

#define UNI_ITERATIONS 500
#define UNI_TOLERANCE 1e-14

static double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += a[i] * b[i];
  }
  return s;
}

/* Appends a row (its J already in place at row m) and its response
 * Y = (M + h D)^-1 J'; returns its index or a negative status. */
static int push_row(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w, int kind,
                    int link, double target, double mu) {
  int j = w->m, nv = w->nv;
  double *J = w->J + (size_t)j * nv, *Y = w->Y + (size_t)j * nv;
  int rc = teal_mb_mass_inverse(p, data, J, Y);
  if (rc) {
    return rc;
  }
  w->kind[j] = kind;
  w->link[j] = link;
  w->target[j] = target;
  w->mu[j] = mu;
  w->bound[j] = 0.0;
  w->lambda[j] = 0.0;
  w->w[j] = dot(J, Y, nv);
  w->m++;
  return j;
}

/* The friction elements' rows: e_v of their joints' dofs, target 0. */
static int friction_rows(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w) {
  for (int f = 0; f < p->slfrictions.n; f++) {
    const teal_state_limited_friction_spec *s = &SLFRICTION(p)[f].spec;
    if (!s->enabled) {
      continue;
    }
    double *J = w->J + (size_t)w->m * w->nv;
    memset(J, 0, (size_t)w->nv * sizeof(double));
    J[JOINT(p)[s->joint].v_start] = 1.0;
    int j = push_row(p, data, w, UNI_ROW_FRICTION, s->contact, 0.0, s->mu);
    if (j < 0) {
      return j;
    }
    w->bound[j] = p->time_step * s->max_force;
  }
  return TEAL_OK;
}

/* The normal row of contact c (its J at row m, its gap given): the next
 * gap velocity must close at most the gap within the step and, on an
 * impact faster than the capture speed, rebound at e times the approach
 * speed of the velocity vfree the step started from. */
static int contact_rows(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w, int c,
                        const double *q, double gap, const double *vfree) {
  const teal_unilateral_contact_spec *s = &UNILATERAL(p)[c].spec;
  double h = p->time_step, vn = dot(w->J + (size_t)w->m * w->nv, vfree, w->nv);
  double e = -vn > s->capture_speed ? s->restitution : 0.0;
  double target = e > 0.0 ? fmax(-gap / h, -e * vn) : -gap / h;
  int j = push_row(p, data, w, UNI_ROW_NORMAL, -1, target, 0.0);
  if (j < 0 || !(s->friction > 0.0)) {
    return j < 0 ? j : TEAL_OK;
  }
  w->row_of[c] = j;
  double *J1 = w->J + (size_t)w->m * w->nv;
  int rc = teal_unilateral_tangent_rows(p, data, w, c, q, J1, J1 + w->nv);
  for (int k = 0; rc == TEAL_OK && k < 2; k++) {
    int t = push_row(p, data, w, UNI_ROW_TANGENT, j, 0.0, s->friction);
    rc = t < 0 ? t : TEAL_OK;
  }
  return rc;
}

/* Activates the enabled contacts whose gap the current velocity would
 * close within the step; returns how many, or a negative status. */
static int activate(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                    const double *q, const double *vfree) {
  int added = 0;
  for (int c = 0; c < p->unilaterals.n; c++) {
    if (!UNILATERAL(p)[c].spec.enabled || w->row_of[c] >= 0) {
      continue;
    }
    double gap, *J = w->J + (size_t)w->m * w->nv;
    int rc = teal_unilateral_normal_row(p, data, w, c, q, &gap, J);
    if (rc) {
      return rc;
    }
    if (!(gap + p->time_step * dot(J, w->v, w->nv) < 0.0)) {
      continue;
    }
    w->row_of[c] = w->m;
    if ((rc = contact_rows(p, data, w, c, q, gap, vfree)) != TEAL_OK) {
      return rc;
    }
    added++;
  }
  return added;
}

/* lambda_j += delta, and v with it. */
static void apply(teal_unilateral_work *w, int j, double delta) {
  const double *Y = w->Y + (size_t)j * w->nv;
  for (int i = 0; i < w->nv; i++) {
    w->v[i] += Y[i] * delta;
  }
  w->lambda[j] += delta;
}

/* The unconstrained Gauss-Seidel value of row j's impulse. */
static double free_update(const teal_unilateral_work *w, int j) {
  double r = dot(w->J + (size_t)j * w->nv, w->v, w->nv) - w->target[j];
  return w->lambda[j] - r / w->w[j];
}

/* One row (or a tangent pair from its first row) updated; returns the
 * largest velocity change it made. */
static double update_row(teal_unilateral_work *w, int j) {
  double next = free_update(w, j), change;
  if (w->kind[j] == UNI_ROW_NORMAL) {
    next = fmax(0.0, next);
  } else if (w->kind[j] == UNI_ROW_FRICTION) {
    int n = w->link[j] >= 0 ? w->row_of[w->link[j]] : -1;
    double b = w->bound[j] + (n >= 0 ? w->mu[j] * w->lambda[n] : 0.0);
    next = fmin(b, fmax(-b, next));
  } else { /* the pair: projected onto the cone's disk of radius mu lambda_n */
    double next2 = free_update(w, j + 1), r = w->mu[j] * w->lambda[w->link[j]];
    double len = hypot(next, next2), s = len > r ? r / len : 1.0;
    change = fabs(s * next2 - w->lambda[j + 1]) * w->w[j + 1];
    apply(w, j + 1, s * next2 - w->lambda[j + 1]);
    next *= s;
    change = fmax(change, fabs(next - w->lambda[j]) * w->w[j]);
    apply(w, j, next - w->lambda[j]);
    return change;
  }
  change = fabs(next - w->lambda[j]) * w->w[j];
  apply(w, j, next - w->lambda[j]);
  return change;
}

static void solve(teal_unilateral_work *w) {
  for (int it = 0; it < UNI_ITERATIONS; it++) {
    double change = 0.0;
    for (int j = 0; j < w->m; j++) {
      int pair = w->kind[j] == UNI_ROW_TANGENT;
      /* a row no dof moves can do nothing */
      if (w->w[j] > 0.0 && (!pair || w->w[j + 1] > 0.0)) {
        change = fmax(change, update_row(w, j));
      }
      j += pair; /* the pair's second row is done with its first */
    }
    if (change < UNI_TOLERANCE) {
      return;
    }
  }
}

int teal_unilateral_step(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                         const double *q, double *v) {
  if (!w) {
    return TEAL_OK;
  }
  memcpy(w->v, v, (size_t)w->nv * sizeof(double));
  w->m = 0;
  for (int c = 0; c < p->unilaterals.n; c++) {
    w->row_of[c] = -1;
  }
  int rc = teal_mb_body_poses(p, q, w->X_WB);
  if (rc) {
    return teal_error_set(&data->err, rc, "unilateral contacts: kinematics failed (%s)",
                          teal_strerror(rc));
  }
  rc = friction_rows(p, data, w);
  /* each pass activates at least one more contact, or ends */
  for (int pass = 0; rc == TEAL_OK && pass <= p->unilaterals.n; pass++) {
    int added = activate(p, data, w, q, v);
    if (added < 0) {
      rc = added;
    } else if (added > 0 || pass == 0) {
      solve(w);
    } else {
      break;
    }
  }
  if (rc == TEAL_OK) {
    memcpy(v, w->v, (size_t)w->nv * sizeof(double));
  }
  return rc;
}
