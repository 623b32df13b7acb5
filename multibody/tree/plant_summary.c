/* A finalized plant's instances and tree as text (see plant_summary.h). */
#include "multibody/tree/plant_summary.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "multibody/tree/actuator_gain.h"
#include "multibody/tree/joint_armature.h"
#include "multibody/tree/joints.h"
#include "multibody/tree/model_instances.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

/* A growing text buffer; failed once an allocation or format fails. */
typedef struct summary_text {
  char *buf;
  int len, cap, failed;
} summary_text;

static void put(summary_text *t, const char *fmt, ...) {
  va_list ap, copy;
  va_start(ap, fmt);
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (t->failed || n < 0 || n > INT_MAX - 1 - t->len ||
      TEAL_GROW(t->buf, t->cap, t->len + n + 1) != TEAL_OK) {
    t->failed = 1;
  } else {
    vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, copy);
    t->len += n;
  }
  va_end(copy);
}

static const char *plural(int n) {
  return n == 1 ? "" : "s";
}

static double node_mass(const teal_plant_tree *tree, int k) {
  return k == 0 ? 0.0 : tree->M_BBo_B[k].mass;
}

static void put_totals(summary_text *t, const teal_plant *p, const teal_plant_tree *tree) {
  double mass = 0.0;
  for (int k = 0; k < tree->num_nodes; k++) {
    mass += node_mass(tree, k);
  }
  int nb = teal_plant_num_bodies(p), nj = teal_plant_num_joints(p),
      na = teal_plant_num_actuators(p);
  put(t, "plant%s%s%s: %d bod%s (world included), %d joint%s, %d actuator%s; ",
      teal_plant_name(p)[0] ? " \"" : "", teal_plant_name(p), teal_plant_name(p)[0] ? "\"" : "", nb,
      nb == 1 ? "y" : "ies", nj, plural(nj), na, plural(na));
  put(t, "nq %d, nv %d, nu %d; mass %.6g kg\n", teal_plant_nq(p), teal_plant_nv(p),
      teal_plant_nu(p), mass);
}

static void put_instances(summary_text *t, const teal_plant *p, const teal_plant_tree *tree) {
  put(t, "model instances:\n");
  for (int i = 0; i < teal_plant_num_model_instances(p); i++) {
    int bodies = 0;
    double mass = 0.0;
    for (int k = 0; k < tree->num_nodes; k++) {
      if (teal_plant_body_instance(p, teal_plant_node_body(p, k)) == i) {
        bodies++;
        mass += node_mass(tree, k);
      }
    }
    put(t, "  %d \"%s\": %d bod%s, nq %d, nv %d, mass %.6g kg\n", i,
        teal_plant_get_model_instance_name(p, i, NULL), bodies, bodies == 1 ? "y" : "ies",
        teal_plant_instance_nq(p, i, NULL), teal_plant_instance_nv(p, i, NULL), mass);
  }
}

/* "q 3" or "q 3..9" (nothing for no coordinates). */
static void put_range(summary_text *t, const char *what, int start, int n) {
  if (n == 1) {
    put(t, ", %s %d", what, start);
  } else if (n > 1) {
    put(t, ", %s %d..%d", what, start, start + n - 1);
  }
}

static void put_node(summary_text *t, const teal_plant *p, const teal_plant_tree *tree, int k,
                     int depth) {
  int body = teal_plant_node_body(p, k);
  int indent = depth < TEAL_PLANT_SUMMARY_MAX_INDENT ? depth : TEAL_PLANT_SUMMARY_MAX_INDENT;
  put(t, "%*s%s", 2 + 2 * indent, "", teal_plant_body_name(p, body));
  if (depth > TEAL_PLANT_SUMMARY_MAX_INDENT) {
    put(t, " (depth %d)", depth);
  }
  if (k == 0) {
    put(t, "\n");
    return;
  }
  int joint = teal_plant_body_joint(p, body);
  put(t, " [%s]: %.6g kg; %s \"%s\"",
      teal_plant_get_model_instance_name(p, teal_plant_body_instance(p, body), NULL),
      node_mass(tree, k), tree->type[k]->name, teal_plant_joint_name(p, joint));
  put_range(t, "q", tree->q_start[k], tree->nq[k]);
  put_range(t, "v", tree->v_start[k], tree->nv[k]);
  put(t, "\n");
}

/* A node keyed by its parent and name, to list siblings by name whatever
 * order a loader added the bodies in. */
typedef struct summary_node {
  int parent, node;
  const char *name;
} summary_node;

static int by_parent_then_name(const void *pa, const void *pb) {
  const summary_node *a = pa, *b = pb;
  if (a->parent != b->parent) {
    return a->parent < b->parent ? -1 : 1;
  }
  int c = strcmp(a->name, b->name);
  return c ? c : (a->node > b->node) - (a->node < b->node);
}

/* first_child / next_sibling lists with siblings by name; 0 when out of
 * memory. */
static int sibling_lists(const teal_plant *p, const teal_plant_tree *tree, int *first, int *next) {
  int n = tree->num_nodes;
  summary_node *sorted = teal_alloc((size_t)n * sizeof(*sorted));
  if (!sorted) {
    return 0;
  }
  for (int k = 0; k < n; k++) {
    first[k] = next[k] = -1;
    sorted[k] =
        (summary_node){tree->parent[k], k, teal_plant_body_name(p, teal_plant_node_body(p, k))};
  }
  qsort(sorted + 1, (size_t)n - 1, sizeof(*sorted), by_parent_then_name); /* world first */
  for (int i = n - 1; i > 0; i--) {
    int k = sorted[i].node;
    next[k] = first[tree->parent[k]];
    first[tree->parent[k]] = k;
  }
  teal_free(sorted);
  return 1;
}

/* The tree depth first without recursion (a chain of 100,000 bodies is
 * fine), keeping the depth of the current node. */
static void put_tree(summary_text *t, const teal_plant *p, const teal_plant_tree *tree) {
  int n = tree->num_nodes;
  int *first = teal_alloc(3 * (size_t)n * sizeof(int));
  if (!first || !sibling_lists(p, tree, first, first + n)) {
    teal_free(first);
    t->failed = 1;
    return;
  }
  int *next = first + n, *depth = first + 2 * n;
  put(t, "tree (body [instance]: mass; inboard joint):\n");
  depth[0] = 0;
  for (int k = 0; k >= 0;) {
    put_node(t, p, tree, k, depth[k]);
    if (first[k] >= 0) {
      depth[first[k]] = depth[k] + 1;
      k = first[k];
      continue;
    }
    while (k > 0 && next[k] < 0) {
      k = tree->parent[k];
    }
    if (k > 0) {
      depth[next[k]] = depth[k];
    }
    k = k > 0 ? next[k] : -1;
  }
  teal_free(first);
}

/* Actuators whose input gain is not 1 (none: no section, the usual case). */
static void put_input_gains(summary_text *t, const teal_plant *p) {
  int header = 0;
  for (int a = 0; a < teal_plant_num_actuators(p); a++) {
    double gain = teal_plant_actuator_input_gain(p, a);
    if (gain == 1.0) {
      continue;
    }
    if (!header) {
      put(t, "actuator input gains (tau = gain * u):\n");
      header = 1;
    }
    const actuator_rec *r = &ACT(p)[a];
    if (r->tendon >= 0) {
      put(t, "  %d \"%s\" (tendon \"%s\"): %.6g\n", a, r->name, FORCE(p)[r->tendon].name, gain);
    } else {
      put(t, "  %d \"%s\" (v %d): %.6g\n", a, r->name, teal_plant_actuator_v_index(p, a), gain);
    }
  }
}

/* Joints with armature (joint_armature.h; none: no section, the usual case). */
static void put_joint_armature(summary_text *t, const teal_plant *p) {
  int header = 0;
  for (int j = 0; j < p->joints.n; j++) {
    double armature = teal_plant_joint_default_armature(p, j);
    if (!(armature > 0.0)) {
      continue;
    }
    if (!header) {
      put(t, "joint armature (added to M at each dof):\n");
      header = 1;
    }
    put(t, "  %d \"%s\": %.6g\n", j, JOINT(p)[j].name, armature);
  }
}

char *teal_plant_summary_string(const teal_plant *p, teal_error *err) {
  static const char fn[] = "teal_plant_summary_string";
  if (!p) {
    teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  const teal_plant_tree *tree = teal_plant_get_tree(p);
  if (!teal_plant_is_finalized(p) || !tree) {
    teal_error_set(err, TEAL_ESTATE, "%s: the plant is not finalized (teal_plant_finalize)", fn);
    return NULL;
  }
  summary_text t = {NULL, 0, 0, 0};
  put_totals(&t, p, tree);
  put_instances(&t, p, tree);
  put_tree(&t, p, tree);
  put_input_gains(&t, p);
  put_joint_armature(&t, p);
  if (t.failed) {
    teal_free(t.buf);
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  return t.buf;
}

int teal_plant_print_summary(const teal_plant *p, FILE *out, teal_error *err) {
  if (!out) {
    return teal_error_set(err, TEAL_EINVAL, "teal_plant_print_summary: NULL out");
  }
  teal_error local;
  err = err ? err : &local;
  char *text = teal_plant_summary_string(p, err);
  if (!text) {
    return err->code;
  }
  int ok = fputs(text, out) >= 0 && fflush(out) == 0;
  teal_free(text);
  return ok ? TEAL_OK
            : teal_error_set(err, TEAL_EIO, "teal_plant_print_summary: writing the summary failed");
}
