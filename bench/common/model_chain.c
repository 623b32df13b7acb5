/* The benchmarks' chain document (model_chain.h). */
#include "common/model_chain.h"

#include <stdio.h>
#include <stdlib.h>

char *bench_chain_text(const bench_chain_format *format, int n) {
  size_t cap = (size_t)n * format->bytes_per_link + 256, len = 0;
  char *x = malloc(cap);
  if (!x) {
    return NULL;
  }
  len += (size_t)snprintf(x, cap, "%s", format->head);
  for (int i = 1; i <= n; i++) {
    char parent[16] = "world";
    if (i > 1) {
      snprintf(parent, sizeof(parent), "l%d", i - 1);
    }
    const char *pose_parent = i > 1 ? parent : format->first_link_parent;
    len += (size_t)snprintf(x + len, cap - len, format->link, i, pose_parent);
    len += (size_t)snprintf(x + len, cap - len, format->joint, i, parent, i);
  }
  snprintf(x + len, cap - len, "%s", format->tail);
  return x;
}

char *bench_chain_urdf(int n) {
  static const bench_chain_format urdf = {
      "<robot name=\"chain\">\n<link name=\"world\"/>\n",
      /* the link's pose is the joint's: the frame argument goes unused */
      "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"0.004\" iyy=\"0.004\" "
      "izz=\"0.004\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n",
      "<joint name=\"j%d\" type=\"revolute\"><parent link=\"%s\"/><child link=\"l%d\"/>"
      "<origin xyz=\"0 0 -0.1\"/><axis xyz=\"0 1 0\"/>"
      "<limit effort=\"10\" velocity=\"10\" lower=\"-3\" upper=\"3\"/></joint>\n",
      "</robot>\n", "world", 400};
  return bench_chain_text(&urdf, n);
}
