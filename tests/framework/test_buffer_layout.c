/* Tests for framework/buffer_layout.h: the sizing pass and the placing pass
 * agree, every slice is 16-byte aligned and disjoint from the others, and a
 * total that does not fit a size_t is flagged instead of wrapping. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/buffer_layout.h"
#include "support/test_support.h"

typedef struct three_arrays {
  char *c;     /* [3] */
  double *d;   /* [5] */
  int *i;      /* [0] */
  double *end; /* [1] */
} three_arrays;

static void lay_out(three_arrays *a, teal_buffer_layout *L) {
  a->c = teal_buffer_take(L, 3, 1);
  a->d = teal_buffer_take(L, 5, sizeof(double));
  a->i = teal_buffer_take(L, 0, sizeof(int));
  a->end = teal_buffer_take(L, 1, sizeof(double));
}

START_TEST(test_two_passes_agree_and_align) {
  three_arrays a;
  teal_buffer_layout L = {NULL, 0, 0};
  lay_out(&a, &L);
  ck_assert_ptr_null(a.c);
  ck_assert_ptr_null(a.d);
  ck_assert_int_eq(L.overflow, 0);
  /* 3 chars, padded to 16, then 40 bytes, padded to 64, then 8 */
  ck_assert_uint_eq(L.size, 72);
  char *buffer = teal_calloc(1, L.size);
  ck_assert_ptr_nonnull(buffer);
  size_t sized = L.size;
  L = (teal_buffer_layout){buffer, 0, 0};
  lay_out(&a, &L);
  ck_assert_uint_eq(L.size, sized);
  ck_assert_ptr_eq(a.c, buffer);
  ck_assert_ptr_eq((char *)a.d, buffer + 16);
  ck_assert_ptr_eq((char *)a.end, buffer + 64);
  ck_assert_uint_eq((uintptr_t)a.d % 16, (uintptr_t)buffer % 16);
  /* the slices are disjoint: filling one leaves the next untouched */
  memset(a.d, 0xff, 5 * sizeof(double));
  ck_assert(a.end[0] == 0.0);
  teal_free(buffer);
}
END_TEST

START_TEST(test_overflow_is_flagged_and_sticky) {
  teal_buffer_layout L = {NULL, 0, 0};
  ck_assert_ptr_null(teal_buffer_take(&L, SIZE_MAX / 8, 16));
  ck_assert_int_eq(L.overflow, 1);
  size_t size = L.size;
  teal_buffer_take(&L, 1, 1);
  ck_assert_int_eq(L.overflow, 1);
  ck_assert_uint_eq(L.size, size);
  /* the rounding up to 16 bytes can overflow too */
  teal_buffer_layout M = {NULL, SIZE_MAX - 3, 0};
  teal_buffer_take(&M, 1, 1);
  ck_assert_int_eq(M.overflow, 1);
}
END_TEST

static Suite *buffer_layout_suite(void) {
  Suite *s = suite_create("buffer_layout");
  TCase *tc = tcase_create("layout");
  tcase_add_test(tc, test_two_passes_agree_and_align);
  tcase_add_test(tc, test_overflow_is_flagged_and_sticky);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(buffer_layout_suite());
}
