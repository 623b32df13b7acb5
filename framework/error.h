/** @file
 * Status codes and error records.
 *
 * Every Teal function that can fail returns an int status: TEAL_OK (0) or one
 * of the negative codes below. Objects that can fail keep a teal_error record
 * holding the first (sticky) or latest failure with a message that names the
 * system, port or file involved. */
#ifndef TEAL_FRAMEWORK_ERROR_H
#define TEAL_FRAMEWORK_ERROR_H

#include "teal_export.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes returned by Teal functions. */
enum teal_status {
  TEAL_STOP = 1,           /**< not an error: a handler or monitor asks the run to stop */
  TEAL_OK = 0,             /**< success */
  TEAL_EINVAL = -1,        /**< invalid argument or call in the wrong state */
  TEAL_ENOMEM = -2,        /**< allocation failed */
  TEAL_ESIZE = -3,         /**< size mismatch */
  TEAL_ETYPE = -4,         /**< abstract value type mismatch */
  TEAL_ENOTFOUND = -5,     /**< no object of that name or index */
  TEAL_EDUPLICATE = -6,    /**< name already in use */
  TEAL_ENOTCONNECTED = -7, /**< input port neither connected nor fixed */
  TEAL_EALGLOOP = -8,      /**< algebraic loop */
  TEAL_ESINGULAR = -9,     /**< singular or rank-deficient matrix */
  TEAL_ENONFINITE = -10,   /**< NaN or Inf encountered */
  TEAL_ESTEPSIZE = -11,    /**< step size fell below its minimum */
  TEAL_ENOCONV = -12,      /**< iteration did not converge */
  TEAL_EPARSE = -13,       /**< malformed model file */
  TEAL_EUNSUPPORTED = -14, /**< operation not provided by this system */
  TEAL_ESTATE = -15,       /**< object is in the wrong phase (e.g. finalized) */
  TEAL_ECALLBACK = -16,    /**< a user callback failed without a code */
  TEAL_EIO = -17           /**< file could not be written or read */
};

/** Longest message kept by an error record, including the terminator. */
#define TEAL_ERROR_MESSAGE_MAX 512

/** An error record: a code and a message with context. */
typedef struct teal_error {
  int code;                              /**< TEAL_OK when no error */
  char message[TEAL_ERROR_MESSAGE_MAX];  /**< empty when no error */
} teal_error;

/** Short constant description of a status code ("invalid argument", ...). */
TEAL_API const char *teal_strerror(int code);

/** Clears an error record. */
TEAL_API void teal_error_clear(teal_error *err);

/** Records code and a printf-style message; returns code. NULL err is allowed. */
TEAL_API int teal_error_set(teal_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Records only if err holds no error yet (sticky); returns the code now held. */
TEAL_API int teal_error_set_sticky(teal_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Copies src into dst (either may be NULL). */
TEAL_API void teal_error_copy(teal_error *dst, const teal_error *src);

#ifdef __cplusplus
}
#endif
#endif
