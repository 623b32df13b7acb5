/* teal-model: loads model files of any format the parser reads
 * (multibody/parsing/parser.h) into one plant and prints its summary
 * (multibody/tree/plant_summary.h): model instances, bodies, masses,
 * joints and degrees of freedom, the same way whatever the format.
 *
 * Usage: teal-model [--format NAME] [--packages ROOT]... model-file...
 *   --format NAME    read the files as NAME ("urdf", ...) whatever their
 *                    extension and root element
 *   --packages ROOT  crawl ROOT for package.xml files (package:// URIs);
 *                    without it, the roots in TEAL_PACKAGE_PATH
 * Files are found as the examples find theirs (the path as given, then
 * TEAL_MODEL_PATH and the installed models). Warnings go to stderr. Exits 0
 * when every file loaded, 1 on an error (printed), 2 on a usage error. */
#include <stdio.h>
#include <string.h>

#include "teal.h"

static int usage(void) {
  fprintf(stderr, "usage: teal-model [--format NAME] [--packages ROOT]... model-file...\n");
  return 2;
}

static int fail(const teal_error *err) {
  fprintf(stderr, "teal-model: %s (%s)\n", err->message, teal_strerror(err->code));
  return 1;
}

/* Loads each file named in argv (skipping the options) into plant. */
static int load_all(teal_plant *plant, int argc, char **argv, const teal_parser_options *o) {
  teal_error err = {0, ""};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "--packages") == 0) {
      i++;
      continue;
    }
    teal_parser_report report;
    int count = 0;
    if (teal_parser_add_models(plant, argv[i], o, NULL, 0, &count, &report, &err) != TEAL_OK) {
      return fail(&err);
    }
    if (report.num_warnings > 0) {
      fprintf(stderr, "teal-model: %s: %d warning%s; the first: %s\n", argv[i], report.num_warnings,
              report.num_warnings == 1 ? "" : "s", report.first_warning);
    }
  }
  if (teal_plant_finalize(plant) != TEAL_OK) {
    return fail(teal_plant_error(plant));
  }
  return teal_plant_print_summary(plant, stdout, &err) == TEAL_OK ? 0 : fail(&err);
}

/* Reads the options into o and map; the number of model files, or -1. */
static int parse_args(int argc, char **argv, teal_parser_options *o, teal_package_map *map) {
  int files = 0;
  for (int i = 1; i < argc; i++) {
    int takes_value = strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "--packages") == 0;
    if (takes_value && i + 1 >= argc) {
      return -1;
    }
    teal_error err = {0, ""};
    if (strcmp(argv[i], "--format") == 0) {
      o->format = argv[++i];
    } else if (strcmp(argv[i], "--packages") == 0) {
      if (teal_package_map_crawl(map, argv[++i], NULL, &err) != TEAL_OK) {
        fail(&err);
        return -1;
      }
      o->packages = map;
    } else if (argv[i][0] == '-') {
      return -1;
    } else {
      files++;
    }
  }
  return files;
}

int main(int argc, char **argv) {
  teal_parser_options o;
  teal_parser_options_init(&o);
  teal_error err = {0, ""};
  teal_package_map *map = teal_package_map_new(&err);
  teal_plant *plant = map ? teal_plant_new(0.0, &err) : NULL;
  if (!plant) {
    teal_package_map_free(map);
    return fail(&err);
  }
  int files = parse_args(argc, argv, &o, map);
  int rc = files <= 0 ? usage() : load_all(plant, argc, argv, &o);
  teal_plant_free(plant);
  teal_package_map_free(map);
  return rc;
}
