/* The scene recording: a growable table of frame times and geometry poses
 * kept as a per-context value (see scene_recording.h). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "framework/alloc.h"
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
  rec->times = rec->poses = NULL;
  rec->count = rec->capacity = 0;
}

/* Moves the frames to arrays of capacity frames (capacity >= count). */
static int rec_resize(teal_scene_recording *rec, int capacity) {
  size_t width = frame_width(rec) ? frame_width(rec) : 1;
  if ((size_t)capacity > SIZE_MAX / sizeof(double) / width) {
    return TEAL_ESIZE;
  }
  double *times = teal_alloc((size_t)capacity * sizeof *times);
  double *poses = teal_alloc((size_t)capacity * width * sizeof *poses);
  if (!times || !poses) {
    teal_free(times);
    teal_free(poses);
    return TEAL_ENOMEM;
  }
  if (rec->count > 0) {
    memcpy(times, rec->times, (size_t)rec->count * sizeof *times);
    memcpy(poses, rec->poses, (size_t)rec->count * frame_width(rec) * sizeof *poses);
  }
  teal_free(rec->times);
  teal_free(rec->poses);
  rec->times = times;
  rec->poses = poses;
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
  d->count = s->count;
  if (s->count > 0) {
    memcpy(d->times, s->times, (size_t)s->count * sizeof *d->times);
    memcpy(d->poses, s->poses, (size_t)s->count * frame_width(s) * sizeof *d->poses);
  }
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

int teal_viz_recording_record(teal_scene_recording *rec, double t, const teal_transform *X_WG) {
  int bad = first_nonfinite(rec, X_WG);
  if (bad >= 0 || !isfinite(t)) {
    if (rec->skipped++ == 0) {
      rec->skipped_time = t;
      rec->skipped_geometry = bad;
    }
    return TEAL_OK;
  }
  if (rec->count > 0 && rec->times[rec->count - 1] == t) {
    write_frame(rec, rec->count - 1, X_WG); /* one frame per instant: the latest */
    return TEAL_OK;
  }
  if (rec->count == rec->capacity) {
    int rc = rec->capacity == INT_MAX ? TEAL_ESIZE : rec_resize(rec, grown_capacity(rec->capacity));
    if (rc) {
      return rc;
    }
  }
  rec->times[rec->count] = t;
  write_frame(rec, rec->count++, X_WG);
  return TEAL_OK;
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
