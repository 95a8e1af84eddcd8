#include "CAllocator.h"

#include <malloc.h>

void authdeck_release_free_memory(void) {
    malloc_trim(0);
}

int authdeck_map_blocks_from(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}
