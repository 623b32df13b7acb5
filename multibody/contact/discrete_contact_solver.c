/* Selection of the discrete contact solver (see discrete_contact_solver.h). */
#include "multibody/contact/discrete_contact_solver.h"

#include "multibody/tree/plant_internal.h"

int teal_plant_set_discrete_contact_solver(teal_plant *p, teal_discrete_contact_solver solver) {
  int rc = teal_plant_check_open(p, "the discrete contact solver", "");
  if (rc) {
    return rc;
  }
  if (solver != TEAL_DISCRETE_CONTACT_SOLVER_TAMSI && solver != TEAL_DISCRETE_CONTACT_SOLVER_SAP) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                 "plant: unknown discrete contact solver %d (TAMSI = 0, SAP = 1)",
                                 (int)solver);
  }
  p->contact.discrete_solver = (int)solver;
  return TEAL_OK;
}

teal_discrete_contact_solver teal_plant_get_discrete_contact_solver(const teal_plant *p) {
  return p && p->contact.discrete_solver == TEAL_DISCRETE_CONTACT_SOLVER_SAP
             ? TEAL_DISCRETE_CONTACT_SOLVER_SAP
             : TEAL_DISCRETE_CONTACT_SOLVER_TAMSI;
}
