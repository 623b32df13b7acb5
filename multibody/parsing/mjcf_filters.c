/* MuJoCo's collision filters beyond the plant's defaults (Drake's: geoms
 * of one body or of welded bodies never collide, nor a body and its jointed
 * parent unless the parent is the world).
 *
 * contype and conaffinity: MuJoCo lets two geoms collide iff
 * (contype_a & conaffinity_b) || (contype_b & conaffinity_a). The bits are
 * not mapped onto the scene graph's collision groups, whose test is an AND
 * of both directions, not an OR: every pair the bits keep apart is
 * excluded on its own.
 *
 * The parent filter: MuJoCo keeps a body's weld group (the body and the
 * joint-less bodies fixed to it) from its parent's weld group unless that
 * is the world's. The plant's jointed-pair filter covers the same pairs
 * when every weld group is one plant body and every body one joint; a
 * welded body with mass (its own plant body) or a body with several joints
 * (the plant's joint parent is an intermediate body) needs the rest
 * excluded here. (MuJoCo does not filter a body and a parent welded to the
 * world, the plant does: that difference stays, see the mjcf docs.) */
#include <stddef.h>

#include "framework/alloc.h"
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

static int exclude_by_bits(mjcf_model *m, teal_plant *plant) {
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

/* MuJoCo's weld ids: a body with joints (or the world) heads its own
 * group, a joint-less body joins its parent's (parents precede children). */
static void weld_ids(const mjcf_model *m, int *weld) {
  weld[MJCF_WORLD] = MJCF_WORLD;
  for (int b = 1; b < m->bodies.n; b++) {
    weld[b] = MBODY(m)[b].num_joints > 0 ? b : weld[MBODY(m)[b].parent];
  }
}

/* 1 when MuJoCo's parent filter may reach pairs the plant's does not (see
 * the top of the file). */
static int parent_filter_differs(const mjcf_model *m, const int *weld) {
  for (int b = 1; b < m->bodies.n; b++) {
    const mjcf_body *B = &MBODY(m)[b];
    int own_body = B->body != MBODY(m)[B->parent].body;
    if (weld[b] != MJCF_WORLD && (B->num_joints > 1 || (B->num_joints == 0 && own_body))) {
      return 1;
    }
  }
  return 0;
}

/* Excludes every plant body pair of weld groups g and h (members listed in
 * order[start[g]], ... by a counting sort on the weld id). */
static int exclude_groups(mjcf_model *m, teal_plant *plant, const int *order, const int *start,
                          int g, int h) {
  for (int i = start[g]; i < start[g + 1]; i++) {
    for (int k = start[h]; k < start[h + 1]; k++) {
      int a = MBODY(m)[order[i]].body, b = MBODY(m)[order[k]].body;
      int rc = a == b ? TEAL_OK : teal_plant_exclude_collisions_between_bodies(plant, a, b);
      if (rc < 0) {
        const teal_error *pe = teal_plant_error(plant);
        return urdf_fail(&m->u, MBODY(m)[order[k]].node, rc, "%s",
                         pe->code ? pe->message : teal_strerror(rc));
      }
    }
  }
  return TEAL_OK;
}

static int exclude_weld_parents(mjcf_model *m, teal_plant *plant) {
  int n = m->bodies.n;
  int *weld = teal_calloc(3 * (size_t)n + 1, sizeof(int));
  if (!weld) {
    return urdf_fail(&m->u, NULL, TEAL_ENOMEM, "out of memory");
  }
  int *start = weld + n, *order = start + n + 1, rc = TEAL_OK;
  weld_ids(m, weld);
  if (parent_filter_differs(m, weld)) {
    for (int b = 0; b < n; b++) {
      start[weld[b] + 1]++;
    }
    for (int g = 0; g < n; g++) {
      start[g + 1] += start[g];
    }
    for (int b = 0; b < n; b++) {
      order[start[weld[b]]++] = b;
    }
    for (int g = n; g > 0; g--) {
      start[g] = start[g - 1]; /* the fill moved each start to the next group's */
    }
    start[0] = 0;
    for (int y = 1; rc == TEAL_OK && y < n; y++) {
      int wp = weld[MBODY(m)[y].parent];
      rc = weld[y] == y && wp != MJCF_WORLD ? exclude_groups(m, plant, order, start, wp, y)
                                            : TEAL_OK;
    }
  }
  teal_free(weld);
  return rc;
}

int mjcf_build_collision_filters(mjcf_model *m, teal_plant *plant) {
  int rc = exclude_by_bits(m, plant);
  return rc ? rc : exclude_weld_parents(m, plant);
}
