/* Diagram queries: direct subsystems and subsystems by path. */
#include <string.h>

#include "framework/diagram.h"
#include "framework/diagram_internal.h"

int teal_diagram_num_subsystems(const teal_system *d) {
  return d && d->is_diagram ? d->nchildren : 0;
}

const teal_system *teal_diagram_subsystem(const teal_system *d, int i) {
  return d && d->is_diagram && i >= 0 && i < d->nchildren ? d->children[i] : NULL;
}

const teal_system *teal_diagram_find_subsystem(const teal_system *d, const char *path) {
  const teal_system *s = d;
  const char *p = path;
  while (s && p && *p) {
    size_t len = strcspn(p, "/");
    const teal_system *found = NULL;
    for (int c = 0; len && s->is_diagram && c < s->nchildren; c++) {
      const char *cn = s->children[c]->name;
      if (strlen(cn) == len && strncmp(cn, p, len) == 0) {
        found = s->children[c];
      }
    }
    s = len ? found : s;
    p += len;
    p += *p == '/';
  }
  return path ? s : NULL;
}
