/* The rows of the unilateral impulse problem at the step's q: the work
 * memory, each contact's gap and normal row, a point's tangent rows (see
 * unilateral_internal.h). Rows are generalized forces of unit point forces
 * (J' f by Simbody's station Jacobian transpose), so J v is the gap
 * velocity the force direction measures. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/operators.h"
#include "multibody/constraints/unilateral_internal.h"

void teal_unilateral_work_free(teal_unilateral_work *w) {
  if (!w) {
    return;
  }
  void *arrays[] = {w->J,    w->Y,    w->lambda, w->target, w->w,   w->bound, w->mu,
                    w->kind, w->link, w->row_of, w->v,      w->tau, w->X_WB};
  for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
    teal_free(arrays[i]);
  }
  teal_free(w);
}

teal_unilateral_work *teal_unilateral_work_new(const teal_plant *p, int *rc) {
  *rc = TEAL_OK;
  int nc = p->unilaterals.n, nf = p->slfrictions.n, nv = p->nv;
  if (nc + nf == 0) {
    return NULL;
  }
  teal_unilateral_work *w = teal_calloc(1, sizeof(*w));
  if (!w) {
    *rc = TEAL_ENOMEM;
    return NULL;
  }
  /* a point in plane's normal and two tangents at most, one row a friction */
  int cap = 3 * nc + nf;
  size_t rows = (size_t)cap * (size_t)(nv > 0 ? nv : 1);
  w->cap = cap;
  w->nv = nv;
  w->J = teal_calloc(rows, sizeof(double));
  w->Y = teal_calloc(rows, sizeof(double));
  w->lambda = teal_calloc((size_t)cap, sizeof(double));
  w->target = teal_calloc((size_t)cap, sizeof(double));
  w->w = teal_calloc((size_t)cap, sizeof(double));
  w->bound = teal_calloc((size_t)cap, sizeof(double));
  w->mu = teal_calloc((size_t)cap, sizeof(double));
  w->kind = teal_calloc((size_t)cap, sizeof(int));
  w->link = teal_calloc((size_t)cap, sizeof(int));
  w->row_of = teal_calloc((size_t)(nc > 0 ? nc : 1), sizeof(int));
  w->v = teal_calloc((size_t)(nv > 0 ? nv : 1), sizeof(double));
  w->tau = teal_calloc((size_t)(nv > 0 ? nv : 1), sizeof(double));
  w->X_WB = teal_calloc((size_t)p->bodies.n, sizeof(teal_transform));
  if (!w->J || !w->Y || !w->lambda || !w->target || !w->w || !w->bound || !w->mu || !w->kind ||
      !w->link || !w->row_of || !w->v || !w->tau || !w->X_WB) {
    teal_unilateral_work_free(w);
    *rc = TEAL_ENOMEM;
    return NULL;
  }
  return w;
}

/* J = sum of the unit-free forces f[i] at world points p_W[i] on bodies[i]
 * (the world's entries dropped: it does not move). */
static int point_forces_row(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                            const double *q, int n, const int *bodies, const teal_vec3 *p_W,
                            const teal_vec3 *f, double *J) {
  int b[2], k = 0;
  teal_vec3 p_B[2], f_W[2];
  for (int i = 0; i < n; i++) {
    if (bodies[i] == TEAL_WORLD_BODY) {
      continue;
    }
    teal_transform X = w->X_WB[bodies[i]];
    b[k] = bodies[i];
    p_B[k] = teal_rotation_apply_inverse(X.R, teal_vec3_sub(p_W[i], X.p));
    f_W[k++] = f[i];
  }
  if (k == 0) {
    memset(J, 0, (size_t)p->nv * sizeof(double));
    return TEAL_OK;
  }
  return teal_mb_multiply_by_station_jacobian_transpose(p, data, q, k, b, p_B, f_W, J);
}

/* The point in plane's world normal n, contact point S and gap. */
static double plane_geometry(const teal_unilateral_work *w, const teal_unilateral_contact_spec *s,
                             teal_vec3 *n, teal_vec3 *p_WS) {
  teal_transform X_WA = w->X_WB[s->body_a];
  *n = teal_rotation_apply(X_WA.R, s->n_a);
  *p_WS = teal_transform_apply(w->X_WB[s->body_b], s->p_b);
  return teal_vec3_dot(*n, teal_vec3_sub(*p_WS, teal_transform_apply(X_WA, s->p_a)));
}

/* A hard stop's gap and row: +-e_v on its dof. */
static void hard_stop_row(const teal_plant *p, const teal_unilateral_contact_spec *s,
                          const double *q, double *gap, double *J) {
  const joint_rec *j = &JOINT(p)[s->joint];
  double sign = s->kind == TEAL_UNILATERAL_HARD_STOP_LOWER ? 1.0 : -1.0;
  memset(J, 0, (size_t)p->nv * sizeof(double));
  J[j->v_start] = sign;
  *gap = sign * (q[j->q_start] - s->limit);
}

int teal_unilateral_normal_row(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                               int c, const double *q, double *gap, double *J) {
  const teal_unilateral_contact_spec *s = &UNILATERAL(p)[c].spec;
  if (s->kind == TEAL_UNILATERAL_HARD_STOP_LOWER || s->kind == TEAL_UNILATERAL_HARD_STOP_UPPER) {
    hard_stop_row(p, s, q, gap, J);
    return TEAL_OK;
  }
  int bodies[2] = {s->body_b, s->body_a};
  teal_vec3 pts[2], f[2];
  if (s->kind == TEAL_UNILATERAL_POINT_IN_PLANE) {
    teal_vec3 n;
    *gap = plane_geometry(w, s, &n, &pts[0]);
    pts[1] = pts[0]; /* the coincident point of A */
    f[0] = n;
    f[1] = teal_vec3_neg(n);
  } else { /* rope: the gap velocity is -u . (v_Q - v_P) */
    pts[0] = teal_transform_apply(w->X_WB[s->body_b], s->p_b);
    pts[1] = teal_transform_apply(w->X_WB[s->body_a], s->p_a);
    teal_vec3 d = teal_vec3_sub(pts[0], pts[1]);
    double l = teal_vec3_norm(d);
    *gap = s->limit - l;
    if (!(l > 1e-12)) { /* ends together: slack, no direction */
      memset(J, 0, (size_t)p->nv * sizeof(double));
      return TEAL_OK;
    }
    f[0] = teal_vec3_scale(d, -1.0 / l);
    f[1] = teal_vec3_neg(f[0]);
  }
  return point_forces_row(p, data, w, q, 2, bodies, pts, f, J);
}

int teal_unilateral_tangent_rows(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                                 int c, const double *q, double *J1, double *J2) {
  const teal_unilateral_contact_spec *s = &UNILATERAL(p)[c].spec;
  teal_vec3 n, p_WS;
  plane_geometry(w, s, &n, &p_WS);
  /* t1 along the world axis least aligned with n, made normal to it */
  int k = fabs(n.v[0]) < fabs(n.v[1]) ? (fabs(n.v[0]) < fabs(n.v[2]) ? 0 : 2)
                                      : (fabs(n.v[1]) < fabs(n.v[2]) ? 1 : 2);
  teal_vec3 e = teal_vec3_zero();
  e.v[k] = 1.0;
  teal_vec3 t1 = teal_vec3_sub(e, teal_vec3_scale(n, teal_vec3_dot(n, e)));
  t1 = teal_vec3_scale(t1, 1.0 / teal_vec3_norm(t1));
  teal_vec3 t2 = teal_vec3_cross(n, t1);
  int bodies[2] = {s->body_b, s->body_a};
  teal_vec3 pts[2] = {p_WS, p_WS}, f[2] = {t1, teal_vec3_neg(t1)};
  int rc = point_forces_row(p, data, w, q, 2, bodies, pts, f, J1);
  f[0] = t2;
  f[1] = teal_vec3_neg(t2);
  return rc ? rc : point_forces_row(p, data, w, q, 2, bodies, pts, f, J2);
}
