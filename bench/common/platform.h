/* What the bench programs report about the build and the machine: the
 * compiler line of their banners, and OpenBLAS limited to one thread. */
#ifndef TEAL_BENCH_COMMON_PLATFORM_H
#define TEAL_BENCH_COMMON_PLATFORM_H

/* Prints "compiler: <version>[, optimized], AVX on ... | no AVX" and a
 * newline (the flags of this build: the bench programs share them). */
void bench_print_compiler(void);

/* Limits OpenBLAS to one thread when it is the BLAS linked in; returns 1
 * when it did, 0 with another BLAS (threads left as configured). */
int bench_blas_single_thread(void);

#endif
