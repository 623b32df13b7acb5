/** @file
 * Where `package://name/...` and `model://name/...` URIs point (Drake's
 * PackageMap): a map from package names to directories, filled by hand, by
 * crawling directory trees for ROS `package.xml` manifests, or from an
 * environment variable, and consulted before the model search path.
 *
 * teal_package_map_resolve looks a package up, in order:
 *   1. the packages added to the map (teal_package_map_add, or found by
 *      teal_package_map_crawl: the directory holding a package.xml whose
 *      `<name>` is the package);
 *   2. the map's search directories, whose subdirectories are packages
 *      named after them (teal_package_map_add_search_dir);
 *   3. the model search path and the folders holding the model file
 *      (teal_model_path_resolve_package in model_path.h: TEAL_MODEL_PATH,
 *      the installed models).
 * An unresolved URI is TEAL_ENOTFOUND with a message naming the URI and
 * every place searched.
 *
 * The model parsers take a map in their options (teal_parser_options,
 * teal_urdf_options); teal_parser_add_models without one builds one for the
 * load from the environment variable TEAL_PACKAGE_PATH (colon-separated
 * roots, crawled as by teal_package_map_crawl).
 *
 * package.xml files are read with libxml2 with network access, DTD loading
 * and entity substitution off; a manifest with a document type declaration
 * holding an internal subset, or larger than 1 MiB, is skipped. */
#ifndef TEAL_MULTIBODY_PARSING_PACKAGE_MAP_H
#define TEAL_MULTIBODY_PARSING_PACKAGE_MAP_H

#include <stddef.h>

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The environment variable of package roots crawled by
 *  teal_parser_add_models when no map is given. */
#define TEAL_PACKAGE_PATH_ENV "TEAL_PACKAGE_PATH"

/** Deepest directory level teal_package_map_crawl descends to below a
 *  root. */
#define TEAL_PACKAGE_CRAWL_DEPTH 8

/** A package map (opaque). */
typedef struct teal_package_map teal_package_map;

/** An empty map, or NULL (TEAL_ENOMEM in err) when out of memory. */
TEAL_API teal_package_map *teal_package_map_new(teal_error *err);

/** Frees the map (NULL is a no-op). */
TEAL_API void teal_package_map_free(teal_package_map *map);

/** Adds package name at directory dir (which must exist). Adding a name
 *  again with the same directory does nothing; with another directory it is
 *  TEAL_EDUPLICATE (the message names both). TEAL_EINVAL for NULL or empty
 *  arguments or a name holding '/', TEAL_ENOTFOUND when dir is not a
 *  directory, TEAL_ENOMEM. */
TEAL_API int teal_package_map_add(teal_package_map *map, const char *name, const char *dir,
                                  teal_error *err);

/** Adds a directory whose subdirectories are packages named after them
 *  (like an entry of TEAL_MODEL_PATH). TEAL_ENOTFOUND when dir is not a
 *  directory; TEAL_EINVAL, TEAL_ENOMEM. */
TEAL_API int teal_package_map_add_search_dir(teal_package_map *map, const char *dir,
                                             teal_error *err);

/** Finds every package.xml under root (root included, at most
 *  TEAL_PACKAGE_CRAWL_DEPTH levels down, not inside a package, not through
 *  symbolic links to directories) and adds its `<name>` at its directory
 *  (the first one found wins when two share a name; unreadable manifests
 *  are skipped). Writes the number of packages added to added (may be
 *  NULL). TEAL_ENOTFOUND when root is not a directory; TEAL_EINVAL,
 *  TEAL_ENOMEM. */
TEAL_API int teal_package_map_crawl(teal_package_map *map, const char *root, int *added,
                                    teal_error *err);

/** Crawls each root listed, colon-separated, in the environment variable
 *  env_var (unset or empty: nothing; roots that are not directories are
 *  skipped). TEAL_EINVAL for NULL arguments, TEAL_ENOMEM. */
TEAL_API int teal_package_map_populate_from_environment(teal_package_map *map, const char *env_var,
                                                        teal_error *err);

/** Number of packages in the map (0 for NULL). */
TEAL_API int teal_package_map_size(const teal_package_map *map);

/** The directory of package name, or NULL when the map holds no such
 *  package (search directories are not consulted). */
TEAL_API const char *teal_package_map_get(const teal_package_map *map, const char *name);

/** Resolves uri ("package://pkg/rest" or "model://pkg/rest") to a path
 *  (cap bytes) as described above; map may be NULL (step 3 only), base_dir
 *  (the directory of the file holding the URI) may be NULL. The file need
 *  not exist. TEAL_EINVAL for NULL arguments or a string that is not such a
 *  URI, TEAL_ENOTFOUND (naming the URI and the places searched),
 *  TEAL_ESIZE when the path does not fit. */
TEAL_API int teal_package_map_resolve(const teal_package_map *map, const char *uri,
                                      const char *base_dir, char *path, size_t cap,
                                      teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
