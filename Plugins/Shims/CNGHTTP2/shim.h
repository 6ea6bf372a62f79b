#ifndef C_NGHTTP2_SHIM_H
#define C_NGHTTP2_SHIM_H

// Debian's libnghttp2-dev (the runtime libnghttp2-14 is on a fresh machine; curl links it).
#include <nghttp2/nghttp2.h>

#endif
