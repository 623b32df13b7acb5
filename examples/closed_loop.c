/* Flagship example (framework milestone): a damped pendulum held upright by a
 * PD controller, with a periodic logger, wired as a Teal diagram.
 *
 *   pendulum.state -> controller.state -> controller.torque -> pendulum.torque
 *   pendulum.state -> logger.state (periodic publish every 0.25 s)
 *
 * The simulator integrates it with error-controlled RK3 and runs the
 * logger's publishes when they are due. */
#include <math.h>
#include <stdio.h>

#include "teal.h"
#include "systems/analysis/simulator.h"

typedef struct pendulum_params {
  double mass, length, damping, gravity;
} pendulum_params;

static int pendulum_state_out(const teal_system *sys, const teal_context *ctx, double *out,
                              void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0];
  out[1] = teal_context_v(ctx)[0];
  return TEAL_OK;
}

/* theta'' = (tau - b theta' + m g l sin(theta)) / (m l^2), theta = 0 upright */
static int pendulum_derivatives(const teal_system *sys, const teal_context *ctx,
                                teal_continuous_view *xdot, void *user) {
  const pendulum_params *p = user;
  const double *tau;
  int rc = teal_eval_vector_input(sys, ctx, 0, &tau);
  if (rc) {
    return rc;
  }
  double theta = teal_context_q(ctx)[0], omega = teal_context_v(ctx)[0];
  double inertia = p->mass * p->length * p->length;
  xdot->q[0] = omega;
  xdot->v[0] =
      (tau[0] - p->damping * omega + p->mass * p->gravity * p->length * sin(theta)) / inertia;
  return TEAL_OK;
}

static teal_system *pendulum_new(pendulum_params *p, double theta0) {
  teal_system *sys = teal_leaf_new("pendulum", p, NULL);
  double x0[2] = {theta0, 0.0};
  teal_ticket state_only = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(sys, "torque", 1);
  teal_leaf_declare_vector_output(sys, "state", 2, pendulum_state_out, NULL, &state_only, 1);
  teal_leaf_declare_continuous_state(sys, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(sys, pendulum_derivatives, p);
  teal_leaf_finalize(sys); /* a failure is sticky and reported by the builder */
  return sys;
}

typedef struct pd_gains {
  double kp, kd;
} pd_gains;

static int pd_torque(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  const pd_gains *g = user;
  const double *x;
  int rc = teal_eval_vector_input(sys, ctx, 0, &x);
  if (rc) {
    return rc;
  }
  out[0] = -g->kp * x[0] - g->kd * x[1];
  return TEAL_OK;
}

static teal_system *controller_new(pd_gains *g) {
  teal_system *sys = teal_leaf_new("controller", g, NULL);
  teal_leaf_declare_vector_input(sys, "state", 2);
  teal_leaf_declare_vector_output(sys, "torque", 1, pd_torque, g, NULL, 0);
  teal_leaf_finalize(sys);
  return sys;
}

static int log_state(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  const double *x;
  int rc = teal_eval_vector_input(sys, ctx, 0, &x);
  if (rc == TEAL_OK) {
    printf("  t = %5.2f s   theta = %+.6f rad   omega = %+.6f rad/s\n", teal_context_time(ctx),
           x[0], x[1]);
  }
  return rc;
}

static teal_system *logger_new(double period) {
  teal_system *sys = teal_leaf_new("logger", NULL, NULL);
  teal_leaf_declare_vector_input(sys, "state", 2);
  teal_leaf_declare_periodic_publish(sys, period, 0.0, log_state, NULL);
  teal_leaf_finalize(sys);
  return sys;
}

static teal_system *build_diagram(pendulum_params *p, pd_gains *g, teal_error *err) {
  teal_builder *b = teal_builder_new("closed_loop");
  teal_builder_add(b, pendulum_new(p, 0.4));
  teal_builder_add(b, controller_new(g));
  teal_builder_add(b, logger_new(0.25));
  teal_builder_connect_by_name(b, "pendulum", "state", "controller", "state");
  teal_builder_connect_by_name(b, "controller", "torque", "pendulum", "torque");
  teal_builder_connect_by_name(b, "pendulum", "state", "logger", "state");
  return teal_builder_build(b, err);
}

/* Simulates t_end seconds; returns the final angle through theta. */
static int run(const teal_system *d, double t_end, double *theta) {
  teal_error err;
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  if (!sim) {
    fprintf(stderr, "simulator: %s\n", err.message);
    return err.code;
  }
  teal_simulator_set_integrator(sim, teal_integrator_rk3);
  teal_simulator_set_accuracy(sim, 1e-8);
  teal_sim_status status;
  int rc = teal_simulator_advance_to(sim, t_end, &status);
  if (rc) {
    fprintf(stderr, "simulation failed at t = %g: %s\n", status.time, status.message);
  } else {
    teal_sim_stats stats = teal_simulator_get_stats(sim);
    printf("%ld steps, %ld derivative evaluations, %ld publishes\n", stats.steps,
           stats.derivative_evals, stats.publishes);
  }
  *theta = teal_context_q(teal_simulator_context(sim))[0];
  teal_simulator_free(sim);
  return rc;
}

int main(void) {
  pendulum_params p = {1.0, 0.5, 0.1, 9.81};
  pd_gains g = {20.0, 3.0};
  teal_error err;
  teal_system *d = build_diagram(&p, &g, &err);
  if (!d) {
    fprintf(stderr, "build failed: %s (%s)\n", err.message, teal_strerror(err.code));
    return 1;
  }
  printf("Inverted pendulum under PD control (kp = %g, kd = %g), theta0 = 0.4 rad\n", g.kp, g.kd);
  double theta = NAN;
  int rc = run(d, 3.0, &theta);
  if (rc == TEAL_OK) {
    printf("final |theta| = %.3e rad: %s\n", fabs(theta),
           fabs(theta) < 1e-3 ? "upright reached" : "did NOT converge");
  }
  teal_system_free(d);
  return rc == TEAL_OK && fabs(theta) < 1e-3 ? 0 : 1;
}
