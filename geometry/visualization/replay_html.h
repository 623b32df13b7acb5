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
} teal_replay_options;

/** The defaults: all NULL. */
TEAL_API teal_replay_options teal_replay_options_default(void);

/** The libjs-three folder the writer would use with opts (may be NULL):
 *  opts->three_dir, TEAL_THREE_JS_DIR or TEAL_THREE_JS_DEFAULT_DIR. */
TEAL_API const char *teal_replay_three_dir(const teal_replay_options *opts);

/** Writes rec as a replay page to path (opts may be NULL). TEAL_EINVAL for
 *  NULL rec or path, TEAL_ENOTFOUND naming the three.js file that is
 *  missing (and how to install it), TEAL_EIO naming path and the reason
 *  when the page cannot be written. err may be NULL. */
TEAL_API int teal_scene_recording_write_html(const teal_scene_recording *rec, const char *path,
                                             const teal_replay_options *opts, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
