#ifndef C_BROTLI_SHIM_H
#define C_BROTLI_SHIM_H

// libbrotlidec (Debian's libbrotli1) for the BrotliCodec plug-in.
//
// It is opened on first use with dlopen, neither linked nor compiled against (decisions 0023 and 0024): the
// runtime library is on a fresh machine of this project's kind, its `-dev` package is not, and an app should build
// with nothing but the design's zlib and OpenSSL headers. So this header declares only the part of the stable ABI of
// `libbrotlidec.so.1` (unchanged since brotli 1.0) that the plug-in calls, with the values of brotli/decode.h; a
// decoder state is an opaque pointer.
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "../HugePageMemory/huge_page_memory.h"

/// `BrotliDecoderResult` (brotli/decode.h).
enum {
    C_BROTLI_DECODER_RESULT_ERROR = 0,
    C_BROTLI_DECODER_RESULT_SUCCESS = 1,
    C_BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT = 2,
    C_BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT = 3
};

/// The libbrotlidec functions the plug-in calls; every field is NULL when the library cannot be loaded.
typedef struct {
    /// `BrotliDecoderCreateInstance(alloc_func, free_func, opaque)`: NULLs for malloc and free.
    void *(*createInstance)(void *(*allocFunc)(void *opaque, size_t size), void (*freeFunc)(void *opaque, void *address),
                            void *opaque);
    /// `BrotliDecoderDestroyInstance(state)`.
    void (*destroyInstance)(void *state);
    /// `BrotliDecoderDecompressStream(state, available_in, next_in, available_out, next_out, total_out)`; returns a
    /// `BrotliDecoderResult`.
    int (*decompressStream)(void *state, size_t *availableIn, const uint8_t **nextIn, size_t *availableOut,
                            uint8_t **nextOut, size_t *totalOut);
    /// `BrotliDecoderGetErrorCode(state)`: a negative `BrotliDecoderErrorCode` after an error.
    int (*errorCode)(const void *state);
    /// `BrotliDecoderErrorString(code)`: a static name such as `_ERROR_FORMAT_PADDING_1`.
    const char *(*errorString)(int code);
    /// `BrotliDecoderVersion()`: `major << 24 | minor << 12 | patch`.
    uint32_t (*version)(void);
} c_brotli_functions;

/// Opens `name` (such as `libbrotlidec.so.1`) and looks the functions up; the caller keeps the result.
static inline c_brotli_functions c_brotli_load(const char *name) {
    c_brotli_functions none = {NULL, NULL, NULL, NULL, NULL, NULL};
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return none;
    c_brotli_functions functions = {
        (void *(*)(void *(*)(void *, size_t), void (*)(void *, void *), void *))dlsym(library,
                                                                                "BrotliDecoderCreateInstance"),
        (void (*)(void *))dlsym(library, "BrotliDecoderDestroyInstance"),
        (int (*)(void *, size_t *, const uint8_t **, size_t *, uint8_t **, size_t *))dlsym(
            library, "BrotliDecoderDecompressStream"),
        (int (*)(const void *))dlsym(library, "BrotliDecoderGetErrorCode"),
        (const char *(*)(int))dlsym(library, "BrotliDecoderErrorString"),
        (uint32_t (*)(void))dlsym(library, "BrotliDecoderVersion"),
    };
    if (functions.createInstance == NULL || functions.destroyInstance == NULL || functions.decompressStream == NULL ||
        functions.errorCode == NULL || functions.errorString == NULL || functions.version == NULL) {
        dlclose(library);
        return none;
    }
    return functions;
}

/// One allocation mapped on its own by the shared allocator (`HugePageMemory/huge_page_memory.h`, decision 0039).
typedef c_huge_page_mapping c_brotli_mapping;

/// Where one decoder's memory comes from (`HugePageMemory/huge_page_memory.h`, decision 0039).
typedef c_huge_page_memory c_brotli_memory;

/// A new decoder that takes its memory from `memory`, which must outlive it.
static inline void *c_brotli_create_instance(const c_brotli_functions *functions, c_brotli_memory *memory) {
    return functions->createInstance(c_huge_page_memory_alloc, c_huge_page_memory_free, memory);
}

#endif
