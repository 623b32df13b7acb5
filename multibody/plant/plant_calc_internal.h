/* Private to multibody/: the plant system's callbacks and per-context
 * scratch, shared by plant_system.c (declarations and the stage table),
 * plant_scratch.c (the scratch), plant_calc.c (the stages), plant_outputs.c,
 * plant_hooks.c, plant_state.c (context access) and plant_discrete.c (the
 * time-step update, whose working memory is step_data_internal.h's). */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_CALC_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_PLANT_CALC_INTERNAL_H

#include "framework/context.h"
#include "framework/system.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/rnea_derivatives.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/plant/step_data_internal.h"
#include "multibody/tree/plant_internal.h"

/* Per-context scratch: the multibody data and, for a discrete plant, the
 * working memory of its time step, made when the context is created (by
 * the copy hook, from the model {plant, NULL}). */
typedef struct teal_plant_scratch {
  const teal_plant *plant;
  teal_mb_data *data;  /* the multibody data of this context */
  teal_step_data step; /* the discrete step's (empty for a continuous plant) */
  /* the analytic Jacobian's working memory (plant_jacobian.c), made by its
   * first call: the derivative workspace and dvdot/dq, dvdot/dv, vdot */
  teal_mb_derivatives *deriv;
  double *jac;
  void *fe;            /* the force elements' differences (plant_jacobian.c) */
  /* the held dofs' solve (held_dofs.c): made when the plant prescribes
   * motion or a joint is locked, grown by locking, never in a step */
  double *held_work;
  size_t held_doubles;
  double *proj_work;                  /* the constraint projection's (plant_projection.c) */
  struct teal_constraint_work *cwork; /* the constraint operators' (NULL: none) */
  struct teal_unilateral_work *uwork; /* the unilateral contacts' (NULL: none) */
  int declaration;     /* the value given to the declaration: its copy, the
                        * system's model, names the plant and holds no data */
} teal_plant_scratch;

extern const teal_value_type teal_plant_scratch_type;

/* Bytes of the applied-forces cache value: tau [nv] then F_Bo_W [nb]. */
size_t teal_plant_forces_bytes(const teal_plant *p);

/* q and v of the plant in ctx (its own leaf context). */
void teal_plant_qv(const teal_plant *p, const teal_context *ctx, const double **q,
                   const double **v);
/* The plant's own context: ctx itself or its plant subcontext (NULL when
 * ctx holds no context of the plant, or the plant is not finalized). */
const teal_context *teal_plant_own_context(const teal_plant *p, const teal_context *ctx);
/* The scratch of ctx, its data pointed at the context's gravity and body
 * inertia parameters. */
teal_plant_scratch *teal_plant_get_scratch(const teal_plant *p, const teal_context *ctx);

/* The error of a call on ctx that has no usable plant context (NULL ctx or
 * plant, plant not finalized, or ctx holding no context of the plant's
 * system), reported on ctx naming fn (plant_state.c). */
int teal_plant_bad_call(const teal_plant *p, const teal_context *ctx, const char *fn);

/* ---- parameters (plant_parameters.c) --------------------------------------- */

/* The body inertia parameter holds, by tree node, the spatial inertias
 * M_BBo_B (TEAL_PLANT_INERTIA_DOUBLES each) and after them their central
 * rotational inertias I_Bcm (9 doubles each), which the setters keep
 * consistent; node 0, the world, has no mass. */
#define TEAL_PLANT_INERTIA_DOUBLES ((int)(sizeof(teal_spatial_inertia) / sizeof(double)))

/* Doubles of the body inertia parameter. */
int teal_plant_inertia_parameter_size(const teal_plant *p);
/* Writes the model's body inertias in the parameter's layout into x0. */
void teal_plant_default_inertia_parameter(const teal_plant *p, double *x0);
/* The body inertias M_BBo_B [nn] and central inertias I_Bcm [nn] by node of
 * the plant's own context ctx. */
const teal_spatial_inertia *teal_plant_inertias(const teal_plant *p, const teal_context *ctx);
const teal_mat3 *teal_plant_central_inertias(const teal_plant *p, const teal_context *ctx);
/* The joint damping of the plant's own context ctx, by v index [nv]: every
 * computation reads damping through this accessor. */
const double *teal_plant_damping(const teal_plant *p, const teal_context *ctx);

/* The actuators' rotor parameter (actuator_parameters.c): declared on the
 * plant's leaf with the model's defaults (its index, or a negative code),
 * and the context's reflected inertias by v index. */
int teal_plant_declare_rotor_parameter(struct teal_system *sys, const teal_plant *p);
const double *teal_plant_reflected_inertias(const teal_plant *p, const teal_context *ctx);

/* Reports that ctx holds no multibody data for the plant (TEAL_ENOMEM). */
int teal_plant_no_scratch(const teal_context *ctx);

/* The body poses and velocities of the kinematics stages (cached lists) as
 * arrays by body index. */
int teal_plant_eval_poses(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                          const teal_transform **X_WB);
int teal_plant_eval_velocities(const teal_system *sys, const teal_context *ctx,
                               const teal_plant *p, const teal_spatial_vector **V_WB);

/* The scratch of ctx with its multibody data staged at ctx's q: evaluates
 * the position-stage entry first (reporting on ctx on failure, *rc set). */
teal_plant_scratch *teal_plant_staged_scratch(const teal_system *sys, const teal_context *ctx,
                                              const teal_plant *p, int *rc);
/* teal_plant_staged_scratch, and ctx's q and v: the front of the
 * callbacks that run an algorithm at the context's state. */
teal_plant_scratch *teal_plant_staged_qv(const teal_system *sys, const teal_context *ctx,
                                         const teal_plant *p, const double **q, const double **v,
                                         int *rc);

/* cache entries */
int teal_plant_calc_position_stage(const teal_system *sys, const teal_context *ctx, double *out,
                                   void *user);
int teal_plant_calc_poses(const teal_system *sys, const teal_context *ctx, void *out, void *user);
int teal_plant_calc_velocities(const teal_system *sys, const teal_context *ctx, void *out,
                               void *user);
int teal_plant_calc_mass_matrix(const teal_system *sys, const teal_context *ctx, double *out,
                                void *user);
int teal_plant_calc_actuation(const teal_system *sys, const teal_context *ctx, double *out,
                              void *user);
int teal_plant_calc_applied_forces(const teal_system *sys, const teal_context *ctx, void *out,
                                   void *user);
int teal_plant_calc_vdot(const teal_system *sys, const teal_context *ctx, double *out, void *user);
/* The accelerations of a continuous plant ignoring its constraints,
 * M^-1 f, leaving M's factorization in the data (plant_calc.c). */
int teal_plant_calc_free_vdot(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                              double *vdot);
/* The force-element filter of a context (teal_force_element_filter, user:
 * the context's constraint flags, may be NULL): element i is left out when
 * it is the spring-damper of a compliant constraint disabled there. */
int teal_plant_skip_disabled_compliance(const teal_plant *p, int i, const void *flags);
/* Whether a continuous plant's accelerations come from the held dofs'
 * solve (held dofs, or constraint rows with Baumgarte's feedback) rather
 * than the constraints' own solve (plant_calc.c). */
int teal_plant_uses_held_solve(const teal_plant *p, const teal_context *ctx);
/* The held dofs' solve at ctx's state: vdot (nv) and, when the plant has
 * constraint rows, their multipliers lambda (nc_rows, may be NULL) from
 * the same solve, so they agree with vdot (plant_calc.c). */
int teal_plant_calc_held_vdot(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                              double *vdot, double *lambda);
/* The analytic Jacobian hook (plant_jacobian.c). */
int teal_plant_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                        int output_port, teal_jacobian *jac, void *user);
int teal_plant_calc_accelerations(const teal_system *sys, const teal_context *ctx, void *out,
                                  void *user);
int teal_plant_calc_discrete_step(const teal_system *sys, const teal_context *ctx, double *out,
                                  void *user);
/* The discrete step's cache value at own's state (the plant's own context):
 * the next q, v, then the constraints' multipliers (nc_rows) and the held
 * dofs' forces (nv) (plant_discrete.c). */
int teal_plant_eval_discrete_step(const teal_plant *p, const teal_context *own,
                                  const double **next);

/* outputs */
int teal_plant_output_state(const teal_system *sys, const teal_context *ctx, double *out,
                            void *user);
int teal_plant_output_instance_state(const teal_system *sys, const teal_context *ctx, double *out,
                                     void *user);
int teal_plant_output_instance_generalized_acceleration(const teal_system *sys,
                                                        const teal_context *ctx, double *out,
                                                        void *user);
int teal_plant_output_reactions(const teal_system *sys, const teal_context *ctx, void *out,
                                void *user);

/* hooks */
int teal_plant_derivatives(const teal_system *sys, const teal_context *ctx,
                           teal_continuous_view *xdot, void *user);
int teal_plant_discrete_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                               void *user);
int teal_plant_implicit_residual(const teal_system *sys, const teal_context *ctx,
                                 const teal_const_continuous_view *proposed,
                                 teal_continuous_view *residual, void *user);
int teal_plant_project(const teal_system *sys, const teal_context *ctx, teal_continuous_view *x,
                       void *user);
/* the step's error estimate projected like the state (plant_projection.c) */
int teal_plant_project_error(const teal_system *sys, const teal_context *ctx,
                             teal_continuous_view *e, void *user);
int teal_plant_v_to_qdot(const teal_system *sys, const teal_context *ctx, const double *v,
                         double *qdot, void *user);
int teal_plant_qdot_to_v(const teal_system *sys, const teal_context *ctx, const double *qdot,
                         double *v, void *user);
int teal_plant_potential_energy_cb(const teal_system *sys, const teal_context *ctx, double *pe,
                                   void *user);
int teal_plant_kinetic_energy_cb(const teal_system *sys, const teal_context *ctx, double *ke,
                                 void *user);

/* Checks that every quaternion of a ball or floating joint held in x, the
 * count values of [q; v] from offset on, can be normalized (|q|^2 a normal
 * number); otherwise reports TEAL_EINVAL on ctx naming fn and the joint. */
int teal_plant_check_quaternions(const teal_plant *p, const teal_context *ctx, const double *x,
                                 int offset, int count, const char *fn);

/* TEAL_OK when the n values of x are finite; otherwise reports
 * TEAL_ENONFINITE on ctx naming what and the first bad index. */
int teal_plant_check_finite(const teal_context *ctx, const double *x, int n, const char *what);

/* The floating joint of a free body (its parent is the world), or -1 (also
 * for a NULL plant or an unknown body). */
int teal_plant_free_joint(const teal_plant *p, int body);

/* qdot = N(q) v over the whole tree. Where a joint's N does not exist at
 * q (a roll-pitch-yaw joint at its gimbal lock) reports TEAL_ESINGULAR on
 * ctx naming fn, the joint and its pitch. */
int teal_plant_map_v_to_qdot(const teal_plant *p, const teal_context *ctx, const double *q,
                             const double *v, double *qdot, const char *fn);

#endif
