/* Helpers shared by the URDF tests: finding the shipped models and reading
 * files.
 *
 * The models live in <source>/models/, which CMake passes to every test as
 * TEAL_MODELS_DIR; if that file cannot be opened (a relocated build),
 * models/, ../models/ and ../../models/ relative to the working directory
 * are tried in turn. */
#ifndef TEAL_TESTS_MULTIBODY_PARSING_URDF_MODELS_H
#define TEAL_TESTS_MULTIBODY_PARSING_URDF_MODELS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 if path can be opened for reading. */
static inline int urdf_test_readable(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) {
    fclose(f);
  }
  return f != NULL;
}

/* Writes the path of models/<name> into buf; returns buf. */
static inline const char *urdf_test_model_path(const char *name, char *buf, size_t size) {
#ifdef TEAL_MODELS_DIR
  snprintf(buf, size, "%s/%s", TEAL_MODELS_DIR, name);
  if (urdf_test_readable(buf)) {
    return buf;
  }
#endif
  static const char *const dirs[] = {"models/", "../models/", "../../models/"};
  for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
    snprintf(buf, size, "%s%s", dirs[i], name);
    if (urdf_test_readable(buf)) {
      return buf;
    }
  }
  return buf;
}

/* The whole file as a malloc'd NUL-terminated string (NULL on failure). */
static inline char *urdf_test_read(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *s = malloc(cap + 1);
  while (s) {
    size_t got = fread(s + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      break;
    }
    if (n == cap) {
      char *t = realloc(s, 2 * cap + 1);
      if (!t) {
        free(s);
        s = NULL;
      }
      s = t;
      cap *= 2;
    }
  }
  fclose(f);
  if (s) {
    s[n] = '\0';
    if (len) {
      *len = n;
    }
  }
  return s;
}

/* models/<name> read whole (urdf_test_read; NULL on failure). */
static inline char *urdf_test_read_model(const char *name, size_t *len) {
  char path[2048];
  return urdf_test_read(urdf_test_model_path(name, path, sizeof path), len);
}

#endif
