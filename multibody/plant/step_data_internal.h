/* Private to multibody/: the working memory of the discrete plant's time
 * step, beside its multibody data in the plant's per-context scratch
 * (plant_calc_internal.h). plant_discrete.c solves the joint-limit impulses
 * in it; contact/discrete_contact.c the contact islands.
 *
 * It holds three buffers, each one allocation (with the two-pass layout of
 * framework/buffer_layout.h when it holds several arrays). The model buffer
 * is sized by the model once: the free motion and the limit impulses by dof
 * and by limit, and the island vectors by dof and by tree. The contact
 * buffer is sized by a contact count, the Newton buffer by an island's
 * dofs. A step that meets more contacts, or a larger island, than they have
 * room for grows them (the only allocations a step can make) and counts it
 * in growths. */
#ifndef TEAL_MULTIBODY_PLANT_STEP_DATA_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_STEP_DATA_INTERNAL_H

#include "multibody/contact/plant_contact.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/plant_model.h"

struct contact_pair_params;

typedef struct teal_step_data {
  /* free motion and joint limits (plant_discrete.c) */
  double *vstar, *dv;             /* [nv] each: free velocity, impulse response */
  double *hdamp;                  /* [nv] h D, the implicit joint damping of the step */
  double *Wcols;                  /* [nlimits nv] (M + h D)^-1 columns of the active limits */
  double *lambda, *target, *sign; /* [nlimits] each */
  int *active;                    /* [nlimits] indices into the plant's limit dofs */
  /* bilateral constraint rows at the step's q (discrete_constraints.c):
   * room for every row of the plant's constraints, nrows of them enabled */
  int nrows_cap, nrows;
  double *Gr;                 /* [nrows_cap nv] G, row-major */
  double *gr, *kr, *cr;       /* [nrows_cap] each: position error, stiffness, damping */
  double *lambda_r;           /* [nrows_cap] multipliers (impulses / h) of the step */
  int *island_rows, *row_off; /* [nrows_cap], [ntrees + 1]: rows bucketed by island */
  double *Yr;                 /* [nrows_cap nv] M^-1 G', by row */
  double *Wr, *ur;            /* [nrows_cap^2], [nrows_cap]: the rows-only solve */
  int *pivr;                  /* [nrows_cap] its pivots */
  teal_transform *Xc;         /* [nb] body poses of the step's q (by body) */
  teal_spatial_vector *Fc;    /* [nb] a row's body forces */
  /* contact islands (discrete_contact.c); trees is NULL for a plant with
   * no collision geometry, which has none of the arrays below */
  const teal_mb_trees *trees;              /* the plant's forest */
  double *res, *dir, *v_try, *r_try;       /* [nv] each, Newton vectors of one island */
  double *v_loc, *vstar_loc;               /* [nv] each, an island's velocities */
  int *uf, *tree_off, *island_trees;       /* [ntrees] each */
  int *tree_bucket, *contact_off, *cursor; /* [ntrees + 1] each: bucket offsets */
  /* contacts, in the contact buffer */
  int nc_cap;                          /* room for contacts */
  double *Jc;                          /* [nc_cap][2][3 max_nv] Jacobian blocks */
  int *jtree;                          /* [2 nc_cap] tree of each block */
  int *island_contacts;                /* [nc_cap] */
  teal_contact_info *contacts;         /* [nc_cap] */
  struct contact_pair_params *cparams; /* [nc_cap] */
  /* an island's Newton matrix, in the Newton buffer */
  int island_cap;   /* room for island dofs */
  double *A_newton; /* [island_cap^2] */
  int *pivots;      /* [island_cap] */
  long growths;     /* times the contact or Newton buffer grew inside a step */
  /* the surfaces of the step's hydroelastic pairs, by pair index
   * (contact/hydroelastic_discrete.c); grown, like the buffers, only when a
   * step meets more pairs or faces */
  int hpairs_cap;
  teal_contact_surface *hsurf; /* [hpairs_cap] */
  teal_transform *hX_WB;       /* [nb] body poses of the step (NULL: no soft geometry) */
  void *model_buffer, *contact_buffer, *newton_buffer;
} teal_step_data;

/* Allocates sd's buffers for plant p (finalized, discrete): the contact
 * part only when p has proximity geometry, with room for a few contacts per
 * geometry and the largest tree's island. TEAL_ENOMEM (sd left empty). */
int teal_step_data_init(teal_step_data *sd, const teal_plant *p);

/* Frees sd's buffers and empties it. */
void teal_step_data_release(teal_step_data *sd);

/* Makes room for nc contacts, growing the contact buffer (at least
 * doubling it) when needed; its contents are not kept. TEAL_ESTATE without
 * a contact part, TEAL_ENOMEM (sd unchanged). */
int teal_step_data_reserve_contacts(teal_step_data *sd, int nc);

/* Makes room for the Newton matrix of an island of m dofs, likewise. */
int teal_step_data_reserve_island(teal_step_data *sd, int m);

#endif
