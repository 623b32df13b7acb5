/** @file
 * The browser replay: a recording (scene_recording.h) written as one
 * self-contained HTML page that opens offline (double-click; no network).
 *
 * The page inlines three.js and its OrbitControls, STLLoader, OBJLoader,
 * ConvexHull and ConvexGeometry from Debian's libjs-three, read when the page is written (never
 * part of Teal), and Teal's own viewer script, built into the library. It draws every recorded
 * geometry with its colour (sphere, box, cylinder, capsule, ellipsoid, half-space as a large plane,
 * convex hulls, OBJ and STL meshes read from their files), a ground grid and lights, with orbit,
 * pan and zoom; play/pause, speed, a time slider and a time readout; a toggle for the frames of the
 * bodies. The URL fragment "#t=2.5" opens the page paused at t = 2.5 s. See docs/visualization.md.
 *
 * Where three.js is found: options.three_dir, else the environment
 * variable TEAL_THREE_JS_DIR, else TEAL_THREE_JS_DEFAULT_DIR; the folder
 * holds build/three.min.js and examples/js/{controls/OrbitControls.js,
 * loaders/STLLoader.js, loaders/OBJLoader.js, math/ConvexHull.js,
 * geometries/ConvexGeometry.js}. */
#ifndef TEAL_GEOMETRY_VISUALIZATION_REPLAY_HTML_H
#define TEAL_GEOMETRY_VISUALIZATION_REPLAY_HTML_H

#include "teal_export.h"

#include "framework/error.h"
#include "geometry/visualization/scene_recording.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where Debian's libjs-three installs three.js. */
#define TEAL_THREE_JS_DEFAULT_DIR "/usr/share/javascript/three"

/** Where Debian's libjs-dygraphs installs dygraphs (the plots' library). */
#define TEAL_DYGRAPHS_DEFAULT_DIR "/usr/share/javascript/dygraphs"

/** One time plot of the page: count samples of size signals (e.g. a
 *  vector log sink's log: times, data, count and size). */
typedef struct teal_replay_plot {
  const char *title;        /**< the plot's title (NULL: none) */
  int count;                /**< samples (>= 0) */
  int size;                 /**< signals per sample (>= 1) */
  const double *times;      /**< count sample times */
  const double *data;       /**< count x size values, row-major */
  const char *const *names; /**< size signal names (NULL, or a NULL entry: y0, y1, ...) */
} teal_replay_plot;

/** Replay page settings. */
typedef struct teal_replay_options {
  const char *title;     /**< page title (NULL: "Teal replay") */
  const char *three_dir; /**< libjs-three folder (NULL: environment, then default) */
  /** A posing panel (NULL: none), inlined as JSON text: {"bodies": [...],
   *  "geometry_body": [...]} with, per body, its parent body, its pose in
   *  the parent at the default q ("D0": position, quaternion w x y z) and
   *  its joint's motion ("kind": 0 none, 1 rotation, 2 translation; "axis"
   *  and "point" in the parent; "name", "q0", "lo", "hi"); and the body of
   *  each recorded geometry. The page then shows a slider per moving joint
   *  and poses the model from them (multibody/visualization/model_view.h
   *  writes it). */
  const char *pose_panel_json;
  /** Time plots shown beside the scene, with a cursor at the replay's time
   *  (clicking a plot seeks there); drawn by dygraphs from Debian's
   *  libjs-dygraphs, inlined like three.js from dygraphs_dir, else
   *  TEAL_DYGRAPHS_DIR, else TEAL_DYGRAPHS_DEFAULT_DIR (needed only when
   *  there are plots). @{ */
  const teal_replay_plot *plots;
  int num_plots;
  const char *dygraphs_dir;
  /** @} */
  /** Nonzero: the page opens with every body frame drawn, as Simbody's
   *  setShowDefaultGeometry(true) shows its default decorative geometry
   *  (the viewer's "body frames" box starts checked); 0: hidden until
   *  asked for. */
  int show_frames;
} teal_replay_options;

/** The defaults: all NULL, no plots, body frames hidden. */
TEAL_API teal_replay_options teal_replay_options_default(void);

/** The libjs-three folder the writer would use with opts (may be NULL):
 *  opts->three_dir, TEAL_THREE_JS_DIR or TEAL_THREE_JS_DEFAULT_DIR. */
TEAL_API const char *teal_replay_three_dir(const teal_replay_options *opts);

/** Writes rec as a replay page to path (opts may be NULL). TEAL_EINVAL for
 *  NULL rec or path or a bad plot (NULL plots with num_plots > 0, count <
 *  0, size < 1, NULL arrays), TEAL_ENOTFOUND naming the three.js or
 *  dygraphs file that is missing (and how to install it), TEAL_EIO naming path and the reason
 *  when the page cannot be written. err may be NULL. */
TEAL_API int teal_scene_recording_write_html(const teal_scene_recording *rec, const char *path,
                                             const teal_replay_options *opts, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
