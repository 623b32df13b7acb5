/* URDF loading entry points: reading the file, parsing the XML with
 * libxml2 (errors captured per parser context), walking <robot>, and the
 * parse -> check -> build sequence (see urdf_internal.h). */
#include "multibody/parsing/urdf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include "framework/alloc.h"
#include "multibody/parsing/model_path.h"
#include "multibody/parsing/urdf_internal.h"
#include "multibody/tree/topology.h"

/* ---- XML ----------------------------------------------------------------------- */

/* The first error libxml2 reports for a document. */
typedef struct xml_capture {
  int have;
  long line;
  char message[200];
} xml_capture;

#if LIBXML_VERSION >= 21200
static void capture_error(void *data, const xmlError *e) {
#else
static void capture_error(void *data, xmlErrorPtr e) {
#endif
  xmlParserCtxt *ctxt = data;
  xml_capture *cap = ctxt ? ctxt->_private : NULL;
  /* namespace errors (an undeclared drake: prefix) are not fatal */
  if (!cap || cap->have || !e || e->level < XML_ERR_ERROR || e->domain == XML_FROM_NAMESPACE) {
    return;
  }
  cap->have = 1;
  cap->line = e->line;
  snprintf(cap->message, sizeof(cap->message), "%s", e->message ? e->message : "error");
  /* one line: libxml2 splits some messages ("...encoding !\nBytes: ...") */
  for (char *c = cap->message; *c; c++) {
    *c = *c == '\n' || *c == '\r' || *c == '\t' ? ' ' : *c;
  }
  size_t n = strlen(cap->message);
  while (n > 0 && cap->message[n - 1] == ' ') {
    cap->message[--n] = '\0';
  }
}

/* Parses the document; a malformed one gives TEAL_EPARSE with its line.
 * No network, no DTD loading, no entity substitution, nothing on stderr. */
static int parse_xml(urdf_model *m, const char *buf, size_t len) {
  if (len > INT_MAX) {
    return urdf_fail(m, NULL, TEAL_EPARSE, "document too large");
  }
  xmlInitParser();
  xmlParserCtxt *ctxt = xmlNewParserCtxt();
  if (!ctxt) {
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  xml_capture cap = {0, 0, ""};
  ctxt->_private = &cap;
  ctxt->sax->serror = capture_error;
  int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
  m->doc = xmlCtxtReadMemory(ctxt, buf, (int)len, NULL, NULL, opts);
  int ok = m->doc && ctxt->wellFormed;
  xmlFreeParserCtxt(ctxt);
  if (ok) {
    return TEAL_OK;
  }
  xmlFreeDoc(m->doc);
  m->doc = NULL;
  return teal_error_set(m->err, TEAL_EPARSE, "%s:%ld: malformed XML: %s", m->source, cap.line,
                        cap.have ? cap.message : "not a well-formed document");
}

/* ---- <robot> --------------------------------------------------------------------- */

/* A top-level element other than <material> (parsed first). */
static int parse_top_element(urdf_model *m, xmlNode *c) {
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
  if (urdf_is_drake(c)) {
    urdf_warn(m, c, &m->report->ignored_elements, "unsupported element ignored");
  }
  return TEAL_OK;
}

static int parse_robot(urdf_model *m) {
  xmlNode *root = xmlDocGetRootElement(m->doc);
  if (!root) {
    return urdf_fail(m, NULL, TEAL_EPARSE, "empty document");
  }
  if (!urdf_is(root, "robot")) {
    return urdf_fail(m, root, TEAL_EPARSE, "the root element must be <robot>");
  }
  m->robot_name = urdf_attr(m, root, "name");
  int rc = m->err->code ? m->err->code : urdf_add_world(m);
  /* materials first: visuals may name materials defined further down */
  for (xmlNode *c = urdf_element(root->children); c && !rc; c = urdf_element(c->next)) {
    double rgba[4];
    rc = urdf_is(c, "material") ? urdf_parse_material(m, c, 1, rgba) : TEAL_OK;
  }
  for (xmlNode *c = urdf_element(root->children); c && !rc; c = urdf_element(c->next)) {
    rc = parse_top_element(m, c);
  }
  return rc;
}

/* ---- the sequence ------------------------------------------------------------------ */

static void free_model(urdf_model *m) {
  urdf_free_geoms(m);
  for (int i = 0; i < m->strings.n; i++) {
    teal_free(((char **)m->strings.data)[i]);
  }
  urdf_list *lists[] = {&m->links,     &m->joints,    &m->geoms,  &m->materials,
                        &m->actuators, &m->frames,    &m->strings};
  for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
    teal_free(lists[i]->data);
  }
  teal_free(m->link_order);
  teal_free(m->link_sorted);
  teal_free(m->joint_sorted);
  xmlFreeDoc(m->doc);
}

/* The plant must be open and free of errors. */
static int check_plant(const teal_plant *plant, const char *source, teal_error *err) {
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
    return urdf_fail(m, xmlDocGetRootElement(m->doc), TEAL_EPARSE, "missing attribute 'name'");
  }
  return TEAL_OK;
}

static int load(teal_plant *plant, const char *buf, size_t len, const char *source,
                const char *dir, const char *given, teal_urdf_report *report, teal_error *err) {
  const char *inst = NULL;
  urdf_model m;
  memset(&m, 0, sizeof(m));
  m.source = source;
  m.dir = dir;
  m.err = err;
  m.report = report;
  int rc = check_plant(plant, source, err);
  rc = rc ? rc : parse_xml(&m, buf, len);
  rc = rc ? rc : parse_robot(&m);
  rc = rc ? rc : instance_name(&m, given, &inst);
  rc = rc ? rc : urdf_resolve(&m, plant, inst);
  rc = rc ? rc : urdf_build(&m, plant, inst);
  free_model(&m);
  return rc;
}

/* ---- files ---------------------------------------------------------------------------- */

/* Reads the whole file into a teal_alloc'd buffer. */
static int read_file(const char *path, char **buf, size_t *len, teal_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return teal_error_set(err, TEAL_EIO, "%s: cannot open: %s", path, strerror(errno));
  }
  size_t cap = 0, n = 0;
  char *data = NULL;
  int rc = TEAL_OK;
  for (;;) {
    if (n == cap) {
      char *grown = cap < (size_t)INT_MAX ? teal_alloc(cap ? 2 * cap : 65536) : NULL;
      if (!grown) {
        rc = teal_error_set(err, cap ? TEAL_EIO : TEAL_ENOMEM, "%s: file too large", path);
        break;
      }
      if (n) {
        memcpy(grown, data, n);
      }
      teal_free(data);
      data = grown;
      cap = cap ? 2 * cap : 65536;
    }
    size_t got = fread(data + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      rc = ferror(f) ? teal_error_set(err, TEAL_EIO, "%s: read error", path) : TEAL_OK;
      break;
    }
  }
  fclose(f);
  if (rc) {
    teal_free(data);
    return rc;
  }
  *buf = data;
  *len = n;
  return TEAL_OK;
}

int teal_urdf_load_file_ex(teal_plant *plant, const char *path, const char *instance_name,
                           teal_urdf_report *report, teal_error *err) {
  teal_urdf_report local_report;
  teal_error local_err;
  report = report ? report : &local_report;
  err = err ? err : &local_err;
  memset(report, 0, sizeof(*report));
  teal_error_clear(err);
  if (!path) {
    return teal_error_set(err, TEAL_EINVAL, "urdf: NULL path");
  }
  char *buf = NULL, *dir = NULL, found[4096];
  size_t len = 0;
  teal_error why = {TEAL_OK, ""};
  int searched = path[0] != '/';
  /* a relative name that is not in the working directory: the search path */
  if (searched && teal_model_path_find(path, found, sizeof found, &why) == TEAL_OK) {
    path = found;
  }
  int rc = read_file(path, &buf, &len, err);
  if (rc == TEAL_EIO && searched && why.code == TEAL_ENOTFOUND) {
    return teal_error_set(err, TEAL_EIO, "%s: cannot open (%s)", path, why.message);
  }
  const char *slash = strrchr(path, '/');
  if (rc == TEAL_OK && slash) {
    dir = teal_alloc((size_t)(slash - path) + 2);
    if (!dir) {
      rc = teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", path);
    } else {
      memcpy(dir, path, (size_t)(slash - path) + 1);
      dir[slash - path + 1] = '\0';
    }
  }
  if (rc == TEAL_OK) {
    rc = load(plant, buf, len, slash ? slash + 1 : path, dir, instance_name, report, err);
  }
  teal_free(dir);
  teal_free(buf);
  return rc;
}

int teal_urdf_load_string_ex(teal_plant *plant, const char *xml, const char *instance_name,
                             teal_urdf_report *report, teal_error *err) {
  teal_urdf_report local_report;
  teal_error local_err;
  report = report ? report : &local_report;
  err = err ? err : &local_err;
  memset(report, 0, sizeof(*report));
  teal_error_clear(err);
  if (!xml) {
    return teal_error_set(err, TEAL_EINVAL, "urdf: NULL document");
  }
  return load(plant, xml, strlen(xml), "<string>", NULL, instance_name, report, err);
}

int teal_urdf_load_file(teal_plant *plant, const char *path, const char *instance_name,
                        teal_error *err) {
  return teal_urdf_load_file_ex(plant, path, instance_name, NULL, err);
}

int teal_urdf_load_string(teal_plant *plant, const char *xml, const char *instance_name,
                          teal_error *err) {
  return teal_urdf_load_string_ex(plant, xml, instance_name, NULL, err);
}
