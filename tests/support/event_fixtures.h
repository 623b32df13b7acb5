/* Fixtures shared by the event tests (test_events*.c): a log that handlers
 * append to, and leaves with events. */
#ifndef TEAL_TESTS_SUPPORT_EVENT_FIXTURES_H
#define TEAL_TESTS_SUPPORT_EVENT_FIXTURES_H

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/events.h"
#include "framework/system.h"
#include "framework/value.h"

#define TS_EV_ASSERT_HAS(msg, sub)                                                                 \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", (msg),     \
                (sub))

/* ---- a log that handlers append to ----------------------------------- */

typedef struct ts_ev_event_log {
  char text[1024];
  int calls;
} ts_ev_event_log;

/* Closure of a logging handler: where to log, what to write, what to return. */
typedef struct ts_ev_log_spec {
  ts_ev_event_log *log;
  const char *tag;
  int ret;
} ts_ev_log_spec;

void ts_ev_log_append(ts_ev_event_log *log, const char *tag);

int ts_ev_log_publish(const teal_system *sys, const teal_context *ctx, void *user);

/* A leaf with one per-step publish that logs its tag. */
teal_system *ts_ev_publisher_new(const char *name, ts_ev_log_spec *spec);

teal_system *ts_ev_build2(const char *name, teal_system *a, teal_system *b);

/* ---- discrete updates ------------------------------------------------- */

/* A leaf with one discrete group of size 1, output y = xd (depends on XD
 * only), input u, and a per-step discrete update xd' = u + add. */
typedef struct ts_ev_xchg {
  double add;
  int calc_calls;
  int ret;          /* returned by the update (0: success) */
  int report;       /* when nonzero, report a custom message before failing */
} ts_ev_xchg;

/* A.y -> B.u and B.y -> A.u */
teal_system *ts_ev_xchg_diagram(ts_ev_xchg *xa, ts_ev_xchg *xb, double a0, double b0);

double ts_ev_xd_of(const teal_context *root, const char *path);

#endif
