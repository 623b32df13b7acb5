/* SDFormat loading entry points: the options, the documents (the main one
 * and included files), <include> resolution, and the parse -> resolve ->
 * convert -> check -> build sequence (see sdf_internal.h). */
#define _XOPEN_SOURCE 700 /* realpath, stat */
#include "multibody/parsing/sdf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "framework/alloc.h"
#include "multibody/parsing/package_map.h"
#include "multibody/parsing/sdf_internal.h"
#include "multibody/parsing/xml_load_internal.h"
#include "multibody/plant/plant_defaults.h"

#define SDF_PATH_MAX 4096

void teal_sdf_options_init(teal_sdf_options *options) {
  if (options) {
    options->max_bytes = TEAL_URDF_DEFAULT_MAX_BYTES;
    options->max_attributes = TEAL_URDF_DEFAULT_MAX_ATTRIBUTES;
    options->max_depth = TEAL_SDF_DEFAULT_MAX_DEPTH;
    options->instance_name = NULL;
    options->packages = NULL;
  }
}

static int resolve_options(const teal_sdf_options *given, teal_sdf_options *o, teal_error *err) {
  teal_sdf_options_init(o);
  if (given) {
    *o = *given;
  }
  if (o->max_bytes == 0 || o->max_attributes < 1 || o->max_depth < 1) {
    return teal_error_set(err, TEAL_EINVAL,
                          "sdf: options: max_bytes (%zu), max_attributes (%d) and max_depth (%d) "
                          "must be positive",
                          o->max_bytes, o->max_attributes, o->max_depth);
  }
  o->max_bytes = o->max_bytes < (size_t)INT_MAX ? o->max_bytes : (size_t)INT_MAX;
  return TEAL_OK;
}

/* ---- documents ------------------------------------------------------------- */

static char *copy_string(const char *s, size_t n) {
  char *c = teal_alloc(n + 1);
  if (c) {
    memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

/* A new document (kept by s) for the bytes buf read from source in dir. */
static int new_document(sdf_state *s, const char *buf, size_t len, const char *source,
                        const char *dir, urdf_model **out) {
  urdf_model *d = teal_calloc(1, sizeof(urdf_model));
  if (d) {
    d->err = s->err;
    d->report = &s->ureport;
    d->source = source;
    d->packages = s->opts.packages;
  }
  urdf_model **slot = d ? urdf_push(s->main ? s->main : d, &s->docs, sizeof(urdf_model *)) : NULL;
  if (!slot) {
    teal_free(d);
    return teal_error_set(s->err, TEAL_ENOMEM, "%s: out of memory", source);
  }
  *slot = d;
  char *src = copy_string(source, strlen(source));
  d->source = urdf_keep(d, src) ? src : "";
  if (dir) {
    char *dcopy = copy_string(dir, strlen(dir));
    d->dir = urdf_keep(d, dcopy);
  }
  if (s->err->code) {
    return s->err->code;
  }
  *out = d;
  int rc = urdf_prescan(d, buf, len, s->opts.max_attributes);
  return rc ? rc : urdf_xml_parse(d, buf, len);
}

/* Reads the file at path (resolved, absolute or relative to the working
 * directory) into a new document. */
static int open_document(sdf_state *s, const char *path, urdf_model **doc) {
  char *buf = NULL, *dir = NULL;
  size_t len = 0;
  int rc = urdf_read_file(path, s->opts.max_bytes, &buf, &len, s->err);
  rc = rc ? rc : urdf_file_dir(path, &dir, s->err);
  if (rc == TEAL_OK) {
    const char *slash = strrchr(path, '/');
    rc = new_document(s, buf, len, slash ? slash + 1 : path, dir, doc);
  }
  teal_free(dir);
  teal_free(buf);
  return rc;
}

/* ---- <include> ---------------------------------------------------------------- */

/* The file or directory an include URI names, into path. */
static int include_target(urdf_model *doc, urdf_node *node, const char *uri, char *path) {
  if (strncmp(uri, "model://", 8) == 0 || strncmp(uri, "package://", 10) == 0) {
    /* "model://name" names the package's own directory: "model://name/." */
    char whole[SDF_PATH_MAX];
    size_t n = strlen(uri);
    while (n > 0 && uri[n - 1] == '/') {
      n--;
    }
    const char *pkg = strstr(uri, "://") + 3;
    int bare = !strchr(pkg, '/') || uri + n <= strchr(pkg, '/');
    if (snprintf(whole, sizeof whole, "%.*s%s", (int)n, uri, bare ? "/." : "") >= SDF_PATH_MAX) {
      return urdf_fail(doc, node, TEAL_ESIZE, "include: URI too long");
    }
    teal_error why = {TEAL_OK, ""};
    int rc = teal_package_map_resolve(doc->packages, whole, doc->dir, path, SDF_PATH_MAX, &why);
    return rc ? urdf_fail(doc, node, rc == TEAL_ESIZE ? rc : TEAL_ENOTFOUND, "include: %s",
                          why.message)
              : TEAL_OK;
  }
  const char *dir = uri[0] == '/' || !doc->dir ? "" : doc->dir;
  int n = snprintf(path, SDF_PATH_MAX, "%s%s", dir, uri);
  return n < 0 || n >= SDF_PATH_MAX ? urdf_fail(doc, node, TEAL_ESIZE, "include: path too long")
                                    : TEAL_OK;
}

/* The model file of directory dir: model.config's <sdf> if it names one,
 * else model.sdf. */
static int model_file_in(sdf_state *s, urdf_model *doc, urdf_node *node, char *path) {
  char config[SDF_PATH_MAX + 16];
  snprintf(config, sizeof config, "%s/model.config", path);
  struct stat st;
  const char *file = "model.sdf";
  urdf_model *cfg = NULL;
  if (stat(config, &st) == 0) {
    int rc = open_document(s, config, &cfg);
    if (rc) {
      return rc;
    }
    /* the first <sdf> (a config may list one file per SDFormat version) */
    urdf_node *sdf = cfg->xml.root ? cfg->xml.root->children : NULL;
    while (sdf && !urdf_is(sdf, "sdf")) {
      sdf = sdf->next;
    }
    const char *text = sdf ? urdf_text(cfg, sdf) : NULL;
    file = text && *text ? text : file;
  }
  char full[SDF_PATH_MAX + 16];
  int n = snprintf(full, sizeof full, "%s/%s", path, file);
  if (n < 0 || n >= SDF_PATH_MAX) {
    return urdf_fail(doc, node, TEAL_ESIZE, "include: path too long");
  }
  memcpy(path, full, (size_t)n + 1);
  return s->err->code;
}

/* The canonical path of the included file into real (TEAL_ENOTFOUND when
 * it does not exist), refusing an include cycle. */
static int include_file(sdf_state *s, urdf_model *doc, urdf_node *node, const char *uri,
                        char *real) {
  char path[SDF_PATH_MAX];
  struct stat st;
  int rc = include_target(doc, node, uri, path);
  if (rc == TEAL_OK && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    rc = model_file_in(s, doc, node, path);
  }
  if (rc == TEAL_OK && !realpath(path, real)) {
    rc = urdf_fail(doc, node, TEAL_ENOTFOUND, "include '%.200s': no file '%.200s' (%s)", uri, path,
                   strerror(errno));
  }
  for (int i = 0; rc == TEAL_OK && i < s->include_stack.n; i++) {
    if (strcmp(((const char **)s->include_stack.data)[i], real) == 0) {
      rc = urdf_fail(doc, node, TEAL_EINVAL, "include cycle: '%.200s' includes itself", real);
    }
  }
  return rc;
}

/* The only <model> of an included document. */
static int included_model(urdf_model *inc, urdf_node **model) {
  urdf_node *root = inc->xml.root;
  if (!root || !urdf_is(root, "sdf")) {
    return urdf_fail(inc, root, TEAL_EPARSE, "the root element must be <sdf>");
  }
  int rc = urdf_unique_child(inc, root, "model", model);
  return rc || *model ? rc : urdf_fail(inc, root, TEAL_EPARSE, "no <model> to include");
}

/* The <name>, <pose> and <static> overrides of an <include>. */
static int include_overrides(urdf_model *doc, urdf_node *node, const char **name, urdf_node **pose,
                             int *is_static) {
  urdf_node *n, *st;
  int rc = urdf_unique_child(doc, node, "name", &n);
  rc = rc ? rc : urdf_unique_child(doc, node, "pose", pose);
  rc = rc ? rc : urdf_unique_child(doc, node, "static", &st);
  *name = rc || !n ? NULL : urdf_text(doc, n);
  const char *sv = rc || !st ? NULL : urdf_text(doc, st);
  *is_static = sv ? strcmp(sv, "true") == 0 || strcmp(sv, "1") == 0 : -1;
  return rc ? rc : doc->err->code;
}

int sdf_include(sdf_state *s, urdf_model *doc, urdf_node *node, int scope, int depth) {
  if (depth > s->opts.max_depth) {
    return urdf_fail(doc, node, TEAL_ESIZE,
                     "includes nested deeper than %d (teal_sdf_options.max_depth)",
                     s->opts.max_depth);
  }
  urdf_node *u, *pose, *model = NULL;
  const char *uri = NULL, *name = NULL;
  int is_static = -1;
  int rc = urdf_unique_child(doc, node, "uri", &u);
  uri = rc || !u ? NULL : urdf_text(doc, u);
  if (rc == TEAL_OK && (!uri || !*uri)) {
    rc = urdf_fail(doc, node, TEAL_EPARSE, "missing <uri>");
  }
  rc = rc ? rc : include_overrides(doc, node, &name, &pose, &is_static);
  char real[PATH_MAX];
  rc = rc ? rc : include_file(s, doc, node, uri, real);
  char *kept = rc ? NULL : copy_string(real, strlen(real));
  const char **top = rc ? NULL : urdf_push(s->main, &s->include_stack, sizeof(char *));
  if (top) {
    *top = urdf_keep(s->main, kept);
  } else {
    teal_free(kept);
  }
  urdf_model *inc = NULL;
  rc = s->err->code ? s->err->code : open_document(s, real, &inc);
  rc = rc ? rc : included_model(inc, &model);
  rc = rc ? rc : sdf_parse_model(s, inc, model, scope, depth, name, pose, doc, is_static);
  s->include_stack.n -= rc == TEAL_OK;
  return rc;
}

/* ---- the sequence -------------------------------------------------------------- */

static void free_state(sdf_state *s, sdf_instance *inst, int n) {
  for (int i = 0; inst && i < n; i++) {
    urdf_free_model(&inst[i].out);
    teal_free(inst[i].link_frame);
  }
  teal_free(inst);
  urdf_table_free(&s->index);
  teal_free(s->frames.data);
  teal_free(s->include_stack.data);
  /* the main document last: the lists above were grown through it */
  for (int i = s->docs.n - 1; i >= 0; i--) {
    urdf_model *d = ((urdf_model **)s->docs.data)[i];
    urdf_free_model(d);
    teal_free(d);
  }
  teal_free(s->docs.data);
}

/* The instance name of a top-level model. */
static const char *instance_of(const sdf_state *s, const sdf_instance *in) {
  return s->instance_name ? s->instance_name : SFRAME(s)[in->top].name;
}

/* The top-level models, converted and checked against the plant and each
 * other, and the world's frames checked. */
static int convert_all(sdf_state *s, const teal_plant *plant, sdf_instance **out, int *n) {
  int count = 0;
  for (int f = 1; f < s->frames.n; f++) {
    count += SFRAME(s)[f].kind == SDF_MODEL && SFRAME(s)[f].scope == SDF_WORLD;
  }
  if (count > 1 && s->instance_name) {
    return urdf_fail(s->main, s->main->xml.root, TEAL_EINVAL,
                     "an instance name ('%.80s') for a document of %d models", s->instance_name,
                     count);
  }
  if (s->instance_name && !*s->instance_name) {
    return urdf_fail(s->main, NULL, TEAL_EINVAL, "empty instance name");
  }
  *out = count ? teal_calloc((size_t)count, sizeof(sdf_instance)) : NULL;
  if (count == 0 || !*out) {
    return count ? urdf_fail(s->main, NULL, TEAL_ENOMEM, "out of memory")
                 : urdf_fail(s->main, s->main->xml.root, TEAL_EPARSE, "no <model> to load");
  }
  int rc = TEAL_OK;
  for (int f = 1; f < s->frames.n && rc == TEAL_OK; f++) {
    if (SFRAME(s)[f].kind == SDF_MODEL && SFRAME(s)[f].scope == SDF_WORLD) {
      sdf_instance *in = &(*out)[(*n)++];
      in->top = f;
      in->name = instance_of(s, in);
      rc = sdf_convert_model(s, in);
      rc = rc ? rc : urdf_resolve(&in->out, plant, in->name);
    }
  }
  return rc ? rc : sdf_check_world_frames(s, plant);
}

/* Free root links of a model that is not static start at their pose. */
static int set_default_poses(sdf_state *s, teal_plant *plant, const sdf_instance *in) {
  for (int l = 1; l < in->out.links.n; l++) {
    const urdf_link *L = &ULINK(&in->out)[l];
    if (L->parent_joint < 0 && L->massive) {
      int rc =
          teal_plant_set_default_free_body_pose(plant, L->body, SFRAME(s)[in->link_frame[l]].X_WF);
      if (rc) {
        return urdf_fail(s->main, L->node, rc, "%s", teal_plant_error(plant)->message);
      }
    }
  }
  return TEAL_OK;
}

static int build_all(sdf_state *s, teal_plant *plant, sdf_instance *inst, int n) {
  int first = -1, rc = TEAL_OK;
  for (int i = 0; i < n && rc == TEAL_OK; i++) {
    int idx = urdf_build(&inst[i].out, plant);
    rc = idx < 0 ? idx : set_default_poses(s, plant, &inst[i]);
    first = first < 0 ? idx : first;
  }
  rc = rc ? rc : sdf_build_world_frames(s, plant, inst, n);
  if (rc == TEAL_OK && s->has_gravity) {
    rc = teal_plant_set_gravity(plant, s->gravity);
  }
  return rc ? rc : first;
}

/* The main file is on the include stack, so a file including it is a cycle. */
static int push_main(sdf_state *s, const char *path) {
  char real[PATH_MAX];
  if (!path || !realpath(path, real)) {
    return TEAL_OK;
  }
  char *kept = copy_string(real, strlen(real));
  const char **top = urdf_push(s->main, &s->include_stack, sizeof(char *));
  if (!top) {
    teal_free(kept);
    return s->err->code;
  }
  *top = urdf_keep(s->main, kept);
  return s->err->code;
}

/* path: the file read, or NULL for a string. */
static int load(teal_plant *plant, const char *buf, size_t len, const char *path, const char *dir,
                const teal_sdf_options *o, teal_sdf_report *report, teal_error *err) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  const char *source = !path ? "<string>" : slash ? slash + 1 : path;
  sdf_state s;
  memset(&s, 0, sizeof(s));
  s.err = err;
  s.opts = *o;
  s.instance_name = o->instance_name;
  sdf_instance *inst = NULL;
  int n = 0;
  int rc = urdf_check_plant(plant, source, err);
  rc = rc ? rc : new_document(&s, buf, len, source, dir, &s.main);
  rc = rc ? rc : push_main(&s, path);
  rc = rc ? rc : sdf_parse_root(&s, s.main, 0);
  rc = rc ? rc : sdf_resolve_frames(&s);
  rc = rc ? rc : convert_all(&s, plant, &inst, &n);
  rc = rc ? rc : build_all(&s, plant, inst, n);
  int instances = 0;
  for (int i = 0; i < n; i++) {
    instances += inst[i].out.instances.n;
  }
  report->num_models = rc >= 0 ? instances : 0;
  report->num_warnings = s.ureport.num_warnings;
  report->mesh_collisions = s.mesh_collisions;
  report->nonconvex_meshes = s.nonconvex_meshes;
  report->ignored_elements = s.ureport.ignored_elements;
  memcpy(report->first_warning, s.ureport.first_warning, sizeof(report->first_warning));
  free_state(&s, inst, n);
  return rc;
}

/* ---- entry points ------------------------------------------------------------------ */

/* The entry points' work: input is a path (is_file) or a document. */
static int load_input(teal_plant *plant, const char *input, int is_file,
                      const teal_sdf_options *options, teal_sdf_report *report, teal_error *err) {
  teal_sdf_report local_report;
  teal_error local_err;
  report = report ? report : &local_report;
  err = err ? err : &local_err;
  memset(report, 0, sizeof(*report));
  teal_error_clear(err);
  teal_sdf_options o;
  xml_file f;
  int rc = resolve_options(options, &o, err);
  rc = rc ? rc : xml_load_input(&f, "sdf", input, is_file, o.max_bytes, err);
  if (rc == TEAL_OK) {
    rc = load(plant, f.text, f.len, f.path, f.dir, &o, report, err);
    xml_load_free_file(&f);
  }
  return rc;
}

int teal_sdf_load_file_opts(teal_plant *plant, const char *path, const teal_sdf_options *options,
                            teal_sdf_report *report, teal_error *err) {
  return load_input(plant, path, 1, options, report, err);
}

int teal_sdf_load_string_opts(teal_plant *plant, const char *xml, const teal_sdf_options *options,
                              teal_sdf_report *report, teal_error *err) {
  return load_input(plant, xml, 0, options, report, err);
}

int teal_sdf_load_file(teal_plant *plant, const char *path, teal_error *err) {
  return teal_sdf_load_file_opts(plant, path, NULL, NULL, err);
}

int teal_sdf_load_string(teal_plant *plant, const char *xml, teal_error *err) {
  return teal_sdf_load_string_opts(plant, xml, NULL, NULL, err);
}

/* ---- the parser's format table ------------------------------------------------------ */

int teal_sdf_parser_load(teal_plant *plant, const char *input, int is_file,
                         const teal_parser_options *options, int *instances, int cap, int *count,
                         teal_parser_report *report, teal_error *err) {
  teal_sdf_options o;
  teal_sdf_report r;
  teal_sdf_options_init(&o);
  o.max_bytes = options->max_bytes;
  o.max_attributes = options->max_attributes;
  o.instance_name = options->instance_name;
  o.packages = options->packages;
  int first = is_file ? teal_sdf_load_file_opts(plant, input, &o, &r, err)
                      : teal_sdf_load_string_opts(plant, input, &o, &r, err);
  report->num_warnings += r.num_warnings;
  report->mesh_collisions += r.mesh_collisions;
  report->nonconvex_meshes += r.nonconvex_meshes;
  report->ignored_elements += r.ignored_elements;
  if (report->first_warning[0] == '\0') {
    snprintf(report->first_warning, sizeof(report->first_warning), "%s", r.first_warning);
  }
  if (first < 0) {
    return first;
  }
  for (int i = 0; i < cap && i < r.num_models; i++) {
    instances[i] = first + i;
  }
  *count = r.num_models;
  return TEAL_OK;
}
