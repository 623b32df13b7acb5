/* Leaf-system declaration (ports, state, parameters, cache entries, hooks) and
 * finalization. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_system.h"
#include "framework/system_internal.h"

teal_system *teal_leaf_new(const char *name, void *user, void (*user_free)(void *)) {
  teal_system *sys = teal_calloc(1, sizeof *sys);
  if (!sys) {
    if (user_free) {
      user_free(user);
    }
    return NULL;
  }
  sys->name = teal_strdup(name && *name ? name : "leaf");
  sys->user = user;
  sys->user_free = user_free;
  sys->nleaves = 1;
  if (!sys->name) {
    teal_system_free(sys);
    return NULL;
  }
  if (strchr(sys->name, '/')) {
    /* '/' separates path components in subsystem lookups */
    teal_error_set_sticky(&sys->err, TEAL_EINVAL, "leaf name '%s' must not contain '/'", sys->name);
  }
  return sys;
}

int teal_leaf_declare_guard(teal_system *sys, const char *what) {
  if (!sys) {
    return TEAL_EINVAL;
  }
  if (sys->err.code != TEAL_OK) {
    return sys->err.code;
  }
  if (sys->is_diagram || sys->finalized) {
    return teal_error_set_sticky(&sys->err, TEAL_ESTATE, "%s: system '%s' is %s", what, sys->name,
                                 sys->is_diagram ? "a diagram" : "already finalized");
  }
  return TEAL_OK;
}

int teal_leaf_callback_guard(teal_system *sys, const char *what, int has_callback) {
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc == TEAL_OK && !has_callback) {
    rc = teal_error_set_sticky(&sys->err, TEAL_EINVAL, "%s on system '%s': NULL callback", what,
                               sys->name);
  }
  return rc;
}

static int check_name(teal_system *sys, const char *name, const char *what) {
  if (!name || !*name || strchr(name, '/')) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL, "%s on system '%s': invalid name '%s'",
                                 what, sys->name, name ? name : "(null)");
  }
  return TEAL_OK;
}

static int declare_input(teal_system *sys, const char *name, int size,
                         const teal_value_type *type) {
  const char *what = type ? "declare abstract input" : "declare vector input";
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc || (rc = check_name(sys, name, what))) {
    return rc;
  }
  if (teal_system_input_port_by_name(sys, name)) {
    return teal_error_set_sticky(&sys->err, TEAL_EDUPLICATE,
                                 "%s: system '%s' already has an input port named '%s'", what,
                                 sys->name, name);
  }
  if (!type && size < 0) {
    return teal_error_set_sticky(&sys->err, TEAL_ESIZE, "%s '%s' on system '%s': size %d < 0", what,
                                 name, sys->name, size);
  }
  if (TEAL_GROW(sys->inputs, sys->cap_inputs, sys->ninputs + 1)) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  teal_input_port *port = teal_calloc(1, sizeof *port);
  char *dup = teal_strdup(name);
  if (!port || !dup) {
    teal_free(port);
    teal_free(dup);
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  port->system = sys;
  port->index = sys->ninputs;
  port->name = dup;
  port->is_abstract = type != NULL;
  port->size = type ? 0 : size;
  port->type = type;
  sys->inputs[sys->ninputs] = port;
  return sys->ninputs++;
}

int teal_leaf_declare_vector_input(teal_system *sys, const char *name, int size) {
  return declare_input(sys, name, size, NULL);
}

int teal_leaf_declare_abstract_input(teal_system *sys, const char *name,
                                     const teal_value_type *type) {
  int rc = teal_leaf_declare_guard(sys, "declare abstract input");
  if (rc) {
    return rc;
  }
  if (!type) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "declare abstract input '%s' on system '%s': NULL type",
                                 name ? name : "(null)", sys->name);
  }
  return declare_input(sys, name, 0, type);
}

/* Appends a cache declaration (used for outputs and declared entries). */
static int add_cache_decl(teal_system *sys, const char *name, int size, const teal_value_type *type,
                          teal_vector_calc_fn vcalc, teal_abstract_calc_fn acalc, void *user,
                          const teal_ticket *prereqs, int nprereqs, const char *what) {
  if (!vcalc && !acalc) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL, "%s '%s' on system '%s': NULL calc", what,
                                 name, sys->name);
  }
  if (type && (!type->name || type->size == 0)) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "%s '%s' on system '%s': type needs a name and a size", what, name,
                                 sys->name);
  }
  if (!type && size < 0) {
    return teal_error_set_sticky(&sys->err, TEAL_ESIZE, "%s '%s' on system '%s': size %d < 0", what,
                                 name, sys->name, size);
  }
  if (nprereqs < 0 || (nprereqs > 0 && !prereqs)) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "%s '%s' on system '%s': bad prerequisite list", what, name,
                                 sys->name);
  }
  if (TEAL_GROW(sys->cache, sys->cap_cache, sys->ncache + 1)) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  teal_cache_decl *d = &sys->cache[sys->ncache];
  memset(d, 0, sizeof *d);
  d->name = teal_strdup(name);
  int n = nprereqs > 0 ? nprereqs : 1;
  d->prereqs = teal_calloc((size_t)n, sizeof *d->prereqs);
  if (!d->name || !d->prereqs) {
    teal_free(d->name);
    teal_free(d->prereqs);
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  if (nprereqs > 0) {
    memcpy(d->prereqs, prereqs, (size_t)nprereqs * sizeof *prereqs);
  } else {
    d->prereqs[0] = TEAL_TICKET_ALL_SOURCES;
  }
  d->nprereqs = n;
  d->is_abstract = type != NULL;
  d->size = type ? 0 : size;
  d->type = type;
  d->vector_calc = vcalc;
  d->abstract_calc = acalc;
  d->user = user;
  return sys->ncache++;
}

/* The checks every output declaration starts with: open system, valid and
 * unused name, room for one more port. */
static int output_guard(teal_system *sys, const char *name, const char *what) {
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc || (rc = check_name(sys, name, what))) {
    return rc;
  }
  if (teal_system_output_port_by_name(sys, name)) {
    return teal_error_set_sticky(&sys->err, TEAL_EDUPLICATE,
                                 "%s: system '%s' already has an output port named '%s'", what,
                                 sys->name, name);
  }
  if (TEAL_GROW(sys->outputs, sys->cap_outputs, sys->noutputs + 1)) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  return TEAL_OK;
}

/* Appends output port name whose value is cache declaration slot; returns
 * its index. */
static int add_output_port(teal_system *sys, const char *name, int slot, const char *what) {
  teal_output_port *port = teal_calloc(1, sizeof *port);
  char *dup = teal_strdup(name);
  if (!port || !dup) {
    teal_free(port);
    teal_free(dup);
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  const teal_cache_decl *d = &sys->cache[slot];
  port->system = sys;
  port->index = sys->noutputs;
  port->name = dup;
  port->is_abstract = d->is_abstract;
  port->size = d->size;
  port->type = d->type;
  port->cache_index = slot;
  port->child = port->child_port = -1;
  sys->outputs[sys->noutputs] = port;
  return sys->noutputs++;
}

static int declare_output(teal_system *sys, const char *name, int size, const teal_value_type *type,
                          teal_vector_calc_fn vcalc, teal_abstract_calc_fn acalc, void *user,
                          const teal_ticket *prereqs, int nprereqs) {
  const char *what = type ? "declare abstract output" : "declare vector output";
  int rc = output_guard(sys, name, what);
  if (rc) {
    return rc;
  }
  int slot = add_cache_decl(sys, name, size, type, vcalc, acalc, user, prereqs, nprereqs, what);
  if (slot < 0) {
    return slot;
  }
  rc = add_output_port(sys, name, slot, what);
  if (rc < 0) {
    sys->ncache--; /* the declaration belongs to no port: drop it */
    teal_free(sys->cache[slot].name);
    teal_free(sys->cache[slot].prereqs);
  }
  return rc;
}

int teal_leaf_declare_vector_output(teal_system *sys, const char *name, int size,
                                    teal_vector_calc_fn calc, void *user,
                                    const teal_ticket *prereqs, int nprereqs) {
  return declare_output(sys, name, size, NULL, calc, NULL, user, prereqs, nprereqs);
}

int teal_leaf_declare_abstract_output(teal_system *sys, const char *name,
                                      const teal_value_type *type, teal_abstract_calc_fn calc,
                                      void *user, const teal_ticket *prereqs, int nprereqs) {
  int rc = teal_leaf_declare_guard(sys, "declare abstract output");
  if (rc) {
    return rc;
  }
  if (!type) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "declare abstract output '%s' on system '%s': NULL type",
                                 name ? name : "(null)", sys->name);
  }
  return declare_output(sys, name, 0, type, NULL, calc, user, prereqs, nprereqs);
}

/* Copies n doubles from src (NULL: zeros) into a new array; NULL on failure. */
static double *copy_defaults(const double *src, int n) {
  double *dst = teal_calloc((size_t)(n > 0 ? n : 1), sizeof *dst);
  if (dst && src && n > 0) {
    memcpy(dst, src, (size_t)n * sizeof *dst);
  }
  return dst;
}

static int check_finite(teal_system *sys, const double *x, int n, const char *what) {
  for (int i = 0; x && i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_error_set_sticky(&sys->err, TEAL_ENONFINITE,
                                   "%s on system '%s': default value %d is not finite", what,
                                   sys->name, i);
    }
  }
  return TEAL_OK;
}

int teal_leaf_declare_continuous_state(teal_system *sys, int nq, int nv, int nz, const double *x0) {
  const char *what = "declare continuous state";
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc) {
    return rc;
  }
  if (sys->xc0) {
    return teal_error_set_sticky(&sys->err, TEAL_EDUPLICATE,
                                 "%s: system '%s' already declared its continuous state", what,
                                 sys->name);
  }
  if (nq < 0 || nv < 0 || nz < 0) {
    return teal_error_set_sticky(&sys->err, TEAL_ESIZE,
                                 "%s on system '%s': negative size (nq %d, nv %d, nz %d)", what,
                                 sys->name, nq, nv, nz);
  }
  if ((rc = check_finite(sys, x0, nq + nv + nz, what))) {
    return rc;
  }
  sys->xc0 = copy_defaults(x0, nq + nv + nz);
  if (!sys->xc0) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  sys->nq = nq;
  sys->nv = nv;
  sys->nz = nz;
  return TEAL_OK;
}

/* A growable list of double groups (discrete state groups, numeric
 * parameters): all values back to back, with each group's size and offset. */
typedef struct double_groups {
  double **values;
  int **sizes, **offsets;
  int *cap, *ngroups, *ntotal;
} double_groups;

/* Appends a group of size doubles (x0, or zeros when NULL) and returns its
 * index, or a sticky error. */
static int append_double_group(teal_system *sys, double_groups g, int size, const double *x0,
                               const char *what) {
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc) {
    return rc;
  }
  if (size < 0) {
    return teal_error_set_sticky(&sys->err, TEAL_ESIZE, "%s on system '%s': size %d < 0", what,
                                 sys->name, size);
  }
  if ((rc = check_finite(sys, x0, size, what))) {
    return rc;
  }
  int n = *g.ngroups, total = *g.ntotal, cap = *g.cap;
  double *all = teal_calloc((size_t)(total + size + 1), sizeof *all);
  if (!all || TEAL_GROW(*g.sizes, cap, n + 1) || TEAL_GROW(*g.offsets, *g.cap, n + 1)) {
    teal_free(all);
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  if (*g.values) {
    memcpy(all, *g.values, (size_t)total * sizeof *all);
    teal_free(*g.values);
  }
  if (x0) {
    memcpy(all + total, x0, (size_t)size * sizeof *all);
  }
  *g.values = all;
  (*g.sizes)[n] = size;
  (*g.offsets)[n] = total;
  *g.ntotal = total + size;
  return (*g.ngroups)++;
}

int teal_leaf_declare_discrete_state(teal_system *sys, int size, const double *x0) {
  if (!sys) {
    return TEAL_EINVAL;
  }
  double_groups g = {&sys->xd0, &sys->xd_sizes, &sys->xd_offsets, &sys->cap_xd,
                     &sys->nxd_groups, &sys->nxd};
  return append_double_group(sys, g, size, x0, "declare discrete state");
}

/* A heap copy of model (or of the type's default) owned by the system;
 * NULL with the sticky error set on failure. */
static void *copy_model(teal_system *sys, const teal_value_type *type, const void *model,
                        const char *what) {
  void *copy = teal_alloc(type->size);
  if (!copy) {
    teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                          sys->name);
    return NULL;
  }
  int rc = teal_value_init(type, copy);
  if (rc == TEAL_OK && model) {
    rc = teal_value_copy(type, copy, model);
  }
  if (rc != TEAL_OK) {
    teal_value_release(type, copy);
    teal_free(copy);
    teal_error_set_sticky(&sys->err, rc,
                          "%s on system '%s': copying the model value of type "
                          "'%s' failed (%s)",
                          what, sys->name, type->name, teal_strerror(rc));
    return NULL;
  }
  return copy;
}

int teal_leaf_declare_abstract_state(teal_system *sys, const teal_value_type *type,
                                     const void *model) {
  const char *what = "declare abstract state";
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc) {
    return rc;
  }
  if (!type || !type->name || type->size == 0) {
    return teal_error_set_sticky(
        &sys->err, TEAL_EINVAL, "%s on system '%s': type needs a name and a size", what, sys->name);
  }
  int cap = sys->cap_xa;
  if (TEAL_GROW(sys->xa_types, cap, sys->nxa + 1) ||
      TEAL_GROW(sys->xa_models, sys->cap_xa, sys->nxa + 1)) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  void *copy = copy_model(sys, type, model, what);
  if (!copy) {
    return sys->err.code;
  }
  sys->xa_types[sys->nxa] = type;
  sys->xa_models[sys->nxa] = copy;
  return sys->nxa++;
}

int teal_leaf_declare_numeric_parameter(teal_system *sys, int size, const double *p0) {
  if (!sys) {
    return TEAL_EINVAL;
  }
  double_groups g = {&sys->p0, &sys->p_sizes, &sys->p_offsets, &sys->cap_params,
                     &sys->nparams, &sys->np};
  return append_double_group(sys, g, size, p0, "declare numeric parameter");
}

static int declare_entry(teal_system *sys, const char *name, int size, const teal_value_type *type,
                         teal_vector_calc_fn vcalc, teal_abstract_calc_fn acalc, void *user,
                         const teal_ticket *prereqs, int nprereqs) {
  const char *what = "declare cache entry";
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc || (rc = check_name(sys, name, what))) {
    return rc;
  }
  if (TEAL_GROW(sys->entry_cache, sys->cap_entries, sys->nentries + 1)) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  int slot = add_cache_decl(sys, name, size, type, vcalc, acalc, user, prereqs, nprereqs, what);
  if (slot < 0) {
    return slot;
  }
  sys->entry_cache[sys->nentries] = slot;
  return sys->nentries++;
}

int teal_leaf_declare_output_from_cache_entry(teal_system *sys, const char *name, int entry) {
  const char *what = "declare output from cache entry";
  int rc = output_guard(sys, name, what);
  if (rc) {
    return rc;
  }
  if (entry < 0 || entry >= sys->nentries) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "%s '%s' on system '%s': no cache entry %d (%d declared)", what,
                                 name, sys->name, entry, sys->nentries);
  }
  return add_output_port(sys, name, sys->entry_cache[entry], what);
}

int teal_leaf_declare_cache_entry(teal_system *sys, const char *name, int size,
                                  teal_vector_calc_fn calc, void *user, const teal_ticket *prereqs,
                                  int nprereqs) {
  return declare_entry(sys, name, size, NULL, calc, NULL, user, prereqs, nprereqs);
}

int teal_leaf_declare_abstract_cache_entry(teal_system *sys, const char *name,
                                           const teal_value_type *type, teal_abstract_calc_fn calc,
                                           void *user, const teal_ticket *prereqs, int nprereqs) {
  int rc = teal_leaf_declare_guard(sys, "declare cache entry");
  if (rc) {
    return rc;
  }
  if (!type) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "declare cache entry '%s' on system '%s': NULL type",
                                 name ? name : "(null)", sys->name);
  }
  return declare_entry(sys, name, 0, type, NULL, calc, user, prereqs, nprereqs);
}

int teal_leaf_set_time_derivatives(teal_system *sys, teal_derivatives_fn fn, void *user) {
  int rc = teal_leaf_callback_guard(sys, "set time derivatives", fn != NULL);
  if (rc) {
    return rc;
  }
  sys->derivatives = fn;
  sys->derivatives_user = user;
  return TEAL_OK;
}

int teal_leaf_set_energy(teal_system *sys, teal_energy_fn potential, teal_energy_fn kinetic,
                         void *user) {
  int rc = teal_leaf_declare_guard(sys, "set energy");
  if (rc) {
    return rc;
  }
  sys->potential = potential;
  sys->kinetic = kinetic;
  sys->energy_user = user;
  return TEAL_OK;
}

int teal_leaf_set_velocity_map(teal_system *sys, teal_velocity_map_fn v_to_qdot,
                               teal_velocity_map_fn qdot_to_v, void *user) {
  int rc = teal_leaf_declare_guard(sys, "set velocity map");
  if (rc) {
    return rc;
  }
  if (!v_to_qdot || !qdot_to_v) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "set velocity map on system '%s': both maps are required",
                                 sys->name);
  }
  sys->v_to_qdot = v_to_qdot;
  sys->qdot_to_v = qdot_to_v;
  sys->velocity_map_user = user;
  return TEAL_OK;
}

int teal_leaf_set_projection(teal_system *sys, teal_projection_fn fn, void *user) {
  int rc = teal_leaf_callback_guard(sys, "set projection", fn != NULL);
  if (rc) {
    return rc;
  }
  sys->projection = fn;
  sys->projection_user = user;
  return TEAL_OK;
}

int teal_leaf_set_jacobian(teal_system *sys, teal_jacobian_fn fn, void *user) {
  int rc = teal_leaf_callback_guard(sys, "set jacobian", fn != NULL);
  if (rc) {
    return rc;
  }
  sys->jacobian = fn;
  sys->jacobian_user = user;
  return TEAL_OK;
}

int teal_leaf_declare_scratch(teal_system *sys, const char *name, const teal_value_type *type,
                              const void *model) {
  const char *what = "declare scratch";
  int rc = teal_leaf_declare_guard(sys, what);
  if (rc || (rc = check_name(sys, name, what))) {
    return rc;
  }
  if (!type || !type->name || type->size == 0) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "%s '%s' on system '%s': type needs a name and a size", what, name,
                                 sys->name);
  }
  int cap = sys->cap_scratch;
  if (TEAL_GROW(sys->scratch_types, cap, sys->nscratch + 1) ||
      TEAL_GROW(sys->scratch_models, sys->cap_scratch, sys->nscratch + 1)) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s on system '%s': out of memory", what,
                                 sys->name);
  }
  void *copy = copy_model(sys, type, model, what);
  if (!copy) {
    return sys->err.code;
  }
  sys->scratch_types[sys->nscratch] = type;
  sys->scratch_models[sys->nscratch] = copy;
  return sys->nscratch++;
}

int teal_leaf_set_type_tag(teal_system *sys, const void *tag) {
  int rc = teal_leaf_declare_guard(sys, "set type tag");
  if (rc == TEAL_OK) {
    sys->type_tag = tag;
  }
  return rc;
}

/* ---- finalization ---------------------------------------------------------- */

/* Leaf finalization: validates declarations, detects cycles among cache
 * entries and computes direct feedthrough from the prerequisites. */

/* Checks that a ticket names something the leaf declared. */
static int ticket_valid(const teal_system *sys, teal_ticket t) {
  int kind = teal_ticket_kind(t), i = teal_ticket_index(t);
  switch (kind) {
    case TEAL_TICKET_DISCRETE_BASE:
      return i < sys->nxd_groups;
    case TEAL_TICKET_ABSTRACT_BASE:
      return i < sys->nxa;
    case TEAL_TICKET_PARAMETER_BASE:
      return i < sys->nparams;
    case TEAL_TICKET_INPUT_BASE:
      return i < sys->ninputs;
    case TEAL_TICKET_CACHE_BASE:
      return i < sys->nentries;
    default:
      return i == 0 && kind >= TEAL_TICKET_NOTHING && kind <= TEAL_TICKET_ALL_SOURCES;
  }
}

/* Depth-first walk over cache-entry prerequisites: marks in inputs_hit the
 * inputs reached; fails on a cycle (state: 0 new, 1 on stack, 2 done). */
static int walk_decl(teal_system *sys, int d, unsigned char *state, unsigned char *inputs_hit) {
  if (state[d] == 1) {
    return teal_error_set_sticky(&sys->err, TEAL_EALGLOOP,
                                 "finalize system '%s': cache entry '%s' depends on itself",
                                 sys->name, sys->cache[d].name);
  }
  if (state[d] == 2) {
    return TEAL_OK;
  }
  state[d] = 1;
  const teal_cache_decl *decl = &sys->cache[d];
  for (int k = 0; k < decl->nprereqs; k++) {
    teal_ticket t = decl->prereqs[k];
    if (!ticket_valid(sys, t)) {
      state[d] = 0;
      return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                   "finalize system '%s': '%s' names an unknown prerequisite "
                                   "(ticket 0x%x)",
                                   sys->name, decl->name, (unsigned)t);
    }
    int kind = teal_ticket_kind(t);
    if (inputs_hit && (kind == TEAL_TICKET_ALL_INPUTS || kind == TEAL_TICKET_ALL_SOURCES)) {
      memset(inputs_hit, 1, (size_t)sys->ninputs);
    } else if (inputs_hit && kind == TEAL_TICKET_INPUT_BASE) {
      inputs_hit[teal_ticket_index(t)] = 1;
    } else if (kind == TEAL_TICKET_CACHE_BASE) {
      int rc = walk_decl(sys, sys->entry_cache[teal_ticket_index(t)], state, inputs_hit);
      if (rc) {
        state[d] = 0;
        return rc;
      }
    }
  }
  state[d] = 2;
  return TEAL_OK;
}

int teal_leaf_compute_feedthrough(teal_system *sys) {
  size_t nft = (size_t)sys->noutputs * (size_t)sys->ninputs;
  unsigned char *state = teal_calloc((size_t)sys->ncache + 1, 1);
  sys->feedthrough = teal_calloc(nft + 1, 1);
  if (!state || !sys->feedthrough) {
    teal_free(state);
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "finalize: out of memory");
  }
  int rc = TEAL_OK;
  for (int d = 0; d < sys->ncache && rc == TEAL_OK; d++) {
    rc = walk_decl(sys, d, state, NULL);
  }
  for (int o = 0; o < sys->noutputs && rc == TEAL_OK; o++) {
    memset(state, 0, (size_t)sys->ncache);
    rc = walk_decl(sys, sys->outputs[o]->cache_index, state,
                   sys->feedthrough + (size_t)o * (size_t)sys->ninputs);
  }
  teal_free(state);
  return rc;
}

int teal_leaf_finalize(teal_system *sys) {
  if (!sys) {
    return TEAL_EINVAL;
  }
  if (sys->err.code != TEAL_OK) {
    return sys->err.code;
  }
  if (sys->is_diagram || sys->finalized) {
    return teal_error_set_sticky(&sys->err, TEAL_ESTATE, "finalize: system '%s' is %s", sys->name,
                                 sys->is_diagram ? "a diagram" : "already finalized");
  }
  if (sys->nq + sys->nv + sys->nz > 0 && !sys->derivatives) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "finalize system '%s': continuous state declared without a "
                                 "time-derivative callback",
                                 sys->name);
  }
  if (sys->nq != sys->nv && !sys->v_to_qdot) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "finalize system '%s': nq (%d) != nv (%d) needs a velocity map",
                                 sys->name, sys->nq, sys->nv);
  }
  int rc = teal_leaf_compute_feedthrough(sys);
  if (rc == TEAL_OK) {
    sys->finalized = 1;
  }
  return rc;
}
