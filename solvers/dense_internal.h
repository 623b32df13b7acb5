/* Helpers shared by the dense linear-algebra sources (solvers/dense_*.c,
 * schur.c, expm.c, lyapunov.c, control.c). Not part of the public API and
 * not installed. Matrices here are column-major unless a name says
 * otherwise ("_rm"); the public functions are row-major. */
#ifndef TEAL_SOLVERS_DENSE_INTERNAL_H
#define TEAL_SOLVERS_DENSE_INTERNAL_H

#include <stddef.h>

#include "framework/error.h"
#include "solvers/dense.h"

/** Largest entrywise asymmetry |A - A'| accepted, relative to max |A_ij|,
 *  where a function requires a symmetric matrix (sqrt(DBL_EPSILON)). Such
 *  functions then work on the symmetric part (A + A') / 2. */
#define TEAL_DENSE_SYM_RTOL 1.4901161193847656e-08

/** TEAL_EINVAL naming fn when a dimension is negative. */
int teal_dense_check_dim(const char *fn, const char *name, int value, teal_error *err);

/** TEAL_ENONFINITE naming fn, the matrix and the entry (row, column) when
 *  the row-major rows x cols matrix A holds NaN or Inf. */
int teal_dense_check_finite(const char *fn, const char *what, const double *A, int rows, int cols,
                            teal_error *err);

/** Zeroed array of count doubles through teal_calloc, or NULL with
 *  TEAL_ENOMEM recorded (count 0 gives a valid pointer). */
double *teal_dense_alloc(const char *fn, size_t count, teal_error *err);

/** Zeroed array of count ints (lapack_int / lapack_logical) likewise. */
int *teal_dense_alloc_int(const char *fn, size_t count, teal_error *err);

/** Zeroed arrays of count doubles (*d) and icount ints (*i) as by
 *  teal_dense_alloc and teal_dense_alloc_int; on failure both are NULL and
 *  TEAL_ENOMEM is returned and recorded. */
int teal_dense_alloc_pair(const char *fn, size_t count, size_t icount, double **d, int **i,
                          teal_error *err);

/** TEAL_EINVAL naming fn when the tolerance tol is NaN or infinite. */
int teal_dense_check_tol(const char *fn, double tol, teal_error *err);

/** code naming fn and the matrix name when the n x n matrix A is not
 *  symmetric: max |A - A'| above TEAL_DENSE_SYM_RTOL max |A|. */
int teal_dense_check_symmetric(const char *fn, const char *name, const double *A, int n, int code,
                               teal_error *err);

/** Records a negative LAPACK info as TEAL_EINVAL; returns the code. */
int teal_dense_lapack_arg(const char *fn, const char *routine, int info, teal_error *err);

/** Workspace size from a LAPACK query result (at least minimum). */
int teal_dense_lwork(double query, int minimum);

/** A = I (n x n). */
void teal_dense_identity(double *A, int n);

/** max |A_i| over count entries (0 for count 0). */
double teal_dense_max_abs(const double *A, size_t count);

/** Largest |A_ij - A_ji| of an n x n matrix (storage order irrelevant). */
double teal_dense_max_asym(const double *A, int n);

/** Writes (A + A') / 2 into S (may equal A). */
void teal_dense_symmetrize(const double *A, int n, double *S);

/** Real Schur form of the column-major n x n matrix T in place, T = Z S Z',
 *  unordered; Z (column-major, n x n) required; wr/wi may be NULL. Input
 *  must be finite. TEAL_ENOCONV when QR iteration fails. */
int teal_dense_schur_cm(const char *fn, double *T, int n, double *Z, double *wr, double *wi,
                        teal_error *err);

/** LAPACK dgesvd with the given jobs on the column-major rows x cols
 *  matrix M (destroyed); U (ldu) and VT (ldvt) may be NULL when their job
 *  is 'N'. TEAL_ENOCONV when the SVD fails. */
int teal_dense_gesvd_cm(const char *fn, char jobu, char jobvt, int rows, int cols, double *M,
                        double *s, double *U, int ldu, double *VT, int ldvt, teal_error *err);

/** Singular values only (descending, min(m, n) of them) of the column-major
 *  m x n matrix A, which is destroyed. TEAL_ENOCONV when the SVD fails. */
int teal_dense_singular_values_cm(const char *fn, double *A, int m, int n, double *s,
                                  teal_error *err);

/** Eigenvalues of the row-major (finite, checked) n x n matrix A, messages
 *  naming fn. */
int teal_dense_eigenvalues_rm(const char *fn, const double *A, int n, double *wr, double *wi,
                              teal_error *err);

/** Default rank tolerance max(m, n) eps s_max. */
double teal_dense_default_tol(int m, int n, double smax);

#endif
