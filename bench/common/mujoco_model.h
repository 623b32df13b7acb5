/* MuJoCo, the optional peer of the multibody and contact benches: the
 * banner line naming the peer and, when built with TEAL_BENCH_HAVE_MUJOCO
 * (CMake defines it when libmujoco-dev is found), loading a model that a
 * bench writes as XML (URDF or MJCF) and checking MuJoCo's warnings. */
#ifndef TEAL_BENCH_COMMON_MUJOCO_MODEL_H
#define TEAL_BENCH_COMMON_MUJOCO_MODEL_H

#include <stdio.h>

#ifdef TEAL_BENCH_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

/* Prints the "peer:" banner line: MuJoCo's version when it is built in,
 * and that Simbody's figures are the reference ones quoted in bench/README.md. */
void bench_mj_print_peer(void);

#ifdef TEAL_BENCH_HAVE_MUJOCO

/* Writes a model as XML to f (errors are caught from f afterwards). */
typedef void (*bench_mj_writer)(FILE *f, const void *model);

/* Writes the model with writer into a temporary file named after name (in
 * $TMPDIR, else /tmp), loads it with mj_loadXML and removes the file. A
 * load error or warning is reported on stderr and gives NULL. */
mjModel *bench_mj_load(const char *name, bench_mj_writer writer, const void *model);

/* Reports MuJoCo's warning counters on stderr; nonzero when any is set
 * (what names the computation, e.g. "the simulation"). */
int bench_mj_check_warnings(const mjData *d, const char *what);

#endif

#endif
