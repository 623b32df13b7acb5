/* The discrete step's working memory (see step_data_internal.h). */
#include "multibody/plant/step_data_internal.h"

#include <limits.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/buffer_layout.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/plant/discrete_constraints_internal.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

/* ---- the model buffer ------------------------------------------------------------ */

static void layout_limits(teal_step_data *sd, size_t nv, size_t nl, teal_buffer_layout *L) {
  sd->vstar = teal_buffer_take(L, nv, sizeof(double));
  sd->dv = teal_buffer_take(L, nv, sizeof(double));
  sd->hdamp = teal_buffer_take(L, nv, sizeof(double));
  sd->Wcols = teal_buffer_take(L, nl * nv, sizeof(double));
  sd->lambda = teal_buffer_take(L, nl, sizeof(double));
  sd->target = teal_buffer_take(L, nl, sizeof(double));
  sd->sign = teal_buffer_take(L, nl, sizeof(double));
  sd->active = teal_buffer_take(L, nl, sizeof(int));
}

static void layout_rows(teal_step_data *sd, size_t nv, size_t nb, size_t nr,
                        teal_buffer_layout *L) {
  sd->Gr = teal_buffer_take(L, nr * nv, sizeof(double));
  sd->Yr = teal_buffer_take(L, nr * nv, sizeof(double));
  sd->Wr = teal_buffer_take(L, nr * nr, sizeof(double));
  sd->ur = teal_buffer_take(L, nr, sizeof(double));
  sd->pivr = teal_buffer_take(L, nr, sizeof(int));
  sd->Xc = teal_buffer_take(L, nr > 0 ? nb : 0, sizeof(teal_transform));
  sd->Fc = teal_buffer_take(L, nr > 0 ? nb : 0, sizeof(teal_spatial_vector));
  double **by_row[] = {&sd->gr, &sd->kr, &sd->cr, &sd->lambda_r};
  for (size_t i = 0; i < sizeof by_row / sizeof *by_row; i++) {
    *by_row[i] = teal_buffer_take(L, nr, sizeof(double));
  }
  sd->island_rows = teal_buffer_take(L, nr, sizeof(int));
}

static void layout_islands(teal_step_data *sd, size_t nv, size_t nt, teal_buffer_layout *L) {
  double **by_dof[] = {&sd->res, &sd->dir, &sd->v_try, &sd->r_try, &sd->v_loc, &sd->vstar_loc};
  for (size_t i = 0; i < sizeof by_dof / sizeof *by_dof; i++) {
    *by_dof[i] = teal_buffer_take(L, nv, sizeof(double));
  }
  sd->uf = teal_buffer_take(L, nt, sizeof(int));
  sd->tree_off = teal_buffer_take(L, nt, sizeof(int));
  sd->island_trees = teal_buffer_take(L, nt, sizeof(int));
  sd->tree_bucket = teal_buffer_take(L, nt + 1, sizeof(int));
  sd->contact_off = teal_buffer_take(L, nt + 1, sizeof(int));
  sd->cursor = teal_buffer_take(L, nt + 1, sizeof(int));
  sd->row_off = teal_buffer_take(L, nt + 1, sizeof(int));
}

static void layout_model(teal_step_data *sd, const teal_plant *p, teal_buffer_layout *L) {
  size_t nv = (size_t)p->nv;
  layout_limits(sd, nv, (size_t)p->sys.nlimits, L);
  layout_rows(sd, nv, (size_t)p->bodies.n, (size_t)sd->nrows_cap, L);
  if (sd->trees) {
    layout_islands(sd, nv, (size_t)sd->trees->ntrees, L);
  }
}

/* ---- the contact and Newton buffers ----------------------------------------------- */

static void layout_contacts(teal_step_data *sd, size_t cap, teal_buffer_layout *L) {
  sd->Jc = teal_buffer_take(L, cap * 6, (size_t)sd->trees->max_nv * sizeof(double));
  sd->jtree = teal_buffer_take(L, 2 * cap, sizeof(int));
  sd->island_contacts = teal_buffer_take(L, cap, sizeof(int));
  sd->contacts = teal_buffer_take(L, cap, sizeof(teal_contact_info));
  sd->cparams = teal_buffer_take(L, cap, sizeof(contact_pair_params));
}

static void layout_newton(teal_step_data *sd, size_t m, teal_buffer_layout *L) {
  sd->A_newton = teal_buffer_take(L, m * m, sizeof(double));
  sd->pivots = teal_buffer_take(L, m, sizeof(int));
}

/* Lays out a new buffer for sd with lay_out(sd, n, L) and, when it could
 * be allocated, replaces *buffer with it. */
static int relayout(teal_step_data *sd, void **buffer, size_t n,
                    void (*lay_out)(teal_step_data *, size_t, teal_buffer_layout *)) {
  teal_step_data trial = *sd;
  teal_buffer_layout L = {NULL, 0, 0};
  lay_out(&trial, n, &L);
  void *fresh = L.overflow ? NULL : teal_calloc(1, L.size);
  if (!fresh) {
    return TEAL_ENOMEM;
  }
  L = (teal_buffer_layout){fresh, 0, 0};
  lay_out(sd, n, &L);
  teal_free(*buffer);
  *buffer = fresh;
  return TEAL_OK;
}

/* Grows the buffer that holds *cap elements to new_cap (>= need) when need
 * exceeds *cap, counting the growth when the buffer existed. */
static int grow(teal_step_data *sd, int *cap, int need, int new_cap, void **buffer,
                void (*lay_out)(teal_step_data *, size_t, teal_buffer_layout *)) {
  if (!sd->trees) {
    return TEAL_ESTATE;
  }
  if (need <= *cap) {
    return TEAL_OK;
  }
  int rc = relayout(sd, buffer, (size_t)new_cap, lay_out);
  if (rc == TEAL_OK) {
    sd->growths += *cap > 0;
    *cap = new_cap;
  }
  return rc;
}

int teal_step_data_reserve_contacts(teal_step_data *sd, int nc) {
  /* at least double, so that a growing scene reallocates O(log n) times */
  int cap = nc > 2 * (long long)sd->nc_cap || sd->nc_cap > INT_MAX / 2 ? nc : 2 * sd->nc_cap;
  return grow(sd, &sd->nc_cap, nc, cap, &sd->contact_buffer, layout_contacts);
}

int teal_step_data_reserve_island(teal_step_data *sd, int m) {
  return grow(sd, &sd->island_cap, m, m, &sd->newton_buffer, layout_newton);
}

/* ---- lifetime ------------------------------------------------------------------ */

static int num_proximity_geometries(const teal_plant *p) {
  int n = 0;
  for (int g = 0; g < p->geometries.n; g++) {
    n += GEOM(p)[g].g.role == TEAL_ROLE_PROXIMITY;
  }
  return n;
}

int teal_step_data_init(teal_step_data *sd, const teal_plant *p) {
  memset(sd, 0, sizeof(*sd));
  int proximity = num_proximity_geometries(p);
  /* without contact the constraint rows are solved alone (no islands) */
  sd->nrows_cap = teal_discrete_rows_capacity(p);
  sd->trees = proximity > 0 ? teal_plant_forest(p) : NULL;
  teal_buffer_layout L = {NULL, 0, 0};
  layout_model(sd, p, &L);
  sd->model_buffer = L.overflow ? NULL : teal_calloc(1, L.size);
  if (!sd->model_buffer) {
    return TEAL_ENOMEM;
  }
  L = (teal_buffer_layout){sd->model_buffer, 0, 0};
  layout_model(sd, p, &L);
  /* room for a few contacts per geometry, and an island of the largest tree
   * unless its m x m Newton matrix passes TEAL_PLANT_DENSE_MAX_BYTES: the
   * multibody data then keeps no blocks of M, and the contact step fails on
   * them (TEAL_ESIZE) before it needs an island */
  size_t m = sd->trees ? (size_t)sd->trees->max_nv : 0;
  if (sd->nrows_cap > 0) {
    m = (size_t)p->nv; /* with contact, constraints may join every tree into one island */
  }
  int island = m * m <= TEAL_PLANT_DENSE_MAX_BYTES / sizeof(double) ? (int)m : 0;
  int hydro = sd->trees ? teal_plant_hydro_step_reserve(p, sd) : 0; /* contacts of its faces */
  if (hydro < 0 ||
      (sd->trees && (teal_step_data_reserve_contacts(sd, 4 * proximity + 8 + hydro) != TEAL_OK ||
                     teal_step_data_reserve_island(sd, island) != TEAL_OK))) {
    teal_step_data_release(sd);
    return TEAL_ENOMEM;
  }
  return TEAL_OK;
}

void teal_step_data_release(teal_step_data *sd) {
  for (int i = 0; i < sd->hpairs_cap; i++) {
    teal_contact_surface_release(&sd->hsurf[i]);
  }
  teal_free(sd->hsurf);
  teal_free(sd->hX_WB);
  teal_free(sd->model_buffer);
  teal_free(sd->contact_buffer);
  teal_free(sd->newton_buffer);
  memset(sd, 0, sizeof(*sd));
}
