#ifndef C_LIBPSL_SHIM_H
#define C_LIBPSL_SHIM_H

#include <libpsl.h>

// PSL_TYPE_ANY is a macro of an expression, which Swift does not import; the shim names the flags the plug-in uses:
// ICANN and private suffixes (github.io), with the list's implicit "*" rule for unknown top-level domains.
static inline int c_psl_is_public_suffix(const psl_ctx_t *context, const char *domain) {
    return psl_is_public_suffix2(context, domain, PSL_TYPE_ANY);
}

#endif
