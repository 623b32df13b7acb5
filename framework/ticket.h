/** @file
 * Dependency tickets.
 *
 * A ticket names a source of change a computation may depend on (Drake's
 * DependencyTicket). Output ports and cache entries declare their
 * prerequisites as a list of tickets; the framework resolves the list once
 * per context layout into the version stamps it must compare on read. */
#ifndef TEAL_FRAMEWORK_TICKET_H
#define TEAL_FRAMEWORK_TICKET_H

#ifdef __cplusplus
extern "C" {
#endif

/** A dependency ticket: kind in the high bits, index in the low 20 bits. */
typedef int teal_ticket;

/** Ticket kinds: sources of change, and the bases of the indexed kinds (add
 *  the index, as the functions below do). */
enum {
  TEAL_TICKET_INDEX_BITS = 20,                          /**< bits of the index part */
  TEAL_TICKET_NOTHING = 1 << TEAL_TICKET_INDEX_BITS,    /**< depends on nothing */
  TEAL_TICKET_TIME = 2 << TEAL_TICKET_INDEX_BITS,       /**< the time */
  TEAL_TICKET_ACCURACY = 3 << TEAL_TICKET_INDEX_BITS,   /**< the accuracy */
  TEAL_TICKET_Q = 4 << TEAL_TICKET_INDEX_BITS,          /**< generalized positions q */
  TEAL_TICKET_V = 5 << TEAL_TICKET_INDEX_BITS,          /**< generalized velocities v */
  TEAL_TICKET_Z = 6 << TEAL_TICKET_INDEX_BITS,          /**< miscellaneous continuous state z */
  TEAL_TICKET_XC = 7 << TEAL_TICKET_INDEX_BITS,         /**< q, v and z */
  TEAL_TICKET_XD = 8 << TEAL_TICKET_INDEX_BITS,         /**< all discrete groups */
  TEAL_TICKET_XA = 9 << TEAL_TICKET_INDEX_BITS,         /**< all abstract state */
  TEAL_TICKET_ALL_STATE = 10 << TEAL_TICKET_INDEX_BITS, /**< every kind of state */
  TEAL_TICKET_ALL_PARAMETERS = 11 << TEAL_TICKET_INDEX_BITS, /**< all numeric parameters */
  TEAL_TICKET_ALL_INPUTS = 12 << TEAL_TICKET_INDEX_BITS,     /**< all input ports */
  TEAL_TICKET_ALL_SOURCES = 13 << TEAL_TICKET_INDEX_BITS,    /**< everything above */
  TEAL_TICKET_DISCRETE_BASE = 14 << TEAL_TICKET_INDEX_BITS,  /**< kind of teal_ticket_discrete */
  TEAL_TICKET_ABSTRACT_BASE = 15 << TEAL_TICKET_INDEX_BITS,  /**< kind of teal_ticket_abstract */
  TEAL_TICKET_PARAMETER_BASE = 16 << TEAL_TICKET_INDEX_BITS, /**< kind of teal_ticket_parameter */
  TEAL_TICKET_INPUT_BASE = 17 << TEAL_TICKET_INDEX_BITS,     /**< kind of teal_ticket_input */
  TEAL_TICKET_CACHE_BASE = 18 << TEAL_TICKET_INDEX_BITS      /**< kind of teal_ticket_cache */
};

/** Ticket of discrete state group i. */
static inline teal_ticket teal_ticket_discrete(int i) { return TEAL_TICKET_DISCRETE_BASE + i; }
/** Ticket of abstract state i. */
static inline teal_ticket teal_ticket_abstract(int i) { return TEAL_TICKET_ABSTRACT_BASE + i; }
/** Ticket of numeric parameter i. */
static inline teal_ticket teal_ticket_parameter(int i) { return TEAL_TICKET_PARAMETER_BASE + i; }
/** Ticket of input port i. */
static inline teal_ticket teal_ticket_input(int i) { return TEAL_TICKET_INPUT_BASE + i; }
/** Ticket of cache entry i (declared on the same leaf). */
static inline teal_ticket teal_ticket_cache(int i) { return TEAL_TICKET_CACHE_BASE + i; }

/** Kind part of a ticket. */
static inline int teal_ticket_kind(teal_ticket t) {
  return t & ~((1 << TEAL_TICKET_INDEX_BITS) - 1);
}
/** Index part of a ticket. */
static inline int teal_ticket_index(teal_ticket t) {
  return t & ((1 << TEAL_TICKET_INDEX_BITS) - 1);
}

#ifdef __cplusplus
}
#endif
#endif
