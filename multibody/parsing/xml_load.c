/* The loaders' shared front (see xml_load_internal.h): one place for the
 * option limits, the file lookup and read, and the string length check,
 * so the three formats fail the same way with the same messages. */
#include "multibody/parsing/xml_load_internal.h"

#include <limits.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/model_path.h"
#include "multibody/parsing/urdf_internal.h"

int xml_load_check_limits(const char *format, size_t *max_bytes, int max_attributes,
                          teal_error *err) {
  if (*max_bytes == 0 || max_attributes < 1) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s: options: max_bytes (%zu) and max_attributes (%d) must be positive",
                          format, *max_bytes, max_attributes);
  }
  *max_bytes = *max_bytes < (size_t)INT_MAX ? *max_bytes : (size_t)INT_MAX;
  return TEAL_OK;
}

int xml_load_read_file(xml_file *f, const char *format, const char *path, size_t max_bytes,
                       teal_error *err) {
  memset(f, 0, sizeof(*f));
  if (!path) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL path", format);
  }
  teal_error why = {TEAL_OK, ""};
  int searched = path[0] != '/';
  /* a relative name that is not in the working directory: the search path */
  if (searched && teal_model_path_find(path, f->found, sizeof f->found, &why) == TEAL_OK) {
    path = f->found;
  }
  int rc = urdf_read_file(path, max_bytes, &f->buf, &f->len, err);
  if (rc == TEAL_EIO && searched && why.code == TEAL_ENOTFOUND) {
    return teal_error_set(err, TEAL_EIO, "%s: cannot open (%s)", path, why.message);
  }
  rc = rc ? rc : urdf_file_dir(path, &f->dir, err);
  if (rc) {
    xml_load_free_file(f);
    return rc;
  }
  const char *slash = strrchr(path, '/');
  f->text = f->buf;
  f->path = path;
  f->base = slash ? slash + 1 : path;
  return TEAL_OK;
}

void xml_load_free_file(xml_file *f) {
  teal_free(f->dir);
  teal_free(f->buf);
  f->dir = f->buf = NULL;
}

int xml_load_string_length(const char *format, const char *xml, size_t max_bytes, size_t *len,
                           teal_error *err) {
  if (!xml) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL document", format);
  }
  /* memchr stops at the terminator: a longer string is never read past the limit */
  const char *end = memchr(xml, '\0', max_bytes + 1);
  if (!end) {
    return teal_error_set(err, TEAL_ESIZE,
                          "<string>: longer than the limit of %zu bytes "
                          "(teal_%s_options.max_bytes)",
                          max_bytes, format);
  }
  *len = (size_t)(end - xml);
  return TEAL_OK;
}

int xml_load_input(xml_file *f, const char *format, const char *input, int is_file,
                   size_t max_bytes, teal_error *err) {
  if (is_file) {
    return xml_load_read_file(f, format, input, max_bytes, err);
  }
  memset(f, 0, sizeof(*f));
  f->text = input;
  f->base = "<string>";
  return xml_load_string_length(format, input, max_bytes, &f->len, err);
}
