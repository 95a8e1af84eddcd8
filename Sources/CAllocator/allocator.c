#include "CAllocator.h"

#include <malloc.h>

void authdeck_release_free_memory(void) {
    malloc_trim(0);
}
