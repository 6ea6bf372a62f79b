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

/// One allocation mapped on its own by ``c_brotli_memory_alloc``.
typedef struct {
    void *start;
    void *base;
    size_t length;
} c_brotli_mapping;

/// Where one decoder's memory comes from (decision 0039). The ring buffer (up to the stream's window, 4 MiB for
/// `brotli -q 5`) is a decoder's one large allocation and is written page by page as output is produced: with 4 KiB
/// pages a 4 MiB ring buffer costs a thousand page faults, about 1.4 ms here. When the body is known to be large
/// (`large_body`, set before the first decode), an allocation of at least 2 MiB is mapped on its own, aligned to
/// 2 MiB and marked `MADV_HUGEPAGE`, so the kernel may back it with huge pages (one fault per 2 MiB); everything else,
/// and every allocation of a small or unknown body, comes from malloc. Only whole 2 MiB stretches inside the
/// allocation are marked, so no page beyond it is touched.
typedef struct {
    int large_body;
    c_brotli_mapping mappings[4];
} c_brotli_memory;

enum { C_BROTLI_HUGE_PAGE = 2 << 20 };

/// `brotli_alloc_func` over ``c_brotli_memory``.
static inline void *c_brotli_memory_alloc(void *opaque, size_t size) {
    c_brotli_memory *memory = (c_brotli_memory *)opaque;
    if (memory->large_body && size >= C_BROTLI_HUGE_PAGE) {
        for (int i = 0; i < 4; i++) {
            if (memory->mappings[i].start != NULL) continue;
            size_t length = size + C_BROTLI_HUGE_PAGE;
            void *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (base == MAP_FAILED) break;
            uintptr_t start = ((uintptr_t)base + C_BROTLI_HUGE_PAGE - 1) & ~(uintptr_t)(C_BROTLI_HUGE_PAGE - 1);
            (void)madvise((void *)start, size & ~(size_t)(C_BROTLI_HUGE_PAGE - 1), MADV_HUGEPAGE);
            memory->mappings[i] = (c_brotli_mapping){(void *)start, base, length};
            return (void *)start;
        }
    }
    return malloc(size);
}

/// `brotli_free_func` over ``c_brotli_memory``.
static inline void c_brotli_memory_free(void *opaque, void *address) {
    c_brotli_memory *memory = (c_brotli_memory *)opaque;
    if (address == NULL) return;
    for (int i = 0; i < 4; i++) {
        if (memory->mappings[i].start == address) {
            munmap(memory->mappings[i].base, memory->mappings[i].length);
            memory->mappings[i] = (c_brotli_mapping){NULL, NULL, 0};
            return;
        }
    }
    free(address);
}

/// A new decoder that takes its memory from `memory`, which must outlive it.
static inline void *c_brotli_create_instance(const c_brotli_functions *functions, c_brotli_memory *memory) {
    return functions->createInstance(c_brotli_memory_alloc, c_brotli_memory_free, memory);
}

#endif
