#ifndef C_LIBXML2_SHIM_H
#define C_LIBXML2_SHIM_H

// libxml2 (Debian libxml2-dev) for the S3 plug-in's XML: list results, errors and multipart responses.
//
// It is opened on first use with dlopen, not linked: linking it loads ICU and liblzma into every program that
// links the S3 plug-in (the asi command among them), about 1 ms of start-up and 2.8 MiB of resident memory,
// whether or not it ever parses XML (decision 0021). The headers give the types; the functions come from here.
#include <dlfcn.h>
#include <stddef.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

/// The libxml2 functions the S3 plug-in calls; every field is NULL when libxml2 cannot be loaded.
typedef struct {
    void (*initParser)(void);
    xmlDocPtr (*readMemory)(const char *buffer, int size, const char *url, const char *encoding, int options);
    void (*freeDoc)(xmlDocPtr document);
    xmlNodePtr (*docGetRootElement)(const xmlDoc *document);
} c_libxml2_functions;

/// Loads libxml2 and looks its functions up (call once; the caller keeps the result).
static inline c_libxml2_functions c_libxml2_load(void) {
    c_libxml2_functions functions = {NULL, NULL, NULL, NULL};
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return functions;
    functions.initParser = (void (*)(void))dlsym(library, "xmlInitParser");
    functions.readMemory = (xmlDocPtr(*)(const char *, int, const char *, const char *, int))dlsym(
        library, "xmlReadMemory");
    functions.freeDoc = (void (*)(xmlDocPtr))dlsym(library, "xmlFreeDoc");
    functions.docGetRootElement = (xmlNodePtr(*)(const xmlDoc *))dlsym(library, "xmlDocGetRootElement");
    if (functions.initParser == NULL || functions.readMemory == NULL || functions.freeDoc == NULL ||
        functions.docGetRootElement == NULL) {
        c_libxml2_functions none = {NULL, NULL, NULL, NULL};
        return none;
    }
    return functions;
}

#endif
