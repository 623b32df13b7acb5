/* Model format benchmark (issue 19, bench/README.md "Model formats"): the
 * time to load the same chain of n links (n = 100 and 10,000) written in
 * each model format Teal reads, through that format's loader, and then to
 * finalize the plant. The chain is bench_model_scale's: 1 kg links with a
 * 0.1 m solid-sphere inertia, each hinged about +y 0.1 m below the one
 * before, with limits (bench/common/model_chain.h). A format joins with
 * one generator and one row (MJCF: its loader from the MJCF branch). Each
 * figure is the best of several runs (100 at n = 100, 5 at n = 10,000).
 * "ratio" is t(10,000) / (100 t(100)): 1.00x is linear. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model_chain.h"
#include "common/platform.h"
#include "common/table.h"
#include "common/timing.h"
#include "teal.h"

enum { FORMAT_URDF, FORMAT_SDF, NFORMATS };
static const char *const k_format_names[NFORMATS] = {"urdf", "sdf"};

/* The chain as SDFormat: each link's pose relative to the one before, the
 * joints at their child links (malloc'd; NULL when out of memory). */
static char *chain_sdf(int n) {
  static const bench_chain_format sdf = {
      "<sdf version=\"1.9\"><model name=\"chain\">\n",
      "<link name=\"l%d\"><pose relative_to=\"%s\">0 0 -0.1 0 0 0</pose><inertial><mass>1"
      "</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>"
      "</link>\n",
      "<joint name=\"j%d\" type=\"revolute\"><parent>%s</parent><child>l%d</child><axis>"
      "<xyz>0 1 0</xyz><limit><lower>-3</lower><upper>3</upper><effort>10</effort>"
      "<velocity>10</velocity></limit></axis></joint>\n",
      "</model></sdf>\n",
      "__model__",
      520};
  return bench_chain_text(&sdf, n);
}

/* Loads text in its format and finalizes; the seconds taken, NAN on failure. */
static double load_once(int format, const char *text, int n) {
  teal_error err = {0, ""};
  teal_plant *p = teal_plant_new(0.0, &err);
  double t0 = bench_now_seconds();
  int rc = !p                      ? err.code
           : format == FORMAT_URDF ? teal_urdf_load_string(p, text, NULL, &err)
                                   : teal_sdf_load_string(p, text, &err);
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
    double t = load_once(format, text, n);
    best = isnan(t) ? t : isnan(best) || t < best ? t : best;
    if (isnan(t)) {
      break;
    }
  }
  return best;
}

int main(void) {
  static const int sizes[2] = {100, 10000}, runs[2] = {100, 5};
  double t[NFORMATS][2];
  int failed = 0;
  printf("Model formats: the same chain of n links loaded and finalized from each format\n");
  bench_print_compiler();
  for (int k = 0; k < 2; k++) {
    char *text[NFORMATS] = {bench_chain_urdf(sizes[k]), chain_sdf(sizes[k])};
    for (int f = 0; f < NFORMATS; f++) {
      t[f][k] = best_of(f, text[f], sizes[k], runs[k]);
      failed |= isnan(t[f][k]);
      free(text[f]);
    }
  }
  bench_table tab = {22, 12, 3};
  const char *titles[3] = {"n = 100", "n = 10,000", "ratio"};
  bench_table_header(&tab,
                     "load + finalize, best of 100 (n = 100) and 5 (n = 10,000) runs; "
                     "ratio = t(10,000) / (100 t(100))",
                     titles);
  for (int f = 0; f < NFORMATS; f++) {
    bench_cell c[3];
    bench_fmt_time(c[0], t[f][0]);
    bench_fmt_time(c[1], t[f][1]);
    bench_fmt_ratio(c[2], t[f][1], 100.0 * t[f][0]);
    bench_table_row(&tab, k_format_names[f], c);
  }
  bench_cell c[3];
  bench_fmt_ratio(c[0], t[FORMAT_SDF][0], t[FORMAT_URDF][0]);
  bench_fmt_ratio(c[1], t[FORMAT_SDF][1], t[FORMAT_URDF][1]);
  bench_fmt_value(c[2], "%s", NAN);
  bench_table_row(&tab, "sdf / urdf", c);
  printf("\n");
  bench_print_reproduce("model_formats", 0);
  return failed;
}
