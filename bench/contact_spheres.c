/* Contact benchmark: BENCHMARKS.md workload 2 (K free spheres dropped on a
 * plane, K = 64 and 512), Teal against MuJoCo when built with
 * TEAL_BENCH_HAVE_MUJOCO (CMake defines it when libmujoco-dev is found).
 *
 * Scene: spheres of radius 0.05 m and mass 0.1 kg (solid-sphere inertia) on
 * a centred x-y grid with 0.15 m spacing (rows x columns the most nearly
 * square factorization of K: 8 x 8 and 16 x 32), centre heights cycling
 * 0.15, 0.20, 0.25, 0.30 m, at rest; the ground is the plane z = 0. Each
 * sphere only ever touches the ground. Every engine simulates 1.0 s.
 *
 * Rows. Teal, all through teal_simulator over the diagram that
 * teal_add_plant_and_scene_graph makes (plant + scene graph, point contact
 * with the plant's default stiffness and dissipation from its penetration
 * allowance, friction mu = 1 like MuJoCo's default):
 *   - continuous plant, semi-explicit Euler at a fixed 1 ms step (the
 *     scheme of Simbody's figure in BENCHMARKS.md);
 *   - continuous plant, error-controlled RK3 (Bogacki-Shampine) at
 *     accuracy 1e-3 (Simbody's variable-step row uses RK-Merson at 1e-3);
 *   - discrete plant (time_step 1 ms, implicit Newton contact step): the
 *     step works per kinematic tree (blocks of M, per-tree contact
 *     Jacobians) and its Newton solve splits into islands, one 6-dof
 *     sphere each here, so its cost and memory are O(K).
 * MuJoCo: MJCF with a plane geom and free-joint sphere bodies, default
 * soft contact (condim 3, pyramidal cone, friction 1), Euler, dt = 1 ms,
 * 1000 x mj_step, all collisions on (sphere-sphere pairs are tested too).
 *
 * Reported: the median wall time of 1.0 s simulated over interleaved runs
 * (each run must repeat the warm-up run's final state bit for bit), steps,
 * the mean and minimum final centre height, the largest final speed and the
 * largest number of simultaneous contacts (counted in the untimed warm-up
 * run, after every step). Checks: every row ends with all spheres resting
 * (min z > 0.04 m, speeds below 1 cm/s) and Teal's mean final z within
 * 0.2 mm of 0.05 m minus the penetration its defaults imply.
 *
 * Exit status: 0 on success, 1 on any failure (a Teal status, a MuJoCo load
 * error, a model mismatch, a MuJoCo warning, a run that does not repeat or
 * a sphere not resting). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "geometry/scene_graph/scene_graph_query.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#ifdef TEAL_BENCH_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

/* ---- workload constants -------------------------------------------------- */

#define NUM_SCENES 2
#define MAX_SPHERES 512

static const int k_sphere_counts[NUM_SCENES] = {64, 512};
static const double k_radius = 0.05, k_mass = 0.1, k_spacing = 0.15, k_gravity = 9.81;
static const double k_heights[4] = {0.15, 0.20, 0.25, 0.30};
static const double k_mu = 1.0;
static const double k_dt = 1e-3;
static const double k_t_final = 1.0;
static const double k_accuracy = 1e-3; /* the RK3 row */

/* ---- checks ----------------------------------------------------------------- */

static const double k_min_rest_z = 0.04;       /* no sphere fell through */
static const double k_max_rest_speed = 1e-2;   /* m/s, at t = 1 s */
static const double k_rest_z_tolerance = 2e-4; /* Teal: |mean z - (r - penetration)| */

/* ---- timing budget -------------------------------------------------------- */

#define MAX_SIM_RUNS 9
static const int k_min_sim_runs = 3;
static const double k_sim_budget_s = 6.0; /* per scene, all methods, beyond the minimum */
/* A method whose warm-up run took longer than this is timed once more only. */
static const double k_slow_run_s = 4.0;

/* ---- BENCHMARKS.md reference figures (K = 64, 512) ---------------------------- */

/* Simbody 3.7 (Debian, debug checks on) and MuJoCo 2.2.2, measured on the
 * machine and at the time BENCHMARKS.md was written. Times in seconds. */
static const double k_ref_mujoco[NUM_SCENES] = {171e-3, 1.86};
static const double k_ref_mujoco_z[NUM_SCENES] = {0.04963, 0.04963};
static const double k_ref_simbody_euler[NUM_SCENES] = {306e-3, 2.87};
static const double k_ref_simbody_merson[NUM_SCENES] = {412e-3, 3.30};

/* ---- BLAS threads ----------------------------------------------------------- */

/* A threaded OpenBLAS spins its workers (sched_yield) between calls and, on
 * a shared machine, slowed the rows that call LAPACK; the peers are
 * single-threaded too. So limit OpenBLAS to one thread when it is the BLAS
 * linked in (a weak reference: NULL with another BLAS). */
#if defined(__GNUC__) && defined(__ELF__)
extern void openblas_set_num_threads(int num_threads) __attribute__((weak));
#define BENCH_HAVE_BLAS_THREADS_HOOK 1
#endif

/* Returns 1 when OpenBLAS was limited to one thread. */
static int blas_single_thread(void) {
#ifdef BENCH_HAVE_BLAS_THREADS_HOOK
  if (openblas_set_num_threads) {
    openblas_set_num_threads(1);
    return 1;
  }
#endif
  return 0;
}

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

/* ---- the scene -------------------------------------------------------------- */

typedef struct scene_spec {
  int k, rows, cols;
  char title[32];
  teal_vec3 p[MAX_SPHERES]; /* initial centres */
} scene_spec;

/* Rows x columns: the most nearly square factorization of k (rows <= cols). */
static void make_scene(scene_spec *s, int k) {
  s->k = k;
  s->rows = 1;
  for (int r = 1; r * r <= k; r++) {
    if (k % r == 0) {
      s->rows = r;
    }
  }
  s->cols = k / s->rows;
  snprintf(s->title, sizeof s->title, "K = %d", k);
  for (int i = 0; i < k; i++) {
    int row = i / s->cols, col = i % s->cols;
    s->p[i] = teal_vec3_make((col - 0.5 * (s->cols - 1)) * k_spacing,
                             (row - 0.5 * (s->rows - 1)) * k_spacing, k_heights[i % 4]);
  }
}

/* ---- results ---------------------------------------------------------------- */

/* What one run leaves behind (filled by each method's run). */
typedef struct run_info {
  long steps, rejected, evals; /* rejected and evals: -1 when not applicable */
  int max_contacts;            /* -1 when not counted */
  double z_mean, z_min, speed_max;
} run_info;

enum { S_TEAL_EULER, S_TEAL_RK3, S_TEAL_DISCRETE, S_MJ_EULER, NUM_SIMS };

typedef struct scene_result {
  double sim_s[NUM_SIMS]; /* median wall s per simulated second; NAN when not run */
  int runs[NUM_SIMS];     /* timed runs */
  run_info info[NUM_SIMS];
  double penetration; /* Teal's default: the penetration allowance */
  double stiffness;   /* Teal's combined default stiffness, N/m */
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

/* The final heights and speeds of the spheres. */
static void rest_figures(const double *z, const double *speed, int k, run_info *info) {
  info->z_mean = 0.0;
  info->z_min = INFINITY;
  info->speed_max = 0.0;
  for (int i = 0; i < k; i++) {
    info->z_mean += z[i] / k;
    info->z_min = fmin(info->z_min, z[i]);
    info->speed_max = fmax(info->speed_max, speed[i]);
  }
}

/* ---- Teal ------------------------------------------------------------------- */

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

/* Registers sphere i (body s<i>, its collision sphere); a negative status
 * on failure (the plant's first error is sticky). */
static int teal_add_sphere(teal_plant *p, int i, const teal_shape *sphere,
                           const teal_proximity_properties *props) {
  char name[32];
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(k_mass, k_radius);
  snprintf(name, sizeof name, "s%d", i);
  int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  if (body < 0) {
    return body;
  }
  int g = teal_plant_register_collision_geometry(p, body, teal_transform_identity(), sphere, name,
                                                 props);
  return g < 0 ? g : body;
}

/* The plant: K free spheres and the ground (a half-space on the world). */
static teal_plant *teal_build_plant(const scene_spec *s, double time_step, int *body) {
  teal_error err;
  teal_plant *p = teal_plant_new(time_step, &err);
  if (!p) {
    fprintf(stderr, "error: teal_plant_new: %s\n", err.message);
    return NULL;
  }
  teal_shape sphere, ground;
  teal_proximity_properties props = teal_proximity_properties_make(k_mu, k_mu);
  int rc = teal_shape_sphere(k_radius, &sphere, &err);
  rc = rc ? rc : teal_shape_half_space(&ground);
  rc = rc ? rc : teal_plant_set_gravity(p, teal_vec3_make(0.0, 0.0, -k_gravity));
  for (int i = 0; i < s->k && rc == TEAL_OK; i++) {
    body[i] = teal_add_sphere(p, i, &sphere, &props);
    rc = body[i] < 0 ? body[i] : TEAL_OK;
  }
  if (rc == TEAL_OK) {
    int g = teal_plant_register_collision_geometry(p, TEAL_WORLD_BODY, teal_transform_identity(),
                                                   &ground, "ground", &props);
    rc = g < 0 ? g : teal_plant_finalize(p);
  }
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal plant: %s (%s)\n", teal_strerror(rc),
            teal_plant_error(p)->message);
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

/* x0: identity quaternions, the grid positions, v = 0; checks that every
 * sphere got a quaternion floating joint. */
static int teal_initial_state(teal_scene *e) {
  const teal_plant *p = e->plant;
  e->nq = teal_plant_nq(p);
  e->nv = teal_plant_nv(p);
  if (e->nq != 7 * e->spec->k || e->nv != 6 * e->spec->k) {
    fprintf(stderr, "error: Teal plant has nq = %d, nv = %d for %d spheres\n", e->nq, e->nv,
            e->spec->k);
    return 1;
  }
  e->x0 = calloc((size_t)(e->nq + e->nv), sizeof(double));
  if (!e->x0) {
    return 1;
  }
  for (int i = 0; i < e->spec->k; i++) {
    int j = teal_plant_body_joint(p, e->body[i]);
    if (j < 0 || teal_plant_joint_kind(p, j) != TEAL_JOINT_QUATERNION_FLOATING ||
        teal_plant_joint_parent_body(p, j) != TEAL_WORLD_BODY) {
      fprintf(stderr, "error: Teal sphere %d has no floating joint on the world\n", i);
      return 1;
    }
    double *q = e->x0 + teal_plant_joint_q_start(p, j);
    q[0] = 1.0;
    memcpy(q + 4, e->spec->p[i].v, 3 * sizeof(double));
  }
  return 0;
}

static void teal_scene_free(void *state) {
  teal_scene *e = state;
  if (e) {
    teal_simulator_free(e->sim);
    teal_system_free(e->diagram);
    free(e->x0);
    free(e);
  }
}

/* Plant, scene graph, diagram and simulator with the given integrator. */
static teal_scene *teal_scene_new(const scene_spec *s, double time_step,
                                  const teal_integrator_type *integrator, double accuracy) {
  teal_error err = {0};
  teal_scene *e = calloc(1, sizeof *e);
  if (!e) {
    return NULL;
  }
  e->spec = s;
  e->plant = teal_build_plant(s, time_step, e->body);
  teal_builder *b = e->plant ? teal_builder_new("spheres") : NULL;
  e->sg = b ? teal_add_plant_and_scene_graph(b, e->plant, &err) : NULL;
  e->diagram = b ? teal_builder_build(b, &err) : NULL;
  e->sim = e->diagram ? teal_simulator_new(e->diagram, NULL, &err) : NULL;
  if (!e->sim || !e->sg) {
    fprintf(stderr, "error: Teal diagram: %s\n", e->plant ? err.message : "no plant");
    if (!e->diagram && !b) {
      teal_plant_free(e->plant);
    }
    teal_scene_free(e);
    return NULL;
  }
  int rc = teal_simulator_set_integrator(e->sim, integrator);
  rc = rc ? rc : accuracy > 0.0 ? teal_simulator_set_accuracy(e->sim, accuracy)
                                : teal_simulator_set_fixed_step(e->sim, k_dt);
  if (rc || teal_initial_state(e)) {
    fprintf(stderr, "error: Teal simulator setup: %s\n", teal_simulator_error(e->sim)->message);
    teal_scene_free(e);
    return NULL;
  }
  return e;
}

static void *teal_euler_new(const scene_spec *s) {
  return teal_scene_new(s, 0.0, teal_integrator_semi_explicit_euler, 0.0);
}

static void *teal_rk3_new(const scene_spec *s) {
  return teal_scene_new(s, 0.0, teal_integrator_rk3, k_accuracy);
}

static void *teal_discrete_new(const scene_spec *s) {
  /* the integrator has nothing to integrate; the plant updates every 1 ms */
  return teal_scene_new(s, k_dt, teal_integrator_semi_explicit_euler, 0.0);
}

static int teal_state_size(const void *state) {
  const teal_scene *e = state;
  return e->nq + e->nv;
}

/* After every step of a warm-up run: the number of penetrating pairs and
 * the broadphase's candidate pairs and box tests of that query (the pairs
 * the narrowphase actually tests, not all pairs the filters allow). */
static int teal_count_contacts(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  teal_scene *e = user;
  const teal_point_pair_list *pairs;
  teal_broadphase_stats bp;
  int rc = teal_scene_graph_eval_point_pair_penetrations(e->sg, ctx, &pairs);
  rc = rc ? rc : teal_scene_graph_broadphase_stats(e->sg, ctx, &bp);
  if (rc == TEAL_OK) {
    e->max_contacts = pairs->n > e->max_contacts ? pairs->n : e->max_contacts;
    e->max_bp_pairs = bp.num_pairs > e->max_bp_pairs ? bp.num_pairs : e->max_bp_pairs;
    e->max_bp_tests = bp.box_tests > e->max_bp_tests ? bp.box_tests : e->max_bp_tests;
    e->rest_bp_pairs = bp.num_pairs;
  }
  return rc;
}

/* Final heights and speeds from the state x. */
static void teal_rest_figures(const teal_scene *e, const double *x, run_info *info) {
  double z[MAX_SPHERES], speed[MAX_SPHERES];
  for (int i = 0; i < e->spec->k; i++) {
    int j = teal_plant_body_joint(e->plant, e->body[i]);
    const double *v = x + e->nq + teal_plant_joint_v_start(e->plant, j);
    z[i] = x[teal_plant_joint_q_start(e->plant, j) + 6];
    speed[i] = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
  }
  rest_figures(z, speed, e->spec->k, info);
}

static int teal_run(void *state, int count_contacts, double *x, run_info *info) {
  teal_scene *e = state;
  teal_context *ctx = teal_simulator_context(e->sim);
  teal_sim_status st;
  e->max_contacts = 0;
  e->max_bp_pairs = e->max_bp_tests = e->rest_bp_pairs = 0;
  int rc = teal_simulator_set_monitor(e->sim, count_contacts ? teal_count_contacts : NULL, e);
  rc = rc ? rc : teal_context_set_time(ctx, 0.0);
  rc = rc ? rc : teal_plant_set_state(e->plant, ctx, e->x0, e->nq + e->nv);
  rc = rc ? rc : teal_simulator_initialize(e->sim, &st);
  rc = rc ? rc : teal_simulator_advance_to(e->sim, k_t_final, &st);
  rc = rc ? rc : teal_plant_get_state(e->plant, ctx, x, e->nq + e->nv);
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal run: %s (%s)\n", teal_strerror(rc),
            teal_simulator_error(e->sim)->message);
    return rc;
  }
  teal_sim_stats stats = teal_simulator_get_stats(e->sim);
  int discrete = teal_plant_time_step(e->plant) > 0.0;
  info->steps = discrete ? stats.discrete_updates : stats.steps;
  info->rejected = discrete ? -1 : stats.failed_steps;
  info->evals = discrete ? -1 : stats.derivative_evals;
  info->max_contacts = count_contacts ? e->max_contacts : -1;
  teal_rest_figures(e, x, info);
  return TEAL_OK;
}

/* ---- MuJoCo ----------------------------------------------------------------- */

#ifdef TEAL_BENCH_HAVE_MUJOCO

/* Contact and constraint buffers: one contact per sphere (pyramidal condim
 * 3: 4 constraint rows each) with room to spare. */
static int mj_nconmax(int k) {
  return k + 64;
}

static int mj_njmax(int k) {
  return 4 * k + 256;
}

/* The scene as MJCF: the default contact settings, Euler at dt = 1 ms. */
static void mjcf_write(FILE *f, const scene_spec *s) {
  double I = 0.4 * k_mass * k_radius * k_radius;
  fprintf(f, "<mujoco model=\"spheres%d\">\n", s->k);
  fprintf(f, "  <option timestep=\"%.17g\" integrator=\"Euler\" gravity=\"0 0 %.17g\"/>\n", k_dt,
          -k_gravity);
  fprintf(f, "  <size nconmax=\"%d\" njmax=\"%d\"/>\n", mj_nconmax(s->k), mj_njmax(s->k));
  fprintf(f, "  <worldbody>\n    <geom name=\"ground\" type=\"plane\" size=\"0 0 1\"/>\n");
  for (int i = 0; i < s->k; i++) {
    const double *p = s->p[i].v;
    fprintf(f, "    <body name=\"s%d\" pos=\"%.17g %.17g %.17g\"><freejoint/>", i, p[0], p[1],
            p[2]);
    fprintf(f, "<inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>",
            k_mass, I, I, I);
    fprintf(f, "<geom type=\"sphere\" size=\"%.17g\"/></body>\n", k_radius);
  }
  fprintf(f, "  </worldbody>\n</mujoco>\n");
}

/* Writes the MJCF to a temporary file, loads it and removes the file. */
static mjModel *mj_load_spec(const scene_spec *s) {
  const char *dir = getenv("TMPDIR");
  char path[512], msg[1024] = "";
  snprintf(path, sizeof path, "%s/teal_bench_spheres%d_XXXXXX", dir && *dir ? dir : "/tmp", s->k);
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
  mjcf_write(f, s);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  mjModel *m = bad ? NULL : mj_loadXML(path, NULL, msg, (int)sizeof msg);
  unlink(path);
  if (!m || msg[0]) {
    fprintf(stderr, "error: MuJoCo could not load spheres%d cleanly: %s\n", s->k,
            bad ? "write failed" : msg);
    mj_deleteModel(m);
    return NULL;
  }
  return m;
}

/* The ground: geom 0, a plane on the world at the origin, default contact. */
static int mj_check_ground(const mjModel *m) {
  if (m->geom_type[0] != mjGEOM_PLANE || m->geom_bodyid[0] != 0 || m->geom_pos[2] != 0.0 ||
      m->geom_quat[0] != 1.0 || m->geom_friction[0] != k_mu || m->geom_condim[0] != 3 ||
      m->geom_contype[0] != 1 || m->geom_conaffinity[0] != 1) {
    fprintf(stderr, "error: MuJoCo ground is not a default plane at z = 0\n");
    return 1;
  }
  return 0;
}

/* Sphere i: body s<i> at its grid point with one free joint and one default
 * sphere geom, mass and inertia as specified. */
static int mj_check_sphere(const mjModel *m, const scene_spec *s, int i) {
  char name[32];
  snprintf(name, sizeof name, "s%d", i);
  int b = mj_name2id(m, mjOBJ_BODY, name);
  int j = b >= 0 ? m->body_jntadr[b] : -1, g = b >= 0 ? m->body_geomadr[b] : -1;
  if (b < 0 || m->body_parentid[b] != 0 || m->body_jntnum[b] != 1 ||
      m->jnt_type[j] != mjJNT_FREE || m->body_geomnum[b] != 1 ||
      m->geom_type[g] != mjGEOM_SPHERE || m->geom_condim[g] != 3 ||
      m->geom_friction[3 * g] != k_mu || m->geom_contype[g] != 1 ||
      m->geom_conaffinity[g] != 1 || m->dof_damping[m->jnt_dofadr[j]] != 0.0) {
    fprintf(stderr, "error: MuJoCo sphere %d is not a free body with one default sphere\n", i);
    return 1;
  }
  double I = 0.4 * k_mass * k_radius * k_radius, d = fabs(m->body_mass[b] - k_mass);
  d = fmax(d, fabs(m->geom_size[3 * g] - k_radius));
  for (int c = 0; c < 3; c++) {
    d = fmax(d, fabs(m->body_inertia[3 * b + c] - I));
    d = fmax(d, fabs(m->body_pos[3 * b + c] - s->p[i].v[c]));
    d = fmax(d, fabs(m->qpos0[m->jnt_qposadr[j] + c] - s->p[i].v[c]));
    d = fmax(d, fabs(m->body_ipos[3 * b + c]));
  }
  if (!(d <= 1e-15)) {
    fprintf(stderr, "error: MuJoCo sphere %d differs from the specification by %.3g\n", i, d);
    return 1;
  }
  return 0;
}

/* Checks the compiled model against the specification. */
static int mj_check_model(const mjModel *m, const scene_spec *s) {
  if (m->nbody != s->k + 1 || m->njnt != s->k || m->ngeom != s->k + 1 || m->nq != 7 * s->k ||
      m->nv != 6 * s->k || m->nu != 0 || m->neq != 0 || m->opt.timestep != k_dt ||
      m->opt.integrator != mjINT_EULER || m->opt.gravity[2] != -k_gravity ||
      m->opt.gravity[0] != 0.0 || m->opt.gravity[1] != 0.0 || m->opt.cone != mjCONE_PYRAMIDAL ||
      m->opt.disableflags != 0 || m->opt.density != 0.0 || m->opt.viscosity != 0.0) {
    fprintf(stderr, "error: MuJoCo model spheres%d: unexpected sizes or options\n", s->k);
    return 1;
  }
  if (mj_check_ground(m)) {
    return 1;
  }
  for (int i = 0; i < s->k; i++) {
    if (mj_check_sphere(m, s, i)) {
      return 1;
    }
  }
  return 0;
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

typedef struct mj_sim {
  const scene_spec *spec;
  mjModel *m;
  mjData *d;
} mj_sim;

static void mj_sim_free(void *state) {
  mj_sim *s = state;
  if (s) {
    mj_deleteData(s->d);
    mj_deleteModel(s->m);
    free(s);
  }
}

static void *mj_sim_new(const scene_spec *spec) {
  mj_sim *s = calloc(1, sizeof *s);
  if (!s) {
    return NULL;
  }
  s->spec = spec;
  s->m = mj_load_spec(spec);
  if (!s->m || mj_check_model(s->m, spec)) {
    mj_sim_free(s);
    return NULL;
  }
  s->d = mj_makeData(s->m);
  if (!s->d) {
    fprintf(stderr, "error: MuJoCo data: out of memory\n");
    mj_sim_free(s);
    return NULL;
  }
  return s;
}

static int mj_state_size(const void *state) {
  const mj_sim *s = state;
  return s->m->nq + s->m->nv;
}

static void mj_rest_figures(const mj_sim *s, run_info *info) {
  double z[MAX_SPHERES], speed[MAX_SPHERES];
  for (int i = 0; i < s->spec->k; i++) {
    int j = s->m->body_jntadr[i + 1];
    const double *v = s->d->qvel + s->m->jnt_dofadr[j]; /* free joint: linear first */
    z[i] = s->d->qpos[s->m->jnt_qposadr[j] + 2];
    speed[i] = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  }
  rest_figures(z, speed, s->spec->k, info);
}

/* 1000 x mj_step from the model's qpos0 (the grid) at rest. */
static int mj_run(void *state, int count_contacts, double *x, run_info *info) {
  mj_sim *s = state;
  int steps = (int)lround(k_t_final / k_dt), ncon = 0;
  mj_resetData(s->m, s->d);
  for (int k = 0; k < steps; k++) {
    mj_step(s->m, s->d);
    if (count_contacts && s->d->ncon > ncon) {
      ncon = s->d->ncon;
    }
  }
  memcpy(x, s->d->qpos, (size_t)s->m->nq * sizeof(double));
  memcpy(x + s->m->nq, s->d->qvel, (size_t)s->m->nv * sizeof(double));
  info->steps = steps;
  info->rejected = -1;
  info->evals = -1;
  info->max_contacts = count_contacts ? ncon : -1;
  mj_rest_figures(s, info);
  return mj_check_warnings(s->d, "the simulation");
}

#endif /* TEAL_BENCH_HAVE_MUJOCO */

/* ---- the rows --------------------------------------------------------------- */

static const sim_method k_sims[NUM_SIMS] = {
    [S_TEAL_EULER] = {"Teal: continuous, semi-explicit Euler, fixed 1 ms", "Teal Euler", 0,
                      teal_euler_new, teal_state_size, teal_run, teal_scene_free},
    [S_TEAL_RK3] = {"Teal: continuous, RK3, accuracy 1e-3 (variable step)", "Teal RK3", 0,
                    teal_rk3_new, teal_state_size, teal_run, teal_scene_free},
    [S_TEAL_DISCRETE] = {"Teal: discrete plant, h = 1 ms (implicit contact)", "Teal discrete",
                         0, teal_discrete_new, teal_state_size, teal_run,
                         teal_scene_free},
#ifdef TEAL_BENCH_HAVE_MUJOCO
    [S_MJ_EULER] = {"MuJoCo: default soft contact, Euler, 1000 x mj_step", "MuJoCo", 0,
                    mj_sim_new, mj_state_size, mj_run, mj_sim_free},
#endif
};

/* The simulation the others are compared with (-1: none). */
#ifdef TEAL_BENCH_HAVE_MUJOCO
static const int k_sim_ref = S_MJ_EULER;
#else
static const int k_sim_ref = -1;
#endif

/* ---- one scene: build, check, time ---------------------------------------- */

/* A row being timed: its state, the warm-up's final state and the times. */
typedef struct timed_sim {
  void *state;
  int n;
  double *x_expect, *x;
  double warmup_s;
  double t[MAX_SIM_RUNS];
  int count;
} timed_sim;

/* Runs once; it must repeat the warm-up run's final state exactly. */
static int sim_once(int s, timed_sim *r) {
  run_info info;
  double t0 = now_seconds();
  int rc = k_sims[s].run(r->state, 0, r->x, &info);
  r->t[r->count++] = now_seconds() - t0;
  if (!rc && memcmp(r->x, r->x_expect, (size_t)r->n * sizeof(double)) != 0) {
    fprintf(stderr, "error: %s did not repeat its final state\n", k_sims[s].label);
    rc = 1;
  }
  return rc;
}

/* The warm-up run: it counts contacts and gives the final state. */
static int sim_warmup(int s, timed_sim *r, run_info *info) {
  r->n = k_sims[s].state_size(r->state);
  r->x_expect = malloc(2 * (size_t)r->n * sizeof(double));
  if (!r->x_expect) {
    return 1;
  }
  r->x = r->x_expect + r->n;
  double t0 = now_seconds();
  int rc = k_sims[s].run(r->state, 1, r->x_expect, info);
  r->warmup_s = now_seconds() - t0;
  return rc;
}

/* Runs every row in turn until each has its minimum of runs and the budget
 * is spent. A row slower than k_slow_run_s is not run again: its figure is
 * the warm-up run's time (contact counting costs it a cached lookup per
 * step). */
static int sims_time(timed_sim *rows, scene_result *res) {
  double t0 = now_seconds();
  for (int s = 0; s < NUM_SIMS; s++) {
    if (rows[s].state && rows[s].warmup_s > k_slow_run_s) {
      rows[s].t[rows[s].count++] = rows[s].warmup_s;
    }
  }
  for (int pass = 0; pass < MAX_SIM_RUNS; pass++) {
    int ran = 0;
    for (int s = 0; s < NUM_SIMS; s++) {
      timed_sim *r = &rows[s];
      if (!r->state || r->warmup_s > k_slow_run_s ||
          (r->count >= k_min_sim_runs && now_seconds() - t0 > k_sim_budget_s)) {
        continue;
      }
      if (sim_once(s, r)) {
        return 1;
      }
      ran = 1;
    }
    if (!ran) {
      break;
    }
  }
  for (int s = 0; s < NUM_SIMS; s++) {
    res->runs[s] = rows[s].count;
    res->sim_s[s] = rows[s].state ? median(rows[s].t, rows[s].count) / k_t_final : NAN;
  }
  return 0;
}

/* Checks that a row ended with every sphere resting on the ground. */
static int check_rest(int s, const run_info *info, const scene_result *res) {
  double z_rest = k_radius - res->penetration;
  int bad = !(info->z_min > k_min_rest_z) || !(info->speed_max < k_max_rest_speed);
  if (s != k_sim_ref) {
    bad |= !(fabs(info->z_mean - z_rest) < k_rest_z_tolerance);
  }
  if (bad) {
    fprintf(stderr, "error: %s: spheres not resting (mean z %.6f, min z %.6f, max speed %.2e)\n",
            k_sims[s].label, info->z_mean, info->z_min, info->speed_max);
  }
  return bad;
}

/* Teal's default contact parameters for the report (from a throwaway plant). */
static int teal_defaults(const scene_spec *s, scene_result *res) {
  int body[MAX_SPHERES];
  teal_plant *p = teal_build_plant(s, 0.0, body);
  if (!p) {
    return 1;
  }
  res->penetration = teal_plant_penetration_allowance(p);
  res->stiffness = k_mass * k_gravity / res->penetration;
  teal_plant_free(p);
  return 0;
}

static int run_scene(const scene_spec *s, scene_result *res) {
  timed_sim rows[NUM_SIMS];
  int rc = teal_defaults(s, res);
  memset(rows, 0, sizeof rows);
  for (int i = 0; i < NUM_SIMS && rc == 0; i++) {
    res->sim_s[i] = NAN;
    if (!k_sims[i].setup || (k_sims[i].max_spheres && s->k > k_sims[i].max_spheres)) {
      continue;
    }
    fprintf(stderr, "bench: %s: %s: warm-up\n", s->title, k_sims[i].short_name);
    rows[i].state = k_sims[i].setup(s);
    rc = rows[i].state ? sim_warmup(i, &rows[i], &res->info[i]) : 1;
    rc = rc ? rc : check_rest(i, &res->info[i], res);
    if (rc == 0 && i == S_TEAL_EULER) {
      const teal_scene *e = rows[i].state;
      res->bp_pairs = e->max_bp_pairs;
      res->bp_tests = e->max_bp_tests;
      res->bp_rest_pairs = e->rest_bp_pairs;
    }
  }
  fprintf(stderr, "bench: %s: timing\n", s->title);
  rc = rc ? rc : sims_time(rows, res);
  for (int i = 0; i < NUM_SIMS; i++) {
    if (rows[i].state) {
      k_sims[i].free(rows[i].state);
    }
    free(rows[i].x_expect);
  }
  return rc;
}

/* ---- tables ----------------------------------------------------------------- */

#define LABEL_W 58
#define CELL_W 22
#define CELL_MAX 48

typedef char cell[CELL_MAX];

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

/* Prints a row unless every cell is "-". */
static void print_row(const char *label, cell *cells, int ncols) {
  int any = 0;
  for (int c = 0; c < ncols; c++) {
    any |= strcmp(cells[c], "-") != 0;
  }
  if (!any) {
    return;
  }
  printf("  %-*s", LABEL_W, label);
  for (int c = 0; c < ncols; c++) {
    printf(" %*s", CELL_W, cells[c]);
  }
  printf("\n");
}

static void print_header(const char *title, const scene_spec *specs, int ncols) {
  printf("\n%s\n  %-*s", title, LABEL_W, "");
  for (int c = 0; c < ncols; c++) {
    printf(" %*s", CELL_W, specs[c].title);
  }
  printf("\n");
}

/* Wall time per simulated second of every row, the ratios to MuJoCo and the
 * BENCHMARKS.md figures. */
static void print_times(const scene_result *res, int ncols) {
  cell cells[NUM_SCENES];
  char label[128];
  for (int s = 0; s < NUM_SIMS; s++) {
    for (int c = 0; c < ncols && k_sims[s].run; c++) {
      fmt_time(cells[c], res[c].sim_s[s]);
    }
    if (k_sims[s].run) {
      print_row(k_sims[s].label, cells, ncols);
    }
  }
  for (int s = 0; s < NUM_SIMS && k_sim_ref >= 0; s++) {
    if (!k_sims[s].run || s == k_sim_ref) {
      continue;
    }
    for (int c = 0; c < ncols; c++) {
      fmt_ratio(cells[c], res[c].sim_s[s], res[c].sim_s[k_sim_ref]);
    }
    snprintf(label, sizeof label, "ratio %s / %s", k_sims[s].short_name,
             k_sims[k_sim_ref].short_name);
    print_row(label, cells, ncols);
  }
  static const struct {
    const char *label;
    const double *t;
  } refs[3] = {{"MuJoCo [ref]: Euler, dt = 1 ms", k_ref_mujoco},
               {"Simbody [ref]: SemiExplicitEuler, dt = 1 ms", k_ref_simbody_euler},
               {"Simbody [ref]: RK-Merson, accuracy 1e-3", k_ref_simbody_merson}};
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < ncols; c++) {
      fmt_time(cells[c], refs[r].t[c]);
    }
    print_row(refs[r].label, cells, ncols);
  }
}

enum { F_RUNS, F_STEPS, F_Z_MEAN, F_Z_MIN, F_SPEED, F_CONTACTS, NUM_FIGURES };

/* One figure of a row in a cell ("-" when the row did not run). */
static void fmt_figure(cell c, int what, int s, const scene_result *r) {
  const run_info *i = &r->info[s];
  if (isnan(r->sim_s[s])) {
    snprintf(c, CELL_MAX, "-");
  } else if (what == F_RUNS) {
    snprintf(c, CELL_MAX, "%d", r->runs[s]);
  } else if (what == F_STEPS && i->evals >= 0) {
    snprintf(c, CELL_MAX, "%ld (%ld rej.) / %ld", i->steps, i->rejected, i->evals);
  } else if (what == F_STEPS) {
    snprintf(c, CELL_MAX, "%ld", i->steps);
  } else if (what == F_Z_MEAN) {
    snprintf(c, CELL_MAX, "%.6f", i->z_mean);
  } else if (what == F_Z_MIN) {
    snprintf(c, CELL_MAX, "%.6f", i->z_min);
  } else if (what == F_SPEED) {
    snprintf(c, CELL_MAX, "%.1e", i->speed_max);
  } else {
    snprintf(c, CELL_MAX, "%d", i->max_contacts);
  }
}

static void print_figures(const scene_result *res, int ncols) {
  static const char *what[NUM_FIGURES] = {"timed runs",
                                          "steps (rejected) / derivative evaluations",
                                          "mean final z (m)",
                                          "min final z (m)",
                                          "max final speed (m/s)",
                                          "max simultaneous contacts"};
  cell cells[NUM_SCENES];
  char label[160];
  for (int f = 0; f < NUM_FIGURES; f++) {
    printf("  %s\n", what[f]);
    for (int s = 0; s < NUM_SIMS; s++) {
      if (!k_sims[s].run) {
        continue;
      }
      for (int c = 0; c < ncols; c++) {
        fmt_figure(cells[c], f, s, &res[c]);
      }
      snprintf(label, sizeof label, "  %s", k_sims[s].short_name);
      print_row(label, cells, ncols);
    }
  }
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], CELL_MAX, "%.5f", k_ref_mujoco_z[c]);
  }
  print_row("mean final z (m), MuJoCo [ref]", cells, ncols);
}

static void print_model(const scene_spec *specs, const scene_result *res, int ncols) {
  cell cells[NUM_SCENES];
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], CELL_MAX, "%d x %d", specs[c].rows, specs[c].cols);
  }
  print_row("grid (rows x columns, 0.15 m spacing)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], CELL_MAX, "%.3g mm", 1e3 * res[c].penetration);
  }
  print_row("Teal: penetration at rest (= penetration allowance)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], CELL_MAX, "%.6f", k_radius - res[c].penetration);
  }
  print_row("Teal: resting centre height, 0.05 m - penetration (m)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], CELL_MAX, "%.4g N/m", res[c].stiffness);
  }
  print_row("Teal: combined contact stiffness m g / allowance", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    long k = specs[c].k;
    snprintf(cells[c], CELL_MAX, "%ld", (k + 1) * k / 2);
  }
  print_row("all geometry pairs, (K + 1) K / 2 (what no broadphase tests)", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], CELL_MAX, "%ld / %ld", res[c].bp_rest_pairs, res[c].bp_pairs);
  }
  print_row("Teal: broadphase candidate pairs, at rest / most", cells, ncols);
  for (int c = 0; c < ncols; c++) {
    snprintf(cells[c], CELL_MAX, "%ld", res[c].bp_tests);
  }
  print_row("Teal: broadphase box tests per query, most", cells, ncols);
}

static void print_banner(int blas_single) {
  printf("Teal contact benchmark: BENCHMARKS.md workload 2 (K free spheres dropped on a plane)\n");
  printf("BLAS: %s\n", blas_single ? "OpenBLAS limited to 1 thread (openblas_set_num_threads)"
                                   : "not OpenBLAS, threads left as configured");
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

static void print_tables(const scene_spec *specs, const scene_result *res, int ncols) {
  print_header("Workload 2, spheres on a plane: model", specs, ncols);
  print_model(specs, res, ncols);
  print_header("Workload 2: 1.0 s simulation, wall time per simulated second", specs, ncols);
  print_times(res, ncols);
  print_header("Workload 2: work and final state (at t = 1 s)", specs, ncols);
  print_figures(res, ncols);
}

static void print_notes(void) {
  printf("\n[ref] figure from BENCHMARKS.md, not measured here. Medians of interleaved runs,"
         " each repeating\n      the warm-up's final state bit for bit; a row whose warm-up"
         " took over %.0f s shows that run's\n      time (1 timed run). Contacts are counted"
         " after every step of the warm-up run (Teal: the\n      scene graph's penetrating"
         " pairs; MuJoCo: d->ncon).\n", k_slow_run_s);
  printf("Teal's discrete row works per kinematic tree: blocks of M, per-tree contact"
         " Jacobians and one\nNewton island per sphere (no nv x nv matrix, nv = 6K).\n");
  printf("reproduce: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build"
         " --target bench_contact_spheres && build/bench_contact_spheres\n");
}

int main(void) {
  static scene_spec specs[NUM_SCENES];
  static scene_result res[NUM_SCENES];
  int rc = 0;
  print_banner(blas_single_thread());
  fflush(stdout);
  for (int i = 0; i < NUM_SCENES && rc == 0; i++) {
    make_scene(&specs[i], k_sphere_counts[i]);
    rc = run_scene(&specs[i], &res[i]);
  }
  if (rc != 0) {
    fprintf(stderr, "bench_contact_spheres: FAILED\n");
    return EXIT_FAILURE;
  }
  print_tables(specs, res, NUM_SCENES);
  print_notes();
  return EXIT_SUCCESS;
}
