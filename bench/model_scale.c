/* Model scale benchmark (issue 14, defect 2; bench/README.md "Model
 * scale"): how long a plant of n links takes to load, finalize, make a
 * context and evaluate its forward dynamics, for n = 10,000 and 100,000,
 * and how far from linear in n each step is.
 *
 * Three models of n links (n bodies besides the world), each 1 kg with a
 * 0.1 m solid-sphere inertia:
 *   chain    links in series, each hinged (revolute about +y) 0.1 m below
 *            the one before, built with the plant API;
 *   forest   n free bodies (a floating joint each, added by finalize);
 *   urdf     the chain written as a URDF string (about 330 bytes a link)
 *            and loaded with teal_urdf_load_string.
 * Each figure is the best of three runs. "ratio" is t(100,000) / (10
 * t(10,000)): 1.00x is linear, 10x would be quadratic. The target is a
 * 100,000-link model loaded and finalized in under 1 s, which the last
 * lines check for the plant-API models and for the URDF. For the URDF the
 * program also times libxml2's own parse of the document (the "xml parse"
 * row: the pre-scan and libxml2's parse into the loader's element tree):
 * the same string with its root element renamed, so that the load fails
 * right after the parse. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model_chain.h"
#include "common/platform.h"
#include "common/table.h"
#include "common/timing.h"
#include "teal.h"

enum { MODEL_CHAIN, MODEL_FOREST, MODEL_URDF, NMODELS };
static const char *const k_model_names[NMODELS] = {"chain", "forest", "urdf"};

/* One run's figures in seconds (NAN: not reached). */
typedef struct run_times {
  double load, finalize, context, vdot;
} run_times;

/* ---- the models ----------------------------------------------------------------- */

static int build_direct(teal_plant *p, int n, int chain) {
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_vec3 axis = teal_vec3_make(0.0, 1.0, 0.0);
  teal_transform X_PF = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -0.1));
  char name[32];
  int prev = TEAL_WORLD_BODY;
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof(name), "l%d", i + 1);
    int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    if (b < 0) {
      return b;
    }
    if (chain) {
      snprintf(name, sizeof(name), "f%d", i + 1);
      int f = teal_plant_add_frame(p, name, teal_plant_body_frame(p, prev), X_PF);
      snprintf(name, sizeof(name), "j%d", i + 1);
      int j = f < 0 ? f
                    : teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, f,
                                           teal_plant_body_frame(p, b), &axis, 0.0);
      if (j < 0) {
        return j;
      }
    }
    prev = b;
  }
  return TEAL_OK;
}

/* Loads, finalizes, makes a context and evaluates vdot; *t gets the times. */
static int run_model(int model, int n, const char *urdf, run_times *t) {
  teal_error err = {0, ""};
  *t = (run_times){NAN, NAN, NAN, NAN};
  teal_plant *p = teal_plant_new(0.0, &err);
  double t0 = bench_now_seconds();
  int rc = !p                    ? err.code
           : model == MODEL_URDF ? teal_urdf_load_string(p, urdf, NULL, &err)
                                 : build_direct(p, n, model == MODEL_CHAIN);
  rc = rc < 0 ? rc : TEAL_OK;
  double t1 = bench_now_seconds();
  rc = rc ? rc : teal_plant_finalize(p);
  double t2 = bench_now_seconds();
  teal_context *ctx = rc ? NULL : teal_context_new(teal_plant_system(p), &err);
  double t3 = bench_now_seconds();
  const double *vdot = NULL;
  rc = rc ? rc : !ctx ? err.code : teal_plant_eval_generalized_acceleration(p, ctx, &vdot);
  double t4 = bench_now_seconds();
  if (rc) {
    const char *msg = err.code ? err.message : p ? teal_plant_error(p)->message : "";
    fprintf(stderr, "%s, n = %d: failed (%d): %s%s\n", k_model_names[model], n, rc, msg,
            ctx ? teal_context_error(ctx)->message : "");
  } else {
    *t = (run_times){t1 - t0, t2 - t1, t3 - t2, t4 - t3};
  }
  teal_context_free(ctx);
  teal_plant_free(p);
  return rc;
}

/* The time libxml2 takes to parse urdf: a load that fails right after the
 * parse (the root element is renamed, so the document is not a robot). */
static double xml_parse_time(char *urdf) {
  teal_error err = {0, ""};
  teal_plant *p = teal_plant_new(0.0, &err);
  memcpy(urdf + 1, "tobor", 5);
  char *end = strstr(urdf, "</robot>");
  memcpy(end + 2, "tobor", 5);
  double t0 = bench_now_seconds();
  teal_urdf_load_string(p, urdf, "x", &err);
  double t = bench_now_seconds() - t0;
  memcpy(urdf + 1, "robot", 5);
  memcpy(end + 2, "robot", 5);
  teal_plant_free(p);
  return t;
}

/* ---- the table ------------------------------------------------------------------ */

static double best(double a, double b) {
  return isnan(a) ? b : isnan(b) ? a : a < b ? a : b;
}

static void print_model(const bench_table *tab, int model, const run_times t[2]) {
  const char *rows[5] = {"load", "finalize", "load + finalize", "context_new", "eval vdot"};
  bench_table_group(k_model_names[model]);
  for (int r = 0; r < 5; r++) {
    double x[2];
    for (int k = 0; k < 2; k++) {
      x[k] = r == 0   ? t[k].load
             : r == 1 ? t[k].finalize
             : r == 2 ? t[k].load + t[k].finalize
             : r == 3 ? t[k].context
                      : t[k].vdot;
    }
    bench_cell c[3];
    bench_fmt_time(c[0], x[0]);
    bench_fmt_time(c[1], x[1]);
    bench_fmt_ratio(c[2], x[1], 10.0 * x[0]);
    bench_table_row(tab, rows[r], c);
  }
}

int main(void) {
  static const int sizes[2] = {10000, 100000};
  run_times t[NMODELS][2];
  double xml[2] = {NAN, NAN};
  int failed = 0;
  printf("Model scale: load, finalize, context and forward dynamics of n links\n");
  bench_print_compiler();
  bench_blas_single_thread();
  for (int k = 0; k < 2; k++) {
    char *urdf = bench_chain_urdf(sizes[k]);
    for (int m = 0; m < NMODELS; m++) {
      t[m][k] = (run_times){NAN, NAN, NAN, NAN};
      for (int r = 0; r < 3; r++) {
        run_times one = {NAN, NAN, NAN, NAN};
        fprintf(stderr, "%s, n = %d, run %d\n", k_model_names[m], sizes[k], r + 1);
        failed |= urdf || m != MODEL_URDF ? run_model(m, sizes[k], urdf, &one) != TEAL_OK : 1;
        t[m][k] = (run_times){best(t[m][k].load, one.load), best(t[m][k].finalize, one.finalize),
                              best(t[m][k].context, one.context), best(t[m][k].vdot, one.vdot)};
      }
    }
    for (int r = 0; urdf && r < 3; r++) {
      xml[k] = best(xml[k], xml_parse_time(urdf));
    }
    free(urdf);
  }
  bench_table tab = {24, 12, 3};
  const char *titles[3] = {"n = 10,000", "n = 100,000", "ratio"};
  bench_table_header(&tab, "best of 3 runs; ratio = t(100,000) / (10 t(10,000)), 1.00x linear",
                     titles);
  for (int m = 0; m < NMODELS; m++) {
    print_model(&tab, m, t[m]);
  }
  bench_cell c[3];
  bench_fmt_time(c[0], xml[0]);
  bench_fmt_time(c[1], xml[1]);
  bench_fmt_ratio(c[2], xml[1], 10.0 * xml[0]);
  bench_table_row(&tab, "  of which xml parse", c);
  double chain = t[MODEL_CHAIN][1].load + t[MODEL_CHAIN][1].finalize;
  double forest = t[MODEL_FOREST][1].load + t[MODEL_FOREST][1].finalize;
  double urdf = t[MODEL_URDF][1].load + t[MODEL_URDF][1].finalize;
  printf("\ntarget: 100,000 links loaded and finalized in under 1 s\n");
  printf("  plant API: %s (chain %.3f s, forest %.3f s)\n",
         chain < 1.0 && forest < 1.0 ? "met" : "not met", chain, forest);
  printf("  URDF: %s (%.3f s, of which %.3f s in libxml2's parse)\n",
         urdf < 1.0 ? "met" : "not met", urdf, xml[1]);
  printf("\n");
  bench_print_reproduce("model_scale", 0);
  return failed;
}
