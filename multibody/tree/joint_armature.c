/* The model's joint armatures (see joint_armature.h); the added diagonal
 * of M that includes them is teal_plant_reflected_inertia (actuator_rotor.c). */
#include "multibody/tree/joint_armature.h"

#include <math.h>

#include "multibody/tree/plant_internal.h"

int teal_plant_set_joint_default_armature(teal_plant *p, int joint, double armature) {
  int rc = teal_plant_check_open(p, "joint armature", "");
  if (rc) {
    return rc;
  }
  if (joint < 0 || joint >= p->joints.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND, "plant: armature: unknown joint %d",
                                 joint);
  }
  joint_rec *j = &JOINT(p)[joint];
  if (!isfinite(armature)) {
    return teal_error_set_sticky(&p->err, TEAL_ENONFINITE, "plant: armature of joint '%s' is %g",
                                 j->name, armature);
  }
  if (armature < 0.0) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                 "plant: armature of joint '%s' is %g, must be >= 0", j->name,
                                 armature);
  }
  j->armature = armature;
  return TEAL_OK;
}

double teal_plant_joint_default_armature(const teal_plant *p, int joint) {
  return p && joint >= 0 && joint < p->joints.n ? JOINT(p)[joint].armature : NAN;
}
