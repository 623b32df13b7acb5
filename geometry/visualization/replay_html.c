/* The replay page: three.js from libjs-three and the viewer script inlined
 * around the scene's data (see replay_html.h). */
#include "geometry/visualization/replay_html.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
    "#status{position:absolute;top:6px;left:10px;color:#333}</style>\n</head><body>\n"
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
  teal_replay_options o = {NULL, NULL, NULL};
  return o;
}

const char *teal_replay_three_dir(const teal_replay_options *opts) {
  if (opts && opts->three_dir) {
    return opts->three_dir;
  }
  const char *env = getenv("TEAL_THREE_JS_DIR");
  return env && *env ? env : TEAL_THREE_JS_DEFAULT_DIR;
}

/* Checks that every three.js file is readable before the page is opened. */
static int check_three(const char *dir, teal_error *err) {
  for (int i = 0; i < NUM_THREE_FILES; i++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, k_three_files[i]);
    FILE *f = fopen(path, "rb");
    if (!f) {
      return teal_error_set(err, TEAL_ENOTFOUND,
                            "write_html: cannot read three.js file '%s' (%s): install Debian's "
                            "libjs-three (scripts/setup.sh) or set TEAL_THREE_JS_DIR",
                            path, strerror(errno));
    }
    fclose(f);
  }
  return TEAL_OK;
}

/* Writes text as a <script> element, with "</" written "<\\/" so that it
 * cannot close the element early (the same string or regex in JS). */
static int write_script(FILE *out, const char *text, size_t n) {
  int ok = fputs("<script>\n", out) >= 0;
  size_t start = 0;
  for (size_t i = 0; ok && i + 1 < n; i++) {
    if (text[i] == '<' && text[i + 1] == '/') {
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

static int write_page(FILE *f, const teal_scene_recording *rec, const char *dir, const char *title,
                      const char *panel) {
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
  ok = ok && fputs("</script>\n", f) >= 0;
  ok = ok && write_script(f, (const char *)teal_viz_viewer_js, teal_viz_viewer_js_size);
  return ok && fputs("</body></html>\n", f) >= 0;
}

int teal_scene_recording_write_html(const teal_scene_recording *rec, const char *path,
                                    const teal_replay_options *opts, teal_error *err) {
  if (!rec || !path) {
    return teal_error_set(err, TEAL_EINVAL, "write_html: %s is NULL", rec ? "path" : "recording");
  }
  const char *dir = teal_replay_three_dir(opts);
  int rc = check_three(dir, err);
  if (rc) {
    return rc;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    return teal_error_set(err, TEAL_EIO, "write_html: cannot open '%s' for writing: %s", path,
                          strerror(errno));
  }
  errno = 0;
  const char *title = opts && opts->title ? opts->title : "Teal replay";
  const char *panel = opts ? opts->pose_panel_json : NULL;
  int ok = write_page(f, rec, dir, title, panel) && !ferror(f);
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
