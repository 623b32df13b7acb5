/* The multibody data object: its one-buffer layout, gravity, and the
 * argument checks every algorithm starts with (see data.h). */
#include "multibody/algorithms/data.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/buffer_layout.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

/* ---- layout ------------------------------------------------------------------ */

/* The arrays of the dynamics stages (nd: doubles of the D^-1 blocks). */
static void layout_stages(teal_mb_data *data, size_t nd, teal_buffer_layout *L) {
  size_t nn = (size_t)data->nn, nv = (size_t)data->nv;
  data->body = teal_buffer_take(L, nn, sizeof(int));
  data->joint = teal_buffer_take(L, nn, sizeof(int));
  data->d_start = teal_buffer_take(L, nn, sizeof(int));
  data->flags = teal_buffer_take(L, nn, sizeof(int));
  data->X_MB = teal_buffer_take(L, nn, sizeof(teal_transform));
  data->own_I_Bcm = teal_buffer_take(L, nn, sizeof(teal_mat3));
  data->q_pos = teal_buffer_take(L, (size_t)data->nq + 1, sizeof(double));
  data->X = teal_buffer_take(L, nn, sizeof(teal_transform));
  data->O = teal_buffer_take(L, nn, sizeof(teal_vec3));
  data->S = teal_buffer_take(L, 6 * nv + 1, sizeof(double));
  data->I = teal_buffer_take(L, nn, sizeof(teal_mb_inertia));
  data->V = teal_buffer_take(L, nn, sizeof(teal_spatial_vector));
  data->c = teal_buffer_take(L, nn, sizeof(teal_spatial_vector));
  data->pb = teal_buffer_take(L, nn, sizeof(teal_spatial_vector));
  data->a = teal_buffer_take(L, nn, sizeof(teal_spatial_vector));
  data->f = teal_buffer_take(L, nn, sizeof(teal_spatial_vector));
  data->Ic = teal_buffer_take(L, nn, sizeof(teal_mb_inertia));
  data->P = teal_buffer_take(L, nn, sizeof(teal_mat6));
  data->Ud = teal_buffer_take(L, 6 * nv + 1, sizeof(double));
  data->Dinv = teal_buffer_take(L, nd + 1, sizeof(double));
  data->u = teal_buffer_take(L, nv + 1, sizeof(double));
}

/* The body-indexed arrays of the Jacobian and momentum functions. */
static void layout_bodies(teal_mb_data *data, teal_buffer_layout *L) {
  size_t nn = (size_t)data->nn, nb = (size_t)data->nb;
  data->X_WB = teal_buffer_take(L, nb, sizeof(teal_transform));
  data->V_WB = teal_buffer_take(L, nb, sizeof(teal_spatial_vector));
  data->A_WB = teal_buffer_take(L, nb, sizeof(teal_spatial_vector));
  data->F_Bo_W = teal_buffer_take(L, nb, sizeof(teal_spatial_vector));
  data->F = teal_buffer_take(L, nn, sizeof(teal_spatial_vector));
  data->instance = teal_buffer_take(L, (size_t)data->ni + 1, 1);
  data->selected = teal_buffer_take(L, nn, 1);
  data->m_sub = teal_buffer_take(L, nn, sizeof(double));
  data->mp_sub = teal_buffer_take(L, nn, sizeof(teal_vec3));
}

/* The blocks of M by tree and their factors (one double each when they
 * are not kept). */
static void layout_blocks(teal_mb_data *data, teal_buffer_layout *L) {
  size_t nblk = data->blocks_kept ? teal_mb_trees_block_size(data->trees) : 0;
  data->Mb = teal_buffer_take(L, nblk + 1, sizeof(double));
  data->Lb = teal_buffer_take(L, nblk + 1, sizeof(double));
  data->minv_x = teal_buffer_take(L, (size_t)data->trees->max_nv + 1, sizeof(double));
  data->zero_nv = teal_buffer_take(L, (size_t)data->nv + 1, sizeof(double));
  data->bias = teal_buffer_take(L, (size_t)data->nv + 1, sizeof(double));
}

static int is_identity(teal_rotation R) {
  teal_rotation I = teal_rotation_identity();
  return memcmp(R.m, I.m, sizeof R.m) == 0;
}

/* The constant per-node data and the world node's stage values. */
static void fill_constants(teal_mb_data *data, const teal_plant_tree *t) {
  int d = 0;
  for (int k = 0; k < data->nn; k++) {
    const teal_spatial_inertia *M = &t->M_BBo_B[k];
    data->body[k] = teal_plant_node_body(data->plant, k);
    data->joint[k] = k == 0 ? -1 : teal_plant_body_joint(data->plant, data->body[k]);
    data->d_start[k] = d;
    d += t->nv[k] * t->nv[k];
    data->X_MB[k] = teal_transform_inverse(t->X_BM[k]);
    data->flags[k] = (is_identity(t->X_PF[k].R) ? TEAL_MB_F_UNROTATED : 0) |
                     (is_identity(data->X_MB[k].R) ? TEAL_MB_M_UNROTATED : 0) |
                     (teal_vec3_norm(data->X_MB[k].p) == 0.0 ? TEAL_MB_M_AT_BO : 0);
    data->own_I_Bcm[k] = teal_spatial_inertia_central(M);
  }
  data->M_BBo_B = t->M_BBo_B;
  data->I_Bcm = data->own_I_Bcm;
  data->reflected = t->reflected_inertia;
  data->X[0] = teal_transform_identity();
  data->O[0] = teal_vec3_zero();
  data->V[0] = data->c[0] = data->pb[0] = teal_spatial_vector_zero();
}

/* Sizes, then one buffer for every array. */
static int allocate(teal_mb_data *data, const teal_plant_tree *t, double *bytes) {
  size_t nd = 0;
  for (int k = 0; k < data->nn; k++) {
    nd += (size_t)t->nv[k] * (size_t)t->nv[k];
  }
  size_t nblk = teal_mb_trees_block_size(data->trees);
  data->blocks_kept = nblk <= TEAL_PLANT_DENSE_MAX_BYTES / sizeof(double);
  teal_buffer_layout L = {NULL, 0, 0};
  layout_stages(data, nd, &L);
  layout_bodies(data, &L);
  layout_blocks(data, &L);
  data->buffer = L.overflow ? NULL : teal_calloc(1, L.size);
  if (!data->buffer) {
    *bytes = L.overflow ? -1.0 : (double)L.size;
    return TEAL_ENOMEM;
  }
  L = (teal_buffer_layout){data->buffer, 0, 0};
  layout_stages(data, nd, &L);
  layout_bodies(data, &L);
  layout_blocks(data, &L);
  return TEAL_OK;
}

teal_mb_data *teal_mb_data_new(const teal_plant *plant, teal_error *err) {
  if (!plant) {
    teal_error_set(err, TEAL_EINVAL, "teal_mb_data_new: NULL plant");
    return NULL;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  if (!t || !teal_plant_forest(plant)) {
    teal_error_set(err, TEAL_ESTATE, "teal_mb_data_new: plant is not finalized");
    return NULL;
  }
  teal_mb_data *data = teal_calloc(1, sizeof(*data));
  if (!data) {
    teal_error_set(err, TEAL_ENOMEM, "teal_mb_data_new: out of memory");
    return NULL;
  }
  data->plant = plant;
  data->gravity = plant->gravity.v;
  data->nb = teal_plant_num_bodies(plant);
  data->nn = t->num_nodes;
  data->nq = teal_plant_nq(plant);
  data->nv = teal_plant_nv(plant);
  data->nf = teal_plant_num_frames(plant);
  data->ni = teal_plant_num_model_instances(plant);
  data->trees = teal_plant_forest(plant);
  double bytes = 0.0;
  if (allocate(data, t, &bytes) != TEAL_OK) {
    char size[64] = "more bytes than a size_t counts";
    if (bytes >= 0.0) {
      snprintf(size, sizeof(size), "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
    teal_error_set(err, TEAL_ENOMEM,
                   "teal_mb_data_new: out of memory for the data of a plant with %d bodies, "
                   "nq = %d, nv = %d (%s)",
                   data->nb, data->nq, data->nv, size);
    teal_free(data);
    return NULL;
  }
  fill_constants(data, t);
  return data;
}

void teal_mb_data_free(teal_mb_data *data) {
  if (data) {
    teal_free(data->buffer);
    teal_free(data);
  }
}

const teal_error *teal_mb_data_error(const teal_mb_data *data) {
  return data ? &data->err : NULL;
}

/* ---- gravity ------------------------------------------------------------------ */

/* Gravity is never copied from its owner: data points at the model's vector
 * until a caller sets its own (teal_mb_data_set_gravity) or lends one (the
 * plant system's context parameter, teal_mb_data_use_gravity). */
int teal_mb_data_set_gravity(teal_mb_data *data, teal_vec3 g_W) {
  if (!data) {
    return TEAL_EINVAL;
  }
  teal_error_clear(&data->err); /* the record is the latest call's */
  if (!teal_vec3_is_finite(g_W)) {
    return teal_error_set(&data->err, TEAL_ENONFINITE,
                          "teal_mb_data_set_gravity: g_W is not finite");
  }
  data->own_gravity = g_W;
  data->gravity = data->own_gravity.v;
  return TEAL_OK;
}

void teal_mb_data_use_gravity(teal_mb_data *data, const double *g_W) {
  data->gravity = g_W;
}

void teal_mb_data_use_inertias(teal_mb_data *data, const teal_spatial_inertia *M_BBo_B,
                               const teal_mat3 *I_Bcm) {
  data->M_BBo_B = M_BBo_B;
  data->I_Bcm = I_Bcm;
}

void teal_mb_data_use_reflected_inertia(teal_mb_data *data, const double *r) {
  data->reflected = r;
}

void teal_mb_data_stage_by_owner(teal_mb_data *data) {
  data->staged = 1;
}

void teal_mb_data_drop_position(teal_mb_data *data) {
  data->pos_valid = 0;
}

void teal_mb_data_set_added_diagonal(teal_mb_data *data, const double *d) {
  if (!d && !data->added_diagonal) {
    return; /* M stays M: its factorizations stay valid (an undamped step) */
  }
  data->added_diagonal = d; /* a diagonal's values may change behind the same pointer */
  data->factor_stamp = 0;
  data->blocks_stamp = 0;
}

teal_vec3 teal_mb_data_gravity(const teal_mb_data *data) {
  return data ? teal_mb_data_g(data) : teal_vec3_zero();
}

/* ---- validation ------------------------------------------------------------ */

const teal_plant_tree *teal_mb_data_begin(const teal_plant *plant, teal_mb_data *data,
                                          const char *fn, int *status) {
  if (!data) {
    *status = TEAL_EINVAL;
    return NULL;
  }
  teal_error_clear(&data->err);
  if (!plant) {
    *status = teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  if (!t) {
    *status = teal_error_set(&data->err, TEAL_ESTATE, "%s: plant is not finalized", fn);
    return NULL;
  }
  /* a finalized plant never changes, so its identity and size settle it */
  if (data->plant != plant || data->nn != t->num_nodes) {
    *status = teal_error_set(&data->err, TEAL_EINVAL, "%s: data made for another plant", fn);
    return NULL;
  }
  *status = TEAL_OK;
  return t;
}

int teal_mb_data_check_array(teal_mb_data *data, const char *fn, const char *name, const double *x,
                             int n, int optional) {
  if (!x) {
    return optional ? TEAL_OK : teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_error_set(&data->err, TEAL_ENONFINITE, "%s: %s[%d] is not finite (%g)", fn, name,
                            i, x[i]);
    }
  }
  return TEAL_OK;
}

int teal_mb_data_check_forces(teal_mb_data *data, const char *fn, const char *name,
                              const teal_spatial_vector *F) {
  for (int b = 0; F && b < data->nb; b++) {
    for (int i = 0; i < 6; i++) {
      if (!isfinite(F[b].v[i])) {
        return teal_error_set(&data->err, TEAL_ENONFINITE,
                              "%s: %s[%d] (body \"%s\") component %d is not finite (%g)", fn, name,
                              b, teal_plant_body_name(data->plant, b), i, F[b].v[i]);
      }
    }
  }
  return TEAL_OK;
}

int teal_mb_data_check_out(teal_mb_data *data, const char *fn, const char *name, const void *x) {
  return x ? TEAL_OK : teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
}

const teal_plant_tree *teal_mb_data_begin_qv(const teal_plant *plant, teal_mb_data *data,
                                             const char *fn, const double *q, const double *v,
                                             int need_v, const void *out, const char *out_name,
                                             int *status) {
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, status);
  if (!t || (*status = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (need_v && (*status = teal_mb_data_check_array(data, fn, "v", v, data->nv, 0))) ||
      (*status = teal_mb_data_check_out(data, fn, out_name, out))) {
    return NULL;
  }
  return t;
}

int teal_mb_data_check_frame(teal_mb_data *data, const char *fn, const char *name, int f) {
  if (f < 0 || f >= data->nf) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: %s = %d is not a frame index (0..%d)", fn,
                          name, f, data->nf - 1);
  }
  return TEAL_OK;
}

int teal_mb_data_select_bodies(teal_mb_data *data, const teal_plant_tree *t, const char *fn,
                               const int *instances, int n, double *mass) {
  if (instances && n < 0) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: num_instances = %d is negative", fn, n);
  }
  memset(data->instance, instances ? 0 : 1, (size_t)data->ni);
  for (int i = 0; instances && i < n; i++) {
    if (instances[i] < 0 || instances[i] >= data->ni) {
      return teal_error_set(&data->err, TEAL_EINVAL,
                            "%s: instances[%d] = %d is not a model instance (0..%d)", fn, i,
                            instances[i], data->ni - 1);
    }
    data->instance[instances[i]] = 1;
  }
  double m = 0.0;
  data->selected[0] = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    data->selected[k] = data->instance[teal_plant_body_instance(data->plant, data->body[k])];
    m += data->selected[k] ? data->M_BBo_B[k].mass : 0.0;
  }
  if (!(m > 0.0)) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: the selection has no mass (no bodies)", fn);
  }
  *mass = m;
  return TEAL_OK;
}
