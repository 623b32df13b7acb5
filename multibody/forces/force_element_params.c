/* The built-in force elements' parameters, read back from their records
 * (see force_element_params.h). */
#include "multibody/forces/force_element_params.h"

#include "multibody/tree/plant_internal.h"

static const char *kind_name(int kind) {
  switch (kind) {
    case TEAL_FORCE_LINEAR_SPRING_DAMPER:
      return "a linear spring-damper";
    case TEAL_FORCE_REVOLUTE_SPRING:
      return "a revolute spring";
    case TEAL_FORCE_LINEAR_BUSHING_RPY:
      return "a linear bushing";
    case TEAL_FORCE_TENDON:
      return "a tendon";
    default:
      return "a user force element";
  }
}

/* Finds element i (*f) when it exists and has the kind, else the error. */
static int element_of_kind(const teal_plant *p, int i, int kind, const void *out, const char *fn,
                           const force_rec **f, teal_error *err) {
  if (!p || !out) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn, p ? "output" : "plant");
  }
  if (i < 0 || i >= p->forces.n) {
    return teal_error_set(err, TEAL_ENOTFOUND, "%s: no force element %d (the plant has %d)", fn, i,
                          p->forces.n);
  }
  *f = &FORCE(p)[i];
  if ((*f)->kind != kind) {
    return teal_error_set(err, TEAL_ETYPE, "%s: force element %d is %s, not %s", fn, i,
                          kind_name((*f)->kind), kind_name(kind));
  }
  return TEAL_OK;
}

int teal_plant_get_linear_spring_damper(const teal_plant *p, int i,
                                        teal_linear_spring_damper_params *out, teal_error *err) {
  const force_rec *f;
  int rc = element_of_kind(p, i, TEAL_FORCE_LINEAR_SPRING_DAMPER, out,
                           "teal_plant_get_linear_spring_damper", &f, err);
  if (rc == TEAL_OK) {
    *out = (teal_linear_spring_damper_params){f->body_a, f->X_AF.p, f->body_b, f->X_BF.p,
                                              f->rest,   f->k,      f->d};
  }
  return rc;
}

int teal_plant_get_revolute_spring(const teal_plant *p, int i, teal_revolute_spring_params *out,
                                   teal_error *err) {
  const force_rec *f;
  int rc = element_of_kind(p, i, TEAL_FORCE_REVOLUTE_SPRING, out, "teal_plant_get_revolute_spring",
                           &f, err);
  if (rc == TEAL_OK) {
    *out = (teal_revolute_spring_params){f->joint, f->rest, f->k};
  }
  return rc;
}

int teal_plant_get_linear_bushing_rpy(const teal_plant *p, int i,
                                      teal_linear_bushing_rpy_params *out, teal_error *err) {
  const force_rec *f;
  int rc = element_of_kind(p, i, TEAL_FORCE_LINEAR_BUSHING_RPY, out,
                           "teal_plant_get_linear_bushing_rpy", &f, err);
  if (rc == TEAL_OK) {
    *out = (teal_linear_bushing_rpy_params){f->frame_a, f->frame_c, f->k_rpy,
                                            f->d_rpy,   f->k_xyz,   f->d_xyz};
  }
  return rc;
}
