/* Contact surface storage (see contact_surface.h). */
#include "geometry/hydroelastic/contact_surface.h"

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"

int teal_contact_surface_reserve(teal_contact_surface *s, int faces, int vertices) {
  if (!s || faces < 0 || vertices < 0) {
    return TEAL_EINVAL;
  }
  int rc = TEAL_RESERVE(s->faces, s->face_cap, faces);
  if (rc == TEAL_OK) {
    int cap = s->vertex_cap;
    rc = TEAL_RESERVE(s->vertices, cap, vertices);
  }
  if (rc == TEAL_OK) {
    rc = TEAL_RESERVE(s->pressure, s->vertex_cap, vertices);
  }
  return rc;
}

void teal_contact_surface_clear(teal_contact_surface *s) {
  if (s) {
    s->num_faces = s->num_vertices = 0;
    s->area = 0.0;
    s->centroid = teal_vec3_zero();
  }
}

double teal_contact_surface_total_pressure_force(const teal_contact_surface *s) {
  double f = 0.0;
  for (int i = 0; s && i < s->num_faces; i++) {
    f += s->faces[i].pressure * s->faces[i].area;
  }
  return f;
}

void teal_contact_surface_release(teal_contact_surface *s) {
  if (s) {
    teal_free(s->faces);
    teal_free(s->vertices);
    teal_free(s->pressure);
    s->faces = NULL;
    s->vertices = NULL;
    s->pressure = NULL;
    s->face_cap = s->vertex_cap = 0;
    teal_contact_surface_clear(s);
  }
}
