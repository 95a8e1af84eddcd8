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

#endif
