/* Triangle meshes for the mesh tests, built in code (a cuboid, an icosphere,
 * an L-shaped prism), and writers for the file formats read through assimp
 * (binary STL, ASCII STL, OBJ), so tests carry no binary data files. */
#ifndef TEAL_TESTS_SUPPORT_MESH_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MESH_FIXTURES_H

#include "geometry/shapes/mesh_file.h"

/** A cuboid with side lengths a, b, c centred at the origin: 8 vertices,
 *  12 outward triangles (arrays from teal_calloc: teal_mesh_release). */
teal_mesh ts_mesh_box(double a, double b, double c);

/** An icosahedron subdivided `levels` times, its vertices on the sphere of
 *  radius r about the origin (levels 2: 162 vertices, 320 triangles). */
teal_mesh ts_mesh_icosphere(int levels, double r);

/** The L-shaped prism {(x, y) in [0,2]^2 minus (1,2]^2} x [0, 1]: volume
 *  3, hull volume 3.5. */
teal_mesh ts_mesh_l_prism(void);

/** Writers of the mesh as a file; 0 on success. */
int ts_mesh_write_stl_binary(const char *path, const teal_mesh *m);
int ts_mesh_write_stl_ascii(const char *path, const teal_mesh *m);
int ts_mesh_write_obj(const char *path, const teal_mesh *m);

/** Writes the bytes to path; 0 on success. */
int ts_write_bytes(const char *path, const void *data, size_t n);

/** Reads the file at path (malloc'd, *n bytes); NULL on failure. */
unsigned char *ts_read_bytes(const char *path, size_t *n);

#endif
