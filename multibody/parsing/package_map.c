/* Package maps: names to directories, package.xml crawling (see
 * package_map.h). */
#define _POSIX_C_SOURCE 200809L /* opendir, lstat */
#include "multibody/parsing/package_map.h"

#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "multibody/parsing/model_path.h"

/* Largest package.xml read. */
#define MANIFEST_MAX_BYTES ((long)1 << 20)

/* Longest path built here. */
#define PACKAGE_PATH_MAX 4096

typedef struct package_entry {
  char *name, *dir;
} package_entry;

struct teal_package_map {
  package_entry *packages;
  int num_packages, cap_packages;
  char **search_dirs;
  int num_search_dirs, cap_search_dirs;
};

static int is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

teal_package_map *teal_package_map_new(teal_error *err) {
  teal_package_map *map = teal_calloc(1, sizeof(*map));
  if (!map) {
    teal_error_set(err, TEAL_ENOMEM, "teal_package_map_new: out of memory");
  }
  return map;
}

void teal_package_map_free(teal_package_map *map) {
  if (!map) {
    return;
  }
  for (int i = 0; i < map->num_packages; i++) {
    teal_free(map->packages[i].name);
    teal_free(map->packages[i].dir);
  }
  for (int i = 0; i < map->num_search_dirs; i++) {
    teal_free(map->search_dirs[i]);
  }
  teal_free(map->packages);
  teal_free(map->search_dirs);
  teal_free(map);
}

int teal_package_map_size(const teal_package_map *map) {
  return map ? map->num_packages : 0;
}

const char *teal_package_map_get(const teal_package_map *map, const char *name) {
  for (int i = 0; map && name && i < map->num_packages; i++) {
    if (strcmp(map->packages[i].name, name) == 0) {
      return map->packages[i].dir;
    }
  }
  return NULL;
}

int teal_package_map_add(teal_package_map *map, const char *name, const char *dir,
                         teal_error *err) {
  static const char fn[] = "teal_package_map_add";
  if (!map || !name || !*name || !dir || !*dir || strchr(name, '/')) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s", fn,
                          !map ? "NULL map" : "needs a package name (without '/') and a directory");
  }
  if (!is_directory(dir)) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: package '%s': '%s' is not a directory", fn,
                          name, dir);
  }
  const char *old = teal_package_map_get(map, name);
  if (old) {
    return strcmp(old, dir) == 0 ? TEAL_OK
                                 : teal_error_set(err, TEAL_EDUPLICATE,
                                                  "%s: package '%s' is already at '%s', not '%s'",
                                                  fn, name, old, dir);
  }
  if (TEAL_GROW(map->packages, map->cap_packages, map->num_packages + 1) != TEAL_OK) {
    return teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
  }
  package_entry e = {teal_strdup(name), teal_strdup(dir)};
  if (!e.name || !e.dir) {
    teal_free(e.name);
    teal_free(e.dir);
    return teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
  }
  map->packages[map->num_packages++] = e;
  return TEAL_OK;
}

int teal_package_map_add_search_dir(teal_package_map *map, const char *dir, teal_error *err) {
  static const char fn[] = "teal_package_map_add_search_dir";
  if (!map || !dir || !*dir) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL map or empty directory", fn);
  }
  if (!is_directory(dir)) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: '%s' is not a directory", fn, dir);
  }
  char *copy = teal_strdup(dir);
  if (!copy || TEAL_GROW(map->search_dirs, map->cap_search_dirs, map->num_search_dirs + 1)) {
    teal_free(copy);
    return teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
  }
  map->search_dirs[map->num_search_dirs++] = copy;
  return TEAL_OK;
}

/* ---- package.xml --------------------------------------------------------- */

/* The file at path (at most MANIFEST_MAX_BYTES), NUL-terminated, or NULL. */
static char *read_manifest(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = f ? teal_alloc((size_t)MANIFEST_MAX_BYTES + 1) : NULL;
  *len = buf ? fread(buf, 1, (size_t)MANIFEST_MAX_BYTES + 1, f) : 0;
  if (f) {
    fclose(f);
  }
  if (buf && *len > (size_t)MANIFEST_MAX_BYTES) {
    teal_free(buf);
    return NULL;
  }
  if (buf) {
    buf[*len] = '\0';
  }
  return buf;
}

/* The text of the <name> child of the root <package>, from its text nodes
 * only (entity references are not expanded), into name (cap bytes). */
static int manifest_name(const xmlDoc *doc, char *name, size_t cap) {
  const xmlNode *root = xmlDocGetRootElement(doc);
  if (!root || strcmp((const char *)root->name, "package") != 0) {
    return 0;
  }
  for (const xmlNode *c = root->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "name") != 0) {
      continue;
    }
    size_t n = 0;
    for (const xmlNode *t = c->children; t; t = t->next) {
      const char *s = t->type == XML_TEXT_NODE ? (const char *)t->content : "";
      for (; *s && n + 1 < cap; s++) {
        if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') {
          name[n++] = *s;
        }
      }
    }
    name[n] = '\0';
    return n > 0 && !strchr(name, '/');
  }
  return 0;
}

/* The package name in the manifest at path, into name; 0 when it cannot be
 * read, declares entities or has no name. */
static int read_package_name(const char *path, char *name, size_t cap) {
  size_t len = 0;
  char *buf = read_manifest(path, &len);
  if (!buf || strstr(buf, "<!ENTITY") || len > (size_t)MANIFEST_MAX_BYTES) {
    teal_free(buf);
    return 0;
  }
  int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
  xmlDoc *doc = xmlReadMemory(buf, (int)len, NULL, NULL, opts);
  int ok = doc && manifest_name(doc, name, cap);
  xmlFreeDoc(doc);
  teal_free(buf);
  return ok;
}

/* ---- crawling ------------------------------------------------------------ */

typedef struct crawl {
  teal_package_map *map;
  int added;
  teal_error *err;
} crawl;

static int crawl_dir(crawl *c, const char *dir, int depth);

/* Visits the subdirectories of dir (not links, not hidden). */
static int crawl_children(crawl *c, const char *dir, int depth) {
  DIR *d = opendir(dir);
  if (!d) {
    return TEAL_OK; /* unreadable: skipped */
  }
  int rc = TEAL_OK;
  char path[PACKAGE_PATH_MAX];
  for (struct dirent *e = readdir(d); e && rc == TEAL_OK; e = readdir(d)) {
    struct stat st;
    int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.' || n <= 0 || (size_t)n >= sizeof path || lstat(path, &st) != 0 ||
        !S_ISDIR(st.st_mode)) {
      continue;
    }
    rc = crawl_dir(c, path, depth + 1);
  }
  closedir(d);
  return rc;
}

/* A package at dir (its manifest names it), else a look below. */
static int crawl_dir(crawl *c, const char *dir, int depth) {
  char manifest[PACKAGE_PATH_MAX], name[256];
  int n = snprintf(manifest, sizeof manifest, "%s/package.xml", dir);
  struct stat st;
  if (n > 0 && (size_t)n < sizeof manifest && stat(manifest, &st) == 0 && S_ISREG(st.st_mode)) {
    if (!read_package_name(manifest, name, sizeof name) || teal_package_map_get(c->map, name)) {
      return TEAL_OK;
    }
    int rc = teal_package_map_add(c->map, name, dir, c->err);
    c->added += rc == TEAL_OK;
    return rc;
  }
  return depth < TEAL_PACKAGE_CRAWL_DEPTH ? crawl_children(c, dir, depth) : TEAL_OK;
}

int teal_package_map_crawl(teal_package_map *map, const char *root, int *added, teal_error *err) {
  if (added) {
    *added = 0;
  }
  if (!map || !root || !*root) {
    return teal_error_set(err, TEAL_EINVAL, "teal_package_map_crawl: NULL map or empty root");
  }
  if (!is_directory(root)) {
    return teal_error_set(err, TEAL_ENOTFOUND, "teal_package_map_crawl: '%s' is not a directory",
                          root);
  }
  crawl c = {map, 0, err};
  int rc = crawl_dir(&c, root, 0);
  if (added) {
    *added = c.added;
  }
  return rc;
}

int teal_package_map_populate_from_environment(teal_package_map *map, const char *env_var,
                                               teal_error *err) {
  if (!map || !env_var) {
    return teal_error_set(err, TEAL_EINVAL,
                          "teal_package_map_populate_from_environment: NULL argument");
  }
  const char *env = getenv(env_var);
  char root[PACKAGE_PATH_MAX];
  for (const char *p = env; p && *p;) {
    const char *colon = strchr(p, ':');
    size_t len = colon ? (size_t)(colon - p) : strlen(p);
    if (len > 0 && len < sizeof root) {
      memcpy(root, p, len);
      root[len] = '\0';
      int rc = is_directory(root) ? teal_package_map_crawl(map, root, NULL, err) : TEAL_OK;
      if (rc != TEAL_OK) {
        return rc;
      }
    }
    p = colon ? colon + 1 : p + len;
  }
  return TEAL_OK;
}

/* ---- resolving ----------------------------------------------------------- */

/* Splits "package://pkg/rest" or "model://pkg/rest": pkg into pkg (cap
 * bytes), returns rest; NULL when uri is not such a URI. */
static const char *split_uri(const char *uri, char *pkg, size_t cap) {
  const char *p = strncmp(uri, "package://", 10) == 0 ? uri + 10
                  : strncmp(uri, "model://", 8) == 0  ? uri + 8
                                                      : NULL;
  const char *slash = p ? strchr(p, '/') : NULL;
  if (!slash || slash == p || (size_t)(slash - p) >= cap || slash[1] == '\0') {
    return NULL;
  }
  memcpy(pkg, p, (size_t)(slash - p));
  pkg[slash - p] = '\0';
  /* "." and ".." are not package names: in a search directory they would
   * resolve to the directory itself or outside it */
  return strcmp(pkg, ".") && strcmp(pkg, "..") ? slash + 1 : NULL;
}

/* dir/rest into path (cap bytes). */
static int join(const char *dir, const char *rest, char *path, size_t cap, teal_error *err) {
  int n = snprintf(path, cap, "%s/%s", dir, rest);
  if (n < 0 || (size_t)n >= cap) {
    return teal_error_set(err, TEAL_ESIZE,
                          "teal_package_map_resolve: the path '%s/%s' needs %d "
                          "bytes, %zu given",
                          dir, rest, n + 1, cap);
  }
  return TEAL_OK;
}

/* The map's part of the places searched, for messages. */
static void describe_map(const teal_package_map *map, char *out, size_t cap) {
  size_t used = 0;
  int n = snprintf(out, cap, "the package map (%d packages", teal_package_map_size(map));
  used = n > 0 ? (size_t)n : 0;
  for (int i = 0; map && i < map->num_search_dirs && used < cap; i++) {
    n = snprintf(out + used, cap - used, "%s'%s'", i ? ", " : "; search dirs ",
                 map->search_dirs[i]);
    used += n > 0 ? (size_t)n : 0;
  }
  if (used < cap) {
    snprintf(out + used, cap - used, "), then ");
  }
}

int teal_package_map_resolve(const teal_package_map *map, const char *uri, const char *base_dir,
                             char *path, size_t cap, teal_error *err) {
  static const char fn[] = "teal_package_map_resolve";
  char pkg[256], dir[PACKAGE_PATH_MAX];
  if (!uri || !path) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, !uri ? "uri" : "path");
  }
  const char *rest = split_uri(uri, pkg, sizeof pkg);
  if (!rest) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s: '%s' is not a package URI (package://<package>/<file>)", fn, uri);
  }
  const char *known = teal_package_map_get(map, pkg);
  if (known) {
    return join(known, rest, path, cap, err);
  }
  for (int i = 0; map && i < map->num_search_dirs; i++) {
    int n = snprintf(dir, sizeof dir, "%s/%s", map->search_dirs[i], pkg);
    if (n > 0 && (size_t)n < sizeof dir && is_directory(dir)) {
      return join(dir, rest, path, cap, err);
    }
  }
  teal_error why = {TEAL_OK, ""};
  int rc = teal_model_path_resolve_package(uri, base_dir, path, cap, &why);
  if (rc == TEAL_ENOTFOUND && map) {
    char where[1024];
    describe_map(map, where, sizeof where);
    const char *searched = strstr(why.message, "(searched ");
    return teal_error_set(err, rc, "%s: package '%s' of '%s' not found (searched %s%s", fn, pkg,
                          uri, where, searched ? searched + 10 : ")");
  }
  if (rc != TEAL_OK) {
    teal_error_copy(err, &why);
  }
  return rc;
}
