/* The diagram builder: owns subsystems, records connections and exports,
 * checks sizes, types, names and double connections as they come, and
 * builds the diagram (ports, state offsets, algebraic-loop check). */
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/diagram_builder.h"
#include "framework/diagram_internal.h"

teal_builder *teal_builder_new(const char *name) {
  teal_builder *b = teal_calloc(1, sizeof *b);
  if (!b) {
    return NULL;
  }
  b->name = teal_strdup(name && *name ? name : "diagram");
  if (!b->name) {
    teal_free(b);
    return NULL;
  }
  if (strchr(b->name, '/')) {
    /* '/' separates path components in subsystem lookups */
    teal_error_set_sticky(&b->err, TEAL_EINVAL, "diagram name '%s' must not contain '/'", b->name);
  }
  return b;
}

static void free_exports(teal_builder *b) {
  for (int i = 0; i < b->ninputs; i++) {
    teal_free(b->inputs[i].name);
  }
  for (int i = 0; i < b->noutputs; i++) {
    teal_free(b->outputs[i].name);
  }
  teal_free(b->inputs);
  teal_free(b->outputs);
}

/* Releases the pending entries: before the systems go, so an entry may
 * still read what it handed over. */
static void release_pending(teal_builder *b) {
  for (int i = 0; i < b->npending; i++) {
    b->pending[i].ops->release(b->pending[i].user);
  }
  teal_free(b->pending);
  b->pending = NULL;
  b->npending = 0;
}

void teal_builder_free(teal_builder *b) {
  if (!b) {
    return;
  }
  release_pending(b);
  for (int i = 0; i < b->nsystems; i++) {
    b->systems[i]->owner = NULL;
    teal_system_free(b->systems[i]);
    teal_free(b->conn[i]);
  }
  teal_free(b->systems);
  teal_free(b->conn);
  free_exports(b);
  teal_free(b->name);
  teal_free(b);
}

const teal_error *teal_builder_error(const teal_builder *b) { return b ? &b->err : NULL; }

teal_system *teal_builder_find(const teal_builder *b, const char *name) {
  for (int i = 0; b && name && i < b->nsystems; i++) {
    if (strcmp(b->systems[i]->name, name) == 0) {
      return b->systems[i];
    }
  }
  return NULL;
}

/* Checks for add: returns a status, recording the sticky error. */
static int check_addable(teal_builder *b, const teal_system *sys) {
  if (!sys) {
    /* the builder cannot tell why: name the two ways a NULL gets here */
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "add to '%s': NULL system: either its constructor failed (check "
                                 "the error it reported) or it came from an object that is not "
                                 "finalized yet (teal_plant_system on a plant that is not "
                                 "finalized: call teal_plant_finalize first)",
                                 b->name);
  }
  if (sys->parent || sys->owner) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "add to '%s': system '%s' already belongs to a diagram or "
                                 "builder",
                                 b->name, sys->name);
  }
  if (!sys->finalized) {
    const teal_error *e = &sys->err;
    return teal_error_set_sticky(&b->err, e->code ? e->code : TEAL_ESTATE,
                                 "add to '%s': system '%s' is not finalized%s%s", b->name,
                                 sys->name, e->code ? ": " : "", e->message);
  }
  if (teal_builder_find(b, sys->name)) {
    return teal_error_set_sticky(&b->err, TEAL_EDUPLICATE,
                                 "add to '%s': a subsystem named '%s' was already added", b->name,
                                 sys->name);
  }
  return TEAL_OK;
}

teal_system *teal_builder_add(teal_builder *b, teal_system *sys) {
  if (!b) {
    if (sys && !sys->parent && !sys->owner) {
      teal_system_free(sys);
    }
    return NULL;
  }
  int rc = b->err.code ? b->err.code : check_addable(b, sys);
  int cap = b->cap;
  teal_connection *conn = NULL;
  if (rc == TEAL_OK) {
    conn = teal_calloc((size_t)sys->ninputs + 1, sizeof *conn);
    if (!conn || TEAL_GROW(b->systems, cap, b->nsystems + 1) ||
        TEAL_GROW(b->conn, b->cap, b->nsystems + 1)) {
      rc = teal_error_set_sticky(&b->err, TEAL_ENOMEM, "add to '%s': out of memory", b->name);
    }
  }
  if (rc != TEAL_OK) {
    teal_free(conn);
    if (sys && !sys->parent && !sys->owner) {
      teal_system_free(sys); /* the builder takes ownership even on failure */
    }
    return NULL;
  }
  sys->owner = b;
  sys->index_in_parent = b->nsystems;
  b->systems[b->nsystems] = sys;
  b->conn[b->nsystems] = conn;
  b->nsystems++;
  return sys;
}

int teal_builder_add_pending(teal_builder *b, const teal_builder_pending_ops *ops, void *user) {
  if (!b) {
    return TEAL_EINVAL;
  }
  if (b->err.code) {
    return b->err.code;
  }
  if (!ops || !ops->check || !ops->release || !user) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL, "add_pending to '%s': NULL %s", b->name,
                                 !ops    ? "callbacks"
                                 : !user ? "entry"
                                         : "check or release callback");
  }
  if (TEAL_GROW(b->pending, b->cap_pending, b->npending + 1)) {
    return teal_error_set_sticky(&b->err, TEAL_ENOMEM, "add_pending to '%s': out of memory",
                                 b->name);
  }
  b->pending[b->npending].ops = ops;
  b->pending[b->npending].user = user;
  b->npending++;
  return TEAL_OK;
}

/* Checks that a port's system was added to b; returns its index or -1. */
static int child_of(const teal_builder *b, const teal_system *sys) {
  return sys && sys->owner == b ? sys->index_in_parent : -1;
}

/* Size or type agreement between an output (or a diagram input's first
 * target) and an input. */
int teal_builder_ports_compatible(teal_builder *b, int is_abstract, int size,
                                  const teal_value_type *type, const char *src_desc,
                                  const teal_input_port *dst, const char *what) {
  if (is_abstract != dst->is_abstract) {
    return teal_error_set_sticky(&b->err, TEAL_ETYPE,
                                 "%s in '%s': %s is %s but input '%s.%s' "
                                 "is %s",
                                 what, b->name, src_desc, is_abstract ? "abstract" : "a vector",
                                 dst->system->name, dst->name,
                                 dst->is_abstract ? "abstract" : "a vector");
  }
  if (!is_abstract && size != dst->size) {
    return teal_error_set_sticky(&b->err, TEAL_ESIZE,
                                 "%s in '%s': %s has size %d but input "
                                 "'%s.%s' has size %d",
                                 what, b->name, src_desc, size, dst->system->name, dst->name,
                                 dst->size);
  }
  if (is_abstract && !teal_value_type_equal(type, dst->type)) {
    return teal_error_set_sticky(&b->err, TEAL_ETYPE,
                                 "%s in '%s': %s carries '%s' but input "
                                 "'%s.%s' expects '%s'",
                                 what, b->name, src_desc, type->name, dst->system->name, dst->name,
                                 dst->type->name);
  }
  return TEAL_OK;
}

/* Checks that dst belongs to b and is still free; returns the child index. */
int teal_builder_free_input(teal_builder *b, const teal_input_port *dst, const char *what) {
  if (!dst) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL, "%s in '%s': NULL input port", what,
                                 b->name);
  }
  int c = child_of(b, dst->system);
  if (c < 0) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "%s in '%s': input '%s.%s' belongs to no subsystem added here",
                                 what, b->name, dst->system->name, dst->name);
  }
  if (b->conn[c][dst->index].kind != TEAL_SRC_NONE) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "%s in '%s': input '%s.%s' is already connected", what, b->name,
                                 dst->system->name, dst->name);
  }
  return c;
}

int teal_builder_connect(teal_builder *b, const teal_output_port *src, const teal_input_port *dst) {
  if (!b) {
    return TEAL_EINVAL;
  }
  if (b->err.code) {
    return b->err.code;
  }
  if (!src) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL, "connect in '%s': NULL output port",
                                 b->name);
  }
  int sc = child_of(b, src->system);
  if (sc < 0) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "connect in '%s': output '%s.%s' belongs to no subsystem added "
                                 "here",
                                 b->name, src->system->name, src->name);
  }
  int dc = teal_builder_free_input(b, dst, "connect");
  if (dc < 0) {
    return dc;
  }
  char desc[160];
  snprintf(desc, sizeof desc, "output '%s.%s'", src->system->name, src->name);
  int rc = teal_builder_ports_compatible(b, src->is_abstract, src->size, src->type, desc, dst,
                                         "connect");
  if (rc) {
    return rc;
  }
  teal_connection c = {TEAL_SRC_OUTPUT, sc, src->index};
  b->conn[dc][dst->index] = c;
  return TEAL_OK;
}

int teal_builder_connect_by_name(teal_builder *b, const char *src_system, const char *src_port,
                                 const char *dst_system, const char *dst_port) {
  if (!b) {
    return TEAL_EINVAL;
  }
  if (b->err.code) {
    return b->err.code;
  }
  const teal_system *s = teal_builder_find(b, src_system);
  const teal_system *d = teal_builder_find(b, dst_system);
  if (!s || !d) {
    return teal_error_set_sticky(
        &b->err, TEAL_ENOTFOUND,
        "connect in '%s': no subsystem "
        "named '%s'",
        b->name, !s ? (src_system ? src_system : "(null)") : (dst_system ? dst_system : "(null)"));
  }
  const teal_output_port *op = teal_system_output_port_by_name(s, src_port);
  const teal_input_port *ip = teal_system_input_port_by_name(d, dst_port);
  if (!op || !ip) {
    return teal_error_set_sticky(
        &b->err, TEAL_ENOTFOUND,
        "connect in '%s': system '%s' has no "
        "%s port named '%s'",
        b->name, !op ? s->name : d->name, !op ? "output" : "input",
        !op ? (src_port ? src_port : "(null)") : (dst_port ? dst_port : "(null)"));
  }
  return teal_builder_connect(b, op, ip);
}

/* ---- exports and build ----------------------------------------------------- */

/* Exporting ports and building a diagram from a builder. */

/* Default export name "<system>_<port>" into buf. */
static const char *export_name(const char *name, const teal_system *sys, const char *port,
                               char *buf, size_t n) {
  if (name) {
    return name;
  }
  snprintf(buf, n, "%s_%s", sys->name, port);
  return buf;
}

static int export_name_ok(teal_builder *b, const char *name, int is_input, const char *what) {
  if (!*name || strchr(name, '/')) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL, "%s in '%s': invalid name '%s'", what,
                                 b->name, name);
  }
  int n = is_input ? b->ninputs : b->noutputs;
  for (int i = 0; i < n; i++) {
    if (strcmp(is_input ? b->inputs[i].name : b->outputs[i].name, name) == 0) {
      return teal_error_set_sticky(&b->err, TEAL_EDUPLICATE,
                                   "%s in '%s': the diagram already has an %s named '%s'", what,
                                   b->name, is_input ? "input" : "output", name);
    }
  }
  return TEAL_OK;
}

static int find_export_input(const teal_builder *b, const char *name) {
  for (int i = 0; name && i < b->ninputs; i++) {
    if (strcmp(b->inputs[i].name, name) == 0) {
      return i;
    }
  }
  return -1;
}

int teal_builder_export_input(teal_builder *b, const teal_input_port *dst, const char *name) {
  if (!b) {
    return TEAL_EINVAL;
  }
  if (b->err.code) {
    return b->err.code;
  }
  int c = teal_builder_free_input(b, dst, "export input");
  if (c < 0) {
    return c;
  }
  char buf[256];
  const char *nm = export_name(name, dst->system, dst->name, buf, sizeof buf);
  int rc = export_name_ok(b, nm, 1, "export input");
  if (rc) {
    return rc;
  }
  char *dup = teal_strdup(nm);
  if (!dup || TEAL_GROW(b->inputs, b->cap_inputs, b->ninputs + 1)) {
    teal_free(dup);
    return teal_error_set_sticky(&b->err, TEAL_ENOMEM, "export input: out of memory");
  }
  b->inputs[b->ninputs].name = dup;
  b->inputs[b->ninputs].shape = dst;
  teal_connection conn = {TEAL_SRC_DIAGRAM_INPUT, b->ninputs, 0};
  b->conn[c][dst->index] = conn;
  return b->ninputs++;
}

int teal_builder_connect_input(teal_builder *b, const char *diagram_input,
                               const teal_input_port *dst) {
  if (!b) {
    return TEAL_EINVAL;
  }
  if (b->err.code) {
    return b->err.code;
  }
  int i = find_export_input(b, diagram_input);
  if (i < 0) {
    return teal_error_set_sticky(&b->err, TEAL_ENOTFOUND,
                                 "connect input in '%s': no exported "
                                 "input named '%s'",
                                 b->name, diagram_input ? diagram_input : "(null)");
  }
  int c = teal_builder_free_input(b, dst, "connect input");
  if (c < 0) {
    return c;
  }
  const teal_input_port *shape = b->inputs[i].shape;
  char desc[300];
  snprintf(desc, sizeof desc, "diagram input '%s'", b->inputs[i].name);
  int rc = teal_builder_ports_compatible(b, shape->is_abstract, shape->size, shape->type, desc, dst,
                                         "connect input");
  if (rc) {
    return rc;
  }
  teal_connection conn = {TEAL_SRC_DIAGRAM_INPUT, i, 0};
  b->conn[c][dst->index] = conn;
  return TEAL_OK;
}

int teal_builder_export_output(teal_builder *b, const teal_output_port *src, const char *name) {
  if (!b) {
    return TEAL_EINVAL;
  }
  if (b->err.code) {
    return b->err.code;
  }
  if (!src) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL, "export output in '%s': NULL output port",
                                 b->name);
  }
  if (src->system->owner != b) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "export output in '%s': output '%s.%s' "
                                 "belongs to no subsystem added here",
                                 b->name, src->system->name, src->name);
  }
  char buf[256];
  const char *nm = export_name(name, src->system, src->name, buf, sizeof buf);
  int rc = export_name_ok(b, nm, 0, "export output");
  if (rc) {
    return rc;
  }
  char *dup = teal_strdup(nm);
  if (!dup ||
      TEAL_GROW(b->outputs, b->cap_outputs, b->noutputs + 1)) {
    teal_free(dup);
    return teal_error_set_sticky(&b->err, TEAL_ENOMEM, "export output: out of memory");
  }
  b->outputs[b->noutputs].name = dup;
  b->outputs[b->noutputs].child = src->system->index_in_parent;
  b->outputs[b->noutputs].port = src->index;
  return b->noutputs++;
}

/* Creates the diagram's ports from the exports (names move over). */
static int make_ports(teal_system *d, teal_builder *b) {
  d->inputs = teal_calloc((size_t)b->ninputs + 1, sizeof(void *));
  d->outputs = teal_calloc((size_t)b->noutputs + 1, sizeof(void *));
  if (!d->inputs || !d->outputs) {
    return TEAL_ENOMEM;
  }
  for (int i = 0; i < b->ninputs; i++) {
    teal_input_port *p = teal_calloc(1, sizeof *p);
    if (!p) {
      return TEAL_ENOMEM;
    }
    *p = *b->inputs[i].shape;
    p->system = d;
    p->index = i;
    p->name = b->inputs[i].name;
    b->inputs[i].name = NULL;
    d->inputs[d->ninputs++] = p;
  }
  for (int o = 0; o < b->noutputs; o++) {
    teal_output_port *p = teal_calloc(1, sizeof *p);
    if (!p) {
      return TEAL_ENOMEM;
    }
    const teal_output_export *e = &b->outputs[o];
    *p = *d->children[e->child]->outputs[e->port];
    p->system = d;
    p->index = o;
    p->name = e->name;
    p->cache_index = -1;
    p->child = e->child;
    p->child_port = e->port;
    b->outputs[o].name = NULL;
    d->outputs[d->noutputs++] = p;
  }
  return TEAL_OK;
}

/* Sums the subtree sizes and the children's offsets. */
static int compute_offsets(teal_system *d) {
  int n = d->nchildren + 1;
  d->cq = teal_calloc((size_t)n, sizeof(int));
  d->cv = teal_calloc((size_t)n, sizeof(int));
  d->cz = teal_calloc((size_t)n, sizeof(int));
  d->cxd = teal_calloc((size_t)n, sizeof(int));
  if (!d->cq || !d->cv || !d->cz || !d->cxd) {
    return TEAL_ENOMEM;
  }
  for (int c = 0; c < d->nchildren; c++) {
    const teal_system *s = d->children[c];
    d->cq[c] = d->nq;
    d->cv[c] = d->nv;
    d->cz[c] = d->nz;
    d->cxd[c] = d->nxd;
    d->nq += s->nq;
    d->nv += s->nv;
    d->nz += s->nz;
    d->nxd += s->nxd;
    d->nxa += s->nxa;
    d->nleaves += s->nleaves;
    d->nevents += s->nevents;
    d->nwitnesses += s->nwitnesses;
  }
  return TEAL_OK;
}

/* Moves the subsystems and connections from b into a new diagram. */
static teal_system *take_children(teal_builder *b) {
  teal_system *d = teal_calloc(1, sizeof *d);
  if (!d) {
    return NULL;
  }
  d->is_diagram = 1;
  d->name = b->name;
  b->name = NULL;
  d->children = b->systems;
  d->conn = b->conn;
  d->nchildren = b->nsystems;
  b->systems = NULL;
  b->conn = NULL;
  b->nsystems = 0;
  for (int c = 0; c < d->nchildren; c++) {
    d->children[c]->owner = NULL;
    d->children[c]->parent = d;
  }
  return d;
}

/* Every pending entry must have added its systems before the build. */
static int check_pending(teal_builder *b) {
  for (int i = 0; i < b->npending; i++) {
    teal_error e = {TEAL_OK, ""};
    int rc = b->pending[i].ops->check(b->pending[i].user, &e);
    if (rc != TEAL_OK) {
      return teal_error_set_sticky(&b->err, rc, "build of '%s': %s", b->name,
                                   e.code ? e.message : teal_strerror(rc));
    }
  }
  return TEAL_OK;
}

teal_system *teal_builder_build(teal_builder *b, teal_error *err) {
  if (!b) {
    teal_error_set(err, TEAL_EINVAL, "build: NULL builder");
    return NULL;
  }
  if (b->err.code) {
    teal_error_copy(err, &b->err);
    teal_builder_free(b);
    return NULL;
  }
  if (check_pending(b) != TEAL_OK) {
    teal_error_copy(err, &b->err);
    teal_builder_free(b);
    return NULL;
  }
  teal_system *d = take_children(b);
  int rc = d ? make_ports(d, b) : TEAL_ENOMEM;
  if (rc == TEAL_OK) {
    rc = compute_offsets(d);
  }
  if (rc == TEAL_ENOMEM) {
    teal_error_set(err, rc, "build: out of memory");
  } else if (rc == TEAL_OK && (rc = teal_diagram_check_loops(d)) != TEAL_OK) {
    teal_error_copy(err, &d->err);
  }
  teal_builder_free(b);
  if (rc != TEAL_OK) {
    teal_system_free(d);
    return NULL;
  }
  d->finalized = 1;
  return d;
}
