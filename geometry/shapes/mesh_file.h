/** @file
 * Triangle meshes read from files (Drake's Mesh and its obj reader, for the
 * formats of the Open Asset Import Library): STL (binary and ASCII), OBJ,
 * and whatever else assimp reads (PLY, OFF, Collada, glTF, ...).
 *
 * A loaded mesh is a plain value: vertices in the mesh's frame G, already
 * multiplied by the scale, and triangles as vertex index triples (faces
 * with more corners are triangulated, identical vertices joined, node
 * transforms of scene formats applied; points and lines are dropped).
 * Its convex hull (mesh_hull.h) is the collision shape, its mass properties
 * (mesh_properties.h) the inertia of a solid of that shape.
 *
 * Loading checks what assimp does not: every coordinate finite, at least one
 * triangle, and the file's size (at most TEAL_MESH_MAX_BYTES). assimp writes
 * nothing to stdout or stderr (no log stream is attached); its memory does
 * not go through the teal_alloc hooks, the mesh's own arrays do. Known
 * assimp defect: Debian's assimp 5.2 leaks a few kilobytes when its ASCII
 * STL reader fails on a malformed file. */
#ifndef TEAL_GEOMETRY_SHAPES_MESH_FILE_H
#define TEAL_GEOMETRY_SHAPES_MESH_FILE_H

#include <stddef.h>

#include "teal_export.h"

#include "framework/error.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest mesh file (or buffer) read, in bytes: 512 MiB. */
#define TEAL_MESH_MAX_BYTES ((size_t)512 << 20)

/** A triangle mesh. Triangle t has the vertices triangles[3 t], [3 t + 1]
 *  and [3 t + 2], counter-clockwise seen from outside for a well-made closed
 *  mesh. */
typedef struct teal_mesh {
  int num_vertices;    /**< number of vertices */
  teal_vec3 *vertices; /**< the vertices in G, scaled (owned) */
  int num_triangles;   /**< number of triangles */
  int *triangles;      /**< 3 vertex indices per triangle (owned) */
} teal_mesh;

/** Reads the mesh file at path, multiplies its coordinates by scale and
 *  writes it to out (release it with teal_mesh_release). The format comes
 *  from the file's contents and extension. Returns TEAL_OK, or:
 *  TEAL_EINVAL for NULL arguments or a scale that is not finite and > 0;
 *  TEAL_EIO when the file cannot be read or is not a regular file;
 *  TEAL_ESIZE when it is larger than TEAL_MESH_MAX_BYTES or holds more
 *  vertices or triangles than an int counts; TEAL_EPARSE when assimp cannot
 *  read it (its message is kept) or it holds no triangle; TEAL_ENONFINITE
 *  for a NaN or infinite coordinate; TEAL_ENOMEM. Messages name the file.
 *  On failure out is zeroed. */
TEAL_API int teal_mesh_load_file(const char *path, double scale, teal_mesh *out, teal_error *err);

/** As teal_mesh_load_file for a file's contents in memory (size bytes);
 *  format is the format's usual extension without the dot ("stl", "obj",
 *  ...), which assimp uses as a hint; messages name the source "<memory>". */
TEAL_API int teal_mesh_load_memory(const void *data, size_t size, const char *format, double scale,
                                   teal_mesh *out, teal_error *err);

/** Releases the mesh's arrays and zeroes it (NULL is a no-op). */
TEAL_API void teal_mesh_release(teal_mesh *mesh);

#ifdef __cplusplus
}
#endif
#endif
