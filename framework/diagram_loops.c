/* Algebraic-loop detection and diagram feedthrough.
 *
 * The graph's nodes are the subsystems' ports: input (c, p) and output
 * (c, o). An output feeds every input connected to it; an input feeds each
 * output of its own subsystem that depends on it directly. A cycle in this
 * graph is an algebraic loop. */
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/diagram_internal.h"

typedef struct port_graph {
  const teal_system *d;
  int *in_base, *out_base; /* node id of (c, 0) for inputs and outputs */
  int nnodes;
  int *node_child, *node_port, *node_is_out;
  int *edge_start, *edges; /* output node -> connected input nodes (CSR) */
} port_graph;

static void graph_free(port_graph *g) {
  teal_free(g->in_base);
  teal_free(g->out_base);
  teal_free(g->node_child);
  teal_free(g->node_port);
  teal_free(g->node_is_out);
  teal_free(g->edge_start);
  teal_free(g->edges);
}

static int graph_alloc_nodes(port_graph *g) {
  const teal_system *d = g->d;
  g->in_base = teal_calloc((size_t)d->nchildren + 1, sizeof(int));
  g->out_base = teal_calloc((size_t)d->nchildren + 1, sizeof(int));
  int n = 0;
  for (int c = 0; g->in_base && g->out_base && c < d->nchildren; c++) {
    g->in_base[c] = n;
    n += d->children[c]->ninputs;
    g->out_base[c] = n;
    n += d->children[c]->noutputs;
  }
  g->nnodes = n;
  g->node_child = teal_calloc((size_t)n + 1, sizeof(int));
  g->node_port = teal_calloc((size_t)n + 1, sizeof(int));
  g->node_is_out = teal_calloc((size_t)n + 1, sizeof(int));
  g->edge_start = teal_calloc((size_t)n + 2, sizeof(int));
  if (!g->in_base || !g->out_base || !g->node_child || !g->node_port || !g->node_is_out ||
      !g->edge_start) {
    return TEAL_ENOMEM;
  }
  for (int c = 0; c < d->nchildren; c++) {
    for (int p = 0; p < d->children[c]->ninputs; p++) {
      g->node_child[g->in_base[c] + p] = c;
      g->node_port[g->in_base[c] + p] = p;
    }
    for (int o = 0; o < d->children[c]->noutputs; o++) {
      g->node_child[g->out_base[c] + o] = c;
      g->node_port[g->out_base[c] + o] = o;
      g->node_is_out[g->out_base[c] + o] = 1;
    }
  }
  return TEAL_OK;
}

/* Builds the output -> input edges from the connection table. */
static int graph_build_edges(port_graph *g) {
  const teal_system *d = g->d;
  int nedges = 0;
  for (int c = 0; c < d->nchildren; c++) {
    for (int p = 0; p < d->children[c]->ninputs; p++) {
      const teal_connection *k = &d->conn[c][p];
      if (k->kind == TEAL_SRC_OUTPUT) {
        g->edge_start[g->out_base[k->a] + k->b + 1]++;
        nedges++;
      }
    }
  }
  for (int n = 0; n < g->nnodes; n++) {
    g->edge_start[n + 1] += g->edge_start[n];
  }
  g->edges = teal_calloc((size_t)nedges + 1, sizeof(int));
  int *fill = teal_calloc((size_t)g->nnodes + 1, sizeof(int));
  if (!g->edges || !fill) {
    teal_free(fill);
    return TEAL_ENOMEM;
  }
  for (int c = 0; c < d->nchildren; c++) {
    for (int p = 0; p < d->children[c]->ninputs; p++) {
      const teal_connection *k = &d->conn[c][p];
      if (k->kind == TEAL_SRC_OUTPUT) {
        int from = g->out_base[k->a] + k->b;
        g->edges[g->edge_start[from] + fill[from]++] = g->in_base[c] + p;
      }
    }
  }
  teal_free(fill);
  return TEAL_OK;
}

/* Number of successors of node n, and successor i. */
static int succ_count(const port_graph *g, int n) {
  if (g->node_is_out[n]) {
    return g->edge_start[n + 1] - g->edge_start[n];
  }
  return g->d->children[g->node_child[n]]->noutputs;
}

/* Successor i of n, or -1 when that output does not depend on the input. */
static int succ(const port_graph *g, int n, int i) {
  if (g->node_is_out[n]) {
    return g->edges[g->edge_start[n] + i];
  }
  int c = g->node_child[n];
  if (!teal_system_has_direct_feedthrough(g->d->children[c], g->node_port[n], i)) {
    return -1;
  }
  return g->out_base[c] + i;
}

static const char *node_name(const port_graph *g, int n, char *buf, size_t len) {
  const teal_system *s = g->d->children[g->node_child[n]];
  const char *port =
      g->node_is_out[n] ? s->outputs[g->node_port[n]]->name : s->inputs[g->node_port[n]]->name;
  snprintf(buf, len, "%s.%s", s->name, port);
  return buf;
}

/* Writes "a.y -> b.u -> b.y -> a.u -> a.y" for the cycle on the stack. */
static int report_cycle(const port_graph *g, const int *stack, int top, int again) {
  teal_system *d = (teal_system *)g->d;
  char msg[TEAL_ERROR_MESSAGE_MAX], name[160];
  int start = top;
  while (start > 0 && stack[start] != again) {
    start--;
  }
  size_t used = (size_t)snprintf(msg, sizeof msg, "build '%s': algebraic loop: ", d->name);
  for (int k = start; k <= top && used < sizeof msg; k++) {
    used += (size_t)snprintf(msg + used, sizeof msg - used, "%s -> ",
                             node_name(g, stack[k], name, sizeof name));
  }
  if (used < sizeof msg) {
    snprintf(msg + used, sizeof msg - used, "%s", node_name(g, again, name, sizeof name));
  }
  return teal_error_set(&d->err, TEAL_EALGLOOP, "%s", msg);
}

/* Iterative depth-first search; color 0 new, 1 on stack, 2 done. */
static int find_cycle(const port_graph *g) {
  int n = g->nnodes;
  int *color = teal_calloc((size_t)n + 1, sizeof(int));
  int *stack = teal_calloc((size_t)n + 1, sizeof(int));
  int *next = teal_calloc((size_t)n + 1, sizeof(int));
  int rc = color && stack && next ? TEAL_OK : TEAL_ENOMEM;
  for (int s = 0; rc == TEAL_OK && s < n; s++) {
    if (color[s]) {
      continue;
    }
    int top = 0;
    stack[0] = s;
    color[s] = 1;
    next[s] = 0;
    while (top >= 0 && rc == TEAL_OK) {
      int u = stack[top];
      if (next[u] >= succ_count(g, u)) {
        color[u] = 2;
        top--;
        continue;
      }
      int w = succ(g, u, next[u]++);
      if (w < 0 || color[w] == 2) {
        continue;
      }
      if (color[w] == 1) {
        rc = report_cycle(g, stack, top, w);
        break;
      }
      color[w] = 1;
      next[w] = 0;
      stack[++top] = w;
    }
  }
  teal_free(color);
  teal_free(stack);
  teal_free(next);
  return rc;
}

/* Marks every node reachable from the subsystem inputs fed by diagram
 * input i, then reads off which exported outputs were reached. */
static int compute_feedthrough(teal_system *d, const port_graph *g) {
  d->feedthrough = teal_calloc((size_t)d->noutputs * (size_t)d->ninputs + 1, 1);
  int *seen = teal_calloc((size_t)g->nnodes + 1, sizeof(int));
  int *queue = teal_calloc((size_t)g->nnodes + 1, sizeof(int));
  int rc = d->feedthrough && seen && queue ? TEAL_OK : TEAL_ENOMEM;
  for (int i = 0; rc == TEAL_OK && i < d->ninputs; i++) {
    int head = 0, tail = 0;
    for (int c = 0; c < d->nchildren; c++) {
      for (int p = 0; p < d->children[c]->ninputs; p++) {
        const teal_connection *k = &d->conn[c][p];
        if (k->kind == TEAL_SRC_DIAGRAM_INPUT && k->a == i && seen[g->in_base[c] + p] != i + 1) {
          seen[g->in_base[c] + p] = i + 1;
          queue[tail++] = g->in_base[c] + p;
        }
      }
    }
    while (head < tail) {
      int u = queue[head++];
      for (int e = 0; e < succ_count(g, u); e++) {
        int w = succ(g, u, e);
        if (w >= 0 && seen[w] != i + 1) {
          seen[w] = i + 1;
          queue[tail++] = w;
        }
      }
    }
    for (int o = 0; o < d->noutputs; o++) {
      const teal_output_port *op = d->outputs[o];
      int node = g->out_base[op->child] + op->child_port;
      d->feedthrough[(size_t)o * (size_t)d->ninputs + (size_t)i] = seen[node] == i + 1;
    }
  }
  teal_free(seen);
  teal_free(queue);
  return rc;
}

int teal_diagram_check_loops(teal_system *d) {
  port_graph g;
  memset(&g, 0, sizeof g);
  g.d = d;
  int rc = graph_alloc_nodes(&g);
  if (rc == TEAL_OK) {
    rc = graph_build_edges(&g);
  }
  if (rc == TEAL_OK) {
    rc = find_cycle(&g);
  }
  if (rc == TEAL_OK) {
    rc = compute_feedthrough(d, &g);
  }
  if (rc == TEAL_ENOMEM) {
    teal_error_set(&d->err, rc, "build '%s': out of memory checking loops", d->name);
  }
  graph_free(&g);
  return rc;
}
