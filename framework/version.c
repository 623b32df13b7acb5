/* Teal's version (see version.h). */
#include "framework/version.h"

#define TEAL_STRINGIFY_(x) #x
#define TEAL_STRINGIFY(x) TEAL_STRINGIFY_(x)

const char *teal_version(void) {
  return TEAL_STRINGIFY(TEAL_VERSION_MAJOR) "." TEAL_STRINGIFY(
      TEAL_VERSION_MINOR) "." TEAL_STRINGIFY(TEAL_VERSION_PATCH);
}

int teal_version_number(void) {
  return TEAL_VERSION_NUMBER;
}
