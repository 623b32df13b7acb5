/* Build and machine facts for the bench banners (see platform.h). */
#include "platform.h"

#include <stdio.h>

/* A threaded OpenBLAS spins its workers (sched_yield) between calls and, on
 * a shared machine, slowed the rows that call LAPACK; the peers are
 * single-threaded too. So OpenBLAS is limited to one thread when it is the
 * BLAS linked in (a weak reference: NULL with another BLAS). */
#if defined(__GNUC__) && defined(__ELF__)
extern void openblas_set_num_threads(int num_threads) __attribute__((weak));
#define BENCH_HAVE_BLAS_THREADS_HOOK 1
#endif

int bench_blas_single_thread(void) {
#ifdef BENCH_HAVE_BLAS_THREADS_HOOK
  if (openblas_set_num_threads) {
    openblas_set_num_threads(1);
    return 1;
  }
#endif
  return 0;
}

void bench_print_compiler(void) {
#if defined(__VERSION__)
  printf("compiler: %s", __VERSION__);
#else
  printf("compiler: unknown");
#endif
#if defined(__OPTIMIZE__)
  printf(", optimized");
#endif
#if defined(__AVX__)
  printf(", AVX on (not comparable with the Debian peers)");
#else
  printf(", no AVX");
#endif
  printf("\n");
}
