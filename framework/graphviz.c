/* Graphviz (dot) rendering of a diagram's wiring: leaves are record nodes
 * with their ports, diagrams are clusters with their exported ports. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/diagram_internal.h"
#include "framework/graphviz.h"
#include "framework/growable.h"

typedef struct text {
  char *buf;
  int len, cap;
  int failed;
} text;

enum { TEXT_MIN_CAP = 1024 };

static void put(text *t, const char *fmt, ...) {
  if (t->failed) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  int n =
      vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? (size_t)(t->cap - t->len) : 0, fmt, ap);
  va_end(ap);
  if (n < 0 || n > INT_MAX - 1 - t->len) {
    t->failed = 1;
    return;
  }
  if (t->len + n + 1 > t->cap) {
    int need = t->len + n + 1 < TEXT_MIN_CAP ? TEXT_MIN_CAP : t->len + n + 1;
    if (TEAL_GROW(t->buf, t->cap, need) != TEAL_OK) {
      t->failed = 1;
      return;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, (size_t)(t->cap - t->len), fmt, ap);
    va_end(ap);
  }
  t->len += n;
}

/* Writes a name inside a quoted dot string; in record labels the field
 * syntax characters are escaped too. */
static void put_name(text *t, const char *name, int record) {
  for (const char *c = name; *c; c++) {
    int special = *c == '"' || *c == '\\' || (record && strchr("|{}<>", *c));
    if (special) {
      put(t, "\\%c", *c);
    } else {
      put(t, "%c", *c);
    }
  }
}

static int count_systems(const teal_system *s) {
  int n = 1;
  for (int c = 0; s->is_diagram && c < s->nchildren; c++) {
    n += count_systems(s->children[c]);
  }
  return n;
}

/* Ids in preorder: child c of a system with id `id` starts after the
 * subtrees of children 0..c-1. */
static int child_id(const teal_system *d, int id, int c) {
  int at = id + 1;
  for (int k = 0; k < c; k++) {
    at += count_systems(d->children[k]);
  }
  return at;
}

/* Dot endpoint of a subsystem's input port (a record field or a cluster's
 * input node). */
static void input_end(text *t, const teal_system *s, int id, int p) {
  if (s->is_diagram) {
    put(t, "s%d_u%d", id, p);
  } else {
    put(t, "s%d:u%d", id, p);
  }
}

static void output_end(text *t, const teal_system *s, int id, int o) {
  if (s->is_diagram) {
    put(t, "s%d_y%d", id, o);
  } else {
    put(t, "s%d:y%d", id, o);
  }
}

static void write_leaf(text *t, const teal_system *s, int id) {
  put(t, "  s%d [shape=record, label=\"{{", id);
  for (int p = 0; p < s->ninputs; p++) {
    put(t, "%s<u%d> ", p ? "|" : "", p);
    put_name(t, s->inputs[p]->name, 1);
  }
  put(t, "}|");
  put_name(t, s->name, 1);
  put(t, "|{");
  for (int o = 0; o < s->noutputs; o++) {
    put(t, "%s<y%d> ", o ? "|" : "", o);
    put_name(t, s->outputs[o]->name, 1);
  }
  put(t, "}}\"];\n");
}

static void write_system(text *t, const teal_system *s, int id);

static void write_edges(text *t, const teal_system *d, int id) {
  for (int c = 0; c < d->nchildren; c++) {
    const teal_system *child = d->children[c];
    int cid = child_id(d, id, c);
    for (int p = 0; p < child->ninputs; p++) {
      const teal_connection *k = &d->conn[c][p];
      if (k->kind == TEAL_SRC_NONE) {
        continue;
      }
      put(t, "  ");
      if (k->kind == TEAL_SRC_OUTPUT) {
        output_end(t, d->children[k->a], child_id(d, id, k->a), k->b);
      } else {
        put(t, "s%d_u%d", id, k->a);
      }
      put(t, " -> ");
      input_end(t, child, cid, p);
      put(t, ";\n");
    }
  }
  for (int o = 0; o < d->noutputs; o++) {
    const teal_output_port *op = d->outputs[o];
    put(t, "  ");
    output_end(t, d->children[op->child], child_id(d, id, op->child), op->child_port);
    put(t, " -> s%d_y%d;\n", id, o);
  }
}

static void write_diagram(text *t, const teal_system *d, int id) {
  put(t, "  subgraph cluster_s%d {\n  label=\"", id);
  put_name(t, d->name, 0);
  put(t, "\";\n");
  for (int p = 0; p < d->ninputs; p++) {
    put(t, "  s%d_u%d [shape=rarrow, label=\"", id, p);
    put_name(t, d->inputs[p]->name, 0);
    put(t, "\"];\n");
  }
  for (int o = 0; o < d->noutputs; o++) {
    put(t, "  s%d_y%d [shape=rarrow, label=\"", id, o);
    put_name(t, d->outputs[o]->name, 0);
    put(t, "\"];\n");
  }
  for (int c = 0; c < d->nchildren; c++) {
    write_system(t, d->children[c], child_id(d, id, c));
  }
  write_edges(t, d, id);
  put(t, "  }\n");
}

static void write_system(text *t, const teal_system *s, int id) {
  if (s->is_diagram) {
    write_diagram(t, s, id);
  } else {
    write_leaf(t, s, id);
  }
}

char *teal_diagram_graphviz_string(const teal_system *sys) {
  if (!sys || !sys->finalized) {
    return NULL;
  }
  text t = {NULL, 0, 0, 0};
  put(&t, "digraph \"");
  put_name(&t, sys->name, 0);
  put(&t, "\" {\n  rankdir=LR;\n");
  write_system(&t, sys, 0);
  put(&t, "}\n");
  if (t.failed) {
    teal_free(t.buf);
    return NULL;
  }
  return t.buf;
}

int teal_diagram_write_graphviz(const teal_system *sys, FILE *out) {
  if (!out) {
    return TEAL_EINVAL;
  }
  char *s = teal_diagram_graphviz_string(sys);
  if (!s) {
    return sys && sys->finalized ? TEAL_ENOMEM : TEAL_EINVAL;
  }
  int rc = fputs(s, out) < 0 ? TEAL_EIO : TEAL_OK;
  teal_free(s);
  return rc;
}
