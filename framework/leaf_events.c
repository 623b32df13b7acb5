/* Leaf-system event declarations. */
#include <math.h>

#include "framework/leaf_events.h"
#include "framework/system_internal.h"

static int add_event(teal_system *sys, teal_event_decl ev, const void *fn, const char *what) {
  int rc = teal_leaf_callback_guard(sys, what, fn != NULL);
  if (rc) {
    return rc;
  }
  if (ev.trigger == TEAL_TRIGGER_WITNESS &&
      (!ev.witness || ev.direction < TEAL_WITNESS_POSITIVE_TO_NEGATIVE ||
       ev.direction > TEAL_WITNESS_CROSSES_ZERO)) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "%s on system '%s': needs a witness function and a direction",
                                 what, sys->name);
  }
  if (ev.trigger == TEAL_TRIGGER_PERIODIC &&
      !(isfinite(ev.period) && ev.period > 0 && isfinite(ev.offset) && ev.offset >= 0)) {
    return teal_error_set_sticky(&sys->err, TEAL_EINVAL,
                                 "%s on system '%s': period %g must be > 0 and offset %g >= 0",
                                 what, sys->name, ev.period, ev.offset);
  }
  if (TEAL_GROW(sys->events, sys->cap_events, sys->nevents + 1)) {
    return teal_error_set_sticky(&sys->err, TEAL_ENOMEM, "%s: out of memory", what);
  }
  sys->events[sys->nevents] = ev;
  sys->nwitnesses += ev.trigger == TEAL_TRIGGER_WITNESS;
  return sys->nevents++;
}

static teal_event_decl publish_event(teal_trigger trigger, teal_publish_fn fn, void *user) {
  teal_event_decl ev = {0};
  ev.trigger = trigger;
  ev.kind = TEAL_EVENT_PUBLISH;
  ev.publish = fn;
  ev.user = user;
  return ev;
}

static teal_event_decl discrete_event(teal_trigger trigger, teal_discrete_update_fn fn,
                                      void *user) {
  teal_event_decl ev = {0};
  ev.trigger = trigger;
  ev.kind = TEAL_EVENT_DISCRETE_UPDATE;
  ev.discrete = fn;
  ev.user = user;
  return ev;
}

static teal_event_decl unrestricted_event(teal_trigger trigger, teal_unrestricted_update_fn fn,
                                          void *user) {
  teal_event_decl ev = {0};
  ev.trigger = trigger;
  ev.kind = TEAL_EVENT_UNRESTRICTED_UPDATE;
  ev.unrestricted = fn;
  ev.user = user;
  return ev;
}

static teal_event_decl periodic(teal_event_decl ev, double period, double offset) {
  ev.period = period;
  ev.offset = offset;
  return ev;
}

static teal_event_decl witness(teal_event_decl ev, teal_witness_direction direction,
                               teal_witness_fn fn) {
  ev.trigger = TEAL_TRIGGER_WITNESS;
  ev.direction = direction;
  ev.witness = fn;
  return ev;
}

/* Function pointers cannot be cast to void*, so pass "present or not". */
#define PRESENT(fn) ((fn) ? (const void *)&(fn) : NULL)

int teal_leaf_declare_periodic_publish(teal_system *sys, double period, double offset,
                                       teal_publish_fn fn, void *user) {
  return add_event(sys, periodic(publish_event(TEAL_TRIGGER_PERIODIC, fn, user), period, offset),
                   PRESENT(fn), "declare periodic publish");
}

int teal_leaf_declare_periodic_discrete_update(teal_system *sys, double period, double offset,
                                               teal_discrete_update_fn fn, void *user) {
  return add_event(sys, periodic(discrete_event(TEAL_TRIGGER_PERIODIC, fn, user), period, offset),
                   PRESENT(fn), "declare periodic discrete update");
}

int teal_leaf_declare_periodic_unrestricted_update(teal_system *sys, double period, double offset,
                                                   teal_unrestricted_update_fn fn, void *user) {
  return add_event(sys,
                   periodic(unrestricted_event(TEAL_TRIGGER_PERIODIC, fn, user), period, offset),
                   PRESENT(fn), "declare periodic unrestricted update");
}

int teal_leaf_declare_per_step_publish(teal_system *sys, teal_publish_fn fn, void *user) {
  return add_event(sys, publish_event(TEAL_TRIGGER_PER_STEP, fn, user), PRESENT(fn),
                   "declare per-step publish");
}

int teal_leaf_declare_per_step_discrete_update(teal_system *sys, teal_discrete_update_fn fn,
                                               void *user) {
  return add_event(sys, discrete_event(TEAL_TRIGGER_PER_STEP, fn, user), PRESENT(fn),
                   "declare per-step discrete update");
}

int teal_leaf_declare_per_step_unrestricted_update(teal_system *sys, teal_unrestricted_update_fn fn,
                                                   void *user) {
  return add_event(sys, unrestricted_event(TEAL_TRIGGER_PER_STEP, fn, user), PRESENT(fn),
                   "declare per-step unrestricted update");
}

int teal_leaf_declare_initialization_publish(teal_system *sys, teal_publish_fn fn, void *user) {
  return add_event(sys, publish_event(TEAL_TRIGGER_INITIALIZATION, fn, user), PRESENT(fn),
                   "declare initialization publish");
}

int teal_leaf_declare_initialization_discrete_update(teal_system *sys, teal_discrete_update_fn fn,
                                                     void *user) {
  return add_event(sys, discrete_event(TEAL_TRIGGER_INITIALIZATION, fn, user), PRESENT(fn),
                   "declare initialization discrete update");
}

int teal_leaf_declare_initialization_unrestricted_update(teal_system *sys,
                                                         teal_unrestricted_update_fn fn,
                                                         void *user) {
  return add_event(sys, unrestricted_event(TEAL_TRIGGER_INITIALIZATION, fn, user), PRESENT(fn),
                   "declare initialization unrestricted update");
}

int teal_leaf_declare_forced_publish(teal_system *sys, teal_publish_fn fn, void *user) {
  return add_event(sys, publish_event(TEAL_TRIGGER_FORCED, fn, user), PRESENT(fn),
                   "declare forced publish");
}

int teal_leaf_declare_witness_publish(teal_system *sys, teal_witness_direction direction,
                                      teal_witness_fn fn_w, teal_publish_fn fn, void *user) {
  return add_event(sys, witness(publish_event(TEAL_TRIGGER_WITNESS, fn, user), direction, fn_w),
                   PRESENT(fn), "declare witness publish");
}

int teal_leaf_declare_witness_discrete_update(teal_system *sys, teal_witness_direction direction,
                                              teal_witness_fn fn_w, teal_discrete_update_fn fn,
                                              void *user) {
  return add_event(sys, witness(discrete_event(TEAL_TRIGGER_WITNESS, fn, user), direction, fn_w),
                   PRESENT(fn), "declare witness discrete update");
}

int teal_leaf_declare_witness_unrestricted_update(teal_system *sys,
                                                  teal_witness_direction direction,
                                                  teal_witness_fn fn_w,
                                                  teal_unrestricted_update_fn fn, void *user) {
  return add_event(sys,
                   witness(unrestricted_event(TEAL_TRIGGER_WITNESS, fn, user), direction, fn_w),
                   PRESENT(fn), "declare witness unrestricted update");
}
