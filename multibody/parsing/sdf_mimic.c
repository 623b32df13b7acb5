/* SDFormat mimic joints as coupler constraints (see docs/models_and_controllers.md):
 *   SDFormat 1.11: <axis><mimic joint= [axis="axis"]> with children
 *     <multiplier> (1), <offset> (0), <reference> (0):
 *     q_this = multiplier (q_joint - reference) + offset;
 *   Drake's <drake:mimic joint= multiplier= offset=/> in the <joint>:
 *     q_this = multiplier q_joint + offset.
 * Both become Drake's coupler q0 = rho q1 + offset (q0 this joint, q1 the
 * mimicked one), checked and added with the URDF <mimic>'s code
 * (urdf_constraints.c). */
#include <string.h>

#include "multibody/parsing/sdf_internal.h"

/* The coupler's leader: a joint of the same top-level model. */
static int leader(sdf_state *s, int f, urdf_model *doc, urdf_node *node, const char *ref,
                  const char **name) {
  const sdf_frame *J = &SFRAME(s)[f];
  int l = sdf_lookup(s, J->scope, ref, doc, node, "mimic joint");
  if (l < 0) {
    return s->err->code;
  }
  if (SFRAME(s)[l].kind != SDF_JOINT || SFRAME(s)[l].top != J->top) {
    return urdf_fail(doc, node, TEAL_EINVAL, "mimic: '%.80s' is not a joint of this model", ref);
  }
  *name = sdf_local_name(s, l);
  return TEAL_OK;
}

/* SDFormat's <mimic>: ratio and offset from the child elements. */
static int sdformat_mimic(urdf_model *doc, urdf_node *mn, double *ratio, double *offset) {
  const char *axis = urdf_attr(doc, mn, "axis");
  if (axis && strcmp(axis, "axis") != 0) {
    return urdf_fail(doc, mn, TEAL_EINVAL,
                     "mimic of '%.20s': only a single-dof joint's \"axis\" can be mimicked", axis);
  }
  double reference = 0.0;
  int present;
  *ratio = 1.0;
  *offset = 0.0;
  int rc = sdf_child_numbers(doc, mn, "multiplier", 1, ratio, &present);
  rc = rc ? rc : sdf_child_numbers(doc, mn, "offset", 1, offset, &present);
  rc = rc ? rc : sdf_child_numbers(doc, mn, "reference", 1, &reference, &present);
  *offset -= *ratio * reference;
  return rc;
}

/* The one mimic element of joint f (NULL if none); both forms is an error. */
static int find_mimic(urdf_model *doc, urdf_node *joint, urdf_node *axis, urdf_node **mn,
                      int *is_drake) {
  urdf_node *sdf_form = NULL, *drake_form = NULL;
  int rc = axis ? urdf_unique_child(doc, axis, "mimic", &sdf_form) : TEAL_OK;
  rc = rc ? rc : urdf_unique_child(doc, joint, "drake:mimic", &drake_form);
  if (rc == TEAL_OK && sdf_form && drake_form) {
    return urdf_fail(doc, drake_form, TEAL_EPARSE, "both <mimic> and <drake:mimic>: give one");
  }
  *is_drake = drake_form != NULL;
  *mn = drake_form ? drake_form : sdf_form;
  return rc;
}

int sdf_convert_mimic(sdf_state *s, int f, urdf_node *axis, urdf_model *out) {
  const sdf_frame *J = &SFRAME(s)[f];
  urdf_model *doc = J->doc;
  urdf_node *mn = NULL;
  int is_drake = 0;
  int rc = find_mimic(doc, J->node, axis, &mn, &is_drake);
  if (rc || !mn) {
    return rc;
  }
  const char *ref, *name = NULL;
  double ratio = 1.0, offset = 0.0;
  rc = urdf_attr_required(doc, mn, "joint", &ref);
  if (rc == TEAL_OK && is_drake) {
    rc = urdf_attr_double(doc, mn, "multiplier", 0, 1.0, &ratio);
    rc = rc ? rc : urdf_attr_double(doc, mn, "offset", 0, 0.0, &offset);
  } else if (rc == TEAL_OK) {
    rc = sdformat_mimic(doc, mn, &ratio, &offset);
  }
  rc = rc ? rc : leader(s, f, doc, mn, ref, &name);
  urdf_constraint *c = rc ? NULL : urdf_push(out, &out->constraints, sizeof(urdf_constraint));
  if (!c) {
    return rc ? rc : s->err->code;
  }
  c->node = mn;
  c->kind = URDF_C_COUPLER;
  c->a_name = sdf_local_name(s, f);
  c->b_name = name;
  c->a = c->b = -1;
  c->X_AP = c->X_BQ = teal_transform_identity();
  c->ratio = ratio;
  c->offset = offset;
  return TEAL_OK;
}
