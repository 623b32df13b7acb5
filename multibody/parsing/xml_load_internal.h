/* Private to multibody/parsing/: the front shared by the URDF, SDFormat and
 * MJCF loaders (xml_load.c): the size limit of the options, finding and
 * reading a model file (through the model search path for a relative
 * name), and measuring a document given as a string, each with the same
 * messages in every format. */
#ifndef TEAL_MULTIBODY_PARSING_XML_LOAD_INTERNAL_H
#define TEAL_MULTIBODY_PARSING_XML_LOAD_INTERNAL_H

#include <stddef.h>

#include "framework/error.h"

/* Longest path the model search path may give. */
#define XML_LOAD_PATH_MAX 4096

/* A document to parse: a model file read into memory, or the caller's string. */
typedef struct xml_file {
  const char *text; /* the document (buf, or the caller's string) */
  size_t len;
  char *buf;        /* a file's bytes (teal_alloc'd), NULL for a string */
  char *dir;        /* a file's directory with a trailing '/', or NULL */
  const char *path; /* the file read (the given path or found), NULL for a string */
  const char *base; /* the messages' source: path's last component, or "<string>" */
  char found[XML_LOAD_PATH_MAX];
} xml_file;

/* Checks the limits of a format's options ("urdf", "mjcf"; message:
 * "<format>: options: ...") and caps *max_bytes at INT_MAX. */
int xml_load_check_limits(const char *format, size_t *max_bytes, int max_attributes,
                          teal_error *err);
/* Reads the model file path (NULL: "<format>: NULL path"), a relative
 * name not found from the working directory looked up on the model
 * search path, at most max_bytes. On failure f holds nothing to free. */
int xml_load_read_file(xml_file *f, const char *format, const char *path, size_t max_bytes,
                       teal_error *err);
void xml_load_free_file(xml_file *f);
/* A document from input: the file it names (is_file) or the string it
 * is, as xml_load_read_file and xml_load_string_length. */
int xml_load_input(xml_file *f, const char *format, const char *input, int is_file,
                   size_t max_bytes, teal_error *err);
/* The length of a NUL-terminated document (NULL: "<format>: NULL
 * document"), read no further than max_bytes + 1 bytes; longer is
 * TEAL_ESIZE naming teal_<format>_options.max_bytes. */
int xml_load_string_length(const char *format, const char *xml, size_t max_bytes, size_t *len,
                           teal_error *err);

#endif
