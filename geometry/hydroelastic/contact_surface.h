/** @file
 * Hydroelastic contact surfaces (Drake's ContactSurface): the polygons
 * where a soft geometry meets a rigid one, with the soft geometry's
 * pressure at their vertices.
 *
 * Vertices are stored per face (not shared), in world coordinates. Each
 * face is planar and convex, its vertices counter-clockwise about its
 * normal; the pressure is linear on a face, so the face's pressure times
 * its area is the exact integral of the piecewise-linear field. The normal
 * points out of the rigid geometry into the soft one (the direction of the
 * pressure force on the soft geometry). A surface holds its capacity:
 * teal_contact_surface_reserve sizes it once, and filling it afterwards
 * allocates nothing. */
#ifndef TEAL_GEOMETRY_HYDROELASTIC_CONTACT_SURFACE_H
#define TEAL_GEOMETRY_HYDROELASTIC_CONTACT_SURFACE_H

#include "teal_export.h"

#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a surface's faces are made (Drake's
 *  HydroelasticContactRepresentation). */
typedef enum teal_contact_surface_representation {
  /** One convex polygon per cut tetrahedron (3 or 4 vertices). */
  TEAL_CONTACT_SURFACE_POLYGONS = 0,
  /** Triangles: each polygon of more than 3 vertices becomes a fan of
   *  triangles around its centroid (Drake's default). */
  TEAL_CONTACT_SURFACE_TRIANGLES = 1
} teal_contact_surface_representation;

/** One face of a contact surface. */
typedef struct teal_contact_polygon {
  int first;          /**< index of its first vertex in the surface */
  int count;          /**< number of vertices (>= 3) */
  double area;        /**< area (m^2) */
  double pressure;    /**< pressure at the centroid (Pa; the face's mean) */
  teal_vec3 centroid; /**< centroid, W */
  teal_vec3 normal;   /**< unit normal, W, from the rigid into the soft geometry */
  teal_vec3 grad_p;   /**< gradient of the soft pressure field there, W (Pa/m) */
} teal_contact_polygon;

/** A contact surface: faces over a shared vertex array. */
typedef struct teal_contact_surface {
  /** Number of faces and their capacity. @{ */
  int num_faces, face_cap;
  /** @} */
  /** Number of vertices and their capacity. @{ */
  int num_vertices, vertex_cap;
  /** @} */
  teal_contact_polygon *faces; /**< the faces (face_cap entries) */
  teal_vec3 *vertices;         /**< vertex positions, W (vertex_cap entries) */
  double *pressure;            /**< pressure at each vertex, Pa (vertex_cap entries) */
  double area;                 /**< total area (m^2) */
  teal_vec3 centroid;          /**< area-weighted centroid, W (zero when empty) */
} teal_contact_surface;

/** Makes room for at least faces faces and vertices vertices (keeps the
 *  contents). TEAL_EINVAL for NULL or negative counts, TEAL_ENOMEM. */
TEAL_API int teal_contact_surface_reserve(teal_contact_surface *s, int faces, int vertices);

/** Empties s (keeps its capacity). */
TEAL_API void teal_contact_surface_clear(teal_contact_surface *s);

/** The integral of the pressure over the surface (sum of pressure x area of
 *  the faces), N. 0 for NULL. */
TEAL_API double teal_contact_surface_total_pressure_force(const teal_contact_surface *s);

/** Frees s's arrays and empties it (s itself is the caller's). */
TEAL_API void teal_contact_surface_release(teal_contact_surface *s);

#ifdef __cplusplus
}
#endif
#endif
