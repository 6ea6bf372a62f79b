#ifndef C_LIBXML2_SHIM_H
#define C_LIBXML2_SHIM_H

// libxml2 (Debian libxml2-dev) for the S3 plug-in's XML: list results, errors and multipart responses.
#include <libxml/parser.h>
#include <libxml/tree.h>

#endif
