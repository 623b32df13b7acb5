/* Inside the geometry module: building a soft mesh's hierarchy. */
#ifndef TEAL_GEOMETRY_HYDROELASTIC_VOLUME_MESH_INTERNAL_H
#define TEAL_GEOMETRY_HYDROELASTIC_VOLUME_MESH_INTERNAL_H

#include "geometry/hydroelastic/volume_mesh.h"

/* Builds m's bounding volume hierarchy, reordering its tetrahedra so each
 * leaf's are consecutive. TEAL_ENOMEM (m unchanged but for the order)
 * without memory. */
int teal_volume_mesh_build_bvh(teal_volume_mesh *m);

#endif
