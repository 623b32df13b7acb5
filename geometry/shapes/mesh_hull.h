/** @file
 * The convex hull of a mesh, the shape a mesh collides as (as Drake does for
 * point contact), built with qhull (reentrant libqhull_r), and the
 * convenience a model parser calls for a `<mesh>` element.
 *
 * Meshes far from convex collide poorly as their hull (a bowl collides as a
 * full ball), so teal_mesh_nonconvexity measures how far: the part of the
 * hull's volume the solid does not fill. Parsers warn above
 * TEAL_MESH_NONCONVEXITY_WARN. qhull writes nothing to stdout or stderr. */
#ifndef TEAL_GEOMETRY_SHAPES_MESH_HULL_H
#define TEAL_GEOMETRY_SHAPES_MESH_HULL_H

#include "teal_export.h"

#include "framework/error.h"
#include "geometry/shapes/mesh_file.h"
#include "geometry/shapes/shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Non-convexity above which teal_mesh_shapes_from_file warns: the solid
 *  fills less than 95% of its hull. */
#define TEAL_MESH_NONCONVEXITY_WARN 0.05

/** Longest warning text of teal_mesh_shapes, including the terminator. */
#define TEAL_MESH_WARNING_MAX 256

/** Writes the convex hull of the mesh's vertices to hull as a
 *  TEAL_SHAPE_CONVEX shape holding the hull's vertices only (release it
 *  with teal_shape_release), and its volume to volume (may be NULL).
 *  TEAL_EINVAL for NULL arguments or vertices that span no volume (fewer
 *  than 4, or all in a plane: qhull's message is kept), TEAL_ENOMEM. */
TEAL_API int teal_mesh_convex_hull(const teal_mesh *mesh, teal_shape *hull, double *volume,
                                   teal_error *err);

/** Writes 1 - V / V_hull to out: 0 for a convex mesh, towards 1 for a thin
 *  curved shell; V is the volume of the closed mesh's solid
 *  (teal_mesh_calc_mass_properties) and V_hull its hull's. Errors as those two
 *  functions (an open mesh is TEAL_EINVAL: it has no volume to compare). */
TEAL_API int teal_mesh_nonconvexity(const teal_mesh *mesh, double *out, teal_error *err);

/** The shapes a model's `<mesh>` element stands for. */
typedef struct teal_mesh_shapes {
  teal_shape collision; /**< the hull, TEAL_SHAPE_CONVEX */
  teal_shape visual;    /**< the mesh itself, TEAL_SHAPE_MESH (file name and scale) */
  /** teal_mesh_nonconvexity, or -1 when the mesh is not closed. */
  double nonconvexity;
  /** "" or a warning naming the file: far from convex (above
   *  TEAL_MESH_NONCONVEXITY_WARN) or not closed. */
  char warning[TEAL_MESH_WARNING_MAX];
} teal_mesh_shapes;

/** Loads the mesh file at path (a resolved file name: package:// URIs are
 *  the parser's business, see multibody/parsing/model_path.h) with a
 *  uniform scale and writes both shapes to out (release them with
 *  teal_mesh_shapes_release). Errors as teal_mesh_load_file and
 *  teal_mesh_convex_hull; on failure out holds no memory. An open mesh is
 *  not an error (its hull still collides) but warns. */
TEAL_API int teal_mesh_shapes_from_file(const char *path, double scale, teal_mesh_shapes *out,
                                        teal_error *err);

/** Releases both shapes (NULL is a no-op). */
TEAL_API void teal_mesh_shapes_release(teal_mesh_shapes *shapes);

#ifdef __cplusplus
}
#endif
#endif
