/* The dofs each actuator drives (plant_internal.h): the one place that
 * knows a joint actuator drives one dof and a tendon actuator several, so
 * the actuation matrix, the applied forces and the linearization agree. */
#include "multibody/tree/plant_internal.h"

int teal_plant_actuator_num_dofs(const teal_plant *p, int a) {
  const actuator_rec *r = &ACT(p)[a];
  return r->tendon >= 0 ? FORCE(p)[r->tendon].n_path : 1;
}

int teal_plant_actuator_dof(const teal_plant *p, int a, int k, double *weight) {
  const actuator_rec *r = &ACT(p)[a];
  if (r->tendon < 0) {
    *weight = 1.0;
    return JOINT(p)[r->joint].v_start;
  }
  const force_rec *t = &FORCE(p)[r->tendon];
  *weight = t->coef[k]; /* fixed tendons only: the coefficients of L = sum c q */
  return JOINT(p)[t->path[k]].v_start;
}
