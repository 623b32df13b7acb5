/* Forwarding header: the helpers moved to tests/support/primitives_test_util.h.
 * Kept only for test_primitive_util.c until it includes the new path. */
#include "support/primitives_test_util.h"
