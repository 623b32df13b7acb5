/* Support mappings of the convex shapes (see support.h). */
#include "geometry/shapes/support.h"

#include <math.h>

/* Components of d below this fraction of its largest count as zero, so that
 * a rotation's rounding (cos 90 deg = 6e-17) still picks the middle. The
 * support value changes by at most that fraction of the shape's size. */
static const double kTie = 1e-12;

/* -1, 0 or +1 for component x of d (largest magnitude dmax): ties pick the
 * middle. */
static double sign0(double x, double dmax) {
  return x > kTie * dmax ? 1.0 : (x < -kTie * dmax ? -1.0 : 0.0);
}

static double max_abs(teal_vec3 d) {
  return fmax(fabs(d.v[0]), fmax(fabs(d.v[1]), fabs(d.v[2])));
}

/* r d / |d|, or zero for a zero d. */
static teal_vec3 ball_support(double r, teal_vec3 d) {
  double n = teal_vec3_norm(d);
  return n > 0.0 ? teal_vec3_scale(d, r / n) : teal_vec3_zero();
}

static teal_vec3 box_support(teal_vec3 size, teal_vec3 d) {
  double m = max_abs(d);
  return teal_vec3_make(0.5 * size.v[0] * sign0(d.v[0], m), 0.5 * size.v[1] * sign0(d.v[1], m),
                        0.5 * size.v[2] * sign0(d.v[2], m));
}

/* The rim point in d's azimuth (the cap centre when d is along the axis). */
static teal_vec3 cylinder_support(double r, double length, teal_vec3 d) {
  double m = max_abs(d);
  teal_vec3 xy = teal_vec3_make(d.v[0], d.v[1], 0.0);
  teal_vec3 radial = max_abs(xy) > kTie * m ? ball_support(r, xy) : teal_vec3_zero();
  radial.v[2] = 0.5 * length * sign0(d.v[2], m);
  return radial;
}

/* The ellipsoid x' D^-2 x <= 1 with D = diag(a, b, c) has support
 * D^2 d / |D d|. */
static teal_vec3 ellipsoid_support(teal_vec3 abc, teal_vec3 d) {
  teal_vec3 dd = teal_vec3_make(abc.v[0] * d.v[0], abc.v[1] * d.v[1], abc.v[2] * d.v[2]);
  double n = teal_vec3_norm(dd);
  if (!(n > 0.0)) {
    return teal_vec3_zero();
  }
  return teal_vec3_make(abc.v[0] * dd.v[0] / n, abc.v[1] * dd.v[1] / n, abc.v[2] * dd.v[2] / n);
}

/* The first vertex of largest d . v (a linear scan). */
static teal_vec3 convex_support(const teal_vec3 *v, int n, teal_vec3 d) {
  int best = 0;
  double best_dot = teal_vec3_dot(d, v[0]);
  for (int i = 1; i < n; i++) {
    double dot = teal_vec3_dot(d, v[i]);
    if (dot > best_dot) {
      best_dot = dot;
      best = i;
    }
  }
  return v[best];
}

int teal_shape_has_support(const teal_shape *s) {
  if (!s) {
    return 0;
  }
  switch (s->kind) {
    case TEAL_SHAPE_SPHERE:
    case TEAL_SHAPE_BOX:
    case TEAL_SHAPE_CYLINDER:
    case TEAL_SHAPE_CAPSULE:
    case TEAL_SHAPE_ELLIPSOID:
      return 1;
    case TEAL_SHAPE_CONVEX:
      return s->vertices != NULL && s->num_vertices > 0;
    default:
      return 0;
  }
}

teal_vec3 teal_shape_core_support(const teal_shape *s, teal_vec3 d) {
  switch (s->kind) {
    case TEAL_SHAPE_BOX:
      return box_support(s->size, d);
    case TEAL_SHAPE_CYLINDER:
      return cylinder_support(s->radius, s->length, d);
    case TEAL_SHAPE_CAPSULE:
      return teal_vec3_make(0.0, 0.0, 0.5 * s->length * sign0(d.v[2], max_abs(d)));
    case TEAL_SHAPE_ELLIPSOID:
      return ellipsoid_support(s->size, d);
    case TEAL_SHAPE_CONVEX:
      return s->vertices ? convex_support(s->vertices, s->num_vertices, d) : teal_vec3_zero();
    default:
      return teal_vec3_zero();
  }
}

teal_vec3 teal_shape_support(const teal_shape *s, teal_vec3 d) {
  teal_vec3 core = teal_shape_core_support(s, d);
  double margin = teal_shape_margin(s);
  return margin > 0.0 ? teal_vec3_add(core, ball_support(margin, d)) : core;
}

double teal_shape_margin(const teal_shape *s) {
  return s->kind == TEAL_SHAPE_SPHERE || s->kind == TEAL_SHAPE_CAPSULE ? s->radius : 0.0;
}

int teal_shape_core_is_thin(const teal_shape *s) {
  return s->kind == TEAL_SHAPE_SPHERE || s->kind == TEAL_SHAPE_CAPSULE;
}

int teal_support_map_is_strict(const teal_support_map *m) {
  return m->shape->kind == TEAL_SHAPE_SPHERE || m->shape->kind == TEAL_SHAPE_ELLIPSOID;
}

teal_vec3 teal_support_map_point(const teal_support_map *m, teal_vec3 d_W) {
  teal_vec3 d_G = teal_rotation_apply_inverse(m->X_WG.R, d_W);
  teal_vec3 p_G = m->use_core ? teal_shape_core_support(m->shape, d_G)
                              : teal_shape_support(m->shape, d_G);
  return teal_transform_apply(m->X_WG, p_G);
}
