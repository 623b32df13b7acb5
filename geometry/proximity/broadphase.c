/* Sweep and prune (see broadphase.h). */
#include "geometry/proximity/broadphase.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"

/* A new axis must vary this much more than the current one to take over. */
static const double kAxisHysteresis = 1.2;

struct teal_broadphase {
  int n;
  int sorted; /* order is sorted along stats.axis (from the last call) */
  int *order;  /* geometry indices sorted by key, kept between calls */
  double *key; /* lower end of each box along the sweep axis */
  teal_broadphase_stats stats;
};

void teal_broadphase_free(teal_broadphase *bp) {
  if (!bp) {
    return;
  }
  teal_free(bp->order);
  teal_free(bp->key);
  teal_free(bp);
}

teal_broadphase *teal_broadphase_new(int n, teal_error *err) {
  if (n < 0) {
    teal_error_set(err, TEAL_EINVAL, "broadphase: negative size %d", n);
    return NULL;
  }
  size_t m = n > 0 ? (size_t)n : 1;
  teal_broadphase *bp = teal_calloc(1, sizeof(*bp));
  if (bp) {
    bp->order = teal_calloc(m, sizeof(int));
    bp->key = teal_calloc(m, sizeof(double));
  }
  if (!bp || !bp->order || !bp->key) {
    teal_broadphase_free(bp);
    teal_error_set(err, TEAL_ENOMEM, "broadphase: out of memory for %d geometries", n);
    return NULL;
  }
  bp->n = n;
  for (int i = 0; i < n; i++) {
    bp->order[i] = i;
  }
  return bp;
}

const teal_broadphase_stats *teal_broadphase_get_stats(const teal_broadphase *bp) {
  return bp ? &bp->stats : NULL;
}

/* The axis of largest variance of the bounded boxes' centres, keeping the
 * current one unless another beats it clearly. */
static int choose_axis(const teal_aabb *boxes, int n, int current) {
  double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0}, var[3];
  int count = 0;
  for (int g = 0; g < n; g++) {
    if (teal_aabb_is_unbounded(&boxes[g])) {
      continue;
    }
    count++;
    for (int i = 0; i < 3; i++) {
      double c = 0.5 * (boxes[g].lo.v[i] + boxes[g].hi.v[i]);
      sum[i] += c;
      sum2[i] += c * c;
    }
  }
  for (int i = 0; i < 3; i++) {
    var[i] = count ? sum2[i] / count - (sum[i] / count) * (sum[i] / count) : 0.0;
  }
  int best = var[0] >= var[1] ? (var[0] >= var[2] ? 0 : 2) : (var[1] >= var[2] ? 1 : 2);
  return var[best] > kAxisHysteresis * var[current] ? best : current;
}

/* Moves order[i] down the max-heap order[0..n) (by key) to its place. */
static long sift_down(int *order, const double *key, int i, int n) {
  long moves = 0;
  for (int child = 2 * i + 1; child < n; child = 2 * i + 1) {
    if (child + 1 < n && key[order[child + 1]] > key[order[child]]) {
      child++;
    }
    if (!(key[order[child]] > key[order[i]])) {
      break;
    }
    int tmp = order[i];
    order[i] = order[child];
    order[child] = tmp;
    i = child;
    moves++;
  }
  return moves;
}

/* Heapsort of order by key (O(n log n) whatever the start): for the first
 * call and after the sweep axis changes, when the old order is no help. */
static long heap_sort(int *order, const double *key, int n) {
  long moves = 0;
  for (int i = n / 2 - 1; i >= 0; i--) {
    moves += sift_down(order, key, i, n);
  }
  for (int end = n - 1; end > 0; end--) {
    int tmp = order[0];
    order[0] = order[end];
    order[end] = tmp;
    moves += 1 + sift_down(order, key, 0, end);
  }
  return moves;
}

/* Insertion sort of order by key, from the previous order; counts moves. */
static long insertion_sort(int *order, const double *key, int n) {
  long moves = 0;
  for (int i = 1; i < n; i++) {
    int g = order[i], j = i - 1;
    double k = key[g];
    while (j >= 0 && key[order[j]] > k) {
      order[j + 1] = order[j];
      j--;
      moves++;
    }
    order[j + 1] = g;
  }
  return moves;
}

static int boxes_are_valid(const teal_aabb *boxes, int n) {
  for (int g = 0; g < n; g++) {
    for (int i = 0; i < 3; i++) {
      if (isnan(boxes[g].lo.v[i]) || isnan(boxes[g].hi.v[i])) {
        return 0;
      }
    }
  }
  return 1;
}

/* Records the pair (a, b) when the filter allows it. */
static void emit(teal_broadphase *bp, int a, int b, const teal_collision_filter *filter,
                 teal_geometry_pair *pairs, int capacity) {
  if (filter && !teal_collision_filter_allows(filter, a, b)) {
    return;
  }
  int k = bp->stats.num_pairs++;
  if (k < capacity) {
    pairs[k].a = a < b ? a : b;
    pairs[k].b = a < b ? b : a;
  } else {
    bp->stats.overflow++;
  }
}

/* The sweep: each box against the boxes that start before it ends. */
static void sweep(teal_broadphase *bp, const teal_aabb *boxes, const teal_collision_filter *filter,
                  teal_geometry_pair *pairs, int capacity) {
  int axis = bp->stats.axis;
  for (int i = 0; i < bp->n; i++) {
    const teal_aabb *bi = &boxes[bp->order[i]];
    for (int j = i + 1; j < bp->n && bp->key[bp->order[j]] <= bi->hi.v[axis]; j++) {
      bp->stats.box_tests++;
      if (teal_aabb_overlap(bi, &boxes[bp->order[j]])) {
        emit(bp, bp->order[i], bp->order[j], filter, pairs, capacity);
      }
    }
  }
}

int teal_broadphase_find_pairs(teal_broadphase *bp, const teal_aabb *boxes,
                               const teal_collision_filter *filter, teal_geometry_pair *pairs,
                               int capacity, int *num_stored) {
  if (!bp || (!boxes && bp->n > 0) || capacity < 0 || (capacity > 0 && !pairs) || !num_stored) {
    return TEAL_EINVAL;
  }
  if (filter && teal_collision_filter_size(filter) != bp->n) {
    return TEAL_ESIZE;
  }
  if (!boxes_are_valid(boxes, bp->n)) {
    return TEAL_ENONFINITE;
  }
  teal_broadphase_stats *s = &bp->stats;
  int axis = choose_axis(boxes, bp->n, s->axis);
  int coherent = bp->sorted && axis == s->axis;
  s->axis = axis;
  s->sort_moves = s->box_tests = 0;
  s->num_pairs = s->overflow = 0;
  for (int g = 0; g < bp->n; g++) {
    bp->key[g] = boxes[g].lo.v[s->axis];
  }
  s->sort_moves = coherent ? insertion_sort(bp->order, bp->key, bp->n)
                           : heap_sort(bp->order, bp->key, bp->n);
  bp->sorted = 1;
  sweep(bp, boxes, filter, pairs, capacity);
  s->overflow_total += (unsigned long)s->overflow;
  *num_stored = s->num_pairs < capacity ? s->num_pairs : capacity;
  return TEAL_OK;
}
