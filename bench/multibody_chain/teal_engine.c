/* bench_multibody_chain: Teal's plant, kernels and simulations (see
 * chain.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "multibody/tree/topology.h"

/* Reports a failed Teal call with the multibody data's message; returns rc. */
int chain_teal_check(int rc, const teal_mb_data *ws, const char *what) {
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal %s: %s (%s)\n", what, teal_strerror(rc),
            ws ? teal_mb_data_error(ws)->message : "");
  }
  return rc;
}

/* Adds link i (body l<i>, frame F<i> on the parent, joint j<i>); returns a
 * negative status on failure. */
static int teal_add_link(teal_plant *p, const link_spec *l, int i, int *parent_frame) {
  char name[32];
  teal_spatial_inertia M_BBo_B = teal_spatial_inertia_from_central(l->mass, l->com, l->I_cm);
  snprintf(name, sizeof name, "l%d", i + 1);
  int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M_BBo_B);
  snprintf(name, sizeof name, "F%d", i + 1);
  teal_transform X_PF = teal_transform_make(teal_rotation_identity(), l->p_PJ);
  int frame = body < 0 ? body : teal_plant_add_frame(p, name, *parent_frame, X_PF);
  int child_frame = frame < 0 ? frame : teal_plant_body_frame(p, body);
  snprintf(name, sizeof name, "j%d", i + 1);
  int joint = child_frame < 0 ? child_frame
                              : teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, frame,
                                                     child_frame, &l->axis, 0.0);
  *parent_frame = child_frame;
  return joint < 0 ? joint : TEAL_OK;
}

/* Checks that joint j<i> drives q_i and v_i, as in MuJoCo's model. */
static int teal_check_order(const teal_plant *p, int n) {
  if (teal_plant_nq(p) != n || teal_plant_nv(p) != n) {
    fprintf(stderr, "error: Teal plant has nq = %d, nv = %d, expected %d\n", teal_plant_nq(p),
            teal_plant_nv(p), n);
    return TEAL_ESIZE;
  }
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "j%d", i + 1);
    int j = teal_plant_get_joint_by_name(p, name, -1, NULL);
    if (j < 0 || teal_plant_joint_q_start(p, j) != i || teal_plant_joint_v_start(p, j) != i) {
      fprintf(stderr, "error: Teal joint %s is not at q index %d\n", name, i);
      return TEAL_EINVAL;
    }
  }
  return TEAL_OK;
}

teal_plant *chain_teal_build_plant(const model_spec *s) {
  teal_error err;
  teal_plant *p = teal_plant_new(0.0, &err);
  if (!p) {
    fprintf(stderr, "error: teal_plant_new: %s\n", err.message);
    return NULL;
  }
  int frame = TEAL_WORLD_FRAME;
  int rc = teal_plant_set_gravity(p, teal_vec3_make(0.0, 0.0, -k_gravity));
  for (int i = 0; i < s->n && rc == TEAL_OK; i++) {
    rc = teal_add_link(p, &s->link[i], i, &frame);
  }
  rc = rc == TEAL_OK ? teal_plant_finalize(p) : rc;
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal plant %s: %s (%s)\n", s->name, teal_strerror(rc),
            teal_plant_error(p)->message);
  } else {
    rc = teal_check_order(p, s->n);
  }
  if (rc != TEAL_OK) {
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

void chain_teal_kernel_free(void *state) {
  chain_teal_kernel *e = state;
  if (e) {
    teal_mb_data_free(e->ws);
    free(e->q);
    free(e);
  }
}

void *chain_teal_kernel_new(const bench_model *bm) {
  int n = bm->spec->n;
  teal_error err;
  chain_teal_kernel *e = calloc(1, sizeof *e);
  if (!e) {
    return NULL;
  }
  e->plant = bm->plant;
  e->ws = teal_mb_data_new(bm->plant, &err);
  e->q = malloc((size_t)(4 * n + n * n) * sizeof(double));
  if (!e->ws || !e->q) {
    fprintf(stderr, "error: Teal multibody data: %s\n", e->ws ? "out of memory" : err.message);
    chain_teal_kernel_free(e);
    return NULL;
  }
  e->v = e->q + n;
  e->vdot = e->v + n;
  e->out = e->vdot + n;
  e->mass = e->out + n;
  chain_kernel_point(n, e->q, e->v, e->vdot);
  e->q1 = e->q[0];
  return e;
}

int chain_teal_call_fd(void *state, int call) {
  chain_teal_kernel *e = state;
  chain_perturb_q1(e->q, e->q1, call);
  int rc = teal_mb_forward_dynamics(e->plant, e->ws, e->q, e->v, NULL, e->out);
  return chain_teal_check(rc, e->ws, "forward dynamics");
}

int chain_teal_call_mass(void *state, int call) {
  chain_teal_kernel *e = state;
  chain_perturb_q1(e->q, e->q1, call);
  int rc = teal_mb_mass_matrix(e->plant, e->ws, e->q, e->mass);
  return chain_teal_check(rc, e->ws, "mass matrix");
}

int chain_teal_call_inv(void *state, int call) {
  chain_teal_kernel *e = state;
  chain_perturb_q1(e->q, e->q1, call);
  int rc = teal_mb_inverse_dynamics(e->plant, e->ws, e->q, e->v, e->vdot, NULL, e->out);
  return chain_teal_check(rc, e->ws, "inverse dynamics");
}

/* Classic RK4 over teal_mb_forward_dynamics with preallocated stages. */
typedef struct teal_rk4 {
  const teal_plant *plant;
  teal_mb_data *ws;
  int n;
  double *q0, *q, *v, *qs, *kq[4], *kv[4];
} teal_rk4;

void chain_teal_rk4_free(void *state) {
  teal_rk4 *s = state;
  if (s) {
    teal_mb_data_free(s->ws);
    free(s->q0);
    free(s);
  }
}

void *chain_teal_rk4_new(const bench_model *bm) {
  int n = bm->spec->n;
  teal_error err;
  teal_rk4 *s = calloc(1, sizeof *s);
  if (!s) {
    return NULL;
  }
  s->plant = bm->plant;
  s->n = n;
  s->ws = teal_mb_data_new(bm->plant, &err);
  s->q0 = malloc((size_t)(12 * n) * sizeof(double));
  if (!s->ws || !s->q0) {
    fprintf(stderr, "error: Teal multibody data: %s\n", s->ws ? "out of memory" : err.message);
    chain_teal_rk4_free(s);
    return NULL;
  }
  s->q = s->q0 + n;
  s->v = s->q + n;
  s->qs = s->v + n;
  for (int j = 0; j < 4; j++) {
    s->kq[j] = s->qs + (1 + 2 * j) * n;
    s->kv[j] = s->kq[j] + n;
  }
  chain_sim_start(n, s->q0);
  return s;
}

/* One classic RK4 step of (q, v)' = (v, vdot(q, v)). */
static int teal_rk4_step(teal_rk4 *s, double h) {
  static const double c[4] = {0.0, 0.5, 0.5, 1.0};
  int n = s->n;
  memcpy(s->kq[0], s->v, (size_t)n * sizeof(double));
  int rc = teal_mb_forward_dynamics(s->plant, s->ws, s->q, s->v, NULL, s->kv[0]);
  for (int j = 1; j < 4 && rc == TEAL_OK; j++) {
    for (int i = 0; i < n; i++) {
      s->qs[i] = s->q[i] + c[j] * h * s->kq[j - 1][i];
      s->kq[j][i] = s->v[i] + c[j] * h * s->kv[j - 1][i];
    }
    rc = teal_mb_forward_dynamics(s->plant, s->ws, s->qs, s->kq[j], NULL, s->kv[j]);
  }
  if (rc != TEAL_OK) {
    return chain_teal_check(rc, s->ws, "forward dynamics (RK4 stage)");
  }
  for (int i = 0; i < n; i++) {
    s->q[i] += h / 6.0 * (s->kq[0][i] + 2.0 * s->kq[1][i] + 2.0 * s->kq[2][i] + s->kq[3][i]);
    s->v[i] += h / 6.0 * (s->kv[0][i] + 2.0 * s->kv[1][i] + 2.0 * s->kv[2][i] + s->kv[3][i]);
  }
  return TEAL_OK;
}

int chain_teal_rk4_run(void *state, double *q_final) {
  teal_rk4 *s = state;
  memcpy(s->q, s->q0, (size_t)s->n * sizeof(double));
  memset(s->v, 0, (size_t)s->n * sizeof(double));
  for (int k = 0; k < k_steps; k++) {
    int rc = teal_rk4_step(s, k_dt);
    if (rc != TEAL_OK) {
      return rc;
    }
  }
  memcpy(q_final, s->q, (size_t)s->n * sizeof(double));
  return TEAL_OK;
}

/* The same run through the framework: the plant as a leaf system driven by
 * teal_simulator with the classic RK4 at a fixed 1 ms step. */
typedef struct teal_sim {
  const teal_plant *plant;
  teal_simulator *sim;
  int n;
  double *x0;
} teal_sim;

void chain_teal_sim_free(void *state) {
  teal_sim *s = state;
  if (s) {
    teal_simulator_free(s->sim);
    free(s->x0);
    free(s);
  }
}

void *chain_teal_sim_new(const bench_model *bm) {
  int n = bm->spec->n;
  teal_error err;
  teal_sim *s = calloc(1, sizeof *s);
  if (!s) {
    return NULL;
  }
  s->plant = bm->plant;
  s->n = n;
  s->x0 = calloc((size_t)(2 * n), sizeof(double));
  s->sim = s->x0 ? teal_simulator_new(teal_plant_system(bm->plant), NULL, &err) : NULL;
  if (!s->sim) {
    fprintf(stderr, "error: Teal simulator: %s\n", s->x0 ? err.message : "out of memory");
    chain_teal_sim_free(s);
    return NULL;
  }
  chain_sim_start(n, s->x0);
  teal_simulator_set_integrator(s->sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(s->sim, k_dt);
  return s;
}

int chain_teal_sim_run(void *state, double *q_final) {
  teal_sim *s = state;
  teal_context *ctx = teal_simulator_context(s->sim);
  teal_sim_status st;
  int rc = teal_context_set_time(ctx, 0.0);
  if (rc == TEAL_OK) {
    rc = teal_plant_set_state(s->plant, ctx, s->x0, 2 * s->n);
  }
  if (rc == TEAL_OK) {
    rc = teal_simulator_initialize(s->sim, &st);
  }
  if (rc == TEAL_OK) {
    rc = teal_simulator_advance_to(s->sim, k_steps * k_dt, &st);
  }
  if (rc == TEAL_OK) {
    rc = teal_plant_get_positions(s->plant, ctx, q_final, s->n);
  }
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal simulator run: %s\n", teal_context_error(ctx)->message);
  }
  return rc;
}
