#ifndef AUTHDECK_CALLOCATOR_H
#define AUTHDECK_CALLOCATOR_H

/// Returns the allocator's free memory, in every arena, to the system (glibc's malloc_trim, which
/// Swift's Glibc module does not export). Walks every arena: call it off the event loops.
void authdeck_release_free_memory(void);

#endif
