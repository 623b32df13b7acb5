/* Private to multibody/: the bilateral constraint rows of the discrete
 * step (discrete_constraints.c), solved with the contact impulses in the
 * islands of contact/discrete_contact.c.
 *
 * Each enabled constraint row i enters the step as a near-rigid compliant
 * force, as Drake's SAP treats holonomic constraints: the force
 * lambda_i = k_i (g_i + h G_i v) + c_i G_i v, with g_i the position error at
 * the step's start and G_i its row of G, is implicit in the next velocity v.
 * The step's residual gains h G' lambda and its Newton matrix
 * h G' diag(k h + c) G. A rigid row gets the stiffness of SAP's near-rigid
 * regime, 1 / (h^2 R) with R = beta^2 / (4 pi^2) w_i and w_i = G_i M^-1 G_i'
 * (beta = 1): the stiffest the step resolves. A compliant row keeps its own
 * stiffness and damping unless they are stiffer than that, where they are
 * clamped to it with their ratio kept. A compliant distance constraint,
 * which a continuous plant applies as a spring-damper force element, is
 * such a compliant row here (after the rigid rows, in the order of the
 * constraints), and its force element is left out of the step's explicit
 * forces: implicit, a stiff one stays stable at any step. */
#ifndef TEAL_MULTIBODY_PLANT_DISCRETE_CONSTRAINTS_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_DISCRETE_CONSTRAINTS_INTERNAL_H

#include "multibody/plant/plant_calc_internal.h"

/* The root of t's island in the union-find uf (path halving). */
static inline int teal_island_find(int *uf, int t) {
  while (uf[t] != t) {
    uf[t] = uf[uf[t]];
    t = uf[t];
  }
  return t;
}

/* Rows of all of p's constraints, a compliant distance's one included: the
 * room the step data keeps (0 without constraints). */
int teal_discrete_rows_capacity(const teal_plant *p);

/* Compliant distance constraints of p, one row each after the rigid rows:
 * the tensions the step cache keeps after the held dofs' forces. */
int teal_discrete_compliant_rows(const teal_plant *p);

/* Fills s->step's rows at q for the constraints enabled in ctx (the plant's
 * own context): G, the position errors g, and every row rigid (k =
 * INFINITY, c = 0) for now but a compliant distance's (its spring's k and
 * c); a disabled constraint's rows are zero. Call
 * after the free motion: G comes from the body poses and motion subspaces
 * of its position stage in s->data, by the constraints' own kernels. */
int teal_discrete_rows_fill(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                            const double *q);

/* Sets each row's stiffness and damping for the step (near-rigid, see
 * above). Call after the free motion: it uses M's factorization at q that
 * the free motion left in s->data. */
int teal_discrete_rows_regularize(const teal_plant *p, teal_plant_scratch *s);

/* The next velocity vnext from the free velocity vstar when the step has
 * constraint rows and no contact (after teal_discrete_rows_regularize):
 * the rows' implicit forces by the Woodbury identity, in O(m nv + m^3);
 * also the multipliers. TEAL_ESINGULAR when the m x m solve fails. */
int teal_discrete_rows_solve(const teal_plant *p, teal_plant_scratch *s, const double *vstar,
                             double *vnext);

/* Joins, in the union-find s->step.uf, the trees that each row couples. */
void teal_discrete_rows_join(teal_plant_scratch *s);

/* Buckets the rows by island root into island_rows and row_off (the island
 * of root r holds rows island_rows[row_off[r] .. row_off[r + 1])); rows that
 * touch no tree belong to none. */
void teal_discrete_rows_bucket(teal_plant_scratch *s);

/* Adds the nr rows (indices rows) to an island's residual r (r += h G'
 * lambda) and, when A is non-NULL, to its m x m Newton matrix
 * (A += h G' diag(k h + c) G), at its local velocities v (the island's
 * local dof of a plant dof comes from s->step.tree_off). */
void teal_discrete_rows_add(const teal_plant *p, const teal_plant_scratch *s, const int *rows,
                            int nr, const double *v, double *r, double *A, int m);

/* The multipliers lambda_r of the nr rows at the island's solution v. */
void teal_discrete_rows_multipliers(const teal_plant *p, teal_plant_scratch *s, const int *rows,
                                    int nr, const double *v);

#endif
