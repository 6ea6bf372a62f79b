#ifndef C_HUGE_PAGE_MEMORY_H
#define C_HUGE_PAGE_MEMORY_H

// The allocator the brotli and zstd shims hand their libraries (decision 0039), included by both shims' headers.
//
// A decoder's window is its one large allocation and is written page by page as output is produced: with 4 KiB pages
// a 4 MiB window costs a thousand page faults, about 1.4 ms here. When the body is known to be large (`large_body`,
// set before the first decode), an allocation of at least 2 MiB is mapped on its own, aligned to 2 MiB and marked
// `MADV_HUGEPAGE`, so the kernel may back it with huge pages (one fault per 2 MiB); everything else, and every
// allocation of a small or unknown body, comes from malloc. Only whole 2 MiB stretches inside the allocation are
// marked, so no page beyond it is touched. The functions have the shape of both `brotli_alloc_func`/`free_func`
// and `ZSTD_allocFunction`/`ZSTD_freeFunction`.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/// One allocation mapped on its own by ``c_huge_page_memory_alloc``.
typedef struct {
    void *start;
    void *base;
    size_t length;
} c_huge_page_mapping;

/// Where one decoder's memory comes from: whether its body is large, and the allocations mapped on their own.
typedef struct {
    int large_body;
    c_huge_page_mapping mappings[4];
} c_huge_page_memory;

enum { C_HUGE_PAGE_SIZE = 2 << 20 };

/// Allocates `size` bytes for the decoder whose ``c_huge_page_memory`` is `opaque`.
static inline void *c_huge_page_memory_alloc(void *opaque, size_t size) {
    c_huge_page_memory *memory = (c_huge_page_memory *)opaque;
    if (memory->large_body && size >= C_HUGE_PAGE_SIZE) {
        for (int i = 0; i < 4; i++) {
            if (memory->mappings[i].start != NULL) continue;
            size_t length = size + C_HUGE_PAGE_SIZE;
            void *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (base == MAP_FAILED) break;
            uintptr_t start = ((uintptr_t)base + C_HUGE_PAGE_SIZE - 1) & ~(uintptr_t)(C_HUGE_PAGE_SIZE - 1);
            (void)madvise((void *)start, size & ~(size_t)(C_HUGE_PAGE_SIZE - 1), MADV_HUGEPAGE);
            memory->mappings[i] = (c_huge_page_mapping){(void *)start, base, length};
            return (void *)start;
        }
    }
    return malloc(size);
}

/// Frees what ``c_huge_page_memory_alloc`` gave the decoder whose ``c_huge_page_memory`` is `opaque`.
static inline void c_huge_page_memory_free(void *opaque, void *address) {
    c_huge_page_memory *memory = (c_huge_page_memory *)opaque;
    if (address == NULL) return;
    for (int i = 0; i < 4; i++) {
        if (memory->mappings[i].start == address) {
            munmap(memory->mappings[i].base, memory->mappings[i].length);
            memory->mappings[i] = (c_huge_page_mapping){NULL, NULL, 0};
            return;
        }
    }
    free(address);
}

#endif
