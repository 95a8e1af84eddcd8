#define _GNU_SOURCE
#include "CThreads.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

typedef struct {
    void *(*body)(void *);
    void *context;
    int restore;
    cpu_set_t allowed;
} start_request;

static void *start(void *argument) {
    start_request request = *(start_request *)argument;
    free(argument);
    // From here on the scheduler places the thread as it would any other.
    if (request.restore) pthread_setaffinity_np(pthread_self(), sizeof request.allowed, &request.allowed);
    return request.body(request.context);
}

/// A detached thread for `request`, on `cores` when not NULL. 0, or an error number.
static int create(start_request *request, const cpu_set_t *cores) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int created = cores == NULL ? 0 : pthread_attr_setaffinity_np(&attributes, sizeof *cores, cores);
    if (created == 0) {
        pthread_t thread;
        created = pthread_create(&thread, &attributes, start, request);
    }
    pthread_attr_destroy(&attributes);
    return created;
}

int authdeck_start_thread_beside(void *(*body)(void *), void *context) {
    start_request *request = calloc(1, sizeof *request);
    if (request == NULL) return ENOMEM;
    request->body = body;
    request->context = context;
    int created = -1;
    int here = sched_getcpu();
    if (here >= 0 && sched_getaffinity(0, sizeof request->allowed, &request->allowed) == 0
        && CPU_ISSET(here, &request->allowed) && CPU_COUNT(&request->allowed) > 1) {
        cpu_set_t others = request->allowed;
        CPU_CLR(here, &others);
        request->restore = 1;
        created = create(request, &others);
    }
    if (created != 0) {
        // One core, no affinity to be had (a seccomp filter, a CPU set too large to read), or the
        // others taken from the process meanwhile: anywhere will do.
        request->restore = 0;
        created = create(request, NULL);
    }
    if (created != 0) free(request);
    return created;
}
