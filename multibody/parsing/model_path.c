/* The run-time model search path (see model_path.h). */
#define _GNU_SOURCE /* dladdr: where the library was loaded from */
#include "multibody/parsing/model_path.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Set by CMakeLists.txt: the installed models directory, absolute, and
 * relative to the directory the library is installed in. */
#ifndef TEAL_MODELS_INSTALL_DIR
#define TEAL_MODELS_INSTALL_DIR "/usr/local/share/teal/models"
#endif
#ifndef TEAL_MODELS_FROM_LIBDIR
#define TEAL_MODELS_FROM_LIBDIR "../share/teal/models"
#endif

/* Longest path this module builds. */
#define MODEL_PATH_MAX 4096

/* ---- file system ------------------------------------------------------------ */

static int is_readable_file(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    return 0;
  }
  FILE *f = fopen(path, "rb");
  if (f) {
    fclose(f);
  }
  return f != NULL;
}

static int is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Copies src into path (cap bytes); TEAL_ESIZE (naming fn) when it does not
 * fit. */
static int copy_out(const char *fn, const char *src, char *path, size_t cap, teal_error *err) {
  size_t n = strlen(src);
  if (n >= cap) {
    return teal_error_set(err, TEAL_ESIZE, "%s: the path '%s' needs %zu bytes, %zu given", fn, src,
                          n + 1, cap);
  }
  memcpy(path, src, n + 1);
  return TEAL_OK;
}

/* ---- the installed directory ------------------------------------------------------ */

/* Any object of the library: dladdr names the file it was loaded from (the
 * shared library, or the program when linked statically). */
static const char library_anchor = 0;

/* <directory of the loaded library>/TEAL_MODELS_FROM_LIBDIR into out; 0 when
 * the loader cannot tell. */
static int installed_dir_from_library(char *out, size_t cap) {
  Dl_info info;
  if (!dladdr(&library_anchor, &info) || !info.dli_fname || !strchr(info.dli_fname, '/')) {
    return 0;
  }
  const char *slash = strrchr(info.dli_fname, '/');
  int n = snprintf(out, cap, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
                   TEAL_MODELS_FROM_LIBDIR);
  return n > 0 && (size_t)n < cap;
}

/* The installed models directory: next to the loaded library when that
 * directory exists, otherwise the one the library was built for. */
static const char *installed_dir(char *buf, size_t cap) {
  if (installed_dir_from_library(buf, cap) && is_directory(buf)) {
    return buf;
  }
  return TEAL_MODELS_INSTALL_DIR;
}

int teal_model_path_installed_dir(char *path, size_t cap, teal_error *err) {
  if (!path) {
    return teal_error_set(err, TEAL_EINVAL, "teal_model_path_installed_dir: NULL path");
  }
  char buf[MODEL_PATH_MAX];
  return copy_out("teal_model_path_installed_dir", installed_dir(buf, sizeof buf), path, cap, err);
}

/* ---- the search path ---------------------------------------------------------------- */

/* Calls visit(dir, len, ctx) for each directory of the search path until it
 * returns nonzero; returns that value (0 when none did). */
static int for_each_search_dir(int (*visit)(const char *dir, size_t len, void *ctx), void *ctx) {
  const char *env = getenv(TEAL_MODEL_PATH_ENV);
  for (const char *p = env; p && *p;) {
    const char *colon = strchr(p, ':');
    size_t len = colon ? (size_t)(colon - p) : strlen(p);
    int found = len > 0 ? visit(p, len, ctx) : 0;
    if (found) {
      return found;
    }
    p = colon ? colon + 1 : p + len;
  }
  char buf[MODEL_PATH_MAX];
  const char *dir = installed_dir(buf, sizeof buf);
  return visit(dir, strlen(dir), ctx);
}

/* A file looked for as <dir>/<rel>: the first hit is kept in found. */
typedef struct lookup {
  const char *rel;
  int want_dir; /* <dir>/<rel> must be a directory, not a file */
  char found[MODEL_PATH_MAX];
} lookup;

static int visit_lookup(const char *dir, size_t len, void *ctx) {
  lookup *l = ctx;
  int n = snprintf(l->found, sizeof l->found, "%.*s/%s", (int)len, dir, l->rel);
  if (n <= 0 || (size_t)n >= sizeof l->found) {
    return 0;
  }
  return l->want_dir ? is_directory(l->found) : is_readable_file(l->found);
}

/* "TEAL_MODEL_PATH (unset)" or its value, then the installed directory: the
 * places searched, for messages. */
static void describe_search(char *out, size_t cap) {
  const char *env = getenv(TEAL_MODEL_PATH_ENV);
  char buf[MODEL_PATH_MAX];
  snprintf(out, cap, "%s=%s%s%s, then %s", TEAL_MODEL_PATH_ENV, env ? "'" : "(unset)",
           env ? env : "", env ? "'" : "", installed_dir(buf, sizeof buf));
}

int teal_model_path_find(const char *name, char *path, size_t cap, teal_error *err) {
  static const char fn[] = "teal_model_path_find";
  if (!name || !*name || !path) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s", fn,
                          !path ? "NULL path" : "NULL or empty model name");
  }
  if (is_readable_file(name)) {
    return copy_out(fn, name, path, cap, err);
  }
  lookup l = {name, 0, ""};
  if (name[0] != '/' && for_each_search_dir(visit_lookup, &l)) {
    return copy_out(fn, l.found, path, cap, err);
  }
  char where[600];
  describe_search(where, sizeof where);
  return teal_error_set(err, TEAL_ENOTFOUND,
                        "%s: model '%s' not found (searched the working directory%s%s)", fn, name,
                        name[0] == '/' ? "" : ", ", name[0] == '/' ? "" : where);
}

/* ---- package URIs ------------------------------------------------------------------ */

/* Splits "package://pkg/rest" or "model://pkg/rest" into pkg (into out, cap
 * bytes) and rest; NULL when uri is not such a URI. */
static const char *split_package_uri(const char *uri, char *pkg, size_t cap) {
  const char *p = NULL;
  if (strncmp(uri, "package://", 10) == 0) {
    p = uri + 10;
  } else if (strncmp(uri, "model://", 8) == 0) {
    p = uri + 8;
  }
  const char *slash = p ? strchr(p, '/') : NULL;
  if (!slash || slash == p || (size_t)(slash - p) >= cap || slash[1] == '\0') {
    return NULL;
  }
  memcpy(pkg, p, (size_t)(slash - p));
  pkg[slash - p] = '\0';
  return slash + 1;
}

/* base_dir or a folder above it whose last component is pkg, into out. */
static int find_enclosing_package(const char *base_dir, const char *pkg, char *out, size_t cap) {
  int n = snprintf(out, cap, "%s", base_dir);
  if (n <= 0 || (size_t)n >= cap) {
    return 0;
  }
  for (size_t len = strlen(out); len > 0; len = strlen(out)) {
    while (len > 1 && out[len - 1] == '/') {
      out[--len] = '\0';
    }
    const char *slash = strrchr(out, '/');
    const char *last = slash ? slash + 1 : out;
    if (strcmp(last, pkg) == 0 && is_directory(out)) {
      return 1;
    }
    if (!slash || slash == out) {
      return 0;
    }
    out[slash - out] = '\0';
  }
  return 0;
}

int teal_model_path_resolve_package(const char *uri, const char *base_dir, char *path, size_t cap,
                                    teal_error *err) {
  static const char fn[] = "teal_model_path_resolve_package";
  char pkg[256], dir[MODEL_PATH_MAX], out[2 * MODEL_PATH_MAX];
  if (!uri || !path) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, !uri ? "uri" : "path");
  }
  const char *rest = split_package_uri(uri, pkg, sizeof pkg);
  if (!rest) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s: '%s' is not a package URI (package://<package>/<file>)", fn, uri);
  }
  lookup l = {pkg, 1, ""};
  if (for_each_search_dir(visit_lookup, &l)) {
    snprintf(out, sizeof out, "%s/%s", l.found, rest);
    return copy_out(fn, out, path, cap, err);
  }
  if (base_dir && find_enclosing_package(base_dir, pkg, dir, sizeof dir)) {
    snprintf(out, sizeof out, "%s/%s", dir, rest);
    return copy_out(fn, out, path, cap, err);
  }
  char where[600];
  describe_search(where, sizeof where);
  return teal_error_set(err, TEAL_ENOTFOUND, "%s: package '%s' of '%s' not found (searched %s%s%s)",
                        fn, pkg, uri, where, base_dir ? ", and the folders holding " : "",
                        base_dir ? base_dir : "");
}
