/* The free and known coordinates of a context (see free_indices.h): a
 * joint's coordinates are held when it is locked (the context's lock
 * flags) or prescribed (its motion). */
#include "multibody/plant/free_indices.h"

#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/joints.h"

enum { COORD_Q, COORD_U };

/* The plant's own context in ctx after checking the arguments, or NULL
 * with *rc reported. */
static const teal_context *checked(const teal_plant *p, const teal_context *ctx, const char *fn,
                                   const void *a, const char *a_name, const void *b,
                                   const char *b_name, int *rc) {
  const teal_context *own = p && ctx ? teal_plant_own_context(p, ctx) : NULL;
  *rc = TEAL_OK;
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
  } else if (!a || !b) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, a ? b_name : a_name);
  }
  return *rc ? NULL : own;
}

/* Nonzero when joint J is locked or prescribed in own. */
static int joint_held(const teal_plant *p, const teal_context *own, const joint_rec *J) {
  if (J->motion) {
    return 1;
  }
  int nv = teal_joint_type_get(J->kind)->nv;
  const double *locks = teal_context_numeric_parameter(own, p->sys.param_locks);
  return nv > 0 && locks && locks[J->v_start] != 0.0;
}

/* The indices of the free (want_free) or held coordinates of the kind
 * into index: mark every coordinate, clear the held joints' (or the free
 * ones'), then compact the marks into indices in place. */
static int list_coords(const teal_plant *p, const teal_context *own, int kind, int want_free,
                       int *index) {
  int n = kind == COORD_Q ? p->nq : p->nv;
  for (int i = 0; i < n; i++) {
    index[i] = want_free;
  }
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *J = &JOINT(p)[j];
    if (!joint_held(p, own, J)) {
      continue;
    }
    const teal_joint_type *t = teal_joint_type_get(J->kind);
    int start = kind == COORD_Q ? J->q_start : J->v_start;
    int len = kind == COORD_Q ? t->nq : t->nv;
    for (int k = 0; k < len; k++) {
      index[start + k] = !want_free;
    }
  }
  int count = 0;
  for (int i = 0; i < n; i++) {
    if (index[i]) {
      index[count++] = i;
    }
  }
  return count;
}

static int get_index(const teal_plant *p, const teal_context *ctx, const char *fn, int kind,
                     int want_free, int *index, int *count) {
  int rc;
  const teal_context *own = checked(p, ctx, fn, index, "index", count, "count", &rc);
  if (own) {
    *count = list_coords(p, own, kind, want_free, index);
  }
  return rc;
}

int teal_plant_get_free_q_index(const teal_plant *p, const teal_context *ctx, int *index,
                                int *count) {
  return get_index(p, ctx, "plant get_free_q_index", COORD_Q, 1, index, count);
}

int teal_plant_get_free_u_index(const teal_plant *p, const teal_context *ctx, int *index,
                                int *count) {
  return get_index(p, ctx, "plant get_free_u_index", COORD_U, 1, index, count);
}

int teal_plant_get_free_udot_index(const teal_plant *p, const teal_context *ctx, int *index,
                                   int *count) {
  return get_index(p, ctx, "plant get_free_udot_index", COORD_U, 1, index, count);
}

int teal_plant_get_known_udot_index(const teal_plant *p, const teal_context *ctx, int *index,
                                    int *count) {
  return get_index(p, ctx, "plant get_known_udot_index", COORD_U, 0, index, count);
}

/* Nonzero when coordinate i of the kind belongs to a held joint: a scan
 * of the joints, so packing costs O(n joints) per coordinate and needs no
 * index memory. */
static int coord_held(const teal_plant *p, const teal_context *own, int kind, int i) {
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *J = &JOINT(p)[j];
    const teal_joint_type *t = teal_joint_type_get(J->kind);
    int start = kind == COORD_Q ? J->q_start : J->v_start;
    int len = kind == COORD_Q ? t->nq : t->nv;
    if (i >= start && i < start + len) {
      return joint_held(p, own, J);
    }
  }
  return 0;
}

/* Copies between the full vector and its packed free entries. */
static int pack(const teal_plant *p, const teal_context *ctx, const char *fn, int kind,
                int to_packed, const double *src, double *dst) {
  int rc;
  const teal_context *own = checked(p, ctx, fn, src, to_packed ? "the full vector" : "packed", dst,
                                    to_packed ? "packed" : "the full vector", &rc);
  if (!own) {
    return rc;
  }
  int n = kind == COORD_Q ? p->nq : p->nv, k = 0;
  for (int i = 0; i < n; i++) {
    if (coord_held(p, own, kind, i)) {
      continue;
    }
    if (to_packed) {
      dst[k++] = src[i];
    } else {
      dst[i] = src[k++];
    }
  }
  return TEAL_OK;
}

int teal_plant_pack_free_q(const teal_plant *p, const teal_context *ctx, const double *all_q,
                           double *packed) {
  return pack(p, ctx, "plant pack_free_q", COORD_Q, 1, all_q, packed);
}

int teal_plant_unpack_free_q(const teal_plant *p, const teal_context *ctx, const double *packed,
                             double *q) {
  return pack(p, ctx, "plant unpack_free_q", COORD_Q, 0, packed, q);
}

int teal_plant_pack_free_u(const teal_plant *p, const teal_context *ctx, const double *all_u,
                           double *packed) {
  return pack(p, ctx, "plant pack_free_u", COORD_U, 1, all_u, packed);
}

int teal_plant_unpack_free_u(const teal_plant *p, const teal_context *ctx, const double *packed,
                             double *u) {
  return pack(p, ctx, "plant unpack_free_u", COORD_U, 0, packed, u);
}
