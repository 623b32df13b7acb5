/* Model instances: names, counts and element indices (see
 * model_instances.h). The per-instance q, v and actuator counts are the
 * maps plant_system.c builds at finalize. */
#include "multibody/tree/model_instances.h"

#include <stddef.h>

#include "multibody/tree/plant_internal.h"

/* TEAL_OK when plant and instance are usable, else the error (in err). */
static int check_instance(const teal_plant *p, int instance, teal_error *err, const char *fn) {
  if (!p) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
  }
  if (instance < 0 || instance >= p->instances.n) {
    return teal_error_set(err, TEAL_ENOTFOUND,
                          "%s: model instance %d is not in the plant (it has %d instances)", fn,
                          instance, p->instances.n);
  }
  return TEAL_OK;
}

/* As check_instance, and the plant must be finalized (its maps built). */
static int check_finalized(const teal_plant *p, int instance, teal_error *err, const char *fn) {
  int rc = check_instance(p, instance, err, fn);
  if (rc == TEAL_OK && !p->system) {
    rc = teal_error_set(err, TEAL_ESTATE,
                        "%s: the plant is not finalized (call teal_plant_finalize first)", fn);
  }
  return rc;
}

const char *teal_plant_get_model_instance_name(const teal_plant *p, int instance, teal_error *err) {
  return check_instance(p, instance, err, "plant get_model_instance_name") ? NULL
                                                                           : INST(p)[instance].name;
}

int teal_plant_instance_nq(const teal_plant *p, int instance, teal_error *err) {
  int rc = check_finalized(p, instance, err, "plant instance_nq");
  return rc ? rc : p->sys.inst_q_count[instance];
}

int teal_plant_instance_nv(const teal_plant *p, int instance, teal_error *err) {
  int rc = check_finalized(p, instance, err, "plant instance_nv");
  return rc ? rc : p->sys.inst_v_count[instance];
}

int teal_plant_instance_num_multibody_states(const teal_plant *p, int instance, teal_error *err) {
  int rc = check_finalized(p, instance, err, "plant instance_num_multibody_states");
  return rc ? rc : p->sys.inst_q_count[instance] + p->sys.inst_v_count[instance];
}

int teal_plant_instance_nu(const teal_plant *p, int instance, teal_error *err) {
  int rc = check_finalized(p, instance, err, "plant instance_nu");
  return rc ? rc : p->sys.inst_act_count[instance];
}

/* The records of l (each elem bytes, starting with (name, instance)) in
 * instance: their number, and their indices written to out (unless NULL). */
static int list_in_instance(const teal_plant_list *l, size_t elem, int instance, int *out,
                            int capacity, teal_error *err, const char *fn) {
  int count = 0;
  for (int r = 0; r < l->n; r++) {
    count +=
        ((const instance_rec *)((const char *)l->data + (size_t)r * elem))->instance == instance;
  }
  if (!out) {
    return count;
  }
  if (capacity < count) {
    return teal_error_set(err, TEAL_ESIZE,
                          "%s: model instance %d has %d of them, the array holds %d", fn, instance,
                          count, capacity);
  }
  int n = 0;
  for (int r = 0; r < l->n; r++) {
    if (((const instance_rec *)((const char *)l->data + (size_t)r * elem))->instance == instance) {
      out[n++] = r;
    }
  }
  return n;
}

int teal_plant_instance_num_bodies(const teal_plant *p, int instance, teal_error *err) {
  const char *fn = "plant instance_num_bodies";
  int rc = check_instance(p, instance, err, fn);
  return rc ? rc : list_in_instance(&p->bodies, sizeof(body_rec), instance, NULL, 0, err, fn);
}

int teal_plant_instance_num_joints(const teal_plant *p, int instance, teal_error *err) {
  const char *fn = "plant instance_num_joints";
  int rc = check_instance(p, instance, err, fn);
  return rc ? rc : list_in_instance(&p->joints, sizeof(joint_rec), instance, NULL, 0, err, fn);
}

int teal_plant_get_body_indices(const teal_plant *p, int instance, int *indices, int capacity,
                                teal_error *err) {
  const char *fn = "plant get_body_indices";
  int rc = check_instance(p, instance, err, fn);
  return rc ? rc
            : list_in_instance(&p->bodies, sizeof(body_rec), instance, indices, capacity, err, fn);
}

int teal_plant_get_joint_indices(const teal_plant *p, int instance, int *indices, int capacity,
                                 teal_error *err) {
  const char *fn = "plant get_joint_indices";
  int rc = check_instance(p, instance, err, fn);
  return rc ? rc
            : list_in_instance(&p->joints, sizeof(joint_rec), instance, indices, capacity, err, fn);
}

int teal_plant_get_frame_indices(const teal_plant *p, int instance, int *indices, int capacity,
                                 teal_error *err) {
  const char *fn = "plant get_frame_indices";
  int rc = check_instance(p, instance, err, fn);
  return rc ? rc
            : list_in_instance(&p->frames, sizeof(frame_rec), instance, indices, capacity, err, fn);
}

int teal_plant_get_actuator_indices(const teal_plant *p, int instance, int *indices, int capacity,
                                    teal_error *err) {
  const char *fn = "plant get_actuator_indices";
  int rc = check_instance(p, instance, err, fn);
  return rc ? rc
            : list_in_instance(&p->actuators, sizeof(actuator_rec), instance, indices, capacity,
                               err, fn);
}
