/* The bounding volume hierarchy of soft meshes
 * (geometry/hydroelastic/volume_mesh_bvh.h): its boxes hold their
 * tetrahedra and their children's, its leaves partition the tetrahedra;
 * a query through it gives the same surface as testing every tetrahedron
 * while visiting a small part of them; the plane-box test against hand
 * cases; bad inputs. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/hydroelastic/soft_half_space.h"
#include "geometry/hydroelastic/volume_mesh_bvh.h"
#include "math/rotation.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static int inside(teal_vec3 x, teal_vec3 lo, teal_vec3 hi) {
  for (int a = 0; a < 3; a++) {
    if (x.v[a] < lo.v[a] || x.v[a] > hi.v[a]) {
      return 0;
    }
  }
  return 1;
}

/* Checks node k's subtree; returns its tetrahedra and marks them in seen. */
static int check_node(const teal_volume_mesh *m, int k, int *seen) {
  const teal_bvh_node *n = &m->bvh[k];
  if (n->right < 0) {
    ck_assert(n->count >= 1 && n->count <= TEAL_VOLUME_MESH_BVH_LEAF);
    for (int t = n->first; t < n->first + n->count; t++) {
      seen[t]++;
      for (int i = 0; i < 4; i++) {
        ck_assert(inside(m->vertices[m->tets[t][i]], n->lo, n->hi));
      }
    }
    return n->count;
  }
  ck_assert_int_eq(n->count, 0);
  const teal_bvh_node *l = &m->bvh[k + 1], *r = &m->bvh[n->right];
  ck_assert(inside(l->lo, n->lo, n->hi) && inside(l->hi, n->lo, n->hi));
  ck_assert(inside(r->lo, n->lo, n->hi) && inside(r->hi, n->lo, n->hi));
  int left = check_node(m, k + 1, seen), right = check_node(m, n->right, seen);
  ck_assert(abs(left - right) <= 1); /* median split */
  return left + right;
}

static void check_tree(const teal_volume_mesh *m) {
  ck_assert_int_gt(m->num_bvh_nodes, 0);
  ck_assert_int_le(m->num_bvh_nodes, 2 * m->num_tets);
  int *seen = calloc((size_t)m->num_tets, sizeof(int));
  ck_assert_int_eq(check_node(m, 0, seen), m->num_tets);
  for (int t = 0; t < m->num_tets; t++) {
    ck_assert_int_eq(seen[t], 1); /* each tetrahedron in exactly one leaf */
  }
  free(seen);
}

START_TEST(tree_bounds_and_partitions) {
  teal_volume_mesh *sphere = teal_volume_mesh_soft_sphere(0.2, 1e5, 0.2 / 8, NULL);
  teal_volume_mesh *box = teal_volume_mesh_soft_box(teal_vec3_make(0.4, 0.3, 0.1), 1e5, NAN, NULL);
  check_tree(sphere);
  check_tree(box);
  /* reordering the tetrahedra kept them positively oriented */
  for (int t = 0; t < sphere->num_tets; t++) {
    const int *q = sphere->tets[t];
    teal_vec3 a = teal_vec3_sub(sphere->vertices[q[1]], sphere->vertices[q[0]]);
    teal_vec3 b = teal_vec3_sub(sphere->vertices[q[2]], sphere->vertices[q[0]]);
    teal_vec3 c = teal_vec3_sub(sphere->vertices[q[3]], sphere->vertices[q[0]]);
    ck_assert(teal_vec3_dot(a, teal_vec3_cross(b, c)) > 0.0);
  }
  teal_volume_mesh_free(sphere);
  teal_volume_mesh_free(box);
}
END_TEST

static teal_transform pose(double roll, double pitch, double z) {
  return teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(roll, pitch, 0.3)),
                             teal_vec3_make(0.01, -0.02, z));
}

/* The surface with the hierarchy equals the one of every tetrahedron: the
 * same faces (as a set: the order differs), area and force. */
static void expect_same_surface(teal_volume_mesh *m, teal_transform X_WS) {
  teal_contact_surface fast = {0}, all = {0};
  teal_transform X_WH = teal_transform_identity();
  int nf = teal_soft_half_space_contact_surface(m, X_WS, X_WH, TEAL_CONTACT_SURFACE_POLYGONS,
                                                &fast, NULL);
  int nodes = m->num_bvh_nodes;
  m->num_bvh_nodes = 0;
  int na = teal_soft_half_space_contact_surface(m, X_WS, X_WH, TEAL_CONTACT_SURFACE_POLYGONS,
                                                &all, NULL);
  m->num_bvh_nodes = nodes;
  ck_assert_int_eq(nf, na);
  ck_assert(fabs(fast.area - all.area) <= 1e-12 * fmax(all.area, 1e-30));
  double ff = teal_contact_surface_total_pressure_force(&fast);
  double fa = teal_contact_surface_total_pressure_force(&all);
  ck_assert(fabs(ff - fa) <= 1e-12 * fmax(fa, 1e-30));
  teal_contact_surface_release(&fast);
  teal_contact_surface_release(&all);
}

START_TEST(query_matches_every_tetrahedron) {
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(0.1, 1e5, 0.1 / 8, NULL);
  for (int i = 0; i < 12; i++) {
    expect_same_surface(m, pose(0.5 * i, 0.3 * i, 0.1 - 0.015 * i));
  }
  teal_volume_mesh_free(m);
  m = teal_volume_mesh_soft_box(teal_vec3_make(0.4, 0.3, 0.1), 1e5, 0.02, NULL);
  for (int i = 0; i < 8; i++) {
    expect_same_surface(m, pose(0.2 * i, 0.1 * i, 0.05 - 0.008 * i));
  }
  teal_volume_mesh_free(m);
}
END_TEST

typedef struct plane_count {
  teal_vec3 n, o;
  int visited;
} plane_count;

static int plane_misses(const void *q, teal_vec3 lo, teal_vec3 hi) {
  const plane_count *c = q;
  return teal_bvh_box_misses_plane(c->n, c->o, lo, hi);
}

static int count(void *q, int t) {
  (void)t;
  ((plane_count *)q)->visited++;
  return 0;
}

static int stop_at_third(void *q, int t) {
  (void)t;
  return ++((plane_count *)q)->visited == 3 ? 42 : 0;
}

/* A plane 2 cm into a sphere of radius 0.1 crosses a thin shell of its
 * cells: the query visits a few percent of the tetrahedra. */
START_TEST(query_visits_few_tetrahedra) {
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(0.1, 1e5, 0.1 / 8, NULL);
  plane_count c = {teal_vec3_make(0, 0, 1), teal_vec3_make(0, 0, -0.08), 0};
  ck_assert_int_eq(teal_volume_mesh_bvh_visit(m, plane_misses, count, &c, NULL), 0);
  ck_assert_int_gt(c.visited, 0);
  ck_assert_int_lt(c.visited, m->num_tets / 20);
  /* a plane below the mesh visits nothing; the stop value comes back */
  c = (plane_count){teal_vec3_make(0, 0, 1), teal_vec3_make(0, 0, -0.2), 0};
  ck_assert_int_eq(teal_volume_mesh_bvh_visit(m, plane_misses, count, &c, NULL), 0);
  ck_assert_int_eq(c.visited, 0);
  c.o = teal_vec3_zero();
  ck_assert_int_eq(teal_volume_mesh_bvh_visit(m, plane_misses, stop_at_third, &c, NULL), 42);
  ck_assert_int_eq(c.visited, 3);
  teal_volume_mesh_free(m);
}
END_TEST

START_TEST(plane_box_test) {
  teal_vec3 lo = teal_vec3_make(0, 0, 0), hi = teal_vec3_make(1, 2, 3), z = teal_vec3_make(0, 0, 1);
  ck_assert(!teal_bvh_box_misses_plane(z, teal_vec3_make(5, 5, 1.5), lo, hi));
  ck_assert(!teal_bvh_box_misses_plane(z, teal_vec3_make(0, 0, 3), lo, hi)); /* touching */
  ck_assert(teal_bvh_box_misses_plane(z, teal_vec3_make(0, 0, 3.01), lo, hi));
  ck_assert(teal_bvh_box_misses_plane(z, teal_vec3_make(0, 0, -0.01), lo, hi));
  /* the diagonal plane x + y + z = c reaches the box for 0 <= c <= 6 */
  teal_vec3 d = teal_vec3_scale(teal_vec3_make(1, 1, 1), 1.0 / sqrt(3.0));
  ck_assert(!teal_bvh_box_misses_plane(d, teal_vec3_make(5.9, 0, 0), lo, hi));
  ck_assert(teal_bvh_box_misses_plane(d, teal_vec3_make(6.1, 0, 0), lo, hi));
  ck_assert(teal_bvh_box_misses_plane(d, teal_vec3_make(-0.1, 0, 0), lo, hi));
}
END_TEST

START_TEST(bad_inputs) {
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(0.1, 1e5, NAN, NULL);
  plane_count c = {teal_vec3_make(0, 0, 1), teal_vec3_zero(), 0};
  teal_error err = {0};
  TS_EXPECT_ERROR(teal_volume_mesh_bvh_visit(NULL, plane_misses, count, &c, &err), TEAL_EINVAL,
                  &err, "NULL mesh");
  TS_EXPECT_ERROR(teal_volume_mesh_bvh_visit(m, NULL, count, &c, &err), TEAL_EINVAL, &err,
                  "NULL box test");
  TS_EXPECT_ERROR(teal_volume_mesh_bvh_visit(m, plane_misses, NULL, &c, &err), TEAL_EINVAL, &err,
                  "NULL visitor");
  teal_volume_mesh_free(m);
}
END_TEST

/* Queries through the hierarchy allocate nothing. */
START_TEST(visit_allocates_nothing) {
  teal_volume_mesh *m = teal_volume_mesh_soft_box(teal_vec3_make(0.2, 0.2, 0.2), 1e5, NAN, NULL);
  plane_count c = {teal_vec3_make(0, 0, 1), teal_vec3_zero(), 0};
  ts_alloc_install();
  ts_alloc_reset();
  teal_volume_mesh_bvh_visit(m, plane_misses, count, &c, NULL);
  ts_alloc_expect_none();
  ck_assert_int_gt(c.visited, 0);
  teal_volume_mesh_free(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("volume_mesh_bvh");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, tree_bounds_and_partitions);
  tcase_add_test(tc, query_matches_every_tetrahedron);
  tcase_add_test(tc, query_visits_few_tetrahedra);
  tcase_add_test(tc, plane_box_test);
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, visit_allocates_nothing);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
