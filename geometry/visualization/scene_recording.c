/* The scene recording: a growable table of frame times and geometry poses
 * kept as a per-context value (see scene_recording.h). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "geometry/visualization/visualization_internal.h"
#include "math/rotation.h"

enum { REC_MIN_CAPACITY = 64 };

/* Numbers per frame. */
static size_t frame_width(const teal_scene_recording *rec) {
  return (size_t)rec->num_geometries * TEAL_RECORDING_POSE_SIZE;
}

static void rec_release(teal_scene_recording *rec) {
  teal_free(rec->times);
  teal_free(rec->poses);
  teal_free(rec->markers);
  teal_free(rec->marker_start);
  rec->times = rec->poses = NULL;
  rec->markers = NULL;
  rec->marker_start = NULL;
  rec->count = rec->capacity = rec->num_markers = rec->marker_capacity = 0;
}

/* Moves the frames to arrays of capacity frames (capacity >= count). */
static int rec_resize(teal_scene_recording *rec, int capacity) {
  size_t width = frame_width(rec) ? frame_width(rec) : 1;
  if ((size_t)capacity > SIZE_MAX / sizeof(double) / width) {
    return TEAL_ESIZE;
  }
  double *times = teal_alloc((size_t)capacity * sizeof *times);
  double *poses = teal_alloc((size_t)capacity * width * sizeof *poses);
  int *starts = teal_alloc(((size_t)capacity + 1) * sizeof *starts);
  if (!times || !poses || !starts) {
    teal_free(times);
    teal_free(poses);
    teal_free(starts);
    return TEAL_ENOMEM;
  }
  starts[0] = 0;
  if (rec->count > 0) {
    memcpy(times, rec->times, (size_t)rec->count * sizeof *times);
    memcpy(poses, rec->poses, (size_t)rec->count * frame_width(rec) * sizeof *poses);
    memcpy(starts, rec->marker_start, ((size_t)rec->count + 1) * sizeof *starts);
  }
  teal_free(rec->times);
  teal_free(rec->poses);
  teal_free(rec->marker_start);
  rec->times = times;
  rec->poses = poses;
  rec->marker_start = starts;
  rec->capacity = capacity;
  return TEAL_OK;
}

int teal_viz_recording_reserve(teal_scene_recording *rec, int capacity) {
  return capacity > rec->capacity ? rec_resize(rec, capacity) : TEAL_OK;
}

static int rec_init(void *dst) {
  teal_scene_recording *rec = dst;
  memset(rec, 0, sizeof(*rec));
  rec->skipped_time = NAN;
  rec->skipped_geometry = -1;
  return TEAL_OK;
}

/* Deep copy of the frames; the geometry table is the system's and shared. */
static int rec_copy(void *dst, const void *src) {
  teal_scene_recording *d = dst;
  const teal_scene_recording *s = src;
  d->scene_graph = s->scene_graph;
  d->num_geometries = s->num_geometries;
  d->geometries = s->geometries;
  if (d->capacity < s->count) {
    rec_release(d);
    int rc = rec_resize(d, s->capacity);
    if (rc) {
      return rc;
    }
  }
  if (d->marker_capacity < s->num_markers) {
    teal_free(d->markers);
    d->markers = NULL;
    d->marker_capacity = 0;
    if (TEAL_RESERVE(d->markers, d->marker_capacity, s->num_markers) != TEAL_OK) {
      return TEAL_ENOMEM;
    }
  }
  d->count = s->count;
  d->num_markers = s->num_markers;
  if (s->count > 0) {
    memcpy(d->times, s->times, (size_t)s->count * sizeof *d->times);
    memcpy(d->poses, s->poses, (size_t)s->count * frame_width(s) * sizeof *d->poses);
    memcpy(d->marker_start, s->marker_start, ((size_t)s->count + 1) * sizeof(int));
  }
  if (s->num_markers > 0) {
    memcpy(d->markers, s->markers, (size_t)s->num_markers * sizeof *d->markers);
  }
  d->skipped_markers = s->skipped_markers;
  d->skipped = s->skipped;
  d->skipped_time = s->skipped_time;
  d->skipped_geometry = s->skipped_geometry;
  return TEAL_OK;
}

static void rec_free(void *value) {
  rec_release(value);
}

const teal_value_type teal_viz_recording_type = {
    "teal_scene_recording", sizeof(teal_scene_recording), rec_init, rec_copy, rec_free};

/* The first followed geometry whose pose is not finite, or -1. */
static int first_nonfinite(const teal_scene_recording *rec, const teal_transform *X_WG) {
  for (int i = 0; i < rec->num_geometries; i++) {
    const teal_transform *X = &X_WG[rec->geometries[i]];
    double sum = X->p.v[0] + X->p.v[1] + X->p.v[2];
    for (int k = 0; k < 9; k++) {
      sum += X->R.m[k];
    }
    if (!isfinite(sum)) {
      return rec->geometries[i];
    }
  }
  return -1;
}

static void write_frame(const teal_scene_recording *rec, int k, const teal_transform *X_WG) {
  double *out = rec->poses + (size_t)k * frame_width(rec);
  for (int i = 0; i < rec->num_geometries; i++, out += TEAL_RECORDING_POSE_SIZE) {
    const teal_transform *X = &X_WG[rec->geometries[i]];
    teal_quaternion q = teal_rotation_to_quaternion(X->R);
    const double pose[TEAL_RECORDING_POSE_SIZE] = {X->p.v[0], X->p.v[1], X->p.v[2], q.w,
                                                   q.x,       q.y,       q.z};
    memcpy(out, pose, sizeof(pose));
  }
}

static int grown_capacity(int capacity) {
  if (capacity < REC_MIN_CAPACITY) {
    return REC_MIN_CAPACITY;
  }
  return capacity > INT_MAX / 2 ? INT_MAX : 2 * capacity;
}

static int marker_is_finite(const teal_marker *m) {
  double sum = 0;
  for (int k = 0; k < 3; k++) {
    sum += m->p_W.v[k] + m->v_W.v[k];
  }
  return isfinite(sum) && m->kind >= 0 && m->kind < TEAL_MARKER_KIND_COUNT;
}

/* Appends the finite markers to frame k (the last one), whose markers start
 * at marker_start[k]. */
static int append_markers(teal_scene_recording *rec, int k, const teal_marker_list *markers) {
  int n = rec->marker_start[k];
  int need = n + (markers ? markers->n : 0);
  if (need > rec->marker_capacity &&
      teal_grow((void **)&rec->markers, &rec->marker_capacity, need, sizeof(teal_marker))) {
    return TEAL_ENOMEM;
  }
  for (int i = 0; markers && i < markers->n; i++) {
    if (marker_is_finite(&markers->m[i])) {
      rec->markers[n++] = markers->m[i];
    } else {
      rec->skipped_markers++;
    }
  }
  rec->marker_start[k + 1] = rec->num_markers = n;
  return TEAL_OK;
}

/* Skips a frame with a non-finite pose or time (counted, first one kept). */
static int skip_frame(teal_scene_recording *rec, double t, int geometry) {
  if (rec->skipped++ == 0) {
    rec->skipped_time = t;
    rec->skipped_geometry = geometry;
  }
  return TEAL_OK;
}

int teal_viz_recording_record(teal_scene_recording *rec, double t, const teal_transform *X_WG,
                              const teal_marker_list *markers) {
  int bad = first_nonfinite(rec, X_WG);
  if (bad >= 0 || !isfinite(t)) {
    return skip_frame(rec, t, bad);
  }
  if (rec->count > 0 && rec->times[rec->count - 1] == t) {
    write_frame(rec, rec->count - 1, X_WG); /* one frame per instant: the latest */
    return append_markers(rec, rec->count - 1, markers);
  }
  if (rec->count == rec->capacity) {
    int rc = rec->capacity == INT_MAX ? TEAL_ESIZE : rec_resize(rec, grown_capacity(rec->capacity));
    if (rc) {
      return rc;
    }
  }
  int rc = append_markers(rec, rec->count, markers);
  if (rc == TEAL_OK) {
    rec->times[rec->count] = t;
    write_frame(rec, rec->count++, X_WG);
  }
  return rc;
}

int teal_scene_recording_pose(const teal_scene_recording *rec, int frame, int i,
                              teal_transform *X_WG) {
  if (!rec || !X_WG || frame < 0 || frame >= rec->count || i < 0 || i >= rec->num_geometries) {
    return TEAL_EINVAL;
  }
  const double *p = rec->poses + ((size_t)frame * (size_t)rec->num_geometries + (size_t)i) *
                                     TEAL_RECORDING_POSE_SIZE;
  teal_quaternion q = teal_quaternion_make(p[3], p[4], p[5], p[6]);
  *X_WG = teal_transform_make(teal_rotation_from_quaternion(q), teal_vec3_make(p[0], p[1], p[2]));
  return TEAL_OK;
}
