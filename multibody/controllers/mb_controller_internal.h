/* Private to multibody/controllers/: what the model-based controllers share.
 * Plant and gain checks with messages naming the controller, a per-context
 * scratch value holding a multibody data for the controller's model
 * plant, and the generalized forces of the model's force elements and joint
 * damping (Drake's tau_app). Not installed. */
#ifndef TEAL_MULTIBODY_CONTROLLERS_MB_CONTROLLER_INTERNAL_H
#define TEAL_MULTIBODY_CONTROLLERS_MB_CONTROLLER_INTERNAL_H

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "multibody/algorithms/data.h"
#include "multibody/tree/plant_model.h"

/* Per-context scratch: made by the type's copy hook from the model
 * {plant, NULL, ...}, so that every context owns its multibody data and
 * buffers (a copy between two existing contexts keeps the destination's).
 * The force elements' body poses, velocities and forces live in the data's
 * body arrays. */
typedef struct teal_mbc_scratch {
  const teal_plant *plant;
  teal_mb_data *data;
  double *tau_app; /* [nv] force elements and damping */
  double *zeros;   /* [nv] all zero (a motionless vdot or v) */
  int declaration; /* the value given to the declaration: its copy, the system's
                    * model, names the plant and holds no data */
  int gravity;     /* the controller's numeric parameter "gravity" (3 values) */
} teal_mbc_scratch;

/* The index of the gravity parameter in a controller leaf: the first (and
 * only) numeric parameter, declared by teal_mbc_declare_scratch. */
#define TEAL_MBC_GRAVITY_PARAM 0

/* The type tag of the model-based controller leaves (set with their
 * scratch), by which controller_gravity.c recognizes them. */
extern const char teal_mbc_tag[];

/* The scratch's value type. */
extern const teal_value_type teal_mbc_scratch_type;

/* TEAL_EINVAL for a NULL plant, TEAL_ESTATE for one not finalized,
 * TEAL_ESIZE for nv < 1 or, when need_square, nq != nv. Messages read
 * "<kind> '<name>': ...". */
int teal_mbc_check_plant(teal_error *err, const char *kind, const char *name,
                         const teal_plant *plant, int need_square);

/* Checks n gains named what: TEAL_ESIZE unless n == nv of the plant,
 * TEAL_EINVAL for NULL, TEAL_ENONFINITE for NaN/Inf, TEAL_EINVAL for a
 * negative entry. */
int teal_mbc_check_gains(teal_error *err, const char *kind, const char *name, const char *what,
                         const double *k, int n, int nv);

/* Declares the scratch on sys for plant, the gravity parameter its data
 * uses (3 values, default teal_plant_gravity(plant); see
 * controller_gravity.h) and the controllers' type tag; returns the
 * scratch's index (sticky errors as for any declaration). */
int teal_mbc_declare_scratch(teal_system *sys, const teal_plant *plant);

/* The scratch at index of ctx, its data's gravity set to ctx's gravity
 * parameter, or NULL with TEAL_ENOMEM reported on ctx. */
teal_mbc_scratch *teal_mbc_get_scratch(const teal_system *sys, const teal_context *ctx,
                                       int index);

/* Reports a failed dynamics call rc on ctx with the data's message,
 * naming the system; returns rc. */
int teal_mbc_report(const teal_system *sys, const teal_context *ctx, const teal_mbc_scratch *s,
                    int rc);

/* TEAL_ENONFINITE (reported on ctx, naming the system, the port and the
 * entry) when one of the n values of input port `port` is NaN or Inf. */
int teal_mbc_check_input(const teal_system *sys, const teal_context *ctx, int port,
                         const double *x, int n);

/* Drake's tau_app at (q, v): s->tau_app = -damping v plus the generalized
 * forces of the model's force elements, whose spatial part goes to *F
 * (the data's F_Bo_W, or NULL when the plant has no force elements). Reports failures
 * on ctx. */
int teal_mbc_applied_forces(const teal_system *sys, const teal_context *ctx, teal_mbc_scratch *s,
                            const double *q, const double *v, const teal_spatial_vector **F);

#endif
