#ifndef AUTHDECK_CPTY_H
#define AUTHDECK_CPTY_H

#include <stddef.h>
#include <sys/types.h>

/// Opens a new pseudo-terminal of `rows` × `columns`: the master (close-on-exec, returned in
/// `*master`) and the slave's path (in `slave_path`). Returns 0, or an errno value.
int authdeck_pty_open(unsigned short rows, unsigned short columns, int *master, char *slave_path, size_t slave_path_size);

/// Runs `path` with `argv` and `envp` in a new session whose controlling terminal is the slave at
/// `slave_path` (on descriptors 0, 1 and 2), and `channel` on descriptor 3 unless it is -1; every
/// other descriptor closed, an empty signal mask and default signal actions. Returns 0 and the
/// child's id in `*pid`, or an errno value.
int authdeck_pty_spawn(const char *path, char *const argv[], char *const envp[], const char *slave_path, int channel, pid_t *pid);

/// Sets the window size (the session's foreground process gets SIGWINCH). Returns 0, or an errno value.
int authdeck_pty_resize(int master, unsigned short rows, unsigned short columns);

/// The variable that makes the binary a fork server for consoles (naming its socket).
#define AUTHDECK_FORK_SERVER_VARIABLE "AUTHDECK_FORK_SERVER"

/// The fork server's socket when `AUTHDECK_FORK_SERVER` named one at the program's start, else -1.
int authdeck_fork_server_socket(void);

/// Serves console requests on that socket; returns only in a console, with its request's
/// arguments (`authdeck_forked_console_arguments`) and environment. Exits with 70 if another
/// thread is running: call it from the main thread before anything starts one.
void authdeck_fork_server_serve(void);

/// Starts `path` as a fork server on `socket` (a SOCK_SEQPACKET Unix socket, its descriptor 3),
/// in a session of its own, with nothing of this process's environment. Returns 0 and its id in
/// `*pid`, or an errno value.
int authdeck_fork_server_start(const char *path, int socket, pid_t *pid);

/// Asks the fork server on `socket` for a console with `argv` and `envp` on the pty whose slave is
/// at `slave_path` (a controlling terminal on 0, 1 and 2) and `channel` on 3 unless it is -1, set
/// up as `authdeck_pty_spawn` sets up its child; the console is reparented to this process, which
/// must be a subreaper. Waits at most `timeout_ms` for the answer. Returns 0 and the console's id
/// in `*pid`, or an errno value (ETIMEDOUT, or EPIPE and ECONNRESET when the fork server is gone).
int authdeck_fork_server_request(int socket, char *const argv[], char *const envp[], const char *slave_path, int channel, int timeout_ms, pid_t *pid);

/// In a console the fork server started: its arguments (`argv[0]` first) and their count; NULL in
/// any other process.
char **authdeck_forked_console_arguments(int *count);

/// Makes this process the reaper of its descendants' orphans (PR_SET_CHILD_SUBREAPER). 0 or an errno value.
int authdeck_become_subreaper(void);

/// A pidfd for `pid`, or -errno.
int authdeck_pidfd_open(pid_t pid);

/// Reaps the exited child behind `pidfd` and returns its status as a shell would (the code, or
/// 128 + the signal that ended it), or -errno.
int authdeck_pidfd_reap(int pidfd);

#endif
