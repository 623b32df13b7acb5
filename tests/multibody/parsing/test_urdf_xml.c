/* The URDF element tree built from libxml2's SAX2 events
 * (multibody/parsing/urdf_xml.c), checked against an independent
 * reference: libxml2's own DOM of the same document, read with the options
 * the loader used before the tree replaced it. Both are walked together;
 * every element's qualified name and line, its attributes without a declared
 * prefix (value, or an entity reference), its text as urdf_text gives it, and the
 * element a message describes must agree. Also: lines past 65,535 (where
 * the DOM keeps no line of its own), malformed documents, the tree's
 * memory under allocation failures, and the pre-scan's attribute count. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "framework/alloc.h"
#include "multibody/parsing/urdf_internal.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A model ready for urdf_xml_parse, reporting into *err. */
static urdf_model model_for(teal_error *err, teal_urdf_report *report) {
  urdf_model m;
  memset(&m, 0, sizeof(m));
  m.source = "<string>";
  m.err = err;
  m.report = report;
  *err = (teal_error){TEAL_OK, ""};
  memset(report, 0, sizeof(*report));
  return m;
}

static void free_model(urdf_model *m) {
  for (int i = 0; i < m->strings.n; i++) {
    teal_free(((char **)m->strings.data)[i]);
  }
  teal_free(m->strings.data);
  urdf_xml_free(&m->xml);
}

static const xmlNode *dom_element(const xmlNode *n) {
  while (n && n->type != XML_ELEMENT_NODE) {
    n = n->next;
  }
  return n;
}

/* The DOM's value of an attribute as the loader read it: NULL with *entity
 * set when it is not a single text node. */
static const char *dom_value(const xmlAttr *a, int *entity) {
  *entity = 0;
  if (!a->children) {
    return "";
  }
  if (a->children->type == XML_TEXT_NODE && !a->children->next && a->children->content) {
    return (const char *)a->children->content;
  }
  *entity = 1;
  return NULL;
}

static void compare_attributes(urdf_model *m, urdf_node *t, const xmlNode *d) {
  int k = 0;
  for (const xmlAttr *a = d->properties; a; a = a->next) {
    if (a->ns) {
      continue; /* with a declared prefix: never read */
    }
    ck_assert_int_lt(k, t->nattrs);
    const urdf_xattr *x = &t->attrs[k++];
    ck_assert_str_eq(x->name, (const char *)a->name);
    int entity;
    const char *v = dom_value(a, &entity);
    if (entity) {
      ck_assert_ptr_null(x->value);
      ck_assert_ptr_null(urdf_attr(m, t, x->name));
      ck_assert_int_eq(m->err->code, TEAL_EPARSE);
      ck_assert_ptr_nonnull(strstr(m->err->message, "uses entity references"));
      *m->err = (teal_error){TEAL_OK, ""};
    } else {
      ck_assert_str_eq(x->value, v);
    }
  }
  ck_assert_int_eq(k, t->nattrs);
}

/* The DOM's direct text and CDATA of d, concatenated and trimmed. */
static void dom_text(const xmlNode *d, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = '\0';
  for (const xmlNode *c = d->children; c; c = c->next) {
    if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content) {
      n += (size_t)snprintf(buf + n, size - n, "%s", (const char *)c->content);
      ck_assert_uint_lt(n, size);
    }
  }
  char *w = buf;
  while (*w == ' ' || *w == '\n' || *w == '\t' || *w == '\r') {
    w++;
  }
  memmove(buf, w, strlen(w) + 1);
  for (n = strlen(buf); n > 0 && strchr(" \n\t\r", buf[n - 1]); n--) {
    buf[n - 1] = '\0';
  }
}

static void compare_trees(urdf_model *m, urdf_node *t, const xmlNode *d) {
  for (; t || d; t = t->next, d = dom_element(d->next)) {
    ck_assert_msg(t && d, "one tree has more elements");
    const char *prefix = d->ns && d->ns->prefix ? (const char *)d->ns->prefix : NULL;
    ck_assert_str_eq(t->name, (const char *)d->name);
    ck_assert_int_eq(!t->prefix, !prefix);
    if (prefix) {
      ck_assert_str_eq(t->prefix, prefix);
    }
    ck_assert_int_eq(t->line, xmlGetLineNo(d));
    compare_attributes(m, t, d);
    char want[512];
    dom_text(d, want, sizeof(want));
    ck_assert_str_eq(urdf_text(m, t), want);
    compare_trees(m, t->children, dom_element(d->children));
  }
}

static const char *const k_documents[] = {
    /* the loader's own vocabulary, with a declared drake namespace */
    "<?xml version=\"1.0\"?>\n<robot name=\"r\" xmlns:drake=\"http://drake.mit.edu\">\n"
    "  <link name=\"a\">\n    <inertial><mass value=\"1\"/>\n"
    "      <inertia ixx=\"1\" iyy=\"1\" izz=\"1\"/></inertial>\n"
    "    <collision><geometry><box size=\"1 2 3\"/></geometry>\n"
    "      <drake:proximity_properties><drake:mu_static value=\"0.8\"/>"
    "</drake:proximity_properties></collision>\n  </link>\n"
    "  <drake:joint name=\"j\" type=\"ball\"><parent link=\"world\"/><child link=\"a\"/>"
    "</drake:joint>\n</robot>\n",
    /* an undeclared prefix stays in the name; prefixed attributes are skipped */
    "<robot name=\"u\" xmlns:x=\"urn:x\">\n<drake:joint x:name=\"skip\" name=\"k\"/>\n"
    "<link xml:lang=\"en\" name=\"b\" y:z=\"1\"/>\n</robot>",
    /* a default namespace */
    "<robot xmlns=\"urn:default\" name=\"d\"><link name=\"c\"/></robot>",
    /* character references and predefined entities in values and text */
    "<robot name=\"a&amp;b\"><link name=\"&#65;&lt;&#x42;&gt;\" note=\"&quot;q&apos;\"/>"
    "<transmission name=\"t\"><type>  x&amp;y &#67; </type></transmission></robot>",
    /* text split by comments, processing instructions and CDATA */
    "<robot name=\"t\"><transmission name=\"t\"><type>Simple<!-- c -->Trans<?pi x?>"
    "<![CDATA[mission <&>]]>  \n</type></transmission><!-- top --></robot>",
    /* values with newlines, tabs and UTF-8 (rewritten by libxml2) */
    "<robot name=\"n\"><link name=\"l\xc3\xa9\"><visual><origin xyz=\"0\n1\t2\"/>"
    "</visual></link><link name=\"\" other=''/></robot>",
    /* an external DTD, not loaded */
    "<!DOCTYPE robot SYSTEM \"robot.dtd\">\n<robot name=\"e\"><link name=\"p\"/>"
    "<type>a<!-- -->b</type></robot>",
};

START_TEST(tree_matches_libxml2_dom) {
  const char *doc = k_documents[_i];
  teal_error err;
  teal_urdf_report report;
  urdf_model m = model_for(&err, &report);
  ck_assert_msg(urdf_xml_parse(&m, doc, strlen(doc)) == TEAL_OK, "%s", err.message);
  int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES |
             XML_PARSE_IGNORE_ENC;
  xmlDoc *dom = xmlReadMemory(doc, (int)strlen(doc), NULL, NULL, opts);
  ck_assert_ptr_nonnull(dom);
  compare_trees(&m, m.xml.root, xmlDocGetRootElement(dom));
  xmlFreeDoc(dom);
  free_model(&m);
}
END_TEST

/* The message's element: "<prefix:name name="...">" and the line. */
START_TEST(messages_describe_the_element) {
  static const char doc[] =
      "<robot name=\"r\" xmlns:drake=\"urn:d\">\n\n<drake:joint name=\"j&amp;k\"/>\n"
      "<link name=\"a&undeclared;\"/></robot>";
  teal_error err;
  teal_urdf_report report;
  urdf_model m = model_for(&err, &report);
  ck_assert_int_eq(urdf_xml_parse(&m, doc, strlen(doc)), TEAL_EPARSE); /* undeclared entity */
  ck_assert_ptr_nonnull(strstr(err.message, "<string>:4: malformed XML"));
  free_model(&m);
  m = model_for(&err, &report);
  ck_assert_int_eq(urdf_xml_parse(&m, doc, strlen(doc) - 30), TEAL_EPARSE); /* cut short */
  free_model(&m);
  static const char ok[] =
      "<robot name=\"r\" xmlns:drake=\"urn:d\">\n\n<drake:joint name=\"j&amp;k\"/>"
      "</robot>";
  m = model_for(&err, &report);
  ck_assert_int_eq(urdf_xml_parse(&m, ok, strlen(ok)), TEAL_OK);
  ck_assert_int_eq(urdf_fail(&m, m.xml.root->children, TEAL_EINVAL, "bad %d", 1), TEAL_EINVAL);
  ck_assert_str_eq(err.message, "<string>:3: <drake:joint name=\"j&k\">: bad 1");
  free_model(&m);
}
END_TEST

/* Past line 65,535 the DOM keeps no line of its own (it borrows a child's);
 * the tree keeps each element's line, and a message gives it. */
START_TEST(lines_past_65535) {
  size_t n = 70000;
  char *doc = malloc(n + 200);
  ck_assert_ptr_nonnull(doc);
  size_t len = (size_t)sprintf(doc, "<robot name=\"r\">");
  memset(doc + len, '\n', n);
  len += n;
  len += (size_t)sprintf(doc + len, "<link name=\"a\">\n<inertial/></link></robot>");
  teal_error err;
  teal_urdf_report report;
  urdf_model m = model_for(&err, &report);
  ck_assert_int_eq(urdf_xml_parse(&m, doc, len), TEAL_OK);
  ck_assert_int_eq(m.xml.root->children->line, 70001);
  ck_assert_int_eq(m.xml.root->children->children->line, 70002);
  free_model(&m);
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_urdf_load_string(p, doc, NULL, &err), TEAL_EPARSE);
  ck_assert_str_eq(err.message, "<string>:70002: <inertial>: missing <mass>");
  teal_plant_free(p);
  free(doc);
}
END_TEST

/* A failed allocation anywhere in the tree is TEAL_ENOMEM, and everything
 * allocated is released. */
START_TEST(out_of_memory) {
  const char *doc = k_documents[0];
  ts_alloc_install();
  int failures = 0;
  for (long k = 0;; k++) {
    teal_error err;
    teal_urdf_report report;
    urdf_model m = model_for(&err, &report);
    ts_alloc_fail_after(k, 0);
    int rc = urdf_xml_parse(&m, doc, strlen(doc));
    ts_alloc_fail_after(-1, 0);
    free_model(&m);
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
    if (rc == TEAL_OK) {
      break;
    }
    ck_assert_int_eq(rc, TEAL_ENOMEM);
    ck_assert_str_eq(err.message, "<string>: out of memory");
    failures++;
  }
  ck_assert_int_ge(failures, 1);
  ts_alloc_uninstall();
}
END_TEST

/* The pre-scan (urdf.c) counts the attributes libxml2 will see: '=' and
 * '<' inside quoted values, comments, CDATA and end tags do not count. */
START_TEST(prescan_counts_only_attributes) {
  teal_urdf_options o;
  teal_urdf_options_init(&o);
  o.max_attributes = 2;
  teal_error err;
  static const char fits[] =
      "<robot name=\"r\"><!-- a=b c=d e=f --><link name=\"a=b=c\" x='d=\"e<\"'/>"
      "<![CDATA[ g=h i=j k=l ]]></robot x=\"\">";
  teal_plant *p = teal_plant_new(0.0, NULL);
  /* the end tag's attribute is libxml2's error, after the pre-scan passed */
  TS_EXPECT_ERROR(teal_urdf_load_string_opts(p, fits, NULL, &o, NULL, &err), TEAL_EPARSE, &err,
                  "malformed XML");
  static const char three[] = "<robot name=\"r\">\n<link name=\"a\" x='=' y=\"=\"/></robot>";
  TS_EXPECT_ERROR(teal_urdf_load_string_opts(p, three, NULL, &o, NULL, &err), TEAL_ESIZE, &err,
                  "<string>:2: <link>: more than 2 attributes");
  static const char open_quote[] = "<robot name=\"r\"><link name=\"a b=1 c=2 d=3";
  TS_EXPECT_ERROR(teal_urdf_load_string_opts(p, open_quote, NULL, &o, NULL, &err), TEAL_EPARSE,
                  &err, "malformed XML");
  static const char ok[] = "<robot name=\"r\"><link name=\"a=b\" x='c=d'/></robot>";
  ck_assert_int_ge(teal_urdf_load_string_opts(p, ok, NULL, &o, NULL, &err), 0);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_xml");
  TCase *tc = tcase_create("urdf_xml");
  tcase_add_loop_test(tc, tree_matches_libxml2_dom, 0,
                      (int)(sizeof(k_documents) / sizeof(k_documents[0])));
  tcase_add_test(tc, messages_describe_the_element);
  tcase_add_test(tc, lines_past_65535);
  tcase_add_test(tc, out_of_memory);
  tcase_add_test(tc, prescan_counts_only_attributes);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
