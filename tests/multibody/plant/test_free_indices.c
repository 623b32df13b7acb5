/* The free and known coordinates (multibody/plant/free_indices.c) of a
 * chain ball - revolute - universal plus a floating body, with the
 * revolute prescribed and the universal locked: the index lists against
 * the joints' coordinate ranges, per context and after unlocking, pack and
 * unpack as each other's inverse leaving held entries untouched, and bad
 * calls. */
#include <check.h>
#include <string.h>

#include "framework/context.h"
#include "math/transform.h"
#include "multibody/plant/free_indices.h"
#include "multibody/plant/joint_locking.h"
#include "multibody/plant/plant_system.h"
#include "multibody/plant/prescribed_motion.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

enum { BALL, HINGE, UJOINT, FLOAT, NJ };
static const int kNq[NJ] = {4, 1, 2, 7}, kNv[NJ] = {3, 1, 2, 6};

static int still(double t, double *q, double *qd, double *qdd, void *user) {
  (void)t;
  (void)user;
  *q = *qd = *qdd = 0.0;
  return TEAL_OK;
}

static int add_body(teal_plant *p, const char *name, teal_joint_kind kind, int parent_frame) {
  teal_spatial_inertia M = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -0.5),
                                                             teal_mat3_diag(0.1, 0.1, 0.02));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int j = teal_plant_add_joint(p, name, kind, parent_frame, teal_plant_body_frame(p, b), &y, 0);
  ck_assert_int_ge(j, 0);
  return b;
}

static teal_plant *model(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int b0 = add_body(p, "ball", TEAL_JOINT_BALL, TEAL_WORLD_FRAME);
  int b1 = add_body(p, "hinge", TEAL_JOINT_REVOLUTE, teal_plant_body_frame(p, b0));
  add_body(p, "ujoint", TEAL_JOINT_UNIVERSAL, teal_plant_body_frame(p, b1));
  add_body(p, "float", TEAL_JOINT_QUATERNION_FLOATING, TEAL_WORLD_FRAME);
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, HINGE, still, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The expected list: the coordinates of the joints with held[j] == want
 * (q: use_q), ascending, built from the joints' starts. */
static int expected(const teal_plant *p, const int *held, int want, int use_q, int *out) {
  int n = use_q ? teal_plant_nq(p) : teal_plant_nv(p), count = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < NJ; j++) {
      int start = use_q ? teal_plant_joint_q_start(p, j) : teal_plant_joint_v_start(p, j);
      int len = use_q ? kNq[j] : kNv[j];
      if (i >= start && i < start + len && held[j] == want) {
        out[count++] = i;
      }
    }
  }
  return count;
}

static void expect_list(const int *got, int n_got, const int *want, int n_want) {
  ck_assert_int_eq(n_got, n_want);
  for (int i = 0; i < n_want; i++) {
    ck_assert_int_eq(got[i], want[i]);
  }
}

/* Every index list of ctx against the held joints. */
static void check_lists(const teal_plant *p, const teal_context *ctx, const int *held) {
  int got[16], want[16], n;
  ck_assert_int_eq(teal_plant_get_free_q_index(p, ctx, got, &n), TEAL_OK);
  expect_list(got, n, want, expected(p, held, 0, 1, want));
  ck_assert_int_eq(teal_plant_get_free_u_index(p, ctx, got, &n), TEAL_OK);
  expect_list(got, n, want, expected(p, held, 0, 0, want));
  ck_assert_int_eq(teal_plant_get_free_udot_index(p, ctx, got, &n), TEAL_OK);
  expect_list(got, n, want, expected(p, held, 0, 0, want));
  ck_assert_int_eq(teal_plant_get_known_udot_index(p, ctx, got, &n), TEAL_OK);
  expect_list(got, n, want, expected(p, held, 1, 0, want));
}

START_TEST(lists_follow_the_locks_and_the_prescribed_joint) {
  teal_plant *p = model();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_context *other = teal_context_new(teal_plant_system(p), NULL);
  int held[NJ] = {0, 1, 0, 0};
  check_lists(p, ctx, held); /* only the prescribed hinge */
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, UJOINT), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, FLOAT), TEAL_OK);
  held[UJOINT] = held[FLOAT] = 1;
  check_lists(p, ctx, held);
  int other_held[NJ] = {0, 1, 0, 0};
  check_lists(p, other, other_held); /* the locks are ctx's own */
  ck_assert_int_eq(teal_plant_unlock_joint(p, ctx, FLOAT), TEAL_OK);
  held[FLOAT] = 0;
  check_lists(p, ctx, held);
  teal_context_free(other);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(pack_and_unpack_are_inverse_and_keep_held_entries) {
  teal_plant *p = model();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, UJOINT), TEAL_OK);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p), idx[16], nfree;
  double all[16], packed[16], back[16];
  for (int i = 0; i < 16; i++) {
    all[i] = 10.0 + i;
    back[i] = -1.0;
  }
  ck_assert_int_eq(teal_plant_pack_free_q(p, ctx, all, packed), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_free_q_index(p, ctx, idx, &nfree), TEAL_OK);
  ck_assert_int_eq(nfree, nq - 3);
  for (int k = 0; k < nfree; k++) {
    ck_assert_double_eq(packed[k], all[idx[k]]);
  }
  ck_assert_int_eq(teal_plant_unpack_free_q(p, ctx, packed, back), TEAL_OK);
  for (int i = 0, k = 0; i < nq; i++) {
    int is_free = k < nfree && idx[k] == i;
    ck_assert_double_eq(back[i], is_free ? all[i] : -1.0);
    k += is_free;
  }
  ck_assert_int_eq(teal_plant_pack_free_u(p, ctx, all, packed), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_free_u_index(p, ctx, idx, &nfree), TEAL_OK);
  ck_assert_int_eq(nfree, nv - 3);
  for (int i = 0; i < 16; i++) {
    back[i] = -1.0;
  }
  ck_assert_int_eq(teal_plant_unpack_free_u(p, ctx, packed, back), TEAL_OK);
  for (int i = 0, k = 0; i < nv; i++) {
    int is_free = k < nfree && idx[k] == i;
    ck_assert_double_eq(back[i], is_free ? all[i] : -1.0);
    k += is_free;
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_calls_are_reported) {
  teal_plant *p = model();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const teal_error *err = teal_context_error(ctx);
  int idx[16], n;
  double x[16] = {0};
  TS_EXPECT_ERROR(teal_plant_get_free_q_index(p, ctx, NULL, &n), TEAL_EINVAL, err, "index is NULL");
  TS_EXPECT_ERROR(teal_plant_get_known_udot_index(p, ctx, idx, NULL), TEAL_EINVAL, err,
                  "count is NULL");
  TS_EXPECT_ERROR(teal_plant_pack_free_q(p, ctx, NULL, x), TEAL_EINVAL, err, "full vector is NULL");
  TS_EXPECT_ERROR(teal_plant_unpack_free_u(p, ctx, x, NULL), TEAL_EINVAL, err,
                  "full vector is NULL");
  ck_assert_int_eq(teal_plant_get_free_u_index(NULL, ctx, idx, &n), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_free_u_index(p, NULL, idx, &n), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("free_indices");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, lists_follow_the_locks_and_the_prescribed_joint);
  tcase_add_test(tc, pack_and_unpack_are_inverse_and_keep_held_entries);
  tcase_add_test(tc, bad_calls_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
