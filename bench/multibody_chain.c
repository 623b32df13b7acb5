/* Multibody benchmark: BENCHMARKS.md workload 1 (planar N-link pendulum
 * chain, n = 7, 25, 100) and a 7-dof arm, Teal against MuJoCo when built
 * with TEAL_BENCH_HAVE_MUJOCO (CMake defines it when libmujoco-dev is found).
 *
 * Kernels: the median time per call of forward dynamics, the mass matrix and
 * inverse dynamics at q_i = 0.1 i, v_i = 0.05 i, vdot_i = 0.3 - 0.02 i, with
 * q_1 perturbed by +-1e-9 before each call so no engine answers from a cache.
 * Rows are timed in interleaved batches so that load drifting on a shared
 * machine affects every engine alike. Agreement: max |difference| of vdot, M
 * and tau between the engines at the same point. Simulation: 1.0 s from
 * q_i = 0.1 i, v = 0 with classic RK4 at dt = 1 ms; wall time per simulated
 * second, the final q_1 and the largest final difference over all links.
 *
 * Both engines get the same model: MuJoCo's is written as URDF (its XML
 * parser rejects bodies nested deeper than 100) to a temporary file, and its
 * compiled masses, inertias, frames, axes and joint defaults are checked
 * against the specification before anything is timed. Simbody has only a
 * C++ API, so its figures are the reference figures of BENCHMARKS.md,
 * printed for context and not measured here.
 *
 * Exit status: 0 on success, 1 on any failure (a Teal status, a MuJoCo load
 * error, a model mismatch, a MuJoCo warning or a run that does not repeat). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#ifdef TEAL_BENCH_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

/* ---- workload constants -------------------------------------------------- */

#define MAX_LINKS 100
#define NUM_CHAINS 3
#define NUM_MODELS (NUM_CHAINS + 1)

static const int k_chain_sizes[NUM_CHAINS] = {7, 25, 100};
static const double k_rod_mass = 1.0, k_rod_length = 0.5, k_gravity = 9.81;
static const double k_perturb = 1e-9;
static const double k_dt = 1e-3;
static const int k_steps = 1000; /* 1.0 s */

/* ---- timing budget -------------------------------------------------------- */

#define MAX_BATCHES 301
static const double k_warmup_s = 0.02;       /* per kernel before calibration */
static const double k_batch_s = 4e-4;        /* target length of one batch */
static const double k_kernel_budget_s = 1.2; /* per model, all kernels */
static const int k_min_batches = 31;
#define MAX_SIM_RUNS 11
static const int k_min_sim_runs = 3;
static const double k_sim_budget_s = 2.0; /* per model, all methods */

/* ---- BENCHMARKS.md reference figures (n = 7, 25, 100) ------------------------ */

/* Simbody 3.7 (Debian, debug checks on), measured on the machine and at the
 * time BENCHMARKS.md was written: not measured here. Times in seconds. */
static const double k_ref_simbody_fd[NUM_CHAINS] = {20.7e-6, 44.1e-6, 161e-6};
static const double k_ref_simbody_mass[NUM_CHAINS] = {12.3e-6, 71.9e-6, 787e-6};
static const double k_ref_simbody_inv[NUM_CHAINS] = {15.3e-6, 35.8e-6, 110e-6};
static const double k_ref_simbody_rk4[NUM_CHAINS] = {88.8e-3, 205e-3, 656e-3};
static const double k_ref_simbody_merson[NUM_CHAINS] = {120e-3, 274e-3, 846e-3};
/* Final q_1 of MuJoCo's RK4 (BENCHMARKS.md 1e): a check that the model here
 * is the one behind the peer figures. */
static const double k_ref_mujoco_q1[NUM_CHAINS] = {0.183763489139437, 0.151301384885249,
                                                   0.151301384844279};

/* ---- small utilities ---------------------------------------------------- */

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of x[0..n) (sorts x). */
static double median(double *x, int n) {
  qsort(x, (size_t)n, sizeof *x, cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static double max_abs_diff(const double *a, const double *b, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(a[i] - b[i]));
  }
  return m;
}

/* The kernel point of workload 1 (i = 1..n). */
static void kernel_point(int n, double *q, double *v, double *vdot) {
  for (int i = 0; i < n; i++) {
    q[i] = 0.1 * (i + 1);
    v[i] = 0.05 * (i + 1);
    vdot[i] = 0.3 - 0.02 * (i + 1);
  }
}

/* The initial position of the simulation (v = 0). */
static void sim_start(int n, double *q) {
  for (int i = 0; i < n; i++) {
    q[i] = 0.1 * (i + 1);
  }
}

/* q_1 moved by -1e-9 on even calls and +1e-9 on odd ones. */
static void perturb_q1(double *q, double q1, int call) {
  q[0] = q1 + ((call & 1) ? k_perturb : -k_perturb);
}

/* ---- model specification -------------------------------------------------- */

/* One link: a revolute joint at p_PJ in the parent link's frame (the world's
 * for link 1), about axis (the same in both frames: no joint frame is
 * rotated), and the link's mass properties in its own frame, whose origin is
 * the joint. The inertia is given by principal moments (descending) and the
 * roll-pitch-yaw of its principal axes, as URDF can say it exactly: MuJoCo
 * 2.2.2 diagonalizes a full inertia only to about 1e-8 relative. */
typedef struct link_spec {
  teal_vec3 p_PJ;
  teal_vec3 axis;
  double mass;
  teal_vec3 com;     /* centre of mass in the link frame */
  double moments[3]; /* principal moments about the centre of mass */
  teal_vec3 rpy;     /* principal axes in the link frame (URDF's rpy) */
  teal_mat3 I_cm;    /* the rotational inertia about the centre of mass, link axes */
} link_spec;

/* I = R diag(moments) R' with R = R(rpy). */
static teal_mat3 inertia_from_principal(const double moments[3], teal_vec3 rpy) {
  teal_rotation R = teal_rotation_from_rpy(rpy);
  teal_mat3 D = teal_mat3_diag(moments[0], moments[1], moments[2]);
  return teal_mat3_mul(teal_mat3_mul(R, D), teal_mat3_transpose(R));
}

typedef struct model_spec {
  char name[32];  /* also the URDF robot name */
  char title[32]; /* column title */
  int ref;        /* index into the BENCHMARKS.md figures, -1 for none */
  int n;
  link_spec link[MAX_LINKS];
} model_spec;

/* Workload 1: n uniform thin rods hanging along -z, hinges about +y. */
static void make_chain(model_spec *s, int n, int ref) {
  double I = k_rod_mass * k_rod_length * k_rod_length / 12.0;
  snprintf(s->name, sizeof s->name, "chain%d", n);
  snprintf(s->title, sizeof s->title, "n = %d", n);
  s->ref = ref;
  s->n = n;
  for (int i = 0; i < n; i++) {
    link_spec *l = &s->link[i];
    l->p_PJ = teal_vec3_make(0.0, 0.0, i == 0 ? 0.0 : -k_rod_length);
    l->axis = teal_vec3_make(0.0, 1.0, 0.0);
    l->mass = k_rod_mass;
    l->com = teal_vec3_make(0.0, 0.0, -0.5 * k_rod_length);
    l->moments[0] = I;
    l->moments[1] = I;
    l->moments[2] = 0.0;
    l->rpy = teal_vec3_zero();
    l->I_cm = teal_mat3_diag(I, I, 0.0);
  }
}

/* A KUKA-iiwa-like arm (numbers of this bench, not KUKA's): hinges about z,
 * y, z, y, z, y, z, joint frames offset along z and aligned with the world
 * at q = 0. Principal moments about the centre of mass (descending) and
 * the roll-pitch-yaw of the principal axes; some links have rotated axes,
 * hence products of inertia. */
typedef struct arm_link {
  double z_offset;
  char axis;
  double mass;
  double com[3];
  double moments[3];
  double rpy[3];
} arm_link;

static const arm_link k_arm_links[7] = {
    {0.16, 'z', 3.9, {0.0, -0.02, 0.11}, {0.060, 0.055, 0.012}, {0.08, 0.0, 0.0}},
    {0.20, 'y', 3.6, {0.003, 0.03, 0.09}, {0.040, 0.038, 0.011}, {-0.1, 0.0, 0.3}},
    {0.21, 'z', 3.0, {0.0, 0.02, 0.13}, {0.032, 0.030, 0.009}, {0.0, 0.07, 0.0}},
    {0.21, 'y', 2.6, {0.0, -0.03, 0.07}, {0.022, 0.021, 0.007}, {0.1, 0.0, 0.0}},
    {0.19, 'z', 1.8, {0.001, 0.02, 0.10}, {0.016, 0.014, 0.005}, {0.0, 0.0, -0.2}},
    {0.21, 'y', 1.2, {0.0, 0.002, 0.02}, {0.004, 0.0038, 0.003}, {0.0, 0.0, 0.0}},
    {0.08, 'z', 0.4, {0.0, 0.0, 0.03}, {0.0007, 0.0005, 0.0005}, {0.0, 0.0, 0.0}},
};

static void make_arm(model_spec *s) {
  snprintf(s->name, sizeof s->name, "arm7");
  snprintf(s->title, sizeof s->title, "arm, 7 dof");
  s->ref = -1;
  s->n = 7;
  for (int i = 0; i < 7; i++) {
    const arm_link *a = &k_arm_links[i];
    link_spec *l = &s->link[i];
    l->p_PJ = teal_vec3_make(0.0, 0.0, a->z_offset);
    l->axis = a->axis == 'z' ? teal_vec3_make(0.0, 0.0, 1.0) : teal_vec3_make(0.0, 1.0, 0.0);
    l->mass = a->mass;
    l->com = teal_vec3_make(a->com[0], a->com[1], a->com[2]);
    memcpy(l->moments, a->moments, sizeof l->moments);
    l->rpy = teal_vec3_make(a->rpy[0], a->rpy[1], a->rpy[2]);
    l->I_cm = inertia_from_principal(l->moments, l->rpy);
  }
}

/* ---- results ---------------------------------------------------------------- */

enum {
  K_TEAL_FD,
  K_TEAL_MASS,
  K_TEAL_INV,
  K_MJ_FORWARD,
  K_MJ_FWD3,
  K_MJ_MASS,
  K_MJ_INV,
  NUM_KERNELS
};

/* The simulation methods. Add a row here (and to k_sims) to time another
 * way of running the same simulation, e.g. Teal's simulator driving the
 * plant as a leaf system; the tables pick it up. */
enum { S_TEAL_RK4, S_TEAL_SIM, S_MJ_RK4, NUM_SIMS };

typedef struct agreement {
  double d_vdot, max_vdot, d_mass, max_mass, d_tau, max_tau;
} agreement;

typedef struct model_result {
  double kernel_s[NUM_KERNELS]; /* median s per call; NAN when not measured */
  double sim_s[NUM_SIMS];       /* median wall s per simulated second; NAN when not run */
  double q_final[NUM_SIMS][MAX_LINKS];
  int have_agreement;
  agreement agree;
} model_result;

/* ---- the two engines' models ---------------------------------------------- */

typedef struct bench_model {
  const model_spec *spec;
  teal_plant *plant;
#ifdef TEAL_BENCH_HAVE_MUJOCO
  mjModel *mj;
#endif
} bench_model;

/* A kernel row: setup allocates its state (NULL on failure, reported),
 * call runs the kernel once (call counts the calls), free releases it. */
typedef struct kernel_method {
  const char *label;
  void *(*setup)(const bench_model *bm);
  int (*call)(void *state, int call);
  void (*free)(void *state);
} kernel_method;

/* A simulation row: run simulates 1.0 s from the initial state (restoring
 * it first) and writes the final q; it is what gets timed. */
typedef struct sim_method {
  const char *label;
  const char *short_name;
  void *(*setup)(const bench_model *bm);
  int (*run)(void *state, double *q_final);
  void (*free)(void *state);
} sim_method;

/* ---- Teal ------------------------------------------------------------------- */

/* Reports a failed Teal call with the workspace's message; returns rc. */
static int teal_check(int rc, const teal_mb_workspace *ws, const char *what) {
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal %s: %s (%s)\n", what, teal_strerror(rc),
            ws ? teal_mb_workspace_error(ws)->message : "");
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

static teal_plant *teal_build_plant(const model_spec *s) {
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

/* Kernel state: a workspace and the point, all allocated once. */
typedef struct teal_kernel {
  const teal_plant *plant;
  teal_mb_workspace *ws;
  double q1;
  double *q, *v, *vdot, *out, *mass;
} teal_kernel;

static void teal_kernel_free(void *state) {
  teal_kernel *e = state;
  if (e) {
    teal_mb_workspace_free(e->ws);
    free(e->q);
    free(e);
  }
}

static void *teal_kernel_new(const bench_model *bm) {
  int n = bm->spec->n;
  teal_error err;
  teal_kernel *e = calloc(1, sizeof *e);
  if (!e) {
    return NULL;
  }
  e->plant = bm->plant;
  e->ws = teal_mb_workspace_new(bm->plant, &err);
  e->q = malloc((size_t)(4 * n + n * n) * sizeof(double));
  if (!e->ws || !e->q) {
    fprintf(stderr, "error: Teal workspace: %s\n", e->ws ? "out of memory" : err.message);
    teal_kernel_free(e);
    return NULL;
  }
  e->v = e->q + n;
  e->vdot = e->v + n;
  e->out = e->vdot + n;
  e->mass = e->out + n;
  kernel_point(n, e->q, e->v, e->vdot);
  e->q1 = e->q[0];
  return e;
}

static int teal_call_fd(void *state, int call) {
  teal_kernel *e = state;
  perturb_q1(e->q, e->q1, call);
  int rc = teal_mb_forward_dynamics(e->plant, e->ws, e->q, e->v, NULL, e->out);
  return teal_check(rc, e->ws, "forward dynamics");
}

static int teal_call_mass(void *state, int call) {
  teal_kernel *e = state;
  perturb_q1(e->q, e->q1, call);
  return teal_check(teal_mb_mass_matrix(e->plant, e->ws, e->q, e->mass), e->ws, "mass matrix");
}

static int teal_call_inv(void *state, int call) {
  teal_kernel *e = state;
  perturb_q1(e->q, e->q1, call);
  int rc = teal_mb_inverse_dynamics(e->plant, e->ws, e->q, e->v, e->vdot, NULL, e->out);
  return teal_check(rc, e->ws, "inverse dynamics");
}

/* Classic RK4 over teal_mb_forward_dynamics with preallocated stages. */
typedef struct teal_rk4 {
  const teal_plant *plant;
  teal_mb_workspace *ws;
  int n;
  double *q0, *q, *v, *qs, *kq[4], *kv[4];
} teal_rk4;

static void teal_rk4_free(void *state) {
  teal_rk4 *s = state;
  if (s) {
    teal_mb_workspace_free(s->ws);
    free(s->q0);
    free(s);
  }
}

static void *teal_rk4_new(const bench_model *bm) {
  int n = bm->spec->n;
  teal_error err;
  teal_rk4 *s = calloc(1, sizeof *s);
  if (!s) {
    return NULL;
  }
  s->plant = bm->plant;
  s->n = n;
  s->ws = teal_mb_workspace_new(bm->plant, &err);
  s->q0 = malloc((size_t)(12 * n) * sizeof(double));
  if (!s->ws || !s->q0) {
    fprintf(stderr, "error: Teal workspace: %s\n", s->ws ? "out of memory" : err.message);
    teal_rk4_free(s);
    return NULL;
  }
  s->q = s->q0 + n;
  s->v = s->q + n;
  s->qs = s->v + n;
  for (int j = 0; j < 4; j++) {
    s->kq[j] = s->qs + (1 + 2 * j) * n;
    s->kv[j] = s->kq[j] + n;
  }
  sim_start(n, s->q0);
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
    return teal_check(rc, s->ws, "forward dynamics (RK4 stage)");
  }
  for (int i = 0; i < n; i++) {
    s->q[i] += h / 6.0 * (s->kq[0][i] + 2.0 * s->kq[1][i] + 2.0 * s->kq[2][i] + s->kq[3][i]);
    s->v[i] += h / 6.0 * (s->kv[0][i] + 2.0 * s->kv[1][i] + 2.0 * s->kv[2][i] + s->kv[3][i]);
  }
  return TEAL_OK;
}

static int teal_rk4_run(void *state, double *q_final) {
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

static void teal_sim_free(void *state) {
  teal_sim *s = state;
  if (s) {
    teal_simulator_free(s->sim);
    free(s->x0);
    free(s);
  }
}

static void *teal_sim_new(const bench_model *bm) {
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
    teal_sim_free(s);
    return NULL;
  }
  sim_start(n, s->x0);
  teal_simulator_set_integrator(s->sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(s->sim, k_dt);
  return s;
}

static int teal_sim_run(void *state, double *q_final) {
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

/* ---- MuJoCo ----------------------------------------------------------------- */

#ifdef TEAL_BENCH_HAVE_MUJOCO

/* MuJoCo rejects a principal moment below mjMINVAL (1e-15), so in MuJoCo's
 * model only, a rod's zero moment about its own axis becomes this. The axis
 * is z, and planar motion about y never rotates a link about z, so the
 * value enters no computation (the agreement figures confirm it). */
static const double k_mj_min_moment = 1e-12;

static double max_abs(const double *x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

/* The principal moments MuJoCo gets: a zero moment (a rod's about its own
 * axis) is raised to k_mj_min_moment. */
static void mj_link_moments(const link_spec *l, double moments[3]) {
  for (int k = 0; k < 3; k++) {
    moments[k] = fmax(l->moments[k], k_mj_min_moment);
  }
}

static void urdf_write_link(FILE *f, const link_spec *l, int i) {
  double I[3];
  mj_link_moments(l, I);
  fprintf(f, "  <link name=\"l%d\"><inertial>\n", i + 1);
  fprintf(f, "    <origin xyz=\"%.17g %.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/>\n", l->com.v[0],
          l->com.v[1], l->com.v[2], l->rpy.v[0], l->rpy.v[1], l->rpy.v[2]);
  fprintf(f,
          "    <mass value=\"%.17g\"/><inertia ixx=\"%.17g\" ixy=\"0\" ixz=\"0\" iyy=\"%.17g\""
          " iyz=\"0\" izz=\"%.17g\"/>\n",
          l->mass, I[0], I[1], I[2]);
  fprintf(f, "  </inertial></link>\n");
  fprintf(f, "  <joint name=\"j%d\" type=\"continuous\">", i + 1);
  if (i == 0) {
    fprintf(f, "<parent link=\"base\"/>");
  } else {
    fprintf(f, "<parent link=\"l%d\"/>", i);
  }
  fprintf(f, "<child link=\"l%d\"/>\n    <origin xyz=\"%.17g %.17g %.17g\" rpy=\"0 0 0\"/>", i + 1,
          l->p_PJ.v[0], l->p_PJ.v[1], l->p_PJ.v[2]);
  fprintf(f, "<axis xyz=\"%.17g %.17g %.17g\"/></joint>\n", l->axis.v[0], l->axis.v[1],
          l->axis.v[2]);
}

/* The model as URDF: a static base link at the world origin, no geoms. */
static void urdf_write(FILE *f, const model_spec *s) {
  fprintf(f, "<robot name=\"%s\">\n", s->name);
  fprintf(f, "  <mujoco><compiler discardvisual=\"true\" fusestatic=\"false\""
             " balanceinertia=\"false\" inertiafromgeom=\"false\"/></mujoco>\n");
  fprintf(f, "  <link name=\"base\"/>\n");
  for (int i = 0; i < s->n; i++) {
    urdf_write_link(f, &s->link[i], i);
  }
  fprintf(f, "</robot>\n");
}

/* Writes the URDF to a temporary file, loads it and removes the file. */
static mjModel *mj_load_spec(const model_spec *s) {
  const char *dir = getenv("TMPDIR");
  char path[512], msg[1024] = "";
  snprintf(path, sizeof path, "%s/teal_bench_%s_XXXXXX", dir && *dir ? dir : "/tmp", s->name);
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    fprintf(stderr, "error: cannot create a temporary file in %s: %s\n",
            dir && *dir ? dir : "/tmp", strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(path);
    }
    return NULL;
  }
  urdf_write(f, s);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  mjModel *m = bad ? NULL : mj_loadXML(path, NULL, msg, (int)sizeof msg);
  unlink(path);
  if (!m || msg[0]) {
    fprintf(stderr, "error: MuJoCo could not load %s cleanly: %s\n", s->name,
            bad ? "write failed" : msg);
    mj_deleteModel(m);
    return NULL;
  }
  return m;
}

static double vec3_diff(const mjtNum *a, teal_vec3 b) {
  return fmax(fabs(a[0] - b.v[0]), fmax(fabs(a[1] - b.v[1]), fabs(a[2] - b.v[2])));
}

/* |inertia MuJoCo compiled - inertia it was given|, from the principal
 * moments and axes: I = R diag(moments) R'. */
static double mj_inertia_diff(const mjModel *m, int b, const link_spec *l) {
  double R[9], moments[3], d = 0.0;
  mj_link_moments(l, moments);
  teal_mat3 I = inertia_from_principal(moments, l->rpy);
  mju_quat2Mat(R, m->body_iquat + 4 * b);
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      double x = 0.0;
      for (int k = 0; k < 3; k++) {
        x += R[3 * r + k] * m->body_inertia[3 * b + k] * R[3 * c + k];
      }
      d = fmax(d, fabs(x - I.m[3 * r + c]));
    }
  }
  return d;
}

/* Link i must be body "l<i+1>" with one plain hinge at q and v index i. */
static int mj_check_joint(const mjModel *m, int b, int i) {
  int j = b >= 0 ? m->body_jntadr[b] : -1;
  int parent = i == 0 ? mj_name2id(m, mjOBJ_BODY, "base") : b - 1;
  if (b < 0 || m->body_jntnum[b] != 1 || m->jnt_type[j] != mjJNT_HINGE ||
      m->jnt_qposadr[j] != i || m->jnt_dofadr[j] != i || m->body_parentid[b] != parent) {
    fprintf(stderr, "error: MuJoCo link %d is not one hinge at index %d\n", i + 1, i);
    return 1;
  }
  int d = m->jnt_dofadr[j];
  if (m->jnt_limited[j] || m->jnt_stiffness[j] != 0.0 || m->dof_armature[d] != 0.0 ||
      m->dof_damping[d] != 0.0 || m->dof_frictionloss[d] != 0.0) {
    fprintf(stderr, "error: MuJoCo joint %d has limits, stiffness, armature, damping or"
                    " friction loss\n", i + 1);
    return 1;
  }
  return 0;
}

static int mj_check_link(const mjModel *m, const link_spec *l, int i) {
  char name[32];
  snprintf(name, sizeof name, "l%d", i + 1);
  int b = mj_name2id(m, mjOBJ_BODY, name);
  if (mj_check_joint(m, b, i)) {
    return 1;
  }
  const mjtNum *quat = m->body_quat + 4 * b;
  double d = fabs(m->body_mass[b] - l->mass);
  d = fmax(d, vec3_diff(m->body_ipos + 3 * b, l->com));
  d = fmax(d, vec3_diff(m->body_pos + 3 * b, l->p_PJ));
  d = fmax(d, vec3_diff(m->jnt_axis + 3 * m->body_jntadr[b], l->axis));
  d = fmax(d, max_abs(m->jnt_pos + 3 * m->body_jntadr[b], 3));
  d = fmax(d, fmax(fabs(quat[0] - 1.0), max_abs(quat + 1, 3)));
  d = fmax(d, mj_inertia_diff(m, b, l));
  if (!(d <= 1e-14)) {
    fprintf(stderr, "error: MuJoCo link %d differs from the specification by %.3g\n", i + 1, d);
    return 1;
  }
  return 0;
}

/* Checks the compiled model against the specification. */
static int mj_check_model(const mjModel *m, const model_spec *s) {
  int base = mj_name2id(m, mjOBJ_BODY, "base");
  teal_vec3 g = teal_vec3_make(0.0, 0.0, -k_gravity);
  if (m->nq != s->n || m->nv != s->n || m->njnt != s->n || m->nu != 0 || m->neq != 0 ||
      m->ngeom != 0 || base != 1 || m->body_parentid[base] != 0 || m->body_jntnum[base] != 0 ||
      max_abs(m->body_pos + 3 * base, 3) != 0.0 || vec3_diff(m->opt.gravity, g) != 0.0 ||
      m->opt.density != 0.0 || m->opt.viscosity != 0.0 || max_abs(m->opt.wind, 3) != 0.0) {
    fprintf(stderr, "error: MuJoCo model %s: unexpected sizes, base or options\n", s->name);
    return 1;
  }
  for (int i = 0; i < s->n; i++) {
    if (mj_check_link(m, &s->link[i], i)) {
      return 1;
    }
  }
  return 0;
}

static mjModel *mj_build_model(const model_spec *s) {
  mjModel *m = mj_load_spec(s);
  if (m && mj_check_model(m, s)) {
    mj_deleteModel(m);
    return NULL;
  }
  if (m) {
    m->opt.timestep = k_dt;
    m->opt.integrator = mjINT_RK4;
    m->opt.disableflags |= mjDSBL_CONTACT;
  }
  return m;
}

/* Reports MuJoCo's warning counters (nonzero: a failure). */
static int mj_check_warnings(const mjData *d, const char *what) {
  int bad = 0;
  for (int i = 0; i < mjNWARNING; i++) {
    if (d->warning[i].number) {
      fprintf(stderr, "error: MuJoCo warning %d (x%d) during %s\n", i, d->warning[i].number, what);
      bad = 1;
    }
  }
  return bad;
}

/* Kernel state: its own mjData (mj_forward writes the qacc mj_inverse reads). */
typedef struct mj_kernel {
  const mjModel *m;
  mjData *d;
  double q1;
  double *mass;
} mj_kernel;

static void mj_kernel_free(void *state) {
  mj_kernel *e = state;
  if (e) {
    mj_deleteData(e->d);
    free(e->mass);
    free(e);
  }
}

static void *mj_kernel_new(const bench_model *bm) {
  int n = bm->spec->n;
  mj_kernel *e = calloc(1, sizeof *e);
  if (!e) {
    return NULL;
  }
  e->m = bm->mj;
  e->d = mj_makeData(bm->mj);
  e->mass = malloc((size_t)(n * n) * sizeof(double));
  if (!e->d || !e->mass) {
    fprintf(stderr, "error: MuJoCo data: out of memory\n");
    mj_kernel_free(e);
    return NULL;
  }
  kernel_point(n, e->d->qpos, e->d->qvel, e->d->qacc);
  e->q1 = e->d->qpos[0];
  return e;
}

static int mj_call_forward(void *state, int call) {
  mj_kernel *e = state;
  perturb_q1(e->d->qpos, e->q1, call);
  mj_forward(e->m, e->d);
  return 0;
}

static int mj_call_fwd3(void *state, int call) {
  mj_kernel *e = state;
  perturb_q1(e->d->qpos, e->q1, call);
  mj_fwdPosition(e->m, e->d);
  mj_fwdVelocity(e->m, e->d);
  mj_fwdAcceleration(e->m, e->d);
  return 0;
}

static int mj_call_mass(void *state, int call) {
  mj_kernel *e = state;
  perturb_q1(e->d->qpos, e->q1, call);
  mj_kinematics(e->m, e->d);
  mj_comPos(e->m, e->d);
  mj_crb(e->m, e->d);
  mj_fullM(e->m, e->mass, e->d->qM);
  return 0;
}

static int mj_call_inv(void *state, int call) {
  mj_kernel *e = state;
  perturb_q1(e->d->qpos, e->q1, call);
  mj_inverse(e->m, e->d);
  return 0;
}

/* MuJoCo's own RK4 (mjINT_RK4): 1000 x mj_step at dt = 1 ms. */
typedef struct mj_sim {
  const mjModel *m;
  mjData *d;
  int n;
} mj_sim;

static void mj_sim_free(void *state) {
  mj_sim *s = state;
  if (s) {
    mj_deleteData(s->d);
    free(s);
  }
}

static void *mj_sim_new(const bench_model *bm) {
  mj_sim *s = calloc(1, sizeof *s);
  if (s) {
    s->m = bm->mj;
    s->n = bm->spec->n;
    s->d = mj_makeData(bm->mj);
  }
  if (!s || !s->d) {
    fprintf(stderr, "error: MuJoCo data: out of memory\n");
    mj_sim_free(s);
    return NULL;
  }
  return s;
}

static int mj_sim_run(void *state, double *q_final) {
  mj_sim *s = state;
  mj_resetData(s->m, s->d);
  sim_start(s->n, s->d->qpos);
  for (int k = 0; k < k_steps; k++) {
    mj_step(s->m, s->d);
  }
  memcpy(q_final, s->d->qpos, (size_t)s->n * sizeof(double));
  return mj_check_warnings(s->d, "the simulation");
}

#endif /* TEAL_BENCH_HAVE_MUJOCO */
/* ---- the rows --------------------------------------------------------------- */

static const kernel_method k_kernels[NUM_KERNELS] = {
    [K_TEAL_FD] = {"Teal: teal_mb_forward_dynamics (ABA)", teal_kernel_new, teal_call_fd,
                   teal_kernel_free},
    [K_TEAL_MASS] = {"Teal: teal_mb_mass_matrix (CRBA)", teal_kernel_new, teal_call_mass,
                     teal_kernel_free},
    [K_TEAL_INV] = {"Teal: teal_mb_inverse_dynamics (RNEA)", teal_kernel_new, teal_call_inv,
                    teal_kernel_free},
#ifdef TEAL_BENCH_HAVE_MUJOCO
    [K_MJ_FORWARD] = {"MuJoCo: mj_forward (contacts disabled)", mj_kernel_new, mj_call_forward,
                      mj_kernel_free},
    [K_MJ_FWD3] = {"MuJoCo: mj_fwdPosition+mj_fwdVelocity+mj_fwdAcceleration", mj_kernel_new,
                   mj_call_fwd3, mj_kernel_free},
    [K_MJ_MASS] = {"MuJoCo: mj_kinematics+mj_comPos+mj_crb+mj_fullM", mj_kernel_new,
                   mj_call_mass, mj_kernel_free},
    [K_MJ_INV] = {"MuJoCo: mj_inverse", mj_kernel_new, mj_call_inv, mj_kernel_free},
#endif
};

static const sim_method k_sims[NUM_SIMS] = {
    [S_TEAL_RK4] = {"Teal: classic RK4 loop over teal_mb_forward_dynamics", "Teal RK4 loop",
                    teal_rk4_new, teal_rk4_run, teal_rk4_free},
    [S_TEAL_SIM] = {"Teal: simulator (RK4, fixed 1 ms) over the plant system", "Teal simulator",
                    teal_sim_new, teal_sim_run, teal_sim_free},
#ifdef TEAL_BENCH_HAVE_MUJOCO
    [S_MJ_RK4] = {"MuJoCo: mjINT_RK4, 1000 x mj_step", "MuJoCo RK4", mj_sim_new, mj_sim_run,
                  mj_sim_free},
#endif
};

/* The simulation the others are compared with (-1: none). */
#ifdef TEAL_BENCH_HAVE_MUJOCO
static const int k_sim_ref = S_MJ_RK4;
#else
static const int k_sim_ref = -1;
#endif

/* ---- one model: build, compare, time ---------------------------------------- */

static void bench_model_free(bench_model *bm) {
  teal_plant_free(bm->plant);
#ifdef TEAL_BENCH_HAVE_MUJOCO
  mj_deleteModel(bm->mj);
#endif
}

static int bench_model_init(bench_model *bm, const model_spec *s) {
  memset(bm, 0, sizeof *bm);
  bm->spec = s;
  bm->plant = teal_build_plant(s);
  if (!bm->plant) {
    return 1;
  }
#ifdef TEAL_BENCH_HAVE_MUJOCO
  bm->mj = mj_build_model(s);
  if (!bm->mj) {
    return 1;
  }
#endif
  return 0;
}

#ifdef TEAL_BENCH_HAVE_MUJOCO
/* vdot, M and tau of both engines at the kernel point (no perturbation). */
static int agreement_fill(teal_kernel *t, mj_kernel *e, int n, agreement *a) {
  int rc = teal_check(teal_mb_forward_dynamics(t->plant, t->ws, t->q, t->v, NULL, t->out), t->ws,
                      "forward dynamics");
  rc = rc ? rc : teal_check(teal_mb_mass_matrix(t->plant, t->ws, t->q, t->mass), t->ws, "mass");
  if (rc != TEAL_OK) {
    return rc;
  }
  mj_forward(e->m, e->d);
  mj_fullM(e->m, e->mass, e->d->qM);
  a->d_vdot = max_abs_diff(t->out, e->d->qacc, n);
  a->max_vdot = max_abs(t->out, n);
  a->d_mass = max_abs_diff(t->mass, e->mass, n * n);
  a->max_mass = max_abs(t->mass, n * n);
  rc = teal_mb_inverse_dynamics(t->plant, t->ws, t->q, t->v, t->vdot, NULL, t->out);
  if (teal_check(rc, t->ws, "inverse dynamics") != TEAL_OK) {
    return rc;
  }
  memcpy(e->d->qacc, t->vdot, (size_t)n * sizeof(double));
  mj_inverse(e->m, e->d);
  a->d_tau = max_abs_diff(t->out, e->d->qfrc_inverse, n);
  a->max_tau = max_abs(t->out, n);
  return mj_check_warnings(e->d, "the agreement check");
}
#endif

/* Fills res->agree when there is a peer to agree with. */
static int agreement_compute(const bench_model *bm, model_result *res) {
#ifdef TEAL_BENCH_HAVE_MUJOCO
  teal_kernel *t = teal_kernel_new(bm);
  mj_kernel *e = mj_kernel_new(bm);
  int rc = t && e ? agreement_fill(t, e, bm->spec->n, &res->agree) : 1;
  res->have_agreement = rc == 0;
  teal_kernel_free(t);
  mj_kernel_free(e);
  return rc;
#else
  (void)bm;
  res->have_agreement = 0;
  return 0;
#endif
}

/* A kernel being timed: its batch size and the time per call of each batch. */
typedef struct timed_kernel {
  const kernel_method *method;
  void *state;
  int batch, calls, count;
  double t[MAX_BATCHES];
} timed_kernel;

/* Warms a kernel up and sizes its batches to about k_batch_s. */
static int kernel_calibrate(timed_kernel *r) {
  double t0 = now_seconds(), elapsed;
  int calls = 0;
  do {
    int rc = r->method->call(r->state, r->calls++);
    if (rc) {
      return rc;
    }
    calls++;
    elapsed = now_seconds() - t0;
  } while (elapsed < k_warmup_s || calls < 3);
  r->batch = (int)fmin(1e6, fmax(1.0, ceil(k_batch_s * calls / elapsed)));
  return 0;
}

static int kernel_batch(timed_kernel *r) {
  double t0 = now_seconds();
  for (int i = 0; i < r->batch; i++) {
    int rc = r->method->call(r->state, r->calls++);
    if (rc) {
      return rc;
    }
  }
  r->t[r->count++] = (now_seconds() - t0) / r->batch;
  return 0;
}

/* Sets up and calibrates every available kernel. */
static int kernels_prepare(const bench_model *bm, timed_kernel *rows) {
  for (int k = 0; k < NUM_KERNELS; k++) {
    rows[k].method = &k_kernels[k];
    if (!k_kernels[k].setup) {
      continue;
    }
    rows[k].state = k_kernels[k].setup(bm);
    if (!rows[k].state || kernel_calibrate(&rows[k])) {
      return 1;
    }
  }
  return 0;
}

/* Batches of every kernel in turn, until the budget is spent. */
static int kernels_time(timed_kernel *rows) {
  double t0 = now_seconds();
  for (int b = 0; b < MAX_BATCHES; b++) {
    if (b >= k_min_batches && now_seconds() - t0 > k_kernel_budget_s) {
      break;
    }
    for (int k = 0; k < NUM_KERNELS; k++) {
      if (rows[k].state && kernel_batch(&rows[k])) {
        return 1;
      }
    }
  }
  return 0;
}

static int run_kernels(const bench_model *bm, model_result *res) {
  static timed_kernel rows[NUM_KERNELS];
  memset(rows, 0, sizeof rows);
  int rc = kernels_prepare(bm, rows);
  rc = rc ? rc : kernels_time(rows);
  for (int k = 0; k < NUM_KERNELS; k++) {
    res->kernel_s[k] = rows[k].state && !rc ? median(rows[k].t, rows[k].count) : NAN;
    if (rows[k].state) {
      k_kernels[k].free(rows[k].state);
    }
  }
  return rc;
}

/* Runs a simulation once; it must repeat the warm-up run's final q exactly. */
static int sim_once(const sim_method *m, void *state, int n, const double *q_expect,
                    double *wall) {
  double q[MAX_LINKS];
  double t0 = now_seconds();
  int rc = m->run(state, q);
  *wall = now_seconds() - t0;
  if (!rc && memcmp(q, q_expect, (size_t)n * sizeof(double)) != 0) {
    fprintf(stderr, "error: %s did not repeat its final state\n", m->label);
    rc = 1;
  }
  return rc;
}

/* Warm-up runs (which give the final q), then runs in turn until the budget
 * is spent; the median wall time over 1.0 s simulated. */
static int sims_time(void **states, int n, model_result *res) {
  double t[NUM_SIMS][MAX_SIM_RUNS];
  int count = 0;
  for (int s = 0; s < NUM_SIMS; s++) {
    if (states[s] && k_sims[s].run(states[s], res->q_final[s])) {
      return 1;
    }
  }
  double t0 = now_seconds();
  while (count < MAX_SIM_RUNS && (count < k_min_sim_runs || now_seconds() - t0 < k_sim_budget_s)) {
    for (int s = 0; s < NUM_SIMS; s++) {
      if (states[s] && sim_once(&k_sims[s], states[s], n, res->q_final[s], &t[s][count])) {
        return 1;
      }
    }
    count++;
  }
  for (int s = 0; s < NUM_SIMS; s++) {
    res->sim_s[s] = states[s] ? median(t[s], count) / (k_steps * k_dt) : NAN;
  }
  return 0;
}

static int run_sims(const bench_model *bm, model_result *res) {
  void *states[NUM_SIMS] = {NULL};
  int rc = 0;
  for (int s = 0; s < NUM_SIMS; s++) {
    res->sim_s[s] = NAN;
    if (k_sims[s].setup && !rc) {
      states[s] = k_sims[s].setup(bm);
      rc = states[s] == NULL;
    }
  }
  rc = rc ? rc : sims_time(states, bm->spec->n, res);
  for (int s = 0; s < NUM_SIMS; s++) {
    if (states[s]) {
      k_sims[s].free(states[s]);
    }
  }
  return rc;
}

static int bench_one(const model_spec *s, model_result *res) {
  bench_model bm;
  fprintf(stderr, "bench: %s (%s): agreement, kernels, simulation\n", s->name, s->title);
  int rc = bench_model_init(&bm, s);
  rc = rc ? rc : agreement_compute(&bm, res);
  rc = rc ? rc : run_kernels(&bm, res);
  rc = rc ? rc : run_sims(&bm, res);
  bench_model_free(&bm);
  return rc;
}

/* ---- tables ----------------------------------------------------------------- */

#define LABEL_W 64
#define CELL_MAX 48

typedef char cell[CELL_MAX];

typedef struct column {
  const model_spec *spec;
  const model_result *res;
} column;

static void fmt_time(cell c, double s) {
  static const char *unit[4] = {"ns", "us", "ms", "s"};
  int u = 0;
  double x = s * 1e9;
  if (isnan(s)) {
    snprintf(c, CELL_MAX, "-");
    return;
  }
  while (u < 3 && x >= 999.5) {
    x /= 1e3;
    u++;
  }
  snprintf(c, CELL_MAX, x >= 99.95 ? "%.0f %s" : x >= 9.995 ? "%.1f %s" : "%.2f %s", x, unit[u]);
}

static void fmt_ratio(cell c, double a, double b) {
  if (isnan(a) || isnan(b)) {
    snprintf(c, CELL_MAX, "-");
  } else {
    snprintf(c, CELL_MAX, "%.2fx", a / b);
  }
}

static void fmt_value(cell c, const char *fmt, double x) {
  if (isnan(x)) {
    snprintf(c, CELL_MAX, "-");
  } else {
    snprintf(c, CELL_MAX, fmt, x);
  }
}

/* Prints a row unless every cell is "-" (a peer that is not built in). */
static void print_row(const char *label, cell *cells, int ncols, int width) {
  int any = 0;
  for (int c = 0; c < ncols; c++) {
    any |= strcmp(cells[c], "-") != 0;
  }
  if (!any) {
    return;
  }
  printf("  %-*s", LABEL_W, label);
  for (int c = 0; c < ncols; c++) {
    printf(" %*s", width, cells[c]);
  }
  printf("\n");
}

static void print_header(const char *title, const column *cols, int ncols, int width) {
  printf("\n%s\n  %-*s", title, LABEL_W, "");
  for (int c = 0; c < ncols; c++) {
    printf(" %*s", width, cols[c].spec->title);
  }
  printf("\n");
}

/* A BENCHMARKS.md figure for a column, or NAN. */
static double ref_of(const column *col, const double *ref) {
  return col->spec->ref >= 0 ? ref[col->spec->ref] : NAN;
}

enum row_kind { ROW_GROUP, ROW_TIME, ROW_RATIO, ROW_REF };

typedef struct table_row {
  int kind;
  const char *label; /* ROW_TIME: NULL for the kernel's own label */
  int a, b;          /* the timed kernel, or the ratio's numerator and denominator */
  const double *ref; /* ROW_REF: BENCHMARKS.md figures, s */
} table_row;

static const table_row k_kernel_table[] = {
    {ROW_GROUP, "forward dynamics", 0, 0, NULL},
    {ROW_TIME, NULL, K_TEAL_FD, 0, NULL},
    {ROW_TIME, NULL, K_MJ_FORWARD, 0, NULL},
    {ROW_TIME, NULL, K_MJ_FWD3, 0, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo mj_forward", K_TEAL_FD, K_MJ_FORWARD, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo fwdPosition+Velocity+Acceleration", K_TEAL_FD, K_MJ_FWD3,
     NULL},
    {ROW_REF, "Simbody [ref]: set q + realize(Acceleration)", 0, 0, k_ref_simbody_fd},
    {ROW_GROUP, "mass matrix", 0, 0, NULL},
    {ROW_TIME, NULL, K_TEAL_MASS, 0, NULL},
    {ROW_TIME, NULL, K_MJ_MASS, 0, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo", K_TEAL_MASS, K_MJ_MASS, NULL},
    {ROW_REF, "Simbody [ref]: set q + realize(Position) + calcM", 0, 0, k_ref_simbody_mass},
    {ROW_GROUP, "inverse dynamics", 0, 0, NULL},
    {ROW_TIME, NULL, K_TEAL_INV, 0, NULL},
    {ROW_TIME, NULL, K_MJ_INV, 0, NULL},
    {ROW_RATIO, "ratio Teal / MuJoCo", K_TEAL_INV, K_MJ_INV, NULL},
    {ROW_REF, "Simbody [ref]: set q + realize(Dynamics) + calcResidualForce...", 0, 0,
     k_ref_simbody_inv},
};

static void print_kernel_row(const table_row *r, const column *cols, int ncols) {
  cell cells[NUM_MODELS];
  const char *label = r->label ? r->label : k_kernels[r->a].label;
  if (r->kind == ROW_GROUP) {
    printf("  %s\n", r->label);
    return;
  }
  for (int c = 0; c < ncols; c++) {
    const double *t = cols[c].res->kernel_s;
    if (r->kind == ROW_TIME) {
      fmt_time(cells[c], t[r->a]);
    } else if (r->kind == ROW_RATIO) {
      fmt_ratio(cells[c], t[r->a], t[r->b]);
    } else {
      fmt_time(cells[c], ref_of(&cols[c], r->ref));
    }
  }
  print_row(label ? label : "", cells, ncols, 11);
}

static void print_kernel_table(const char *title, const column *cols, int ncols) {
  print_header(title, cols, ncols, 11);
  for (size_t i = 0; i < sizeof k_kernel_table / sizeof k_kernel_table[0]; i++) {
    print_kernel_row(&k_kernel_table[i], cols, ncols);
  }
}

static void print_agreement_table(const char *title, const column *cols, int ncols) {
  cell cells[NUM_MODELS][3];
  static const char *labels[3] = {"max |dvdot| Teal - MuJoCo (of max |vdot|)",
                                  "max |dM| Teal - MuJoCo (of max |M|)",
                                  "max |dtau| Teal - MuJoCo (of max |tau|)"};
  if (!cols[0].res->have_agreement) {
    return;
  }
  print_header(title, cols, ncols, 19);
  for (int c = 0; c < ncols; c++) {
    const agreement *a = &cols[c].res->agree;
    snprintf(cells[c][0], CELL_MAX, "%.2e of %.1e", a->d_vdot, a->max_vdot);
    snprintf(cells[c][1], CELL_MAX, "%.2e of %.1e", a->d_mass, a->max_mass);
    snprintf(cells[c][2], CELL_MAX, "%.2e of %.1e", a->d_tau, a->max_tau);
  }
  for (int r = 0; r < 3; r++) {
    cell row[NUM_MODELS];
    for (int c = 0; c < ncols; c++) {
      memcpy(row[c], cells[c][r], CELL_MAX);
    }
    print_row(labels[r], row, ncols, 19);
  }
}

/* Wall time per simulated second of each method, their ratio to the
 * reference method, and the Simbody reference figures. */
static void print_sim_times(const column *cols, int ncols) {
  cell cells[NUM_MODELS];
  char label[128];
  for (int s = 0; s < NUM_SIMS; s++) {
    for (int c = 0; c < ncols && k_sims[s].run; c++) {
      fmt_time(cells[c], cols[c].res->sim_s[s]);
    }
    if (k_sims[s].run) {
      print_row(k_sims[s].label, cells, ncols, 19);
    }
  }
  for (int s = 0; s < NUM_SIMS && k_sim_ref >= 0; s++) {
    if (!k_sims[s].run || s == k_sim_ref) {
      continue;
    }
    for (int c = 0; c < ncols; c++) {
      fmt_ratio(cells[c], cols[c].res->sim_s[s], cols[c].res->sim_s[k_sim_ref]);
    }
    snprintf(label, sizeof label, "ratio %s / %s", k_sims[s].short_name,
             k_sims[k_sim_ref].short_name);
    print_row(label, cells, ncols, 19);
  }
  for (int c = 0; c < ncols; c++) {
    fmt_time(cells[c], ref_of(&cols[c], k_ref_simbody_rk4));
  }
  print_row("Simbody [ref]: classic RK4 in the harness over realize(Acc.)", cells, ncols, 19);
  for (int c = 0; c < ncols; c++) {
    fmt_time(cells[c], ref_of(&cols[c], k_ref_simbody_merson));
  }
  print_row("Simbody [ref]: RungeKuttaMersonIntegrator, fixed step 1 ms", cells, ncols, 19);
}

enum { SIM_Q1, SIM_DQ, SIM_DQ1_REF };

/* One row for simulation method s: its final q_1 (SIM_Q1), its largest
 * final difference from the reference method over all links (SIM_DQ), or
 * its q_1 against the BENCHMARKS.md MuJoCo figure (SIM_DQ1_REF). */
static void print_sim_state_row(int what, int s, const column *cols, int ncols) {
  cell cells[NUM_MODELS];
  char label[128];
  const char *name = k_sims[s].short_name;
  if (!k_sims[s].run || (what == SIM_DQ && (k_sim_ref < 0 || s == k_sim_ref))) {
    return;
  }
  for (int c = 0; c < ncols; c++) {
    const model_result *r = cols[c].res;
    if (what == SIM_Q1) {
      fmt_value(cells[c], "%.15f", r->q_final[s][0]);
    } else if (what == SIM_DQ) {
      fmt_value(cells[c], "%.2e",
                max_abs_diff(r->q_final[s], r->q_final[k_sim_ref], cols[c].spec->n));
    } else {
      fmt_value(cells[c], "%.2e", fabs(r->q_final[s][0] - ref_of(&cols[c], k_ref_mujoco_q1)));
    }
  }
  if (what == SIM_Q1) {
    snprintf(label, sizeof label, "final q_1 (rad), %s", name);
  } else if (what == SIM_DQ) {
    snprintf(label, sizeof label, "max_i |dq_i| %s - %s", name, k_sims[k_sim_ref].short_name);
  } else {
    snprintf(label, sizeof label, "|dq_1| %s - BENCHMARKS.md MuJoCo RK4", name);
  }
  print_row(label, cells, ncols, 19);
}

static void print_sim_states(const column *cols, int ncols) {
  cell cells[NUM_MODELS];
  for (int s = 0; s < NUM_SIMS; s++) {
    print_sim_state_row(SIM_Q1, s, cols, ncols);
  }
  for (int c = 0; c < ncols; c++) {
    fmt_value(cells[c], "%.15f", ref_of(&cols[c], k_ref_mujoco_q1));
  }
  print_row("final q_1 (rad), MuJoCo RK4 in BENCHMARKS.md 1e [ref]", cells, ncols, 19);
  for (int s = 0; s < NUM_SIMS; s++) {
    print_sim_state_row(SIM_DQ, s, cols, ncols);
  }
  for (int s = 0; s < NUM_SIMS; s++) {
    print_sim_state_row(SIM_DQ1_REF, s, cols, ncols);
  }
}

static void print_sim_table(const char *title, const column *cols, int ncols) {
  print_header(title, cols, ncols, 19);
  print_sim_times(cols, ncols);
  print_sim_states(cols, ncols);
}

static void print_workload(const char *name, const column *cols, int ncols) {
  char title[160];
  snprintf(title, sizeof title, "%s: per-call kernels, median time per call", name);
  print_kernel_table(title, cols, ncols);
  snprintf(title, sizeof title, "%s: agreement at the kernel point (no perturbation)", name);
  print_agreement_table(title, cols, ncols);
  snprintf(title, sizeof title, "%s: 1.0 s simulation, dt = 1 ms, wall time per simulated s",
           name);
  print_sim_table(title, cols, ncols);
}

static void print_banner(void) {
  printf("Teal multibody benchmark: BENCHMARKS.md workload 1 (planar pendulum chain) and a"
         " 7-dof arm\n");
#if defined(__VERSION__)
  printf("compiler: %s", __VERSION__);
#else
  printf("compiler: unknown");
#endif
#if defined(__OPTIMIZE__)
  printf(", optimized");
#endif
#if defined(__AVX__)
  printf(", AVX on (not comparable with the Debian peers)");
#else
  printf(", no AVX");
#endif
  printf("\n");
#ifdef TEAL_BENCH_HAVE_MUJOCO
  printf("peer: MuJoCo %s (measured here); Simbody: BENCHMARKS.md figures only\n",
         mj_versionString());
#else
  printf("peer: MuJoCo not built in (CMake did not find libmujoco-dev); Simbody: BENCHMARKS.md"
         " figures only\n");
#endif
}

static void print_notes(void) {
  printf("\n[ref] reference figure from BENCHMARKS.md, not measured here (Simbody has only a"
         " C++ API and Teal\n      has no C++; Debian's Simbody keeps its debug checks on).\n");
  printf("Kernels at q_i = 0.1 i, v_i = 0.05 i, vdot_i = 0.3 - 0.02 i, q_1 perturbed by +-1e-9"
         " before each call;\n");
  printf("medians of interleaved batches. Simulation from q_i = 0.1 i, v = 0; medians of"
         " interleaved runs.\n");
#ifdef TEAL_BENCH_HAVE_MUJOCO
  printf("MuJoCo gets each rod's zero moment about its own axis as %g kg m^2 (it rejects zero);"
         " planar motion never uses it.\n", k_mj_min_moment);
#endif
  printf("reproduce: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build"
         " --target bench_multibody_chain && build/bench_multibody_chain\n");
}

int main(void) {
  static model_spec specs[NUM_MODELS];
  static model_result res[NUM_MODELS];
  column cols[NUM_MODELS];
  int rc = 0;
  for (int i = 0; i < NUM_CHAINS; i++) {
    make_chain(&specs[i], k_chain_sizes[i], i);
  }
  make_arm(&specs[NUM_CHAINS]);
  print_banner();
  fflush(stdout);
  for (int i = 0; i < NUM_MODELS && rc == 0; i++) {
    rc = bench_one(&specs[i], &res[i]);
    cols[i] = (column){&specs[i], &res[i]};
  }
  if (rc != 0) {
    fprintf(stderr, "bench_multibody_chain: FAILED\n");
    return EXIT_FAILURE;
  }
  print_workload("Workload 1, planar pendulum chain", cols, NUM_CHAINS);
  print_workload("7-dof arm (z/y hinges)", cols + NUM_CHAINS, 1);
  print_notes();
  return EXIT_SUCCESS;
}
