/* Text tables shared by the bench programs (see table.h). */
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void bench_fmt_time(bench_cell c, double s) {
  static const char *unit[4] = {"ns", "us", "ms", "s"};
  int u = 0;
  double x = s * 1e9;
  if (isnan(s)) {
    snprintf(c, BENCH_CELL_MAX, "-");
    return;
  }
  while (u < 3 && x >= 999.5) {
    x /= 1e3;
    u++;
  }
  snprintf(c, BENCH_CELL_MAX,
           x >= 99.95   ? "%.0f %s"
           : x >= 9.995 ? "%.1f %s"
                        : "%.2f %s",
           x, unit[u]);
}

void bench_fmt_ratio(bench_cell c, double a, double b) {
  if (isnan(a) || isnan(b)) {
    snprintf(c, BENCH_CELL_MAX, "-");
  } else {
    snprintf(c, BENCH_CELL_MAX, "%.2fx", a / b);
  }
}

void bench_fmt_value(bench_cell c, const char *fmt, double x) {
  if (isnan(x)) {
    snprintf(c, BENCH_CELL_MAX, "-");
  } else {
    snprintf(c, BENCH_CELL_MAX, fmt, x);
  }
}

void bench_table_header(const bench_table *t, const char *title, const char *const *titles) {
  printf("\n%s\n  %-*s", title, t->label_w, "");
  for (int c = 0; c < t->ncols; c++) {
    printf(" %*s", t->cell_w, titles[c]);
  }
  printf("\n");
}

void bench_table_row(const bench_table *t, const char *label, bench_cell *cells) {
  int any = 0;
  for (int c = 0; c < t->ncols; c++) {
    any |= strcmp(cells[c], "-") != 0;
  }
  if (!any) {
    return;
  }
  printf("  %-*s", t->label_w, label);
  for (int c = 0; c < t->ncols; c++) {
    printf(" %*s", t->cell_w, cells[c]);
  }
  printf("\n");
}

void bench_table_group(const char *label) {
  printf("  %s\n", label);
}

void bench_print_reproduce(const char *name, int configure) {
  printf("reproduce: %scmake --build build --target bench_%s && build/bench_%s\n",
         configure ? "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && " : "", name, name);
}
