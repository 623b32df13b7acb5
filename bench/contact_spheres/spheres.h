/* bench_contact_spheres's parts (see bench/contact_spheres.c): the scene,
 * the two engines' rows and the tables. */
#ifndef TEAL_BENCH_CONTACT_SPHERES_SPHERES_H
#define TEAL_BENCH_CONTACT_SPHERES_SPHERES_H

#include "common/mujoco_model.h"
#include "geometry/scene_graph/scene_graph_query.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

/* ---- workload constants -------------------------------------------------- */

#define NUM_SCENES 2
#define MAX_SPHERES 512

static const double k_radius = 0.05, k_mass = 0.1, k_gravity = 9.81;
static const double k_mu = 1.0;
static const double k_dt = 1e-3;
static const double k_t_final = 1.0;
static const double k_accuracy = 1e-3; /* the RK3 row */

/* ---- the scene (scene.c) ----------------------------------------------------- */

typedef struct scene_spec {
  int k, rows, cols;
  char title[32];
  teal_vec3 p[MAX_SPHERES]; /* initial centres */
} scene_spec;

/* K spheres on a centred grid, rows x columns the most nearly square
 * factorization of k (rows <= cols), heights cycling 0.15 .. 0.30 m. */
void spheres_make_scene(scene_spec *s, int k);

/* ---- results ---------------------------------------------------------------- */

/* What one run leaves behind (filled by each method's run). */
typedef struct run_info {
  long steps, rejected, evals; /* rejected and evals: -1 when not applicable */
  int max_contacts;            /* -1 when not counted */
  double z_mean, z_min, speed_max;
} run_info;

/* The final heights and speeds of the k spheres, into info. */
void spheres_rest_figures(const double *z, const double *speed, int k, run_info *info);

enum { S_TEAL_EULER, S_TEAL_RK3, S_TEAL_DISCRETE, S_TEAL_SAP, S_MJ_EULER, NUM_SIMS };

typedef struct scene_result {
  double sim_s[NUM_SIMS]; /* median wall s per simulated second; NAN when not run */
  int runs[NUM_SIMS];     /* timed runs */
  run_info info[NUM_SIMS];
  double penetration;      /* Teal's default: the penetration allowance */
  double stiffness;        /* Teal's combined default stiffness, N/m */
  long bp_pairs, bp_tests; /* Teal's broadphase, per query: most over the warm-up run */
  long bp_rest_pairs;      /* Teal's broadphase candidate pairs at t = 1 s (all resting) */
} scene_result;

/* A simulation row: setup builds the engine's model and state (NULL on
 * failure, reported); run simulates 1.0 s from the initial state (restoring
 * it first), writes the final state into x (size state_size) and the run's
 * figures into info, counting contacts when count_contacts is set. */
typedef struct sim_method {
  const char *label;
  const char *short_name;
  int max_spheres; /* 0: any */
  void *(*setup)(const scene_spec *s);
  int (*state_size)(const void *state);
  int (*run)(void *state, int count_contacts, double *x, run_info *info);
  void (*free)(void *state);
} sim_method;

/* The rows (bench/contact_spheres.c); spheres_sim_ref is the simulation the
 * others are compared with (-1: none). */
extern const sim_method spheres_sims[NUM_SIMS];
extern const int spheres_sim_ref;

/* ---- Teal (teal_scene.c) --------------------------------------------------------- */

/* A Teal scene: the diagram (owning plant and scene graph) and a simulator. */
typedef struct teal_scene {
  const scene_spec *spec;
  teal_system *diagram;
  teal_plant *plant; /* owned by the diagram */
  teal_scene_graph *sg;
  teal_simulator *sim;
  int nq, nv, max_contacts;
  long max_bp_pairs, max_bp_tests, rest_bp_pairs; /* broadphase counters (warm-up run) */
  int body[MAX_SPHERES];
  double *x0;
} teal_scene;

/* The plant: K free spheres and the ground (a half-space on the world);
 * body[i] gets sphere i's body. NULL on failure, reported. */
teal_plant *spheres_teal_build_plant(const scene_spec *s, double time_step, int *body);

/* The same with the discrete contact solver given (SAP: each geometry's
 * relaxation time the contact time scale sqrt(delta / g), which damps the
 * default stiffness critically). */
teal_plant *spheres_teal_build_plant_with(const scene_spec *s, double time_step,
                                          teal_discrete_contact_solver solver, int *body);

/* The Teal rows' setups: continuous plant with semi-explicit Euler at 1 ms
 * or RK3 at accuracy 1e-3, and the discrete plant at 1 ms with the
 * built-in (TAMSI-like) or the SAP contact solver. */
void *spheres_teal_euler_new(const scene_spec *s);
void *spheres_teal_rk3_new(const scene_spec *s);
void *spheres_teal_discrete_new(const scene_spec *s);
void *spheres_teal_sap_new(const scene_spec *s);
int spheres_teal_state_size(const void *state);
int spheres_teal_run(void *state, int count_contacts, double *x, run_info *info);
void spheres_teal_scene_free(void *state);

/* ---- MuJoCo (mujoco_scene.c) ------------------------------------------------------ */

#ifdef TEAL_BENCH_HAVE_MUJOCO
void *spheres_mj_sim_new(const scene_spec *spec);
int spheres_mj_state_size(const void *state);
int spheres_mj_run(void *state, int count_contacts, double *x, run_info *info);
void spheres_mj_sim_free(void *state);
#endif

/* ---- tables (tables.c) --------------------------------------------------------- */

/* The model, time and final-state tables over the ncols scenes. */
void spheres_print_tables(const scene_spec *specs, const scene_result *res, int ncols);

#endif
