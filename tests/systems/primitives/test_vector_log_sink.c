/* Tests of the vector log sink: declared events, periodic / per-step /
 * forced / initialization recording through the event API, one row per
 * instant, logs per context (clone and copy_from deep-copy them), access
 * from diagram contexts, clear and reserve (then no allocation while
 * recording), recording failures, CSV output read back and parsed, file
 * errors, a run on the simulator, and parameter validation. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/events.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/vector_log_sink.h"

const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define ASSERT_HAS(msg, sub)                                                            \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

static void signal_at(double t, double x[2]) {
  x[0] = sin(t);
  x[1] = 1.0 / (1.0 + t);
}

/* Sets time t and the input to signal_at(t). */
static void move_to(teal_context *ctx, double t) {
  double x[2];
  signal_at(t, x);
  ck_assert_int_eq(teal_context_set_time(ctx, t), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, x, 2), TEAL_OK);
}

/* Runs the publishes of one trigger at the current time. */
static int publish_trigger(const teal_system *sys, teal_context *ctx, teal_trigger trigger) {
  teal_event_set *set = teal_event_set_new(sys);
  int rc = teal_collect_events(sys, ctx, trigger, set);
  if (rc == TEAL_OK) {
    rc = teal_dispatch_publish(sys, ctx, set);
  }
  teal_event_set_free(set);
  return rc;
}

static void assert_row(const teal_vector_log *log, int k, double t) {
  double x[2];
  signal_at(t, x);
  ck_assert_double_eq(log->times[k], t);
  ck_assert_double_eq(log->data[2 * k], x[0]);
  ck_assert_double_eq(log->data[2 * k + 1], x[1]);
}

START_TEST(test_declared_events) {
  teal_error err;
  teal_system *sink = teal_vector_log_sink_new("log", 2, 0.1, &err);
  ck_assert_msg(sink != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(sink), 1);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(sink, 0)), "data");
  ck_assert_int_eq(teal_system_num_output_ports(sink), 0);
  teal_context *ctx = teal_context_new(sink, &err);
  teal_event_set *set = teal_event_set_new(sink);
  static const teal_trigger once[3] = {TEAL_TRIGGER_INITIALIZATION, TEAL_TRIGGER_FORCED,
                                       TEAL_TRIGGER_PERIODIC};
  for (int k = 0; k < 2; k++) {
    teal_collect_events(sink, ctx, once[k], set);
    ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 1);
  }
  teal_collect_events(sink, ctx, TEAL_TRIGGER_PER_STEP, set);
  ck_assert_int_eq(teal_event_set_size(set), 0);
  double t;
  teal_calc_next_update_time(sink, ctx, &t, set);
  ck_assert_double_eq(t, 0.1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 1);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(sink);

  /* period <= 0: per step instead of periodic */
  sink = teal_vector_log_sink_new("log", 2, 0.0, &err);
  ctx = teal_context_new(sink, &err);
  set = teal_event_set_new(sink);
  teal_collect_events(sink, ctx, TEAL_TRIGGER_PER_STEP, set);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 1);
  teal_calc_next_update_time(sink, ctx, &t, set);
  ck_assert(isinf(t));
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

START_TEST(test_periodic_recording) {
  teal_error err;
  teal_system *sink = teal_vector_log_sink_new("log", 2, 0.25, &err);
  teal_context *ctx = teal_context_new(sink, &err);
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_ptr_nonnull(log);
  ck_assert_int_eq(log->size, 2);
  ck_assert_int_eq(log->count, 0);
  teal_event_set *set = teal_event_set_new(sink);
  teal_context_set_time(ctx, -1e-9);
  for (int k = 0; k < 9; k++) {
    double t;
    ck_assert_int_eq(teal_calc_next_update_time(sink, ctx, &t, set), TEAL_OK);
    ck_assert_double_eq_tol(t, 0.25 * k, 1e-12);
    move_to(ctx, t);
    ck_assert_int_eq(teal_dispatch_publish(sink, ctx, set), TEAL_OK);
  }
  log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(log->count, 9);
  for (int k = 0; k < 9; k++) {
    assert_row(log, k, log->times[k]);
    ck_assert_double_eq_tol(log->times[k], 0.25 * k, 1e-12);
  }
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

START_TEST(test_per_step_forced_and_initialization) {
  teal_error err;
  teal_system *sink = teal_vector_log_sink_new("log", 2, -1.0, &err);
  teal_context *ctx = teal_context_new(sink, &err);
  move_to(ctx, 0.0);
  ck_assert_int_eq(publish_trigger(sink, ctx, TEAL_TRIGGER_INITIALIZATION), TEAL_OK);
  ck_assert_int_eq(publish_trigger(sink, ctx, TEAL_TRIGGER_PER_STEP), TEAL_OK);
  /* both at t = 0: one row */
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(log->count, 1);
  assert_row(log, 0, 0.0);
  static const double steps[4] = {0.013, 0.2, 0.2001, 1.7};
  for (int k = 0; k < 4; k++) {
    move_to(ctx, steps[k]);
    ck_assert_int_eq(publish_trigger(sink, ctx, TEAL_TRIGGER_PER_STEP), TEAL_OK);
  }
  move_to(ctx, 2.5);
  ck_assert_int_eq(teal_force_publish(sink, ctx), TEAL_OK);
  log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(log->count, 6);
  for (int k = 0; k < 4; k++) {
    assert_row(log, k + 1, steps[k]);
  }
  assert_row(log, 5, 2.5);
  /* a second record at the same instant replaces the row with the latest */
  double x[2] = {42.0, -42.0};
  teal_context_fix_input(ctx, 0, x, 2);
  ck_assert_int_eq(teal_force_publish(sink, ctx), TEAL_OK);
  log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(log->count, 6);
  ck_assert_double_eq(log->data[11], -42.0);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

START_TEST(test_unconnected_input_fails_cleanly) {
  teal_error err;
  teal_system *sink = teal_vector_log_sink_new("log", 2, 0.0, &err);
  teal_context *ctx = teal_context_new(sink, &err);
  ck_assert_int_eq(teal_force_publish(sink, ctx), TEAL_ENOTCONNECTED);
  ck_assert_int_eq(teal_vector_log_sink_log(sink, ctx)->count, 0);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

/* constant -> sink inside a diagram; the log is reachable from the root. */
START_TEST(test_log_in_a_diagram_and_per_context) {
  teal_error err;
  const double value[3] = {1.5, -2.0, 0.25};
  teal_builder *b = teal_builder_new("d");
  teal_builder_add(b, ts_constant_new("c", 3, value));
  teal_system *sink = teal_builder_add(b, teal_vector_log_sink_new("log", 3, 0.5, &err));
  teal_builder_connect_by_name(b, "c", "y", "log", "data");
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(d, &err);
  teal_context *other = teal_context_new(d, &err);
  for (int k = 0; k < 3; k++) {
    teal_context_set_time(ctx, k * 0.5);
    ck_assert_int_eq(teal_force_publish(d, ctx), TEAL_OK);
  }
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_ptr_eq(log, teal_vector_log_sink_log(sink, teal_context_subcontext(ctx, sink)));
  ck_assert_int_eq(log->count, 3);
  ck_assert_int_eq(log->size, 3);
  ck_assert_double_eq(log->times[2], 1.0);
  ck_assert_double_eq(log->data[2 * 3 + 1], -2.0);
  /* another context has its own, empty log */
  ck_assert_int_eq(teal_vector_log_sink_log(sink, other)->count, 0);

  /* clone deep-copies the log */
  teal_context *copy = teal_context_clone(ctx, &err);
  ck_assert_ptr_nonnull(copy);
  const teal_vector_log *clog = teal_vector_log_sink_log(sink, copy);
  ck_assert_int_eq(clog->count, 3);
  ck_assert_ptr_ne(clog->data, log->data);
  ck_assert_double_eq(clog->data[8], 0.25);
  teal_context_set_time(ctx, 7.0);
  teal_force_publish(d, ctx);
  ck_assert_int_eq(teal_vector_log_sink_log(sink, ctx)->count, 4);
  ck_assert_int_eq(clog->count, 3);
  /* copy_from replaces the destination's log */
  ck_assert_int_eq(teal_context_copy_from(other, ctx), TEAL_OK);
  ck_assert_int_eq(teal_vector_log_sink_log(sink, other)->count, 4);
  ck_assert_double_eq(teal_vector_log_sink_log(sink, other)->times[3], 7.0);

  /* a system that is not in the context */
  teal_system *stray = teal_vector_log_sink_new("stray", 3, 0.5, &err);
  ck_assert_ptr_null(teal_vector_log_sink_log(stray, ctx));
  ck_assert_int_eq(teal_vector_log_sink_clear(stray, ctx), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_vector_log_sink_reserve(stray, ctx, 4), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_vector_log_sink_clear(NULL, ctx), TEAL_EINVAL);
  const teal_system *constant = teal_diagram_find_subsystem(d, "c");
  ck_assert_ptr_null(teal_vector_log_sink_log(constant, ctx)); /* not a log sink */
  ck_assert_int_eq(teal_vector_log_sink_clear(constant, ctx), TEAL_EINVAL);
  ck_assert_int_eq(teal_vector_log_sink_reserve(constant, ctx, 3), TEAL_EINVAL);
  ck_assert_ptr_null(teal_vector_log_sink_log(sink, NULL));
  teal_system_free(stray);
  teal_context_free(copy);
  teal_context_free(other);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_clear_and_reserve) {
  enum { COUNT = 1000 };
  teal_error err;
  teal_system *sink = teal_vector_log_sink_new("log", 2, 0.0, &err);
  teal_context *ctx = teal_context_new(sink, &err);
  teal_event_set *set = teal_event_set_new(sink);
  teal_collect_events(sink, ctx, TEAL_TRIGGER_PER_STEP, set);
  ck_assert_int_eq(teal_vector_log_sink_reserve(sink, ctx, COUNT), TEAL_OK);
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_ge(log->capacity, COUNT);
  move_to(ctx, 0.0); /* fix_input may allocate its slot; do it before counting */

  ts_alloc_install();
  for (int k = 0; k < COUNT; k++) {
    move_to(ctx, 0.001 * k);
    ck_assert_int_eq(teal_dispatch_publish(sink, ctx, set), TEAL_OK);
  }
  ck_assert_int_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(log->count, COUNT);
  assert_row(log, COUNT - 1, log->times[COUNT - 1]);

  /* clear keeps the capacity: a second run allocates nothing either */
  int capacity = log->capacity;
  ck_assert_int_eq(teal_vector_log_sink_clear(sink, ctx), TEAL_OK);
  ck_assert_int_eq(log->count, 0);
  ck_assert_int_eq(log->capacity, capacity);
  ts_alloc_install();
  for (int k = 0; k < COUNT; k++) {
    move_to(ctx, 0.001 * k);
    teal_dispatch_publish(sink, ctx, set);
  }
  ck_assert_int_eq(ts_alloc_allocs(), 0);
  /* one more sample than reserved grows the log (and keeps the samples) */
  move_to(ctx, 5.0);
  ck_assert_int_eq(teal_dispatch_publish(sink, ctx, set), TEAL_OK);
  ck_assert_int_gt(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(log->count, COUNT + 1);
  assert_row(log, 500, 0.5);
  assert_row(log, COUNT, 5.0);

  /* reserving less than there is changes nothing; negative is refused */
  ck_assert_int_eq(teal_vector_log_sink_reserve(sink, ctx, 3), TEAL_OK);
  ck_assert_int_eq(log->count, COUNT + 1);
  ck_assert_int_eq(teal_vector_log_sink_reserve(sink, ctx, -1), TEAL_EINVAL);
  ASSERT_HAS(teal_context_error(ctx)->message, "'log'");
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

START_TEST(test_recording_out_of_memory) {
  teal_error err;
  teal_system *sink = teal_vector_log_sink_new("mem", 2, 0.0, &err);
  teal_context *ctx = teal_context_new(sink, &err);
  move_to(ctx, 0.0);
  ck_assert_int_eq(teal_force_publish(sink, ctx), TEAL_OK);
  int capacity = teal_vector_log_sink_log(sink, ctx)->capacity;
  for (int k = 1; k < capacity; k++) {
    move_to(ctx, k);
    teal_force_publish(sink, ctx);
  }
  move_to(ctx, 1000.0);
  ts_alloc_install();
  ts_alloc_fail_after(0, 1);
  ck_assert_int_eq(teal_force_publish(sink, ctx), TEAL_ENOMEM);
  ts_alloc_uninstall();
  ASSERT_HAS(teal_context_error(ctx)->message, "'mem'");
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(log->count, capacity);
  assert_row(log, capacity - 1, capacity - 1.0);
  ts_alloc_install();
  ts_alloc_fail_after(0, 1);
  ck_assert_int_eq(teal_vector_log_sink_reserve(sink, ctx, 4 * capacity), TEAL_ENOMEM);
  ts_alloc_uninstall();
  ck_assert_int_eq(log->capacity, capacity);
  ck_assert_int_eq(log->count, capacity);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

/* ---- CSV --------------------------------------------------------------- */

static char g_dir[64];

static void make_dir(void) {
  strcpy(g_dir, "/tmp/teal_log_sink_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

/* Reads a whole small file into buf. */
static size_t read_file(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  size_t n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  fclose(f);
  return n;
}

/* A log with awkward values, recorded through forced publishes. */
static teal_system *awkward_log(teal_context **ctx_out) {
  static const double times[4] = {0.0, 0.1, 1.0 / 3.0, 12345.678};
  static const double values[8] = {3.141592653589793, -1e-300, 1e300, 0.1,
                                   -0.0, 2.0 / 3.0, 123456789.123456789, -7.0};
  teal_system *sink = teal_vector_log_sink_new("log", 2, 0.0, NULL);
  teal_context *ctx = teal_context_new(sink, NULL);
  for (int k = 0; k < 4; k++) {
    teal_context_set_time(ctx, times[k]);
    teal_context_fix_input(ctx, 0, values + 2 * k, 2);
    ck_assert_int_eq(teal_force_publish(sink, ctx), TEAL_OK);
  }
  *ctx_out = ctx;
  return sink;
}

START_TEST(test_csv_round_trip) {
  make_dir();
  teal_context *ctx;
  teal_system *sink = awkward_log(&ctx);
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  char path[128];
  snprintf(path, sizeof path, "%s/log.csv", g_dir);
  const char *names[2] = {"angle", "rate, \"filtered\""};
  teal_error err;
  ck_assert_int_eq(teal_vector_log_write_csv(log, path, names, &err), TEAL_OK);

  char text[4096];
  read_file(path, text, sizeof text);
  char *save = NULL;
  char *line = strtok_r(text, "\n", &save);
  ck_assert_str_eq(line, "time,angle,\"rate, \"\"filtered\"\"\"");
  int rows = 0;
  while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
    ck_assert_int_lt(rows, log->count);
    char *p = line, *end;
    double t = strtod(p, &end);
    ck_assert_double_eq(t, log->times[rows]);
    for (int i = 0; i < 2; i++) {
      ck_assert_int_eq(*end, ',');
      p = end + 1;
      double v = strtod(p, &end);
      ck_assert_double_eq(v, log->data[2 * rows + i]); /* exact: %.17g round-trips */
      ck_assert_int_eq(signbit(v) != 0, signbit(log->data[2 * rows + i]) != 0);
    }
    ck_assert_int_eq(*end, '\0');
    rows++;
  }
  ck_assert_int_eq(rows, 4);
  remove(path);
  rmdir(g_dir);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

START_TEST(test_csv_default_names_and_empty_log) {
  make_dir();
  char path[128];
  snprintf(path, sizeof path, "%s/empty.csv", g_dir);
  teal_system *sink = teal_vector_log_sink_new("log", 3, 0.1, NULL);
  teal_context *ctx = teal_context_new(sink, NULL);
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  ck_assert_int_eq(teal_vector_log_write_csv(log, path, NULL, NULL), TEAL_OK);
  char text[256];
  read_file(path, text, sizeof text);
  ck_assert_str_eq(text, "time,y0,y1,y2\n");
  /* one row, a NULL name (default), infinity and integers */
  double x[3] = {-INFINITY, 2.0, -0.5};
  teal_context_set_time(ctx, 0.5);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, x, 3), TEAL_OK);
  ck_assert_int_eq(teal_force_publish(sink, ctx), TEAL_OK);
  const char *names[3] = {"a", NULL, "c"};
  ck_assert_int_eq(teal_vector_log_write_csv(log, path, names, NULL), TEAL_OK);
  read_file(path, text, sizeof text);
  ck_assert_str_eq(text, "time,a,y1,c\n0.5,-inf,2,-0.5\n");
  remove(path);
  rmdir(g_dir);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

START_TEST(test_csv_file_errors) {
  teal_context *ctx;
  teal_system *sink = awkward_log(&ctx);
  const teal_vector_log *log = teal_vector_log_sink_log(sink, ctx);
  teal_error err;
  const char *bad = "/nonexistent_teal_dir/sub/log.csv";
  ck_assert_int_eq(teal_vector_log_write_csv(log, bad, NULL, &err), TEAL_EIO);
  ck_assert_int_eq(err.code, TEAL_EIO);
  ASSERT_HAS(err.message, bad);
  ck_assert_int_eq(teal_vector_log_write_csv(log, bad, NULL, NULL), TEAL_EIO);
  if (access("/dev/full", W_OK) == 0) {
    ck_assert_int_eq(teal_vector_log_write_csv(log, "/dev/full", NULL, &err), TEAL_EIO);
    ASSERT_HAS(err.message, "/dev/full");
  }
  ck_assert_int_eq(teal_vector_log_write_csv(NULL, "/tmp/x.csv", NULL, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_vector_log_write_csv(log, NULL, NULL, &err), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(sink);
}
END_TEST

/* ---- on the simulator -------------------------------------------------- */

/* integrator(u = 1) -> sink; x(t) = t. */
static teal_system *ramp_diagram(double period, teal_system **sink) {
  teal_error err;
  const double one = 1.0;
  teal_builder *b = teal_builder_new("ramp");
  teal_builder_add(b, ts_constant_new("one", 1, &one));
  teal_builder_add(b, ts_integrator_new("x", 1, NULL));
  *sink = teal_builder_add(b, teal_vector_log_sink_new("log", 1, period, &err));
  teal_builder_connect_by_name(b, "one", "y", "x", "u");
  teal_builder_connect_by_name(b, "x", "y", "log", "data");
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

START_TEST(test_simulator_periodic_run) {
  teal_system *sink;
  teal_system *d = ramp_diagram(0.25, &sink);
  teal_error err;
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  ck_assert_msg(sim != NULL, "%s", err.message);
  ck_assert_int_eq(teal_simulator_advance_to(sim, 1.0, NULL), TEAL_OK);
  const teal_vector_log *log = teal_vector_log_sink_log(sink, teal_simulator_context(sim));
  /* initialization and the t = 0 sample share a row */
  ck_assert_int_eq(log->count, 5);
  for (int k = 0; k < 5; k++) {
    ck_assert_double_eq_tol(log->times[k], 0.25 * k, 1e-12);
    ck_assert_double_eq_tol(log->data[k], 0.25 * k, 1e-9);
  }
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

START_TEST(test_simulator_per_step_run) {
  teal_system *sink;
  teal_system *d = ramp_diagram(0.0, &sink);
  teal_error err;
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  teal_simulator_set_publish_every_step(sim, 1); /* forced publishes too */
  ck_assert_int_eq(teal_simulator_advance_to(sim, 1.0, NULL), TEAL_OK);
  const teal_vector_log *log = teal_vector_log_sink_log(sink, teal_simulator_context(sim));
  teal_sim_stats stats = teal_simulator_get_stats(sim);
  ck_assert_int_eq(log->count, stats.steps + 1); /* the start, then one per step */
  ck_assert_double_eq(log->times[0], 0.0);
  ck_assert_double_eq_tol(log->times[log->count - 1], 1.0, 1e-12);
  for (int k = 1; k < log->count; k++) {
    ck_assert_double_gt(log->times[k], log->times[k - 1]);
    ck_assert_double_eq_tol(log->data[k], log->times[k], 1e-9);
  }
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

/* The constructor under the allocation-failure sweep. */
static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_vector_log_sink_new("oom", 2, 0.1, err);
}

START_TEST(test_bad_parameters) {
  teal_error err;
  ck_assert_ptr_null(teal_vector_log_sink_new("s1", 0, 0.1, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "'s1'");
  ck_assert_ptr_null(teal_vector_log_sink_new("s2", 1, NAN, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "'s2'");
  ASSERT_HAS(err.message, "publish_period");
  ck_assert_ptr_null(teal_vector_log_sink_new("s3", 1, INFINITY, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ck_assert_ptr_null(teal_vector_log_sink_new("s/4", 1, 0.1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "s/4");
  ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 2);
}
END_TEST

static Suite *sink_suite(void) {
  Suite *s = suite_create("vector_log_sink");
  TCase *tc = tcase_create("recording");
  tcase_add_test(tc, test_declared_events);
  tcase_add_test(tc, test_periodic_recording);
  tcase_add_test(tc, test_per_step_forced_and_initialization);
  tcase_add_test(tc, test_unconnected_input_fails_cleanly);
  tcase_add_test(tc, test_log_in_a_diagram_and_per_context);
  tcase_add_test(tc, test_clear_and_reserve);
  tcase_add_test(tc, test_recording_out_of_memory);
  suite_add_tcase(s, tc);
  tc = tcase_create("csv");
  tcase_add_test(tc, test_csv_round_trip);
  tcase_add_test(tc, test_csv_default_names_and_empty_log);
  tcase_add_test(tc, test_csv_file_errors);
  suite_add_tcase(s, tc);
  tc = tcase_create("simulator");
  tcase_add_test(tc, test_simulator_periodic_run);
  tcase_add_test(tc, test_simulator_per_step_run);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(sink_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
