#ifndef C_ZSTD_SHIM_H
#define C_ZSTD_SHIM_H

// libzstd (Debian's libzstd1) for the ZstdCodec plug-in.
//
// It is opened on first use with dlopen, neither linked nor compiled against (decisions 0023 and 0024): the
// runtime library is on a fresh machine of this project's kind (apt and systemd depend on it), its `-dev` package
// is not. So this header declares only the part of the stable ABI of `libzstd.so.1` that the plug-in calls, with
// the struct layouts and values of zstd.h (1.5.4); a stream is an opaque pointer.
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "../HugePageMemory/huge_page_memory.h"

/// `ZSTD_inBuffer` (zstd.h): the input, and how much of it was read.
typedef struct {
    const void *src;
    size_t size;
    size_t pos;
} c_zstd_in_buffer;

/// `ZSTD_outBuffer` (zstd.h): the room for output, and how much of it was written.
typedef struct {
    void *dst;
    size_t size;
    size_t pos;
} c_zstd_out_buffer;

/// `ZSTD_customMem` (zstd.h, advanced API since 1.0): the allocator a stream takes its memory from.
typedef struct {
    void *(*customAlloc)(void *opaque, size_t size);
    void (*customFree)(void *opaque, void *address);
    void *opaque;
} c_zstd_custom_mem;

/// `ZSTD_d_windowLogMax` (`ZSTD_dParameter`, zstd.h): the largest window a frame may ask for, as a power of two.
enum { C_ZSTD_D_WINDOW_LOG_MAX = 100 };

/// The libzstd functions the plug-in calls; every field is NULL when the library cannot be loaded.
typedef struct {
    /// `ZSTD_createDStream()`.
    void *(*createDStream)(void);
    /// `ZSTD_freeDStream(stream)`.
    size_t (*freeDStream)(void *stream);
    /// `ZSTD_DCtx_setParameter(stream, parameter, value)` (a `ZSTD_DStream` is a `ZSTD_DCtx` since 1.3.0).
    size_t (*setParameter)(void *stream, int parameter, int value);
    /// `ZSTD_decompressStream(stream, output, input)`: 0 when a frame is complete, an error code, or a hint.
    size_t (*decompressStream)(void *stream, c_zstd_out_buffer *output, c_zstd_in_buffer *input);
    /// `ZSTD_isError(code)`.
    unsigned (*isError)(size_t code);
    /// `ZSTD_getErrorName(code)`: a static message.
    const char *(*errorName)(size_t code);
    /// `ZSTD_versionString()`, such as `1.5.4`.
    const char *(*versionString)(void);
    /// `ZSTD_createDStream_advanced(customMem)`; NULL when the library lacks it, and then `createDStream` is used.
    void *(*createDStreamAdvanced)(c_zstd_custom_mem customMem);
} c_zstd_functions;

/// Opens `name` (such as `libzstd.so.1`) and looks the functions up; the caller keeps the result.
static inline c_zstd_functions c_zstd_load(const char *name) {
    c_zstd_functions none = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return none;
    c_zstd_functions functions = {
        (void *(*)(void))dlsym(library, "ZSTD_createDStream"),
        (size_t (*)(void *))dlsym(library, "ZSTD_freeDStream"),
        (size_t (*)(void *, int, int))dlsym(library, "ZSTD_DCtx_setParameter"),
        (size_t (*)(void *, c_zstd_out_buffer *, c_zstd_in_buffer *))dlsym(library, "ZSTD_decompressStream"),
        (unsigned (*)(size_t))dlsym(library, "ZSTD_isError"),
        (const char *(*)(size_t))dlsym(library, "ZSTD_getErrorName"),
        (const char *(*)(void))dlsym(library, "ZSTD_versionString"),
        (void *(*)(c_zstd_custom_mem))dlsym(library, "ZSTD_createDStream_advanced"),
    };
    if (functions.createDStream == NULL || functions.freeDStream == NULL || functions.setParameter == NULL ||
        functions.decompressStream == NULL || functions.isError == NULL || functions.errorName == NULL ||
        functions.versionString == NULL) {
        dlclose(library);
        return none;
    }
    return functions;
}

/// One allocation mapped on its own by the shared allocator (`HugePageMemory/huge_page_memory.h`, decision 0039).
typedef c_huge_page_mapping c_zstd_mapping;

/// Where one decoder's memory comes from (`HugePageMemory/huge_page_memory.h`, decision 0039).
typedef c_huge_page_memory c_zstd_memory;

/// A new stream that takes its memory from `memory`, which must outlive it; a plain one when the library has no
/// `ZSTD_createDStream_advanced`.
static inline void *c_zstd_create_stream(const c_zstd_functions *functions, c_zstd_memory *memory) {
    if (functions->createDStreamAdvanced == NULL) return functions->createDStream();
    c_zstd_custom_mem custom = {c_huge_page_memory_alloc, c_huge_page_memory_free, memory};
    return functions->createDStreamAdvanced(custom);
}

#endif
