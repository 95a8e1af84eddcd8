#define _GNU_SOURCE
#include "CThreads.h"

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

int authdeck_start_thread_beside(void *(*body)(void *), void *context) {
    start_request *request = calloc(1, sizeof *request);
    if (request == NULL) return -1;
    request->body = body;
    request->context = context;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int here = sched_getcpu();
    if (here >= 0 && sched_getaffinity(0, sizeof request->allowed, &request->allowed) == 0
        && CPU_ISSET(here, &request->allowed) && CPU_COUNT(&request->allowed) > 1) {
        cpu_set_t others = request->allowed;
        CPU_CLR(here, &others);
        request->restore = pthread_attr_setaffinity_np(&attributes, sizeof others, &others) == 0;
    }
    pthread_t thread;
    int created = pthread_create(&thread, &attributes, start, request);
    pthread_attr_destroy(&attributes);
    if (created != 0) free(request);
    return created;
}
