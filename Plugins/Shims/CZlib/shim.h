#ifndef C_ZLIB_SHIM_H
#define C_ZLIB_SHIM_H

#include <zlib.h>

// inflateInit2/deflateInit2 are macros; Swift calls these wrappers instead.
static inline int c_zlib_inflate_init2(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
static inline int c_zlib_deflate_init2(z_streamp stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}

#endif
