/* Private to multibody/: the contact model shared by plant_contact.c
 * (continuous law, results, ports) and discrete_contact.c (the implicit
 * discrete contact step). See plant_contact.h for the model. */
#ifndef TEAL_MULTIBODY_CONTACT_CONTACT_INTERNAL_H
#define TEAL_MULTIBODY_CONTACT_CONTACT_INTERNAL_H

#include "geometry/proximity/query_result.h"
#include "geometry/scene_graph/scene_graph.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/contact/plant_contact.h"

/* Combined parameters of one geometry pair. */
typedef struct contact_pair_params {
  double k, d, mu_s, mu_d;
  double w_a; /* weight of p_WCa in the contact point: k_A / (k_A + k_B) */
  double tau; /* relaxation time tau_A + tau_B (SAP's Kelvin-Voigt dissipation) */
  /* SAP's regularization of the step (sap_contact.c): R = diag(Rt, Rt, Rn)
   * and the normal velocity bias v_hat_n */
  double Rt, Rn, vn_hat;
} contact_pair_params;

/* The plant geometry index of scene graph geometry id (the plant's
 * geometries hold the ids from p->sg_geometry0 on; teal_plant_eval_query
 * checks the pairs' ids against that range). */
static inline int teal_contact_plant_geometry(const teal_plant *p, int id) {
  return id - p->sg_geometry0;
}

/* The combined parameters of the plant geometries of point pair pp. */
void teal_contact_pair_params(const teal_plant *p, const teal_point_pair *pp,
                              contact_pair_params *out);

/* Fills the geometric part of a contact (bodies, point, normal, depth)
 * from a point pair; the forces and speeds are left for the caller. */
void teal_contact_from_pair(const teal_plant *p, const teal_point_pair *pp,
                            const contact_pair_params *cp, teal_contact_info *c);

/* Velocity of B's point at C relative to A's, from body velocities. */
teal_vec3 teal_contact_relative_velocity(const teal_transform *X_WB,
                                         const teal_spatial_vector *V_WB,
                                         const teal_contact_info *c);

/* Regularized Stribeck coefficient at slip s = |v_t| / v_stiction. */
double teal_contact_stribeck(double s, double mu_s, double mu_d);

/* The continuous force law on B at relative velocity v along the normal n
 * (pointing from B into A): the elastic normal force elastic_fn (k depth
 * for a point, p A for a hydroelastic face) with Hunt-Crossley dissipation
 * and regularized Stribeck friction; *xdot and *slip get the normal and
 * tangential speeds (either may be NULL). */
teal_vec3 teal_contact_force_law(const teal_plant *p, const contact_pair_params *cp, teal_vec3 n,
                                 teal_vec3 v, double elastic_fn, double *xdot, double *slip);

/* Welded groups of the plant's bodies (weld joints, transitively; valid
 * before and after finalize): root[b] is the lowest body index of b's group.
 * root holds one int per body (plant_geometry.c). */
void teal_plant_weld_groups(const teal_plant *p, int *root);

/* Evaluates the query input (NULL when unconnected) and checks its ids. */
int teal_plant_eval_query(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                          const teal_point_pair_list **pairs);

/* Adds the contact forces of results r to F_Bo_W (by body, at Bo, in W). */
void teal_contact_add_forces(const teal_contact_results *r, const teal_transform *X_WB,
                             teal_spatial_vector *F_Bo_W);

/* Cache entry and outputs (plant_contact.c). */
int teal_plant_calc_contact_results(const teal_system *sys, const teal_context *ctx, void *out,
                                    void *user);
int teal_plant_output_generalized_contact_forces(const teal_system *sys, const teal_context *ctx,
                                                 double *out, void *user);
int teal_plant_output_instance_generalized_contact_forces(const teal_system *sys,
                                                          const teal_context *ctx, double *out,
                                                          void *user);

/* Registers p as a source of the open scene graph sg: frames, geometries,
 * filters and the id offsets (scene_graph_source.c; no checks of p's
 * state). On failure the scene graph's error says why when it knows. */
int teal_plant_sg_register(teal_scene_graph *sg, teal_plant *p);

/* Initialization publish sizing the body and contact lists (the geometry
 * pose output, the velocity stage, the contact results). */
int teal_plant_size_outputs(const teal_system *sys, const teal_context *ctx, void *user);

/* Defaults from the penetration allowance (called at finalize and when it
 * changes after). */
void teal_plant_contact_defaults(teal_plant *p);

/* Brings the plant's own context own up to the plant's contact settings:
 * when they changed after own cached values computed with the old ones,
 * writes the settings version into own's contact parameter, which
 * invalidates those values. Called where the plant's values are read (the
 * simulator hooks, the teal_plant_eval_* functions). TEAL_OK or the
 * parameter write's error. */
int teal_plant_sync_contact_settings(const teal_plant *p, const teal_context *own);

/* ---- SAP (sap_contact.c) ----------------------------------------------------------- */

/* Contact c's Jacobian is up to two blocks: block k (0 for B's tree, 1 for
 * A's when it differs) is 3 x m_t at Jc + (2 c + k) 3 max_nv, of tree
 * jtree[2 c + k] (-1: unused). */
static inline double *teal_contact_jac_block(const teal_plant_scratch *s, int c, int k) {
  return s->step.Jc + (size_t)(2 * c + k) * 3 * (size_t)s->step.trees->max_nv;
}

/* SAP's regularization (Rt, Rn, vn_hat in s->step.cparams) of the nc
 * contacts cidx of an island, from the Delassus blocks J M_t^-1 J' of the
 * step's trees (the blocks of M + h D in s->data); L holds m_t^2 and x m_t
 * doubles for the largest tree m_t of the island. TEAL_ESINGULAR when a
 * block of M is not positive definite. */
int teal_sap_regularize(const teal_plant *p, teal_plant_scratch *s, const int *cidx, int nc,
                        double *L, double *x);

/* SAP's contact force gamma / h on B (in W) at the relative contact
 * velocity vc, gamma the R-norm projection of the unconstrained impulse
 * onto the friction cone; with G non-NULL also d(gamma / h) / dvc (3x3,
 * row-major, symmetric negative semidefinite). */
teal_vec3 teal_sap_force(const teal_contact_info *c, const contact_pair_params *cp, double h,
                         teal_vec3 vc, double *G);

/* The discrete contact step (discrete_contact.c): from the free
 * velocity vstar, the next velocity v_next with the contact forces of the
 * query's pairs evaluated at v_next (Newton, see plant_contact.h), started
 * from the guess v0 (NULL: vstar). Call teal_mb_forward_dynamics_blocks at q
 * first: the step uses its blocks of M and kinematics. */
int teal_plant_contact_step(const teal_plant *p, teal_plant_scratch *s, const teal_context *ctx,
                            const teal_point_pair_list *pairs,
                            const double *v0, const double *vstar, double *v_next);

/* The discrete contact results at the velocities v_next (r has room for
 * pairs->n entries). */
int teal_plant_contact_forces_at(const teal_plant *p, teal_plant_scratch *s,
                                 const teal_context *ctx, const double *q,
                                 const teal_point_pair_list *pairs, const double *v_next,
                                 teal_contact_results *r);

/* Hydroelastic contact (hydroelastic.c, hydroelastic_forces.c). Makes the
 * soft meshes at finalize (sticky plant error on a bad soft geometry). */
int teal_plant_hydro_finalize(teal_plant *p);

/* 1 when plant geometries ga and gb are a hydroelastic pair (their soft and
 * rigid members in soft, rigid), 0 for point contact, or a negative code
 * reported on ctx (a pair the strict hydroelastic model cannot handle). */
int teal_plant_hydro_pair(const teal_plant *p, const teal_context *ctx, int ga, int gb, int *soft,
                          int *rigid);

/* The room hydroelastic contact needs: the soft-rigid pairs the plant may
 * meet and the faces and vertices of the largest surface of one. */
void teal_plant_hydro_room(const teal_plant *p, int *pairs, int *faces, int *verts);

/* Sizes r's hydroelastic list for every soft-rigid pair at its largest
 * surface, so that later evaluations allocate nothing. */
int teal_plant_hydro_reserve(const teal_plant *p, teal_contact_results *r);

/* The combined parameters of hydroelastic pair (soft, rigid): friction as
 * for point contact, the soft geometry's dissipation, the relaxation times'
 * sum; k = 0 (the faces carry their own). */
void teal_plant_hydro_pair_params(const teal_plant *p, int soft, int rigid,
                                  contact_pair_params *cp);

/* The contact surface of hydroelastic pair (soft, rigid) at body poses
 * X_WB into h, with its bodies and geometries and zero force. */
int teal_plant_hydro_surface(const teal_plant *p, const teal_context *ctx,
                             const teal_transform *X_WB, int soft, int rigid,
                             teal_hydroelastic_contact_info *h);

/* Adds force f on B at p_WC to h's total force and moment. */
void teal_hydro_add_face_force(teal_hydroelastic_contact_info *h, teal_vec3 p_WC, teal_vec3 f);

/* Discrete plants (hydroelastic_discrete.c): each face of a hydroelastic
 * surface is one point contact of the discrete step, as in Drake's TAMSI
 * and SAP. Nonzero when face carries a contact: its pressure and its
 * pressure gradient along the normal are > 0 (beyond rounding). */
int teal_hydro_face_pushes(const teal_contact_polygon *face);

/* The point contact of face (it pushes) of pair (soft, rigid) with its
 * parameters: at the centroid, along the face normal, stiffness k = A g
 * (g the soft pressure gradient along the normal) and depth p / g, so that
 * k depth = p A, the face's pressure force. */
void teal_plant_hydro_face_contact(const teal_plant *p, int soft, int rigid,
                                   const teal_contact_polygon *face, teal_contact_info *c,
                                   contact_pair_params *cp);

/* Sizes sd's hydroelastic surfaces as teal_plant_hydro_reserve does the
 * results' (at the step data's initialization, so that steps allocate
 * nothing): returns the step contacts their faces may need, or
 * TEAL_ENOMEM. */
int teal_plant_hydro_step_reserve(const teal_plant *p, teal_step_data *sd);

/* The surfaces of the hydroelastic pairs among pairs at the step's q into
 * s->step.hsurf (the k-th hydroelastic pair's in hsurf[k]): the number of contacts of the discrete
 * step (one per point pair, one per pushing face), or a negative code
 * reported on ctx. */
int teal_plant_hydro_step_surfaces(const teal_plant *p, teal_plant_scratch *s,
                                   const teal_context *ctx, const teal_point_pair_list *pairs);

/* The surface and forces of the hydroelastic pair (soft, rigid) into h. */
int teal_plant_hydro_contact(const teal_plant *p, const teal_context *ctx,
                             const teal_transform *X_WB, const teal_spatial_vector *V_WB, int soft,
                             int rigid, teal_hydroelastic_contact_info *h);

#endif
