/** @file
 * TEAL_API marks the declarations that make up Teal's public API: the
 * shared library is built with -fvisibility=hidden and exports only these
 * (scripts/check_exports.sh holds it to that). */
#ifndef TEAL_EXPORT_H
#define TEAL_EXPORT_H

/** @def TEAL_API
 *  Marks a declaration as exported from the shared library: default
 *  visibility with GCC and Clang, nothing with other compilers. */
#if defined(__GNUC__) || defined(__clang__)
#define TEAL_API __attribute__((visibility("default")))
#else
#define TEAL_API
#endif

#endif
