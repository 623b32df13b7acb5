#include "framework/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *teal_strerror(int code) {
  switch (code) {
    case TEAL_OK:
      return "success";
    case TEAL_STOP:
      return "stop requested";
    case TEAL_EINVAL:
      return "invalid argument";
    case TEAL_ENOMEM:
      return "out of memory";
    case TEAL_ESIZE:
      return "size mismatch";
    case TEAL_ETYPE:
      return "type mismatch";
    case TEAL_ENOTFOUND:
      return "not found";
    case TEAL_EDUPLICATE:
      return "duplicate name";
    case TEAL_ENOTCONNECTED:
      return "input port not connected";
    case TEAL_EALGLOOP:
      return "algebraic loop";
    case TEAL_ESINGULAR:
      return "singular matrix";
    case TEAL_ENONFINITE:
      return "non-finite value";
    case TEAL_ESTEPSIZE:
      return "step size too small";
    case TEAL_ENOCONV:
      return "no convergence";
    case TEAL_EPARSE:
      return "parse error";
    case TEAL_EUNSUPPORTED:
      return "operation not supported";
    case TEAL_ESTATE:
      return "object in wrong state";
    case TEAL_ECALLBACK:
      return "callback failed";
    case TEAL_EIO:
      return "input/output error";
    default:
      return "unknown error";
  }
}

void teal_error_clear(teal_error *err) {
  if (err) {
    err->code = TEAL_OK;
    err->message[0] = '\0';
  }
}

static void error_vset(teal_error *err, int code, const char *fmt, va_list ap) {
  err->code = code;
  vsnprintf(err->message, sizeof err->message, fmt, ap);
}

int teal_error_set(teal_error *err, int code, const char *fmt, ...) {
  if (!err) {
    return code;
  }
  va_list ap;
  va_start(ap, fmt);
  error_vset(err, code, fmt, ap);
  va_end(ap);
  return code;
}

int teal_error_set_sticky(teal_error *err, int code, const char *fmt, ...) {
  if (!err) {
    return code;
  }
  if (err->code != TEAL_OK) {
    return err->code;
  }
  va_list ap;
  va_start(ap, fmt);
  error_vset(err, code, fmt, ap);
  va_end(ap);
  return code;
}

void teal_error_copy(teal_error *dst, const teal_error *src) {
  if (!dst) {
    return;
  }
  if (!src) {
    teal_error_clear(dst);
    return;
  }
  *dst = *src;
}
