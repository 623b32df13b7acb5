/* Graphviz (dot) rendering of a plant's topology: bodies in model-instance
 * clusters, joints as edges, welded groups marked (see plant_graphviz.h). */
#include "multibody/tree/plant_graphviz.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/plant_internal.h"

/* A growing text buffer; failed once an allocation or format fails. */
typedef struct dot_text {
  char *buf;
  int len, cap, failed;
} dot_text;

static void put(dot_text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (t->failed || n < 0 || n >= (int)sizeof(small) || n > INT_MAX - 1 - t->len ||
      TEAL_GROW(t->buf, t->cap, t->len + n + 1) != TEAL_OK) {
    t->failed = 1;
    return;
  }
  memcpy(t->buf + t->len, small, (size_t)n + 1);
  t->len += n;
}

/* Writes name inside a dot quoted string, escaping quotes and backslashes. */
static void put_name(dot_text *t, const char *name) {
  for (const char *c = name ? name : ""; *c; c++) {
    put(t, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
  }
}

static int joint_body(const teal_plant *p, int frame) {
  return FRAME(p)[frame].body;
}

/* Union-find root of body b over the weld joints (group[b] its parent). */
static int root(int *group, int b) {
  while (group[b] != b) {
    group[b] = group[group[b]];
    b = group[b];
  }
  return b;
}

/* group[b]: the lowest body index of b's welded group; size[b]: its size. */
static void welded_groups(const teal_plant *p, int *group, int *size) {
  int nb = p->bodies.n;
  for (int b = 0; b < nb; b++) {
    group[b] = b;
    size[b] = 0;
  }
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *r = &JOINT(p)[j];
    if (r->kind == TEAL_JOINT_WELD) {
      int a = root(group, joint_body(p, r->parent_frame));
      int c = root(group, joint_body(p, r->child_frame));
      group[a < c ? c : a] = a < c ? a : c; /* the lower index stays root */
    }
  }
  for (int b = 0; b < nb; b++) {
    group[b] = root(group, b);
    size[group[b]]++;
  }
}

static void write_bodies(dot_text *t, const teal_plant *p, const int *group, const int *size) {
  for (int i = 0; i < p->instances.n; i++) {
    put(t, "  subgraph cluster_instance%d {\n    label=\"", i);
    put_name(t, INST(p)[i].name);
    put(t, "\";\n");
    for (int b = 0; b < p->bodies.n; b++) {
      if (BODY(p)[b].instance != i) {
        continue;
      }
      put(t, "    body%d [shape=box, label=\"", b);
      put_name(t, BODY(p)[b].name);
      if (size[group[b]] > 1) {
        put(t, "\\nwelded group %d", group[b]);
      }
      put(t, "\"];\n");
    }
    put(t, "  }\n");
  }
}

static void write_joints(dot_text *t, const teal_plant *p) {
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *r = &JOINT(p)[j];
    put(t, "  body%d -> body%d [label=\"", joint_body(p, r->parent_frame),
        joint_body(p, r->child_frame));
    put_name(t, r->name);
    put(t, "\\n(%s)\"%s];\n", teal_joint_type_get(r->kind)->name,
        r->kind == TEAL_JOINT_WELD ? ", style=bold" : "");
  }
}

char *teal_plant_topology_graphviz_string(const teal_plant *p, teal_error *err) {
  if (!p) {
    teal_error_set(err, TEAL_EINVAL, "teal_plant_topology_graphviz_string: NULL plant");
    return NULL;
  }
  int nb = p->bodies.n;
  int *group = teal_alloc(2 * (size_t)nb * sizeof(int));
  dot_text t = {NULL, 0, 0, group == NULL};
  if (group) {
    welded_groups(p, group, group + nb);
    put(&t, "digraph \"plant topology\" {\n  rankdir=TB;\n");
    write_bodies(&t, p, group, group + nb);
    write_joints(&t, p);
    put(&t, "}\n");
  }
  teal_free(group);
  if (t.failed) {
    teal_free(t.buf);
    teal_error_set(err, TEAL_ENOMEM, "teal_plant_topology_graphviz_string: out of memory");
    return NULL;
  }
  return t.buf;
}
