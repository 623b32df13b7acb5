/* URDF test fixtures (see mb_urdf_fixtures.h). */
#include "support/mb_urdf_fixtures.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/topology.h"

teal_plant *ts_urdf_load_xml(const char *xml, teal_urdf_report *report, int finalize) {
  teal_error e = {0, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int inst = teal_urdf_load_string_ex(p, xml, NULL, report, &e);
  ck_assert_msg(inst >= 2, "load failed: %s", e.message);
  if (finalize) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

int ts_urdf_node_of_joint(const teal_plant *p, const char *name) {
  int j = teal_plant_get_joint_by_name(p, name, -1, NULL);
  ck_assert_msg(j >= 0, "no joint %s", name);
  return teal_plant_body_node(p, teal_plant_joint_child_body(p, j));
}

void ts_urdf_assert_vec3_near(teal_vec3 a, teal_vec3 b, double tol) {
  for (int i = 0; i < 3; i++) {
    ck_assert_double_le(fabs(a.v[i] - b.v[i]), tol);
  }
}

void ts_urdf_assert_transform_near(teal_transform a, teal_transform b, double tol) {
  ts_urdf_assert_vec3_near(a.p, b.p, tol);
  ck_assert_double_le(teal_mat3_max_abs_diff(a.R, b.R), tol);
}

teal_transform ts_urdf_frame_pose(const teal_plant *p, const char *name, int instance,
                                  int *body) {
  int f = teal_plant_get_frame_by_name(p, name, instance, NULL);
  ck_assert_msg(f >= 0, "no frame %s", name);
  *body = teal_plant_frame_body(p, f);
  return *teal_plant_frame_pose_in_body(p, f);
}

const teal_plant_geometry *ts_urdf_geometry_named(const teal_plant *p, const char *name) {
  for (int i = 0; i < teal_plant_num_geometries(p); i++) {
    if (strcmp(teal_plant_get_geometry(p, i)->name, name) == 0) {
      return teal_plant_get_geometry(p, i);
    }
  }
  ck_abort_msg("no geometry %s", name);
  return NULL;
}

double ts_urdf_actuator_effort(const teal_plant *p, const char *name) {
  int a = teal_plant_get_actuator_by_name(p, name, -1, NULL);
  ck_assert_msg(a >= 0, "no actuator %s", name);
  return teal_plant_actuator_effort_limit(p, a);
}

teal_rotation ts_urdf_rot(double x, double y, double z, double angle) {
  teal_vec3 a = teal_vec3_make(x, y, z);
  return teal_rotation_from_axis_angle(teal_vec3_scale(a, 1.0 / teal_vec3_norm(a)), angle);
}

teal_transform ts_urdf_world_pose(const teal_plant *p, const char *name, const double *q) {
  teal_transform X_WB[16], X;
  ck_assert_int_le(teal_plant_num_bodies(p), 16);
  ck_assert_int_eq(teal_mb_body_poses(p, q, X_WB), TEAL_OK);
  int f = teal_plant_get_frame_by_name(p, name, -1, NULL);
  ck_assert_msg(f >= 0, "no frame %s", name);
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X_WB, TEAL_WORLD_FRAME, f, &X), TEAL_OK);
  return X;
}
