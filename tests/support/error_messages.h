/* Assertions for the error-message tests (tests/.../test_*_error_messages.c):
 * a failing call must return its failure code and leave, in the record it
 * reports into (a teal_error argument or an object's record: context,
 * simulator, builder, plant, ...), that code and a message naming the
 * function or the cause. A record can be primed with a stale message first
 * (TS_STALE) to check that the failure replaced it. */
#ifndef TEAL_TESTS_SUPPORT_ERROR_MESSAGES_H
#define TEAL_TESTS_SUPPORT_ERROR_MESSAGES_H

#include <check.h>
#include <string.h>

#include "framework/context.h"
#include "framework/error.h"

/** The text of a primed record, which no real message contains. */
#define TS_STALE "stale message from an earlier call"

/** Checks that rc is code and that the record err holds code and a message
 *  containing needle (and not the stale text); reports the caller's line. */
static inline void ts_expect_error_at(const char *file, int line, int rc, int code,
                                      const teal_error *err, const char *needle) {
  ck_assert_msg(rc == code, "%s:%d: returned %d, expected %d", file, line, rc, code);
  ck_assert_msg(err != NULL, "%s:%d: no error record", file, line);
  ck_assert_msg(err->code == code, "%s:%d: the record holds code %d, expected %d (message \"%s\")",
                file, line, err->code, code, err->message);
  ck_assert_msg(err->message[0] != '\0', "%s:%d: empty message", file, line);
  ck_assert_msg(strstr(err->message, TS_STALE) == NULL, "%s:%d: stale message \"%s\"", file, line,
                err->message);
  ck_assert_msg(strstr(err->message, needle) != NULL,
                "%s:%d: message \"%s\" does not contain \"%s\"", file, line, err->message, needle);
}

/** TS_EXPECT_ERROR(call, code, record, needle): call must fail with code and
 *  leave code and a message containing needle in record (evaluated after
 *  the call). */
#define TS_EXPECT_ERROR(call, code, record, needle)                             \
  do {                                                                          \
    int ts_rc_ = (call);                                                        \
    ts_expect_error_at(__FILE__, __LINE__, ts_rc_, (code), (record), (needle)); \
  } while (0)

/** Primes an error record with a stale message (code TEAL_EIO). */
static inline void ts_stale_error(teal_error *err) {
  teal_error_set(err, TEAL_EIO, "%s", TS_STALE);
}

/** TS_EXPECT_NULL_ERROR(call, want_code, err, needle): primes the teal_error
 *  *err with a stale message; then call (a constructor reporting into err)
 *  must return NULL and leave want_code and a message containing needle in
 *  *err. */
#define TS_EXPECT_NULL_ERROR(call, want_code, err, needle)                             \
  do {                                                                                 \
    ts_stale_error(err);                                                               \
    ck_assert_msg((call) == NULL, "%s:%d: %s is not NULL", __FILE__, __LINE__, #call); \
    ts_expect_error_at(__FILE__, __LINE__, (err)->code, (want_code), (err), (needle)); \
  } while (0)

/** Primes a context's error record with a stale message (code TEAL_EIO). */
static inline void ts_stale_context(const teal_context *ctx) {
  teal_context_report_error(ctx, TEAL_EIO, "%s", TS_STALE);
}

#endif
