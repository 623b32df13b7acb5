/* Private to multibody/: the records of the unilateral contacts and
 * state-limited friction elements (unilateral_contacts.c,
 * state_limited_friction.c) and the impulse problem the discrete step
 * solves with them (unilateral_rows.c builds its rows, unilateral_solve.c
 * solves it; called from plant/plant_discrete.c).
 *
 * The problem, on the velocity v after the free motion, contact and
 * bilateral constraints: rows J_j (1 x nv each) with impulses lambda_j give
 * v+ = v + sum_j Y_j lambda_j, Y_j = (M + h D)^-1 J_j'. A normal row keeps
 * lambda >= 0 complementary to J_j v+ - target_j >= 0; a point's two
 * tangent rows drive J_t v+ to 0 with |(lambda_t1, lambda_t2)| <= mu
 * lambda_n; a friction row drives J v+ to 0 with |lambda| <= h max_force +
 * mu lambda_n of its contact. Projected Gauss-Seidel, the velocity kept
 * current row by row (O(nv) a row update, no m x m matrix). */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_UNILATERAL_INTERNAL_H
#define TEAL_MULTIBODY_CONSTRAINTS_UNILATERAL_INTERNAL_H

#include "math/transform.h"
#include "multibody/algorithms/data.h"
#include "multibody/constraints/state_limited_friction.h"
#include "multibody/constraints/unilateral_contacts.h"
#include "multibody/tree/plant_internal.h"

/* every record starts with (name, instance), as the plant's lists need */
typedef struct unilateral_rec {
  char *name;
  int instance;
  teal_unilateral_contact_spec spec;
} unilateral_rec;

typedef struct slfriction_rec {
  char *name;
  int instance;
  teal_state_limited_friction_spec spec;
} slfriction_rec;

#define UNILATERAL(p) ((unilateral_rec *)(p)->unilaterals.data)
#define SLFRICTION(p) ((slfriction_rec *)(p)->slfrictions.data)

/* A failure with a formatted message: sticky before finalize, as for every
 * declaration; after, only recorded (the finalized plant stays usable). */
int teal_unilateral_fail(teal_plant *p, int code, const char *fmt, ...);

/* The entry checks of an adopt: plant open, discrete (what: "unilateral
 * contact", ...). */
int teal_unilateral_check_adopt(teal_plant *p, const char *what);

/* TEAL_ENOTFOUND with a (not sticky) message unless 0 <= index < n. */
int teal_unilateral_check_index(const teal_plant *p, int index, int n, const char *what);

/* The kinds of row of the impulse problem. */
enum { UNI_ROW_NORMAL = 0, UNI_ROW_TANGENT, UNI_ROW_FRICTION };

/* The working memory of the impulse problem, sized by the model once. */
typedef struct teal_unilateral_work {
  int cap, nv, m;          /* room for rows, dofs, rows in use */
  double *J, *Y;           /* [cap nv] each: the rows and (M + h D)^-1 J' */
  double *lambda, *target; /* [cap] each: impulses, velocity targets */
  double *w;               /* [cap] J_j Y_j */
  double *bound;           /* [cap] a friction row's h max_force */
  double *mu;              /* [cap] a tangent or friction row's coefficient */
  int *kind, *link;        /* [cap] each: row kind, the normal row it depends on (-1) */
  int *row_of;             /* [contacts] the contact's normal row, -1: inactive */
  double *v;               /* [nv] the current velocity */
  double *tau;             /* [nv] a row's generalized force */
  teal_transform *X_WB;    /* [bodies] poses at the step's q */
} teal_unilateral_work;

/* Work for plant p (finalized): NULL with *rc = TEAL_OK when p has no
 * unilateral contact and no friction element, NULL with TEAL_ENOMEM. */
teal_unilateral_work *teal_unilateral_work_new(const teal_plant *p, int *rc);

void teal_unilateral_work_free(teal_unilateral_work *w);

/* The gap of enabled contact c at the poses in w (and q) and its normal
 * row into J (nv): the gap velocity is J v. Uses data's kinematics at q. */
int teal_unilateral_normal_row(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                               int c, const double *q, double *gap, double *J);

/* The two tangent rows of point-in-plane contact c into J1, J2 (nv each). */
int teal_unilateral_tangent_rows(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                                 int c, const double *q, double *J1, double *J2);

/* Applies the unilateral impulses to v (nv, in place) for the step from q:
 * activates the contacts the step would close, solves, repeats while the
 * solution closes more. data holds M + h D factored at q. Messages in
 * data's error record. */
int teal_unilateral_step(const teal_plant *p, teal_mb_data *data, teal_unilateral_work *w,
                         const double *q, double *v);

#endif
