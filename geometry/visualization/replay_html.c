/* The replay page: three.js from libjs-three and the viewer script inlined
 * around the scene's data (see replay_html.h). */
#include "geometry/visualization/replay_html.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "framework/alloc.h"
#include "geometry/visualization/visualization_internal.h"

/* The libjs-three files the page inlines, in load order. */
static const char *const k_three_files[] = {"build/three.min.js",
                                            "examples/js/controls/OrbitControls.js",
                                            "examples/js/loaders/STLLoader.js",
                                            "examples/js/loaders/OBJLoader.js",
                                            "examples/js/math/ConvexHull.js",
                                            "examples/js/geometries/ConvexGeometry.js"};
enum { NUM_THREE_FILES = sizeof(k_three_files) / sizeof(k_three_files[0]) };

static const char k_page_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta name=\"generator\" content=\"Teal\">\n<title>Teal replay</title>\n"
    "<style>html,body{margin:0;height:100%;overflow:hidden;font:13px sans-serif}"
    "#view{position:absolute;inset:0}"
    "#panel{position:absolute;left:0;right:0;bottom:0;padding:6px 10px;display:flex;gap:10px;"
    "align-items:center;background:rgba(255,255,255,.85)}#slider{flex:1}"
    "#status{position:absolute;top:6px;left:10px;color:#333}</style>\n"
    /* errors of any script, the inlined libraries' too, for the viewer to report */
    "<script>var TEAL_ERRORS = [];\nwindow.addEventListener('error', function(e) {\n"
    "  TEAL_ERRORS.push(e.message || String(e));\n});\n</script>\n</head><body>\n"
    "<div id=\"view\"></div><div id=\"status\"></div>\n<div id=\"panel\">"
    "<button id=\"play\">Pause</button>"
    "<label>speed <select id=\"speed\"><option>0.25</option><option>0.5</option>"
    "<option selected>1</option><option>2</option><option>4</option></select></label>"
    "<input id=\"slider\" type=\"range\" min=\"0\" max=\"1\" step=\"any\" value=\"0\">"
    "<span id=\"time\">t = 0.000 s</span>"
    "<label><input id=\"frames\" type=\"checkbox\">body frames</label>"
    "<label><input id=\"contacts\" type=\"checkbox\" checked>contact forces</label>"
    "<label><input id=\"com\" type=\"checkbox\">centre of mass</label></div>\n";

teal_replay_options teal_replay_options_default(void) {
  teal_replay_options o = {NULL, NULL, NULL, NULL, 0, NULL, 0};
  return o;
}

const char *teal_replay_three_dir(const teal_replay_options *opts) {
  if (opts && opts->three_dir) {
    return opts->three_dir;
  }
  const char *env = getenv("TEAL_THREE_JS_DIR");
  return env && *env ? env : TEAL_THREE_JS_DEFAULT_DIR;
}

/* Checks that the n files of a library are readable before the page is
 * opened ("three.js" from libjs-three, set by TEAL_THREE_JS_DIR, ...). */
static int check_files(const char *dir, const char *const *files, int n, const char *what,
                       const char *package, const char *env, teal_error *err) {
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
    FILE *f = fopen(path, "rb");
    if (!f) {
      return teal_error_set(err, TEAL_ENOTFOUND,
                            "write_html: cannot read %s file '%s' (%s): install Debian's %s "
                            "(scripts/setup.sh) or set %s",
                            what, path, strerror(errno), package, env);
    }
    fclose(f);
  }
  return TEAL_OK;
}

static const char *const k_dygraphs_files[] = {"dygraph.min.js", "dygraph.min.css"};

static const char *dygraphs_dir(const teal_replay_options *opts) {
  const char *env = getenv("TEAL_DYGRAPHS_DIR");
  return opts->dygraphs_dir ? opts->dygraphs_dir : env && *env ? env : TEAL_DYGRAPHS_DEFAULT_DIR;
}

static int check_plots(const teal_replay_options *o, teal_error *err) {
  if (o->num_plots > 0 && !o->plots) {
    return teal_error_set(err, TEAL_EINVAL, "write_html: %d plots but plots is NULL", o->num_plots);
  }
  for (int i = 0; i < o->num_plots; i++) {
    const teal_replay_plot *p = &o->plots[i];
    if (p->count < 0 || p->size < 1 || (p->count > 0 && (!p->times || !p->data))) {
      return teal_error_set(err, TEAL_EINVAL,
                            "write_html: plot %d needs count >= 0, size >= 1 and its times and "
                            "data (count %d, size %d)",
                            i, p->count, p->size);
    }
  }
  return o->num_plots > 0 ? check_files(dygraphs_dir(o), k_dygraphs_files, 2, "dygraphs",
                                        "libjs-dygraphs", "TEAL_DYGRAPHS_DIR", err)
                          : TEAL_OK;
}

/* Whether text starts with "</script", in any case. */
static int closes_script(const char *text) {
  static const char k_tag[] = "</script";
  for (int i = 0; k_tag[i]; i++) {
    if (tolower((unsigned char)text[i]) != k_tag[i]) {
      return 0;
    }
  }
  return 1;
}

/* Writes text as a <script> element, with "</script" written "<\\/script"
 * so that it cannot close the element early (only strings, comments and
 * escaped regular expressions can hold it, where both read the same). */
static int write_script(FILE *out, const char *text, size_t n) {
  int ok = fputs("<script>\n", out) >= 0;
  size_t start = 0;
  for (size_t i = 0; ok && i + 8 <= n; i++) {
    if (closes_script(text + i)) {
      ok = fwrite(text + start, 1, i + 1 - start, out) == i + 1 - start && fputc('\\', out) != EOF;
      start = i + 1;
    }
  }
  ok = ok && fwrite(text + start, 1, n - start, out) == n - start;
  return ok && fputs("\n</script>\n", out) >= 0;
}

static int copy_script(FILE *out, const char *path) {
  size_t n = 0;
  unsigned char *text = teal_viz_read_file(path, &n);
  int ok = text && write_script(out, (const char *)text, n);
  teal_free(text);
  return ok;
}

/* The plots' library (its style sheet, then its script) and data. */
static int write_plots(FILE *f, const teal_replay_options *o) {
  if (o->num_plots <= 0) {
    return 1;
  }
  char path[4096];
  size_t n = 0;
  snprintf(path, sizeof(path), "%s/%s", dygraphs_dir(o), k_dygraphs_files[1]);
  unsigned char *css = teal_viz_read_file(path, &n);
  int ok = css && fputs("<style>\n", f) >= 0 && fwrite(css, 1, n, f) == n &&
           fputs("\n</style>\n", f) >= 0;
  teal_free(css);
  snprintf(path, sizeof(path), "%s/%s", dygraphs_dir(o), k_dygraphs_files[0]);
  ok = ok && copy_script(f, path) && fputs("<script>\nTEAL_REPLAY.plots = ", f) >= 0;
  ok = ok && teal_viz_write_plots_json(f, o->plots, o->num_plots);
  return ok && fputs(";\n</script>\n", f) >= 0;
}

static int write_page(FILE *f, const teal_scene_recording *rec, const char *dir, const char *title,
                      const teal_replay_options *o) {
  const char *panel = o->pose_panel_json;
  int ok = fputs(k_page_head, f) >= 0;
  for (int i = 0; ok && i < NUM_THREE_FILES; i++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, k_three_files[i]);
    ok = copy_script(f, path);
  }
  ok = ok && fputs("<script>\nvar TEAL_REPLAY = ", f) >= 0 &&
       teal_viz_write_scene_json(f, rec, title) && fputs(";\n", f) >= 0;
  if (ok && panel) { /* "</" cannot close the script: the writer escapes it */
    ok = fputs("TEAL_REPLAY.panel = ", f) >= 0 && fputs(panel, f) >= 0 && fputs(";\n", f) >= 0;
  }
  ok = ok && fprintf(f, "TEAL_REPLAY.showFrames = %s;\n", o->show_frames ? "true" : "false") > 0;
  ok = ok && fputs("</script>\n", f) >= 0 && write_plots(f, o);
  ok = ok && write_script(f, (const char *)teal_viz_viewer_js, teal_viz_viewer_js_size);
  return ok && fputs("</body></html>\n", f) >= 0;
}

int teal_scene_recording_write_html(const teal_scene_recording *rec, const char *path,
                                    const teal_replay_options *opts, teal_error *err) {
  if (!rec || !path) {
    return teal_error_set(err, TEAL_EINVAL, "write_html: %s is NULL", rec ? "path" : "recording");
  }
  teal_replay_options o = opts ? *opts : teal_replay_options_default();
  const char *dir = teal_replay_three_dir(&o);
  int rc = check_files(dir, k_three_files, NUM_THREE_FILES, "three.js", "libjs-three",
                       "TEAL_THREE_JS_DIR", err);
  if (rc || (rc = check_plots(&o, err))) {
    return rc;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    return teal_error_set(err, TEAL_EIO, "write_html: cannot open '%s' for writing: %s", path,
                          strerror(errno));
  }
  errno = 0;
  const char *title = o.title ? o.title : "Teal replay";
  int ok = write_page(f, rec, dir, title, &o) && !ferror(f);
  int saved = errno;
  if (fclose(f) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  if (!ok) {
    return teal_error_set(err, TEAL_EIO, "write_html: writing '%s' failed: %s", path,
                          saved ? strerror(saved) : "write error");
  }
  return TEAL_OK;
}
