/** @file
 * Where model files are found at run time, so that a program runs from any
 * directory and an installed Teal finds its own models (Drake's
 * FindResource and PackageMap, in small).
 *
 * The search path is, in order:
 *   1. the directories of the environment variable TEAL_MODEL_PATH
 *      (colon-separated; empty entries are skipped);
 *   2. the models installed with the library, `<prefix>/share/teal/models`,
 *      where `<prefix>` is found from where the library (or, linked
 *      statically, the program) was loaded from, and failing that the
 *      prefix the library was built for.
 * teal_urdf_load_file and its _ex form look a model up here when the path
 * they are given does not name a readable file. */
#ifndef TEAL_MULTIBODY_PARSING_MODEL_PATH_H
#define TEAL_MULTIBODY_PARSING_MODEL_PATH_H

#include <stddef.h>

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The environment variable that lists extra model directories. */
#define TEAL_MODEL_PATH_ENV "TEAL_MODEL_PATH"

/** Finds the model file name: name itself when it names a readable file
 *  (absolute, or relative to the working directory), otherwise, for a
 *  relative name, dir/name for the first directory of the search path that
 *  holds it. Writes the path found into path (cap bytes). TEAL_EINVAL for a
 *  NULL or empty name or a NULL path, TEAL_ENOTFOUND when no place holds it
 *  (the message lists the places searched), TEAL_ESIZE when the path does
 *  not fit in cap bytes. */
TEAL_API int teal_model_path_find(const char *name, char *path, size_t cap, teal_error *err);

/** Resolves a package URI, "package://pkg/rest" or "model://pkg/rest", to
 *  the file dir/pkg/rest for the first directory dir in which pkg is a
 *  directory: first the directories of the search path, then, when
 *  base_dir is not NULL (the directory of the file that holds the URI),
 *  base_dir and each folder above it, which finds the package a model file
 *  lives in (a ROS package's layout). The file need not exist yet: the
 *  package decides. Writes the path into path (cap bytes). TEAL_EINVAL for
 *  NULL arguments or a string that is not such a URI, TEAL_ENOTFOUND when
 *  no directory holds the package (the message names the URI and the
 *  places searched), TEAL_ESIZE when the path does not fit. */
TEAL_API int teal_model_path_resolve_package(const char *uri, const char *base_dir, char *path,
                                             size_t cap, teal_error *err);

/** Writes the installed models directory, `<prefix>/share/teal/models`, into
 *  path (cap bytes), found as described above (it need not exist).
 *  TEAL_EINVAL for a NULL path, TEAL_ESIZE when it does not fit. */
TEAL_API int teal_model_path_installed_dir(char *path, size_t cap, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
