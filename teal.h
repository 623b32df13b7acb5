/* Teal umbrella header: includes the whole public API. */
#ifndef TEAL_H
#define TEAL_H

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/events.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "framework/value.h"

#endif
