// Replaces the allocation functions of the process that links it. glibc exports its own implementations as
// __libc_malloc and friends, so the counting versions forward to them directly: no dlsym on the malloc path (dlsym
// itself allocates). swift_task_alloc is looked up once with dlsym(RTLD_NEXT): it lives in libswift_Concurrency.so.
//
// Between asikit_allocation_sites_start() and asikit_allocation_sites_report(), each heap allocation's call stack is
// also recorded (glibc's backtrace(), grouped by the whole stack), so a budget that moves can be attributed.
#define _GNU_SOURCE
#include "allocation_counter.h"
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic long mallocs;
static _Atomic long taskAllocs;
static _Atomic long taskAllocBytes;

// MARK: - Allocation sites (a debugging aid; off unless started)

enum { siteDepth = 24, siteSlots = 4096 };

typedef struct {
    void *frames[siteDepth];
    int depth;
    long count;
} site;

static site sites[siteSlots];
static _Atomic int recordingSites;
static atomic_flag sitesLock = ATOMIC_FLAG_INIT;
static long sitesDropped;
// backtrace() may allocate (the unwinder's first use): such nested allocations are counted but not recorded.
static _Thread_local int insideRecording;

static void recordSite(void) {
    if (insideRecording) return;
    insideRecording = 1;
    void *frames[siteDepth];
    int depth = backtrace(frames, siteDepth);
    unsigned long hash = 1469598103934665603ul;
    for (int i = 0; i < depth; i++) hash = (hash ^ (unsigned long)frames[i]) * 1099511628211ul;
    while (atomic_flag_test_and_set_explicit(&sitesLock, memory_order_acquire)) {}
    unsigned long slot = hash % siteSlots;
    int stored = 0;
    for (int probe = 0; probe < siteSlots; probe++, slot = (slot + 1) % siteSlots) {
        site *entry = &sites[slot];
        if (entry->depth == 0) {
            memcpy(entry->frames, frames, sizeof(void *) * (size_t)depth);
            entry->depth = depth;
        } else if (entry->depth != depth || memcmp(entry->frames, frames, sizeof(void *) * (size_t)depth) != 0) {
            continue;
        }
        entry->count++;
        stored = 1;
        break;
    }
    if (!stored) sitesDropped++;
    atomic_flag_clear_explicit(&sitesLock, memory_order_release);
    insideRecording = 0;
}

static inline void counted(void) {
    atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
    if (atomic_load_explicit(&recordingSites, memory_order_relaxed)) recordSite();
}

void asikit_allocation_sites_start(void) {
    void *warmUp[4];
    backtrace(warmUp, 4);  // loads the unwinder now, not inside malloc
    atomic_store_explicit(&recordingSites, 1, memory_order_release);
}

static int bySiteCount(const void *left, const void *right) {
    long a = (*(const site *const *)left)->count, b = (*(const site *const *)right)->count;
    return (a < b) - (a > b);
}

void asikit_allocation_sites_report(const char *path, long requests) {
    atomic_store_explicit(&recordingSites, 0, memory_order_release);
    FILE *out = fopen(path, "w");
    if (out == NULL) return;
    site *sorted[siteSlots];
    int used = 0;
    for (int slot = 0; slot < siteSlots; slot++) {
        if (sites[slot].depth > 0) sorted[used++] = &sites[slot];
    }
    qsort(sorted, (size_t)used, sizeof(site *), bySiteCount);
    fprintf(out, "# %d call stacks over %ld requests (%ld not recorded: table full)\n", used, requests, sitesDropped);
    for (int index = 0; index < used; index++) {
        fprintf(out, "site %.2f", (double)sorted[index]->count / (double)(requests > 0 ? requests : 1));
        for (int frame = 0; frame < sorted[index]->depth; frame++) {
            Dl_info info;
            void *address = sorted[index]->frames[frame];
            if (dladdr(address, &info) != 0 && info.dli_fname != NULL) {
                fprintf(out, " %s+0x%lx", info.dli_fname, (unsigned long)((char *)address - (char *)info.dli_fbase));
            } else {
                fprintf(out, " ?+%p", address);
            }
        }
        fputc('\n', out);
    }
    fclose(out);
}

// MARK: - The replaced functions

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

// The runtime's entry point takes one size argument and returns a pointer; with no context or error parameter, the
// Swift calling convention passes and returns them in the C registers.
typedef void *(*task_alloc_function)(size_t);
static _Atomic(task_alloc_function) nextTaskAlloc;

void *swift_task_alloc(size_t size) {
    task_alloc_function next = atomic_load_explicit(&nextTaskAlloc, memory_order_acquire);
    if (next == NULL) {
        next = (task_alloc_function)dlsym(RTLD_NEXT, "swift_task_alloc");
        atomic_store_explicit(&nextTaskAlloc, next, memory_order_release);
    }
    atomic_fetch_add_explicit(&taskAllocs, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&taskAllocBytes, (long)size, memory_order_relaxed);
    return next(size);
}

asikit_allocation_counts asikit_allocation_counts_now(void) {
    asikit_allocation_counts counts = {
        atomic_load_explicit(&mallocs, memory_order_relaxed),
        atomic_load_explicit(&taskAllocs, memory_order_relaxed),
        atomic_load_explicit(&taskAllocBytes, memory_order_relaxed),
    };
    return counts;
}
