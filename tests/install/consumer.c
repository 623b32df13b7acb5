/* A program built against an installed Teal (scripts/check_install.sh):
 * constant 2 -> gain 3 -> integrator, simulated for 1 s with RK4, must
 * reach x(1) = 6. Exits 0 when it does, 1 otherwise. */
#include <math.h>
#include <stdio.h>

#include <teal.h>

static int fail(const char *what, const char *message) {
  fprintf(stderr, "consumer: %s: %s\n", what, message);
  return 1;
}

int main(void) {
  teal_error err;
  teal_error_clear(&err);
  double two = 2.0;
  teal_builder *b = teal_builder_new("consumer");
  teal_builder_add(b, teal_constant_vector_source_new("source", &two, 1, NULL));
  teal_builder_add(b, teal_gain_new("gain", 3.0, 1, NULL));
  teal_builder_add(b, teal_integrator_system_new("integrator", 1, NULL));
  teal_builder_connect_by_name(b, "source", "y", "gain", "u");
  teal_builder_connect_by_name(b, "gain", "y", "integrator", "u");
  teal_system *d = teal_builder_build(b, &err);
  if (!d) {
    return fail("build", err.message);
  }
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  if (!sim) {
    teal_system_free(d);
    return fail("simulator_new", err.message);
  }
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 0.01);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  double x = teal_context_continuous_state(teal_simulator_context(sim))[0];
  teal_simulator_free(sim);
  teal_system_free(d);
  if (rc != TEAL_OK) {
    return fail("advance_to", st.message);
  }
  if (fabs(x - 6.0) > 1e-12) {
    fprintf(stderr, "consumer: x(1) = %.17g, expected 6\n", x);
    return 1;
  }
  printf("consumer: x(1) = %g as expected\n", x);
  return 0;
}
