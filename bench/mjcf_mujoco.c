/* MJCF benchmark: Teal's MJCF parser against MuJoCo's mj_loadXML, and
 * Teal's dynamics of the loaded models against MuJoCo's (bench/README.md).
 *
 *   1. Load time of a 100-body MJCF (four hinge chains of 25 capsules,
 *      inertia from the geoms; MuJoCo refuses bodies nested deeper than
 *      100): the median wall time of teal_plant_new + teal_mjcf_load_file +
 *      teal_plant_finalize, beside mj_loadXML (parse and compile) on the same
 *      file, in one run.
 *   2. For each test model in models/mjcf/ (or the files given on the
 *      command line): M(q) and the bias forces at 50 random states, Teal
 *      against MuJoCo (mj_fullM of qM and qfrc_bias after mj_forward). The
 *      bias is MuJoCo's sign convention: qfrc_bias = C(q, v) v - tau_g(q),
 *      that is teal_mb_bias_term minus teal_mb_gravity_forces. Joints are
 *      matched by name. Ball and free joints take the angular velocity in
 *      the body frame in MuJoCo and in the parent (world) frame in Teal:
 *      v_teal = T v_mj with T = R_WB on those three rows, so M_mj = T' M T
 *      and bias_mj = T' bias (the T-dot v term is R [w]x w = 0); a free
 *      joint's q is (position, quaternion) in MuJoCo and (quaternion,
 *      position) in Teal. The largest difference per model must be below
 *      1e-10 (exit status 1 otherwise), as must the difference between
 *      Teal's default positions and MuJoCo's qpos0 (the joints' refs).
 *   3. For each of those models with motors: the joint forces of random
 *      controls (inside the control range where it is limited) at each of
 *      those states, MuJoCo's qfrc_actuator against Teal's B u with each
 *      actuator's column clamped to its effort limit, mapped by T' (motors
 *      act on hinges and slides, where T is a permutation; tendon motors on
 *      fixed tendons over them); below 1e-12. Actuators are matched by
 *      order, and each Teal actuator must drive the joint (pull on the
 *      tendon) named like its MuJoCo motor's.
 *   4. Collision filtering (models/mjcf/contype.xml, geoms that all overlap
 *      at the reference configuration): the geom pairs of MuJoCo's contacts
 *      after mj_forward must be exactly the pairs Teal's scene graph query
 *      reports (contype and conaffinity bits, parent and weld filters).
 *   5. Tendons (models/mjcf/tendons.xml): at each of those states, each
 *      tendon's length, rate and Jacobian (ten_length, ten_velocity, ten_J
 *      mapped by T) and the generalized force of all tendons (qfrc_passive
 *      plus MuJoCo's joint damping dof_damping qvel, which leaves the
 *      tendons' springs and dampers) against Teal's force elements (tau + J'
 *      F_Bo_W, mapped by T'); tendons are matched by name; below 1e-10.
 *      Tendon and joint equalities: with MuJoCo's q moved onto each of
 *      Teal's couplers (q0 = ratio q1 + offset), MuJoCo's equality
 *      residuals (efc_pos) must vanish, one row per coupler; below 1e-10
 *      (models/mjcf/joint_ref.xml checks refs in all of these).
 * Without MuJoCo (CMake did not find libmujoco-dev) only Teal's load time
 * is printed. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/mujoco_model.h"
#include "common/platform.h"
#include "common/timing.h"
#include "teal.h"

#define NUM_LOADS 15
#define NUM_STATES 50
#define TOLERANCE 1e-10
#define FORCE_TOLERANCE 1e-12

/* ---- the 100-body model ------------------------------------------------------ */

static void write_chain_model(FILE *f) {
  fprintf(f, "<mujoco model=\"tree100\">\n  <compiler angle=\"radian\"/>\n");
  fprintf(f,
          "  <default><joint axis=\"0 1 0\" damping=\"0.01\"/>"
          "<geom type=\"capsule\" size=\"0.02\"/></default>\n  <worldbody>\n");
  for (int c = 0; c < 4; c++) {
    for (int i = 0; i < 25; i++) {
      fprintf(f, "%*s<body name=\"b%d_%d\" pos=\"%g 0 %g\">\n", 4 + 2 * i, "", c, i,
              i == 0 ? 0.3 * c : 0.0, i == 0 ? 0.0 : -0.1);
      fprintf(f, "%*s<joint name=\"j%d_%d\"/><geom fromto=\"0 0 0 0 0 -0.1\"/>\n", 6 + 2 * i, "", c,
              i);
    }
    for (int i = 24; i >= 0; i--) {
      fprintf(f, "%*s</body>\n", 4 + 2 * i, "");
    }
  }
  fprintf(f, "  </worldbody>\n</mujoco>\n");
}

static int write_temp(char *path, size_t size) {
  const char *dir = getenv("TMPDIR");
  snprintf(path, size, "%s/teal_bench_mjcf_XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    fprintf(stderr, "error: cannot create %s\n", path);
    return 1;
  }
  write_chain_model(f);
  return fclose(f) != 0;
}

static double teal_load_time(const char *path) {
  double t[NUM_LOADS];
  for (int k = 0; k < NUM_LOADS; k++) {
    teal_error e = {TEAL_OK, ""};
    double t0 = bench_now_seconds();
    teal_plant *p = teal_plant_new(0.0, &e);
    int rc = p ? teal_mjcf_load_file(p, path, NULL, NULL, NULL, &e) : -1;
    rc = rc >= 0 ? teal_plant_finalize(p) : rc;
    t[k] = bench_now_seconds() - t0;
    teal_plant_free(p);
    if (rc != TEAL_OK) {
      fprintf(stderr, "error: Teal load: %s\n", e.message);
      return -1.0;
    }
  }
  return bench_median(t, NUM_LOADS);
}

#ifdef TEAL_BENCH_HAVE_MUJOCO
static double mujoco_load_time(const char *path) {
  double t[NUM_LOADS];
  for (int k = 0; k < NUM_LOADS; k++) {
    char msg[1024] = "";
    double t0 = bench_now_seconds();
    mjModel *m = mj_loadXML(path, NULL, msg, (int)sizeof msg);
    t[k] = bench_now_seconds() - t0;
    if (!m) {
      fprintf(stderr, "error: mj_loadXML: %s\n", msg);
      return -1.0;
    }
    mj_deleteModel(m);
  }
  return bench_median(t, NUM_LOADS);
}
#endif

static int load_times(void) {
  char path[512];
  if (write_temp(path, sizeof path)) {
    return 1;
  }
  double tt = teal_load_time(path);
  printf("load, 100 bodies (median of %d)\n", NUM_LOADS);
  printf("  Teal teal_mjcf_load_file + finalize  %10.3f ms\n", 1e3 * tt);
  int bad = tt < 0.0;
#ifdef TEAL_BENCH_HAVE_MUJOCO
  double tm = mujoco_load_time(path);
  printf("  MuJoCo mj_loadXML                    %10.3f ms\n", 1e3 * tm);
  bad |= tm < 0.0;
#endif
  unlink(path);
  return bad;
}

/* ---- dynamics against MuJoCo ----------------------------------------------------- */

#ifdef TEAL_BENCH_HAVE_MUJOCO

typedef struct engines {
  teal_plant *plant;
  teal_mb_data *data;
  mjModel *m;
  mjData *d;
  int nv, nu;
  double *q, *v, *T, *M, *b, *Mt, *bt, *tg, *Mm, *tmp, *B, *u;
} engines;

static unsigned rng = 12345u;
static double uniform(double lo, double hi) {
  rng = rng * 1664525u + 1013904223u;
  return lo + (hi - lo) * (double)(rng >> 8) / 16777216.0;
}

/* A random unit quaternion (w, x, y, z) into q. */
static void random_quat(double *q) {
  double n = 0.0;
  for (int i = 0; i < 4; i++) {
    q[i] = uniform(-1.0, 1.0);
    n += q[i] * q[i];
  }
  for (int i = 0; i < 4; i++) {
    q[i] /= sqrt(n);
  }
}

/* Fills MuJoCo's state at random and Teal's q, v and T (v_teal = T v_mj)
 * from it, joint by joint. */
static int random_state(engines *e) {
  const mjModel *m = e->m;
  memset(e->T, 0, sizeof(double) * (size_t)(e->nv * e->nv));
  for (int j = 0; j < m->njnt; j++) {
    const char *name = mj_id2name(m, mjOBJ_JOINT, j);
    int tj = name ? teal_plant_get_joint_by_name(e->plant, name, -1, NULL) : -1;
    if (tj < 0) {
      fprintf(stderr, "error: joint %d (%s) not in Teal's plant\n", j, name ? name : "unnamed");
      return 1;
    }
    int type = m->jnt_type[j];
    double *qm = e->d->qpos + m->jnt_qposadr[j], *vm = e->d->qvel + m->jnt_dofadr[j];
    double *qt = e->q + teal_plant_joint_q_start(e->plant, tj);
    int vt = teal_plant_joint_v_start(e->plant, tj), vd = m->jnt_dofadr[j];
    int nvj = type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
    for (int i = 0; i < nvj; i++) {
      vm[i] = uniform(-2.0, 2.0);
    }
    if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
      qm[0] = uniform(-1.5, 1.5);
      qt[0] = qm[0];
      e->T[vt * e->nv + vd] = 1.0;
      continue;
    }
    int qa = type == mjJNT_FREE ? 3 : 0, wa = type == mjJNT_FREE ? 3 : 0;
    random_quat(qm + qa);
    memcpy(qt, qm + qa, 4 * sizeof(double));
    if (type == mjJNT_FREE) {
      for (int i = 0; i < 3; i++) {
        qm[i] = uniform(-1.0, 1.0);
        qt[4 + i] = qm[i];
        e->T[(vt + 3 + i) * e->nv + vd + i] = 1.0; /* linear: world in both */
      }
    }
    teal_rotation R = teal_rotation_from_quaternion(
        teal_quaternion_make(qm[qa], qm[qa + 1], qm[qa + 2], qm[qa + 3]));
    for (int r = 0; r < 3; r++) {
      for (int c = 0; c < 3; c++) {
        e->T[(vt + r) * e->nv + vd + wa + c] = R.m[3 * r + c];
      }
    }
  }
  /* v_teal = T v_mj */
  for (int r = 0; r < e->nv; r++) {
    e->v[r] = 0.0;
    for (int c = 0; c < e->nv; c++) {
      e->v[r] += e->T[r * e->nv + c] * e->d->qvel[c];
    }
  }
  return 0;
}

/* The largest difference between MuJoCo's M and bias and Teal's mapped
 * ones (T' M T and T' (C v - tau_g)) at the current state. */
static double compare(engines *e) {
  int n = e->nv;
  mj_forward(e->m, e->d);
  mj_fullM(e->m, e->Mm, e->d->qM);
  teal_mb_mass_matrix(e->plant, e->data, e->q, e->Mt);
  teal_mb_bias_term(e->plant, e->data, e->q, e->v, e->bt);
  teal_mb_gravity_forces(e->plant, e->data, e->q, e->tg);
  double worst = 0.0;
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < n; c++) {
      double s = 0.0; /* (M T)(r, c) */
      for (int k = 0; k < n; k++) {
        s += e->Mt[r * n + k] * e->T[k * n + c];
      }
      e->tmp[r * n + c] = s;
    }
  }
  for (int r = 0; r < n; r++) {
    double bias = 0.0;
    for (int k = 0; k < n; k++) {
      bias += e->T[k * n + r] * (e->bt[k] - e->tg[k]);
    }
    worst = fmax(worst, fabs(bias - e->d->qfrc_bias[r]));
    for (int c = 0; c < n; c++) {
      double s = 0.0;
      for (int k = 0; k < n; k++) {
        s += e->T[k * n + r] * e->tmp[k * n + c];
      }
      worst = fmax(worst, fabs(s - e->Mm[r * n + c]));
    }
  }
  return worst;
}

/* Teal's tendon actuator a must pull on the tendon named name. */
static int drives_tendon(const engines *e, int a, const char *name) {
  int t = name ? teal_plant_find_tendon(e->plant, name, -1) : -1;
  return t >= 0 && teal_plant_actuator_tendon(e->plant, a) == t;
}

/* Teal's actuator a must drive the joint (tendon) of MuJoCo's actuator a,
 * by name. */
static int actuators_match(const engines *e, const char *path) {
  for (int a = 0; a < e->nu; a++) {
    int id = e->m->actuator_trnid[2 * a];
    if (e->m->actuator_trntype[a] == mjTRN_TENDON) {
      const char *name = mj_id2name(e->m, mjOBJ_TENDON, id);
      if (!drives_tendon(e, a, name)) {
        fprintf(stderr, "error: %s: actuator %d does not pull on tendon %s in Teal\n", path, a,
                name ? name : "(unnamed)");
        return 1;
      }
      continue;
    }
    const char *name =
        e->m->actuator_trntype[a] == mjTRN_JOINT ? mj_id2name(e->m, mjOBJ_JOINT, id) : NULL;
    int tj = name ? teal_plant_get_joint_by_name(e->plant, name, -1, NULL) : -1;
    if (tj < 0 ||
        teal_plant_joint_v_start(e->plant, tj) != teal_plant_actuator_v_index(e->plant, a)) {
      fprintf(stderr, "error: %s: actuator %d does not drive joint %s in Teal\n", path, a,
              name ? name : "(none)");
      return 1;
    }
  }
  return 0;
}

/* Random controls (in the control range when limited) into MuJoCo's ctrl
 * and Teal's u; returns the largest difference between MuJoCo's
 * qfrc_actuator and T' tau, tau_v = sum over actuators of B[v][a] times u_a
 * clamped to the actuator's effort limit. */
static double compare_actuation(engines *e) {
  const mjModel *m = e->m;
  int n = e->nv, nu = e->nu;
  for (int a = 0; a < nu; a++) {
    const double *r = m->actuator_ctrlrange + 2 * a;
    e->u[a] = m->actuator_ctrllimited[a] ? uniform(r[0], r[1]) : uniform(-3.0, 3.0);
    e->d->ctrl[a] = e->u[a];
  }
  mj_forward(e->m, e->d);
  memset(e->bt, 0, sizeof(double) * (size_t)n);
  for (int a = 0; a < nu; a++) {
    double lim = teal_plant_actuator_effort_limit(e->plant, a);
    for (int r = 0; r < n; r++) {
      e->bt[r] += e->B[r * nu + a] * fmax(-lim, fmin(lim, e->u[a]));
    }
  }
  double worst = 0.0;
  for (int r = 0; r < n; r++) {
    double s = 0.0;
    for (int k = 0; k < n; k++) {
      s += e->T[k * n + r] * e->bt[k];
    }
    worst = fmax(worst, fabs(s - e->d->qfrc_actuator[r]));
  }
  return worst;
}

/* Teal's tendon i (matched to MuJoCo's tendon t by name) against MuJoCo's
 * length, rate and Jacobian (J_mj = J_teal T); J: nv scratch. */
static double compare_tendon(engines *e, int t, const teal_transform *X_WB,
                             const teal_spatial_vector *V_WB, double *J) {
  const char *name = mj_id2name(e->m, mjOBJ_TENDON, t);
  int i = name ? teal_plant_find_tendon(e->plant, name, -1) : -1;
  double L = 0.0, Ld = 0.0;
  if (i < 0 || teal_plant_calc_tendon_length(e->plant, i, e->q, e->v, X_WB, V_WB, &L, &Ld, NULL) ||
      teal_plant_calc_tendon_jacobian(e->plant, e->data, i, e->q, J, NULL)) {
    fprintf(stderr, "error: tendon %d (%s) not evaluated in Teal\n", t, name ? name : "unnamed");
    return INFINITY;
  }
  double worst = fmax(fabs(L - e->d->ten_length[t]), fabs(Ld - e->d->ten_velocity[t]));
  for (int c = 0; c < e->nv; c++) {
    double s = 0.0;
    for (int k = 0; k < e->nv; k++) {
      s += J[k] * e->T[k * e->nv + c];
    }
    worst = fmax(worst, fabs(s - e->d->ten_J[t * e->nv + c]));
  }
  return worst;
}

/* The tendons' generalized force in both engines (see 5. above) and each
 * tendon's kinematics, at the current state (after compare's mj_forward). */
static double compare_tendons(engines *e) {
  int n = e->nv, nb = teal_plant_num_bodies(e->plant);
  teal_transform *X_WB = calloc((size_t)nb, sizeof(teal_transform));
  teal_spatial_vector *V_WB = calloc((size_t)nb, sizeof(teal_spatial_vector));
  teal_spatial_vector *F = calloc((size_t)nb, sizeof(teal_spatial_vector));
  double *tau = calloc((size_t)n, sizeof(double)), *J = calloc((size_t)n, sizeof(double));
  double worst = INFINITY;
  if (X_WB && V_WB && F && tau && J && !teal_mb_body_velocities(e->plant, e->q, e->v, X_WB, V_WB) &&
      !teal_plant_calc_force_elements(e->plant, e->q, e->v, X_WB, V_WB, F, tau, NULL) &&
      !teal_mb_jacobian_apply_transpose(e->plant, e->data, e->q, F, J)) {
    worst = 0.0;
    for (int r = 0; r < n; r++) {
      double s = 0.0;
      for (int k = 0; k < n; k++) {
        s += e->T[k * n + r] * (tau[k] + J[k]);
      }
      double mj = e->d->qfrc_passive[r] + e->m->dof_damping[r] * e->d->qvel[r];
      worst = fmax(worst, fabs(s - mj));
    }
    for (int t = 0; t < e->m->ntendon; t++) {
      worst = fmax(worst, compare_tendon(e, t, X_WB, V_WB, J));
    }
  }
  free(X_WB);
  free(V_WB);
  free(F);
  free(tau);
  free(J);
  return worst;
}

/* Teal's default positions of the hinges and slides against MuJoCo's
 * qpos0 (their refs), joints matched by name. */
static double compare_qpos0(engines *e) {
  double worst = 0.0;
  if (teal_plant_default_q(e->plant, e->q)) {
    return INFINITY;
  }
  for (int j = 0; j < e->m->njnt; j++) {
    int type = e->m->jnt_type[j];
    if (type != mjJNT_HINGE && type != mjJNT_SLIDE) {
      continue;
    }
    int tj = teal_plant_get_joint_by_name(e->plant, mj_id2name(e->m, mjOBJ_JOINT, j), -1, NULL);
    int qs = teal_plant_joint_q_start(e->plant, tj);
    worst = qs < 0 ? INFINITY : fmax(worst, fabs(e->q[qs] - e->m->qpos0[e->m->jnt_qposadr[j]]));
  }
  return worst;
}

/* Moves MuJoCo's q onto each of Teal's couplers, then returns the largest
 * residual of MuJoCo's joint and tendon equalities (INFINITY when the
 * number of rows is not the number of couplers). */
static double compare_tendon_equalities(engines *e) {
  int nc = teal_plant_num_constraints(e->plant), rows = 0;
  for (int c = 0; c < nc; c++) {
    teal_constraint_info info;
    if (teal_plant_get_constraint(e->plant, c, &info, NULL) || info.joint0 < 0) {
      return INFINITY;
    }
    int j0 = mj_name2id(e->m, mjOBJ_JOINT, teal_plant_joint_name(e->plant, info.joint0));
    int j1 = mj_name2id(e->m, mjOBJ_JOINT, teal_plant_joint_name(e->plant, info.joint1));
    double *q = e->d->qpos;
    q[e->m->jnt_qposadr[j0]] = info.gear_ratio * q[e->m->jnt_qposadr[j1]] + info.offset;
  }
  mj_forward(e->m, e->d);
  double worst = 0.0;
  for (int r = 0; r < e->d->nefc; r++) {
    int type = e->m->eq_type[e->d->efc_id[r]];
    if (e->d->efc_type[r] == mjCNSTR_EQUALITY && (type == mjEQ_TENDON || type == mjEQ_JOINT)) {
      worst = fmax(worst, fabs(e->d->efc_pos[r]));
      rows++;
    }
  }
  return rows == nc ? worst : INFINITY;
}

static int engines_new(engines *e, const char *path) {
  char msg[1024] = "";
  teal_error err = {TEAL_OK, ""};
  memset(e, 0, sizeof(*e));
  e->m = mj_loadXML(path, NULL, msg, (int)sizeof msg);
  e->plant = teal_plant_new(0.0, &err);
  int rc = e->plant ? teal_mjcf_load_file(e->plant, path, NULL, NULL, NULL, &err) : -1;
  rc = rc >= 0 ? teal_plant_finalize(e->plant) : rc;
  if (!e->m || rc != TEAL_OK) {
    fprintf(stderr, "error: %s: %s\n", path, !e->m ? msg : err.message);
    return 1;
  }
  e->d = mj_makeData(e->m);
  e->data = teal_mb_data_new(e->plant, &err);
  e->nv = e->m->nv;
  if (teal_plant_nv(e->plant) != e->nv || !e->data) {
    fprintf(stderr, "error: %s: nv %d in Teal, %d in MuJoCo\n", path, teal_plant_nv(e->plant),
            e->nv);
    return 1;
  }
  size_t n = (size_t)e->nv, nq = (size_t)teal_plant_nq(e->plant);
  double **arrays[] = {&e->T, &e->M, &e->Mt, &e->Mm, &e->tmp};
  for (size_t i = 0; i < 5; i++) {
    *arrays[i] = calloc(n * n + 1, sizeof(double));
  }
  e->q = calloc(nq + 1, sizeof(double));
  e->v = calloc(n + 1, sizeof(double));
  e->b = calloc(n + 1, sizeof(double));
  e->bt = calloc(n + 1, sizeof(double));
  e->tg = calloc(n + 1, sizeof(double));
  e->nu = e->m->nu;
  e->B = calloc(n * (size_t)e->nu + 1, sizeof(double));
  e->u = calloc((size_t)e->nu + 1, sizeof(double));
  if (teal_plant_nu(e->plant) != e->nu || teal_plant_make_actuation_matrix(e->plant, e->B)) {
    fprintf(stderr, "error: %s: nu %d in Teal, %d in MuJoCo\n", path, teal_plant_nu(e->plant),
            e->nu);
    return 1;
  }
  return actuators_match(e, path);
}

static void engines_free(engines *e) {
  double *arrays[] = {e->q, e->v, e->T, e->M, e->b, e->Mt, e->bt, e->tg, e->Mm, e->tmp, e->B, e->u};
  for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
    free(arrays[i]);
  }
  mj_deleteData(e->d);
  mj_deleteModel(e->m);
  teal_mb_data_free(e->data);
  teal_plant_free(e->plant);
}

static int compare_model(const char *path, double tolerance, const char *note) {
  engines e;
  int bad = engines_new(&e, path);
  double worst = bad ? 0.0 : compare_qpos0(&e), worst_u = 0.0, worst_t = 0.0;
  for (int k = 0; k < NUM_STATES && !bad; k++) {
    bad = random_state(&e);
    worst = bad ? worst : fmax(worst, compare(&e));
    worst_t = bad || e.m->ntendon == 0 ? worst_t : fmax(worst_t, compare_tendons(&e));
    worst_u = bad || e.nu == 0 ? worst_u : fmax(worst_u, compare_actuation(&e));
    /* last: it moves MuJoCo's q away from Teal's */
    worst_t = bad || e.m->ntendon == 0 ? worst_t : fmax(worst_t, compare_tendon_equalities(&e));
  }
  if (!bad) {
    const char *base = strrchr(path, '/');
    printf("  %-20s nv %3d  max |M, bias difference| %.2e%s%s\n", base ? base + 1 : path, e.nv,
           worst, worst < tolerance ? "" : "  MISMATCH", note);
    if (e.nu > 0) {
      printf("  %-20s nu %3d  max |actuator force difference| %.2e%s\n", "", e.nu, worst_u,
             worst_u < FORCE_TOLERANCE ? "" : "  MISMATCH");
    }
    if (e.m->ntendon > 0) {
      printf("  %-20s %d tendons: max |length, rate, J, force, equality difference| %.2e%s\n", "",
             e.m->ntendon, worst_t, worst_t < TOLERANCE ? "" : "  MISMATCH");
    }
    bad = !(worst < tolerance) || !(worst_u < FORCE_TOLERANCE) || !(worst_t < TOLERANCE);
  }
  engines_free(&e);
  return bad;
}
/* ---- contact pairs against MuJoCo ------------------------------------------------- */

#define MAX_PAIRS 64

/* A geometry's name without the model instance's "<instance>::" scope. */
static const char *unscoped(const char *name) {
  const char *s = strstr(name, "::");
  return s ? s + 2 : name;
}

/* Adds the pair (a, b) of names to the list unless it is there already;
 * the pair is stored ordered so both engines' pairs compare equal. */
static void add_pair(const char *pairs[][2], int *n, const char *a, const char *b) {
  const char *lo = strcmp(a, b) < 0 ? a : b, *hi = lo == a ? b : a;
  for (int i = 0; i < *n; i++) {
    if (strcmp(pairs[i][0], lo) == 0 && strcmp(pairs[i][1], hi) == 0) {
      return;
    }
  }
  if (*n < MAX_PAIRS) {
    pairs[*n][0] = lo;
    pairs[(*n)++][1] = hi;
  }
}

/* The pairs Teal's scene graph reports at the default state, into pairs
 * (names borrowed from the plant, which the diagram *sys_out owns; the
 * caller frees it, also on failure). */
static int teal_pairs(const char *path, teal_system **sys_out, const char *pairs[][2], int *n) {
  teal_error err = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, &err);
  int rc = p ? teal_mjcf_load_file(p, path, NULL, NULL, NULL, &err) : -1;
  rc = rc >= 0 ? teal_plant_finalize(p) : rc;
  teal_builder *b = rc == TEAL_OK ? teal_builder_new("contype") : NULL;
  teal_scene_graph *sg = b ? teal_add_plant_and_scene_graph(b, p, &err) : NULL;
  *sys_out = sg ? teal_builder_build(b, &err) : NULL; /* consumes the builder */
  teal_context *ctx = *sys_out ? teal_context_new(*sys_out, &err) : NULL;
  const teal_point_pair_list *list = NULL;
  if (!ctx || teal_scene_graph_eval_point_pair_penetrations(
                  sg, teal_context_subcontext(ctx, teal_scene_graph_system(sg)), &list)) {
    fprintf(stderr, "error: %s: %s\n", path, err.message);
    if (!b) {
      teal_plant_free(p);
    } else if (!sg) {
      teal_builder_free(b); /* it took the finalized plant */
    }
    teal_context_free(ctx);
    return 1;
  }
  for (int i = 0; i < list->n; i++) {
    const teal_plant_geometry *ga =
        teal_plant_get_geometry(p, teal_plant_get_geometry_from_id(p, list->pairs[i].id_A));
    const teal_plant_geometry *gb =
        teal_plant_get_geometry(p, teal_plant_get_geometry_from_id(p, list->pairs[i].id_B));
    add_pair(pairs, n, unscoped(ga->name), unscoped(gb->name));
  }
  teal_context_free(ctx);
  return 0;
}

static int compare_contact_pairs(const char *path) {
  char msg[1024] = "";
  mjModel *m = mj_loadXML(path, NULL, msg, (int)sizeof msg);
  if (!m) {
    fprintf(stderr, "error: %s: %s\n", path, msg);
    return 1;
  }
  mjData *d = mj_makeData(m);
  mj_forward(m, d);
  const char *mj[MAX_PAIRS][2], *tl[MAX_PAIRS][2];
  int nmj = 0, ntl = 0;
  for (int i = 0; i < d->ncon; i++) {
    add_pair(mj, &nmj, mj_id2name(m, mjOBJ_GEOM, d->contact[i].geom1),
             mj_id2name(m, mjOBJ_GEOM, d->contact[i].geom2));
  }
  teal_system *sys = NULL;
  int bad = teal_pairs(path, &sys, tl, &ntl);
  int same = !bad && nmj == ntl;
  for (int i = 0; same && i < nmj; i++) {
    int found = 0;
    for (int k = 0; k < ntl; k++) {
      found |= strcmp(mj[i][0], tl[k][0]) == 0 && strcmp(mj[i][1], tl[k][1]) == 0;
    }
    same = found;
  }
  const char *base = strrchr(path, '/');
  printf("  %-20s contact pairs: %d in MuJoCo, %d in Teal%s\n", base ? base + 1 : path, nmj, ntl,
         same ? ", the same" : "  MISMATCH");
  for (int i = 0; !same && i < nmj; i++) {
    printf("    MuJoCo %s-%s\n", mj[i][0], mj[i][1]);
  }
  for (int i = 0; !same && i < ntl; i++) {
    printf("    Teal   %s-%s\n", tl[i][0], tl[i][1]);
  }
  teal_system_free(sys);
  mj_deleteData(d);
  mj_deleteModel(m);
  return !same;
}
#endif

int main(int argc, char **argv) {
  bench_print_compiler();
  bench_mj_print_peer();
  int bad = load_times();
#ifdef TEAL_BENCH_HAVE_MUJOCO
  /* full_inertia.xml: MuJoCo 2.2.2 diagonalizes a fullinertia with an
   * iterative eigen-solver; its compiled inertia, turned back into a
   * matrix, differs from the one written by about 5e-8 relative (see the
   * model's comment), which gives differences of a few 1e-9 in M. Teal
   * keeps the matrix as written (tests/multibody/parsing/test_mjcf.c
   * checks it against the hand-built plant to 1e-12). */
  static const struct {
    const char *file;
    double tolerance;
    const char *note;
  } models[] = {{"acrobot.xml", TOLERANCE, ""},
                {"mixed_joints.xml", TOLERANCE, ""},
                {"arm.xml", TOLERANCE, ""},
                {"meshes.xml", TOLERANCE, ""},
                {"armature.xml", TOLERANCE, ""},
                {"geared_motors.xml", TOLERANCE, ""},
                {"contype.xml", TOLERANCE, ""},
                {"tendons.xml", TOLERANCE, ""},
                {"joint_ref.xml", TOLERANCE, ""},
                {"full_inertia.xml", 1e-7, "  (MuJoCo's compiled fullinertia: 1e-7)"}};
  printf("dynamics against MuJoCo (%d random states, tolerance %.0e)\n", NUM_STATES, TOLERANCE);
  for (int i = 1; i < argc; i++) {
    bad |= compare_model(argv[i], TOLERANCE, "");
  }
  for (size_t i = 0; argc == 1 && i < sizeof(models) / sizeof(models[0]); i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/mjcf/%s", TEAL_BENCH_MODELS_DIR, models[i].file);
    bad |= compare_model(path, models[i].tolerance, models[i].note);
  }
  if (argc == 1) {
    char path[1024];
    snprintf(path, sizeof path, "%s/mjcf/contype.xml", TEAL_BENCH_MODELS_DIR);
    printf("collision filters against MuJoCo (mj_forward's contacts)\n");
    bad |= compare_contact_pairs(path);
  }
#else
  (void)argc;
  (void)argv;
#endif
  return bad ? 1 : 0;
}
