/* teal_care: the stabilizing solution of the continuous-time algebraic
 * Riccati equation from the ordered QZ form of the extended pencil (see
 * riccati.c), refined by one Newton (Kleinman) step when its relative
 * residual exceeds TEAL_RIC_REFINE_ABOVE. The step solves the Lyapunov
 * equation (A - BK)'E + E(A - BK) + F(X) = 0 for the correction E, with F
 * the CARE left-hand side and K = R^-1 (B'X + N') the gain at X, and is
 * kept only when it lowers the residual. */
#include "solvers/riccati.h"
#include "solvers/riccati_internal.h"

int teal_care(const double *A, const double *B, const double *Q, const double *R,
              const double *N, int n, int m, double *X, double *residual, teal_error *err) {
  return teal_ric_solve(TEAL_RIC_CARE, "care", A, B, Q, R, N, n, m, X, residual, err);
}
