/* MJCF loading entry points: options, reading the file (the URDF parser's
 * reader, pre-scan and XML tree), walking <mujoco>, and the parse -> check
 * -> build sequence (see mjcf_internal.h). */
#include "multibody/parsing/mjcf.h"

#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/mjcf_internal.h"
#include "multibody/parsing/xml_load_internal.h"
#include "multibody/tree/topology.h"

void teal_mjcf_options_init(teal_mjcf_options *options) {
  if (options) {
    options->max_bytes = TEAL_URDF_DEFAULT_MAX_BYTES;
    options->max_attributes = TEAL_URDF_DEFAULT_MAX_ATTRIBUTES;
  }
}

static int resolve_options(const teal_mjcf_options *given, teal_mjcf_options *o, teal_error *err) {
  teal_mjcf_options_init(o);
  if (given) {
    *o = *given;
  }
  return xml_load_check_limits("mjcf", &o->max_bytes, o->max_attributes, err);
}

/* ---- <mujoco> ------------------------------------------------------------------------ */

/* Top-level elements with no dynamic effect here (no warning). */
static int harmless_top(const urdf_node *c) {
  static const char *const names[] = {"visual", "statistic", "size", "asset", "keyframe", NULL};
  for (int i = 0; names[i]; i++) {
    if (urdf_is(c, names[i])) {
      return 1;
    }
  }
  return 0;
}

static int parse_top(mjcf_model *m, urdf_node *c) {
  if (urdf_is(c, "worldbody")) {
    return mjcf_parse_worldbody(m, c);
  }
  if (urdf_is(c, "actuator")) {
    return mjcf_parse_actuators(m, c);
  }
  if (urdf_is(c, "contact")) {
    return mjcf_parse_contact(m, c);
  }
  if (urdf_is(c, "option")) {
    return mjcf_parse_option(m, c);
  }
  if (urdf_is(c, "equality")) {
    return mjcf_parse_equality(m, c);
  }
  if (urdf_is(c, "tendon")) {
    return mjcf_parse_tendons(m, c);
  }
  if (!harmless_top(c) && !urdf_is(c, "compiler") && !urdf_is(c, "default")) {
    urdf_warn(&m->u, c, &m->report->ignored_elements, "unsupported element ignored");
  }
  return TEAL_OK;
}

static int parse_mujoco(mjcf_model *m) {
  urdf_node *root = m->u.xml.root;
  if (!root) {
    return urdf_fail(&m->u, NULL, TEAL_EPARSE, "empty document");
  }
  if (!urdf_is(root, "mujoco")) {
    return urdf_fail(&m->u, root, TEAL_EPARSE, "the root element must be <mujoco>");
  }
  int rc = TEAL_OK;
  /* settings and defaults first: they apply to elements written before them */
  for (urdf_node *c = root->children; c && !rc; c = c->next) {
    rc = urdf_is(c, "compiler") ? mjcf_parse_compiler(m, c) : TEAL_OK;
  }
  for (urdf_node *c = root->children; c && !rc; c = c->next) {
    rc = urdf_is(c, "default") ? mjcf_parse_defaults(m, c) : TEAL_OK;
  }
  for (urdf_node *c = root->children; c && !rc; c = c->next) {
    rc = urdf_is(c, "asset") ? mjcf_parse_asset(m, c) : TEAL_OK;
  }
  rc = rc ? rc : mjcf_index_meshes(m);
  rc = rc ? rc : mjcf_ensure_main_class(m);
  rc = rc ? rc : mjcf_index_classes(m);
  for (urdf_node *c = root->children; c && !rc; c = c->next) {
    rc = parse_top(m, c);
  }
  if (rc == TEAL_OK && m->bodies.n == 0) {
    rc = urdf_fail(&m->u, root, TEAL_EPARSE, "no <worldbody>");
  }
  return rc;
}

/* ---- the sequence --------------------------------------------------------------------- */

static void free_model(mjcf_model *m) {
  mjcf_free_geoms(m);
  mjcf_free_meshes(m);
  for (int i = 0; i < m->u.strings.n; i++) {
    teal_free(((char **)m->u.strings.data)[i]);
  }
  urdf_list *lists[] = {&m->u.strings, &m->classes, &m->bodies,   &m->joints, &m->geoms,
                        &m->sites,     &m->motors,  &m->excludes, &m->meshes};
  for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
    teal_free(lists[i]->data);
  }
  teal_free(m->equalities.data);
  teal_free(m->tendons.data);
  teal_free(m->tendon_entries.data);
  teal_free(m->wrapping_tendon_names.data);
  urdf_table *tables[] = {&m->class_index, &m->body_index, &m->joint_index,
                          &m->geom_index,  &m->site_index, &m->mesh_index};
  for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
    urdf_table_free(tables[i]);
  }
  urdf_xml_free(&m->u.xml);
}

static int instance_name(mjcf_model *m, const char *given, const char **name) {
  const char *model = urdf_attr(&m->u, m->u.xml.root, "model");
  *name = given ? given : model && *model ? model : "mujoco";
  if (given && !*given) {
    return urdf_fail(&m->u, NULL, TEAL_EINVAL, "empty instance name");
  }
  return m->u.err->code;
}

static void init_model(mjcf_model *m, const char *source, const char *dir, teal_error *err,
                       teal_mjcf_report *report) {
  memset(m, 0, sizeof(*m));
  m->u.source = source;
  m->u.dir = dir;
  m->u.err = err;
  m->u.report = &m->scratch;
  m->report = report;
  m->angle_scale = 3.14159265358979323846 / 180.0;
  memcpy(m->eulerseq, "xyz", 4);
  m->autolimits = 1;
  m->inertiafromgeom = -1;
}

static int load(teal_plant *plant, const char *buf, size_t len, const char *source, const char *dir,
                const char *given, const teal_mjcf_options *o, teal_mjcf_report *report,
                teal_error *err) {
  mjcf_model m;
  const char *inst = NULL;
  init_model(&m, source, dir, err, report);
  int rc = urdf_check_plant(plant, source, err);
  rc = rc ? rc : urdf_prescan(&m.u, buf, len, o->max_attributes);
  rc = rc ? rc : urdf_xml_parse(&m.u, buf, len);
  rc = rc ? rc : parse_mujoco(&m);
  rc = rc ? rc : instance_name(&m, given, &inst);
  rc = rc ? rc : mjcf_check(&m, plant, inst);
  rc = rc ? rc : mjcf_build(&m, plant, inst);
  report->num_warnings = m.scratch.num_warnings;
  memcpy(report->first_warning, m.scratch.first_warning, sizeof(report->first_warning));
  free_model(&m);
  return rc;
}

/* ---- entry points ----------------------------------------------------------------------- */

/* The entry points' work: input is a path (is_file) or a document. */
static int load_input(teal_plant *plant, const char *input, int is_file, const char *instance_name,
                      const teal_mjcf_options *options, teal_mjcf_report *report, teal_error *err) {
  teal_mjcf_report local_report;
  teal_error local_err;
  report = report ? report : &local_report;
  err = err ? err : &local_err;
  memset(report, 0, sizeof(*report));
  report->timestep = 0.002;
  teal_error_clear(err);
  teal_mjcf_options o;
  xml_file f;
  int rc = resolve_options(options, &o, err);
  rc = rc ? rc : xml_load_input(&f, "mjcf", input, is_file, o.max_bytes, err);
  if (rc == TEAL_OK) {
    rc = load(plant, f.text, f.len, f.base, f.dir, instance_name, &o, report, err);
    xml_load_free_file(&f);
  }
  return rc;
}

int teal_mjcf_load_file(teal_plant *plant, const char *path, const char *instance_name,
                        const teal_mjcf_options *options, teal_mjcf_report *report,
                        teal_error *err) {
  return load_input(plant, path, 1, instance_name, options, report, err);
}

int teal_mjcf_load_string(teal_plant *plant, const char *xml, const char *instance_name,
                          const teal_mjcf_options *options, teal_mjcf_report *report,
                          teal_error *err) {
  return load_input(plant, xml, 0, instance_name, options, report, err);
}

/* ---- the parser's format table ------------------------------------------------------ */

int teal_mjcf_parser_load(teal_plant *plant, const char *input, int is_file,
                          const teal_parser_options *options, int *instances, int cap, int *count,
                          teal_parser_report *report, teal_error *err) {
  teal_mjcf_options o;
  teal_mjcf_options_init(&o);
  o.max_bytes = options->max_bytes;
  o.max_attributes = options->max_attributes;
  teal_mjcf_report r;
  const char *name = options->instance_name;
  int index = is_file ? teal_mjcf_load_file(plant, input, name, &o, &r, err)
                      : teal_mjcf_load_string(plant, input, name, &o, &r, err);
  report->num_warnings += r.num_warnings;
  report->mesh_collisions += r.mesh_collisions;
  report->nonconvex_meshes += r.nonconvex_meshes;
  report->ignored_elements += r.ignored_elements + r.ignored_attributes + r.skipped_geoms;
  if (report->first_warning[0] == '\0') {
    snprintf(report->first_warning, sizeof(report->first_warning), "%s", r.first_warning);
  }
  *count = index >= 0;
  if (index >= 0 && cap > 0) {
    instances[0] = index;
  }
  return index < 0 ? index : TEAL_OK;
}
