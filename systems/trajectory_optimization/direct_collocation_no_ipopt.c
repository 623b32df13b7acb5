/* The back end of a library built without Ipopt (TEAL_WITH_IPOPT off):
 * the problem can be set up, but solving it is unsupported. */
#include "systems/trajectory_optimization/direct_collocation_internal.h"

int dc_backend_solve(teal_direct_collocation *dc, const teal_direct_collocation_options *opts) {
  (void)opts;
  return teal_error_set(&dc->err, TEAL_EUNSUPPORTED,
                        "direct collocation '%s': Teal was built without Ipopt "
                        "(configure with -DTEAL_WITH_IPOPT=ON and coinor-libipopt-dev installed)",
                        teal_system_name(dc->sys));
}

const char *dc_backend_status_name(int status) {
  (void)status;
  return "no solver";
}
