/** @file
 * One entry point for every model format (Drake's
 * `Parser(plant).AddModels(path)`): teal_parser_add_models reads a model
 * file, picks its format and adds one model instance per model it holds.
 *
 * The format is, in order: options.format when given; the row whose
 * extension the file name ends with (case-insensitive); else, for any other
 * extension (".xml" in particular, MuJoCo's usual one), the row whose root
 * element the document opens with. The rows (teal_parser_formats):
 * @code{.unparsed}
 *   name   extensions       root element   loader
 *   urdf   .urdf            <robot>        teal_urdf_load_file_opts (urdf.h)
 *   mjcf   .mjcf            <mujoco>       teal_mjcf_parser_load (mjcf.h)
 * @endcode
 * The SDFormat loader ("sdf": .sdf .world, root `sdf`) joins as a row of
 * the table kFormats in parser.c, one line with a loader of type
 * teal_parser_load_fn; nothing else changes.
 *
 * Errors: the loaders', which name the file, the line and the element:
 * @code{.unparsed}
 *   arm.urdf:23: <joint name="elbow">: unknown joint type 'revolve'
 * @endcode
 * and TEAL_EUNSUPPORTED when no row matches (the message names the extension,
 * the root element and the formats known), TEAL_EIO when the file cannot be
 * read (the message lists the places searched), TEAL_EINVAL for NULL
 * arguments. A failed load leaves the plant exactly as it was: a loader
 * checks the whole document before it adds anything (see urdf.h for the
 * one exception, a failure the plant itself reports, which sets its sticky
 * error). */
#ifndef TEAL_MULTIBODY_PARSING_PARSER_H
#define TEAL_MULTIBODY_PARSING_PARSER_H

#include <stddef.h>

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/parsing/package_map.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest warning text kept in a report, including the terminator. */
#define TEAL_PARSER_WARNING_MAX 256

/** Options of a load; fill with teal_parser_options_init, then change what
 *  is needed. */
typedef struct teal_parser_options {
  /** The format's name ("urdf", ...), or NULL to pick it from the file
   *  name or the root element. */
  const char *format;
  /** The instance name for a document of one model (NULL: the model's own
   *  name); a document of several models refuses it (TEAL_EINVAL). */
  const char *instance_name;
  /** Longest document accepted, in bytes (> 0; default 64 MiB, as
   *  TEAL_URDF_DEFAULT_MAX_BYTES). */
  size_t max_bytes;
  /** Most attributes on one element (> 0; default 256, as
   *  TEAL_URDF_DEFAULT_MAX_ATTRIBUTES). */
  int max_attributes;
  /** Where package:// and model:// URIs point (borrowed). NULL: a map
   *  crawled for the load from the roots in the environment variable
   *  TEAL_PACKAGE_PATH (package_map.h), when it is set. */
  const teal_package_map *packages;
} teal_parser_options;

/** What a load warned about, whatever the format (warning counters instead
 *  of log spam). */
typedef struct teal_parser_report {
  int num_warnings;     /**< all warnings */
  int mesh_collisions;  /**< mesh collision geometries added as their convex hull */
  int nonconvex_meshes; /**< of those, far from convex or not closed (each warned) */
  int ignored_elements; /**< elements and attributes ignored with a warning */
  char first_warning[TEAL_PARSER_WARNING_MAX]; /**< "file:line: <elem>: ..." or "" */
} teal_parser_report;

/** A format's loader, the type every row of the format table holds.
 *
 *  It reads input, a file path when is_file is nonzero (the entry point has
 *  already found it on the model search path) or else a NUL-terminated
 *  document (messages then name the source "<string>"), and adds the models
 *  to the unfinalized plant, one model instance each, under
 *  options (never NULL, limits valid). It writes the first cap instance
 *  indices to instances (NULL when cap is 0) and the number of models added
 *  to *count, adds its warnings to report (never NULL, zeroed by the
 *  caller), resolves package URIs with teal_package_map_resolve and
 *  options->packages (which the entry point has filled when it can), and returns TEAL_OK or a
 * negative status with a message in err (never NULL) naming the file, line and element. On failure
 * it must leave the plant as it found it (parse and check everything first, then add). */
typedef int (*teal_parser_load_fn)(teal_plant *plant, const char *input, int is_file,
                                   const teal_parser_options *options, int *instances, int cap,
                                   int *count, teal_parser_report *report, teal_error *err);

/** One row of the format table. */
typedef struct teal_parser_format {
  const char *name;         /**< "urdf", "sdf", "mjcf" */
  const char *extensions;   /**< the file name endings, space-separated (".sdf .world") */
  const char *root_element; /**< the document's root element ("robot") */
  teal_parser_load_fn load; /**< the loader */
} teal_parser_format;

/** Fills options (may be NULL) with the defaults: no format or instance
 *  name, the URDF parser's default limits. */
TEAL_API void teal_parser_options_init(teal_parser_options *options);

/** The format table: writes its number of rows to count (may be NULL) and
 *  returns its first row. */
TEAL_API const teal_parser_format *teal_parser_formats(int *count);

/** Finds the format of the model file at path (the rules above; the file
 *  need not be read when its extension decides) and returns its row, or
 *  NULL with a message in err (TEAL_EUNSUPPORTED, or TEAL_EIO when the
 *  root element must be read and the file cannot be). */
TEAL_API const teal_parser_format *teal_parser_format_of_file(const char *path, teal_error *err);

/** Adds the models of the file at path to the unfinalized plant (Drake's
 *  AddModels). A relative path that names no file in the working directory
 *  is looked up on the model search path (teal_model_path_find). Writes the
 *  first cap new instance indices to instances_out (may be NULL when cap is
 *  0) and their number to count_out (may be NULL); options and report may
 *  be NULL (defaults; no report). Returns TEAL_OK or a negative status (see
 *  above); on failure count_out is 0 and the plant unchanged. */
TEAL_API int teal_parser_add_models(teal_plant *plant, const char *path,
                                    const teal_parser_options *options, int *instances_out, int cap,
                                    int *count_out, teal_parser_report *report, teal_error *err);

/** As teal_parser_add_models for a NUL-terminated document in memory in the
 *  named format ("urdf", ...; NULL: by its root element; options.format is
 *  ignored). Relative mesh file names resolve against the working
 *  directory. */
TEAL_API int teal_parser_add_models_string(teal_plant *plant, const char *text, const char *format,
                                           const teal_parser_options *options, int *instances_out,
                                           int cap, int *count_out, teal_parser_report *report,
                                           teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
