/* URDF loading entry points: the input limits (teal_urdf_options),
 * reading the file, the pre-scan that enforces the limits before libxml2
 * parses (the parse itself is urdf_xml.c), walking <robot>, and the parse
 * -> check -> build sequence (see urdf_internal.h). */
#define _POSIX_C_SOURCE 200809L /* open, fstat, read, O_CLOEXEC */
#include "multibody/parsing/urdf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "multibody/parsing/urdf_internal.h"
#include "multibody/parsing/xml_load_internal.h"
#include "multibody/tree/topology.h"

/* ---- limits ------------------------------------------------------------------- */

void teal_urdf_options_init(teal_urdf_options *options) {
  if (options) {
    options->max_bytes = TEAL_URDF_DEFAULT_MAX_BYTES;
    options->max_attributes = TEAL_URDF_DEFAULT_MAX_ATTRIBUTES;
    options->packages = NULL;
  }
}

/* The options in force (NULL: the defaults) with max_bytes clamped to what
 * libxml2 takes (an int length); TEAL_EINVAL for limits that are not positive. */
static int resolve_options(const teal_urdf_options *given, teal_urdf_options *o, teal_error *err) {
  teal_urdf_options_init(o);
  if (given) {
    *o = *given;
  }
  return xml_load_check_limits("urdf", &o->max_bytes, o->max_attributes, err);
}

/* ---- the pre-scan ------------------------------------------------------------------ */

/* The byte after the first occurrence of end at or after i (len if none). */
static size_t skip_past(const char *buf, size_t len, size_t i, const char *end) {
  size_t k = strlen(end);
  while (i + k <= len) {
    const char *c = memchr(buf + i, end[0], len - i);
    if (!c || (size_t)(c - buf) + k > len) {
      break;
    }
    i = (size_t)(c - buf);
    if (memcmp(c, end, k) == 0) {
      return i + k;
    }
    i++;
  }
  return len;
}

static int starts(const char *buf, size_t len, size_t i, const char *prefix) {
  size_t k = strlen(prefix);
  return i + k <= len && memcmp(buf + i, prefix, k) == 0;
}

/* The line of byte i (1-based). */
static long line_of(const char *buf, size_t i) {
  long line = 1;
  for (const char *c = buf; (c = memchr(c, '\n', (size_t)(buf + i - c))) != NULL; c++) {
    line++;
  }
  return line;
}

/* A start tag at i ('<'): counts the attributes ('=' outside quoted values)
 * up to max + 1; returns the index after the tag, or of a stray '<' in it. */
static size_t scan_start_tag(const char *buf, size_t len, size_t i, int max, int *count) {
  /* the characters that matter in a tag (a table: most bytes are none of them) */
  static const unsigned char special[256] = {
      ['"'] = 1, ['\''] = 1, ['='] = 1, ['>'] = 1, ['<'] = 1};
  *count = 0;
  for (i++; i < len; i++) {
    while (i < len && !special[(unsigned char)buf[i]]) {
      i++;
    }
    if (i == len) {
      break;
    }
    char c = buf[i];
    if (c == '"' || c == '\'') {
      /* a quoted value: on to its closing quote (len if none) */
      const char *q = memchr(buf + i + 1, c, len - i - 1);
      if (!q) {
        return len;
      }
      i = (size_t)(q - buf);
    } else if (c == '=' && ++*count > max) {
      break;
    } else if (c == '>') {
      return i + 1;
    } else if (c == '<') {
      break; /* malformed: libxml2 stops at it, and so does this scan */
    }
  }
  return i;
}

/* <!DOCTYPE at i: the index after it; *subset set when it has an internal
 * subset ('[' outside quoted literals). */
static size_t scan_doctype(const char *buf, size_t len, size_t i, int *subset) {
  char quote = 0;
  *subset = 0;
  for (i += 9; i < len; i++) {
    char c = buf[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[') {
      *subset = 1;
      return i;
    } else if (c == '>') {
      return i + 1;
    }
  }
  return i;
}

/* A document the pre-scan cannot read byte by byte is refused: libxml2 is
 * told to read UTF-8 whatever the XML declaration says, but it switches to
 * UTF-16, UTF-32 or EBCDIC from the first bytes (a byte-order mark, NULs). */
static int check_encoding(urdf_model *m, const char *buf, size_t len) {
  const unsigned char *u = (const unsigned char *)buf;
  int wide = (len >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) || (u[0] == 0xFF && u[1] == 0xFE))) ||
             memchr(buf, '\0', len < 4 ? len : 4) != NULL ||
             (len >= 4 && u[0] == 0x4C && u[1] == 0x6F && u[2] == 0xA7 && u[3] == 0x94);
  if (wide) {
    return urdf_fail(m, NULL, TEAL_EPARSE,
                     "malformed XML: not UTF-8 (a UTF-16, UTF-32 or EBCDIC document); URDF "
                     "documents are read as UTF-8");
  }
  return TEAL_OK;
}

/* Refuses, before libxml2 sees them, an element with more than max
 * attributes (namespace declarations included: libxml2 2.9 spends time
 * quadratic in the number of attributes of one element, 100,000 take
 * minutes) and a DTD internal subset (its entities' replacement text is
 * parsed as markup and its attribute-list declarations add attributes, both
 * out of this scan's sight). The scan follows XML's lexical structure
 * (comments, PIs, CDATA, quoted values), so on a well-formed prefix it sees
 * exactly the start tags libxml2 parses; libxml2 is stopped at its first
 * error (capture_error), so nothing past a malformation is parsed. */
int urdf_prescan(urdf_model *m, const char *buf, size_t len, int max) {
  int rc = check_encoding(m, buf, len);
  for (size_t i = 0; rc == TEAL_OK && i < len;) {
    const char *lt = memchr(buf + i, '<', len - i);
    if (!lt) {
      break;
    }
    i = (size_t)(lt - buf);
    int n = 0;
    if (i + 1 < len && buf[i + 1] != '!' && buf[i + 1] != '?' && buf[i + 1] != '/') {
      size_t at = i;
      i = scan_start_tag(buf, len, i, max, &n);
      if (n > max) {
        size_t k = strcspn(buf + at + 1, " \t\r\n/>=");
        rc = teal_error_set(m->err, TEAL_ESIZE,
                            "%s:%ld: <%.*s>: more than %d attributes on one element (the limit is "
                            "teal_urdf_options.max_attributes)",
                            m->source, line_of(buf, at), (int)(k < 64 ? k : 64), buf + at + 1, max);
      }
    } else if (starts(buf, len, i, "<!--")) {
      i = skip_past(buf, len, i + 4, "-->");
    } else if (starts(buf, len, i, "<![CDATA[")) {
      i = skip_past(buf, len, i + 9, "]]>");
    } else if (starts(buf, len, i, "<?")) {
      i = skip_past(buf, len, i + 2, "?>");
    } else if (starts(buf, len, i, "<!DOCTYPE")) {
      size_t at = i;
      i = scan_doctype(buf, len, i, &n);
      if (n) {
        rc = teal_error_set(m->err, TEAL_EPARSE,
                            "%s:%ld: malformed XML: a document type declaration with an internal "
                            "subset (<!DOCTYPE ... [...]>) is not supported",
                            m->source, line_of(buf, at));
      }
    } else if (starts(buf, len, i, "<!") || starts(buf, len, i, "</")) {
      i = skip_past(buf, len, i + 2, ">");
    } else {
      i = scan_start_tag(buf, len, i, max, &n); /* a '<' at the very end */
    }
  }
  return rc;
}

/* ---- XML ----------------------------------------------------------------------- */

/* Parses the document after the pre-scan (urdf_xml.c). */
static int parse_xml(urdf_model *m, const char *buf, size_t len, const teal_urdf_options *o) {
  int rc = urdf_prescan(m, buf, len, o->max_attributes);
  return rc ? rc : urdf_xml_parse(m, buf, len);
}

/* ---- <robot> --------------------------------------------------------------------- */

/* A top-level element other than <material> (parsed first). */
static int parse_top_element(urdf_model *m, urdf_node *c) {
  if (urdf_is(c, "link")) {
    return urdf_parse_link(m, c);
  }
  if (urdf_is(c, "joint") || urdf_is(c, "drake:joint")) {
    return urdf_parse_joint(m, c, urdf_is(c, "drake:joint"));
  }
  if (urdf_is(c, "transmission")) {
    return urdf_parse_transmission(m, c);
  }
  if (urdf_is(c, "frame")) {
    return urdf_parse_frame(m, c);
  }
  if (urdf_is_constraint(c)) {
    return urdf_parse_constraint(m, c);
  }
  if (urdf_is_drake(c)) {
    urdf_warn(m, c, &m->report->ignored_elements, "unsupported element ignored");
  }
  return TEAL_OK;
}

/* The link and joint lists at their final size (growing them by doubling
 * copied every record of a large model twice over). */
static int reserve_lists(urdf_model *m, const urdf_node *root) {
  int links = 1, joints = 0; /* and the world */
  for (const urdf_node *c = root->children; c; c = c->next) {
    links += urdf_is(c, "link");
    joints += urdf_is(c, "joint") || urdf_is(c, "drake:joint");
  }
  int rc = teal_reserve(&m->links.data, &m->links.cap, links, sizeof(urdf_link));
  rc = rc ? rc : teal_reserve(&m->joints.data, &m->joints.cap, joints, sizeof(urdf_joint));
  return rc ? urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory") : TEAL_OK;
}

static int parse_robot(urdf_model *m) {
  urdf_node *root = m->xml.root;
  if (!root) {
    return urdf_fail(m, NULL, TEAL_EPARSE, "empty document");
  }
  if (!urdf_is(root, "robot")) {
    return urdf_fail(m, root, TEAL_EPARSE, "the root element must be <robot>");
  }
  m->robot_name = urdf_attr(m, root, "name");
  int rc = m->err->code ? m->err->code : reserve_lists(m, root);
  rc = rc ? rc : urdf_add_world(m);
  /* materials first: visuals may name materials defined further down */
  for (urdf_node *c = root->children; c && !rc; c = c->next) {
    double rgba[4];
    rc = urdf_is(c, "material") ? urdf_parse_material(m, c, 1, rgba) : TEAL_OK;
  }
  for (urdf_node *c = root->children; c && !rc; c = c->next) {
    rc = parse_top_element(m, c);
  }
  return rc;
}

/* ---- the sequence ------------------------------------------------------------------ */

void urdf_free_model(urdf_model *m) {
  urdf_free_geoms(m);
  for (int i = 0; i < m->strings.n; i++) {
    teal_free(((char **)m->strings.data)[i]);
  }
  urdf_list *lists[] = {&m->links,  &m->joints,      &m->geoms,   &m->materials, &m->actuators,
                        &m->frames, &m->constraints, &m->strings, &m->instances};
  for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
    teal_free(lists[i]->data);
  }
  teal_free(m->link_order);
  urdf_table_free(&m->link_index);
  urdf_table_free(&m->joint_index);
  urdf_xml_free(&m->xml);
}

/* The plant must be open and free of errors. */
int urdf_check_plant(const teal_plant *plant, const char *source, teal_error *err) {
  if (!plant) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", source);
  }
  if (teal_plant_is_finalized(plant)) {
    return teal_error_set(err, TEAL_ESTATE, "%s: the plant is already finalized", source);
  }
  const teal_error *pe = teal_plant_error(plant);
  if (pe->code != TEAL_OK) {
    return teal_error_set(err, pe->code, "%s: the plant already failed: %s", source, pe->message);
  }
  return TEAL_OK;
}

/* The instance name: the caller's or the robot's. */
static int instance_name(urdf_model *m, const char *given, const char **name) {
  *name = given ? given : m->robot_name;
  if (given && !*given) {
    return urdf_fail(m, NULL, TEAL_EINVAL, "empty instance name");
  }
  if (!*name || !**name) {
    return urdf_fail(m, m->xml.root, TEAL_EPARSE, "missing attribute 'name'");
  }
  return TEAL_OK;
}

static int load(teal_plant *plant, const char *buf, size_t len, const char *source, const char *dir,
                const char *given, const teal_urdf_options *o, teal_urdf_report *report,
                teal_error *err) {
  const char *inst = NULL;
  urdf_model m;
  memset(&m, 0, sizeof(m));
  m.source = source;
  m.dir = dir;
  m.err = err;
  m.report = report;
  m.packages = o->packages;
  int rc = urdf_check_plant(plant, source, err);
  rc = rc ? rc : parse_xml(&m, buf, len, o);
  rc = rc ? rc : parse_robot(&m);
  rc = rc ? rc : instance_name(&m, given, &inst);
  rc = rc ? rc : urdf_resolve(&m, plant, inst);
  rc = rc ? rc : urdf_build(&m, plant);
  urdf_free_model(&m);
  return rc;
}

/* ---- files ---------------------------------------------------------------------------- */

static const char *file_kind(mode_t mode) {
  return S_ISDIR(mode)    ? "a directory"
         : S_ISCHR(mode)  ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISFIFO(mode) ? "a pipe"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a regular file";
}

/* Reads fd to its end into a teal_alloc'd, NUL-terminated buffer of at most
 * max bytes; hint (<= max) is the size fstat gave, which a growing or
 * special file may exceed. */
static int read_all(int fd, const char *path, size_t max, size_t hint, char **out, size_t *len,
                    teal_error *err) {
  size_t cap = hint + 1, n = 0;
  char *data = teal_alloc(cap + 1);
  int rc = data ? TEAL_OK : teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", path);
  while (rc == TEAL_OK) {
    if (n > max) {
      rc = teal_error_set(err, TEAL_ESIZE,
                          "%s: longer than the limit of %zu bytes (teal_urdf_options.max_bytes)",
                          path, max);
      break;
    }
    if (n == cap) {
      size_t grown_cap = cap <= max / 2 ? 2 * cap : max + 1;
      char *grown = teal_alloc(grown_cap + 1);
      if (!grown) {
        rc = teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", path);
        break;
      }
      memcpy(grown, data, n);
      teal_free(data);
      data = grown;
      cap = grown_cap;
    }
    ssize_t got = read(fd, data + n, cap - n);
    if (got == 0) {
      break;
    }
    if (got < 0 && errno != EINTR) {
      rc = teal_error_set(err, TEAL_EIO, "%s: read error: %s", path, strerror(errno));
    }
    n += got > 0 ? (size_t)got : 0;
  }
  if (rc != TEAL_OK) {
    teal_free(data);
    return rc;
  }
  data[n] = '\0';
  *out = data;
  *len = n;
  return TEAL_OK;
}

/* Reads the whole file into a teal_alloc'd buffer: a regular file of at
 * most max bytes. Opening does not block (a FIFO without a writer) and
 * nothing is read from what is not a regular file (/dev/zero, a directory). */
int urdf_read_file(const char *path, size_t max, char **buf, size_t *len, teal_error *err) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    return teal_error_set(err, TEAL_EIO, "%s: cannot open: %s", path, strerror(errno));
  }
  struct stat st;
  int rc;
  if (fstat(fd, &st) != 0) {
    rc = teal_error_set(err, TEAL_EIO, "%s: cannot stat: %s", path, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    rc = teal_error_set(err, TEAL_EIO, "%s: not a regular file (%s)", path, file_kind(st.st_mode));
  } else if (st.st_size < 0 || (uintmax_t)st.st_size > (uintmax_t)max) {
    rc = teal_error_set(err, TEAL_ESIZE,
                        "%s: %jd bytes, more than the limit of %zu (teal_urdf_options.max_bytes)",
                        path, (intmax_t)st.st_size, max);
  } else {
    rc = read_all(fd, path, max, (size_t)st.st_size, buf, len, err);
  }
  close(fd);
  return rc;
}

/* The file's directory with a trailing '/' (NULL when path has no '/'). */
int urdf_file_dir(const char *path, char **dir, teal_error *err) {
  const char *slash = strrchr(path, '/');
  *dir = NULL;
  if (!slash) {
    return TEAL_OK;
  }
  *dir = teal_alloc((size_t)(slash - path) + 2);
  if (!*dir) {
    return teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", path);
  }
  memcpy(*dir, path, (size_t)(slash - path) + 1);
  (*dir)[slash - path + 1] = '\0';
  return TEAL_OK;
}

/* The entry points' work: input is a path (is_file) or a document. */
static int load_input(teal_plant *plant, const char *input, int is_file, const char *instance_name,
                      const teal_urdf_options *options, teal_urdf_report *report, teal_error *err) {
  teal_urdf_report local_report;
  teal_error local_err;
  report = report ? report : &local_report;
  err = err ? err : &local_err;
  memset(report, 0, sizeof(*report));
  teal_error_clear(err);
  teal_urdf_options o;
  xml_file f;
  int rc = resolve_options(options, &o, err);
  rc = rc ? rc : xml_load_input(&f, "urdf", input, is_file, o.max_bytes, err);
  if (rc == TEAL_OK) {
    rc = load(plant, f.text, f.len, f.base, f.dir, instance_name, &o, report, err);
    xml_load_free_file(&f);
  }
  return rc;
}

int teal_urdf_load_file_opts(teal_plant *plant, const char *path, const char *instance_name,
                             const teal_urdf_options *options, teal_urdf_report *report,
                             teal_error *err) {
  return load_input(plant, path, 1, instance_name, options, report, err);
}

int teal_urdf_load_string_opts(teal_plant *plant, const char *xml, const char *instance_name,
                               const teal_urdf_options *options, teal_urdf_report *report,
                               teal_error *err) {
  return load_input(plant, xml, 0, instance_name, options, report, err);
}

int teal_urdf_load_file_ex(teal_plant *plant, const char *path, const char *instance_name,
                           teal_urdf_report *report, teal_error *err) {
  return teal_urdf_load_file_opts(plant, path, instance_name, NULL, report, err);
}

int teal_urdf_load_string_ex(teal_plant *plant, const char *xml, const char *instance_name,
                             teal_urdf_report *report, teal_error *err) {
  return teal_urdf_load_string_opts(plant, xml, instance_name, NULL, report, err);
}

int teal_urdf_load_file(teal_plant *plant, const char *path, const char *instance_name,
                        teal_error *err) {
  return teal_urdf_load_file_opts(plant, path, instance_name, NULL, NULL, err);
}

int teal_urdf_load_string(teal_plant *plant, const char *xml, const char *instance_name,
                          teal_error *err) {
  return teal_urdf_load_string_opts(plant, xml, instance_name, NULL, NULL, err);
}
