#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the processor to start loading the `bytes` at `address` into its caches. The simulator
/// visits cards in the order they fall due, all over a large array; each visit waited on memory.
static inline void maeil_prefetch(const void *address, long bytes) {
    for (long offset = 0; offset < bytes; offset += 64) {
        __builtin_prefetch((const char *)address + offset, 1, 3);
    }
}

/// Tells the processor this thread is spinning on a flag another core will set: it saves power
/// and lets the other hardware thread of the core run.
static inline void maeil_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
