/** @file
 * Tetrahedral volume meshes with a pressure field on their vertices: the
 * compliant ("soft") geometries of hydroelastic contact (Elandt et al.
 * 2019; Drake's SoftGeometry).
 *
 * A soft geometry G carries the pressure field p = E e(x), with E the
 * hydroelastic modulus (Pa) and e the extent: 0 on the surface, 1 at the
 * deepest interior point. The mesh stores p at its vertices and the field
 * is linear in each tetrahedron. Extents follow Drake's definitions:
 *   - sphere of radius R: e = 1 - r / R (r the distance to the centre);
 *   - box with half sizes h: e = min_i (h_i - |x_i|) / min_i h_i (the
 *     distance to the nearest face over the inscribed depth).
 * Meshes are grids of hexahedral cells split into six tetrahedra each,
 * with a bounding volume hierarchy over them (volume_mesh_bvh.h).
 *   - The sphere's grid is a cube's, mapped radially onto the ball, so that
 *     the cube's shells become spherical shells and e = 1 - max_i |u_i| in
 *     the cube coordinates u. The vertices take the exact extent; inside a
 *     cell the field is linear, so the volume, the contact areas and the
 *     pressure integrals converge at second order in the cell size (about
 *     2.4% low for the force of a sphere pressed to R/5 at cells of R/8).
 *   - The box is split along its medial axis into six blocks, one per
 *     face, each the frustum between the face and the points at depth
 *     min_i h_i; in a block the extent is linear (the distance to its
 *     face), so the mesh holds the exact field and its contact surfaces
 *     are exact (to rounding); the hint only refines the faces.
 * All coordinates are in the geometry frame G. */
#ifndef TEAL_GEOMETRY_HYDROELASTIC_VOLUME_MESH_H
#define TEAL_GEOMETRY_HYDROELASTIC_VOLUME_MESH_H

#include "teal_export.h"

#include "framework/error.h"
#include "geometry/hydroelastic/volume_mesh_bvh.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A tetrahedral mesh with a pressure value per vertex. */
typedef struct teal_volume_mesh {
  int num_vertices;    /**< number of vertices */
  int num_tets;        /**< number of tetrahedra */
  teal_vec3 *vertices; /**< positions in G (num_vertices) */
  double *pressure;    /**< pressure at each vertex, Pa (num_vertices) */
  int (*tets)[4];      /**< vertex indices, positively oriented (num_tets) */
  double modulus;      /**< the hydroelastic modulus E (Pa) */
  int num_bvh_nodes;   /**< nodes of the hierarchy (0: none, queries visit all) */
  teal_bvh_node *bvh;  /**< the bounding volume hierarchy (volume_mesh_bvh.h) */
} teal_volume_mesh;

/** A soft sphere of radius R > 0 and modulus E > 0 with cells of size about
 *  resolution_hint (> 0; NaN or 0: R / 4; 2 to 64 cells across).
 *  NULL with the cause in err (NULL allowed) on a bad value (TEAL_EINVAL) or
 *  no memory (TEAL_ENOMEM). */
TEAL_API teal_volume_mesh *teal_volume_mesh_soft_sphere(double radius, double modulus,
                                                        double resolution_hint, teal_error *err);

/** A soft box of side lengths size (all > 0) and modulus E > 0 with cells of
 *  size about resolution_hint (NaN or 0: the smallest half side; 2 to 64
 *  cells across the longest side). NULL with the cause in err on a bad value
 *  (TEAL_EINVAL) or no memory (TEAL_ENOMEM). */
TEAL_API teal_volume_mesh *teal_volume_mesh_soft_box(teal_vec3 size, double modulus,
                                                     double resolution_hint, teal_error *err);

/** The mesh's volume (the sum of its tetrahedra's); 0 for NULL. */
TEAL_API double teal_volume_mesh_volume(const teal_volume_mesh *mesh);

/** Frees a mesh (NULL is ignored). */
TEAL_API void teal_volume_mesh_free(teal_volume_mesh *mesh);

#ifdef __cplusplus
}
#endif
#endif
