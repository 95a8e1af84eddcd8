#ifndef AUTHDECK_CALLOCATOR_H
#define AUTHDECK_CALLOCATOR_H

/// Returns the allocator's free memory, in every arena, to the system (glibc's malloc_trim, which
/// Swift's Glibc module does not export). Walks every arena: call it off the event loops.
void authdeck_release_free_memory(void);

/// Serves every block of `bytes` or more from a mapping of its own, unmapped when freed, and stops
/// glibc from raising that threshold by itself (mallopt's M_MMAP_THRESHOLD). 0 when refused.
int authdeck_map_blocks_from(int bytes);

#endif
