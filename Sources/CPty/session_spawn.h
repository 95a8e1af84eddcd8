#ifndef AUTHDECK_SESSION_SPAWN_H
#define AUTHDECK_SESSION_SPAWN_H

#include <sys/types.h>

/// posix_spawn of `path` in a session of its own, with every signal's disposition and the mask
/// reset, `path_on_0` opened on 0, 1 and 2 (a terminal becomes the session's controlling one),
/// `channel` (if not negative) on 3 and every other descriptor closed.
int authdeck_spawn_in_session(const char *path, char *const argv[], char *const envp[], const char *path_on_0, int channel, pid_t *pid);

#endif
