#define _GNU_SOURCE
#include "CPty.h"
#include "session_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int authdeck_pty_open(unsigned short rows, unsigned short columns, int *master, char *slave_path, size_t slave_path_size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, slave_path, slave_path_size) != 0) {
        int saved = errno;
        close(fd);
        return saved;
    }
    struct winsize size = {.ws_row = rows, .ws_col = columns};
    if (ioctl(fd, TIOCSWINSZ, &size) != 0) {
        int saved = errno;
        close(fd);
        return saved;
    }
    *master = fd;
    return 0;
}

int authdeck_spawn_in_session(const char *path, char *const argv[], char *const envp[], const char *path_on_0, int channel, pid_t *pid) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int status = posix_spawnattr_init(&attributes);
    if (status != 0) return status;
    status = posix_spawn_file_actions_init(&actions);
    if (status != 0) {
        posix_spawnattr_destroy(&attributes);
        return status;
    }

    sigset_t empty, all;
    sigemptyset(&empty);
    sigfillset(&all);
    // The server ignores SIGPIPE (and maybe more); ignored signals survive exec, so reset them all.
    status = posix_spawnattr_setsigmask(&attributes, &empty);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    // glibc runs file actions after setsid: opening a terminal without O_NOCTTY makes it the new
    // session's controlling terminal, so a hang-up reaches the child as SIGHUP.
    if (status == 0) status = posix_spawn_file_actions_addopen(&actions, 0, path_on_0, O_RDWR, 0);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, 0, 1);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, 0, 2);
    // The duplicate on 3 is not close-on-exec, whatever `channel` is; the caller keeps `channel` above 3.
    if (status == 0 && channel >= 0) status = posix_spawn_file_actions_adddup2(&actions, channel, 3);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, channel >= 0 ? 4 : 3);
#endif
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);

    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return status;
}

int authdeck_pty_spawn(const char *path, char *const argv[], char *const envp[], const char *slave_path, int channel, pid_t *pid) {
    // Held open until the child runs, so the master never reads EIO (no slave yet) in between.
    int slave = open(slave_path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) return errno;
    int status = authdeck_spawn_in_session(path, argv, envp, slave_path, channel, pid);
    close(slave);
    return status;
}

int authdeck_pty_resize(int master, unsigned short rows, unsigned short columns) {
    struct winsize size = {.ws_row = rows, .ws_col = columns};
    return ioctl(master, TIOCSWINSZ, &size) == 0 ? 0 : errno;
}
