// Compiles Debian's Duktape amalgamation (duktape-dev's /usr/share/duktape/duktape.c) with the configuration in
// duktape_build.h.
#define DUK_COMPILING_DUKTAPE
#include "duktape_build.h"
#pragma clang diagnostic ignored "-Weverything"
#if __has_include("/usr/share/duktape/duktape.c")
#include "/usr/share/duktape/duktape.c"
#endif
