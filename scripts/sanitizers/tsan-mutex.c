// Makes Synchronization.Mutex's contended paths visible to ThreadSanitizer. Built and preloaded by
// scripts/sanitize.sh for `thread` runs only; see Docs/Sanitizers.md.
//
// Mutex on Linux (the Swift standard library's Synchronization/Mutex/LinuxImpl.swift) inlines only its fast paths
// into our (instrumented) code: a compare-and-swap to lock and to unlock. When the lock is contended, the slow
// paths `_lockSlow` and `_unlockSlow` in libswiftSynchronization.so spin with uninstrumented atomics and then hand
// the lock over in the kernel (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI). TSan sees neither, so every access a contended
// Mutex protects is reported as a race. These wrappers interpose the two slow paths (the executable and its
// libraries call them through the PLT) and tell TSan what happened: a release before the real unlock, an acquire
// after the real lock, on the lock word's address, which is where the inlined fast paths' atomics synchronise too.
//
// Calling convention (x86-64, swiftcc): `self` (the address of the lock word, `borrowing` a ~Copyable struct) is
// passed in r13, the swiftself register, which clang names `swift_context`; `selfId` is the first argument.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

#define SWIFTCALL __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))

// Weak: the library is preloaded into every child of the test process too (nginx, python, asi), and only the
// sanitized ones define these.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

typedef SWIFTCALL void (*lock_slow_fn)(uint32_t self_id, void *SWIFT_SELF self);
typedef SWIFTCALL void (*unlock_slow_fn)(void *SWIFT_SELF self);
typedef SWIFTCALL _Bool (*try_lock_slow_fn)(void *SWIFT_SELF self);

static void *next_symbol(const char *name) {
    void *symbol = dlsym(RTLD_NEXT, name);
    if (symbol == NULL) abort();  // a toolchain whose Mutex has other symbols: fail loudly, not silently
    return symbol;
}

SWIFTCALL void lock_slow(uint32_t self_id, void *SWIFT_SELF self)
    __asm__("$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
SWIFTCALL void lock_slow(uint32_t self_id, void *SWIFT_SELF self) {
    static lock_slow_fn real;
    if (real == NULL) real = (lock_slow_fn)next_symbol("$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
    real(self_id, self);
    if (__tsan_acquire) __tsan_acquire(self);
}

SWIFTCALL void unlock_slow(void *SWIFT_SELF self) __asm__("$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
SWIFTCALL void unlock_slow(void *SWIFT_SELF self) {
    static unlock_slow_fn real;
    if (real == NULL) real = (unlock_slow_fn)next_symbol("$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
    if (__tsan_release) __tsan_release(self);
    real(self);
}

SWIFTCALL _Bool try_lock_slow(void *SWIFT_SELF self) __asm__("$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF");
SWIFTCALL _Bool try_lock_slow(void *SWIFT_SELF self) {
    static try_lock_slow_fn real;
    if (real == NULL) real = (try_lock_slow_fn)next_symbol("$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF");
    _Bool locked = real(self);
    if (locked && __tsan_acquire) __tsan_acquire(self);
    return locked;
}
