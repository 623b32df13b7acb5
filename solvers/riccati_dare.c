/* teal_dare: the stabilizing solution of the discrete-time algebraic
 * Riccati equation from the ordered QZ form of the extended pencil (see
 * riccati.c), refined by one Newton (Hewer) step when its relative residual
 * exceeds TEAL_RIC_REFINE_ABOVE. The step solves the Stein equation
 * (A - BK)'E(A - BK) - E + F(X) = 0 for the correction E, with F the DARE
 * left-hand side and K = (R + B'XB)^-1 (B'XA + N') the gain at X, and is
 * kept only when it lowers the residual. */
#include "solvers/riccati.h"
#include "solvers/riccati_internal.h"

int teal_dare(const double *A, const double *B, const double *Q, const double *R,
              const double *N, int n, int m, double *X, double *residual, teal_error *err) {
  return teal_ric_solve(TEAL_RIC_DARE, "dare", A, B, Q, R, N, n, m, X, residual, err);
}
