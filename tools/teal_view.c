/* teal-view: writes a model's visual geometry at its default pose as a web
 * page with a slider per joint (multibody/visualization/model_view.h). The
 * model is any file the parser reads (multibody/parsing/parser.h: URDF, and
 * the formats registered with it).
 *
 * Usage: teal-view model.urdf [-o model.html]
 * The model is found as the examples find theirs (the path as given, then
 * TEAL_MODEL_PATH and the installed models). Without -o the page is
 * <model name>.html in the working directory. Exits 0 when the page was
 * written, 1 on an error (printed), 2 on a usage error. */
#include <stdio.h>
#include <string.h>

#include "teal.h"

static int usage(void) {
  fprintf(stderr, "usage: teal-view model-file [-o model.html]\n");
  return 2;
}

/* <name of the model file without its extension>.html */
static void default_output(const char *model, char *out, size_t n) {
  const char *base = strrchr(model, '/') ? strrchr(model, '/') + 1 : model;
  const char *dot = strrchr(base, '.');
  int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
  snprintf(out, n, "%.*s.html", stem, base);
}

int main(int argc, char **argv) {
  const char *model = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (argv[i][0] == '-' || model) {
      return usage();
    } else {
      model = argv[i];
    }
  }
  if (!model) {
    return usage();
  }
  char path[4096];
  if (!out) {
    default_output(model, path, sizeof(path));
    out = path;
  }
  teal_error err = {0};
  if (teal_model_write_html(model, out, NULL, &err) != TEAL_OK) {
    fprintf(stderr, "teal-view: %s (%s)\n", err.message, teal_strerror(err.code));
    return 1;
  }
  printf("replay: %s (open it in a browser; the sliders pose the joints)\n", out);
  return 0;
}
