#include "framework/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"

static void *default_alloc(size_t size, void *user) {
  (void)user;
  return malloc(size ? size : 1);
}

static void default_free(void *ptr, void *user) {
  (void)user;
  free(ptr);
}

static teal_allocator g_allocator = {default_alloc, default_free, NULL};
static unsigned long g_alloc_count;

int teal_set_allocator(const teal_allocator *allocator) {
  if (!allocator) {
    g_allocator.alloc_fn = default_alloc;
    g_allocator.free_fn = default_free;
    g_allocator.user = NULL;
    return TEAL_OK;
  }
  if (!allocator->alloc_fn || !allocator->free_fn) {
    return TEAL_EINVAL;
  }
  g_allocator = *allocator;
  return TEAL_OK;
}

void *teal_alloc(size_t size) {
  g_alloc_count++;
  return g_allocator.alloc_fn(size ? size : 1, g_allocator.user);
}

void *teal_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) {
    return NULL;
  }
  void *p = teal_alloc(n * size);
  if (p) {
    memset(p, 0, n * size);
  }
  return p;
}

void teal_free(void *ptr) {
  if (ptr) {
    g_allocator.free_fn(ptr, g_allocator.user);
  }
}

char *teal_strdup(const char *s) {
  if (!s) {
    return NULL;
  }
  size_t n = strlen(s) + 1;
  char *d = teal_alloc(n);
  if (d) {
    memcpy(d, s, n);
  }
  return d;
}

unsigned long teal_alloc_count(void) { return g_alloc_count; }
