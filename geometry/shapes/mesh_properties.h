/** @file
 * Mass properties of the solid a closed triangle mesh bounds (Drake's
 * CalcSpatialInertia(Mesh, density)), from the divergence theorem: the
 * solid is the signed sum of the tetrahedra joining a point to each
 * triangle, so the result is exact for the polyhedron whatever its shape
 * (convex or not). */
#ifndef TEAL_GEOMETRY_SHAPES_MESH_PROPERTIES_H
#define TEAL_GEOMETRY_SHAPES_MESH_PROPERTIES_H

#include "teal_export.h"

#include "framework/error.h"
#include "geometry/shapes/mesh_file.h"
#include "math/mat3.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Volume, centre of mass and unit inertia of a solid of uniform density:
 *  its mass is density * volume and its rotational inertia about the centre
 *  of mass, expressed in G, mass * unit_inertia (Drake's UnitInertia). */
typedef struct teal_mesh_mass_properties {
  double volume;            /**< volume (> 0) */
  teal_vec3 center_of_mass; /**< p_GoScm, the centroid of the solid, in G */
  teal_mat3 unit_inertia;   /**< inertia per unit mass about the centroid, in G */
} teal_mesh_mass_properties;

/** 1 when the mesh is closed and consistently oriented, so that it bounds a
 *  solid: every edge of a triangle is shared with exactly one other
 *  triangle, traversed the other way. Triangles with a repeated vertex
 *  (zero area) are ignored. 0 otherwise, or for a NULL or empty mesh. */
TEAL_API int teal_mesh_is_closed(const teal_mesh *mesh);

/** Computes the mass properties of the solid the closed mesh bounds. A mesh
 *  whose triangles all face inwards gives the same result as the outward
 *  one. TEAL_EINVAL for NULL arguments, an index out of range, a mesh that
 *  is not closed (see teal_mesh_is_closed) or one that bounds no volume;
 *  out is left untouched on failure. */
TEAL_API int teal_mesh_calc_mass_properties(const teal_mesh *mesh, teal_mesh_mass_properties *out,
                                            teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
