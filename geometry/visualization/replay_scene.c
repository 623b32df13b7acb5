/* The replay's data as JSON: the scene's geometries (with mesh files read
 * and embedded) and the recorded frames (see replay_html.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "geometry/shapes/mesh_file.h"
#include "geometry/visualization/visualization_internal.h"
#include "math/rotation.h"

/* A JSON string; "</" is written "<\/" so the text cannot end its script. */
static int json_string(FILE *f, const char *s, size_t n) {
  int ok = fputc('"', f) != EOF;
  for (size_t i = 0; ok && i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      ok = fprintf(f, "\\%c", c) > 0;
    } else if (c == '/' && i > 0 && s[i - 1] == '<') {
      ok = fputs("\\/", f) >= 0;
    } else if (c == '\n') {
      ok = fputs("\\n", f) >= 0;
    } else if (c < 0x20) {
      ok = fprintf(f, "\\u%04x", c) > 0;
    } else {
      ok = fputc(c, f) != EOF;
    }
  }
  return ok && fputc('"', f) != EOF;
}

static int json_cstring(FILE *f, const char *s) {
  return s ? json_string(f, s, strlen(s)) : fputs("null", f) >= 0;
}

/* Numbers with 6 significant digits (plenty on screen, and small files). */
static int json_numbers(FILE *f, const double *x, int n) {
  int ok = fputc('[', f) != EOF;
  for (int i = 0; ok && i < n; i++) {
    ok = fprintf(f, i ? ",%.6g" : "%.6g", isfinite(x[i]) ? x[i] : 0.0) > 0;
  }
  return ok && fputc(']', f) != EOF;
}

static int base64(FILE *f, const unsigned char *b, size_t n) {
  static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  int ok = fputc('"', f) != EOF;
  for (size_t i = 0; ok && i < n; i += 3) {
    unsigned v = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0) |
                 (i + 2 < n ? b[i + 2] : 0);
    char out[4] = {k[v >> 18 & 63], k[v >> 12 & 63], i + 1 < n ? k[v >> 6 & 63] : '=',
                   i + 2 < n ? k[v & 63] : '='};
    ok = fwrite(out, 1, 4, f) == 4;
  }
  return ok && fputc('"', f) != EOF;
}

unsigned char *teal_viz_read_file(const char *path, size_t *n) {
  FILE *in = fopen(path, "rb");
  if (!in) {
    return NULL;
  }
  unsigned char *data = NULL;
  long size = fseek(in, 0, SEEK_END) == 0 ? ftell(in) : -1;
  if (size >= 0 && fseek(in, 0, SEEK_SET) == 0 && (data = teal_alloc((size_t)size + 1))) {
    *n = fread(data, 1, (size_t)size, in);
    if (*n != (size_t)size) {
      teal_free(data);
      data = NULL;
    }
  }
  fclose(in);
  return data;
}

static int json_ints(FILE *f, const int *x, int n) {
  int ok = fputc('[', f) != EOF;
  for (int i = 0; ok && i < n; i++) {
    ok = fprintf(f, i ? ",%d" : "%d", x[i]) > 0;
  }
  return ok && fputc(']', f) != EOF;
}

/* "mesh": {"format": "triangles", "vertices": [...], "triangles": [...]}
 * for the other formats assimp reads (geometry/shapes/mesh_file.h), else
 * null (drawn as a marker). */
static int write_mesh_triangles(FILE *f, const char *filename) {
  teal_mesh m;
  if (!filename || teal_mesh_load_file(filename, 1.0, &m, NULL) != TEAL_OK) {
    return fputs(",\"mesh\":null", f) >= 0;
  }
  int ok = fputs(",\"mesh\":{\"format\":\"triangles\",\"vertices\":", f) >= 0 &&
           json_numbers(f, m.vertices[0].v, 3 * m.num_vertices) &&
           fputs(",\"triangles\":", f) >= 0 && json_ints(f, m.triangles, 3 * m.num_triangles) &&
           fputc('}', f) != EOF;
  teal_mesh_release(&m);
  return ok;
}

/* "mesh": {"format": "obj" | "stl", "text" | "base64": ...} when the file
 * can be read and is OBJ or STL (three.js parses those itself), else the
 * triangles read here. */
static int write_mesh(FILE *f, const char *filename) {
  const char *dot = filename ? strrchr(filename, '.') : NULL;
  int obj = dot && (strcmp(dot, ".obj") == 0 || strcmp(dot, ".OBJ") == 0);
  int stl = dot && (strcmp(dot, ".stl") == 0 || strcmp(dot, ".STL") == 0);
  size_t n = 0;
  unsigned char *data = obj || stl ? teal_viz_read_file(filename, &n) : NULL;
  if (!data) {
    return obj || stl ? fputs(",\"mesh\":null", f) >= 0 : write_mesh_triangles(f, filename);
  }
  int ok = fprintf(f, ",\"mesh\":{\"format\":\"%s\",\"%s\":", obj ? "obj" : "stl",
                   obj ? "text" : "base64") > 0;
  ok = ok && (obj ? json_string(f, (const char *)data, n) : base64(f, data, n));
  teal_free(data);
  return ok && fputc('}', f) != EOF;
}

static int write_shape(FILE *f, const teal_shape *s) {
  int ok = fprintf(f, "\"shape\":\"%s\",\"radius\":%.6g,\"length\":%.6g,\"size\":",
                   teal_shape_kind_name(s->kind), s->radius, s->length) > 0;
  ok = ok && json_numbers(f, s->size.v, 3);
  if (ok && s->kind == TEAL_SHAPE_CONVEX) {
    ok = fputs(",\"vertices\":", f) >= 0 &&
         json_numbers(f, s->vertices ? s->vertices[0].v : NULL, 3 * s->num_vertices);
  }
  if (ok && s->kind == TEAL_SHAPE_MESH) {
    ok = fputs(",\"file\":", f) >= 0 && json_cstring(f, s->filename) && write_mesh(f, s->filename);
  }
  return ok;
}

static int write_geometry(FILE *f, const teal_scene_graph *sg, int g) {
  int frame = teal_scene_graph_geometry_frame(sg, g);
  const teal_transform *X_FG = teal_scene_graph_geometry_pose_in_frame(sg, g);
  teal_quaternion q = teal_rotation_to_quaternion(X_FG->R);
  double pose[7] = {X_FG->p.v[0], X_FG->p.v[1], X_FG->p.v[2], q.w, q.x, q.y, q.z};
  int ok = fprintf(f, "{\"id\":%d,\"name\":", g) > 0 &&
           json_cstring(f, teal_scene_graph_geometry_name(sg, g));
  ok =
      ok && fputs(",\"frame\":", f) >= 0 && json_cstring(f, teal_scene_graph_frame_name(sg, frame));
  ok = ok &&
       fprintf(f, ",\"frame_id\":%d,\"role\":\"%s\",", frame,
               teal_scene_graph_geometry_role(sg, g) == TEAL_ROLE_PROXIMITY ? "proximity"
                                                                            : "illustration") > 0;
  ok = ok && write_shape(f, teal_scene_graph_geometry_shape(sg, g));
  ok = ok && fputs(",\"rgba\":", f) >= 0 &&
       json_numbers(f, teal_scene_graph_geometry_rgba(sg, g), 4);
  ok = ok && fputs(",\"X_FG\":", f) >= 0 && json_numbers(f, pose, 7);
  return ok && fputc('}', f) != EOF;
}

static int write_frames(FILE *f, const teal_scene_recording *rec) {
  int ok = fputs(",\n\"times\":", f) >= 0 && json_numbers(f, rec->times, rec->count);
  ok = ok && fputs(",\n\"poses\":[", f) >= 0;
  int width = rec->num_geometries * TEAL_RECORDING_POSE_SIZE;
  for (int k = 0; ok && k < rec->count; k++) {
    ok = (k == 0 || fputs(",\n", f) >= 0) &&
         json_numbers(f, rec->poses + (size_t)k * (size_t)width, width);
  }
  return ok && fputc(']', f) != EOF;
}

/* One frame's markers as [kind, px, py, pz, vx, vy, vz, kind, ...]. */
static int write_frame_markers(FILE *f, const teal_scene_recording *rec, int k) {
  int ok = fputc('[', f) != EOF;
  for (int i = rec->marker_start[k]; ok && i < rec->marker_start[k + 1]; i++) {
    const teal_marker *m = &rec->markers[i];
    ok = fprintf(f, i > rec->marker_start[k] ? ",%d," : "%d,", (int)m->kind) > 0 &&
         fprintf(f, "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g", m->p_W.v[0], m->p_W.v[1], m->p_W.v[2],
                 m->v_W.v[0], m->v_W.v[1], m->v_W.v[2]) > 0;
  }
  return ok && fputc(']', f) != EOF;
}

/* "markers": null without any, else one array per frame. */
static int write_markers(FILE *f, const teal_scene_recording *rec) {
  if (rec->num_markers == 0) {
    return fputs(",\n\"markers\":null", f) >= 0;
  }
  int ok = fputs(",\n\"markers\":[", f) >= 0;
  for (int k = 0; ok && k < rec->count; k++) {
    ok = (k == 0 || fputs(",\n", f) >= 0) && write_frame_markers(f, rec, k);
  }
  return ok && fputc(']', f) != EOF;
}

int teal_viz_write_scene_json(FILE *f, const teal_scene_recording *rec, const char *title) {
  int ok = fputs("{\"title\":", f) >= 0 && json_cstring(f, title);
  ok = ok && fputs(",\n\"geometries\":[", f) >= 0;
  for (int i = 0; ok && i < rec->num_geometries; i++) {
    ok =
        (i == 0 || fputs(",\n", f) >= 0) && write_geometry(f, rec->scene_graph, rec->geometries[i]);
  }
  ok = ok && fputc(']', f) != EOF && write_frames(f, rec) && write_markers(f, rec);
  return ok && fputs("}", f) >= 0;
}

/* One plot: {"title": ..., "labels": ["time", names...], "rows": [[t, y...]]}. */
static int write_plot(FILE *f, const teal_replay_plot *p) {
  int ok = fputs("{\"title\":", f) >= 0 && json_cstring(f, p->title) &&
           fputs(",\"labels\":[\"time\"", f) >= 0;
  for (int i = 0; ok && i < p->size; i++) {
    const char *name = p->names ? p->names[i] : NULL;
    ok = name ? fputc(',', f) != EOF && json_cstring(f, name) : fprintf(f, ",\"y%d\"", i) > 0;
  }
  ok = ok && fputs("],\"rows\":[", f) >= 0;
  for (int k = 0; ok && k < p->count; k++) {
    ok = fprintf(f, k ? ",\n[%.6g" : "[%.6g", p->times[k]) > 0;
    const double *row = p->data + (size_t)k * (size_t)p->size;
    for (int i = 0; ok && i < p->size; i++) {
      ok = fprintf(f, isfinite(row[i]) ? ",%.6g" : ",null", row[i]) > 0;
    }
    ok = ok && fputc(']', f) != EOF;
  }
  return ok && fputs("]}", f) >= 0;
}

int teal_viz_write_plots_json(FILE *f, const teal_replay_plot *plots, int n) {
  int ok = fputc('[', f) != EOF;
  for (int i = 0; ok && i < n; i++) {
    ok = (i == 0 || fputs(",\n", f) >= 0) && write_plot(f, &plots[i]);
  }
  return ok && fputc(']', f) != EOF;
}
