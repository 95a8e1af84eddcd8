#include "CAllocator.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// BoringSSL (swift-crypto's and swift-nio-ssl's copies both) takes its allocator from these three
// functions when the program defines them. Blocks of a megabyte or more — scrypt's working block,
// 16 MiB for every password hash with Firebase's parameters — come from mappings of their own,
// kept for the next hash. Through malloc, freeing that block would make glibc raise its mmap
// threshold to 16 MiB, and every later large block (request bodies) would come from the arenas,
// whose freed tops glibc keeps; mapping and faulting in 16 MiB at every hash instead would slow
// every hash noticeably.
//
// BoringSSL may call these with its own locks held, from initialisers and thread destructors:
// they call nothing but libc, and hold their one lock only to swap pointers.

enum { large_block = 1 << 20, kept_limit = 4 };

// In front of every block: its size as BoringSSL asked, and the length of its mapping (0 when it
// came from malloc). Sixteen bytes keep the block aligned as malloc's are.
typedef struct {
    size_t size;
    size_t mapping;
} block_header;

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static void *kept[kept_limit];
static size_t kept_length[kept_limit];
static atomic_size_t large_served;

static size_t page_rounded(size_t bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

static void *take_kept(size_t length) {
    void *found = NULL;
    pthread_mutex_lock(&kept_lock);
    for (int slot = 0; slot < kept_limit && found == NULL; slot++) {
        if (kept[slot] != NULL && kept_length[slot] == length) {
            found = kept[slot];
            kept[slot] = NULL;
        }
    }
    pthread_mutex_unlock(&kept_lock);
    return found;
}

void *OPENSSL_memory_alloc(size_t size) {
    if (size > SIZE_MAX - sizeof(block_header) - large_block) return NULL;
    size_t total = size + sizeof(block_header);
    block_header *header;
    if (total < large_block) {
        header = malloc(total);
        if (header == NULL) return NULL;
        header->mapping = 0;
    } else {
        size_t length = page_rounded(total);
        header = take_kept(length);
        if (header == NULL) {
            header = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (header == MAP_FAILED) return NULL;
        }
        header->mapping = length;
        atomic_fetch_add_explicit(&large_served, 1, memory_order_relaxed);
    }
    header->size = size;
    return header + 1;
}

void OPENSSL_memory_free(void *pointer) {
    block_header *header = (block_header *)pointer - 1;
    // BoringSSL leaves wiping freed memory to the allocator it is given.
    explicit_bzero(pointer, header->size);
    size_t length = header->mapping;
    if (length == 0) {
        free(header);
        return;
    }
    int stored = 0;
    pthread_mutex_lock(&kept_lock);
    for (int slot = 0; slot < kept_limit && !stored; slot++) {
        if (kept[slot] == NULL) {
            kept[slot] = header;
            kept_length[slot] = length;
            stored = 1;
        }
    }
    pthread_mutex_unlock(&kept_lock);
    if (!stored) munmap(header, length);
}

size_t OPENSSL_memory_get_size(void *pointer) {
    return ((block_header *)pointer - 1)->size;
}

void authdeck_release_crypto_blocks(void) {
    void *released[kept_limit];
    size_t lengths[kept_limit];
    pthread_mutex_lock(&kept_lock);
    for (int slot = 0; slot < kept_limit; slot++) {
        released[slot] = kept[slot];
        lengths[slot] = kept_length[slot];
        kept[slot] = NULL;
    }
    pthread_mutex_unlock(&kept_lock);
    for (int slot = 0; slot < kept_limit; slot++) {
        if (released[slot] != NULL) munmap(released[slot], lengths[slot]);
    }
}

size_t authdeck_crypto_large_blocks_served(void) {
    return atomic_load_explicit(&large_served, memory_order_relaxed);
}
