/* The diagram builder: owns subsystems, records connections and exports,
 * and checks sizes, types, names and double connections as they come. */
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
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

void teal_builder_free(teal_builder *b) {
  if (!b) {
    return;
  }
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
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "add to '%s': NULL system (its constructor failed: check the "
                                 "error it reported)",
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
    if (!conn || teal_grow((void **)&b->systems, &cap, b->nsystems + 1, sizeof(void *)) ||
        teal_grow((void **)&b->conn, &b->cap, b->nsystems + 1, sizeof(void *))) {
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
  int c = dst ? child_of(b, dst->system) : -1;
  if (c < 0) {
    return teal_error_set_sticky(
        &b->err, TEAL_EINVAL, "%s in '%s': input '%s.%s' belongs to no subsystem added here", what,
        b->name, dst ? dst->system->name : "(null)", dst ? dst->name : "(null)");
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
  int sc = src ? child_of(b, src->system) : -1;
  if (sc < 0) {
    return teal_error_set_sticky(&b->err, TEAL_EINVAL,
                                 "connect in '%s': output '%s.%s' belongs to no subsystem added "
                                 "here",
                                 b->name, src ? src->system->name : "(null)",
                                 src ? src->name : "(null)");
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
