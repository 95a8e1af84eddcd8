#define _GNU_SOURCE
#include "CThreads.h"

#include <pthread.h>
#include <string.h>

void authdeck_name_thread(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    pthread_setname_np(pthread_self(), cut);
}
