/** @file
 * Rigid-body spatial inertia.
 *
 * M_SP_E is the spatial inertia of a body (or composite) S about a point P,
 * expressed in frame E. It is stored as the mass m, the center of mass
 * position p_PScm_E and the rotational inertia I_SP_E of S about P (a full
 * symmetric 3x3 whose off-diagonal entries are the matrix entries, i.e. the
 * negated products of inertia: I_xy = -sum m x y). As a 6x6 matrix acting on
 * [angular; linear] spatial velocities it is
 * @code{.unparsed}
 *   M = [I_SP  m [p]x; -m [p]x  m 1],  p = p_PScm_E,
 * @endcode
 * so the spatial momentum about P is h = M V = [I w + m p x v; m (v + w x p)].
 * Shape constructors return inertias about the shape's center (its center of
 * mass) in the shape's own axes; shift and re-express them as needed. */
#ifndef TEAL_MULTIBODY_MATH_SPATIAL_INERTIA_H
#define TEAL_MULTIBODY_MATH_SPATIAL_INERTIA_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/math/spatial_mat6.h"
#include "math/transform.h"
#include "math/vec3.h"
#include "multibody/math/spatial_vector.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The spatial inertia M_SP_E of S about P, expressed in E. */
typedef struct teal_spatial_inertia {
  double mass;        /**< m, kg */
  teal_vec3 p_PScm_E; /**< center of mass of S measured from P, in E */
  teal_mat3 I_SP_E;   /**< rotational inertia of S about P, in E (symmetric) */
} teal_spatial_inertia;

/** M from its stored parts as they are (no checks). */
static inline teal_spatial_inertia teal_spatial_inertia_make(double mass, teal_vec3 p_PScm_E,
                                                             teal_mat3 I_SP_E) {
  teal_spatial_inertia M = {mass, p_PScm_E, I_SP_E};
  return M;
}

/** M_SP_E from the mass, the center of mass p_PScm_E and the rotational
 *  inertia about the center of mass I_SScm_E (parallel axis theorem:
 *  I_SP = I_SScm + m (|p|^2 1 - p p')). */
TEAL_API teal_spatial_inertia
teal_spatial_inertia_from_central(double mass, teal_vec3 p_PScm_E, teal_mat3 I_SScm_E);

/** A solid sphere of the given radius about its center: I = 2/5 m r^2 1. */
TEAL_API teal_spatial_inertia teal_spatial_inertia_solid_sphere(double mass, double radius);

/** A solid box with full side lengths (lx, ly, lz) along its axes, about its
 *  center: I_xx = m (ly^2 + lz^2) / 12 and cyclically. */
TEAL_API teal_spatial_inertia
teal_spatial_inertia_solid_box(double mass, double lx, double ly, double lz);

/** A solid cylinder of the given radius and length with its axis along z,
 *  about its center: I_zz = m r^2 / 2, I_xx = I_yy = m (3 r^2 + L^2) / 12. */
TEAL_API teal_spatial_inertia
teal_spatial_inertia_solid_cylinder(double mass, double radius, double length);

/** A thin rod of the given length along axis (normalized here; a zero axis
 *  gives a zero inertia), about its center: I = m L^2 / 12 (1 - u u'). */
TEAL_API teal_spatial_inertia teal_spatial_inertia_thin_rod(double mass, double length,
                                                            teal_vec3 axis);

/** A point mass located at p_PQ_E, about P: I = m (|p|^2 1 - p p'). */
TEAL_API teal_spatial_inertia teal_spatial_inertia_point_mass(double mass, teal_vec3 p_PQ_E);

/** The rotational inertia about the center of mass, I_SScm_E. */
TEAL_API teal_mat3 teal_spatial_inertia_central(const teal_spatial_inertia *M);

/** The eigenvalues of the symmetric part of I in ascending order (cyclic
 *  Jacobi; accurate to a few ulps of the largest, also when repeated). */
TEAL_API void teal_inertia_principal_moments(teal_mat3 I, double moments[3]);

/** The smallest mass teal_spatial_inertia_check accepts, in kg. Smaller
 *  masses (down to the denormal 1e-310 of a bad input) make the mass matrix
 *  numerically singular: the inverses of masses and of inertias m r^2 leave
 *  the range of double and the accelerations become NaN. 1e-100 kg is 70
 *  orders of magnitude below the mass of an electron, and a body of that mass
 *  with lengths down to 1e-50 m has inertias (m r^2 >= 1e-200) whose
 *  inverses stay far inside the range of double. */
#define TEAL_SPATIAL_INERTIA_MIN_MASS 1e-100

/** Checks that M is physically valid: mass finite and at least
 *  TEAL_SPATIAL_INERTIA_MIN_MASS, center of mass and inertia finite, I
 *  symmetric, and the central inertia positive semidefinite with principal
 *  moments satisfying the triangle inequality (Ia + Ib >= Ic), all to a
 *  tolerance of 1e-12 times the scale of I_SP and m |p|^2. The test works on
 *  the inertia scaled by a power of two, so it cannot overflow for entries up
 *  to the largest double. Zero central moments are accepted (point masses,
 *  thin rods). Returns TEAL_OK, TEAL_ENONFINITE or TEAL_EINVAL, with a message
 *  in err (may be NULL). */
TEAL_API int teal_spatial_inertia_check(const teal_spatial_inertia *M, teal_error *err);

/** Shifts M_SP_E to M_SQ_E, about the point Q at p_PQ_E from P (the parallel
 *  axis theorem applied through the center of mass). */
TEAL_API teal_spatial_inertia teal_spatial_inertia_shift(const teal_spatial_inertia *M_SP_E,
                                                         teal_vec3 p_PQ_E);

/** Re-expresses M_SP_E in frame F: p_F = R_FE p_E, I_F = R_FE I_E R_FE'. */
TEAL_API teal_spatial_inertia
teal_spatial_inertia_reexpress(const teal_spatial_inertia *M_SP_E, teal_rotation R_FE);

/** The inertia of the union of two bodies given about the same point and in
 *  the same frame: masses and rotational inertias add, the center of mass is
 *  the mass-weighted mean (zero if the total mass is zero). */
TEAL_API teal_spatial_inertia teal_spatial_inertia_add(const teal_spatial_inertia *a,
                                                       const teal_spatial_inertia *b);

/** Spatial momentum about P: h_SP_E = M_SP_E V_ASP_E, where V gives the
 *  velocity of the body point coincident with P. */
TEAL_API teal_spatial_vector teal_spatial_inertia_apply(const teal_spatial_inertia *M,
                                                        teal_spatial_vector V);

/** The 6x6 matrix [I  m [p]x; -m [p]x  m 1] ([angular; linear] order). */
TEAL_API teal_mat6 teal_spatial_inertia_to_mat6(const teal_spatial_inertia *M);

/** Kinetic energy of spatial velocity V for inertia M. It is 0.5 V . (M V),
 *  independent of the about-point and frame when V is shifted and
 *  re-expressed consistently with M. */
TEAL_API double teal_spatial_inertia_kinetic_energy(const teal_spatial_inertia *M,
                                                    teal_spatial_vector V);

#ifdef __cplusplus
}
#endif
#endif
