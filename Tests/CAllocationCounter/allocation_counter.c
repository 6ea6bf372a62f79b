// Replaces the allocation functions of the process that links it. glibc exports its own implementations as
// __libc_malloc and friends, so the counting versions forward to them directly: no dlsym on the malloc path (dlsym
// itself allocates). swift_task_alloc is looked up once with dlsym(RTLD_NEXT): it lives in libswift_Concurrency.so.
#define _GNU_SOURCE
#include "allocation_counter.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic long mallocs;
static _Atomic long taskAllocs;
static _Atomic long taskAllocBytes;

static inline void counted(void) { atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed); }

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
