/* Collision filter (see collision_filter.h). The pair (a, b), a < b, is bit
 * b (b - 1) / 2 + a of the bitset: the strict lower triangle by rows. */
#include "geometry/proximity/collision_filter.h"

#include <string.h>

#include "framework/alloc.h"

struct teal_collision_filter {
  int n;
  int *frame;
  uint32_t *group, *mask;
  unsigned char *excluded; /* n (n - 1) / 2 bits */
};

void teal_collision_filter_free(teal_collision_filter *f) {
  if (!f) {
    return;
  }
  teal_free(f->frame);
  teal_free(f->group);
  teal_free(f->mask);
  teal_free(f->excluded);
  teal_free(f);
}

teal_collision_filter *teal_collision_filter_new(int n, const int *frame_ids, teal_error *err) {
  if (n < 0 || (n > 0 && !frame_ids) || n > 1 << 20) {
    teal_error_set(err, TEAL_EINVAL, "collision filter: bad size %d or missing frame ids", n);
    return NULL;
  }
  size_t m = n > 0 ? (size_t)n : 1, bits = (size_t)n * (size_t)(n > 0 ? n - 1 : 0) / 2;
  teal_collision_filter *f = teal_calloc(1, sizeof(*f));
  if (f) {
    f->n = n;
    f->frame = teal_calloc(m, sizeof(int));
    f->group = teal_calloc(m, sizeof(uint32_t));
    f->mask = teal_calloc(m, sizeof(uint32_t));
    f->excluded = teal_calloc(bits / 8 + 1, 1);
  }
  if (!f || !f->frame || !f->group || !f->mask || !f->excluded) {
    teal_collision_filter_free(f);
    teal_error_set(err, TEAL_ENOMEM, "collision filter: out of memory for %d geometries", n);
    return NULL;
  }
  for (int g = 0; g < n; g++) {
    f->frame[g] = frame_ids[g];
    f->group[g] = 1u;
    f->mask[g] = 0xffffffffu;
  }
  return f;
}

int teal_collision_filter_size(const teal_collision_filter *f) {
  return f ? f->n : 0;
}

int teal_collision_filter_frame(const teal_collision_filter *f, int g) {
  return f && g >= 0 && g < f->n ? f->frame[g] : -1;
}

static int pair_ok(const teal_collision_filter *f, int a, int b) {
  return f && a >= 0 && b >= 0 && a < f->n && b < f->n && a != b;
}

/* Bit index of the unordered pair (a != b). */
static size_t pair_bit(int a, int b) {
  size_t lo = (size_t)(a < b ? a : b), hi = (size_t)(a < b ? b : a);
  return hi * (hi - 1) / 2 + lo;
}

int teal_collision_filter_exclude_pair(teal_collision_filter *f, int a, int b, int exclude) {
  if (!pair_ok(f, a, b)) {
    return TEAL_EINVAL;
  }
  size_t k = pair_bit(a, b);
  unsigned char bit = (unsigned char)(1u << (k % 8));
  f->excluded[k / 8] = (unsigned char)(exclude ? f->excluded[k / 8] | bit
                                               : f->excluded[k / 8] & ~bit);
  return TEAL_OK;
}

int teal_collision_filter_exclude_frame_pair(teal_collision_filter *f, int frame_a, int frame_b) {
  if (!f) {
    return TEAL_EINVAL;
  }
  for (int a = 0; a < f->n; a++) {
    for (int b = 0; b < f->n && f->frame[a] == frame_a; b++) {
      if (a != b && f->frame[b] == frame_b) {
        teal_collision_filter_exclude_pair(f, a, b, 1);
      }
    }
  }
  return TEAL_OK;
}

int teal_collision_filter_set_group(teal_collision_filter *f, int g, uint32_t group,
                                    uint32_t mask) {
  if (!f || g < 0 || g >= f->n) {
    return TEAL_EINVAL;
  }
  f->group[g] = group;
  f->mask[g] = mask;
  return TEAL_OK;
}

int teal_collision_filter_allows(const teal_collision_filter *f, int a, int b) {
  if (!pair_ok(f, a, b) || f->frame[a] == f->frame[b]) {
    return 0;
  }
  if (!(f->group[a] & f->mask[b]) || !(f->group[b] & f->mask[a])) {
    return 0;
  }
  size_t k = pair_bit(a, b);
  return !(f->excluded[k / 8] & (1u << (k % 8)));
}
