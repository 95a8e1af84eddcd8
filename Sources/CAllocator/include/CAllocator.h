#ifndef AUTHDECK_CALLOCATOR_H
#define AUTHDECK_CALLOCATOR_H

#include <stddef.h>

/// Returns the allocator's free memory, in every arena, to the system (glibc's malloc_trim, which
/// Swift's Glibc module does not export), and the large blocks kept for BoringSSL's next use.
/// Walks every arena: call it off the event loops.
void authdeck_release_free_memory(void);

/// Serves every block of `bytes` or more from a mapping of its own, unmapped when freed, and stops
/// glibc from raising that threshold by itself (mallopt's M_MMAP_THRESHOLD). 0 when refused.
int authdeck_map_blocks_from(int bytes);

/// Every thread allocates from the main arena (mallopt's M_ARENA_MAX of 1). A thread's first
/// allocation otherwise makes it an arena of its own (a 64 MiB reservation, grown a system call
/// at a time and faulted in afresh): for a console's terminal thread, before its first frame. A
/// console allocates little and from few threads at once (the fork server sets the same for the
/// consoles it forks). Call it before any thread starts. 0 when refused.
int authdeck_use_one_arena(void);

/// BoringSSL's allocator (crypto_blocks.c): blocks of a megabyte or more come from mappings kept
/// for reuse, outside malloc. Freed memory is wiped.
void *OPENSSL_memory_alloc(size_t size);
void OPENSSL_memory_free(void *pointer);
size_t OPENSSL_memory_get_size(void *pointer);

/// Unmaps the large blocks kept for BoringSSL's next use.
void authdeck_release_crypto_blocks(void);

/// How many blocks of a megabyte or more BoringSSL has been given so far.
size_t authdeck_crypto_large_blocks_served(void);

#endif
