/* The scene graph: registration of sources, frames, geometries and filters,
 * and its leaf system (see scene_graph.h). Queries are in
 * scene_graph_query.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "framework/leaf_util.h"
#include "geometry/scene_graph/scene_graph_internal.h"

static const char scene_graph_tag = 0;

/* ---- construction ---------------------------------------------------------- */

teal_scene_graph *teal_scene_graph_new(const char *name, teal_error *err) {
  teal_scene_graph *sg = teal_calloc(1, sizeof(*sg));
  if (sg) {
    sg->name = teal_strdup(name ? name : "scene_graph");
  }
  if (!sg || !sg->name) {
    teal_free(sg);
    teal_error_set(err, TEAL_ENOMEM, "scene graph: out of memory");
    return NULL;
  }
  return sg;
}

static void destroy(teal_scene_graph *sg) {
  for (int i = 0; i < sg->nsources; i++) {
    teal_free(sg->sources[i].name);
  }
  for (int i = 0; i < sg->nframes; i++) {
    teal_free(sg->frames[i].name);
  }
  for (int i = 0; i < sg->ngeoms; i++) {
    teal_free(sg->geoms[i].name);
    teal_shape_release(&sg->geoms[i].shape);
  }
  teal_free(sg->sources);
  teal_free(sg->frames);
  teal_free(sg->geoms);
  teal_free(sg->excluded);
  teal_free(sg->excluded_geoms);
  teal_free(sg->prox);
  teal_collision_filter_free(sg->filter);
  teal_free(sg->name);
  teal_free(sg);
}

void teal_scene_graph_free(teal_scene_graph *sg) {
  if (!sg) {
    return;
  }
  if (sg->system) {
    teal_system_free(sg->system);
    return;
  }
  destroy(sg);
}

const teal_error *teal_scene_graph_error(const teal_scene_graph *sg) {
  return sg ? &sg->err : NULL;
}

static int fail(teal_scene_graph *sg, int code, const char *fmt, const char *arg) {
  return teal_error_set_sticky(&sg->err, code, fmt, arg ? arg : "(null)");
}

static int check_open(teal_scene_graph *sg, const char *what) {
  if (!sg) {
    return TEAL_EINVAL;
  }
  if (sg->err.code != TEAL_OK) {
    return sg->err.code;
  }
  return sg->finalized ? fail(sg, TEAL_ESTATE, "scene graph: cannot %s after finalize", what)
                       : TEAL_OK;
}

int teal_scene_graph_register_source(teal_scene_graph *sg, const char *name) {
  int rc = check_open(sg, "register a source");
  if (rc) {
    return rc;
  }
  if (!name) {
    return fail(sg, TEAL_EINVAL, "scene graph: register_source: NULL name%s", "");
  }
  for (int i = 0; i < sg->nsources; i++) {
    if (strcmp(sg->sources[i].name, name) == 0) {
      return fail(sg, TEAL_EDUPLICATE, "scene graph: source '%s' already exists", name);
    }
  }
  int grown = TEAL_GROW(sg->sources, sg->cap_sources, sg->nsources + 1);
  sg_source *s = grown == TEAL_OK ? &sg->sources[sg->nsources] : NULL;
  char *nm = s ? teal_strdup(name) : NULL;
  if (!nm) {
    return fail(sg, TEAL_ENOMEM, "scene graph: out of memory adding source '%s'", name);
  }
  *s = (sg_source){nm, 0, -1};
  return sg->nsources++;
}

int teal_scene_graph_register_frame(teal_scene_graph *sg, int source, const char *name) {
  int rc = check_open(sg, "register a frame");
  if (rc) {
    return rc;
  }
  if (source < 0 || source >= sg->nsources || !name) {
    return fail(sg, TEAL_EINVAL, "scene graph: frame '%s' needs a valid source and name", name);
  }
  int grown = TEAL_GROW(sg->frames, sg->cap_frames, sg->nframes + 1);
  sg_frame *f = grown == TEAL_OK ? &sg->frames[sg->nframes] : NULL;
  char *nm = f ? teal_strdup(name) : NULL;
  if (!nm) {
    return fail(sg, TEAL_ENOMEM, "scene graph: out of memory adding frame '%s'", name);
  }
  *f = (sg_frame){nm, source, sg->sources[source].num_frames++};
  return sg->nframes++;
}

static int check_geometry(teal_scene_graph *sg, int frame, const teal_shape *shape,
                          const char *name, teal_geometry_role role,
                          const teal_proximity_properties *props) {
  if (frame < 0 || frame >= sg->nframes || !name || !teal_shape_is_valid(shape)) {
    return fail(sg, TEAL_EINVAL,
                "scene graph: geometry '%s' needs a valid frame, name and shape (finite "
                "positive dimensions)",
                name);
  }
  if (role != TEAL_ROLE_PROXIMITY && role != TEAL_ROLE_ILLUSTRATION) {
    return fail(sg, TEAL_EINVAL, "scene graph: geometry '%s' has an unknown role", name);
  }
  if (role == TEAL_ROLE_PROXIMITY &&
      (shape->kind == TEAL_SHAPE_MESH || !teal_proximity_properties_valid(props))) {
    return fail(sg, TEAL_EINVAL,
                "scene graph: proximity geometry '%s' needs valid contact properties and a "
                "shape other than a mesh",
                name);
  }
  return TEAL_OK;
}

int teal_scene_graph_register_geometry(teal_scene_graph *sg, int frame, teal_transform X_FG,
                                       const teal_shape *shape, const char *name,
                                       teal_geometry_role role,
                                       const teal_proximity_properties *props,
                                       const double rgba[4]) {
  int rc = check_open(sg, "register a geometry");
  if (rc || (rc = check_geometry(sg, frame, shape, name, role, props))) {
    return rc;
  }
  int grown = TEAL_GROW(sg->geoms, sg->cap_geoms, sg->ngeoms + 1);
  sg_geometry *g = grown == TEAL_OK ? &sg->geoms[sg->ngeoms] : NULL;
  char *nm = g ? teal_strdup(name) : NULL;
  if (!nm || teal_shape_copy(&g->shape, shape) != TEAL_OK) {
    teal_free(nm);
    return fail(sg, TEAL_ENOMEM, "scene graph: out of memory adding geometry '%s'", name);
  }
  static const double grey[4] = {0.7, 0.7, 0.7, 1.0};
  g->name = nm;
  g->group = 1u;
  g->mask = 0xffffffffu;
  g->frame = frame;
  g->X_FG = X_FG;
  g->role = role;
  g->props = props && role == TEAL_ROLE_PROXIMITY ? *props : teal_proximity_properties_make(0, 0);
  memcpy(g->rgba, rgba ? rgba : grey, sizeof(g->rgba));
  return sg->ngeoms++;
}

int teal_scene_graph_set_collision_group(teal_scene_graph *sg, int geometry, uint32_t group,
                                         uint32_t mask) {
  int rc = check_open(sg, "set a collision group");
  if (rc) {
    return rc;
  }
  if (geometry < 0 || geometry >= sg->ngeoms) {
    return fail(sg, TEAL_EINVAL, "scene graph: set_collision_group: bad geometry id%s", "");
  }
  sg->geoms[geometry].group = group;
  sg->geoms[geometry].mask = mask;
  return TEAL_OK;
}

/* Appends the pair (min, max) to a list of int pairs. */
static int push_pair(teal_scene_graph *sg, int **list, int *n, int *cap, int a, int b) {
  if (teal_grow((void **)list, cap, *n + 1, 2 * sizeof(int))) {
    return fail(sg, TEAL_ENOMEM, "scene graph: out of memory%s", "");
  }
  int *e = *list + 2 * *n;
  e[0] = a < b ? a : b;
  e[1] = a < b ? b : a;
  (*n)++;
  return TEAL_OK;
}

int teal_scene_graph_exclude_frame_pair(teal_scene_graph *sg, int a, int b) {
  int rc = check_open(sg, "exclude a frame pair");
  if (rc) {
    return rc;
  }
  if (a < 0 || b < 0 || a >= sg->nframes || b >= sg->nframes) {
    return fail(sg, TEAL_EINVAL, "scene graph: exclude_frame_pair: bad frame id%s", "");
  }
  return push_pair(sg, &sg->excluded, &sg->nexcluded, &sg->cap_excluded, a, b);
}

int teal_scene_graph_exclude_geometry_pair(teal_scene_graph *sg, int a, int b) {
  static const char fn[] = "teal_scene_graph_exclude_geometry_pair";
  int rc = check_open(sg, "exclude a geometry pair");
  if (rc) {
    return rc;
  }
  if (a < 0 || b < 0 || a >= sg->ngeoms || b >= sg->ngeoms) {
    return teal_error_set_sticky(&sg->err, TEAL_ENOTFOUND,
                                 "%s: no geometry pair (%d, %d) (the scene graph has %d)", fn, a, b,
                                 sg->ngeoms);
  }
  if (a == b) {
    return teal_error_set_sticky(
        &sg->err, TEAL_EINVAL, "%s: geometry %d given twice (a pair needs two geometries)", fn, a);
  }
  return push_pair(sg, &sg->excluded_geoms, &sg->nexcluded_geoms, &sg->cap_excluded_geoms, a, b);
}

/* ---- filtering and the candidate pairs ------------------------------------------ */

static int compare_pairs(const void *x, const void *y) {
  const int *a = x, *b = y;
  return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* 1 when the pair (a, b) is in the list of n pairs (binary search once
 * sorted, a scan before). */
static int pair_listed(const int *list, int n, int sorted, int a, int b) {
  int key[2] = {a < b ? a : b, a < b ? b : a};
  if (n == 0) {
    return 0;
  }
  if (sorted) {
    return bsearch(key, list, (size_t)n, 2 * sizeof(int), compare_pairs) != NULL;
  }
  for (int i = 0; i < n; i++) {
    if (list[2 * i] == key[0] && list[2 * i + 1] == key[1]) {
      return 1;
    }
  }
  return 0;
}

/* Sorts the excluded pairs once exclusions are closed, so building the
 * filter costs a binary search per geometry pair (a welded group of n
 * bodies excludes n (n - 1) / 2 pairs). */
static void sort_exclusions(teal_scene_graph *sg) {
  if (sg->nexcluded > 1) {
    qsort(sg->excluded, (size_t)sg->nexcluded, 2 * sizeof(int), compare_pairs);
  }
  if (sg->nexcluded_geoms > 1) {
    qsort(sg->excluded_geoms, (size_t)sg->nexcluded_geoms, 2 * sizeof(int), compare_pairs);
  }
  sg->excluded_sorted = 1;
}

int teal_scene_graph_pair_is_candidate(const teal_scene_graph *sg, int a, int b) {
  if (!sg || a < 0 || b < 0 || a >= sg->ngeoms || b >= sg->ngeoms || a == b) {
    return 0;
  }
  const sg_geometry *ga = &sg->geoms[a], *gb = &sg->geoms[b];
  if (ga->role != TEAL_ROLE_PROXIMITY || gb->role != TEAL_ROLE_PROXIMITY ||
      ga->frame == gb->frame) {
    return 0;
  }
  if (ga->shape.kind == TEAL_SHAPE_HALF_SPACE && gb->shape.kind == TEAL_SHAPE_HALF_SPACE) {
    return 0;
  }
  if (!(ga->group & gb->mask) || !(gb->group & ga->mask)) {
    return 0;
  }
  return !pair_listed(sg->excluded, sg->nexcluded, sg->excluded_sorted, ga->frame, gb->frame) &&
         !pair_listed(sg->excluded_geoms, sg->nexcluded_geoms, sg->excluded_sorted, a, b);
}

/* Lists the proximity geometries and builds their collision filter from
 * teal_scene_graph_pair_is_candidate (the one definition of a candidate). */
static int build_filter(teal_scene_graph *sg) {
  sg->prox = teal_calloc((size_t)sg->ngeoms + 1, sizeof(int));
  int *frames = teal_calloc((size_t)sg->ngeoms + 1, sizeof(int));
  int rc = sg->prox && frames ? TEAL_OK : TEAL_ENOMEM;
  for (int g = 0; rc == TEAL_OK && g < sg->ngeoms; g++) {
    if (sg->geoms[g].role == TEAL_ROLE_PROXIMITY) {
      frames[sg->nprox] = sg->geoms[g].frame;
      sg->prox[sg->nprox++] = g;
    }
  }
  if (rc == TEAL_OK && !(sg->filter = teal_collision_filter_new(sg->nprox, frames, NULL))) {
    rc = TEAL_ENOMEM;
  }
  for (int i = 0; rc == TEAL_OK && i < sg->nprox; i++) {
    for (int j = i + 1; j < sg->nprox; j++) {
      if (!teal_scene_graph_pair_is_candidate(sg, sg->prox[i], sg->prox[j])) {
        teal_collision_filter_exclude_pair(sg->filter, i, j, 1);
      }
    }
  }
  teal_free(frames);
  return rc ? fail(sg, rc, "scene graph: out of memory building the %s", "collision filter")
            : TEAL_OK;
}

/* ---- the system ---------------------------------------------------------------- */

static void release(void *user) {
  teal_scene_graph *sg = user;
  if (sg->ready) {
    sg->system = NULL;
    destroy(sg);
  }
}

static void declare(teal_system *sys, teal_scene_graph *sg) {
  for (int i = 0; i < sg->nsources; i++) {
    char name[300];
    snprintf(name, sizeof(name), "%s_pose", sg->sources[i].name);
    sg->sources[i].port = teal_leaf_declare_abstract_input(sys, name, &teal_transform_list_type);
  }
  sg->poses_type = (teal_value_type){"teal_scene_graph_geometry_poses",
                                     (size_t)(sg->ngeoms ? sg->ngeoms : 1) *
                                         sizeof(teal_transform),
                                     NULL, NULL, NULL};
  sg_scratch model;
  memset(&model, 0, sizeof(model));
  model.sg = sg;
  sg->scratch = teal_leaf_declare_scratch(sys, "broadphase", &teal_sg_scratch_type, &model);
  teal_ticket inputs = TEAL_TICKET_ALL_INPUTS;
  sg->ce_poses = teal_leaf_declare_abstract_cache_entry(
      sys, "geometry_poses", &sg->poses_type, teal_sg_calc_geometry_poses, sg, &inputs, 1);
  sg->ce_pairs = teal_leaf_declare_abstract_cache_entry(sys, "point_pairs",
                                                        &teal_point_pair_list_type,
                                                        teal_sg_calc_point_pairs, sg, &inputs, 1);
  sg->out_poses =
      teal_leaf_declare_abstract_output(sys, "geometry_poses", &teal_transform_list_type,
                                        teal_sg_output_geometry_poses, sg, &inputs, 1);
  sg->out_query = teal_leaf_declare_abstract_output(sys, "query", &teal_point_pair_list_type,
                                                    teal_sg_output_query, sg, &inputs, 1);
  teal_leaf_declare_initialization_publish(sys, teal_sg_size_outputs, sg);
  teal_leaf_set_type_tag(sys, &scene_graph_tag);
}

int teal_scene_graph_finalize(teal_scene_graph *sg) {
  int rc = check_open(sg, "finalize");
  if (rc == TEAL_OK) {
    sort_exclusions(sg);
  }
  if (rc || (rc = build_filter(sg))) {
    return rc;
  }
  teal_system *sys = teal_leaf_new(sg->name, sg, release);
  if (!sys) {
    return fail(sg, TEAL_ENOMEM, "scene graph: out of memory building %s", "its system");
  }
  declare(sys, sg);
  if ((rc = teal_leaf_finalize(sys)) != TEAL_OK) {
    char msg[TEAL_ERROR_MESSAGE_MAX];
    snprintf(msg, sizeof(msg), "%s", teal_system_error(sys)->message);
    teal_system_free(sys);
    return fail(sg, rc, "scene graph: building its system failed: %s", msg);
  }
  sg->finalized = sg->ready = 1;
  sg->system = sys;
  return TEAL_OK;
}

teal_system *teal_scene_graph_system(teal_scene_graph *sg) {
  return sg ? sg->system : NULL;
}

teal_scene_graph *teal_scene_graph_from_system(const teal_system *sys) {
  return sys && teal_system_type_tag(sys) == &scene_graph_tag ? teal_system_user(sys) : NULL;
}

const teal_context *teal_sg_own_context(const teal_scene_graph *sg, const teal_context *ctx) {
  return sg ? teal_leaf_util_own_context(sg->system, &scene_graph_tag, ctx, NULL) : NULL;
}

int teal_scene_graph_source_pose_port(const teal_scene_graph *sg, int source) {
  if (!sg || !sg->system) {
    return sg ? TEAL_ESTATE : TEAL_EINVAL;
  }
  return source >= 0 && source < sg->nsources ? sg->sources[source].port : TEAL_ENOTFOUND;
}

int teal_scene_graph_query_output_port(const teal_scene_graph *sg) {
  return !sg ? TEAL_EINVAL : !sg->system ? TEAL_ESTATE : sg->out_query;
}

int teal_scene_graph_geometry_poses_output_port(const teal_scene_graph *sg) {
  return !sg ? TEAL_EINVAL : !sg->system ? TEAL_ESTATE : sg->out_poses;
}

/* ---- model queries ------------------------------------------------------------- */

int teal_scene_graph_num_sources(const teal_scene_graph *sg) {
  return sg ? sg->nsources : 0;
}
int teal_scene_graph_num_frames(const teal_scene_graph *sg) {
  return sg ? sg->nframes : 0;
}
int teal_scene_graph_num_geometries(const teal_scene_graph *sg) {
  return sg ? sg->ngeoms : 0;
}
int teal_scene_graph_geometry_frame(const teal_scene_graph *sg, int g) {
  return sg && g >= 0 && g < sg->ngeoms ? sg->geoms[g].frame : -1;
}
int teal_scene_graph_frame_source(const teal_scene_graph *sg, int f) {
  return sg && f >= 0 && f < sg->nframes ? sg->frames[f].source : -1;
}
int teal_scene_graph_frame_index(const teal_scene_graph *sg, int f) {
  return sg && f >= 0 && f < sg->nframes ? sg->frames[f].index : -1;
}
const char *teal_scene_graph_geometry_name(const teal_scene_graph *sg, int g) {
  return sg && g >= 0 && g < sg->ngeoms ? sg->geoms[g].name : NULL;
}
teal_geometry_role teal_scene_graph_geometry_role(const teal_scene_graph *sg, int g) {
  return sg && g >= 0 && g < sg->ngeoms ? sg->geoms[g].role : (teal_geometry_role)0;
}
const double *teal_scene_graph_geometry_rgba(const teal_scene_graph *sg, int g) {
  return sg && g >= 0 && g < sg->ngeoms ? sg->geoms[g].rgba : NULL;
}
const char *teal_scene_graph_frame_name(const teal_scene_graph *sg, int f) {
  return sg && f >= 0 && f < sg->nframes ? sg->frames[f].name : NULL;
}
const teal_shape *teal_scene_graph_geometry_shape(const teal_scene_graph *sg, int g) {
  return sg && g >= 0 && g < sg->ngeoms ? &sg->geoms[g].shape : NULL;
}
const teal_transform *teal_scene_graph_geometry_pose_in_frame(const teal_scene_graph *sg, int g) {
  return sg && g >= 0 && g < sg->ngeoms ? &sg->geoms[g].X_FG : NULL;
}
const teal_proximity_properties *teal_scene_graph_geometry_proximity(const teal_scene_graph *sg,
                                                                     int g) {
  return sg && g >= 0 && g < sg->ngeoms && sg->geoms[g].role == TEAL_ROLE_PROXIMITY
             ? &sg->geoms[g].props
             : NULL;
}
