/* URDF parsing helpers: lists, messages, attributes, numbers, origins. */
#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "math/rotation.h"
#include "multibody/parsing/urdf_internal.h"

/* ---- lists and the string pool ------------------------------------------ */

void *urdf_push(urdf_model *m, urdf_list *l, size_t elem) {
  if (teal_grow(&l->data, &l->cap, l->n + 1, elem) != TEAL_OK) {
    urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
    return NULL;
  }
  void *e = (char *)l->data + (size_t)l->n * elem;
  memset(e, 0, elem);
  l->n++;
  return e;
}

const char *urdf_keep(urdf_model *m, char *s) {
  if (!s) {
    urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
    return NULL;
  }
  char **slot = urdf_push(m, &m->strings, sizeof(char *));
  if (!slot) {
    teal_free(s);
    return NULL;
  }
  *slot = s;
  return s;
}

/* ---- messages ------------------------------------------------------------ */

/* "<tag name="x">" or "<tag>" for node, into buf. */
static void describe(const urdf_node *node, char *buf, size_t size) {
  const char *prefix = node->prefix;
  const char *name = NULL;
  for (int i = 0; i < node->nattrs; i++) {
    const urdf_xattr *a = &node->attrs[i];
    if (strcmp(a->name, "name") == 0 && a->value && a->value != urdf_no_text) {
      name = a->value;
    }
  }
  snprintf(buf, size, "<%s%s%s%s%.80s%s>", prefix ? prefix : "", prefix ? ":" : "", node->name,
           name ? " name=\"" : "", name ? name : "", name ? "\"" : "");
}

/* "source:line: <elem>: " (or "source: ") followed by the formatted text. */
static void format_message(const urdf_model *m, const urdf_node *node, char *buf, size_t size,
                           const char *fmt, va_list ap) {
  int used;
  if (node) {
    char elem[160];
    describe(node, elem, sizeof(elem));
    used = snprintf(buf, size, "%s:%d: %s: ", m->source, node->line, elem);
  } else {
    used = snprintf(buf, size, "%s: ", m->source);
  }
  if (used >= 0 && (size_t)used < size) {
    vsnprintf(buf + used, size - (size_t)used, fmt, ap);
  }
}

int urdf_fail(urdf_model *m, const urdf_node *node, int code, const char *fmt, ...) {
  if (m->err->code != TEAL_OK) {
    return m->err->code;
  }
  char buf[TEAL_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  format_message(m, node, buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return teal_error_set(m->err, code, "%s", buf);
}

void urdf_warn(urdf_model *m, const urdf_node *node, int *counter, const char *fmt, ...) {
  teal_urdf_report *r = m->report;
  if (counter) {
    (*counter)++;
  }
  if (r->num_warnings++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    format_message(m, node, r->first_warning, sizeof(r->first_warning), fmt, ap);
    va_end(ap);
  }
}

/* ---- elements and attributes --------------------------------------------- */

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int urdf_is(const urdf_node *node, const char *qname) {
  if (!node) {
    return 0;
  }
  if (node->prefix) {
    size_t n = strlen(node->prefix);
    return strncmp(qname, node->prefix, n) == 0 && qname[n] == ':' &&
           strcmp(qname + n + 1, node->name) == 0;
  }
  return strcmp(node->name, qname) == 0;
}

int urdf_is_drake(const urdf_node *node) {
  if (!node) {
    return 0;
  }
  if (node->prefix) {
    return strcmp(node->prefix, "drake") == 0;
  }
  return strncmp(node->name, "drake:", 6) == 0;
}

int urdf_unique_child(urdf_model *m, urdf_node *node, const char *qname, urdf_node **out) {
  *out = NULL;
  for (urdf_node *c = node->children; c; c = c->next) {
    if (!urdf_is(c, qname)) {
      continue;
    }
    if (*out) {
      return urdf_fail(m, c, TEAL_EPARSE, "more than one <%s> in <%s>", qname, node->name);
    }
    *out = c;
  }
  return TEAL_OK;
}

const char *urdf_attr(urdf_model *m, urdf_node *node, const char *name) {
  for (int i = 0; i < node->nattrs; i++) {
    const urdf_xattr *a = &node->attrs[i];
    if (strcmp(a->name, name) != 0) {
      continue;
    }
    if (a->value) {
      return a->value;
    }
    /* entity references are not expanded (no entity amplification) */
    urdf_fail(m, node, TEAL_EPARSE, "attribute '%s' uses entity references", name);
    return NULL;
  }
  return NULL;
}

int urdf_attr_required(urdf_model *m, urdf_node *node, const char *name, const char **out) {
  *out = urdf_attr(m, node, name);
  if (m->err->code != TEAL_OK) {
    return m->err->code;
  }
  if (!*out || !**out) {
    return urdf_fail(m, node, TEAL_EPARSE, "missing attribute '%s'", name);
  }
  return TEAL_OK;
}

const char *urdf_text(urdf_model *m, urdf_node *node) {
  size_t n = 0;
  for (const urdf_chunk *t = node->text; t; t = t->next) {
    n += t->len;
  }
  char *s = teal_alloc(n + 1);
  if (!urdf_keep(m, s)) {
    return NULL;
  }
  /* the direct text children only: entity references are not expanded */
  size_t k = 0;
  for (const urdf_chunk *t = node->text; t; t = t->next) {
    memcpy(s + k, t->data, t->len);
    k += t->len;
  }
  s[k] = '\0';
  char *w = s;
  while (is_space(*w)) {
    w++;
  }
  for (k = strlen(w); k > 0 && is_space(w[k - 1]); k--) {
    w[k - 1] = '\0';
  }
  return w;
}

/* ---- numbers ------------------------------------------------------------ */

/* 1 if the token (after a sign) spells nan or inf in any case. */
static int spells_nonfinite(const char *tok, size_t len) {
  size_t i = len > 0 && (tok[0] == '+' || tok[0] == '-') ? 1 : 0;
  if (len - i < 3) {
    return 0;
  }
  char w[4] = {(char)tolower((unsigned char)tok[i]), (char)tolower((unsigned char)tok[i + 1]),
               (char)tolower((unsigned char)tok[i + 2]), '\0'};
  return strcmp(w, "nan") == 0 || strcmp(w, "inf") == 0;
}

/* The common short decimal ([sign] digits [. digits], no exponent) without
 * strtod: 1 with *out set when the token has that form, a mantissa below
 * 2^53 and at most 22 decimals, since then the mantissa and the power of
 * ten are exact doubles and their IEEE quotient is the correctly rounded
 * value, the same double strtod gives (Clinger's fast path). 0 otherwise. */
static int parse_simple_decimal(const char *tok, size_t len, double *out) {
  static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  size_t i = len > 0 && (tok[0] == '+' || tok[0] == '-') ? 1 : 0;
  uint64_t mantissa = 0;
  int digits = 0, decimals = 0, point = 0;
  for (; i < len; i++) {
    if (tok[i] == '.' && !point) {
      point = 1;
    } else if (tok[i] >= '0' && tok[i] <= '9' && mantissa < (UINT64_C(1) << 53) / 10) {
      mantissa = 10 * mantissa + (uint64_t)(tok[i] - '0');
      digits++;
      decimals += point;
    } else {
      return 0; /* another character, a second point, or too many digits */
    }
  }
  if (digits == 0 || decimals > 22) {
    return 0;
  }
  double x = (double)mantissa / pow10[decimals];
  *out = tok[0] == '-' ? -x : x;
  return 1;
}

/* Parses one decimal token of length len whatever the C locale's decimal
 * separator is: TEAL_OK, TEAL_EPARSE (not a number) or TEAL_ENONFINITE. */
static int parse_token(const char *tok, size_t len, double *out) {
  char buf[128];
  if (spells_nonfinite(tok, len)) {
    return TEAL_ENONFINITE;
  }
  if (len < sizeof(buf) && parse_simple_decimal(tok, len, out)) {
    return TEAL_OK;
  }
  if (len == 0 || len >= sizeof(buf)) {
    return TEAL_EPARSE;
  }
  const char *dp = localeconv()->decimal_point;
  char sep = dp && dp[0] && !dp[1] ? dp[0] : '.';
  for (size_t i = 0; i < len; i++) {
    if (!strchr("0123456789+-.eE", tok[i])) {
      return TEAL_EPARSE;
    }
    buf[i] = tok[i] == '.' ? sep : tok[i];
  }
  buf[len] = '\0';
  char *end = NULL;
  double x = strtod(buf, &end);
  if (end != buf + len) {
    return TEAL_EPARSE;
  }
  *out = x;
  return isfinite(x) ? TEAL_OK : TEAL_ENONFINITE;
}

/* Splits s into at most max tokens; returns the count (max + 1 if more). */
static int tokenize(const char *s, int max, const char **tok, size_t *len) {
  int n = 0;
  while (*s) {
    while (is_space(*s)) {
      s++;
    }
    if (!*s) {
      break;
    }
    const char *start = s;
    while (*s && !is_space(*s)) {
      s++;
    }
    if (n == max) {
      return max + 1;
    }
    tok[n] = start;
    len[n++] = (size_t)(s - start);
  }
  return n;
}

int urdf_parse_numbers(const char *s, int n, double *out) {
  const char *tok[8];
  size_t len[8];
  if (n < 1 || n > 8 || tokenize(s, n, tok, len) != n) {
    return TEAL_EPARSE;
  }
  for (int i = 0; i < n; i++) {
    int rc = parse_token(tok[i], len[i], &out[i]);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

int urdf_attr_numbers(urdf_model *m, urdf_node *node, const char *name, int n, double *out,
                      int *present) {
  const char *s = urdf_attr(m, node, name);
  if (m->err->code != TEAL_OK) {
    return m->err->code;
  }
  if (present) {
    *present = s != NULL;
  }
  if (!s) {
    return present ? TEAL_OK : urdf_fail(m, node, TEAL_EPARSE, "missing attribute '%s'", name);
  }
  const char *tok[8];
  size_t len[8];
  int count = tokenize(s, n < 8 ? n : 8, tok, len);
  if (count != n) {
    return urdf_fail(m, node, TEAL_EPARSE, "attribute %s=\"%.40s\" needs %d number%s", name, s, n,
                     n == 1 ? "" : "s");
  }
  for (int i = 0; i < n; i++) {
    int rc = parse_token(tok[i], len[i], &out[i]);
    if (rc == TEAL_ENONFINITE) {
      return urdf_fail(m, node, rc, "attribute %s=\"%.40s\" is not finite", name, s);
    }
    if (rc) {
      return urdf_fail(m, node, rc, "attribute %s=\"%.40s\" is not a number", name, s);
    }
  }
  return TEAL_OK;
}

int urdf_attr_double(urdf_model *m, urdf_node *node, const char *name, int required, double def,
                     double *out) {
  int present = 0;
  int rc = urdf_attr_numbers(m, node, name, 1, out, required ? NULL : &present);
  if (rc == TEAL_OK && !required && !present) {
    *out = def;
  }
  return rc;
}

int urdf_origin(urdf_model *m, urdf_node *node, teal_transform *X) {
  urdf_node *o;
  *X = teal_transform_identity();
  int rc = urdf_unique_child(m, node, "origin", &o);
  if (rc || !o) {
    return rc;
  }
  double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
  int present;
  rc = urdf_attr_numbers(m, o, "xyz", 3, xyz, &present);
  if (rc == TEAL_OK) {
    rc = urdf_attr_numbers(m, o, "rpy", 3, rpy, &present);
  }
  if (rc == TEAL_OK) {
    X->R = teal_rotation_from_rpy(teal_vec3_make(rpy[0], rpy[1], rpy[2]));
    X->p = teal_vec3_make(xyz[0], xyz[1], xyz[2]);
  }
  return rc;
}

teal_rotation urdf_rotation_z_to(teal_vec3 n, double parallel_tol) {
  static const double pi = 3.14159265358979323846;
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  double c = teal_vec3_dot(z, n);
  if (c > 1.0 - parallel_tol) {
    return teal_rotation_identity();
  }
  if (c < -1.0 + parallel_tol) {
    return teal_rotation_from_axis_angle(teal_vec3_make(1, 0, 0), pi);
  }
  return teal_rotation_from_axis_angle(teal_vec3_cross(z, n), acos(c));
}
