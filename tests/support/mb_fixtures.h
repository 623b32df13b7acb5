/* Multibody test fixtures: random kinematic trees over every joint kind with
 * random frames, axes and inertias, random states, and the q + h N(q) v step
 * used by finite-difference checks. Functions report failure by returning
 * NULL or a nonzero status (and print the reason to stderr), so callers
 * assert on the result. */
#ifndef TEAL_TESTS_SUPPORT_MB_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_FIXTURES_H

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One body of a topology: its parent (index into the same list, -1 for the
 *  world, -2 for no joint, so finalize gives it a floating joint) and the
 *  teal_joint_kind of its inboard joint (ignored for -2). */
typedef struct ts_mb_body_spec {
  int parent;
  int kind;
} ts_mb_body_spec;

/** A named list of body specs. */
typedef struct ts_mb_topology {
  const char *name;
  const ts_mb_body_spec *spec;
  int n;
} ts_mb_topology;

/** Standard topologies: "chain" (revolute, prismatic, ball, universal,
 *  revolute, screw in series from the world), "tree" (every joint kind,
 *  weld, explicit quaternion floating and the two roll-pitch-yaw kinds
 *  included, under an implicit floating base and two more roots), "free" (two floating subtrees).
 */
extern const ts_mb_topology ts_mb_topologies[];
extern const int ts_mb_num_topologies;

/** A finalized plant of n bodies (n <= 32) with the topology spec, random
 *  joint frames, axes, pitches and inertias from seed. Bodies are spread
 *  round-robin over num_instances model instances (>= 1): the default one and
 *  num_instances - 1 added ones named "mi1", "mi2", ... NULL on failure. */
teal_plant *ts_mb_random_tree(const ts_mb_body_spec *spec, int n, unsigned seed,
                              int num_instances);

/** The same plant before finalize, for tests that decorate its joints
 *  (joint i is spec entry i when no entry has parent -2). */
teal_plant *ts_mb_random_tree_open(const ts_mb_body_spec *spec, int n, unsigned seed,
                                   int num_instances);

/** A random pose: roll-pitch-yaw angles over most of their range and a
 *  translation with components in [-scale, scale). */
teal_transform ts_mb_rand_pose(unsigned *state, double scale);

/** A valid inertia about Bo: a box of random size and mass in [0.5, 2),
 *  rotated and offset from Bo. */
teal_spatial_inertia ts_mb_rand_inertia(unsigned *state);

/** Adds the inboard joint of body i (spec[i].parent >= -1) named "j<i>",
 *  between a random frame "F<i>" on its parent (bodies[spec[i].parent], or
 *  the world) and a random frame "M<i>" on bodies[i], with a random axis and
 *  pitch. Returns the joint index or a negative status. */
int ts_mb_add_random_joint(teal_plant *p, const ts_mb_body_spec *spec, const int *bodies, int i,
                           unsigned *state);

/** n uniform values in [-a, a). */
void ts_mb_rand_vec(unsigned *state, double *x, int n, double a);

/** Random q (normalized quaternions) and, if v is not NULL, v, with
 *  components in [-a, a). Returns TEAL_OK or the normalization error. */
int ts_mb_rand_state(const teal_plant *plant, unsigned *state, double *q, double *v, double a);

/** out = q + h N(q) v with quaternions normalized (one explicit step along
 *  v). Returns TEAL_OK or the normalization error. */
int ts_mb_step_q(const teal_plant *plant, const double *q, const double *v, double h,
                 double *out);

/** Largest |x_i|, and largest |a_i - b_i|. */
/** Adds the joint `name` of kind from body parent_body's frame to body
 *  child_body's (axis as teal_plant_add_joint takes it), asserting that it
 *  was added; returns its index. */
int ts_mb_connect(teal_plant *p, const char *name, teal_joint_kind kind, int parent_body,
                  int child_body, const teal_vec3 *axis);

double ts_mb_max_abs(const double *x, int n);
double ts_mb_max_abs_diff(const double *a, const double *b, int n);

#ifdef __cplusplus
}
#endif
#endif
