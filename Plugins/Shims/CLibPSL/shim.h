#ifndef C_LIBPSL_SHIM_H
#define C_LIBPSL_SHIM_H

// libpsl (Debian's libpsl5) for the PublicSuffix plug-in.
//
// It is opened on first use with dlopen, neither linked nor compiled against (decision 0023): the runtime
// library is on a fresh machine of this project's kind (curl and wget depend on it), its `-dev` package is not, and an app that links the
// ASIKit umbrella should build with only the design's zlib and OpenSSL headers. So this header declares the four
// functions of libpsl's stable ABI (libpsl.so.5, unchanged since 0.16) that the plug-in calls, `psl_get_version`
// (optional) for version reports, and the type flags of libpsl.h; a context is an opaque pointer.
#include <dlfcn.h>
#include <stddef.h>

/// `psl_is_public_suffix2` types: ICANN and private suffixes (github.io); libpsl.h's `PSL_TYPE_ANY`, whose
/// implicit "*" rule makes an unknown top-level domain a suffix too.
enum { C_PSL_TYPE_ICANN = 1 << 0, C_PSL_TYPE_PRIVATE = 1 << 1, C_PSL_TYPE_ANY = C_PSL_TYPE_ICANN | C_PSL_TYPE_PRIVATE };

/// The libpsl functions the plug-in calls; every field is NULL when libpsl cannot be loaded.
typedef struct {
    /// `psl_latest(NULL)`: the newer of the built-in list and the system's file; freed with `free`.
    void *(*latest)(const char *file);
    /// `psl_builtin()`: the list compiled into libpsl (static; NULL when built without one).
    const void *(*builtin)(void);
    /// `psl_is_public_suffix2(context, domain, type)`.
    int (*isPublicSuffix)(const void *context, const char *domain, int type);
    /// `psl_free(context)`.
    void (*free)(void *context);
    /// `psl_get_version()`: the library's version, such as `0.21.2 (+libidn2/2.3.3)`, for version reports. Optional:
    /// NULL when the library lacks it, which does not stop the plug-in from loading.
    const char *(*version)(void);
} c_libpsl_functions;

/// Loads libpsl and looks its functions up (call once; the caller keeps the result).
static inline c_libpsl_functions c_libpsl_load(void) {
    c_libpsl_functions none = {NULL, NULL, NULL, NULL, NULL};
    void *library = dlopen("libpsl.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return none;
    c_libpsl_functions functions = {
        (void *(*)(const char *))dlsym(library, "psl_latest"),
        (const void *(*)(void))dlsym(library, "psl_builtin"),
        (int (*)(const void *, const char *, int))dlsym(library, "psl_is_public_suffix2"),
        (void (*)(void *))dlsym(library, "psl_free"),
        (const char *(*)(void))dlsym(library, "psl_get_version"),
    };
    if (functions.latest == NULL || functions.builtin == NULL || functions.isPublicSuffix == NULL ||
        functions.free == NULL) {
        dlclose(library);
        return none;
    }
    return functions;
}

#endif
