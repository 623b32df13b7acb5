/* Scene graph queries: geometry poses from the sources' pose inputs, the
 * point-pair penetrations of the candidate pairs, and signed distances
 * (see scene_graph.h). */
#include <math.h>
#include <string.h>

#include "geometry/narrowphase.h"
#include "geometry/scene_graph_internal.h"

double teal_sg_shape_bound(const teal_shape *s) {
  switch (s->kind) {
    case TEAL_SHAPE_SPHERE:
      return s->radius;
    case TEAL_SHAPE_BOX:
      return 0.5 * teal_vec3_norm(s->size);
    case TEAL_SHAPE_CYLINDER:
      return hypot(s->radius, 0.5 * s->length);
    case TEAL_SHAPE_CAPSULE:
      return s->radius + 0.5 * s->length;
    case TEAL_SHAPE_ELLIPSOID:
      return fmax(s->size.v[0], fmax(s->size.v[1], s->size.v[2]));
    case TEAL_SHAPE_CONVEX: {
      double r = 0.0;
      for (int i = 0; i < s->num_vertices; i++) {
        r = fmax(r, teal_vec3_norm(s->vertices[i]));
      }
      return r;
    }
    default:
      return INFINITY;
  }
}

const teal_context *teal_sg_own_context(const teal_scene_graph *sg, const teal_context *ctx) {
  if (!sg || !sg->system || !ctx) {
    return NULL;
  }
  return teal_context_system(ctx) == sg->system ? ctx : teal_context_subcontext(ctx, sg->system);
}

/* ---- cache entries --------------------------------------------------------------- */

/* Reads each source's pose list, checking its length. */
static int source_poses(const teal_system *sys, const teal_context *ctx,
                        const teal_scene_graph *sg, int source,
                        const teal_transform_list **list) {
  const sg_source *s = &sg->sources[source];
  if (s->num_frames == 0) {
    *list = NULL;
    return TEAL_OK;
  }
  int rc = teal_eval_abstract_input(sys, ctx, s->port, (const void **)list);
  if (rc) {
    return rc;
  }
  if ((*list)->n != s->num_frames) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "scene graph: source '%s' sent %d poses for its %d frames",
                                     s->name, (*list)->n, s->num_frames);
  }
  return TEAL_OK;
}

int teal_sg_calc_geometry_poses(const teal_system *sys, const teal_context *ctx, void *out,
                                void *user) {
  const teal_scene_graph *sg = user;
  teal_transform *X_WG = out;
  for (int src = 0; src < sg->nsources; src++) {
    const teal_transform_list *list;
    int rc = source_poses(sys, ctx, sg, src, &list);
    if (rc) {
      return rc;
    }
    for (int g = 0; list && g < sg->ngeoms; g++) {
      const sg_frame *f = &sg->frames[sg->geoms[g].frame];
      if (f->source == src) {
        X_WG[g] = teal_transform_compose(list->X[f->index], sg->geoms[g].X_FG);
      }
    }
  }
  return TEAL_OK;
}

/* Nonzero when the bounding spheres of a and b overlap (or one is unbounded). */
static int bounds_overlap(const teal_scene_graph *sg, const teal_transform *X_WG, int a, int b) {
  double r = sg->geoms[a].bound + sg->geoms[b].bound;
  if (!isfinite(r)) {
    return 1;
  }
  teal_vec3 d = teal_vec3_sub(X_WG[a].p, X_WG[b].p);
  return teal_vec3_dot(d, d) <= r * r;
}

/* Narrowphase of candidate pair (a, b); appends a pair when they overlap. */
static int collide(const teal_scene_graph *sg, const teal_transform *X_WG, int a, int b,
                   teal_point_pair_list *out) {
  teal_penetration pen;
  int overlapping = 0;
  int rc = teal_shape_pair_penetration(&sg->geoms[a].shape, X_WG[a], &sg->geoms[b].shape,
                                       X_WG[b], &pen, &overlapping);
  if (rc || !overlapping) {
    return rc == TEAL_EUNSUPPORTED ? TEAL_OK : rc;
  }
  teal_point_pair pp = {a, b, sg->geoms[a].frame, sg->geoms[b].frame, pen.p_WCa, pen.p_WCb,
                        pen.nhat_BA_W, pen.depth};
  return teal_point_pair_list_push(out, &pp);
}

int teal_sg_calc_point_pairs(const teal_system *sys, const teal_context *ctx, void *out,
                             void *user) {
  const teal_scene_graph *sg = user;
  teal_point_pair_list *list = out;
  const teal_transform *X_WG;
  int rc = teal_eval_cache_entry(sys, ctx, sg->ce_poses, (const void **)&X_WG);
  if (rc == TEAL_OK && list->cap == 0) {
    rc = teal_point_pair_list_reserve(list, 4 * sg->ngeoms + 16);
  }
  list->n = 0;
  for (int i = 0; rc == TEAL_OK && i < sg->npairs; i++) {
    int a = sg->pairs[2 * i], b = sg->pairs[2 * i + 1];
    if (bounds_overlap(sg, X_WG, a, b)) {
      rc = collide(sg, X_WG, a, b, list);
    }
  }
  if (rc && rc != TEAL_ESIZE && rc != TEAL_ENOTCONNECTED) {
    return teal_context_report_error(ctx, rc, "scene graph '%s': point-pair query failed (%s)",
                                     sg->name, teal_strerror(rc));
  }
  return rc;
}

int teal_sg_output_query(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  const teal_scene_graph *sg = user;
  const teal_point_pair_list *pairs;
  int rc = teal_eval_cache_entry(sys, ctx, sg->ce_pairs, (const void **)&pairs);
  return rc ? rc : teal_point_pair_list_type.copy(out, pairs);
}

/* ---- queries in a context ------------------------------------------------------------ */

int teal_scene_graph_eval_geometry_poses(const teal_scene_graph *sg, const teal_context *ctx,
                                         const teal_transform **X_WG) {
  const teal_context *own = teal_sg_own_context(sg, ctx);
  if (!own || !X_WG) {
    return sg && !sg->system ? TEAL_ESTATE : TEAL_EINVAL;
  }
  return teal_eval_cache_entry(sg->system, own, sg->ce_poses, (const void **)X_WG);
}

int teal_scene_graph_eval_point_pair_penetrations(const teal_scene_graph *sg,
                                                  const teal_context *ctx,
                                                  const teal_point_pair_list **pairs) {
  const teal_context *own = teal_sg_own_context(sg, ctx);
  if (!own || !pairs) {
    return sg && !sg->system ? TEAL_ESTATE : TEAL_EINVAL;
  }
  return teal_eval_cache_entry(sg->system, own, sg->ce_pairs, (const void **)pairs);
}

int teal_scene_graph_signed_distance(const teal_scene_graph *sg, const teal_context *ctx, int a,
                                     int b, double *distance, teal_vec3 *p_WCa,
                                     teal_vec3 *p_WCb) {
  const teal_transform *X_WG;
  int rc = teal_scene_graph_eval_geometry_poses(sg, ctx, &X_WG);
  if (rc) {
    return rc;
  }
  if (!distance || a < 0 || b < 0 || a >= sg->ngeoms || b >= sg->ngeoms ||
      sg->geoms[a].role != TEAL_ROLE_PROXIMITY || sg->geoms[b].role != TEAL_ROLE_PROXIMITY) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "scene graph: signed distance needs two proximity geometries");
  }
  teal_signed_distance sd;
  rc = teal_shape_pair_signed_distance(&sg->geoms[a].shape, X_WG[a], &sg->geoms[b].shape, X_WG[b],
                                       &sd);
  if (rc) {
    return teal_context_report_error(ctx, rc, "scene graph: signed distance between '%s' and "
                                     "'%s' failed (%s)", sg->geoms[a].name, sg->geoms[b].name,
                                     teal_strerror(rc));
  }
  *distance = sd.distance;
  if (p_WCa) {
    *p_WCa = sd.p_WCa;
  }
  if (p_WCb) {
    *p_WCb = sd.p_WCb;
  }
  return TEAL_OK;
}
