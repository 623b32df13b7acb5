/* MJCF contype and conaffinity. MuJoCo lets two geoms collide iff
 * (contype_a & conaffinity_b) || (contype_b & conaffinity_a); its other
 * filters (geoms of one body or of bodies welded together, a body and its
 * parent unless the parent is the world) are the plant's default filters
 * (scene_graph_source.c). The bits are not mapped onto the scene graph's
 * collision groups, whose test is an AND of both directions, not an OR:
 * every pair the bits keep apart is excluded on its own. */
#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/mjcf_internal.h"

static int bits_collide(const mjcf_geom *a, const mjcf_geom *b) {
  return (a->contype & b->conaffinity) != 0 || (b->contype & a->conaffinity) != 0;
}

/* 1 when some collision geom has bits other than MuJoCo's defaults (1, 1):
 * with none, every pair passes and the pairwise pass is skipped. */
static int any_custom_bits(const mjcf_model *m) {
  for (int i = 0; i < m->geoms.n; i++) {
    const mjcf_geom *g = &MGEOM(m)[i];
    if (g->plant_geometry >= 0 && (g->contype != 1 || g->conaffinity != 1)) {
      return 1;
    }
  }
  return 0;
}

int mjcf_build_contype_filters(mjcf_model *m, teal_plant *plant) {
  if (!any_custom_bits(m)) {
    return TEAL_OK;
  }
  for (int i = 0; i < m->geoms.n; i++) {
    const mjcf_geom *a = &MGEOM(m)[i];
    for (int k = i + 1; a->plant_geometry >= 0 && k < m->geoms.n; k++) {
      const mjcf_geom *b = &MGEOM(m)[k];
      /* geoms of one plant body never collide: no record needed */
      if (b->plant_geometry < 0 || MBODY(m)[a->body].body == MBODY(m)[b->body].body ||
          bits_collide(a, b)) {
        continue;
      }
      int rc =
          teal_plant_exclude_collision_geometry_pair(plant, a->plant_geometry, b->plant_geometry);
      if (rc < 0) {
        const teal_error *pe = teal_plant_error(plant);
        return urdf_fail(&m->u, b->node, rc, "%s", pe->code ? pe->message : teal_strerror(rc));
      }
    }
  }
  return TEAL_OK;
}
