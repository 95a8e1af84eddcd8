#include "CAllocator.h"

#include <malloc.h>

void authdeck_release_free_memory(void) {
    authdeck_release_crypto_blocks();
    malloc_trim(0);
}

int authdeck_map_blocks_from(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int authdeck_use_one_arena(void) {
    return mallopt(M_ARENA_MAX, 1);
}
