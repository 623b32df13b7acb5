/* User force elements (multibody/forces/user_force_element.h): a user
 * element written here from the body poses and velocities reproduces the
 * built-in spring-damper (accelerations of the continuous and discrete
 * plant, potential energy and power), a conservative user element keeps the
 * total energy of a simulation constant, a simulation with a user element
 * allocates nothing, and failing callbacks and bad arguments are reported
 * with the element's name. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/system_dynamics.h"
#include "multibody/forces/force_elements.h"
#include "multibody/forces/user_force_element.h"
#include "multibody/plant/plant_force_contribution.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"

/* ---- a spring-damper as a user element --------------------------------------- */

/* A spring from the world point P to point Q of body b. */
typedef struct user_spring {
  int b;
  teal_vec3 p_WP, p_BQ;
  double l0, k, d;
} user_spring;

/* The spring's length, unit direction P->Q, length rate and Q in W. */
static void spring_state(const user_spring *sp, const teal_force_element_state *s, double *l,
                         teal_vec3 *u, double *ldot, teal_vec3 *p_WQ) {
  teal_transform X = s->X_WB[sp->b];
  *p_WQ = teal_transform_apply(X, sp->p_BQ);
  teal_vec3 d = teal_vec3_sub(*p_WQ, sp->p_WP);
  *l = teal_vec3_norm(d);
  *u = teal_vec3_scale(d, 1.0 / *l);
  *ldot = 0.0;
  if (s->V_WB) {
    teal_vec3 w = teal_spatial_vector_angular(s->V_WB[sp->b]);
    teal_vec3 v = teal_spatial_vector_linear(s->V_WB[sp->b]);
    teal_vec3 v_WQ = teal_vec3_add(v, teal_vec3_cross(w, teal_vec3_sub(*p_WQ, X.p)));
    *ldot = teal_vec3_dot(v_WQ, *u);
  }
}

static int spring_calc(const teal_plant *p, const teal_force_element_state *s,
                       teal_spatial_vector *F, double *tau, teal_error *err, void *user) {
  (void)p, (void)tau, (void)err;
  const user_spring *sp = user;
  double l, ldot;
  teal_vec3 u, p_WQ;
  spring_state(sp, s, &l, &u, &ldot, &p_WQ);
  teal_vec3 f = teal_vec3_scale(u, -(sp->k * (l - sp->l0) + sp->d * ldot));
  teal_vec3 m = teal_vec3_cross(teal_vec3_sub(p_WQ, s->X_WB[sp->b].p), f);
  F[sp->b] = teal_spatial_vector_add(F[sp->b], teal_spatial_vector_make(m, f));
  return TEAL_OK;
}

static int spring_pe(const teal_plant *p, const teal_force_element_state *s, double *pe,
                     teal_error *err, void *user) {
  (void)p, (void)err;
  const user_spring *sp = user;
  double l, ldot;
  teal_vec3 u, p_WQ;
  spring_state(sp, s, &l, &u, &ldot, &p_WQ);
  *pe = 0.5 * sp->k * (l - sp->l0) * (l - sp->l0);
  return TEAL_OK;
}

static int spring_pc(const teal_plant *p, const teal_force_element_state *s, double *pw,
                     teal_error *err, void *user) {
  (void)p, (void)err;
  const user_spring *sp = user;
  double l, ldot;
  teal_vec3 u, p_WQ;
  spring_state(sp, s, &l, &u, &ldot, &p_WQ);
  *pw = -sp->k * (l - sp->l0) * ldot;
  return TEAL_OK;
}

static int spring_pnc(const teal_plant *p, const teal_force_element_state *s, double *pw,
                      teal_error *err, void *user) {
  (void)p, (void)err;
  const user_spring *sp = user;
  double l, ldot;
  teal_vec3 u, p_WQ;
  spring_state(sp, s, &l, &u, &ldot, &p_WQ);
  *pw = -sp->d * ldot * ldot;
  return TEAL_OK;
}

static const teal_force_element_ops spring_ops = {spring_calc, spring_pe, spring_pc, spring_pnc};

/* A cart on a prismatic x joint carrying a pendulum (revolute about y), the
 * pendulum's bob tied to a world point by a spring-damper, built-in
 * (user == NULL) or as the user element sp. Gravity on. */
static teal_plant *sprung_cart(double time_step, user_spring *sp) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia Mc = teal_spatial_inertia_solid_sphere(2.0, 0.2);
  teal_spatial_inertia Mp = teal_spatial_inertia_from_central(0.7, teal_vec3_make(0, 0, -0.4),
                                                              teal_mat3_diag(0.02, 0.03, 0.01));
  int cart = teal_plant_add_rigid_body(p, "cart", TEAL_DEFAULT_MODEL_INSTANCE, &Mc);
  int pend = teal_plant_add_rigid_body(p, "pendulum", TEAL_DEFAULT_MODEL_INSTANCE, &Mp);
  teal_vec3 x = teal_vec3_make(1, 0, 0), y = teal_vec3_make(0, 1, 0);
  ck_assert_int_ge(teal_plant_add_joint(p, "slide", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, cart), &x, 0.0),
                   0);
  ck_assert_int_ge(
      teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, teal_plant_body_frame(p, cart),
                           teal_plant_body_frame(p, pend), &y, 0.0),
      0);
  *sp = (user_spring){
      pend, teal_vec3_make(0.3, 0.1, 0.5), teal_vec3_make(0.05, 0.0, -0.8), 0.6, 40.0, 1.5};
  return p;
}

static void add_spring(teal_plant *p, user_spring *sp, int as_user) {
  int e = as_user ? teal_plant_add_force_element(p, "user spring", TEAL_DEFAULT_MODEL_INSTANCE,
                                                 &spring_ops, sp)
                  : teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY, sp->p_WP, sp->b,
                                                        sp->p_BQ, sp->l0, sp->k, sp->d);
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_force_element_kind(p, 0),
                   as_user ? TEAL_FORCE_USER : TEAL_FORCE_LINEAR_SPRING_DAMPER);
}

/* The same accelerations (continuous: _i = 0, discrete: _i = 1), potential
 * energy and power from the built-in element and the user element. */
START_TEST(test_user_element_reproduces_spring_damper) {
  double h = _i ? 1e-3 : 0.0;
  user_spring sa, sb;
  teal_plant *pa = sprung_cart(h, &sa), *pb = sprung_cart(h, &sb);
  add_spring(pa, &sa, 0);
  add_spring(pb, &sb, 1);
  ck_assert_ptr_eq(teal_plant_force_element_user(pb, 0), &sb);
  ck_assert_str_eq(teal_plant_force_element_name(pb, 0), "user spring");
  ck_assert_ptr_null(teal_plant_force_element_name(pa, 0));
  ck_assert_ptr_null(teal_plant_force_element_user(pa, 0));
  teal_context *ca = teal_context_new(teal_plant_system(pa), NULL);
  teal_context *cb = teal_context_new(teal_plant_system(pb), NULL);
  unsigned seed = 5u;
  for (int trial = 0; trial < 8; trial++) {
    double x[4];
    for (int i = 0; i < 4; i++) {
      x[i] = ts_rand_uniform(&seed, -1.0, 1.0);
    }
    ck_assert_int_eq(teal_plant_set_state(pa, ca, x, 4), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_state(pb, cb, x, 4), TEAL_OK);
    const double *va, *vb;
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(pa, ca, &va), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(pb, cb, &vb), TEAL_OK);
    for (int i = 0; i < 2; i++) {
      ck_assert_double_eq_tol(va[i], vb[i], 1e-11 * (1.0 + fabs(va[i])));
    }
    double pea, peb;
    ck_assert_int_eq(teal_calc_potential_energy(teal_plant_system(pa), ca, &pea), TEAL_OK);
    ck_assert_int_eq(teal_calc_potential_energy(teal_plant_system(pb), cb, &peb), TEAL_OK);
    ck_assert_double_eq_tol(pea, peb, 1e-12 * (1.0 + fabs(pea)));
    const teal_transform *Xa, *Xb;
    const teal_spatial_vector *Va, *Vb;
    ck_assert_int_eq(teal_plant_eval_body_poses(pa, ca, &Xa), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_body_velocities(pa, ca, &Va), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_body_poses(pb, cb, &Xb), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_body_velocities(pb, cb, &Vb), TEAL_OK);
    double pca, pna, pcb, pnb;
    ck_assert_int_eq(teal_plant_force_elements_power(pa, x, x + 2, Xa, Va, &pca, &pna, NULL),
                     TEAL_OK);
    ck_assert_int_eq(teal_plant_force_elements_power(pb, x, x + 2, Xb, Vb, &pcb, &pnb, NULL),
                     TEAL_OK);
    ck_assert_double_eq_tol(pca, pcb, 1e-12 * (1.0 + fabs(pca)));
    ck_assert_double_eq_tol(pna, pnb, 1e-12 * (1.0 + fabs(pna)));
    ck_assert_double_le(pna, 0.0);
  }
  teal_context_free(ca);
  teal_context_free(cb);
  teal_plant_free(pa);
  teal_plant_free(pb);
}
END_TEST

/* ---- a conservative user element --------------------------------------------- */

/* A quartic torsional spring on the hinge: tau = -c q^3, PE = c q^4 / 4. */
static int quartic_calc(const teal_plant *p, const teal_force_element_state *s,
                        teal_spatial_vector *F, double *tau, teal_error *err, void *user) {
  (void)p, (void)F, (void)err;
  double c = *(const double *)user, q = s->q[1];
  tau[1] -= c * q * q * q;
  return TEAL_OK;
}

static int quartic_pe(const teal_plant *p, const teal_force_element_state *s, double *pe,
                      teal_error *err, void *user) {
  (void)p, (void)err;
  double c = *(const double *)user, q = s->q[1];
  *pe = 0.25 * c * q * q * q * q;
  return TEAL_OK;
}

/* The total energy (kinetic, gravity, the user element's and an undamped
 * built-in spring's) stays constant over an RK45 simulation, and drifts when
 * the element's potential is left out (it is then not counted). */
START_TEST(test_conservative_user_element_energy) {
  user_spring sp;
  teal_plant *p = sprung_cart(0.0, &sp);
  double c = 25.0;
  teal_force_element_ops ops = {quartic_calc, _i ? NULL : quartic_pe, NULL, NULL};
  ck_assert_int_eq(
      teal_plant_add_force_element(p, "quartic", TEAL_DEFAULT_MODEL_INSTANCE, &ops, &c), 0);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY, sp.p_WP, sp.b, sp.p_BQ,
                                                       sp.l0, sp.k, 0.0),
                   1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  const teal_system *sys = teal_plant_system(p);
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double x0[4] = {0.1, 0.9, 0.0, 0.0};
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x0, 4), TEAL_OK);
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, 1e-10);
  double ke, pe;
  ck_assert_int_eq(teal_calc_kinetic_energy(sys, ctx, &ke), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(sys, ctx, &pe), TEAL_OK);
  double e0 = ke + pe, drift = 0.0;
  for (int k = 1; k <= 20; k++) {
    teal_sim_status st;
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.1 * k, &st), TEAL_OK);
    ck_assert_int_eq(teal_calc_kinetic_energy(sys, ctx, &ke), TEAL_OK);
    ck_assert_int_eq(teal_calc_potential_energy(sys, ctx, &pe), TEAL_OK);
    drift = fmax(drift, fabs(ke + pe - e0));
  }
  if (_i == 0) {
    ck_assert_msg(drift < 1e-7 * fabs(e0), "energy drift %g of %g", drift, e0);
  } else {
    ck_assert_msg(drift > 1e-3, "without its potential the drift is only %g", drift);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* A simulation of the plant with a user element (continuous RK4: _i = 0,
 * discrete: _i = 1) and the force contribution at its final state allocate
 * nothing once running. */
START_TEST(test_simulation_allocates_nothing) {
  user_spring sp;
  teal_plant *p = sprung_cart(_i ? 1e-3 : 0.0, &sp);
  add_spring(p, &sp, 1);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double x0[4] = {0.1, 0.5, 0.0, 0.0}, tau[2];
  teal_spatial_vector F[3];
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x0, 4), TEAL_OK);
  if (!_i) {
    teal_simulator_set_integrator(sim, teal_integrator_rk4);
    teal_simulator_set_fixed_step(sim, 1e-3);
  }
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.3, &st), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_force_elements_contribution(p, ctx, tau, 2, F, 3), TEAL_OK);
  ts_alloc_expect_none();
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* ---- failures ------------------------------------------------------------------ */

static int failing_calc(const teal_plant *p, const teal_force_element_state *s,
                        teal_spatial_vector *F, double *tau, teal_error *err, void *user) {
  (void)p, (void)s, (void)F, (void)tau;
  int code = *(const int *)user;
  if (code == TEAL_ESINGULAR) {
    return teal_error_set(err, code, "the actuator model is singular");
  }
  return code; /* no message, maybe not a TEAL_E* code */
}

static int failing_scalar(const teal_plant *p, const teal_force_element_state *s, double *out,
                          teal_error *err, void *user) {
  (void)p, (void)s, (void)user;
  *out = 0.0;
  return teal_error_set(err, TEAL_ENONFINITE, "table lookup out of range");
}

static int nan_scalar(const teal_plant *p, const teal_force_element_state *s, double *out,
                      teal_error *err, void *user) {
  (void)p, (void)s, (void)err, (void)user;
  *out = NAN;
  return TEAL_OK;
}

static teal_plant *failing_plant(int *code, const teal_force_element_ops *ops) {
  user_spring sp;
  teal_plant *p = sprung_cart(0.0, &sp);
  ck_assert_int_eq(teal_plant_add_revolute_spring(p, 1, 0.0, 3.0), 0);
  ck_assert_int_eq(teal_plant_add_force_element(p, "motor", TEAL_DEFAULT_MODEL_INSTANCE, ops, code),
                   1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* A failing calc stops the accelerations with the element's name, index
 * and message, or TEAL_ECALLBACK for a code outside TEAL_E*. */
START_TEST(test_failing_calc) {
  int code = TEAL_ESINGULAR;
  teal_force_element_ops ops = {failing_calc, NULL, NULL, NULL};
  teal_plant *p = failing_plant(&code, &ops);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const double *vdot;
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_ESINGULAR,
                  teal_context_error(ctx), "force element 'motor' (1): calc callback failed");
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "the actuator model is singular"));
  code = 42;
  teal_context_set_time(ctx, 1.0); /* invalidates the cache */
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_ECALLBACK,
                  teal_context_error(ctx), "no message");
  code = TEAL_OK;
  teal_context_set_time(ctx, 2.0);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* Failing or non-finite energy and power callbacks. */
START_TEST(test_failing_energy_and_power) {
  int code = TEAL_OK;
  teal_force_element_ops ops = {failing_calc, failing_scalar, nan_scalar, NULL};
  teal_plant *p = failing_plant(&code, &ops);
  const teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  double pe = 0.0, pc, pn;
  TS_EXPECT_ERROR(teal_calc_potential_energy(sys, ctx, &pe), TEAL_ENONFINITE,
                  teal_context_error(ctx), "'motor' (1): potential_energy callback failed");
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "table lookup out of range"));
  const teal_transform *X;
  const teal_spatial_vector *V;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_body_velocities(p, ctx, &V), TEAL_OK);
  double x[4] = {0};
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_force_elements_power(p, x, x + 2, X, V, &pc, &pn, &err),
                  TEAL_ENONFINITE, &err, "'motor' (1): conservative_power is not finite");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_force_elements_power(p, x, NULL, X, V, &pc, &pn, &err), TEAL_EINVAL,
                  &err, "NULL argument");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* Bad arguments of teal_plant_add_force_element, sticky as the model calls. */
START_TEST(test_add_errors) {
  teal_force_element_ops ops = {quartic_calc, NULL, NULL, NULL}, no_calc = {NULL, NULL, NULL, NULL};
  double c = 1.0;
  for (int which = 0; which < 5; which++) {
    user_spring sp;
    teal_plant *p = sprung_cart(0.0, &sp);
    int inst = TEAL_DEFAULT_MODEL_INSTANCE;
    if (which == 4) {
      ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
    }
    static const char *const needle[] = {"needs ops with a calc", "needs ops with a calc",
                                         "invalid model instance 9", "the name", "finalize"};
    static const int codes[] = {TEAL_EINVAL, TEAL_EINVAL, TEAL_ENOTFOUND, TEAL_EINVAL, TEAL_ESTATE};
    int rc = which == 0   ? teal_plant_add_force_element(p, "e", inst, NULL, &c)
             : which == 1 ? teal_plant_add_force_element(p, "e", inst, &no_calc, &c)
             : which == 2 ? teal_plant_add_force_element(p, "e", 9, &ops, &c)
             : which == 3 ? teal_plant_add_force_element(p, "a/b", inst, &ops, &c)
                          : teal_plant_add_force_element(p, "e", inst, &ops, &c);
    ts_expect_error_at(__FILE__, __LINE__, rc, codes[which], teal_plant_error(p), needle[which]);
    ck_assert_ptr_null(teal_plant_force_element_name(p, 0));
    ck_assert_ptr_null(teal_plant_force_element_name(NULL, 0));
    ck_assert_int_eq(teal_plant_num_force_elements(p), 0);
    teal_plant_free(p);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("user_force_element");
  TCase *tc = tcase_create("user_force_element");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_user_element_reproduces_spring_damper, 0, 2);
  tcase_add_loop_test(tc, test_conservative_user_element_energy, 0, 2);
  tcase_add_loop_test(tc, test_simulation_allocates_nothing, 0, 2);
  tcase_add_test(tc, test_failing_calc);
  tcase_add_test(tc, test_failing_energy_and_power);
  tcase_add_test(tc, test_add_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
