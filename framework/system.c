/* System queries common to leaves and diagrams, and destruction. */
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/system.h"
#include "framework/system_internal.h"

static void free_ports(teal_system *sys) {
  for (int i = 0; i < sys->ninputs; i++) {
    teal_free(sys->inputs[i]->name);
    teal_free(sys->inputs[i]);
  }
  for (int i = 0; i < sys->noutputs; i++) {
    teal_free(sys->outputs[i]->name);
    teal_free(sys->outputs[i]);
  }
  teal_free(sys->inputs);
  teal_free(sys->outputs);
  teal_free(sys->feedthrough);
}

static void free_leaf_parts(teal_system *sys) {
  for (int i = 0; i < sys->ncache; i++) {
    teal_free(sys->cache[i].name);
    teal_free(sys->cache[i].prereqs);
  }
  for (int i = 0; i < sys->nxa; i++) {
    teal_value_release(sys->xa_types[i], sys->xa_models[i]);
    teal_free(sys->xa_models[i]);
  }
  teal_free(sys->cache);
  teal_free(sys->entry_cache);
  teal_free(sys->xc0);
  teal_free(sys->xd_sizes);
  teal_free(sys->xd_offsets);
  teal_free(sys->xd0);
  teal_free(sys->xa_types);
  teal_free(sys->xa_models);
  teal_free(sys->p_sizes);
  teal_free(sys->p_offsets);
  teal_free(sys->p0);
  for (int i = 0; i < sys->nscratch; i++) {
    teal_value_release(sys->scratch_types[i], sys->scratch_models[i]);
    teal_free(sys->scratch_models[i]);
  }
  teal_free(sys->events);
  teal_free(sys->scratch_types);
  teal_free(sys->scratch_models);
}

static void free_diagram_parts(teal_system *sys) {
  for (int c = 0; c < sys->nchildren; c++) {
    sys->children[c]->parent = NULL;
    teal_system_free(sys->children[c]);
    if (sys->conn) {
      teal_free(sys->conn[c]);
    }
  }
  teal_free(sys->children);
  teal_free(sys->conn);
  teal_free(sys->cq);
  teal_free(sys->cv);
  teal_free(sys->cz);
  teal_free(sys->cxd);
}

void teal_system_free(teal_system *sys) {
  if (!sys || sys->parent || sys->owner) {
    return; /* owned systems die with their diagram or builder */
  }
  if (sys->is_diagram) {
    free_diagram_parts(sys);
  } else {
    free_leaf_parts(sys);
  }
  free_ports(sys);
  if (sys->user_free) {
    sys->user_free(sys->user);
  }
  teal_free(sys->name);
  teal_free(sys);
}

const char *teal_system_name(const teal_system *sys) { return sys ? sys->name : NULL; }
int teal_system_is_diagram(const teal_system *sys) { return sys ? sys->is_diagram : 0; }
const teal_error *teal_system_error(const teal_system *sys) { return sys ? &sys->err : NULL; }
const teal_system *teal_system_parent(const teal_system *sys) { return sys ? sys->parent : NULL; }
void *teal_system_user(const teal_system *sys) { return sys ? sys->user : NULL; }
int teal_system_num_input_ports(const teal_system *sys) { return sys ? sys->ninputs : 0; }
int teal_system_num_output_ports(const teal_system *sys) { return sys ? sys->noutputs : 0; }

const teal_input_port *teal_system_input_port(const teal_system *sys, int i) {
  return sys && i >= 0 && i < sys->ninputs ? sys->inputs[i] : NULL;
}

const teal_output_port *teal_system_output_port(const teal_system *sys, int i) {
  return sys && i >= 0 && i < sys->noutputs ? sys->outputs[i] : NULL;
}

const teal_input_port *teal_system_input_port_by_name(const teal_system *sys, const char *name) {
  for (int i = 0; sys && name && i < sys->ninputs; i++) {
    if (strcmp(sys->inputs[i]->name, name) == 0) {
      return sys->inputs[i];
    }
  }
  return NULL;
}

const teal_output_port *teal_system_output_port_by_name(const teal_system *sys, const char *name) {
  for (int i = 0; sys && name && i < sys->noutputs; i++) {
    if (strcmp(sys->outputs[i]->name, name) == 0) {
      return sys->outputs[i];
    }
  }
  return NULL;
}

const char *teal_input_port_name(const teal_input_port *p) { return p ? p->name : NULL; }
int teal_input_port_index(const teal_input_port *p) { return p ? p->index : TEAL_EINVAL; }
int teal_input_port_size(const teal_input_port *p) { return p ? p->size : TEAL_EINVAL; }
const teal_value_type *teal_input_port_type(const teal_input_port *p) { return p ? p->type : NULL; }
const teal_system *teal_input_port_system(const teal_input_port *p) { return p ? p->system : NULL; }
const char *teal_output_port_name(const teal_output_port *p) { return p ? p->name : NULL; }
int teal_output_port_index(const teal_output_port *p) { return p ? p->index : TEAL_EINVAL; }
int teal_output_port_size(const teal_output_port *p) { return p ? p->size : TEAL_EINVAL; }
const teal_value_type *teal_output_port_type(const teal_output_port *p) {
  return p ? p->type : NULL;
}
const teal_system *teal_output_port_system(const teal_output_port *p) {
  return p ? p->system : NULL;
}

int teal_system_num_continuous_states(const teal_system *sys, int *nq, int *nv, int *nz) {
  if (!sys) {
    return TEAL_EINVAL;
  }
  if (nq) {
    *nq = sys->nq;
  }
  if (nv) {
    *nv = sys->nv;
  }
  if (nz) {
    *nz = sys->nz;
  }
  return sys->nq + sys->nv + sys->nz;
}

int teal_system_num_discrete_states(const teal_system *sys) { return sys ? sys->nxd : 0; }
int teal_system_num_discrete_groups(const teal_system *sys) {
  return sys && !sys->is_diagram ? sys->nxd_groups : 0;
}
int teal_system_num_abstract_states(const teal_system *sys) { return sys ? sys->nxa : 0; }
int teal_system_num_numeric_parameters(const teal_system *sys) {
  return sys && !sys->is_diagram ? sys->nparams : 0;
}

int teal_system_discrete_group_size(const teal_system *sys, int i) {
  if (!sys || sys->is_diagram || i < 0 || i >= sys->nxd_groups) {
    return TEAL_ENOTFOUND;
  }
  return sys->xd_sizes[i];
}

int teal_system_numeric_parameter_size(const teal_system *sys, int i) {
  if (!sys || sys->is_diagram || i < 0 || i >= sys->nparams) {
    return TEAL_ENOTFOUND;
  }
  return sys->p_sizes[i];
}

int teal_system_has_direct_feedthrough(const teal_system *sys, int in, int out) {
  if (!sys || !sys->feedthrough || in < 0 || in >= sys->ninputs || out < 0 ||
      out >= sys->noutputs) {
    return 0;
  }
  return sys->feedthrough[(size_t)out * (size_t)sys->ninputs + (size_t)in];
}

int teal_system_num_witnesses(const teal_system *sys) { return sys ? sys->nwitnesses : 0; }

/* Finds witness i of the subtree: the leaf holding it and its event. */
static const teal_event_decl *find_witness(const teal_system *sys, int i) {
  if (!sys->is_diagram) {
    for (int e = 0; e < sys->nevents; e++) {
      if (sys->events[e].trigger == TEAL_TRIGGER_WITNESS && i-- == 0) {
        return &sys->events[e];
      }
    }
    return NULL;
  }
  for (int c = 0; c < sys->nchildren; c++) {
    const teal_system *child = sys->children[c];
    if (i < child->nwitnesses) {
      return find_witness(child, i);
    }
    i -= child->nwitnesses;
  }
  return NULL;
}

int teal_system_witness_direction(const teal_system *sys, int i) {
  if (!sys || i < 0 || i >= sys->nwitnesses) {
    return TEAL_ENOTFOUND;
  }
  const teal_event_decl *ev = find_witness(sys, i);
  return ev ? (int)ev->direction : TEAL_ENOTFOUND;
}

const void *teal_system_type_tag(const teal_system *sys) {
  return sys && !sys->is_diagram ? sys->type_tag : NULL;
}

int teal_system_has_jacobian(const teal_system *sys) {
  return sys && !sys->is_diagram && sys->jacobian != NULL;
}

/* Prints the ancestors first, then sys; returns the characters used. */
static size_t print_path(const teal_system *sys, char *buf, size_t n) {
  size_t used = sys->parent ? print_path(sys->parent, buf, n) : 0;
  if (used >= n) {
    return used;
  }
  int w = snprintf(buf + used, n - used, "%s%s", sys->parent ? "/" : "", sys->name);
  return w < 0 ? used : used + (size_t)w;
}

const char *teal_system_path(const teal_system *sys, char *buf, size_t n) {
  if (!buf || n == 0) {
    return "";
  }
  buf[0] = '\0';
  if (sys) {
    print_path(sys, buf, n);
  }
  return buf;
}
