/* Scene graph queries: geometry poses from the sources' pose inputs, the
 * point-pair penetrations of the candidate pairs, and signed distances
 * (see scene_graph.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "geometry/proximity/narrowphase.h"
#include "geometry/scene_graph/scene_graph_internal.h"
#include "geometry/scene_graph/scene_graph_query.h"

/* ---- the broadphase scratch ------------------------------------------------------ */

static void scratch_free(void *value) {
  sg_scratch *s = value;
  teal_broadphase_free(s->bp);
  teal_free(s->boxes);
  teal_free(s->pairs);
  memset(s, 0, sizeof(*s));
}

/* A context's scratch is made from the model {sg}; copies between existing
 * contexts keep the destination's buffers. */
static int scratch_copy(void *dst, const void *src) {
  sg_scratch *d = dst;
  const sg_scratch *s = src;
  if (d->bp || !s->sg) {
    return TEAL_OK;
  }
  int n = s->sg->nprox;
  d->sg = s->sg;
  d->bp = teal_broadphase_new(n, NULL);
  d->boxes = teal_calloc((size_t)n + 1, sizeof(*d->boxes));
  if (!d->bp || !d->boxes || TEAL_RESERVE(d->pairs, d->cap, 4 * n + 64) != TEAL_OK) {
    scratch_free(d);
    return TEAL_ENOMEM;
  }
  return TEAL_OK;
}

const teal_value_type teal_sg_scratch_type = {"teal_scene_graph_scratch", sizeof(sg_scratch),
                                              NULL, scratch_copy, scratch_free};

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

/* Narrowphase of candidate pair (a, b); appends a pair when they overlap. */
static int collide(const teal_scene_graph *sg, sg_scratch *s, const teal_transform *X_WG, int a,
                   int b, teal_point_pair_list *out) {
  teal_penetration pen;
  int overlapping = 0;
  int rc = teal_shape_pair_penetration(&sg->geoms[a].shape, X_WG[a], &sg->geoms[b].shape,
                                       X_WG[b], &pen, &overlapping);
  if (rc || !overlapping) {
    return rc == TEAL_EUNSUPPORTED ? TEAL_OK : rc;
  }
  s->warnings += pen.flags != 0;
  teal_point_pair pp = {a, b, sg->geoms[a].frame, sg->geoms[b].frame, pen.p_WCa, pen.p_WCb,
                        pen.nhat_BA_W, pen.depth};
  return teal_point_pair_list_push(out, &pp);
}

static int compare_pairs(const void *x, const void *y) {
  const teal_geometry_pair *a = x, *b = y;
  return a->a != b->a ? (a->a > b->a) - (a->a < b->a) : (a->b > b->b) - (a->b < b->b);
}

/* Candidate pairs from the broadphase over the proximity geometries'
 * boxes; the pair buffer grows (and the sweep reruns) when it overflows. */
static int broadphase(const teal_scene_graph *sg, sg_scratch *s, const teal_transform *X_WG,
                      int *count) {
  for (int i = 0; i < sg->nprox; i++) {
    int g = sg->prox[i];
    int rc = teal_shape_aabb(&sg->geoms[g].shape, X_WG[g], &s->boxes[i]);
    if (rc) {
      return rc;
    }
  }
  for (;;) {
    int rc = teal_broadphase_find_pairs(s->bp, s->boxes, sg->filter, s->pairs, s->cap, count);
    const teal_broadphase_stats *st = teal_broadphase_get_stats(s->bp);
    if (rc || st->overflow == 0) {
      return rc;
    }
    s->growths++;
    if ((rc = TEAL_RESERVE(s->pairs, s->cap, 2 * st->num_pairs)) != TEAL_OK) {
      return rc;
    }
  }
}

int teal_sg_calc_point_pairs(const teal_system *sys, const teal_context *ctx, void *out,
                             void *user) {
  const teal_scene_graph *sg = user;
  teal_point_pair_list *list = out;
  sg_scratch *s = teal_context_scratch_mut(ctx, sg->scratch);
  const teal_transform *X_WG;
  int count = 0, rc = s && s->bp ? TEAL_OK : TEAL_ENOMEM;
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, sg->ce_poses, (const void **)&X_WG);
  }
  if (rc == TEAL_OK && list->cap == 0) {
    rc = teal_point_pair_list_reserve(list, 4 * sg->ngeoms + 16);
  }
  if (rc == TEAL_OK) {
    rc = broadphase(sg, s, X_WG, &count);
  }
  if (rc == TEAL_OK && count > 1) {
    /* sweep order depends on the query history; sort so that a context and
     * its clone give the same list */
    qsort(s->pairs, (size_t)count, sizeof(*s->pairs), compare_pairs);
  }
  int cap0 = list->cap;
  list->n = 0;
  for (int i = 0; rc == TEAL_OK && i < count; i++) {
    rc = collide(sg, s, X_WG, sg->prox[s->pairs[i].a], sg->prox[s->pairs[i].b], list);
  }
  s->growths += list->cap != cap0; /* the list grew inside a step: a warning */
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

int teal_sg_output_geometry_poses(const teal_system *sys, const teal_context *ctx, void *out,
                                  void *user) {
  const teal_scene_graph *sg = user;
  const teal_transform *X_WG;
  int rc = teal_eval_cache_entry(sys, ctx, sg->ce_poses, (const void **)&X_WG);
  teal_transform_list *list = out;
  if (rc == TEAL_OK && (rc = teal_transform_list_resize(list, sg->ngeoms)) == TEAL_OK &&
      sg->ngeoms > 0) {
    memcpy(list->X, X_WG, (size_t)sg->ngeoms * sizeof(*X_WG));
  }
  return rc;
}

/* ---- queries in a context ------------------------------------------------------------ */

/* The error of a query with a missing argument, a scene graph that is not
 * finalized or a context without it (recorded on ctx when there is one). */
static int query_bad_call(const teal_scene_graph *sg, const teal_context *ctx,
                          const teal_context *own, const char *fn) {
  int code = sg && !sg->system ? TEAL_ESTATE : TEAL_EINVAL;
  if (!ctx) {
    return code;
  }
  const char *why = !sg           ? "NULL scene graph"
                    : !sg->system ? "the scene graph is not finalized (call "
                                    "teal_scene_graph_finalize first)"
                    : !own        ? "the context holds no context of the scene graph's system"
                                  : "the result pointer is NULL";
  return teal_context_report_error(ctx, code, "scene graph %s: %s", fn, why);
}

int teal_scene_graph_eval_geometry_poses(const teal_scene_graph *sg, const teal_context *ctx,
                                         const teal_transform **X_WG) {
  const teal_context *own = teal_sg_own_context(sg, ctx);
  if (!own || !X_WG) {
    return query_bad_call(sg, ctx, own, "eval_geometry_poses");
  }
  return teal_eval_cache_entry(sg->system, own, sg->ce_poses, (const void **)X_WG);
}

int teal_scene_graph_eval_point_pair_penetrations(const teal_scene_graph *sg,
                                                  const teal_context *ctx,
                                                  const teal_point_pair_list **pairs) {
  const teal_context *own = teal_sg_own_context(sg, ctx);
  if (!own || !pairs) {
    return query_bad_call(sg, ctx, own, "eval_point_pair_penetrations");
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
  if (!distance) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "scene graph: signed distance: distance is NULL");
  }
  if (a < 0 || b < 0 || a >= sg->ngeoms || b >= sg->ngeoms || a == b ||
      sg->geoms[a].role != TEAL_ROLE_PROXIMITY || sg->geoms[b].role != TEAL_ROLE_PROXIMITY) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "scene graph: signed distance needs two distinct proximity "
                                     "geometries");
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

int teal_scene_graph_broadphase_stats(const teal_scene_graph *sg, const teal_context *ctx,
                                      teal_broadphase_stats *stats) {
  const teal_context *own = teal_sg_own_context(sg, ctx);
  const sg_scratch *s = own ? teal_context_scratch(own, sg->scratch) : NULL;
  if (!own || !stats) {
    return query_bad_call(sg, ctx, own, "broadphase_stats");
  }
  if (!s || !s->bp) {
    return teal_context_report_error(
        ctx, TEAL_EINVAL, "scene graph broadphase_stats: the context holds no broadphase");
  }
  *stats = *teal_broadphase_get_stats(s->bp);
  return TEAL_OK;
}

long teal_scene_graph_warning_count(const teal_scene_graph *sg, const teal_context *ctx) {
  const teal_context *own = teal_sg_own_context(sg, ctx);
  const sg_scratch *s = own ? teal_context_scratch(own, sg->scratch) : NULL;
  return s ? s->warnings + s->growths : 0;
}

int teal_sg_size_outputs(const teal_system *sys, const teal_context *ctx, void *user) {
  const teal_scene_graph *sg = user;
  for (int i = 0; i < sg->nsources; i++) {
    int has = teal_input_has_value(sys, ctx, sg->sources[i].port);
    if (has <= 0 && sg->sources[i].num_frames > 0) {
      return has < 0 ? has : TEAL_OK; /* not wired: leave it to the first query */
    }
  }
  const void *value;
  return teal_eval_abstract_output(sys, ctx, sg->out_query, &value);
}
