/* Simulator settings, each validated. */
#include <math.h>

#include "systems/analysis/simulator_internal.h"
#include "systems/analysis/simulator_settings.h"

static int positive(teal_simulator *sim, double value, const char *what) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  if (!(isfinite(value) && value > 0)) {
    return teal_error_set(&sim->err, TEAL_EINVAL, "simulator: %s must be positive and finite "
                          "(got %g)", what, value);
  }
  return TEAL_OK;
}

int teal_simulator_set_integrator(teal_simulator *sim, const teal_integrator_type *type) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  if (!type) {
    return teal_error_set(&sim->err, TEAL_EINVAL,
                          "simulator: set_integrator: NULL integrator "
                          "type (pass one of teal_integrator_rk2, teal_integrator_rk3, ...)");
  }
  const teal_integrator_type *old = sim->type;
  sim->type = type;
  teal_error err = {TEAL_OK, ""};
  int rc = teal_simulator_realloc_integrator(sim, &err);
  if (rc) {
    sim->type = old; /* the old instance is still in place */
    return teal_error_set(&sim->err, rc, "simulator: set_integrator: %s",
                          err.message[0] ? err.message : teal_strerror(rc));
  }
  sim->initialized = 0;
  return TEAL_OK;
}

int teal_simulator_set_fixed_step(teal_simulator *sim, double h) {
  int rc = positive(sim, h, "fixed step");
  if (rc == TEAL_OK) {
    sim->fixed_step = h;
  }
  return rc;
}

int teal_simulator_set_accuracy(teal_simulator *sim, double accuracy) {
  int rc = positive(sim, accuracy, "accuracy");
  if (rc == TEAL_OK) {
    sim->accuracy = accuracy;
    sim->fixed_step = 0.0;
    rc = teal_context_set_accuracy(sim->ctx, accuracy);
  }
  return rc;
}

int teal_simulator_set_max_step(teal_simulator *sim, double h) {
  int rc = positive(sim, h, "max step");
  if (rc == TEAL_OK) {
    sim->max_step = h;
  }
  return rc;
}

int teal_simulator_set_min_step(teal_simulator *sim, double h) {
  int rc = positive(sim, h, "min step");
  if (rc == TEAL_OK) {
    sim->min_step = h;
  }
  return rc;
}

int teal_simulator_set_error_floor(teal_simulator *sim, double floor) {
  int rc = positive(sim, floor, "error floor");
  if (rc == TEAL_OK) {
    sim->error_floor = floor;
  }
  return rc;
}

int teal_simulator_set_witness_tolerance(teal_simulator *sim, double dt) {
  int rc = positive(sim, dt, "witness tolerance");
  if (rc == TEAL_OK) {
    sim->witness_tol = dt;
  }
  return rc;
}

int teal_simulator_set_publish_every_step(teal_simulator *sim, int on) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  sim->publish_every_step = on != 0;
  return TEAL_OK;
}

int teal_simulator_set_analytic_jacobian(teal_simulator *sim, int on) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  if (on && !sim->jac) {
    return teal_error_set(&sim->err, TEAL_EUNSUPPORTED, "simulator: set_analytic_jacobian: %s",
                          sim->jac_why.message);
  }
  sim->analytic_jacobian = on != 0;
  teal_simulator_select_jacobian(sim);
  return TEAL_OK;
}

int teal_simulator_uses_analytic_jacobian(const teal_simulator *sim) {
  return sim && sim->ode.jacobian != NULL;
}

int teal_simulator_set_error_projection(teal_simulator *sim, int on) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  sim->error_projection = on != 0;
  return TEAL_OK;
}

int teal_simulator_uses_error_projection(const teal_simulator *sim) {
  return sim && sim->error_projection && sim->project_error;
}

int teal_simulator_set_target_realtime_rate(teal_simulator *sim, double rate) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  if (!(isfinite(rate) && rate >= 0)) {
    return teal_error_set(&sim->err, TEAL_EINVAL, "simulator: realtime rate must be >= 0 and "
                          "finite (got %g)", rate);
  }
  sim->realtime_rate = rate;
  return TEAL_OK;
}

int teal_simulator_set_monitor(teal_simulator *sim, teal_monitor_fn fn, void *user) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  sim->monitor = fn;
  sim->monitor_user = user;
  return TEAL_OK;
}
