/* Vector log sink: publish handlers append (t, data) to a growable log
 * kept in a per-context scratch value; a CSV writer for logs. */
#include "systems/primitives/vector_log_sink.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"
#include "framework/value.h"

enum { LOG_SCRATCH = 0, LOG_MIN_CAPACITY = 16 };

static const char k_kind[] = "vector_log_sink";

/* ---- the log as a value ------------------------------------------------ */

static void log_release(teal_vector_log *log) {
  teal_free(log->times);
  teal_free(log->data);
  log->times = log->data = NULL;
  log->count = log->capacity = 0;
}

/* Moves log to buffers of `capacity` samples of log->size values, keeping
 * its samples (capacity >= count). */
static int log_resize(teal_vector_log *log, int capacity) {
  size_t width = log->size > 0 ? (size_t)log->size : 1;
  if ((size_t)capacity > SIZE_MAX / sizeof(double) / width) {
    return TEAL_ESIZE;
  }
  double *times = teal_alloc((size_t)capacity * sizeof *times);
  double *data = teal_alloc((size_t)capacity * width * sizeof *data);
  if (!times || !data) {
    teal_free(times);
    teal_free(data);
    return TEAL_ENOMEM;
  }
  if (log->count > 0) {
    memcpy(times, log->times, (size_t)log->count * sizeof *times);
    memcpy(data, log->data, (size_t)log->count * (size_t)log->size * sizeof *data);
  }
  teal_free(log->times);
  teal_free(log->data);
  log->times = times;
  log->data = data;
  log->capacity = capacity;
  return TEAL_OK;
}

static int log_init(void *dst) {
  memset(dst, 0, sizeof(teal_vector_log));
  return TEAL_OK;
}

/* Deep copy; allocates only when dst lacks room for src's samples, and
 * then gives dst src's capacity. Widths are equal or one of them is still
 * 0 (a log whose width was not filled in yet holds nothing). */
static int log_copy(void *dst, const void *src) {
  teal_vector_log *d = dst;
  const teal_vector_log *s = src;
  if (s->size != 0) {
    d->size = s->size;
  }
  if (d->capacity < s->count) {
    log_release(d);
    int rc = log_resize(d, s->capacity);
    if (rc) {
      return rc;
    }
  }
  d->count = s->count;
  if (s->count > 0) {
    memcpy(d->times, s->times, (size_t)s->count * sizeof *d->times);
    memcpy(d->data, s->data, (size_t)s->count * (size_t)s->size * sizeof *d->data);
  }
  return TEAL_OK;
}

static void log_free(void *value) { log_release(value); }

static const teal_value_type log_type = {"teal_vector_log", sizeof(teal_vector_log), log_init,
                                         log_copy, log_free};

/* Capacity after growing a full log: doubling, at least LOG_MIN_CAPACITY. */
static int grown_capacity(int capacity) {
  if (capacity < LOG_MIN_CAPACITY) {
    return LOG_MIN_CAPACITY;
  }
  return capacity > INT_MAX / 2 ? INT_MAX : 2 * capacity;
}

/* Appends (t, x), or overwrites the last sample when it has time t. */
static int log_record(teal_vector_log *log, double t, const double *x) {
  size_t bytes = (size_t)log->size * sizeof *x;
  if (log->count > 0 && log->times[log->count - 1] == t) {
    memcpy(log->data + (size_t)(log->count - 1) * (size_t)log->size, x, bytes);
    return TEAL_OK;
  }
  if (log->count == log->capacity) {
    if (log->capacity == INT_MAX) {
      return TEAL_ESIZE;
    }
    int rc = log_resize(log, grown_capacity(log->capacity));
    if (rc) {
      return rc;
    }
  }
  log->times[log->count] = t;
  memcpy(log->data + (size_t)log->count * (size_t)log->size, x, bytes);
  log->count++;
  return TEAL_OK;
}

/* ---- the system -------------------------------------------------------- */

/* The log in a sink's own context. */
static teal_vector_log *own_log(const teal_system *sys, const teal_context *own) {
  (void)sys;
  return teal_context_scratch_mut(own, LOG_SCRATCH);
}

static int sink_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  const double *x;
  int rc = teal_eval_vector_input(sys, ctx, 0, &x);
  if (rc) {
    return rc;
  }
  teal_vector_log *log = own_log(sys, ctx);
  if (!log) {
    return TEAL_EINVAL;
  }
  rc = log_record(log, teal_context_time(ctx), x);
  if (rc) {
    return teal_context_report_error(ctx, rc, "%s '%s': cannot record sample %d: %s", k_kind,
                                     teal_system_name(sys), log->count, teal_strerror(rc));
  }
  return TEAL_OK;
}

teal_system *teal_vector_log_sink_new(const char *name, int n, double publish_period,
                                      teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      teal_leaf_util_check_scalar(err, k_kind, name, "publish_period", publish_period)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  if (sys) {
    teal_leaf_declare_vector_input(sys, "data", n);
    teal_vector_log model;
    memset(&model, 0, sizeof model);
    model.size = n; /* every context's log starts empty with this width */
    teal_leaf_declare_scratch(sys, "log", &log_type, &model);
    if (publish_period > 0) {
      teal_leaf_declare_periodic_publish(sys, publish_period, 0.0, sink_publish, NULL);
    } else {
      teal_leaf_declare_per_step_publish(sys, sink_publish, NULL);
    }
    teal_leaf_declare_forced_publish(sys, sink_publish, NULL);
    teal_leaf_declare_initialization_publish(sys, sink_publish, NULL);
  }
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

/* The log of sink sys found from ctx (its own context or an ancestor's);
 * NULL with *status set when sys is not a sink or not in ctx. */
static teal_vector_log *find_log(const teal_system *sys, const teal_context *ctx, int *status) {
  const teal_context *own = teal_leaf_util_own_context(sys, k_kind, ctx, status);
  return own ? own_log(sys, own) : NULL;
}

const teal_vector_log *teal_vector_log_sink_log(const teal_system *sys,
                                                const teal_context *ctx) {
  return find_log(sys, ctx, NULL);
}

int teal_vector_log_sink_clear(const teal_system *sys, teal_context *ctx) {
  int rc;
  teal_vector_log *log = find_log(sys, ctx, &rc);
  if (!log) {
    return teal_leaf_util_bad_call(sys, ctx, rc, k_kind, "a vector log sink", "clear", "");
  }
  log->count = 0;
  return TEAL_OK;
}

int teal_vector_log_sink_reserve(const teal_system *sys, teal_context *ctx, int capacity) {
  int rc;
  teal_vector_log *log = find_log(sys, ctx, &rc);
  if (!log) {
    return teal_leaf_util_bad_call(sys, ctx, rc, k_kind, "a vector log sink", "reserve", "");
  }
  if (capacity < 0) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s '%s': capacity %d < 0", k_kind,
                                     teal_system_name(sys), capacity);
  }
  rc = capacity > log->capacity ? log_resize(log, capacity) : TEAL_OK;
  if (rc) {
    return teal_context_report_error(ctx, rc, "%s '%s': cannot reserve %d samples: %s", k_kind,
                                     teal_system_name(sys), capacity, teal_strerror(rc));
  }
  return TEAL_OK;
}

/* ---- CSV --------------------------------------------------------------- */

/* Writes one header field, quoted when it holds a separator or quote. */
static int write_name(FILE *f, const char *name) {
  if (!strpbrk(name, ",\"\r\n")) {
    return fputs(name, f) >= 0;
  }
  int ok = fputc('"', f) != EOF;
  for (const char *c = name; ok && *c; c++) {
    ok = (*c != '"' || fputc('"', f) != EOF) && fputc(*c, f) != EOF;
  }
  return ok && fputc('"', f) != EOF;
}

static int write_header(FILE *f, const teal_vector_log *log, const char *const *names) {
  int ok = fputs("time", f) >= 0;
  for (int i = 0; ok && i < log->size; i++) {
    ok = fputc(',', f) != EOF;
    if (ok && names && names[i]) {
      ok = write_name(f, names[i]);
    } else if (ok) {
      ok = fprintf(f, "y%d", i) > 0;
    }
  }
  return ok && fputc('\n', f) != EOF;
}

static int write_rows(FILE *f, const teal_vector_log *log) {
  int ok = 1;
  for (int k = 0; ok && k < log->count; k++) {
    const double *row = log->data + (size_t)k * (size_t)log->size;
    ok = fprintf(f, "%.17g", log->times[k]) > 0;
    for (int i = 0; ok && i < log->size; i++) {
      ok = fprintf(f, ",%.17g", row[i]) > 0;
    }
    ok = ok && fputc('\n', f) != EOF;
  }
  return ok;
}

int teal_vector_log_write_csv(const teal_vector_log *log, const char *path,
                              const char *const *signal_names, teal_error *err) {
  if (!log || !path) {
    return teal_error_set(err, TEAL_EINVAL, "vector_log_write_csv: %s is NULL",
                          log ? "path" : "log");
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    return teal_error_set(err, TEAL_EIO, "vector_log_write_csv: cannot open '%s' for writing: "
                          "%s", path, strerror(errno));
  }
  errno = 0;
  int ok = write_header(f, log, signal_names) && write_rows(f, log) && !ferror(f);
  int saved = errno;
  if (fclose(f) != 0 && ok) {
    ok = 0;
    saved = errno;
  }
  if (!ok) {
    return teal_error_set(err, TEAL_EIO, "vector_log_write_csv: writing '%s' failed: %s", path,
                          saved ? strerror(saved) : "write error");
  }
  return TEAL_OK;
}
