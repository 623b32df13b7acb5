/* The multibody model container: instances, bodies, frames, joints,
 * actuators and gravity, with lookups by name (see plant_model.h). The
 * finalize step is in topology.c. */
#include "multibody/tree/plant_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "framework/system.h"
#include "geometry/hydroelastic/volume_mesh.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/plant_internal.h"

/* ---- small helpers ------------------------------------------------------ */

/* Appends one zeroed element of size elem; returns its pointer or NULL. */
void *teal_plant_list_push(teal_plant_list *l, size_t elem) {
  if (teal_grow(&l->data, &l->cap, l->n + 1, elem) != TEAL_OK) {
    return NULL;
  }
  void *e = (char *)l->data + (size_t)l->n * elem;
  memset(e, 0, elem);
  l->n++;
  return e;
}

int teal_plant_fail(teal_plant *p, int code, const char *fmt, const char *a, const char *b) {
  return teal_error_set_sticky(&p->err, code, fmt, a ? a : "(null)", b ? b : "");
}

/* Common entry checks of every add/set call. */
int teal_plant_check_open(teal_plant *p, const char *what, const char *name) {
  if (!p) {
    return TEAL_EINVAL;
  }
  if (p->err.code != TEAL_OK) {
    return p->err.code;
  }
  if (p->finalized) {
    return teal_plant_fail(p, TEAL_ESTATE, "plant: cannot add or change %s '%s' after finalize",
                           what, name);
  }
  if (!name) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: %s%s has a NULL name", what, NULL);
  }
  return TEAL_OK;
}

/* ---- construction ------------------------------------------------------- */

teal_plant *teal_plant_new(double time_step, teal_error *err) {
  if (!isfinite(time_step) || time_step < 0.0) {
    teal_error_set(err, TEAL_EINVAL, "plant: time_step %g must be finite and >= 0", time_step);
    return NULL;
  }
  teal_plant *p = teal_calloc(1, sizeof(*p));
  if (!p) {
    teal_error_set(err, TEAL_ENOMEM, "plant: out of memory");
    return NULL;
  }
  p->time_step = time_step;
  p->gravity = teal_vec3_make(0.0, 0.0, -9.81);
  int w = teal_plant_add_model_instance(p, "WorldModelInstance");
  int d = teal_plant_add_model_instance(p, "DefaultModelInstance");
  /* the world body: a placeholder inertia never used by dynamics */
  body_rec *b = w == 0 && d == 1 ? teal_plant_list_push(&p->bodies, sizeof(body_rec)) : NULL;
  frame_rec *f = b ? teal_plant_list_push(&p->frames, sizeof(frame_rec)) : NULL;
  if (f) {
    b->name = teal_strdup("world");
    f->name = teal_strdup("world");
  }
  if (!f || !b->name || !f->name) {
    teal_plant_free(p);
    teal_error_set(err, TEAL_ENOMEM, "plant: out of memory");
    return NULL;
  }
  b->inboard = -1;
  b->M_BBo_B = teal_spatial_inertia_make(0.0, teal_vec3_zero(), teal_mat3_zero());
  f->X_BF = teal_transform_identity();
  teal_plant_list_index(&p->bodies, sizeof(body_rec));
  teal_plant_list_index(&p->frames, sizeof(frame_rec));
  return p;
}

void teal_plant_destroy(teal_plant *p) {
  if (!p) {
    return;
  }
  teal_mb_trees_free(p->forest);
  teal_plant_list_free(&p->instances, sizeof(instance_rec));
  teal_plant_list_free(&p->bodies, sizeof(body_rec));
  teal_plant_list_free(&p->frames, sizeof(frame_rec));
  teal_plant_list_free(&p->joints, sizeof(joint_rec));
  teal_plant_list_free(&p->actuators, sizeof(actuator_rec));
  for (int i = 0; i < p->forces.n; i++) {
    teal_free(FORCE(p)[i].path);
    teal_free(FORCE(p)[i].coef);
  }
  teal_plant_list_free(&p->forces, sizeof(force_rec));
  for (int i = 0; i < p->geometries.n; i++) {
    teal_shape_release(&GEOM(p)[i].g.shape);
  }
  for (int i = 0; p->soft_mesh && i < p->geometries.n; i++) {
    teal_volume_mesh_free(p->soft_mesh[i]);
  }
  teal_free(p->soft_mesh);
  teal_plant_list_free(&p->geometries, sizeof(geometry_rec));
  teal_plant_list_free(&p->filter_pairs, sizeof(filter_pair_rec));
  teal_plant_list_free(&p->constraints, sizeof(constraint_rec));
  /* unnamed and never indexed (multibody/constraints/unilateral_internal.h) */
  teal_free(p->unilaterals.data);
  teal_free(p->slfrictions.data);
  teal_free(p->name);
  for (int i = 0; i < p->nblocks; i++) {
    teal_free(p->blocks[i]);
  }
  teal_free(p);
}

/* After finalize the plant belongs to its system: freeing the plant frees
 * the system unless a builder or diagram owns it (then they free both). A
 * plant given to a builder before finalize is the builder's. */
void teal_plant_free(teal_plant *p) {
  if (!p || p->sg_pending) {
    return;
  }
  if (p->system) {
    teal_system_free(p->system);
    return;
  }
  teal_plant_destroy(p);
}

const teal_error *teal_plant_error(const teal_plant *p) {
  return p ? &p->err : NULL;
}

double teal_plant_time_step(const teal_plant *p) {
  return p->time_step;
}

int teal_plant_set_name(teal_plant *p, const char *name) {
  int rc = teal_plant_check_open(p, "the plant's name to", name ? name : "(null)");
  const char *problem = rc ? NULL : teal_plant_name_problem(name);
  if (rc || problem) {
    return rc ? rc
              : teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant: set_name: the name '%s' %s",
                                      name ? name : "(null)", problem);
  }
  char *nm = teal_strdup(name);
  if (!nm) {
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory setting the name '%s'%s", name,
                           "");
  }
  teal_free(p->name);
  p->name = nm;
  return TEAL_OK;
}

const char *teal_plant_name(const teal_plant *p) {
  return !p ? NULL : p->name ? p->name : "plant";
}

int teal_plant_add_model_instance(teal_plant *p, const char *name) {
  int rc = teal_plant_check_new_name(p, "model instance", name);
  if (rc) {
    return rc;
  }
  if (teal_plant_find_name(&p->instances, sizeof(instance_rec), name, -1) >= 0) {
    return teal_plant_fail(p, TEAL_EDUPLICATE, "plant: model instance '%s' already exists%s", name,
                           NULL);
  }
  instance_rec *r = teal_plant_list_push(&p->instances, sizeof(instance_rec));
  char *nm = r ? teal_strdup(name) : NULL;
  if (!nm) {
    if (r) {
      p->instances.n--;
    }
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding model instance '%s'%s",
                           name, NULL);
  }
  r->name = nm;
  r->instance = p->instances.n - 1;
  teal_plant_list_index(&p->instances, sizeof(instance_rec));
  return p->instances.n - 1;
}

/* Checks a new element's name is unused in its instance and interns it. */
static char *new_name(teal_plant *p, const teal_plant_list *l, size_t elem, const char *what,
                      const char *name, int instance) {
  if (teal_plant_find_name(l, elem, name, instance) >= 0) {
    char msg[128];
    snprintf(msg, sizeof(msg), "plant: %s '%%s' already exists in model instance '%%s'", what);
    teal_error_set_sticky(&p->err, TEAL_EDUPLICATE, msg, name, INST(p)[instance].name);
    return NULL;
  }
  char *nm = teal_strdup(name);
  if (!nm) {
    teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding '%s'%s", name, NULL);
  }
  return nm;
}

int teal_plant_add_rigid_body(teal_plant *p, const char *name, int instance,
                              const teal_spatial_inertia *M) {
  int rc = teal_plant_check_new_name(p, "body", name);
  if (rc) {
    return rc;
  }
  if (instance <= TEAL_WORLD_MODEL_INSTANCE || instance >= p->instances.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: body '%s': invalid model instance %d", name, instance);
  }
  if (!M) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: body '%s' has a NULL spatial inertia%s", name,
                           NULL);
  }
  teal_error ierr = {0, ""};
  rc = teal_spatial_inertia_check(M, &ierr);
  if (rc) {
    return teal_plant_fail(p, rc, "plant: body '%s': invalid spatial inertia: %s", name,
                           ierr.message);
  }
  char *nm = new_name(p, &p->bodies, sizeof(body_rec), "body", name, instance);
  if (!nm) {
    return p->err.code;
  }
  body_rec *b = teal_plant_list_push(&p->bodies, sizeof(body_rec));
  frame_rec *f = b ? teal_plant_list_push(&p->frames, sizeof(frame_rec)) : NULL;
  char *fn = f ? teal_strdup(name) : NULL;
  if (!fn) {
    p->bodies.n -= b ? 1 : 0;
    p->frames.n -= f ? 1 : 0;
    teal_free(nm);
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding body '%s'%s", name, NULL);
  }
  /* the record is zeroed: no default pose or random distribution */
  b->name = nm;
  b->instance = instance;
  b->frame = p->frames.n - 1;
  b->inboard = -1;
  b->M_BBo_B = *M;
  *f = (frame_rec){fn, instance, p->bodies.n - 1, teal_transform_identity()};
  teal_plant_list_index(&p->bodies, sizeof(body_rec));
  teal_plant_list_index(&p->frames, sizeof(frame_rec));
  return p->bodies.n - 1;
}

/* Adds frame F on parent_frame at X_PF to instance (< 0: the parent's). */
static int add_frame(teal_plant *p, const char *name, int instance, int parent_frame,
                     teal_transform X_PF) {
  int rc = teal_plant_check_new_name(p, "frame", name);
  if (rc) {
    return rc;
  }
  if (parent_frame < 0 || parent_frame >= p->frames.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: frame '%s': unknown parent frame %d", name, parent_frame);
  }
  if (instance >= p->instances.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: frame '%s': unknown model instance %d", name, instance);
  }
  if (!teal_vec3_is_finite(X_PF.p) || !teal_rotation_is_orthonormal(X_PF.R, 1e-9)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: frame '%s': X_PF is not a finite rigid transform%s", name, NULL);
  }
  frame_rec parent = FRAME(p)[parent_frame];
  int inst = instance < 0 ? parent.instance : instance;
  char *nm = new_name(p, &p->frames, sizeof(frame_rec), "frame", name, inst);
  if (!nm) {
    return p->err.code;
  }
  frame_rec *f = teal_plant_list_push(&p->frames, sizeof(frame_rec));
  if (!f) {
    teal_free(nm);
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding frame '%s'%s", name, NULL);
  }
  *f = (frame_rec){nm, inst, parent.body, teal_transform_compose(parent.X_BF, X_PF)};
  teal_plant_list_index(&p->frames, sizeof(frame_rec));
  return p->frames.n - 1;
}

int teal_plant_add_frame(teal_plant *p, const char *name, int parent_frame, teal_transform X_PF) {
  return add_frame(p, name, -1, parent_frame, X_PF);
}

int teal_plant_add_frame_in_instance(teal_plant *p, const char *name, int instance,
                                     int parent_frame, teal_transform X_PF) {
  int rc = teal_plant_check_new_name(p, "frame", name);
  if (rc == TEAL_OK && instance < 0) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: frame '%s': unknown model instance %d", name, instance);
  }
  return rc ? rc : add_frame(p, name, instance, parent_frame, X_PF);
}

/* ---- joints ------------------------------------------------------------- */

static void joint_defaults(joint_rec *j) {
  for (int i = 0; i < TEAL_JOINT_MAX_NV; i++) {
    j->damping[i] = 0.0;
    j->effort[i] = INFINITY;
    j->v_lo[i] = -INFINITY;
    j->v_hi[i] = INFINITY;
    j->a_lo[i] = -INFINITY;
    j->a_hi[i] = INFINITY;
  }
  for (int i = 0; i < TEAL_JOINT_MAX_NQ; i++) {
    j->q_lo[i] = -INFINITY;
    j->q_hi[i] = INFINITY;
  }
}

/* The unit vector along a (finite, with |a| >= 1e-12) in *u; 0 if there is
 * none. Scaled by the largest component first, so |a| can neither overflow
 * (1e300, 1e300, 0) nor underflow (1e-200, 0, 0) on the way. */
static int unit_axis(teal_vec3 a, teal_vec3 *u) {
  if (!teal_vec3_is_finite(a)) {
    return 0;
  }
  double m = fmax(fabs(a.v[0]), fmax(fabs(a.v[1]), fabs(a.v[2])));
  if (!(m > 0.0)) {
    return 0;
  }
  /* divided (not multiplied by 1 / m, which overflows for a subnormal m):
   * the largest |component| becomes 1 */
  teal_vec3 s = teal_vec3_make(a.v[0] / m, a.v[1] / m, a.v[2] / m);
  double n = teal_vec3_norm(s); /* in [1, sqrt(3)] */
  if (m < 1e-12 / n) {          /* |a| = m n is below the threshold */
    return 0;
  }
  *u = teal_vec3_scale(s, 1.0 / n);
  return 1;
}

/* Validates a new joint's type, frames and axis; returns TEAL_OK or the error. */
static int check_joint(teal_plant *p, const char *name, teal_joint_kind kind, int pf, int cf,
                       const teal_vec3 *axis, double pitch) {
  if (!teal_joint_type_get(kind)) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL, "plant: joint '%s': unknown type %d", name,
                                 (int)kind);
  }
  if (pf < 0 || pf >= p->frames.n || cf < 0 || cf >= p->frames.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: joint '%s': unknown frame (parent %d, child %d)", name, pf,
                                 cf);
  }
  int pb = FRAME(p)[pf].body, cb = FRAME(p)[cf].body;
  if (pb == cb) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: joint '%s': parent and child frames are both on body '%s'", name,
                           BODY(p)[pb].name);
  }
  if (cb == TEAL_WORLD_BODY) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: joint '%s': the child frame is on the world%s",
                           name, NULL);
  }
  if (BODY(p)[cb].inboard >= 0) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                 "plant: joint '%s': body '%s' already has inboard joint '%s'",
                                 name, BODY(p)[cb].name, JOINT(p)[BODY(p)[cb].inboard].name);
  }
  int needs_axis =
      kind == TEAL_JOINT_REVOLUTE || kind == TEAL_JOINT_PRISMATIC || kind == TEAL_JOINT_SCREW;
  teal_vec3 unit;
  if (needs_axis && (!axis || !unit_axis(*axis, &unit))) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: joint '%s': axis must be finite with a norm of at least "
                           "1e-12%s",
                           name, NULL);
  }
  if (kind == TEAL_JOINT_SCREW && !isfinite(pitch)) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: joint '%s': screw pitch must be finite%s", name,
                           NULL);
  }
  return TEAL_OK;
}

/* Appends a checked joint record; returns its index (see plant_internal.h). */
int teal_plant_push_joint(teal_plant *p, const char *name, teal_joint_kind kind, int pf, int cf,
                          const teal_vec3 *axis, double pitch) {
  int cb = FRAME(p)[cf].body;
  int inst = FRAME(p)[cf].instance; /* the child body's unless the frame was put elsewhere */
  char *nm = new_name(p, &p->joints, sizeof(joint_rec), "joint", name, inst);
  if (!nm) {
    return p->err.code;
  }
  joint_rec *j = teal_plant_list_push(&p->joints, sizeof(joint_rec));
  if (!j) {
    teal_free(nm);
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding joint '%s'%s", name, NULL);
  }
  j->name = nm;
  j->instance = inst;
  j->kind = kind;
  j->parent_frame = pf;
  j->child_frame = cf;
  if (!axis || !unit_axis(*axis, &j->params.axis)) {
    j->params.axis = teal_vec3_make(0, 0, 1);
  }
  j->params.pitch = kind == TEAL_JOINT_SCREW ? pitch : 0.0;
  j->q_start = j->v_start = -1;
  joint_defaults(j);
  BODY(p)[cb].inboard = p->joints.n - 1;
  teal_plant_list_index(&p->joints, sizeof(joint_rec));
  return p->joints.n - 1;
}

int teal_plant_add_joint(teal_plant *p, const char *name, teal_joint_kind kind, int pf, int cf,
                         const teal_vec3 *axis, double pitch) {
  int rc = teal_plant_check_new_name(p, "joint", name);
  if (rc == TEAL_OK) {
    rc = check_joint(p, name, kind, pf, cf, axis, pitch);
  }
  return rc ? rc : teal_plant_push_joint(p, name, kind, pf, cf, axis, pitch);
}

/* Common checks of the joint setters; returns the joint record or NULL. */
static joint_rec *joint_for_set(teal_plant *p, int joint, const char *what, int *rc) {
  *rc = teal_plant_check_open(p, "joint", "");
  if (*rc) {
    return NULL;
  }
  if (joint < 0 || joint >= p->joints.n) {
    *rc =
        teal_error_set_sticky(&p->err, TEAL_ENOTFOUND, "plant: %s: unknown joint %d", what, joint);
    return NULL;
  }
  return &JOINT(p)[joint];
}

static int bad_values(teal_plant *p, const char *what, const joint_rec *j) {
  return teal_plant_fail(p, TEAL_EINVAL, "plant: joint '%s': invalid %s", j->name, what);
}

int teal_plant_set_joint_damping(teal_plant *p, int joint, const double *damping) {
  int rc;
  joint_rec *j = joint_for_set(p, joint, "damping", &rc);
  if (!j) {
    return rc;
  }
  int nv = teal_joint_type_get(j->kind)->nv;
  if (!damping && nv > 0) {
    return bad_values(p, "damping (NULL array)", j);
  }
  for (int i = 0; i < nv; i++) {
    if (!isfinite(damping[i]) || damping[i] < 0.0) {
      return bad_values(p, "damping (must be finite and >= 0)", j);
    }
  }
  memcpy(j->damping, damping, (size_t)nv * sizeof(double));
  return TEAL_OK;
}

static int set_limits(teal_plant *p, joint_rec *j, int n, const double *lo, const double *hi,
                      double *dlo, double *dhi, const char *what) {
  if ((!lo || !hi) && n > 0) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: joint '%s': invalid %s: NULL array", j->name,
                           what);
  }
  for (int i = 0; i < n; i++) {
    if (isnan(lo[i]) || isnan(hi[i]) || lo[i] > hi[i]) {
      return bad_values(p, what, j);
    }
  }
  memcpy(dlo, lo, (size_t)n * sizeof(double));
  memcpy(dhi, hi, (size_t)n * sizeof(double));
  return TEAL_OK;
}

int teal_plant_set_joint_position_limits(teal_plant *p, int joint, const double *lower,
                                         const double *upper) {
  int rc;
  joint_rec *j = joint_for_set(p, joint, "position limits", &rc);
  return j ? set_limits(p, j, teal_joint_type_get(j->kind)->nq, lower, upper, j->q_lo, j->q_hi,
                        "position limits (need lower <= upper)")
           : rc;
}

int teal_plant_set_joint_velocity_limits(teal_plant *p, int joint, const double *lower,
                                         const double *upper) {
  int rc;
  joint_rec *j = joint_for_set(p, joint, "velocity limits", &rc);
  return j ? set_limits(p, j, teal_joint_type_get(j->kind)->nv, lower, upper, j->v_lo, j->v_hi,
                        "velocity limits (need lower <= upper)")
           : rc;
}

int teal_plant_set_joint_effort_limits(teal_plant *p, int joint, const double *limit) {
  int rc;
  joint_rec *j = joint_for_set(p, joint, "effort limits", &rc);
  if (!j) {
    return rc;
  }
  int nv = teal_joint_type_get(j->kind)->nv;
  if (!limit && nv > 0) {
    return bad_values(p, "effort limits (NULL array)", j);
  }
  for (int i = 0; i < nv; i++) {
    if (isnan(limit[i]) || limit[i] <= 0.0) {
      return bad_values(p, "effort limits (must be > 0)", j);
    }
  }
  memcpy(j->effort, limit, (size_t)nv * sizeof(double));
  return TEAL_OK;
}

int teal_plant_add_joint_actuator(teal_plant *p, const char *name, int joint, double effort_limit) {
  int rc = teal_plant_check_new_name(p, "actuator", name);
  if (rc) {
    return rc;
  }
  if (joint < 0 || joint >= p->joints.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND, "plant: actuator '%s': unknown joint %d",
                                 name, joint);
  }
  const joint_rec *j = &JOINT(p)[joint];
  if (teal_joint_type_get(j->kind)->nv != 1) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: actuator '%s': joint '%s' does not have one dof",
                           name, j->name);
  }
  if (isnan(effort_limit) || effort_limit <= 0.0) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: actuator '%s': effort limit must be > 0%s", name,
                           NULL);
  }
  char *nm = new_name(p, &p->actuators, sizeof(actuator_rec), "actuator", name, j->instance);
  if (!nm) {
    return p->err.code;
  }
  actuator_rec *a = teal_plant_list_push(&p->actuators, sizeof(actuator_rec));
  if (!a) {
    teal_free(nm);
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding actuator '%s'%s", name,
                           NULL);
  }
  *a = (actuator_rec){nm, j->instance, joint, -1, effort_limit, 0.0, 1.0, 1.0};
  teal_plant_list_index(&p->actuators, sizeof(actuator_rec));
  return p->actuators.n - 1;
}

int teal_plant_set_gravity(teal_plant *p, teal_vec3 g) {
  if (!p) {
    return TEAL_EINVAL;
  }
  if (!teal_vec3_is_finite(g)) {
    return teal_error_set(&p->err, TEAL_EINVAL, "plant: gravity must be finite");
  }
  p->gravity = g;
  return TEAL_OK;
}

teal_vec3 teal_plant_gravity(const teal_plant *p) {
  return p->gravity;
}

/* ---- lookups ------------------------------------------------------------ */

/* How many instances hold a record named name; *first and *second get the
 * lowest two such records (-1 when there are fewer). Names are unique
 * within an instance, so one probe per instance counts them. */
static int count_named(const teal_plant *p, const teal_plant_list *l, size_t elem, const char *name,
                       int *first, int *second) {
  int n = 0;
  *first = *second = -1;
  if (teal_plant_find_name(l, elem, name, -1) < 0) {
    return 0; /* one probe settles an unknown name */
  }
  for (int k = 0; k < p->instances.n; k++) {
    int i = teal_plant_find_name(l, elem, name, k);
    if (i < 0) {
      continue;
    }
    n++;
    if (*first < 0 || i < *first) {
      *second = *first;
      *first = i;
    } else if (*second < 0 || i < *second) {
      *second = i;
    }
  }
  return n;
}

/* The instance of record i of l (records start with (name, instance)). */
static int rec_instance(const teal_plant_list *l, size_t elem, int i) {
  return *(const int *)((const char *)l->data + (size_t)i * elem + sizeof(char *));
}

/* With instance < 0, the one record named name in any instance (-1 when
 * none); a name held by several instances is ambiguous (Drake's
 * Get*ByName throws then): *rc = TEAL_EINVAL. */
static int lookup_any(const teal_plant *p, const teal_plant_list *l, size_t elem, const char *what,
                      const char *name, teal_error *err, int *rc) {
  int first, second;
  int n = count_named(p, l, elem, name, &first, &second);
  if (n <= 1) {
    return first;
  }
  *rc = teal_error_set(err, TEAL_EINVAL,
                       "plant: %s name '%s' is ambiguous: model instances '%s' and '%s'%s hold "
                       "one; pass the model instance",
                       what, name, INST(p)[rec_instance(l, elem, first)].name,
                       INST(p)[rec_instance(l, elem, second)].name, n > 2 ? " (and more)" : "");
  return -1;
}

/* l is the plant's list of that kind of element (p is not NULL). */
static int lookup(const teal_plant *p, const teal_plant_list *l, size_t elem, const char *what,
                  const char *name, int instance, teal_error *err) {
  if (!p) {
    return teal_error_set(err, TEAL_EINVAL, "plant: looking up %s '%s': NULL plant", what,
                          name ? name : "(null)");
  }
  int i = -1, rc = TEAL_OK;
  if (name && instance < 0 && l != &p->instances) {
    i = lookup_any(p, l, elem, what, name, err, &rc);
    if (rc) {
      return rc;
    }
  } else if (name) {
    i = teal_plant_find_name(l, elem, name, instance);
  }
  if (i < 0) {
    return teal_error_set(err, TEAL_ENOTFOUND, "plant: no %s named '%s'", what,
                          name ? name : "(null)");
  }
  return i;
}

int teal_plant_get_model_instance_by_name(const teal_plant *p, const char *name, teal_error *err) {
  return lookup(p, p ? &p->instances : NULL, sizeof(instance_rec), "model instance", name, -1, err);
}

int teal_plant_get_body_by_name(const teal_plant *p, const char *name, int instance,
                                teal_error *err) {
  return lookup(p, p ? &p->bodies : NULL, sizeof(body_rec), "body", name, instance, err);
}

int teal_plant_get_frame_by_name(const teal_plant *p, const char *name, int instance,
                                 teal_error *err) {
  return lookup(p, p ? &p->frames : NULL, sizeof(frame_rec), "frame", name, instance, err);
}

int teal_plant_get_joint_by_name(const teal_plant *p, const char *name, int instance,
                                 teal_error *err) {
  return lookup(p, p ? &p->joints : NULL, sizeof(joint_rec), "joint", name, instance, err);
}

int teal_plant_get_actuator_by_name(const teal_plant *p, const char *name, int instance,
                                    teal_error *err) {
  return lookup(p, p ? &p->actuators : NULL, sizeof(actuator_rec), "actuator", name, instance, err);
}

int teal_plant_num_bodies_with_name(const teal_plant *p, const char *name) {
  if (!p || !name) {
    return TEAL_EINVAL;
  }
  int first, second;
  return count_named(p, &p->bodies, sizeof(body_rec), name, &first, &second);
}

/* ---- element queries ---------------------------------------------------- */

int teal_plant_num_model_instances(const teal_plant *p) {
  return p->instances.n;
}
int teal_plant_num_bodies(const teal_plant *p) {
  return p->bodies.n;
}
int teal_plant_num_frames(const teal_plant *p) {
  return p->frames.n;
}
int teal_plant_num_joints(const teal_plant *p) {
  return p->joints.n;
}
int teal_plant_num_actuators(const teal_plant *p) {
  return p->actuators.n;
}
const char *teal_plant_body_name(const teal_plant *p, int b) {
  return b >= 0 && b < p->bodies.n ? BODY(p)[b].name : NULL;
}
const char *teal_plant_frame_name(const teal_plant *p, int f) {
  return f >= 0 && f < p->frames.n ? FRAME(p)[f].name : NULL;
}
const char *teal_plant_joint_name(const teal_plant *p, int j) {
  return j >= 0 && j < p->joints.n ? JOINT(p)[j].name : NULL;
}
int teal_plant_body_frame(const teal_plant *p, int b) {
  return b >= 0 && b < p->bodies.n ? BODY(p)[b].frame : -1;
}
int teal_plant_body_instance(const teal_plant *p, int b) {
  return b >= 0 && b < p->bodies.n ? BODY(p)[b].instance : -1;
}
int teal_plant_frame_body(const teal_plant *p, int f) {
  return f >= 0 && f < p->frames.n ? FRAME(p)[f].body : -1;
}
const teal_transform *teal_plant_frame_pose_in_body(const teal_plant *p, int f) {
  return f >= 0 && f < p->frames.n ? &FRAME(p)[f].X_BF : NULL;
}
int teal_plant_joint_kind(const teal_plant *p, int j) {
  return j >= 0 && j < p->joints.n ? JOINT(p)[j].kind : -1;
}
int teal_plant_joint_parent_body(const teal_plant *p, int j) {
  return j >= 0 && j < p->joints.n ? FRAME(p)[JOINT(p)[j].parent_frame].body : -1;
}
int teal_plant_joint_child_body(const teal_plant *p, int j) {
  return j >= 0 && j < p->joints.n ? FRAME(p)[JOINT(p)[j].child_frame].body : -1;
}
