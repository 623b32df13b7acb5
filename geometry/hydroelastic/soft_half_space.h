/** @file
 * The contact surface of a soft volume mesh against a rigid half-space
 * (Drake's ComputeContactSurfaceFromSoftVolumeRigidHalfSpace).
 *
 * The surface is the part of the half-space's boundary plane inside the
 * soft mesh: each tetrahedron the plane cuts gives one convex polygon (a
 * triangle or a quadrilateral) carrying the soft pressure field, which is
 * linear on it. The normal is the half-space's outward normal (out of the
 * rigid geometry into the soft one). */
#ifndef TEAL_GEOMETRY_HYDROELASTIC_SOFT_HALF_SPACE_H
#define TEAL_GEOMETRY_HYDROELASTIC_SOFT_HALF_SPACE_H

#include "teal_export.h"

#include "framework/error.h"
#include "geometry/hydroelastic/contact_surface.h"
#include "geometry/hydroelastic/volume_mesh.h"
#include "math/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Room a surface needs for any cut of mesh in representation rep, the
 *  worst case: writes the face and vertex counts (one polygon of up to 4
 *  vertices per tetrahedron, or 4 triangles of 3 vertices). A plane cuts
 *  far fewer (the tetrahedra of the cells it crosses). TEAL_EINVAL on
 *  NULL. */
TEAL_API int teal_soft_half_space_capacity(const teal_volume_mesh *mesh,
                                           teal_contact_surface_representation rep, int *faces,
                                           int *vertices);

/** Computes into out the contact surface of the soft mesh at pose X_WS and
 *  the rigid half-space z <= 0 of frame H at pose X_WH, in representation
 *  rep. out is cleared first and grows (doubling) when its capacity is
 *  short: reserve teal_soft_half_space_capacity once to never allocate
 *  here. Returns the
 *  number of faces (0: no contact) or a negative code with the cause in
 *  err (NULL allowed): TEAL_EINVAL (NULL argument, unknown rep),
 *  TEAL_ENONFINITE (pose), TEAL_ENOMEM. */
TEAL_API int teal_soft_half_space_contact_surface(const teal_volume_mesh *mesh, teal_transform X_WS,
                                                  teal_transform X_WH,
                                                  teal_contact_surface_representation rep,
                                                  teal_contact_surface *out, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
