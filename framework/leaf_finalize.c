/* Leaf finalization: validates declarations, detects cycles among cache
 * entries and computes direct feedthrough from the prerequisites. */
#include <string.h>

#include "framework/alloc.h"
#include "framework/system_internal.h"

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
