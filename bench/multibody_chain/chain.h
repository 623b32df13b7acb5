/* bench_multibody_chain's parts (see bench/multibody_chain.c): the models,
 * the two engines' rows and the tables. */
#ifndef TEAL_BENCH_MULTIBODY_CHAIN_CHAIN_H
#define TEAL_BENCH_MULTIBODY_CHAIN_CHAIN_H

#include "common/mujoco_model.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

/* ---- workload constants -------------------------------------------------- */

#define MAX_LINKS 100
#define NUM_CHAINS 3
#define NUM_MODELS (NUM_CHAINS + 1)

static const double k_gravity = 9.81;
static const double k_dt = 1e-3;
static const int k_steps = 1000; /* 1.0 s */

#ifdef TEAL_BENCH_HAVE_MUJOCO
/* MuJoCo rejects a principal moment below mjMINVAL (1e-15), so in MuJoCo's
 * model only, a rod's zero moment about its own axis becomes this. The axis
 * is z, and planar motion about y never rotates a link about z, so the
 * value enters no computation (the agreement figures confirm it). */
static const double k_mj_min_moment = 1e-12;
#endif

/* ---- model specification (model.c) ---------------------------------------- */

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

typedef struct model_spec {
  char name[32];  /* also the URDF robot name */
  char title[32]; /* column title */
  int ref;        /* index into the bench/README.md figures, -1 for none */
  int n;
  link_spec link[MAX_LINKS];
} model_spec;

/* Workload 1: n uniform thin rods hanging along -z, hinges about +y. */
void chain_make_chain(model_spec *s, int n, int ref);

/* The 7-dof arm (hinges about z, y, z, y, z, y, z). */
void chain_make_arm(model_spec *s);

/* I = R diag(moments) R' with R = R(rpy). */
teal_mat3 chain_inertia_from_principal(const double moments[3], teal_vec3 rpy);

/* The kernel point of workload 1 (i = 1..n). */
void chain_kernel_point(int n, double *q, double *v, double *vdot);

/* The initial position of the simulation (v = 0). */
void chain_sim_start(int n, double *q);

/* q_1 moved by -1e-9 on even calls and +1e-9 on odd ones. */
void chain_perturb_q1(double *q, double q1, int call);

double chain_max_abs(const double *x, int n);
double chain_max_abs_diff(const double *a, const double *b, int n);

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

/* The simulation methods. Add a row here (and to chain_sims) to time
 * another way of running the same simulation, e.g. Teal's simulator
 * driving the plant as a leaf system; the tables pick it up. */
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

/* ---- the two engines' models and rows ----------------------------------------- */

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

/* The rows (bench/multibody_chain.c); chain_sim_ref is the simulation the
 * others are compared with (-1: none). */
extern const kernel_method chain_kernels[NUM_KERNELS];
extern const sim_method chain_sims[NUM_SIMS];
extern const int chain_sim_ref;

/* ---- Teal (teal_engine.c) ------------------------------------------------------ */

/* Kernel state: the multibody data and the point, all allocated once. */
typedef struct chain_teal_kernel {
  const teal_plant *plant;
  teal_mb_data *ws;
  double q1;
  double *q, *v, *vdot, *out, *mass;
} chain_teal_kernel;

/* Reports a failed Teal call with the multibody data's message; returns rc. */
int chain_teal_check(int rc, const teal_mb_data *ws, const char *what);

/* The model as a finalized Teal plant (NULL on failure, reported). */
teal_plant *chain_teal_build_plant(const model_spec *s);

void *chain_teal_kernel_new(const bench_model *bm);
void chain_teal_kernel_free(void *state);
int chain_teal_call_fd(void *state, int call);
int chain_teal_call_mass(void *state, int call);
int chain_teal_call_inv(void *state, int call);

/* Classic RK4 over teal_mb_forward_dynamics. */
void *chain_teal_rk4_new(const bench_model *bm);
int chain_teal_rk4_run(void *state, double *q_final);
void chain_teal_rk4_free(void *state);

/* teal_simulator over the plant system, RK4 at a fixed 1 ms. */
void *chain_teal_sim_new(const bench_model *bm);
int chain_teal_sim_run(void *state, double *q_final);
void chain_teal_sim_free(void *state);

/* ---- MuJoCo (mujoco_engine.c) -------------------------------------------------- */

#ifdef TEAL_BENCH_HAVE_MUJOCO

/* Kernel state: its own mjData (mj_forward writes the qacc mj_inverse reads). */
typedef struct chain_mj_kernel {
  const mjModel *m;
  mjData *d;
  double q1;
  double *mass;
} chain_mj_kernel;

/* The model loaded from URDF and checked against the specification, set
 * up for RK4 at 1 ms without contacts (NULL on failure, reported). */
mjModel *chain_mj_build_model(const model_spec *s);

void *chain_mj_kernel_new(const bench_model *bm);
void chain_mj_kernel_free(void *state);
int chain_mj_call_forward(void *state, int call);
int chain_mj_call_fwd3(void *state, int call);
int chain_mj_call_mass(void *state, int call);
int chain_mj_call_inv(void *state, int call);

/* MuJoCo's own RK4 (mjINT_RK4): 1000 x mj_step at dt = 1 ms. */
void *chain_mj_sim_new(const bench_model *bm);
int chain_mj_sim_run(void *state, double *q_final);
void chain_mj_sim_free(void *state);

/* vdot, M and tau of both engines at the kernel point (no perturbation). */
int chain_agreement_fill(chain_teal_kernel *t, chain_mj_kernel *e, int n, agreement *a);

#endif

/* ---- tables (tables.c) ----------------------------------------------------------- */

typedef struct column {
  const model_spec *spec;
  const model_result *res;
} column;

/* The kernel, agreement and simulation tables of one workload. */
void chain_print_workload(const char *name, const column *cols, int ncols);

#endif
