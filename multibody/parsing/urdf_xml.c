/* The URDF document as a compact element tree, built from libxml2's SAX2
 * events instead of libxml2's DOM: a 100,000-link document is some three
 * million DOM nodes, attributes and strings, each its own malloc, and
 * building and freeing them took most of the load. Here the elements,
 * their attributes and text sit in a few large arena blocks, and names
 * point into the parser's dictionary (kept, referenced, with the tree).
 *
 * The tree keeps what the DOM gave the parser, with the same meaning: an
 * element's qualified name (prefix and local name when its namespace is
 * declared; the whole "prefix:name" when it is not), its line, the
 * attributes without a declared namespace prefix (the only ones URDF
 * reads), and its direct text and CDATA. Values that libxml2 had to rewrite (entities,
 * character references, whitespace) go through the same conversion as the
 * DOM's (xmlStringLenGetNodeList), so an entity reference is still seen. */
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include "framework/alloc.h"
#include "framework/growable.h"
#include "multibody/parsing/urdf_internal.h"

/* ---- the arena ------------------------------------------------------------------ */

/* A block of the arena; the bytes follow the header. */
struct urdf_block {
  urdf_block *next;
  size_t used, cap;
};

#define URDF_BLOCK_BYTES ((size_t)1 << 20)
/* the blocks' bytes start aligned for any type */
#define URDF_BLOCK_HEADER \
  ((sizeof(urdf_block) + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t))

/* n bytes aligned to align (a power of two) from the arena, NULL when out
 * of memory; a new block when the current one is full, a block of its own
 * for a large request. Strings take alignment 1, so the arena holds little
 * padding. */
static void *arena_alloc(urdf_xml *x, size_t n, size_t align) {
  urdf_block *b = x->blocks;
  size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
  if (!b || at > b->cap || b->cap - at < n) {
    size_t cap = n > URDF_BLOCK_BYTES / 4 ? n : URDF_BLOCK_BYTES;
    b = teal_alloc(URDF_BLOCK_HEADER + cap);
    if (!b) {
      return NULL;
    }
    *b = (urdf_block){x->blocks, 0, cap};
    x->blocks = b;
    at = 0;
  }
  b->used = at + n;
  return (char *)b + URDF_BLOCK_HEADER + at;
}

/* A NUL-terminated copy of len bytes. */
static char *arena_copy(urdf_xml *x, const char *s, size_t len) {
  char *c = arena_alloc(x, len + 1, 1);
  if (c) {
    memcpy(c, s, len);
    c[len] = '\0';
  }
  return c;
}

void urdf_xml_free(urdf_xml *x) {
  while (x->blocks) {
    urdf_block *next = x->blocks->next;
    teal_free(x->blocks);
    x->blocks = next;
  }
  if (x->dict) {
    xmlDictFree(x->dict);
  }
  memset(x, 0, sizeof(*x));
}

/* ---- building the tree ---------------------------------------------------------------- */

/* An element being built: where its next child and text chunk go. */
typedef struct open_element {
  urdf_node *node, *last_child;
  urdf_chunk *last_text;
} open_element;

/* What the callbacks share (the parser context's _private). */
typedef struct xml_builder {
  urdf_xml *x;
  open_element *open; /* the open elements, root first */
  int depth, cap;
  int oom;
  int have_error; /* the first error libxml2 reported */
  long error_line;
  char error[200];
} xml_builder;

static void out_of_memory(xmlParserCtxt *ctxt, xml_builder *b) {
  b->oom = 1;
  xmlStopParser(ctxt);
}

const char urdf_no_text[1] = "";

/* The value of an attribute libxml2 rewrote (allocated): converted as the
 * DOM converts it; NULL when it holds an entity reference, urdf_no_text
 * when the DOM would have no text child (an empty rewritten value). */
static int rewritten_value(xmlParserCtxt *ctxt, urdf_xml *x, const xmlChar *v, int len,
                           urdf_xattr *a) {
  if (len == 0) {
    a->value = urdf_no_text;
    return TEAL_OK;
  }
  if (!memchr(v, '&', (size_t)len)) {
    a->value = arena_copy(x, (const char *)v, (size_t)len);
    return a->value ? TEAL_OK : TEAL_ENOMEM;
  }
  xmlNode *list = xmlStringLenGetNodeList(ctxt->myDoc, v, len);
  int single = list && list->type == XML_TEXT_NODE && !list->next && list->content;
  a->value =
      single ? arena_copy(x, (const char *)list->content, strlen((char *)list->content)) : NULL;
  xmlFreeNodeList(list);
  return !single || a->value ? TEAL_OK : TEAL_ENOMEM;
}

/* The attributes without a declared prefix, in document order; an
 * undeclared prefix stays part of the name, as in libxml2's DOM. */
static int copy_attributes(xmlParserCtxt *ctxt, urdf_xml *x, urdf_node *n, int count,
                           const xmlChar **attrs) {
  for (int i = 0; i < count; i++) {
    n->nattrs += attrs[5 * i + 1] == NULL || attrs[5 * i + 2] == NULL;
  }
  n->attrs = n->nattrs ? arena_alloc(x, (size_t)n->nattrs * sizeof(urdf_xattr), alignof(urdf_xattr))
                       : NULL;
  if (n->nattrs && !n->attrs) {
    return TEAL_ENOMEM;
  }
  int k = 0;
  for (int i = 0; i < count; i++) {
    const xmlChar *const *a = attrs + 5 * i;
    if (a[1] != NULL && a[2] != NULL) {
      continue;
    }
    urdf_xattr *r = &n->attrs[k++];
    int len = (int)(a[4] - a[3]);
    const xmlChar *name = a[1] ? xmlDictQLookup(ctxt->dict, a[1], a[0]) : a[0];
    if (!name) {
      return TEAL_ENOMEM;
    }
    *r = (urdf_xattr){(const char *)name, NULL};
    /* a value libxml2 left in the input ends at its quote; a rewritten one at a NUL */
    if (*a[4] == 0) {
      int rc = rewritten_value(ctxt, x, a[3], len, r);
      if (rc) {
        return rc;
      }
    } else if (!(r->value = arena_copy(x, (const char *)a[3], (size_t)len))) {
      return TEAL_ENOMEM;
    }
  }
  return TEAL_OK;
}

static void start_element(void *ctx, const xmlChar *local, const xmlChar *prefix,
                          const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                          int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
  (void)nb_namespaces;
  (void)namespaces;
  (void)nb_defaulted; /* no DTD is loaded: nothing is defaulted */
  xmlParserCtxt *ctxt = ctx;
  xml_builder *b = ctxt->_private;
  urdf_node *n = arena_alloc(b->x, sizeof(urdf_node), alignof(urdf_node));
  if (!n) {
    out_of_memory(ctxt, b);
    return;
  }
  memset(n, 0, sizeof(*n));
  /* an undeclared prefix stays part of the name, as in libxml2's DOM */
  n->name = (const char *)(prefix && !uri ? xmlDictQLookup(ctxt->dict, prefix, local) : local);
  n->prefix = prefix && uri ? (const char *)prefix : NULL;
  n->line = ctxt->input ? ctxt->input->line : 0;
  if (!n->name || copy_attributes(ctxt, b->x, n, nb_attributes, attributes) != TEAL_OK ||
      teal_grow((void **)&b->open, &b->cap, b->depth + 1, sizeof(open_element)) != TEAL_OK) {
    out_of_memory(ctxt, b);
    return;
  }
  open_element *parent = b->depth ? &b->open[b->depth - 1] : NULL;
  if (!parent) {
    b->x->root = b->x->root ? b->x->root : n;
  } else if (parent->last_child) {
    parent->last_child->next = n;
  } else {
    parent->node->children = n;
  }
  if (parent) {
    parent->last_child = n;
  }
  b->open[b->depth++] = (open_element){n, NULL, NULL};
}

static void end_element(void *ctx, const xmlChar *local, const xmlChar *prefix,
                        const xmlChar *uri) {
  (void)local;
  (void)prefix;
  (void)uri;
  xml_builder *b = ((xmlParserCtxt *)ctx)->_private;
  b->depth -= b->depth > 0;
}

/* Text and CDATA of the open element, as a chunk appended to its text. */
static void characters(void *ctx, const xmlChar *ch, int len) {
  xmlParserCtxt *ctxt = ctx;
  xml_builder *b = ctxt->_private;
  if (!b->depth || len <= 0) {
    return;
  }
  urdf_chunk *t =
      arena_alloc(b->x, offsetof(urdf_chunk, data) + (size_t)len + 1, alignof(urdf_chunk));
  if (!t) {
    out_of_memory(ctxt, b);
    return;
  }
  t->next = NULL;
  t->len = (size_t)len;
  memcpy(t->data, ch, (size_t)len);
  t->data[len] = '\0';
  open_element *e = &b->open[b->depth - 1];
  if (e->last_text) {
    e->last_text->next = t;
  } else {
    e->node->text = t;
  }
  e->last_text = t;
}

/* ---- errors and the parse ------------------------------------------------------------ */

#if LIBXML_VERSION >= 21200
static void capture_error(void *data, const xmlError *e) {
#else
static void capture_error(void *data, xmlErrorPtr e) {
#endif
  xmlParserCtxt *ctxt = data;
  xml_builder *b = ctxt ? ctxt->_private : NULL;
  /* namespace errors (an undeclared drake: prefix) are not fatal */
  if (!b || b->have_error || !e || e->level < XML_ERR_ERROR || e->domain == XML_FROM_NAMESPACE) {
    return;
  }
  b->have_error = 1;
  b->error_line = e->line;
  snprintf(b->error, sizeof(b->error), "%s", e->message ? e->message : "error");
  /* one line: libxml2 splits some messages ("...encoding !\nBytes: ...") */
  for (char *c = b->error; *c; c++) {
    *c = *c == '\n' || *c == '\r' || *c == '\t' ? ' ' : *c;
  }
  size_t n = strlen(b->error);
  while (n > 0 && b->error[n - 1] == ' ') {
    b->error[--n] = '\0';
  }
  /* stop at the first error: libxml2 otherwise goes on lexing the rest of
   * a malformed document, where the pre-scan's view of it no longer holds */
  xmlStopParser(ctxt);
}

/* The SAX2 handler: libxml2's own for everything but the content (so
 * entities, the DTD and namespaces are handled as before), comments and
 * processing instructions dropped. */
static void use_tree_handler(xmlSAXHandler *sax) {
  sax->startElementNs = start_element;
  sax->endElementNs = end_element;
  sax->characters = characters;
  sax->ignorableWhitespace = characters;
  sax->cdataBlock = characters;
  sax->reference = NULL; /* entity references in text are not expanded */
  sax->comment = NULL;
  sax->processingInstruction = NULL;
  sax->serror = capture_error;
}

int urdf_xml_parse(urdf_model *m, const char *buf, size_t len) {
  xmlInitParser();
  xmlParserCtxt *ctxt = xmlNewParserCtxt();
  if (!ctxt) {
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  xml_builder b;
  memset(&b, 0, sizeof(b));
  b.x = &m->xml;
  ctxt->_private = &b;
  use_tree_handler(ctxt->sax);
  int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES |
             XML_PARSE_IGNORE_ENC;
  /* the document libxml2 returns holds no elements (only a DTD node, if any) */
  xmlDoc *doc = xmlCtxtReadMemory(ctxt, buf, (int)len, NULL, NULL, opts);
  int ok = doc && ctxt->wellFormed && !b.have_error && !b.oom;
  if (ok && xmlDictReference(ctxt->dict) == 0) {
    m->xml.dict = ctxt->dict; /* the names in the tree */
  }
  xmlFreeDoc(doc);
  xmlFreeParserCtxt(ctxt);
  teal_free(b.open);
  if (ok && m->xml.dict) {
    return TEAL_OK;
  }
  if (b.oom || ok) {
    return urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  return teal_error_set(m->err, TEAL_EPARSE, "%s:%ld: malformed XML: %s", m->source, b.error_line,
                        b.have_error ? b.error : "not a well-formed document");
}
