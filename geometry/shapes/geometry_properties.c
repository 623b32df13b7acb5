/* Contact properties (see geometry_properties.h). */
#include "geometry/shapes/geometry_properties.h"

#include <math.h>

teal_proximity_properties teal_proximity_properties_make(double static_friction,
                                                         double dynamic_friction) {
  teal_proximity_properties p = {.static_friction = static_friction,
                                 .dynamic_friction = dynamic_friction,
                                 .point_contact_stiffness = NAN,
                                 .hunt_crossley_dissipation = NAN,
                                 .relaxation_time = NAN,
                                 .compliance = TEAL_HYDROELASTIC_NONE,
                                 .hydroelastic_modulus = NAN,
                                 .resolution_hint = NAN};
  return p;
}

/* The hydroelastic part: a soft geometry needs a finite modulus > 0. */
static int hydroelastic_properties_valid(const teal_proximity_properties *p) {
  double e = p->hydroelastic_modulus, h = p->resolution_hint;
  int e_ok = isnan(e) || (isfinite(e) && e >= 0.0);
  int h_ok = isnan(h) || (isfinite(h) && h >= 0.0);
  int c_ok = p->compliance == TEAL_HYDROELASTIC_NONE || p->compliance == TEAL_HYDROELASTIC_RIGID ||
             (p->compliance == TEAL_HYDROELASTIC_SOFT && isfinite(e) && e > 0.0);
  return e_ok && h_ok && c_ok;
}

int teal_proximity_properties_valid(const teal_proximity_properties *p) {
  if (!p || !isfinite(p->static_friction) || !isfinite(p->dynamic_friction) ||
      p->dynamic_friction < 0.0 || p->static_friction < p->dynamic_friction) {
    return 0;
  }
  double k = p->point_contact_stiffness, d = p->hunt_crossley_dissipation;
  double tau = p->relaxation_time;
  int k_ok = isnan(k) || (isfinite(k) && k > 0.0);
  int d_ok = isnan(d) || (isfinite(d) && d >= 0.0);
  int tau_ok = isnan(tau) || (isfinite(tau) && tau >= 0.0);
  return k_ok && d_ok && tau_ok && hydroelastic_properties_valid(p);
}
