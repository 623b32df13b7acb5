/* The plant's leaf system: declaration of its ports, state, cache entries
 * and hooks (see plant_system.h). The callbacks live in plant_calc.c and
 * plant_discrete.c. */
#include "multibody/plant/plant_system.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/plant/discrete_constraints_internal.h"
#include "multibody/plant/error_weights_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/topology.h"

static const char plant_tag = 0; /* identifies plant systems */

/* ---- per-instance index maps ------------------------------------------------ */

static int *plant_block(teal_plant *p, size_t n) {
  if (p->nblocks >= (int)(sizeof(p->blocks) / sizeof(p->blocks[0]))) {
    return NULL;
  }
  int *m = teal_calloc(n ? n : 1, sizeof(int));
  if (m) {
    p->blocks[p->nblocks++] = m;
  }
  return m;
}

/* The instance of tree node k's inboard joint. */
static int node_instance(const teal_plant *p, int k) {
  return JOINT(p)[BODY(p)[p->node_body[k]].inboard].instance;
}

/* Lists, per instance, the actuators and the q and v indices of its joints
 * (in node order): a counting sort by instance, O(instances + nu + nb). */
static void fill_instance_lists(teal_plant *p) {
  plant_sys *s = &p->sys;
  int ni = p->instances.n, nn = p->tree.num_nodes;
  for (int a = 0; a < p->nu; a++) {
    s->inst_act_count[ACT(p)[a].instance]++;
  }
  for (int k = 1; k < nn; k++) {
    s->inst_q_count[node_instance(p, k)] += p->tree.nq[k];
    s->inst_v_count[node_instance(p, k)] += p->tree.nv[k];
  }
  for (int i = 1; i < ni; i++) {
    s->inst_act_start[i] = s->inst_act_start[i - 1] + s->inst_act_count[i - 1];
    s->inst_q_start[i] = s->inst_q_start[i - 1] + s->inst_q_count[i - 1];
    s->inst_v_start[i] = s->inst_v_start[i - 1] + s->inst_v_count[i - 1];
  }
  int *na = s->out_gcf_inst, *cq = s->in_u_inst, *cv = s->out_state_inst; /* cursors, reset below */
  for (int i = 0; i < ni; i++) {
    na[i] = s->inst_act_start[i];
    cq[i] = s->inst_q_start[i];
    cv[i] = s->inst_v_start[i];
  }
  for (int a = 0; a < p->nu; a++) {
    s->act_list[na[ACT(p)[a].instance]++] = a;
  }
  for (int k = 1; k < nn; k++) {
    int i = node_instance(p, k);
    for (int r = 0; r < p->tree.nq[k]; r++) {
      s->q_list[cq[i]++] = p->tree.q_start[k] + r;
    }
    for (int r = 0; r < p->tree.nv[k]; r++) {
      s->v_list[cv[i]++] = p->tree.v_start[k] + r;
    }
  }
  for (int i = 0; i < ni; i++) {
    na[i] = cq[i] = cv[i] = 0; /* declared later as ports */
  }
}

/* Lists, per instance, the actuators and the q and v indices of its joints
 * (in node order), and the dofs that have finite position limits. */
static int build_maps(teal_plant *p) {
  plant_sys *s = &p->sys;
  int ni = p->instances.n, nq = p->nq, nv = p->nv, nu = p->nu;
  int *m = plant_block(p, 11 * (size_t)ni + 1 + (size_t)nu + (size_t)nq + 2 * (size_t)nv);
  if (!m) {
    return TEAL_ENOMEM;
  }
  s->in_u_inst = m;
  s->out_state_inst = m + ni;
  s->inst_act_start = m + 2 * ni;
  s->inst_act_count = m + 3 * ni;
  s->inst_q_start = m + 4 * ni;
  s->inst_q_count = m + 5 * ni;
  s->inst_v_start = m + 6 * ni;
  s->inst_v_count = m + 7 * ni;
  s->out_gcf_inst = m + 8 * ni;
  s->out_vdot_inst = m + 9 * ni;
  s->act_list = m + 10 * ni;
  s->q_list = s->act_list + nu;
  s->v_list = s->q_list + nq;
  s->limit_dofs = s->v_list + nv;
  s->u_tickets = s->limit_dofs + nv; /* [1 + ni], filled by declare_inputs */
  fill_instance_lists(p);
  s->nlimits = 0;
  for (int k = 1; k < p->tree.num_nodes; k++) {
    int q0 = p->tree.q_start[k];
    if (p->tree.nq[k] == 1 && p->tree.nv[k] == 1 &&
        (isfinite(p->tree.q_lower[q0]) || isfinite(p->tree.q_upper[q0]))) {
      s->limit_dofs[s->nlimits++] = k;
    }
  }
  return TEAL_OK;
}

/* ---- declaration ----------------------------------------------------------- */

/* The per-instance port names "<instance><suffix>" are written into one
 * buffer as long as the longest needs (a fixed buffer would cut long names,
 * and two instances could then clash). */
typedef struct port_names {
  char *buf;
  size_t room;
} port_names;

#define LONGEST_PORT_SUFFIX "_generalized_contact_forces"

static const char *instance_port_name(const port_names *n, const teal_plant *p, int i,
                                      const char *suffix) {
  snprintf(n->buf, n->room, "%s%s", INST(p)[i].name, suffix);
  return n->buf;
}

static void set_types(teal_plant *p) {
  plant_sys *s = &p->sys;
  s->forces_type =
      (teal_value_type){"teal_plant_applied_forces", teal_plant_forces_bytes(p), NULL, NULL, NULL};
}

/* Tickets of q-only and (q, v) quantities for the state layout in use. */
static int position_tickets(const teal_plant *p, teal_ticket *t) {
  t[0] = p->sys.discrete ? teal_ticket_discrete(0) : TEAL_TICKET_Q;
  t[1] = TEAL_TICKET_ALL_PARAMETERS;
  return 2;
}

static int velocity_tickets(const teal_plant *p, teal_ticket *t) {
  int n = position_tickets(p, t);
  if (!p->sys.discrete) {
    t[n++] = TEAL_TICKET_V;
  }
  return n;
}

static void declare_inputs(teal_system *sys, teal_plant *p, const port_names *names) {
  plant_sys *s = &p->sys;
  s->in_u = teal_leaf_declare_vector_input(sys, "actuation", p->nu);
  for (int i = 0; i < p->instances.n; i++) {
    const char *name = instance_port_name(names, p, i, "_actuation");
    s->in_u_inst[i] = teal_leaf_declare_vector_input(sys, name, s->inst_act_count[i]);
  }
  s->in_tau = teal_leaf_declare_vector_input(sys, "applied_generalized_force", p->nv);
  s->in_F = teal_leaf_declare_abstract_input(sys, "applied_spatial_force",
                                             &teal_applied_spatial_force_list_type);
  s->in_query = teal_leaf_declare_abstract_input(sys, "geometry_query", &teal_point_pair_list_type);
  /* the actuation stage depends on the actuation ports alone */
  s->u_tickets[0] = teal_ticket_input(s->in_u);
  for (int i = 0; i < p->instances.n; i++) {
    s->u_tickets[1 + i] = teal_ticket_input(s->in_u_inst[i]);
  }
}

/* The state [q; v] from x0 (nq + nv defaults, v zero), its update, the
 * parameters (gravity, body inertias, joint damping; x0 is reused for the
 * inertias) and the per-context scratch. */
static void declare_state(teal_system *sys, teal_plant *p, double *x0) {
  plant_sys *s = &p->sys;
  int nx = p->nq + p->nv;
  teal_plant_default_q(p, x0);
  if (s->discrete) {
    teal_leaf_declare_discrete_state(sys, nx, x0);
    teal_leaf_declare_periodic_discrete_update(sys, p->time_step, 0.0, teal_plant_discrete_update,
                                               p);
  } else {
    teal_leaf_declare_continuous_state(sys, p->nq, p->nv, 0, x0);
    teal_leaf_set_time_derivatives(sys, teal_plant_derivatives, p);
    teal_leaf_set_projection(sys, teal_plant_project, p);
    if (p->nc_rows > 0) { /* else the hook has nothing to remove: spare the step the call */
      teal_leaf_set_error_projection(sys, teal_plant_project_error, p);
    }
    teal_leaf_set_implicit_time_derivatives_residual(sys, teal_plant_implicit_residual, p);
  }
  double g[3] = {p->gravity.v[0], p->gravity.v[1], p->gravity.v[2]};
  s->param_gravity = teal_leaf_declare_numeric_parameter(sys, 3, g);
  teal_plant_default_inertia_parameter(p, x0);
  s->param_inertia =
      teal_leaf_declare_numeric_parameter(sys, teal_plant_inertia_parameter_size(p), x0);
  s->param_damping = teal_leaf_declare_numeric_parameter(sys, p->nv, p->tree.damping);
  s->param_contact = teal_leaf_declare_numeric_parameter(sys, 1, &p->contact.version);
  memset(x0, 0, (size_t)p->nv * sizeof(double)); /* no joint starts locked */
  s->param_locks = teal_leaf_declare_numeric_parameter(sys, p->nv, x0);
  s->param_constraints = teal_plant_declare_constraint_parameter(sys, p);
  s->param_rotor = teal_plant_declare_rotor_parameter(sys, p);
  s->param_weights = teal_plant_declare_error_weight_parameter(sys, p);
  teal_plant_scratch model;
  memset(&model, 0, sizeof(model));
  model.plant = p;
  model.declaration = 1;
  s->scratch =
      teal_leaf_declare_scratch(sys, "multibody_data", &teal_plant_scratch_type, &model);
}

/* ---- the pipeline ---------------------------------------------------------- */

/* What a stage's value depends on: q (and the parameters), q and v, the
 * actuation input ports, or everything its calc reads (the framework's
 * default). */
typedef enum stage_prereq {
  PREREQ_POSITION,
  PREREQ_VELOCITY,
  PREREQ_ACTUATION,
  PREREQ_ALL
} stage_prereq;

/* One stage of the plant's computation, declared as a cache entry: a
 * vector entry (calc_vector, size) or an abstract one (calc_abstract,
 * type). slot is where its index lives in plant_sys. */
typedef struct plant_stage {
  const char *name;
  size_t slot;
  stage_prereq prereq;
  int discrete_only;
  teal_vector_calc_fn calc_vector;
  int (*size)(const teal_plant *p);
  teal_abstract_calc_fn calc_abstract;
  const teal_value_type *(*type)(const teal_plant *p);
} plant_stage;

static int one(const teal_plant *p) {
  (void)p;
  return 1;
}
/* The dense mass matrix is kept (nv^2 doubles) up to
 * TEAL_PLANT_DENSE_MAX_BYTES; beyond it its entry is empty and evaluating
 * it fails (mass_matrix_calc). nv <= INT_MAX / 8, so the product fits. */
static int mass_matrix_kept(const teal_plant *p) {
  size_t nv = (size_t)p->nv;
  return nv * nv <= TEAL_PLANT_DENSE_MAX_BYTES / sizeof(double);
}
static int mass_matrix_size(const teal_plant *p) {
  return mass_matrix_kept(p) ? p->nv * p->nv : 0;
}
/* The mass_matrix stage: the CRBA, or TEAL_ESIZE naming the size the
 * matrix would take when it is not kept. */
static int mass_matrix_calc(const teal_system *sys, const teal_context *ctx, double *out,
                            void *user) {
  const teal_plant *p = user;
  if (mass_matrix_kept(p)) {
    return teal_plant_calc_mass_matrix(sys, ctx, out, user);
  }
  double mib = (double)p->nv * (double)p->nv * (double)sizeof(double) / (1024.0 * 1024.0);
  return teal_context_report_error(
      ctx, TEAL_ESIZE,
      "plant eval_mass_matrix: the dense mass matrix of a plant with %d bodies and nv = %d "
      "would take %d x %d doubles (%.0f MiB), more than the %d MiB a context keeps for it; "
      "use teal_mb_mass_matrix with a buffer of your own",
      p->bodies.n, p->nv, p->nv, p->nv, mib, (int)(TEAL_PLANT_DENSE_MAX_BYTES >> 20));
}
/* the next state, the constraints' multipliers (discrete_constraints.h),
 * the held dofs' forces (plant_discrete.c), the compliant rows' tensions */
static int step_size(const teal_plant *p) {
  return p->nq + p->nv + p->nc_rows + p->nv + teal_discrete_compliant_rows(p);
}
static int nv_size(const teal_plant *p) {
  return p->nv;
}
/* The kinematics stages are lists (one entry per body), so the body_*
 * output ports can be those very entries. */
static const teal_value_type *poses_type(const teal_plant *p) {
  (void)p;
  return &teal_transform_list_type;
}
static const teal_value_type *vels_type(const teal_plant *p) {
  (void)p;
  return &teal_spatial_vector_list_type;
}
/* the multipliers (m) then the constrained accelerations (nv) */
static int lambda_size(const teal_plant *p) {
  return p->nc_rows + p->nv;
}
static const teal_value_type *forces_type(const teal_plant *p) {
  return &p->sys.forces_type;
}
static const teal_value_type *contacts_type(const teal_plant *p) {
  (void)p;
  return &teal_contact_results_type;
}

/* The plant's computation in stage order, as mj_forward lists MuJoCo's:
 * the multibody data's position stage (the marker its algorithms trust, so
 * they never compare q), kinematics, mass matrix, actuation, applied
 * forces, contact, the discrete step, accelerations. Each stage reads only
 * the ones above it;
 * actuation depends on the actuation ports alone, so the check that the
 * whole-plant and per-instance ports are not both used runs once per new
 * input value rather than at every evaluation of the forces. */
static const plant_stage k_stages[] = {
    {"multibody_position_stage", offsetof(plant_sys, ce_stage), PREREQ_POSITION, 0,
     teal_plant_calc_position_stage, one, NULL, NULL},
    {"position_kinematics", offsetof(plant_sys, ce_poses), PREREQ_POSITION, 0, NULL, NULL,
     teal_plant_calc_poses, poses_type},
    {"velocity_kinematics", offsetof(plant_sys, ce_vels), PREREQ_VELOCITY, 0, NULL, NULL,
     teal_plant_calc_velocities, vels_type},
    {"mass_matrix", offsetof(plant_sys, ce_M), PREREQ_POSITION, 0, mass_matrix_calc,
     mass_matrix_size, NULL, NULL},
    {"actuation", offsetof(plant_sys, ce_u), PREREQ_ACTUATION, 0, teal_plant_calc_actuation,
     nv_size, NULL, NULL},
    {"applied_forces", offsetof(plant_sys, ce_forces), PREREQ_ALL, 0, NULL, NULL,
     teal_plant_calc_applied_forces, forces_type},
    {"contact_results", offsetof(plant_sys, ce_contacts), PREREQ_ALL, 0, NULL, NULL,
     teal_plant_calc_contact_results, contacts_type},
    {"discrete_step", offsetof(plant_sys, ce_step), PREREQ_ALL, 1, teal_plant_calc_discrete_step,
     step_size, NULL, NULL},
    {"constrained_accelerations", offsetof(plant_sys, ce_lambda), PREREQ_ALL, 0,
     teal_plant_calc_constrained_accelerations_stage, lambda_size, NULL, NULL},
    {"generalized_acceleration", offsetof(plant_sys, ce_vdot), PREREQ_ALL, 0, teal_plant_calc_vdot,
     nv_size, NULL, NULL},
    {"body_accelerations", offsetof(plant_sys, ce_accs), PREREQ_ALL, 0, NULL, NULL,
     teal_plant_calc_accelerations, vels_type},
};

/* Declares one stage; its index goes to its slot (-1 when it does not apply). */
static void declare_stage(teal_system *sys, teal_plant *p, const plant_stage *st) {
  int *slot = (int *)((char *)&p->sys + st->slot);
  if (st->discrete_only && !p->sys.discrete) {
    *slot = -1;
    return;
  }
  teal_ticket t[3];
  int n = st->prereq == PREREQ_POSITION   ? position_tickets(p, t)
          : st->prereq == PREREQ_VELOCITY ? velocity_tickets(p, t)
                                          : 0;
  const teal_ticket *prereqs = n ? t : NULL;
  if (st->prereq == PREREQ_ACTUATION) {
    n = 1 + p->instances.n;
    prereqs = p->sys.u_tickets;
  }
  *slot = st->calc_vector ? teal_leaf_declare_cache_entry(sys, st->name, st->size(p),
                                                          st->calc_vector, p, prereqs, n)
                          : teal_leaf_declare_abstract_cache_entry(
                                sys, st->name, st->type(p), st->calc_abstract, p, prereqs, n);
}

static void declare_cache(teal_system *sys, teal_plant *p) {
  for (size_t i = 0; i < sizeof(k_stages) / sizeof(k_stages[0]); i++) {
    declare_stage(sys, p, &k_stages[i]);
  }
}

static void declare_contact_outputs(teal_system *sys, teal_plant *p, const port_names *names) {
  plant_sys *s = &p->sys;
  s->out_geometry_pose =
      teal_leaf_declare_output_from_cache_entry(sys, "geometry_pose", s->ce_poses);
  s->out_contacts =
      teal_leaf_declare_output_from_cache_entry(sys, "contact_results", s->ce_contacts);
  s->out_gcf =
      teal_leaf_declare_vector_output(sys, "generalized_contact_forces", p->nv,
                                      teal_plant_output_generalized_contact_forces, p, NULL, 0);
  for (int i = 0; i < p->instances.n; i++) {
    const char *name = instance_port_name(names, p, i, LONGEST_PORT_SUFFIX);
    s->out_gcf_inst[i] = teal_leaf_declare_vector_output(
        sys, name, s->inst_v_count[i], teal_plant_output_instance_generalized_contact_forces,
        &s->out_gcf_inst[i], NULL, 0);
  }
}

static void declare_outputs(teal_system *sys, teal_plant *p, const port_names *names) {
  plant_sys *s = &p->sys;
  teal_ticket vel[3];
  int nvel = velocity_tickets(p, vel);
  s->out_state = teal_leaf_declare_vector_output(sys, "state", p->nq + p->nv,
                                                 teal_plant_output_state, p, vel, nvel);
  for (int i = 0; i < p->instances.n; i++) {
    const char *name = instance_port_name(names, p, i, "_state");
    s->out_state_inst[i] = teal_leaf_declare_vector_output(
        sys, name, s->inst_q_count[i] + s->inst_v_count[i], teal_plant_output_instance_state,
        &s->out_state_inst[i], vel, nvel);
  }
  s->out_vdot =
      teal_leaf_declare_output_from_cache_entry(sys, "generalized_acceleration", s->ce_vdot);
  for (int i = 0; i < p->instances.n; i++) {
    const char *name = instance_port_name(names, p, i, "_generalized_acceleration");
    s->out_vdot_inst[i] = teal_leaf_declare_vector_output(
        sys, name, s->inst_v_count[i], teal_plant_output_instance_generalized_acceleration,
        &s->out_vdot_inst[i], NULL, 0);
  }
  s->out_poses = teal_leaf_declare_output_from_cache_entry(sys, "body_poses", s->ce_poses);
  s->out_vels =
      teal_leaf_declare_output_from_cache_entry(sys, "body_spatial_velocities", s->ce_vels);
  s->out_accs =
      teal_leaf_declare_output_from_cache_entry(sys, "body_spatial_accelerations", s->ce_accs);
  s->out_reactions =
      teal_leaf_declare_abstract_output(sys, "reaction_forces", &teal_spatial_vector_list_type,
                                        teal_plant_output_reactions, p, NULL, 0);
  s->out_multipliers =
      teal_leaf_declare_vector_output(sys, "constraint_multipliers", p->nc_rows,
                                      teal_plant_output_constraint_multipliers, p, NULL, 0);
}

/* The system's user_free: the plant dies with its system once built. */
static void release_plant(void *user) {
  teal_plant *p = user;
  if (p->sys.ready) {
    p->system = NULL;
    teal_plant_destroy(p);
  }
}

int teal_plant_system_create(teal_plant *p) {
  p->sys.discrete = p->time_step > 0.0;
  teal_plant_contact_defaults(p);
  int rc = teal_plant_hydro_finalize(p);
  rc = rc ? rc : teal_plant_constraints_finalize(p);
  if (rc) {
    return rc;
  }
  rc = build_maps(p);
  port_names names = {NULL, sizeof(LONGEST_PORT_SUFFIX)};
  for (int i = 0; i < p->instances.n; i++) {
    size_t n = strlen(INST(p)[i].name) + sizeof(LONGEST_PORT_SUFFIX);
    names.room = n > names.room ? n : names.room;
  }
  int nx0 = p->nq + p->nv, ninertia = teal_plant_inertia_parameter_size(p);
  nx0 = nx0 > ninertia ? nx0 : ninertia;
  double *x0 = rc ? NULL : teal_calloc((size_t)nx0 + 1, sizeof(double));
  names.buf = x0 ? teal_alloc(names.room) : NULL;
  teal_system *sys = names.buf ? teal_leaf_new(teal_plant_name(p), p, release_plant) : NULL;
  if (!sys) {
    teal_free(x0);
    teal_free(names.buf);
    return teal_error_set_sticky(&p->err, TEAL_ENOMEM,
                                 "plant: finalize: out of memory building its system (%d "
                                 "instances, %d bodies, nq = %d, nv = %d)",
                                 p->instances.n, p->bodies.n, p->nq, p->nv);
  }
  set_types(p);
  declare_inputs(sys, p, &names);
  declare_state(sys, p, x0);
  teal_free(x0);
  declare_cache(sys, p);
  declare_outputs(sys, p, &names);
  declare_contact_outputs(sys, p, &names);
  teal_free(names.buf);
  teal_leaf_declare_initialization_publish(sys, teal_plant_size_outputs, p);
  teal_leaf_set_velocity_map(sys, teal_plant_v_to_qdot, teal_plant_qdot_to_v, p);
  teal_leaf_set_energy(sys, teal_plant_potential_energy_cb, teal_plant_kinetic_energy_cb, p);
  teal_leaf_set_jacobian(sys, teal_plant_jacobian, p); /* analytic where it can (continuous) */
  teal_leaf_set_type_tag(sys, &plant_tag);
  rc = teal_leaf_finalize(sys);
  if (rc) {
    char msg[TEAL_ERROR_MESSAGE_MAX];
    snprintf(msg, sizeof(msg), "%s", teal_system_error(sys)->message);
    teal_system_free(sys);
    return teal_plant_fail(p, rc, "plant: building its system failed: %s%s", msg, NULL);
  }
  p->sys.ready = 1;
  p->system = sys;
  return TEAL_OK;
}

/* ---- lookups ----------------------------------------------------------------- */

teal_system *teal_plant_system(teal_plant *p) {
  return p ? p->system : NULL;
}

const teal_context *teal_plant_own_context(const teal_plant *p, const teal_context *ctx) {
  return p ? teal_leaf_util_own_context(p->system, &plant_tag, ctx, NULL) : NULL;
}

teal_plant *teal_plant_from_system(const teal_system *sys) {
  return sys && teal_system_type_tag(sys) == &plant_tag ? teal_system_user(sys) : NULL;
}

static int port_or_state(const teal_plant *p, int port) {
  return !p ? TEAL_EINVAL : !p->system ? TEAL_ESTATE : port;
}

static int instance_port(const teal_plant *p, const int *ports, int instance) {
  if (!p || !p->system) {
    return p ? TEAL_ESTATE : TEAL_EINVAL;
  }
  return instance >= 0 && instance < p->instances.n ? ports[instance] : TEAL_ENOTFOUND;
}

int teal_plant_actuation_input_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.in_u : 0);
}
int teal_plant_instance_actuation_input_port(const teal_plant *p, int instance) {
  return instance_port(p, p ? p->sys.in_u_inst : NULL, instance);
}
int teal_plant_applied_generalized_force_input_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.in_tau : 0);
}
int teal_plant_applied_spatial_force_input_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.in_F : 0);
}
int teal_plant_state_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_state : 0);
}
int teal_plant_instance_state_output_port(const teal_plant *p, int instance) {
  return instance_port(p, p ? p->sys.out_state_inst : NULL, instance);
}
int teal_plant_generalized_acceleration_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_vdot : 0);
}
int teal_plant_instance_generalized_acceleration_output_port(const teal_plant *p, int instance) {
  return instance_port(p, p ? p->sys.out_vdot_inst : NULL, instance);
}
int teal_plant_body_poses_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_poses : 0);
}
int teal_plant_body_spatial_velocities_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_vels : 0);
}
int teal_plant_body_spatial_accelerations_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_accs : 0);
}
int teal_plant_reaction_forces_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_reactions : 0);
}

int teal_plant_geometry_query_input_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.in_query : 0);
}
int teal_plant_geometry_pose_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_geometry_pose : 0);
}
int teal_plant_contact_results_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_contacts : 0);
}
int teal_plant_generalized_contact_forces_output_port(const teal_plant *p) {
  return port_or_state(p, p ? p->sys.out_gcf : 0);
}
int teal_plant_instance_generalized_contact_forces_output_port(const teal_plant *p, int instance) {
  return instance_port(p, p ? p->sys.out_gcf_inst : NULL, instance);
}
