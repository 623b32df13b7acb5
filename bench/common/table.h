/* Text tables shared by the bench programs: a row label, then one
 * right-aligned cell per column (a model or a scene), times printed with
 * three significant figures and a unit ("1.63 us", "942 ms"), ratios as
 * "0.80x", and a "-" for a figure that was not measured. */
#ifndef TEAL_BENCH_COMMON_TABLE_H
#define TEAL_BENCH_COMMON_TABLE_H

#define BENCH_CELL_MAX 48

typedef char bench_cell[BENCH_CELL_MAX];

/* Seconds as "<x> ns|us|ms|s" with 3 significant figures; "-" for NAN. */
void bench_fmt_time(bench_cell c, double s);

/* a / b as "<r>x" with 2 decimals; "-" when either is NAN. */
void bench_fmt_ratio(bench_cell c, double a, double b);

/* x through the printf format fmt (one double); "-" for NAN. */
void bench_fmt_value(bench_cell c, const char *fmt, double x);

/* The layout of a table: label width, cell width and number of columns. */
typedef struct bench_table {
  int label_w, cell_w, ncols;
} bench_table;

/* A blank line, the title, then the column titles over the cells. */
void bench_table_header(const bench_table *t, const char *title, const char *const *titles);

/* A row of t->ncols cells; nothing when every cell is "-" (a peer that is
 * not built in). */
void bench_table_row(const bench_table *t, const char *label, bench_cell *cells);

/* A group heading inside a table ("  label"). */
void bench_table_group(const char *label);

/* The footer line telling how to rebuild and rerun the program bench_<name>:
 * with configure, the full configure + build + run command; without, only
 * build + run. */
void bench_print_reproduce(const char *name, int configure);

#endif
