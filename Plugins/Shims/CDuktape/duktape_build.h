// Debian's Duktape configuration with two changes (decision 0016): the executor's interrupt counter and an
// execution-timeout check, which Debian's prebuilt libduktape.so lacks. The configuration header is included
// first, so its include guard keeps duktape.c from including it again and these definitions stand.
#ifndef ASI_DUKTAPE_BUILD_H
#define ASI_DUKTAPE_BUILD_H

// Debian's duktape-dev installs the amalgamation there; it is the one system package the ProxyPAC plug-in needs
// beyond the design's zlib and OpenSSL, so a build without it stops here with the package to install.
#if !__has_include("/usr/share/duktape/duktape.c") || !__has_include("/usr/share/duktape/duk_config.h")
#error "ProxyPAC compiles Duktape from Debian's duktape-dev package, which is not installed: apt-get install duktape-dev (or run scripts/install-dependencies.sh)"
#else
#include "/usr/share/duktape/duk_config.h"

#undef DUK_USE_INTERRUPT_COUNTER
#define DUK_USE_INTERRUPT_COUNTER
#undef DUK_USE_EXEC_TIMEOUT_CHECK
#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) asi_pac_exec_timeout_check(udata)
int asi_pac_exec_timeout_check(void *udata);

#include "/usr/share/duktape/duktape.h"

#endif
#endif
