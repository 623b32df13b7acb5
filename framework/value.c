#include "framework/value.h"

#include <string.h>

#include "framework/error.h"

int teal_value_type_equal(const teal_value_type *a, const teal_value_type *b) {
  if (a == b) {
    return 1;
  }
  if (!a || !b || !a->name || !b->name) {
    return 0;
  }
  return a->size == b->size && strcmp(a->name, b->name) == 0;
}

int teal_value_init(const teal_value_type *type, void *dst) {
  memset(dst, 0, type->size);
  return type->init ? type->init(dst) : TEAL_OK;
}

int teal_value_copy(const teal_value_type *type, void *dst, const void *src) {
  if (dst == src) {
    return TEAL_OK;
  }
  if (type->copy) {
    return type->copy(dst, src);
  }
  memcpy(dst, src, type->size);
  return TEAL_OK;
}

void teal_value_release(const teal_value_type *type, void *value) {
  if (type->free && value) {
    type->free(value);
  }
}
