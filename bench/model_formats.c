/* Model format benchmark (issue 19, bench/README.md "Model formats"): the
 * time to load the same links written in each model format Teal reads,
 * through that format's loader, and then to finalize the plant. The links
 * are bench_model_scale's: 1 kg with a 0.1 m solid-sphere inertia, each
 * hinged about +y 0.1 m below its parent, with limits. Two tables:
 *   - one chain of n = 100 and 10,000 links; "ratio" is t(10,000) /
 *     (100 t(100)), 1.00x is linear. MJCF nests a chain's bodies, so its
 *     10,000 is beyond libxml2's depth limit (256) and left out;
 *   - 100 links as four chains of 25 in every format, beside MuJoCo's
 *     mj_loadXML (parse and compile, from a temporary file: it reads
 *     files) on the same MJCF when MuJoCo is found
 *     (TEAL_BENCH_MUJOCO_PROGRAMS in CMakeLists.txt; its XML reader stops
 *     at about 100 levels, hence four chains), with every time as a ratio
 *     to URDF's and to MuJoCo's.
 * A format joins with one generator and one row. Each figure is the best
 * of several runs (100 at 100 links, 5 at 10,000). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/table.h"
#include "common/timing.h"
#include "teal.h"

#ifdef TEAL_BENCH_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#include <unistd.h>
#endif

/* The loaders timed; FORMAT_MUJOCO is MuJoCo's on the MJCF text. */
enum { FORMAT_URDF, FORMAT_SDF, FORMAT_MJCF, FORMAT_MUJOCO, NFORMATS };
static const char *const k_format_names[NFORMATS] = {"urdf", "sdf", "mjcf", "mujoco mj_loadXML"};

/* Link i's parent in k interleaved chains (k = 1: one chain): l(i - k),
 * the world for the first k; into parent[16]. */
static const char *parent_of(int i, int k, char *parent) {
  snprintf(parent, 16, i > k ? "l%d" : "world", i - k);
  return parent;
}

/* The chain(s) as URDF (malloc'd; NULL when out of memory). */
static char *chain_urdf(int n, int k) {
  static const char link[] =
      "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"0.004\" iyy=\"0.004\" "
      "izz=\"0.004\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n";
  static const char joint[] =
      "<joint name=\"j%d\" type=\"revolute\"><parent link=\"%s\"/><child link=\"l%d\"/>"
      "<origin xyz=\"0 0 -0.1\"/><axis xyz=\"0 1 0\"/>"
      "<limit effort=\"10\" velocity=\"10\" lower=\"-3\" upper=\"3\"/></joint>\n";
  size_t cap = (size_t)n * 400 + 256, len = 0;
  char *x = malloc(cap);
  if (!x) {
    return NULL;
  }
  len += (size_t)snprintf(x, cap, "<robot name=\"chain\">\n<link name=\"world\"/>\n");
  for (int i = 1; i <= n; i++) {
    char parent[16];
    len += (size_t)snprintf(x + len, cap - len, link, i);
    len += (size_t)snprintf(x + len, cap - len, joint, i, parent_of(i, k, parent), i);
  }
  snprintf(x + len, cap - len, "</robot>\n");
  return x;
}

/* The chain as SDFormat: each link's pose relative to the one before, the
 * joints at their child links (malloc'd; NULL when out of memory). */
static char *chain_sdf(int n, int k) {
  static const char link[] =
      "<link name=\"l%d\"><pose relative_to=\"%s\">0 0 -0.1 0 0 0</pose><inertial><mass>1"
      "</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>"
      "</link>\n";
  static const char joint[] =
      "<joint name=\"j%d\" type=\"revolute\"><parent>%s</parent><child>l%d</child><axis>"
      "<xyz>0 1 0</xyz><limit><lower>-3</lower><upper>3</upper><effort>10</effort>"
      "<velocity>10</velocity></limit></axis></joint>\n";
  size_t cap = (size_t)n * 520 + 256, len = 0;
  char *x = malloc(cap);
  if (!x) {
    return NULL;
  }
  len += (size_t)snprintf(x, cap, "<sdf version=\"1.9\"><model name=\"chain\">\n");
  for (int i = 1; i <= n; i++) {
    char parent[16];
    parent_of(i, k, parent);
    len += (size_t)snprintf(x + len, cap - len, link, i, i > k ? parent : "__model__");
    len += (size_t)snprintf(x + len, cap - len, joint, i, parent, i);
  }
  snprintf(x + len, cap - len, "</model></sdf>\n");
  return x;
}

/* The chain(s) as MJCF: each body nested in the one before, 0.1 m below
 * it, its hinge at its origin (malloc'd; NULL when out of memory). */
static char *chain_mjcf(int n, int k) {
  static const char body[] =
      "<body name=\"l%d\" pos=\"0 0 -0.1\"><joint name=\"j%d\" axis=\"0 1 0\" "
      "limited=\"true\" range=\"-3 3\"/><inertial pos=\"0 0 0\" mass=\"1\" "
      "diaginertia=\"0.004 0.004 0.004\"/>\n";
  size_t cap = (size_t)n * 200 + 256, len = 0;
  char *x = malloc(cap);
  if (!x) {
    return NULL;
  }
  len +=
      (size_t)snprintf(x, cap, "<mujoco model=\"chain\"><compiler angle=\"radian\"/><worldbody>\n");
  for (int c = 1; c <= k; c++) {
    int depth = 0;
    for (int i = c; i <= n; i += k, depth++) {
      len += (size_t)snprintf(x + len, cap - len, body, i, i);
    }
    while (depth-- > 0) {
      len += (size_t)snprintf(x + len, cap - len, "</body>");
    }
  }
  snprintf(x + len, cap - len, "\n</worldbody></mujoco>\n");
  return x;
}

#ifdef TEAL_BENCH_HAVE_MUJOCO
/* mj_loadXML on text through a temporary file; the seconds, NAN on failure. */
static double mujoco_once(const char *text, int n) {
  char path[] = "/tmp/teal_bench_chain_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  int ok = f && fputs(text, f) >= 0;
  ok = f && fclose(f) == 0 && ok;
  char msg[512] = "";
  double t0 = bench_now_seconds();
  mjModel *m = ok ? mj_loadXML(path, NULL, msg, (int)sizeof msg) : NULL;
  double t = bench_now_seconds() - t0;
  if (fd >= 0) {
    unlink(path);
  }
  if (m && m->nv != n) {
    snprintf(msg, sizeof msg, "nv %d, expected %d", m->nv, n);
  }
  ok = m && m->nv == n;
  if (!ok) {
    fprintf(stderr, "mujoco, n = %d: failed: %s\n", n, msg);
  }
  mj_deleteModel(m);
  return ok ? t : NAN;
}
#endif

/* Loads text in its format and finalizes; the seconds taken, NAN on failure. */
static double load_once(int format, const char *text, int n) {
  teal_error err = {0, ""};
  teal_plant *p = teal_plant_new(0.0, &err);
  double t0 = bench_now_seconds();
  int rc = !p                      ? err.code
           : format == FORMAT_URDF ? teal_urdf_load_string(p, text, NULL, &err)
           : format == FORMAT_SDF  ? teal_sdf_load_string(p, text, &err)
                                   : teal_mjcf_load_string(p, text, NULL, NULL, NULL, &err);
  rc = rc < 0 ? rc : teal_plant_finalize(p);
  double t = bench_now_seconds() - t0;
  if (rc == TEAL_OK && teal_plant_nv(p) != n) {
    rc = TEAL_EINVAL;
    snprintf(err.message, sizeof err.message, "nv %d, expected %d", teal_plant_nv(p), n);
  }
  if (rc) {
    fprintf(stderr, "%s, n = %d: failed (%d): %s\n", k_format_names[format], n, rc,
            err.code ? err.message
            : p      ? teal_plant_error(p)->message
                     : "");
  }
  teal_plant_free(p);
  return rc ? NAN : t;
}

static double best_of(int format, const char *text, int n, int runs) {
  double best = NAN;
  for (int r = 0; r < runs && text; r++) {
#ifdef TEAL_BENCH_HAVE_MUJOCO
    double t = format == FORMAT_MUJOCO ? mujoco_once(text, n) : load_once(format, text, n);
#else
    double t = load_once(format, text, n);
#endif
    best = isnan(t) ? t : isnan(best) || t < best ? t : best;
    if (isnan(t)) {
      break;
    }
  }
  return best;
}

/* Times every loader in t on n links in k chains, best of runs; MJCF
 * only when its nesting (n / k) stays within the XML depth limits (Teal's
 * libxml2: 256, MuJoCo's tinyxml2: about 100). Returns 1 on a failure. */
static int measure(int n, int k, int runs, double *t) {
  char *text[NFORMATS] = {chain_urdf(n, k), chain_sdf(n, k), chain_mjcf(n, k), NULL};
  int failed = 0, depth = n / k;
  for (int f = 0; f < NFORMATS; f++) {
    const char *x = f == FORMAT_MUJOCO ? text[FORMAT_MJCF] : text[f];
    int skip = (f == FORMAT_MJCF && depth > 200) || (f == FORMAT_MUJOCO && depth > 50);
#ifndef TEAL_BENCH_HAVE_MUJOCO
    skip |= f == FORMAT_MUJOCO;
#endif
    t[f] = skip ? NAN : best_of(f, x, n, runs);
    failed |= !skip && isnan(t[f]);
  }
  for (int f = 0; f < NFORMATS; f++) {
    free(text[f]);
  }
  return failed;
}

/* One chain of 100 and of 10,000 links, each format's time and scaling. */
static int chain_table(void) {
  static const int sizes[2] = {100, 10000}, runs[2] = {100, 5};
  double t[2][NFORMATS];
  int failed = measure(sizes[0], 1, runs[0], t[0]) | measure(sizes[1], 1, runs[1], t[1]);
  bench_table tab = {22, 12, 3};
  const char *titles[3] = {"n = 100", "n = 10,000", "ratio"};
  bench_table_header(&tab,
                     "one chain: load + finalize, best of 100 (n = 100) and 5 (n = 10,000) runs; "
                     "ratio = t(10,000) / (100 t(100))",
                     titles);
  for (int f = 0; f < FORMAT_MUJOCO; f++) {
    bench_cell c[3];
    bench_fmt_time(c[0], t[0][f]);
    bench_fmt_time(c[1], t[1][f]);
    bench_fmt_ratio(c[2], t[1][f], 100.0 * t[0][f]);
    bench_table_row(&tab, k_format_names[f], c);
  }
  return failed;
}

/* 100 links as four chains of 25 (nesting MuJoCo accepts): every loader,
 * MuJoCo's too, with the times as ratios to URDF's and to MuJoCo's. */
static int tree_table(void) {
  double t[NFORMATS];
  int failed = measure(100, 4, 100, t);
  bench_table tab = {22, 12, 3};
  const char *titles[3] = {"time", "/ urdf", "/ mujoco"};
  bench_table_header(&tab,
                     "100 links as four chains of 25: load + finalize (MuJoCo: parse + compile "
                     "from a file), best of 100 runs",
                     titles);
  for (int f = 0; f < NFORMATS; f++) {
    bench_cell c[3];
    bench_fmt_time(c[0], t[f]);
    bench_fmt_ratio(c[1], t[f], t[FORMAT_URDF]);
    bench_fmt_ratio(c[2], t[f], t[FORMAT_MUJOCO]);
    bench_table_row(&tab, k_format_names[f], c);
  }
  return failed;
}

int main(void) {
  printf("Model formats: the same links loaded and finalized from each format\n");
  bench_print_compiler();
  int failed = chain_table();
  failed |= tree_table();
  printf("\n");
  bench_print_reproduce("model_formats", 0);
  return failed;
}
