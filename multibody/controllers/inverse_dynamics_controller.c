/* Inverse dynamics controller diagram (see inverse_dynamics_controller.h). */
#include "multibody/controllers/inverse_dynamics_controller.h"

#include "framework/diagram.h"
#include "multibody/controllers/inverse_dynamics.h"
#include "multibody/controllers/mb_controller_internal.h"
#include "multibody/tree/topology.h"
#include "systems/controllers/pid.h"
#include "systems/primitives/adder.h"

static const char k_kind[] = "inverse_dynamics_controller";

/* The subsystems; adder is NULL without the reference acceleration. */
typedef struct idc_parts {
  teal_system *pid, *id, *adder;
} idc_parts;

static int check_params(const char *name, const teal_plant *plant, const double *kp,
                        const double *ki, const double *kd, int n, teal_error *err) {
  int rc = teal_mbc_check_plant(err, k_kind, name, plant, 1);
  static const char *const names[3] = {"kp", "ki", "kd"};
  const double *gains[3] = {kp, ki, kd};
  for (int g = 0; rc == TEAL_OK && g < 3; g++) {
    rc = teal_mbc_check_gains(err, k_kind, name, names[g], gains[g], n, teal_plant_nv(plant));
  }
  return rc;
}

/* Makes the subsystems; on failure frees those made and returns NULL
 * pointers with err set. */
static int make_parts(const teal_plant *plant, const double *kp, const double *ki,
                      const double *kd, int n, int has_ref, idc_parts *p, teal_error *err) {
  p->pid = teal_pid_new("pid", kp, ki, kd, n, err);
  p->id = p->pid ? teal_inverse_dynamics_new("inverse_dynamics", plant, TEAL_INVERSE_DYNAMICS,
                                             err)
                 : NULL;
  p->adder = (p->id && has_ref) ? teal_adder_new("adder", 2, n, err) : NULL;
  if (p->pid && p->id && (p->adder || !has_ref)) {
    return TEAL_OK;
  }
  teal_system_free(p->pid);
  teal_system_free(p->id);
  p->pid = p->id = p->adder = NULL;
  return err && err->code ? err->code : TEAL_ENOMEM;
}

static const teal_input_port *in(const teal_system *sys, const char *port) {
  return teal_system_input_port_by_name(sys, port);
}

static const teal_output_port *out(const teal_system *sys, const char *port) {
  return teal_system_output_port_by_name(sys, port);
}

/* Adds the parts to b, which owns each from then on (also when adding it
 * fails); after a failure the rest are freed. Returns nonzero when all
 * were added. */
static int add_parts(teal_builder *b, const idc_parts *p) {
  teal_system *list[3] = {p->pid, p->id, p->adder};
  int ok = 1;
  for (int i = 0; i < 3; i++) {
    if (list[i] && ok) {
      ok = teal_builder_add(b, list[i]) != NULL;
    } else if (list[i]) {
      teal_system_free(list[i]);
    }
  }
  return ok;
}

/* Wires Drake's diagram: the estimated state feeds both the PID and the
 * inverse dynamics, the PID's control (plus the reference acceleration)
 * is vd*. Failures stay in the builder's sticky error. */
static void wire(teal_builder *b, const idc_parts *p) {
  teal_builder_export_input(b, in(p->pid, "estimated_state"), "estimated_state");
  teal_builder_connect_input(b, "estimated_state", in(p->id, "estimated_state"));
  teal_builder_export_input(b, in(p->pid, "desired_state"), "desired_state");
  if (p->adder) {
    teal_builder_connect(b, out(p->pid, "control"), in(p->adder, "u0"));
    teal_builder_export_input(b, in(p->adder, "u1"), "desired_acceleration");
    teal_builder_connect(b, out(p->adder, "sum"), in(p->id, "desired_acceleration"));
  } else {
    teal_builder_connect(b, out(p->pid, "control"), in(p->id, "desired_acceleration"));
  }
  teal_builder_export_output(b, out(p->id, "generalized_force"), "generalized_force");
}

teal_system *teal_inverse_dynamics_controller_new(const char *name, const teal_plant *plant,
                                                  const double *kp, const double *ki,
                                                  const double *kd, int n,
                                                  int has_reference_acceleration,
                                                  teal_error *err) {
  const char *who = name && *name ? name : k_kind;
  if (check_params(who, plant, kp, ki, kd, n, err)) {
    return NULL;
  }
  idc_parts parts;
  if (make_parts(plant, kp, ki, kd, n, has_reference_acceleration, &parts, err)) {
    return NULL;
  }
  teal_builder *b = teal_builder_new(who);
  if (!b) {
    teal_system_free(parts.pid);
    teal_system_free(parts.id);
    teal_system_free(parts.adder);
    teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", k_kind, who);
    return NULL;
  }
  if (add_parts(b, &parts)) {
    wire(b, &parts);
  }
  return teal_builder_build(b, err); /* consumes b, reports its sticky error */
}
