/* Private to multibody/: the constraints' per-context working memory
 * (constraint_work.c), the kernels of each constraint kind
 * (constraint_kernels.c), the pivoted solve of the projected inverse mass
 * (constraint_solve.c) and the finalize step (constraint_specs.c). */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_INTERNAL_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_INTERNAL_H

#include "framework/context.h"
#include "multibody/algorithms/data.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_internal.h"

struct teal_plant_scratch;
struct teal_system;

/* The working memory of the constraint operators for one context, made
 * with the context's plant scratch when the plant has constraints: body
 * kinematics by body index (poses X, velocities V of the state, bias
 * accelerations A at vdot = 0, velocities Vu of a given u, forces F), the
 * explicit G and Y = (M^-1 G')' (m x nv each), W and its factor (m x m)
 * and m- and nv-sized vectors. */
typedef struct teal_constraint_work {
  int m, nv, nq, nb, nc;
  teal_transform *X;
  teal_spatial_vector *V, *A, *Vu, *F;
  double *zero_nv, *tmp_nv, *tmp_nv2;
  double *G, *Y, *W, *L;
  double *psd_work; /* [2 m] the pivoted solve's pivot order and vector */
  double *r1, *r2, *r3;
  double *active; /* [m] 1 for the rows of enabled constraints, else 0 */
  int *perm;      /* [m] the solve's active rows */
  const double *enabled; /* the context's flags, [nc], set by the staging */
  long velocity_stagings; /* passes of the velocity kinematics (X, V, A) so far */
} teal_constraint_work;

/* The working memory for plant p (NULL when p has no constraint rows, or
 * out of memory: *rc tells which). */
teal_constraint_work *teal_constraint_work_new(const teal_plant *p, int *rc);
void teal_constraint_work_free(teal_constraint_work *w);

/* The context's constraint work staged at its state: the body kinematics
 * (X, V, bias A) and the active rows from the enabled flags; with the
 * scratch and q, v of the plant's own context (each output may be NULL).
 * NULL with *rc the reason, reported on ctx naming fn; a plant without
 * constraints has no work, and *rc is then TEAL_OK. */
teal_constraint_work *teal_constraint_stage(const teal_plant *p, const teal_context *ctx,
                                            const char *fn, int *rc,
                                            struct teal_plant_scratch **scratch, const double **q,
                                            const double **v);

/* The same without the body kinematics (positions only need X: staged). */
teal_constraint_work *teal_constraint_stage_positions(const teal_plant *p, const teal_context *ctx,
                                                      const char *fn, int *rc, const double **q);

/* Gu = G u over the active rows (0 elsewhere), with the body velocities of
 * u in w->Vu (constraint_operators.c); q the staged data's. */
int teal_constraint_multiply(const teal_plant *p, teal_constraint_work *w,
                             struct teal_mb_data *data, const double *q, const double *u,
                             double *Gu);
/* f = G' lambda over the active rows (lambda's other rows ignored). */
int teal_constraint_multiply_transpose(const teal_plant *p, teal_constraint_work *w,
                                       struct teal_mb_data *data, const double *q,
                                       const double *lambda, double *f);
/* b over the active rows from the staged kinematics (0 elsewhere). */
void teal_constraint_bias(const teal_plant *p, const teal_constraint_work *w, double *b);
/* G explicitly into w->G (m x nv), constraint by constraint from one position
 * stage of data at q (teal_constraint_kernel_g_rows; w->X must hold q's poses). */
int teal_constraint_form_g(const teal_plant *p, teal_constraint_work *w, struct teal_mb_data *data,
                           const double *q);

/* Declares the enabled flags parameter (one per constraint, at least one
 * value) of the plant's system; returns its index. */
int teal_plant_declare_constraint_parameter(struct teal_system *sys, const teal_plant *p);

/* The plant's constrained-accelerations cache entry: lambda [m] then vdot
 * [nv] (zeros for a discrete plant); and the multipliers output. */
int teal_plant_calc_constrained_accelerations_stage(const struct teal_system *sys,
                                                    const teal_context *ctx, double *out,
                                                    void *user);
int teal_plant_output_constraint_multipliers(const struct teal_system *sys, const teal_context *ctx,
                                             double *out, void *user);

/* The finalize step (called when the plant's system is made): lays out the
 * rows, checks they do not outnumber the velocities (TEAL_EINVAL, sticky). */
int teal_plant_constraints_finalize(teal_plant *p);

/* ---- kernels, one constraint each (constraint_kernels.c) ------------------ */

/* perr of constraint c (its rows) from the body poses X and q. */
void teal_constraint_kernel_errors(const teal_plant *p, const constraint_rec *c,
                                   const teal_transform *X, const double *q, double *out);
/* G_c u from the body poses X and the body velocities V of u. */
void teal_constraint_kernel_rates(const teal_plant *p, const constraint_rec *c,
                                  const teal_transform *X, const teal_spatial_vector *V,
                                  const double *u, double *out);
/* b_c = -(Gdot_c v) from the poses X, velocities V and bias accelerations
 * A (at vdot = 0) of the state. */
void teal_constraint_kernel_bias(const teal_plant *p, const constraint_rec *c,
                                 const teal_transform *X, const teal_spatial_vector *V,
                                 const teal_spatial_vector *A, double *out);
/* Adds G_c' lambda_c as body forces F (at body origins, in W, by body) and
 * mobility forces tau. */
void teal_constraint_kernel_forces(const teal_plant *p, const constraint_rec *c,
                                   const teal_transform *X, const double *lambda,
                                   teal_spatial_vector *F, double *tau);

/* The rows of G of constraint c (c->rows rows of nv, overwritten), each the
 * generalized force of its unit multiplier: the kernel's body forces paired
 * with the motion subspaces of the two bodies' paths to the root only, from
 * the poses X (by body) and the position stage that d holds at the same q
 * (constraint_rows.c). F (by body) is working memory. */
void teal_constraint_kernel_g_rows(const teal_plant *p, const constraint_rec *c,
                                   const teal_transform *X, const struct teal_mb_data *d,
                                   teal_spatial_vector *F, double *G);

/* ---- the pivoted solve (constraint_solve.c) -------------------------------- */

/* Relative pivot tolerance of the constraint rows' solves: pivots below
 * 1e-10 of the system's largest diagonal mark redundant rows. */
#define CONSTRAINT_PIVOT_TOLERANCE 1e-10

/* Solves the m x m symmetric positive semidefinite W x = r with
 * teal_dense_psd_factor_solve, rows with active[i] == 0 left out (x[i] = 0),
 * redundant rows x = 0. L (m x m), idx (m ints) and work (2 m) are working
 * memory; *bad_residual receives row *bad_row's residual. Returns TEAL_OK, or
 * TEAL_ESINGULAR with *bad_row set when an active row's residual exceeds
 * 1e-8 of the problem's scale (a conflicting redundant set). */
int teal_constraint_pivoted_solve(int m, const double *W, const double *r, const double *active,
                                  double *L, int *idx, double *work, double *x, int *bad_row,
                                  double *bad_residual);

#endif
