/* Private to multibody/: the plant system's callbacks and per-context
 * scratch, shared by plant_system.c (declarations and the stage table),
 * plant_scratch.c (the scratch), plant_calc.c (the stages), plant_outputs.c,
 * plant_hooks.c, plant_state.c (context access) and plant_discrete.c (the
 * time-step update). */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_CALC_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_PLANT_CALC_INTERNAL_H

#include "framework/context.h"
#include "framework/system.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/tree/plant_internal.h"

struct contact_pair_params;

/* Per-context scratch: the multibody data and the buffers of the discrete
 * step, made when the context is created (by the copy hook, from the model
 * {plant, NULL}). */
typedef struct teal_plant_scratch {
  const teal_plant *plant;
  teal_mb_data *data;     /* the multibody data of this context */
  teal_transform *X;      /* [nb] */
  teal_spatial_vector *V; /* [nb] */
  teal_spatial_vector *A; /* [nb] */
  double *vstar, *dv;     /* [nv] discrete step: free velocity, impulse response */
  double *Wcols;          /* [nlimits * nv] M^-1 columns of the active limits */
  double *lambda, *target, *sign; /* [nlimits] each */
  int *active;                 /* [nlimits] indices into limit_dofs */
  /* contact; only for discrete plants
   * with collision geometry (contact/discrete_contact.c) */
  const struct teal_mb_trees *trees;           /* the plant's forest */
  double *res, *step, *v_try, *r_try;          /* [nv] each, island vectors */
  double *v_loc, *vstar_loc;                   /* [nv] each */
  double *A_newton;                            /* [newton_cap^2] island Newton matrix */
  int *pivots;                                 /* [newton_cap] */
  int newton_cap;                              /* largest island with room below */
  int *uf, *tree_off, *island_trees;           /* [ntrees] each */
  int *tree_bucket, *contact_off, *cursor;     /* [ntrees + 1] bucket offsets */
  int nc_cap;                                  /* contacts with room below */
  double *Jc;                                  /* [nc_cap][2][3 max_nv] Jacobian blocks */
  int *jtree;                                  /* [2 nc_cap] tree of each block */
  int *island_contacts;                        /* [nc_cap] */
  teal_contact_info *contacts;                 /* [nc_cap] */
  struct contact_pair_params *cparams;         /* [nc_cap] */
  long contact_growths; /* times the contact or island buffers grew inside a step */
} teal_plant_scratch;

/* Makes room for nc contacts in the scratch (allocates only when needed). */
int teal_plant_scratch_reserve_contacts(teal_plant_scratch *s, int nc);

/* The discrete contact buffers with room for nc contacts (all of them
 * allocated here, so that a step allocates nothing unless it outgrows
 * them), and their release (contact/discrete_contact.c). */
int teal_plant_contact_scratch_alloc(teal_plant_scratch *s, const teal_plant *p, int nc);
void teal_plant_contact_scratch_free(teal_plant_scratch *s);

extern const teal_value_type teal_plant_scratch_type;

/* Bytes of the applied-forces cache value: tau [nv] then F_Bo_W [nb]. */
size_t teal_plant_forces_bytes(const teal_plant *p);

/* q and v of the plant in ctx (its own leaf context). */
void teal_plant_qv(const teal_plant *p, const teal_context *ctx, const double **q,
                   const double **v);
/* The plant's own context: ctx itself or its plant subcontext (NULL when
 * ctx holds no context of the plant, or the plant is not finalized). */
const teal_context *teal_plant_own_context(const teal_plant *p, const teal_context *ctx);
/* The scratch of ctx, its data pointed at the context's gravity parameter. */
teal_plant_scratch *teal_plant_get_scratch(const teal_plant *p, const teal_context *ctx);

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
int teal_plant_calc_accelerations(const teal_system *sys, const teal_context *ctx, void *out,
                                  void *user);
int teal_plant_calc_discrete_step(const teal_system *sys, const teal_context *ctx, double *out,
                                  void *user);

/* outputs */
int teal_plant_output_state(const teal_system *sys, const teal_context *ctx, double *out,
                            void *user);
int teal_plant_output_instance_state(const teal_system *sys, const teal_context *ctx, double *out,
                                     void *user);
int teal_plant_output_reactions(const teal_system *sys, const teal_context *ctx, void *out,
                                void *user);

/* hooks */
int teal_plant_derivatives(const teal_system *sys, const teal_context *ctx,
                           teal_continuous_view *xdot, void *user);
int teal_plant_discrete_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                               void *user);
int teal_plant_project(const teal_system *sys, const teal_context *ctx, teal_continuous_view *x,
                       void *user);
int teal_plant_v_to_qdot(const teal_system *sys, const teal_context *ctx, const double *v,
                         double *qdot, void *user);
int teal_plant_qdot_to_v(const teal_system *sys, const teal_context *ctx, const double *qdot,
                         double *v, void *user);
int teal_plant_potential_energy_cb(const teal_system *sys, const teal_context *ctx, double *pe,
                                   void *user);
int teal_plant_kinetic_energy_cb(const teal_system *sys, const teal_context *ctx, double *ke,
                                 void *user);

/* qdot = N(q) v over the whole tree. */
void teal_plant_map_v_to_qdot(const teal_plant *p, const double *q, const double *v,
                              double *qdot);

#endif
