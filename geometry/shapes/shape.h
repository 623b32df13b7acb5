/** @file
 * Geometric shapes (Drake's Shape family) as one small value type.
 *
 * A shape is described in its own frame G: sphere and ellipsoid centred at
 * Go; box centred at Go with full side lengths along G's axes (Drake's
 * Box(width, depth, height)); cylinder and capsule centred with
 * their axis along G's z; half-space the set z <= 0 of G (its outward
 * normal is +z); a convex polytope the convex hull of its vertices (given in
 * G, copied by teal_shape_convex and owned by the shape). Meshes are only
 * named (for visuals) and take no part in queries; a mesh file collides as
 * its convex hull, a convex shape (teal_mesh_convex_hull, mesh_hull.h). */
#ifndef TEAL_GEOMETRY_SHAPES_SHAPE_H
#define TEAL_GEOMETRY_SHAPES_SHAPE_H

#include "teal_export.h"

#include "framework/error.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Shape kinds; the order indexes the narrowphase dispatch table. */
typedef enum teal_shape_kind {
  TEAL_SHAPE_SPHERE = 0, /**< sphere (radius) */
  TEAL_SHAPE_BOX,        /**< box (size: side lengths) */
  TEAL_SHAPE_CYLINDER,   /**< cylinder (radius, length) */
  TEAL_SHAPE_CAPSULE,    /**< capsule (radius, length) */
  TEAL_SHAPE_ELLIPSOID,  /**< ellipsoid (size: semi-axes) */
  TEAL_SHAPE_HALF_SPACE, /**< half-space z <= 0 */
  TEAL_SHAPE_CONVEX,     /**< convex hull of vertices */
  TEAL_SHAPE_MESH,       /**< named mesh (visual only) */
  TEAL_SHAPE_KIND_COUNT  /**< number of kinds (not a kind) */
} teal_shape_kind;

/** A shape. Fields by kind: sphere radius; box size (x, y, z side
 *  lengths); cylinder and capsule radius and length (the cylinder's height,
 *  the capsule's segment length between its cap centres); ellipsoid
 *  semi-axes (a, b, c) in size; convex vertices (num_vertices, owned);
 *  mesh filename (owned, visual only) and scale in size.v[0]. */
typedef struct teal_shape {
  teal_shape_kind kind; /**< which shape, and so which fields are used */
  /** Sphere, cylinder and capsule radius; cylinder and capsule length. @{ */
  double radius, length;
  /** @} */
  teal_vec3 size;      /**< box sides, ellipsoid semi-axes, mesh scale (v[0]) */
  int num_vertices;    /**< convex: number of vertices */
  teal_vec3 *vertices; /**< convex: the vertices in G (owned) */
  char *filename;      /**< mesh: the file name (owned) */
} teal_shape;

/** A sphere of the given radius. The constructors validate their dimensions
 *  (finite, > 0) and return TEAL_OK or TEAL_EINVAL with a message in err (may
 *  be NULL). */
TEAL_API int teal_shape_sphere(double radius, teal_shape *out, teal_error *err);
/** A box with side lengths x, y, z (validated as for teal_shape_sphere). */
TEAL_API int teal_shape_box(double x, double y, double z, teal_shape *out, teal_error *err);
/** A cylinder of the given radius and height (validated as for teal_shape_sphere). */
TEAL_API int teal_shape_cylinder(double radius, double length, teal_shape *out, teal_error *err);
/** A capsule: radius and segment length between its cap centres (validated as
 *  for teal_shape_sphere). */
TEAL_API int teal_shape_capsule(double radius, double length, teal_shape *out, teal_error *err);
/** An ellipsoid with semi-axes a, b, c (validated as for teal_shape_sphere). */
TEAL_API int teal_shape_ellipsoid(double a, double b, double c, teal_shape *out, teal_error *err);
/** The half-space z <= 0 of G; TEAL_EINVAL only for NULL out. */
TEAL_API int teal_shape_half_space(teal_shape *out);
/** A convex hull of n >= 4 non-coplanar vertices (copied). */
TEAL_API int teal_shape_convex(const teal_vec3 *vertices, int n, teal_shape *out, teal_error *err);
/** A named mesh (visual only), uniform scale > 0 (filename copied). */
TEAL_API int teal_shape_mesh(const char *filename, double scale, teal_shape *out, teal_error *err);

/** 1 when the shape's kind and dimensions are valid (as the constructors
 *  check them; for hand-filled shapes), else 0. */
TEAL_API int teal_shape_is_valid(const teal_shape *shape);

/** Deep copy (dst must not hold owned memory). */
TEAL_API int teal_shape_copy(teal_shape *dst, const teal_shape *src);
/** Releases what the shape owns (vertices, filename). */
TEAL_API void teal_shape_release(teal_shape *shape);

/** Radius of the smallest ball about the shape's origin Go that holds it:
 *  INFINITY for a half-space and a mesh (whose extent is unknown), -1 for
 *  NULL or a convex shape without vertices. */
TEAL_API double teal_shape_bounding_radius(const teal_shape *shape);

/** The kind's name ("sphere", ...). */
TEAL_API const char *teal_shape_kind_name(teal_shape_kind kind);

#ifdef __cplusplus
}
#endif
#endif
