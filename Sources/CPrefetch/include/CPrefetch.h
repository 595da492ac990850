#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the processor to start loading the `bytes` at `address` into its caches. The simulator
/// visits cards in the order they fall due, all over a large array; each visit waited on memory.
static inline void maeil_prefetch(const void *address, long bytes) {
    for (long offset = 0; offset < bytes; offset += 64) {
        __builtin_prefetch((const char *)address + offset, 1, 3);
    }
}

#endif
