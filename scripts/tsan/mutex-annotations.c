// ThreadSanitizer annotations for Swift's Synchronization.Mutex on Linux.
//
// Mutex's fast paths are inlined into instrumented code (atomic compare-and-swap on
// the lock word, which TSan sees), but under contention it calls _lockSlow and
// _unlockSlow in libswiftSynchronization.so, where the kernel hands the lock over
// with a PI futex: TSan sees no acquire there, and reports every access made under
// a contended Mutex as a race (a false positive; a two-thread withLock counter is
// enough to show it). Preloaded into a TSan-instrumented process, this library
// wraps the two slow paths and tells TSan what they do: acquire the lock word after
// _lockSlow returns, release it before _unlockSlow. Nothing else changes.
//
// Build and use: scripts/sanitizers.sh does both (see docs/reliability.md).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef __attribute__((swiftcall)) void (*lock_slow_fn)(uint32_t, void *__attribute__((swift_context)));
typedef __attribute__((swiftcall)) void (*unlock_slow_fn)(void *__attribute__((swift_context)));
typedef void (*annotation_fn)(void *);

static lock_slow_fn real_lock_slow;
static unlock_slow_fn real_unlock_slow;
static annotation_fn tsan_acquire, tsan_release;

static void resolve(void) {
    if (real_lock_slow) return;
    real_lock_slow = (lock_slow_fn)dlsym(RTLD_NEXT, "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
    real_unlock_slow = (unlock_slow_fn)dlsym(RTLD_NEXT, "$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
    tsan_acquire = (annotation_fn)dlsym(RTLD_DEFAULT, "__tsan_acquire");
    tsan_release = (annotation_fn)dlsym(RTLD_DEFAULT, "__tsan_release");
    if (!real_lock_slow || !real_unlock_slow) {
        fprintf(stderr, "mutex-annotations: Synchronization's _lockSlow/_unlockSlow not found\n");
        abort();
    }
}

__attribute__((swiftcall)) void lock_slow(uint32_t owner, void *handle __attribute__((swift_context)))
    __asm__("$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
__attribute__((swiftcall)) void lock_slow(uint32_t owner, void *handle __attribute__((swift_context))) {
    resolve();
    real_lock_slow(owner, handle);
    if (tsan_acquire) tsan_acquire(handle);
}

__attribute__((swiftcall)) void unlock_slow(void *handle __attribute__((swift_context)))
    __asm__("$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
__attribute__((swiftcall)) void unlock_slow(void *handle __attribute__((swift_context))) {
    resolve();
    if (tsan_release) tsan_release(handle);
    real_unlock_slow(handle);
}
