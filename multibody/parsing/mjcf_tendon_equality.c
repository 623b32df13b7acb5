/* <equality><tendon tendon1 tendon2 polycoef>: MuJoCo holds y - y0 = a0 +
 * a1 (x - x0) with y, x the lengths of tendon1 and tendon2 and y0, x0 their
 * lengths at qpos0 (sum c ref over a fixed tendon's joints: 0 without
 * refs); with no tendon2, y - y0 = a0. Over fixed tendons this is linear in
 * the joint positions; where it relates two joints it is a coupler q_A =
 * ratio q_B + offset, which is what is built (shown without refs; with them
 * a0 becomes a0 + y0 - a1 x0):
 *   - tendon1 with two joints, no tendon2: c0 q0 + c1 q1 = a0, so
 *     q0 = -(c1 / c0) q1 + a0 / c0 (the joints swapped when c0 = 0);
 *   - tendon1 and tendon2 with one joint each: c1 q1 = a0 + a1 c2 q2, so
 *     q1 = (a1 c2 / c1) q2 + a0 / c1.
 * Other forms (more joints, spatial tendons) are left out with a warning,
 * since the constraints module has no constraint over many joints. */
#include <math.h>

#include "multibody/parsing/mjcf_internal.h"

/* The tendon named name (a fixed one, else *spatial is set), or an error. */
static int fixed_tendon(mjcf_model *m, mjcf_equality *e, const char *name, int *spatial,
                        const mjcf_tendon **out) {
  int i = mjcf_find_tendon(m, name);
  if (i < 0 && mjcf_is_wrapping_tendon(m, name)) {
    *spatial = 1; /* left out with the tendon, as over a spatial one */
    return TEAL_OK;
  }
  if (i < 0) {
    return urdf_fail(&m->u, e->node, TEAL_ENOTFOUND, "unknown tendon '%.80s'", name);
  }
  *out = &MTENDON(m)[i];
  *spatial |= (*out)->spatial;
  return TEAL_OK;
}

/* A fixed tendon's length at qpos0: its joints at their refs. */
static double length_at_qpos0(const mjcf_model *m, const mjcf_tendon *t) {
  double L = 0.0;
  for (int k = 0; k < t->n; k++) {
    const mjcf_tendon_entry *e = &MTENDON_ENTRY(m)[t->first + k];
    L += e->coef * MJOINT(m)[e->index].ref;
  }
  return L;
}

/* The coupler q_a = ratio q_b + offset from c_a q_a = a0 + shift + k c_b
 * q_b, shift = y0 - a1 x0 moving the lengths' origins to qpos0. */
static int coupler(mjcf_model *m, mjcf_equality *e, const mjcf_tendon_entry *a,
                   const mjcf_tendon_entry *b, double k, double shift) {
  e->i1 = a->index;
  e->i2 = b->index;
  e->ratio = k * b->coef / a->coef;
  e->offset = (e->data[0] + shift) / a->coef;
  if (e->i1 == e->i2 || !isfinite(e->ratio) || !isfinite(e->offset)) {
    return urdf_fail(&m->u, e->node, TEAL_EINVAL,
                     "tendon equality: joints '%.80s' and '%.80s' give no coupler (the same "
                     "joint, or a zero coefficient)",
                     a->ref, b->ref);
  }
  return TEAL_OK;
}

int mjcf_check_tendon_equality(mjcf_model *m, mjcf_equality *e) {
  const mjcf_tendon *t1 = NULL, *t2 = NULL;
  int spatial = 0;
  int rc = fixed_tendon(m, e, e->name1, &spatial, &t1);
  rc = rc || !e->name2 ? rc : fixed_tendon(m, e, e->name2, &spatial, &t2);
  if (rc) {
    return rc;
  }
  const mjcf_tendon_entry *E = MTENDON_ENTRY(m);
  if (!spatial && !t2 && t1->n == 2) {
    const mjcf_tendon_entry *a = &E[t1->first], *b = a + 1;
    double y0 = length_at_qpos0(m, t1);
    return a->coef != 0.0 ? coupler(m, e, a, b, -1.0, y0) : coupler(m, e, b, a, -1.0, y0);
  }
  if (!spatial && t2 && t1->n == 1 && t2->n == 1) {
    double shift = length_at_qpos0(m, t1) - e->data[1] * length_at_qpos0(m, t2);
    return coupler(m, e, &E[t1->first], &E[t2->first], e->data[1], shift);
  }
  e->skip = 1;
  urdf_warn(&m->u, e->node, &m->report->ignored_elements,
            "tendon equality ignored: only fixed tendons relating two joints (a coupler) are "
            "supported");
  return TEAL_OK;
}
