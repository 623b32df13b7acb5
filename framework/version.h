/** @file
 * Teal's version. CMakeLists.txt reads the three numbers below, so they are
 * the one place the version is written: the shared library's file name, the
 * pkg-config file and the CMake package all take it from here. */
#ifndef TEAL_FRAMEWORK_VERSION_H
#define TEAL_FRAMEWORK_VERSION_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The major version: 0 while the API may still change between minor
 *  versions (the shared library's SONAME is "libteal.so.<major>"). */
#define TEAL_VERSION_MAJOR 0
/** The minor version: new API, or any change while the major version is 0. */
#define TEAL_VERSION_MINOR 5
/** The patch version: fixes only. */
#define TEAL_VERSION_PATCH 0

/** The version of the headers a program was compiled with, as one number
 *  (10000 major + 100 minor + patch) to compare with teal_version_number(). */
#define TEAL_VERSION_NUMBER \
  (10000 * TEAL_VERSION_MAJOR + 100 * TEAL_VERSION_MINOR + TEAL_VERSION_PATCH)

/** The version of the library a program runs with, "major.minor.patch". */
TEAL_API const char *teal_version(void);

/** The same as one number (10000 major + 100 minor + patch). A program can
 *  check that the library it loaded matches its headers:
 *  teal_version_number() == TEAL_VERSION_NUMBER. */
TEAL_API int teal_version_number(void);

#ifdef __cplusplus
}
#endif
#endif
