#ifndef ASIKIT_ALLOCATION_COUNTER_H
#define ASIKIT_ALLOCATION_COUNTER_H

/// Counts of the process's heap and async-frame allocations since it started. The counting functions replace
/// `malloc` and its kin (and `swift_task_alloc`) for the whole process that links this target, forwarding each call
/// to glibc (and the Swift runtime), so only the RequestBudget executable links it.
typedef struct {
    /// Calls to malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign.
    long mallocs;
    /// Calls to swift_task_alloc: async frames and task-local allocations.
    long taskAllocs;
    /// Bytes asked of swift_task_alloc.
    long taskAllocBytes;
} asikit_allocation_counts;

/// The counts so far (each read atomically; they move on every thread).
asikit_allocation_counts asikit_allocation_counts_now(void);

/// Starts recording the call stack of every heap allocation (a debugging aid: slow, and off until started).
void asikit_allocation_sites_start(void);

/// Stops recording and writes the stacks to `path`, most frequent first: one line per stack, `site R` (allocations
/// per request, `requests` being the divisor) and each frame as `file+0xoffset`, for `addr2line`
/// (`Benchmarks/Scripts/allocation-sites.py` names them).
void asikit_allocation_sites_report(const char *path, long requests);

#endif
