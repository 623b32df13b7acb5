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

#include "solvers/dense_lu.h"

#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "systems/controllers/pid.h"
#include "systems/primitives/adder.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/demultiplexer.h"
#include "systems/primitives/discrete_derivative.h"
#include "systems/primitives/first_order_low_pass_filter.h"
#include "systems/primitives/gain.h"
#include "systems/primitives/integrator_system.h"
#include "systems/primitives/linear_system.h"
#include "systems/primitives/matrix_gain.h"
#include "systems/primitives/multiplexer.h"
#include "systems/primitives/pass_through.h"
#include "systems/primitives/piecewise_polynomial.h"
#include "systems/primitives/ramp.h"
#include "systems/primitives/random_source.h"
#include "systems/primitives/saturation.h"
#include "systems/primitives/sine.h"
#include "systems/primitives/step.h"
#include "systems/primitives/trajectory_source.h"
#include "systems/primitives/vector_log_sink.h"
#include "systems/primitives/zero_order_hold.h"

#endif
