#ifndef C_LIBXML2_SHIM_H
#define C_LIBXML2_SHIM_H

// libxml2 (Debian libxml2) for the S3 plug-in's XML: list results, errors and multipart responses.
//
// It is opened on first use with dlopen, neither linked nor compiled against: linking it loads ICU and liblzma
// into every program that links the S3 plug-in (the asi command among them), about 1 ms of start-up and 2.8 MiB
// of resident memory, whether or not it ever parses XML (decision 0021). So this header declares the little of
// libxml2's stable ABI (libxml2.so.2) that the plug-in reads: the start of `struct _xmlNode`, three node types and
// three parser options, with the values of libxml/tree.h and libxml/parser.h.
#include <dlfcn.h>
#include <stddef.h>

/// The leading fields of libxml2's `struct _xmlNode`, in its order (the rest is never read).
typedef struct c_xml_node {
    void *_private;
    int type;
    const unsigned char *name;
    struct c_xml_node *children;
    struct c_xml_node *last;
    struct c_xml_node *parent;
    struct c_xml_node *next;
    struct c_xml_node *prev;
    void *doc;
    void *ns;
    unsigned char *content;
} c_xml_node;

/// `xmlElementType` values.
enum { C_XML_ELEMENT_NODE = 1, C_XML_TEXT_NODE = 3, C_XML_CDATA_SECTION_NODE = 4 };
/// `xmlParserOption` values.
enum { C_XML_PARSE_NOERROR = 1 << 5, C_XML_PARSE_NOWARNING = 1 << 6, C_XML_PARSE_NONET = 1 << 11 };

/// The libxml2 functions the S3 plug-in calls (a document is an opaque pointer); every field is NULL when libxml2
/// cannot be loaded.
typedef struct {
    void (*initParser)(void);
    void *(*readMemory)(const char *buffer, int size, const char *url, const char *encoding, int options);
    void (*freeDoc)(void *document);
    c_xml_node *(*docGetRootElement)(const void *document);
} c_libxml2_functions;

/// Loads libxml2 and looks its functions up (call once; the caller keeps the result).
static inline c_libxml2_functions c_libxml2_load(void) {
    c_libxml2_functions none = {NULL, NULL, NULL, NULL};
    // libxml2 2.14 renamed its library to libxml2.so.16; the node layout read here is the same in both.
    void *library = dlopen("libxml2.so.16", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return none;
    c_libxml2_functions functions = {
        (void (*)(void))dlsym(library, "xmlInitParser"),
        (void *(*)(const char *, int, const char *, const char *, int))dlsym(library, "xmlReadMemory"),
        (void (*)(void *))dlsym(library, "xmlFreeDoc"),
        (c_xml_node * (*)(const void *)) dlsym(library, "xmlDocGetRootElement"),
    };
    if (functions.initParser == NULL || functions.readMemory == NULL || functions.freeDoc == NULL ||
        functions.docGetRootElement == NULL)
        return none;
    return functions;
}

#endif
