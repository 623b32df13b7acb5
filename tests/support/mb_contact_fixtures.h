/* Contact test fixtures: a plant with a scene graph in a diagram under a
 * simulator, a tilted ground half-space, a free ball over the ground and
 * bodies carrying a collision sphere. The functions assert with Check, so
 * they are for use inside START_TEST bodies. */
#ifndef TEAL_TESTS_SUPPORT_MB_CONTACT_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_CONTACT_FIXTURES_H

#include "framework/context.h"
#include "framework/diagram_builder.h"
#include "framework/system.h"
#include "geometry/shapes/geometry_properties.h"
#include "geometry/shapes/shape.h"
#include "multibody/tree/plant_model.h"
#include "systems/analysis/simulator.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A plant, the diagram with its scene graph, and a simulator of it. */
typedef struct ts_contact_world {
  teal_plant *plant;
  teal_system *diagram;
  teal_simulator *sim;
  teal_context *ctx; /* the simulator's */
} ts_contact_world;

/** Ground: a half-space on the world, tilted by theta about y, with
 *  friction mu and the given dissipation (NaN: the plant's default). */
void ts_contact_add_ground(teal_plant *p, double theta, double mu, double dissipation);

/** Ground for hydroelastic tests: a rigid-hydroelastic half-space on the
 *  world named "ground", with friction mu. */
void ts_contact_add_rigid_ground(teal_plant *p, double mu);

/** A free body of mass m named name (a solid-sphere inertia of radius 0.1)
 *  carrying shape, as a collision geometry of the same name with pp. */
int ts_contact_add_body_with(teal_plant *p, const char *name, double m, const teal_shape *shape,
                             const teal_proximity_properties *pp);

/** Finalizes w->plant and builds the diagram and a simulator (continuous:
 *  RK3 with error control at accuracy 1e-5). */
void ts_contact_finish(ts_contact_world *w);

/** Frees the simulator and the diagram (which owns the plant). */
void ts_contact_world_free(ts_contact_world *w);

/** Advances the simulator to t; asserts success. */
void ts_contact_advance(ts_contact_world *w, double t);

/** A free ball of mass 1 and radius 0.1 whose centre starts at height z
 *  over the ground (friction 0.5 and the given dissipation on both). */
ts_contact_world ts_contact_ball_world(double time_step, double z, double dissipation);

/** Adds a body of mass 1 with a collision sphere of radius 0.1, both named
 *  name; stores the body in *body and returns the geometry id. */
int ts_contact_body_with_sphere(teal_plant *p, const char *name, int *body);

/** Three balls (ts_contact_body_with_sphere: "a", "b", "c") over the
 *  ground tilted by 0.1 about y; returns the plant's geometry count. */
int ts_contact_three_balls(teal_plant *p);

/** The three balls' initial positions: a and b overlap each other, c is
 *  0.3 m over the ground. */
void ts_contact_three_balls_place(ts_contact_world *w);

/** Builds the diagram from b (consumed) and a simulator of it, as
 *  ts_contact_finish does after the plant's wiring. */
void ts_contact_build(ts_contact_world *w, teal_builder *b);

/** Asserts that the plant states of a and b are bitwise equal. */
void ts_contact_expect_same_state(const ts_contact_world *a, const ts_contact_world *b);

#ifdef __cplusplus
}
#endif
#endif
