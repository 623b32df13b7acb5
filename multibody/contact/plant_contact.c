/* Point contact: settings, the pair model, the continuous contact results
 * and the contact output ports (see plant_contact.h). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/plant/plant_system.h"

/* ---- the results value --------------------------------------------------------- */

int teal_contact_results_reserve(teal_contact_results *r, int cap) {
  if (!r || cap < 0) {
    return TEAL_EINVAL;
  }
  return TEAL_RESERVE(r->c, r->cap, cap);
}

int teal_contact_results_reserve_hydroelastic(teal_contact_results *r, int cap) {
  if (!r || cap < 0) {
    return TEAL_EINVAL;
  }
  int old = r->hydroelastic_cap, rc = TEAL_RESERVE(r->hydroelastic, r->hydroelastic_cap, cap);
  if (rc == TEAL_OK && r->hydroelastic_cap > old) {
    memset(r->hydroelastic + old, 0,
           (size_t)(r->hydroelastic_cap - old) * sizeof(*r->hydroelastic));
  }
  return rc;
}

/* Copies hydroelastic contact s into d, keeping d's surface buffers. */
static int copy_hydroelastic(teal_hydroelastic_contact_info *d,
                             const teal_hydroelastic_contact_info *s) {
  teal_contact_surface keep = d->surface;
  const teal_contact_surface *ss = &s->surface;
  int rc = teal_contact_surface_reserve(&keep, ss->num_faces, ss->num_vertices);
  if (rc) {
    d->surface = keep;
    return rc;
  }
  *d = *s;
  if (ss->num_faces) {
    memcpy(keep.faces, ss->faces, (size_t)ss->num_faces * sizeof(*ss->faces));
    memcpy(keep.vertices, ss->vertices, (size_t)ss->num_vertices * sizeof(*ss->vertices));
    memcpy(keep.pressure, ss->pressure, (size_t)ss->num_vertices * sizeof(*ss->pressure));
  }
  keep.num_faces = ss->num_faces;
  keep.num_vertices = ss->num_vertices;
  keep.area = ss->area;
  keep.centroid = ss->centroid;
  d->surface = keep;
  return TEAL_OK;
}

static int copy_results(void *dst, const void *src) {
  teal_contact_results *d = dst;
  const teal_contact_results *s = src;
  int rc = teal_contact_results_reserve(d, s->n > s->cap ? s->n : s->cap);
  if (rc == TEAL_OK) {
    if (s->n) {
      memcpy(d->c, s->c, (size_t)s->n * sizeof(*s->c));
    }
    d->n = s->n;
    rc = teal_contact_results_reserve_hydroelastic(d, s->hydroelastic_cap);
  }
  /* the copy keeps the source's room, as for the point contacts, so that
   * copies made before contact (outputs, sampled values) never grow in a step */
  for (int i = 0; rc == TEAL_OK && i < s->hydroelastic_cap; i++) {
    const teal_contact_surface *ss = &s->hydroelastic[i].surface;
    rc = teal_contact_surface_reserve(&d->hydroelastic[i].surface, ss->face_cap, ss->vertex_cap);
  }
  d->num_hydroelastic = 0;
  for (int i = 0; rc == TEAL_OK && i < s->num_hydroelastic; i++) {
    rc = copy_hydroelastic(&d->hydroelastic[i], &s->hydroelastic[i]);
    d->num_hydroelastic += rc == TEAL_OK;
  }
  return rc;
}

static void free_results(void *value) {
  teal_contact_results *r = value;
  teal_free(r->c);
  r->c = NULL;
  r->n = r->cap = 0;
  for (int i = 0; i < r->hydroelastic_cap; i++) {
    teal_contact_surface_release(&r->hydroelastic[i].surface);
  }
  teal_free(r->hydroelastic);
  r->hydroelastic = NULL;
  r->num_hydroelastic = r->hydroelastic_cap = 0;
}

const teal_value_type teal_contact_results_type = {"teal_contact_results",
                                                   sizeof(teal_contact_results), NULL,
                                                   copy_results, free_results};

/* ---- settings -------------------------------------------------------------------- */

/* Before finalize a setting is part of the model (errors are sticky, as
 * for every declaration); after, it changes the finalized plant: the
 * derived defaults are recomputed and the version moves, so that contexts
 * drop what they computed with the old value (teal_plant_sync_contact_settings). */
static int set_positive(teal_plant *p, double x, double *dst, const char *what) {
  int rc = p && p->finalized ? TEAL_OK : teal_plant_check_open(p, "setting", what);
  if (rc) {
    return rc;
  }
  if (!(isfinite(x) && x > 0.0)) {
    return p->finalized
               ? teal_error_set(&p->err, TEAL_EINVAL, "plant: %s must be finite and > 0 (got %g)",
                                what, x)
               : teal_plant_fail(p, TEAL_EINVAL, "plant: %s must be finite and > 0%s", what, NULL);
  }
  *dst = x;
  if (p->finalized) {
    teal_plant_contact_defaults(p);
    p->contact.version += 1.0;
  }
  return TEAL_OK;
}

int teal_plant_sync_contact_settings(const teal_plant *p, const teal_context *own) {
  const double *seen = teal_context_numeric_parameter(own, p->sys.param_contact);
  if (!seen || *seen == p->contact.version) {
    return TEAL_OK;
  }
  /* the context may hold values computed with the old settings: writing
   * the parameter moves its stamp, and every entry that depends on it
   * (contact results, forces, the step, accelerations) is recomputed */
  return teal_context_set_numeric_parameter((teal_context *)own, p->sys.param_contact,
                                            &p->contact.version, 1);
}

int teal_plant_set_penetration_allowance(teal_plant *p, double allowance) {
  return set_positive(p, allowance, p ? &p->contact.penetration_allowance : NULL,
                      "penetration allowance");
}

int teal_plant_set_stiction_tolerance(teal_plant *p, double v_stiction) {
  return set_positive(p, v_stiction, p ? &p->contact.stiction_tolerance : NULL,
                      "stiction tolerance");
}

double teal_plant_penetration_allowance(const teal_plant *p) {
  return p && p->contact.penetration_allowance > 0 ? p->contact.penetration_allowance : 1e-3;
}

double teal_plant_stiction_tolerance(const teal_plant *p) {
  return p && p->contact.stiction_tolerance > 0 ? p->contact.stiction_tolerance : 1e-3;
}

static double gravity_scale(const teal_plant *p) {
  double g = teal_vec3_norm(p->gravity);
  return g > 0.0 ? g : 9.81;
}

double teal_plant_contact_time_scale(const teal_plant *p) {
  return p ? sqrt(teal_plant_penetration_allowance(p) / gravity_scale(p)) : NAN;
}

void teal_plant_contact_defaults(teal_plant *p) {
  double mass = 0.0, delta = teal_plant_penetration_allowance(p), g = gravity_scale(p);
  for (int b = 1; b < p->bodies.n; b++) {
    mass = fmax(mass, BODY(p)[b].M_BBo_B.mass);
  }
  double k = (mass > 0.0 ? mass : 1.0) * g / delta;
  p->contact.default_stiffness = 2.0 * k;
  p->contact.default_dissipation = sqrt(delta / g) / delta;
}

/* ---- the pair model -------------------------------------------------------------- */

static double harmonic(double a, double b) {
  return a + b > 0.0 ? 2.0 * a * b / (a + b) : 0.0;
}

void teal_contact_pair_params(const teal_plant *p, const teal_point_pair *pp,
                              contact_pair_params *out) {
  int a = teal_contact_plant_geometry(p, pp->id_A), b = teal_contact_plant_geometry(p, pp->id_B);
  const teal_proximity_properties *pa = &GEOM(p)[a].g.proximity, *pb = &GEOM(p)[b].g.proximity;
  double ka = isnan(pa->point_contact_stiffness) ? p->contact.default_stiffness
                                                 : pa->point_contact_stiffness;
  double kb = isnan(pb->point_contact_stiffness) ? p->contact.default_stiffness
                                                 : pb->point_contact_stiffness;
  double da = isnan(pa->hunt_crossley_dissipation) ? p->contact.default_dissipation
                                                   : pa->hunt_crossley_dissipation;
  double db = isnan(pb->hunt_crossley_dissipation) ? p->contact.default_dissipation
                                                   : pb->hunt_crossley_dissipation;
  out->k = ka * kb / (ka + kb);
  out->d = (kb * da + ka * db) / (ka + kb);
  out->mu_s = harmonic(pa->static_friction, pb->static_friction);
  out->mu_d = harmonic(pa->dynamic_friction, pb->dynamic_friction);
  out->w_a = ka / (ka + kb);
  /* relaxation times add up, as Drake's; a missing one is the time step */
  double ta = pa->relaxation_time, tb = pb->relaxation_time;
  out->tau = (isnan(ta) ? p->time_step : ta) + (isnan(tb) ? p->time_step : tb);
  out->Rt = out->Rn = out->vn_hat = 0.0;
}

void teal_contact_from_pair(const teal_plant *p, const teal_point_pair *pp,
                            const contact_pair_params *cp, teal_contact_info *c) {
  memset(c, 0, sizeof(*c));
  c->geometry_A = teal_contact_plant_geometry(p, pp->id_A);
  c->geometry_B = teal_contact_plant_geometry(p, pp->id_B);
  c->body_A = GEOM(p)[c->geometry_A].g.body;
  c->body_B = GEOM(p)[c->geometry_B].g.body;
  c->p_WC = teal_vec3_add(teal_vec3_scale(pp->p_WCa, cp->w_a),
                          teal_vec3_scale(pp->p_WCb, 1.0 - cp->w_a));
  c->nhat_BA_W = pp->nhat_BA_W;
  c->depth = pp->depth;
}

teal_vec3 teal_contact_relative_velocity(const teal_transform *X_WB,
                                         const teal_spatial_vector *V_WB,
                                         const teal_contact_info *c) {
  teal_vec3 vb = teal_spatial_vector_linear(
      teal_spatial_velocity_shift(V_WB[c->body_B], teal_vec3_sub(c->p_WC, X_WB[c->body_B].p)));
  teal_vec3 va = teal_spatial_vector_linear(
      teal_spatial_velocity_shift(V_WB[c->body_A], teal_vec3_sub(c->p_WC, X_WB[c->body_A].p)));
  return teal_vec3_sub(vb, va);
}

static double smooth_step(double x) {
  return x * x * x * (10.0 + x * (6.0 * x - 15.0));
}

double teal_contact_stribeck(double s, double mu_s, double mu_d) {
  if (s >= 3.0) {
    return mu_d;
  }
  if (s >= 1.0) {
    return mu_s - (mu_s - mu_d) * smooth_step(0.5 * (s - 1.0));
  }
  return mu_s * smooth_step(s);
}

/* Adds the hydroelastic contacts' forces (at their centroids) to F. */
static void add_hydroelastic_forces(const teal_contact_results *r, const teal_transform *X_WB,
                                    teal_spatial_vector *F) {
  for (int i = 0; i < r->num_hydroelastic; i++) {
    const teal_hydroelastic_contact_info *h = &r->hydroelastic[i];
    int bodies[2] = {h->body_B, h->body_A};
    for (int s = 0; s < 2; s++) {
      int b = bodies[s];
      teal_vec3 f = s ? teal_vec3_neg(h->f_Bc_W) : h->f_Bc_W;
      teal_vec3 tau = s ? teal_vec3_neg(h->tau_Bc_W) : h->tau_Bc_W;
      if (b == TEAL_WORLD_BODY) {
        continue;
      }
      teal_vec3 p_BoC = teal_vec3_sub(h->surface.centroid, X_WB[b].p);
      tau = teal_vec3_add(tau, teal_vec3_cross(p_BoC, f));
      F[b] = teal_spatial_vector_add(F[b], teal_spatial_vector_make(tau, f));
    }
  }
}

void teal_contact_add_forces(const teal_contact_results *r, const teal_transform *X_WB,
                             teal_spatial_vector *F) {
  add_hydroelastic_forces(r, X_WB, F);
  for (int i = 0; i < r->n; i++) {
    const teal_contact_info *c = &r->c[i];
    teal_vec3 f = c->f_Bc_W;
    int bodies[2] = {c->body_B, c->body_A};
    for (int s = 0; s < 2; s++) {
      int b = bodies[s];
      teal_vec3 fs = s ? teal_vec3_neg(f) : f;
      if (b == TEAL_WORLD_BODY) {
        continue;
      }
      teal_vec3 p_BoC = teal_vec3_sub(c->p_WC, X_WB[b].p);
      F[b] = teal_spatial_vector_add(
          F[b], teal_spatial_vector_make(teal_vec3_cross(p_BoC, fs), fs));
    }
  }
}

/* ---- continuous results ------------------------------------------------------------ */

int teal_plant_eval_query(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                          const teal_point_pair_list **pairs) {
  *pairs = NULL;
  int has = teal_input_has_value(sys, ctx, p->sys.in_query);
  if (has <= 0) {
    return has;
  }
  int rc = teal_eval_abstract_input(sys, ctx, p->sys.in_query, (const void **)pairs);
  for (int i = 0; rc == TEAL_OK && i < (*pairs)->n; i++) {
    const teal_point_pair *pp = &(*pairs)->pairs[i];
    long g0 = p->sg_geometry0, end = g0 + p->geometries.n; /* the plant's ids: [g0, end) */
    if (pp->id_A < g0 || pp->id_B < g0 || pp->id_A >= end || pp->id_B >= end) {
      return teal_context_report_error(ctx, TEAL_EINVAL,
                                       "plant: geometry_query names geometries %d and %d but the "
                                       "plant's %d geometries have ids %ld to %ld; connect the "
                                       "scene graph the plant registered with, and filter pairs "
                                       "with other sources' geometries",
                                       pp->id_A, pp->id_B, p->geometries.n, g0, end - 1);
    }
  }
  return rc;
}

teal_vec3 teal_contact_force_law(const teal_plant *p, const contact_pair_params *cp, teal_vec3 n,
                                 teal_vec3 v, double elastic_fn, double *xdot, double *slip) {
  double vn = teal_vec3_dot(v, n);
  teal_vec3 vt = teal_vec3_sub(v, teal_vec3_scale(n, vn));
  double vt_norm = teal_vec3_norm(vt);
  double fn = fmax(0.0, elastic_fn * (1.0 + cp->d * vn));
  double mu = teal_contact_stribeck(vt_norm / teal_plant_stiction_tolerance(p), cp->mu_s, cp->mu_d);
  teal_vec3 f = teal_vec3_scale(n, -fn);
  if (vt_norm > 0.0) {
    f = teal_vec3_sub(f, teal_vec3_scale(vt, mu * fn / vt_norm));
  }
  if (xdot) {
    *xdot = vn;
  }
  if (slip) {
    *slip = vt_norm;
  }
  return f;
}

/* The continuous force law at relative velocity v for contact c. */
static void continuous_force(const teal_plant *p, const contact_pair_params *cp, teal_vec3 v,
                             teal_contact_info *c) {
  double xdot, slip;
  c->f_Bc_W = teal_contact_force_law(p, cp, c->nhat_BA_W, v, cp->k * c->depth, &xdot, &slip);
  c->separation_speed = -xdot;
  c->slip_speed = slip;
}

/* Appends the hydroelastic contact of (soft, rigid) to r (its list and
 * surface grow here only when the initial sizing fell short; a surface's
 * growth counts as a plant warning). */
static int hydroelastic_result(const teal_plant *p, const teal_context *ctx,
                               const teal_transform *X, const teal_spatial_vector *V, int soft,
                               int rigid, teal_contact_results *r) {
  int n = r->num_hydroelastic;
  if (n == r->hydroelastic_cap && teal_contact_results_reserve_hydroelastic(r, 2 * n + 1)) {
    return teal_context_report_error(ctx, TEAL_ENOMEM, "plant: out of memory for contacts");
  }
  int faces = r->hydroelastic[n].surface.face_cap;
  int rc = teal_plant_hydro_contact(p, ctx, X, V, soft, rigid, &r->hydroelastic[n]);
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (s && r->hydroelastic[n].surface.face_cap != faces) {
    s->step.growths++;
  }
  r->num_hydroelastic += rc == TEAL_OK && r->hydroelastic[n].surface.num_faces > 0;
  return rc;
}

static int continuous_results(const teal_system *sys, const teal_context *ctx,
                              const teal_plant *p, const teal_point_pair_list *pairs,
                              teal_contact_results *r) {
  const teal_transform *X;
  const teal_spatial_vector *V;
  int rc = teal_plant_eval_poses(sys, ctx, p, &X);
  if (rc == TEAL_OK) {
    rc = teal_plant_eval_velocities(sys, ctx, p, &V);
  }
  for (int i = 0; rc == TEAL_OK && i < pairs->n; i++) {
    int soft, rigid, ga = teal_contact_plant_geometry(p, pairs->pairs[i].id_A);
    int hydro = teal_plant_hydro_pair(
        p, ctx, ga, teal_contact_plant_geometry(p, pairs->pairs[i].id_B), &soft, &rigid);
    if (hydro) {
      rc = hydro < 0 ? hydro : hydroelastic_result(p, ctx, X, V, soft, rigid, r);
      continue;
    }
    contact_pair_params cp;
    teal_contact_info *c = &r->c[r->n++];
    teal_contact_pair_params(p, &pairs->pairs[i], &cp);
    teal_contact_from_pair(p, &pairs->pairs[i], &cp, c);
    continuous_force(p, &cp, teal_contact_relative_velocity(X, V, c), c);
  }
  return rc;
}

int teal_plant_calc_contact_results(const teal_system *sys, const teal_context *ctx, void *out,
                                    void *user) {
  const teal_plant *p = user;
  teal_contact_results *r = out;
  const teal_point_pair_list *pairs;
  r->n = r->num_hydroelastic = 0;
  int rc = teal_plant_eval_query(sys, ctx, p, &pairs);
  if (rc == TEAL_OK && r->cap == 0 &&
      (teal_contact_results_reserve(r, 4 * p->geometries.n + 16) ||
       teal_plant_hydro_reserve(p, r))) {
    rc = teal_context_report_error(ctx, TEAL_ENOMEM, "plant: out of memory for contacts");
  }
  if (rc || !pairs || pairs->n == 0) {
    return rc;
  }
  int cap = r->cap >= pairs->n ? r->cap : (pairs->n > 2 * r->cap ? pairs->n : 2 * r->cap);
  if (teal_contact_results_reserve(r, cap) != TEAL_OK) {
    return teal_context_report_error(ctx, TEAL_ENOMEM, "plant: out of memory for contacts");
  }
  if (!p->sys.discrete) {
    return continuous_results(sys, ctx, p, pairs, r);
  }
  const double *next, *q, *v;
  rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_step, (const void **)&next);
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  return teal_plant_contact_forces_at(p, s, ctx, q, pairs, next + p->nq, r);
}

/* ---- outputs ------------------------------------------------------------------------ */

int teal_plant_output_generalized_contact_forces(const teal_system *sys, const teal_context *ctx,
                                                 double *out, void *user) {
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  const teal_contact_results *r;
  const teal_transform *X;
  const double *q, *v;
  if (!s) {
    return teal_plant_no_scratch(ctx);
  }
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_contacts, (const void **)&r);
  if (rc == TEAL_OK) {
    rc = teal_plant_eval_poses(sys, ctx, p, &X);
  }
  if (rc) {
    return rc;
  }
  teal_spatial_vector *F_Bo_W = s->data->F_Bo_W;
  memset(F_Bo_W, 0, (size_t)p->bodies.n * sizeof(*F_Bo_W));
  teal_contact_add_forces(r, X, F_Bo_W);
  teal_plant_qv(p, ctx, &q, &v);
  rc = teal_mb_jacobian_apply_transpose(p, s->data, q, F_Bo_W, out);
  return rc ? teal_context_report_error(ctx, rc, "plant: %s", teal_mb_data_error(s->data)->message)
            : TEAL_OK;
}

int teal_plant_output_instance_generalized_contact_forces(const teal_system *sys,
                                                          const teal_context *ctx, double *out,
                                                          void *user) {
  const teal_plant *p = teal_plant_from_system(sys);
  int i = (int)((const int *)user - p->sys.out_gcf_inst);
  const double *all;
  int rc = teal_eval_vector_output(sys, ctx, p->sys.out_gcf, &all);
  for (int r = 0; rc == TEAL_OK && r < p->sys.inst_v_count[i]; r++) {
    out[r] = all[p->sys.v_list[p->sys.inst_v_start[i] + r]];
  }
  return rc;
}

long teal_plant_warning_count(const teal_plant *p, const teal_context *ctx) {
  const teal_context *own = teal_plant_own_context(p, ctx);
  const teal_plant_scratch *s = own ? teal_context_scratch(own, p->sys.scratch) : NULL;
  return s ? p->num_model_warnings + s->step.growths : -1;
}

const char *teal_plant_warning_message(const teal_plant *p) {
  return p && p->num_model_warnings ? p->model_warning : "";
}

/* The error of an eval_contact_results call with a missing argument or a
 * plant that is not finalized (recorded on ctx when there is one). */
static int contact_results_bad_call(const teal_plant *p, const teal_context *ctx) {
  int code = p && !p->system ? TEAL_ESTATE : TEAL_EINVAL;
  if (!ctx) {
    return code;
  }
  const char *why = !p           ? "NULL plant"
                    : !p->system ? "the plant is not finalized (call teal_plant_finalize first)"
                                 : "results is NULL";
  return teal_context_report_error(ctx, code, "plant eval_contact_results: %s", why);
}

int teal_plant_eval_contact_results(const teal_plant *p, const teal_context *ctx,
                                    const teal_contact_results **results) {
  if (!p || !p->system || !ctx || !results) {
    return contact_results_bad_call(p, ctx);
  }
  const teal_context *own = teal_plant_own_context(p, ctx);
  if (!own) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "plant eval_contact_results: no plant context in ctx");
  }
  int rc = teal_plant_sync_contact_settings(p, own);
  return rc ? rc
            : teal_eval_cache_entry(p->system, own, p->sys.ce_contacts, (const void **)results);
}

teal_vec3 teal_contact_results_net_force(const teal_contact_results *r, int body) {
  teal_vec3 f = teal_vec3_zero();
  for (int i = 0; r && i < r->n; i++) {
    if (r->c[i].body_B == body) {
      f = teal_vec3_add(f, r->c[i].f_Bc_W);
    }
    if (r->c[i].body_A == body) {
      f = teal_vec3_sub(f, r->c[i].f_Bc_W);
    }
  }
  for (int i = 0; r && i < r->num_hydroelastic; i++) {
    const teal_hydroelastic_contact_info *h = &r->hydroelastic[i];
    f = h->body_B == body ? teal_vec3_add(f, h->f_Bc_W) : f;
    f = h->body_A == body ? teal_vec3_sub(f, h->f_Bc_W) : f;
  }
  return f;
}

/* Initialization publish: evaluates the geometry and contact outputs once so
 * that their lists get their room before the first step. */
int teal_plant_size_outputs(const teal_system *sys, const teal_context *ctx, void *user) {
  const teal_plant *p = user;
  const void *value;
  /* the kinematics stages are lists sized on first use: use them now */
  int rc = teal_eval_abstract_output(sys, ctx, p->sys.out_geometry_pose, &value);
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vels, &value);
  }
  int has = rc ? rc : teal_input_has_value(sys, ctx, p->sys.in_query);
  if (has == 1) {
    rc = teal_eval_abstract_output(sys, ctx, p->sys.out_contacts, &value);
  }
  return rc ? rc : (has < 0 ? has : TEAL_OK);
}
