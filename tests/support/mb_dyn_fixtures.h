/* Dynamics test fixtures: the random trees of the O(n) dynamics tests
 * (multibody/algorithms: aba, crba, rnea, dynamics) and asserting wrappers
 * of the mb_fixtures state helpers. The functions assert with Check, so they
 * are for use inside START_TEST bodies. */
#ifndef TEAL_TESTS_SUPPORT_MB_DYN_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_DYN_FIXTURES_H

#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"
#include "support/mb_fixtures.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A bound on nq and nv of the trees below, for stack arrays. */
#define TS_MB_DYN_MAXN 64

/** The topologies: a chain of revolute, prismatic, ball, universal,
 *  revolute and screw joints from the world (6 bodies); a tree of every
 *  joint kind (the roll-pitch-yaw ones included) under a floating base and
 *  two more roots (12 bodies); two floating subtrees (4 bodies). */
enum {
  TS_MB_DYN_CHAIN,
  TS_MB_DYN_TREE,
  TS_MB_DYN_FLOAT,
  TS_MB_DYN_NUM_TOPOLOGIES
};

/** A finalized plant of topology (a TS_MB_DYN_* index) with random joint
 *  frames, axes, pitches and inertias from seed, every body in model
 *  instance 1. */
teal_plant *ts_mb_dyn_make_tree(int topology, unsigned seed);

/** ts_mb_dyn_make_tree with a time step (> 0: a discrete plant). */
teal_plant *ts_mb_dyn_make_tree_stepped(int topology, unsigned seed, double time_step);

/** Random q (normalized) and, if v is not NULL, v, components in [-1.5, 1.5). */
void ts_mb_dyn_rand_state(const teal_plant *plant, unsigned *state, double *q, double *v);

/** out = q + h N(q) v, normalized. */
void ts_mb_dyn_step_q(const teal_plant *plant, const double *q, const double *v, double h,
                      double *out);

/** nb spatial forces with components in [-2, 2). */
void ts_mb_dyn_rand_forces(unsigned *state, int nb, teal_spatial_vector *F);

/** A dynamics map of (q, v, w) to nv values, e.g. forward dynamics with w
 *  the generalized forces; user holds what else it reads. */
typedef void (*ts_mb_dyn_map)(const teal_plant *plant, void *user, const double *q, const double *v,
                              const double *w, double *out);

/** max |J - fd| / max(1, max |fd|) over the nv x nv matrix J, fd the
 *  central differences (step h) of map at (q, v, w) along the tangent of q
 *  (which 0), along v (1) or along w (2). */
double ts_mb_dyn_rel_error_vs_fd(const teal_plant *plant, ts_mb_dyn_map map, void *user,
                                 const double *q, const double *v, const double *w, int which,
                                 const double *J, double h);

#ifdef __cplusplus
}
#endif
#endif
