/* MuJoCo as the benches' optional peer (see mujoco_model.h). */
#define _POSIX_C_SOURCE 200809L
#include "mujoco_model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bench_mj_print_peer(void) {
#ifdef TEAL_BENCH_HAVE_MUJOCO
  printf("peer: MuJoCo %s (measured here); Simbody: bench/README.md figures only\n",
         mj_versionString());
#else
  printf(
      "peer: MuJoCo not built in (CMake did not find libmujoco-dev); Simbody: bench/README.md"
      " figures only\n");
#endif
}

#ifdef TEAL_BENCH_HAVE_MUJOCO

mjModel *bench_mj_load(const char *name, bench_mj_writer writer, const void *model) {
  const char *dir = getenv("TMPDIR");
  char path[512], msg[1024] = "";
  snprintf(path, sizeof path, "%s/teal_bench_%s_XXXXXX", dir && *dir ? dir : "/tmp", name);
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    fprintf(stderr, "error: cannot create a temporary file in %s: %s\n", dir && *dir ? dir : "/tmp",
            strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(path);
    }
    return NULL;
  }
  writer(f, model);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  mjModel *m = bad ? NULL : mj_loadXML(path, NULL, msg, (int)sizeof msg);
  unlink(path);
  if (!m || msg[0]) {
    fprintf(stderr, "error: MuJoCo could not load %s cleanly: %s\n", name,
            bad ? "write failed" : msg);
    mj_deleteModel(m);
    return NULL;
  }
  return m;
}

int bench_mj_check_warnings(const mjData *d, const char *what) {
  int bad = 0;
  for (int i = 0; i < mjNWARNING; i++) {
    if (d->warning[i].number) {
      fprintf(stderr, "error: MuJoCo warning %d (x%d) during %s\n", i, d->warning[i].number, what);
      bad = 1;
    }
  }
  return bad;
}

#endif /* TEAL_BENCH_HAVE_MUJOCO */
