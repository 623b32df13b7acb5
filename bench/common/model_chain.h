/* The chain of n links the model benchmarks load (bench_model_scale,
 * bench_model_formats), written as a model document: 1 kg links with a
 * 0.1 m solid-sphere inertia, each hinged about +y 0.1 m below the one
 * before, with limits. One writer serves every format: a format gives its
 * text around the links and a link and a joint template. */
#ifndef TEAL_BENCH_COMMON_MODEL_CHAIN_H
#define TEAL_BENCH_COMMON_MODEL_CHAIN_H

#include <stddef.h>

/* How a format writes the chain. `link` is printed with (i, the frame its
 * pose is relative to: the link before, or first_link_parent for link 1),
 * `joint` with (i, parent link name or "world", i); links count from 1. */
typedef struct bench_chain_format {
  const char *head, *link, *joint, *tail;
  const char *first_link_parent;
  size_t bytes_per_link; /* an upper bound on a link and its joint */
} bench_chain_format;

/* The chain of n links in that format (malloc'd; NULL when out of memory). */
char *bench_chain_text(const bench_chain_format *format, int n);

/* The chain as URDF (about 330 bytes a link; malloc'd, NULL when out of
 * memory). */
char *bench_chain_urdf(int n);

#endif
