/* The model parser entry point and its format table (see parser.h). */
#define _POSIX_C_SOURCE 200809L /* stat */
#include "multibody/parsing/parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "framework/alloc.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/parsing/model_path.h"
#include "multibody/parsing/sdf.h"
#include "multibody/parsing/urdf.h"

/* How much of a file is read to find its root element: room for a long
 * licence comment before it. */
#define PARSER_SNIFF_BYTES 65536

static int load_urdf(teal_plant *plant, const char *input, int is_file,
                     const teal_parser_options *options, int *instances, int cap, int *count,
                     teal_parser_report *report, teal_error *err);

/* One row per format; a new format is one more row (see parser.h). */
static const teal_parser_format kFormats[] = {
    {"urdf", ".urdf", "robot", load_urdf},
    {"sdf", ".sdf .world", "sdf", teal_sdf_parser_load},
    {"mjcf", ".mjcf", "mujoco", teal_mjcf_parser_load},
};

#define NUM_FORMATS ((int)(sizeof(kFormats) / sizeof(kFormats[0])))

const teal_parser_format *teal_parser_formats(int *count) {
  if (count) {
    *count = NUM_FORMATS;
  }
  return kFormats;
}

void teal_parser_options_init(teal_parser_options *options) {
  if (options) {
    memset(options, 0, sizeof(*options));
    options->max_bytes = TEAL_URDF_DEFAULT_MAX_BYTES;
    options->max_attributes = TEAL_URDF_DEFAULT_MAX_ATTRIBUTES;
  }
}

/* Adds a loader's warning counts to the report. */
static void note_warning(teal_parser_report *report, const char *text) {
  if (report->first_warning[0] == '\0' && text && text[0]) {
    snprintf(report->first_warning, sizeof(report->first_warning), "%s", text);
  }
}

static int load_urdf(teal_plant *plant, const char *input, int is_file,
                     const teal_parser_options *options, int *instances, int cap, int *count,
                     teal_parser_report *report, teal_error *err) {
  teal_urdf_options o = {options->max_bytes, options->max_attributes, options->packages};
  teal_urdf_report r;
  int index = is_file
                  ? teal_urdf_load_file_opts(plant, input, options->instance_name, &o, &r, err)
                  : teal_urdf_load_string_opts(plant, input, options->instance_name, &o, &r, err);
  report->num_warnings += r.num_warnings;
  report->mesh_collisions += r.mesh_collisions;
  report->nonconvex_meshes += r.nonconvex_meshes;
  report->ignored_elements += r.ignored_elements;
  note_warning(report, r.first_warning);
  if (index < 0) {
    return index;
  }
  if (cap > 0) {
    instances[0] = index;
  }
  *count = 1;
  return TEAL_OK;
}

/* ---- picking the format ------------------------------------------------ */

static int lower(int c) {
  return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 when name ends with ext, ignoring case. */
static int ends_with(const char *name, const char *ext, size_t n) {
  size_t len = strlen(name);
  if (len < n) {
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    if (lower((unsigned char)name[len - n + i]) != lower((unsigned char)ext[i])) {
      return 0;
    }
  }
  return 1;
}

/* The row one of whose extensions ends path, or NULL. */
static const teal_parser_format *by_extension(const char *path) {
  for (int f = 0; f < NUM_FORMATS; f++) {
    const char *e = kFormats[f].extensions;
    while (*e) {
      size_t n = strcspn(e, " ");
      if (n > 0 && ends_with(path, e, n)) {
        return &kFormats[f];
      }
      e += n + (e[n] == ' ');
    }
  }
  return NULL;
}

static const teal_parser_format *by_name(const char *name) {
  for (int f = 0; f < NUM_FORMATS; f++) {
    if (strcmp(kFormats[f].name, name) == 0) {
      return &kFormats[f];
    }
  }
  return NULL;
}

/* Skips from s (just past "<") over a declaration, comment, processing
 * instruction or document type to the text after it; NULL when unclosed. */
static const char *skip_markup(const char *s) {
  if (s[0] == '?') {
    const char *e = strstr(s, "?>");
    return e ? e + 2 : NULL;
  }
  if (strncmp(s, "!--", 3) == 0) {
    const char *e = strstr(s + 3, "-->");
    return e ? e + 3 : NULL;
  }
  int depth = 0; /* <!DOCTYPE ... [ ... ]> */
  for (; *s; s++) {
    depth += (*s == '[') - (*s == ']');
    if (*s == '>' && depth <= 0) {
      return s + 1;
    }
  }
  return NULL;
}

/* The document's root element name (local part, without a prefix) into
 * root (cap bytes); "" when there is none to be found. */
static void root_element(const char *text, char *root, size_t cap) {
  root[0] = '\0';
  const char *s = text;
  while (s && (s = strchr(s, '<')) != NULL) {
    s++;
    if (*s == '?' || *s == '!') {
      s = skip_markup(s);
      continue;
    }
    size_t n = strcspn(s, " \t\r\n/>");
    const char *colon = memchr(s, ':', n);
    if (colon) {
      n -= (size_t)(colon + 1 - s);
      s = colon + 1;
    }
    if (n > 0 && n < cap) {
      memcpy(root, s, n);
      root[n] = '\0';
    }
    return;
  }
}

static const teal_parser_format *by_root(const char *root) {
  for (int f = 0; root[0] && f < NUM_FORMATS; f++) {
    if (strcmp(kFormats[f].root_element, root) == 0) {
      return &kFormats[f];
    }
  }
  return NULL;
}

/* The list of known formats for messages: "urdf (.urdf, <robot>), ...". */
static void known_formats(char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (int f = 0; f < NUM_FORMATS && used < cap; f++) {
    int n = snprintf(out + used, cap - used, "%s%s (%s, <%s>)", f ? ", " : "", kFormats[f].name,
                     kFormats[f].extensions, kFormats[f].root_element);
    used += n > 0 ? (size_t)n : 0;
  }
}

static const teal_parser_format *no_format(const char *source, const char *root, teal_error *err) {
  char known[256];
  known_formats(known, sizeof known);
  const char *dot = strrchr(source, '.');
  teal_error_set(err, TEAL_EUNSUPPORTED,
                 "%s: unknown model format (extension '%s', root element <%s>); known: %s", source,
                 dot && !strchr(dot, '/') ? dot : "", root, known);
  return NULL;
}

const teal_parser_format *teal_parser_format_of_file(const char *path, teal_error *err) {
  if (!path) {
    teal_error_set(err, TEAL_EINVAL, "parser: NULL path");
    return NULL;
  }
  const teal_parser_format *f = by_extension(path);
  if (f) {
    return f;
  }
  struct stat st;
  FILE *in = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
  if (!in) {
    teal_error_set(err, TEAL_EIO,
                   "%s: not a readable regular file (its root element decides its "
                   "format)",
                   path);
    return NULL;
  }
  char *buf = teal_alloc(PARSER_SNIFF_BYTES + 1);
  if (!buf) {
    fclose(in);
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", path);
    return NULL;
  }
  size_t n = fread(buf, 1, PARSER_SNIFF_BYTES, in);
  fclose(in);
  buf[n] = '\0';
  char root[64];
  root_element(buf, root, sizeof root);
  teal_free(buf);
  f = by_root(root);
  return f ? f : no_format(path, root, err);
}

/* ---- entry points ------------------------------------------------------- */

/* Checks the arguments common to both entry points and resolves the
 * options (NULL: defaults) into o. */
static int check_call(const teal_plant *plant, const void *input,
                      const teal_parser_options *options, const int *instances_out, int cap,
                      teal_parser_options *o, teal_error *err) {
  if (!plant || !input) {
    return teal_error_set(err, TEAL_EINVAL, "parser: %s is NULL",
                          !plant ? "plant" : "the path or document");
  }
  if (cap < 0 || (cap > 0 && !instances_out)) {
    return teal_error_set(err, TEAL_EINVAL, "parser: instances_out is NULL or cap %d < 0", cap);
  }
  teal_parser_options_init(o);
  if (options) {
    *o = *options;
  }
  if (o->max_bytes == 0 || o->max_attributes <= 0) {
    return teal_error_set(err, TEAL_EINVAL,
                          "parser: options.max_bytes and max_attributes must be > 0");
  }
  return TEAL_OK;
}

/* Runs the loader of format f and reports its count. */
static int run_loader(const teal_parser_format *f, teal_plant *plant, const char *input,
                      int is_file, const teal_parser_options *o, int *instances_out, int cap,
                      int *count_out, teal_parser_report *report, teal_error *err) {
  teal_parser_report local_report;
  report = report ? report : &local_report;
  memset(report, 0, sizeof(*report));
  int count = 0;
  teal_parser_options with_map = *o;
  teal_package_map *env_map = NULL;
  if (!o->packages && getenv(TEAL_PACKAGE_PATH_ENV)) {
    /* the packages under the environment's roots, for this load */
    env_map = teal_package_map_new(err);
    if (!env_map || teal_package_map_populate_from_environment(env_map, TEAL_PACKAGE_PATH_ENV,
                                                               err) != TEAL_OK) {
      teal_package_map_free(env_map);
      return err->code;
    }
    with_map.packages = env_map;
  }
  int rc = f->load(plant, input, is_file, &with_map, instances_out, cap, &count, report, err);
  teal_package_map_free(env_map);
  if (count_out) {
    *count_out = rc == TEAL_OK ? count : 0;
  }
  return rc;
}

int teal_parser_add_models(teal_plant *plant, const char *path, const teal_parser_options *options,
                           int *instances_out, int cap, int *count_out, teal_parser_report *report,
                           teal_error *err) {
  teal_error local_err;
  err = err ? err : &local_err;
  teal_error_clear(err);
  if (count_out) {
    *count_out = 0;
  }
  teal_parser_options o;
  int rc = check_call(plant, path, options, instances_out, cap, &o, err);
  if (rc != TEAL_OK) {
    return rc;
  }
  char found[4096];
  teal_error why = {TEAL_OK, ""};
  if (teal_model_path_find(path, found, sizeof found, &why) != TEAL_OK) {
    return teal_error_set(err, TEAL_EIO, "%s: cannot open (%s)", path, why.message);
  }
  const teal_parser_format *f =
      o.format ? by_name(o.format) : teal_parser_format_of_file(found, err);
  if (!f) {
    return o.format
               ? teal_error_set(err, TEAL_EUNSUPPORTED, "parser: unknown format '%s'", o.format)
               : err->code;
  }
  return run_loader(f, plant, found, 1, &o, instances_out, cap, count_out, report, err);
}

int teal_parser_add_models_string(teal_plant *plant, const char *text, const char *format,
                                  const teal_parser_options *options, int *instances_out, int cap,
                                  int *count_out, teal_parser_report *report, teal_error *err) {
  teal_error local_err;
  err = err ? err : &local_err;
  teal_error_clear(err);
  if (count_out) {
    *count_out = 0;
  }
  teal_parser_options o;
  int rc = check_call(plant, text, options, instances_out, cap, &o, err);
  if (rc != TEAL_OK) {
    return rc;
  }
  o.format = format;
  const teal_parser_format *f = NULL;
  char root[64];
  if (format) {
    f = by_name(format);
    if (!f) {
      return teal_error_set(err, TEAL_EUNSUPPORTED, "parser: unknown format '%s'", format);
    }
  } else {
    root_element(text, root, sizeof root);
    if (!(f = by_root(root))) {
      no_format("<string>", root, err);
      return err->code;
    }
  }
  return run_loader(f, plant, text, 0, &o, instances_out, cap, count_out, report, err);
}
