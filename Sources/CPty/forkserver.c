#define _GNU_SOURCE
#include "CPty.h"
#include "session_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

extern char **environ;

/// A request: `argc` and `envc` (two uint32), then that many NUL-terminated strings, with the
/// pty's slave and the room channel's end (if any) as SCM_RIGHTS. The answer: `struct reply`.
#define REQUEST_LIMIT (64 * 1024)
#define LIST_LIMIT 256
#define ROTATE_AFTER_CONSOLES 100
#define ROTATE_AFTER_SECONDS 300

struct reply {
    int32_t pid;
    int32_t error;
};

static char request[REQUEST_LIMIT];
static char *console_argv[LIST_LIMIT + 1];
static char *console_envp[LIST_LIMIT + 1];
static int console_argc = -1;
/// The signal actions as the program's main found them: posix_spawn's defaults, and the handlers
/// the constructors set (the Swift runtime's crash handlers), as a spawned console has them.
static struct sigaction started_with[NSIG];

char **authdeck_forked_console_arguments(int *count) {
    if (console_argc < 0) return NULL;
    *count = console_argc;
    return console_argv;
}

static long monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec;
}

/// Splits `length` bytes of `request` into the argument and environment lists; 0 or EINVAL.
static int parse(size_t length) {
    if (length < 8) return EINVAL;
    uint32_t counts[2];
    memcpy(counts, request, sizeof counts);
    if (counts[0] < 1 || counts[0] > LIST_LIMIT || counts[1] > LIST_LIMIT || request[length - 1] != '\0') return EINVAL;
    char *next = request + 8, *end = request + length;
    for (uint32_t index = 0; index < counts[0] + counts[1]; index++) {
        if (next >= end) return EINVAL;
        if (index < counts[0]) console_argv[index] = next; else console_envp[index - counts[0]] = next;
        next += strlen(next) + 1;
    }
    console_argv[counts[0]] = NULL;
    console_envp[counts[1]] = NULL;
    console_argc = (int)counts[0];
    return 0;
}

/// In the console, after the second fork: what posix_spawn with POSIX_SPAWN_SETSID, the pty on
/// 0, 1 and 2, the channel on 3, closefrom(4) and default signals makes (with the signal actions
/// the program starts with), then the request's environment. Tells the fork server its id, or the errno of the step that failed, and exits then.
static void become_console(int slave, int channel, int report, const char *name) {
    int32_t result = 0;
    if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) != 0) result = -errno;
    for (int target = 0; result == 0 && target <= 2; target++) {
        if (dup2(slave, target) < 0) result = -errno;
    }
    if (result == 0 && channel >= 0 && dup2(channel, 3) < 0) result = -errno;
    if (result == 0) {
        sigset_t empty;
        sigemptyset(&empty);
        sigprocmask(SIG_SETMASK, &empty, NULL);
        for (int number = 1; number < NSIG; number++) sigaction(number, &started_with[number], NULL);
        environ = console_envp;
        prctl(PR_SET_NAME, name);
        // glibc gives each thread that allocates an arena of its own, a few hundred kB each once
        // touched; a console's threads mostly wait, so one arena costs them nothing.
        mallopt(M_ARENA_MAX, 1);
        result = getpid();
    }
    ssize_t written;
    do written = write(report, &result, sizeof result); while (written < 0 && errno == EINTR);
    if (result <= 0) _exit(127);
    syscall(SYS_close_range, channel >= 0 ? 4 : 3, ~0U, 0);
}

/// Forks twice so that the console is reparented to `authdeck ssh` (a subreaper) and never a
/// child of this process; answers once it is, so the server can wait for it. True in the console.
static int launch(int slave, int channel, struct reply *answer, const char *name) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        answer->error = errno;
        return 0;
    }
    pid_t middle = fork();
    if (middle == 0) {
        pid_t console = fork();
        if (console == 0) {
            close(report[0]);
            become_console(slave, channel, report[1], name);
            return 1;
        }
        if (console < 0) {
            int32_t failure = -errno;
            (void)!write(report[1], &failure, sizeof failure);
        }
        _exit(0);
    }
    close(report[1]);
    if (middle < 0) {
        answer->error = errno;
    } else {
        while (waitpid(middle, NULL, 0) < 0 && errno == EINTR) {}
        int32_t result = 0;
        ssize_t count;
        do count = read(report[0], &result, sizeof result); while (count < 0 && errno == EINTR);
        if (count != sizeof result) answer->error = ECHILD;
        else if (result < 0) answer->error = -result;
        else answer->pid = result;
    }
    close(report[0]);
    return 0;
}

/// What would end the fork server for nothing: a write to a server gone, the server's terminal.
static void ignore_signals(int ignore) {
    int numbers[] = {SIGPIPE, SIGHUP, SIGINT};
    for (size_t index = 0; index < sizeof numbers / sizeof *numbers; index++) {
        sigaction(numbers[index], ignore ? &(struct sigaction){.sa_handler = SIG_IGN} : &started_with[numbers[index]], NULL);
    }
}

/// The server's loop. Returns in a console only; the fork server itself exits when the server
/// closes its end, and execs itself anew now and then, so that consoles' address-space layout
/// and stack canary change.
static void serve(int socket, char **argv, char **envp) {
    // The consoles' name, as an exec of the binary would give them (an exec of /proc/self/exe says "exe").
    char name[16] = {0};
    const char *slash = strrchr(argv[0], '/');
    strncpy(name, slash ? slash + 1 : argv[0], sizeof name - 1);
    prctl(PR_SET_NAME, "authdeck-forker");
    ignore_signals(1);
    long started = monotonic_seconds();
    int served = 0;
    for (;;) {
        long age = monotonic_seconds() - started;
        if (served >= ROTATE_AFTER_CONSOLES || (served > 0 && age >= ROTATE_AFTER_SECONDS)) {
            // Ignored signals stay ignored across exec: the next image must start as this one did.
            ignore_signals(0);
            execve("/proc/self/exe", argv, envp);
            ignore_signals(1);
            started = monotonic_seconds();
            served = 0;
            continue;
        }
        struct pollfd ready = {.fd = socket, .events = POLLIN};
        int polled = poll(&ready, 1, served > 0 ? (int)(ROTATE_AFTER_SECONDS - age) * 1000 : -1);
        if (polled < 0 && errno != EINTR) _exit(1);
        if (polled <= 0) continue;

        char control[CMSG_SPACE(2 * sizeof(int))];
        struct iovec data = {.iov_base = request, .iov_len = sizeof request};
        struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
        ssize_t length = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
        if (length == 0) _exit(0);
        if (length < 0) {
            if (errno == EINTR) continue;
            _exit(1);
        }
        int descriptors[2] = {-1, -1};
        size_t received = 0;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
            size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            int given[2];
            memcpy(given, CMSG_DATA(header), (count > 2 ? 2 : count) * sizeof(int));
            for (size_t index = 0; index < count && index < 2 && received < 2; index++) descriptors[received++] = given[index];
        }
        struct reply answer = {.pid = 0, .error = 0};
        if (received < 1 || (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) answer.error = EINVAL;
        else answer.error = parse((size_t)length);
        if (answer.error == 0 && launch(descriptors[0], descriptors[1], &answer, name)) return;
        // Nothing of a request stays for the next console to inherit: its environment holds keys.
        explicit_bzero(request, (size_t)length);
        for (size_t index = 0; index < received; index++) close(descriptors[index]);
        served++;
        ssize_t sent;
        do sent = send(socket, &answer, sizeof answer, MSG_NOSIGNAL); while (sent < 0 && errno == EINTR);
        if (sent < 0) _exit(1);
    }
}

static int fork_server_socket = -1;
static char **fork_server_argv;
static char **fork_server_envp;

/// Notes the fork server mode, when `AUTHDECK_FORK_SERVER` names its socket, with the arguments
/// and environment glibc hands constructors, which a rotation execs anew.
__attribute__((constructor)) static void authdeck_fork_server_requested(int argc, char **argv, char **envp) {
    (void)argc;
    const char *variable = getenv(AUTHDECK_FORK_SERVER_VARIABLE);
    if (variable == NULL) return;
    fork_server_socket = atoi(variable);
    fork_server_argv = argv;
    fork_server_envp = envp;
}

int authdeck_fork_server_socket(void) {
    return fork_server_socket;
}

void authdeck_fork_server_serve(void) {
    // A fork copies only the calling thread: with another one running, a console could inherit a
    // lock that thread held.
    struct stat tasks;
    if (stat("/proc/self/task", &tasks) != 0 || tasks.st_nlink != 3) _exit(70);
    for (int number = 1; number < NSIG; number++) sigaction(number, NULL, &started_with[number]);
    serve(fork_server_socket, fork_server_argv, fork_server_envp);
}

int authdeck_fork_server_start(const char *path, int socket, pid_t *pid) {
    char *argv[] = {(char *)path, NULL};
    // Nothing of the server's environment (an API key, a token) reaches the fork server. A session
    // of its own: the server's terminal, if it has one, never signals it.
    char *envp[] = {AUTHDECK_FORK_SERVER_VARIABLE "=3", NULL};
    return authdeck_spawn_in_session(path, argv, envp, "/dev/null", socket, pid);
}

static int request_console(int socket, char *const argv[], char *const envp[], int slave, int channel, int timeout_ms, pid_t *pid) {
    uint32_t counts[2] = {0, 0};
    size_t length = sizeof counts;
    for (; argv[counts[0]]; counts[0]++) length += strlen(argv[counts[0]]) + 1;
    for (; envp[counts[1]]; counts[1]++) length += strlen(envp[counts[1]]) + 1;
    if (length > REQUEST_LIMIT || counts[0] > LIST_LIMIT || counts[1] > LIST_LIMIT) return E2BIG;
    char *buffer = malloc(length);
    if (buffer == NULL) return ENOMEM;
    memcpy(buffer, counts, sizeof counts);
    char *next = buffer + sizeof counts;
    for (uint32_t index = 0; index < counts[0]; index++) next = stpcpy(next, argv[index]) + 1;
    for (uint32_t index = 0; index < counts[1]; index++) next = stpcpy(next, envp[index]) + 1;

    int descriptors[2] = {slave, channel};
    size_t given = channel >= 0 ? 2 : 1;
    char control[CMSG_SPACE(2 * sizeof(int))];
    memset(control, 0, sizeof control);
    struct iovec data = {.iov_base = buffer, .iov_len = length};
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control, .msg_controllen = CMSG_SPACE(given * sizeof(int))};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(given * sizeof(int));
    memcpy(CMSG_DATA(header), descriptors, given * sizeof(int));
    ssize_t sent;
    do sent = sendmsg(socket, &message, MSG_NOSIGNAL); while (sent < 0 && errno == EINTR);
    int status = sent < 0 ? errno : 0;
    explicit_bzero(buffer, length);
    free(buffer);
    if (status != 0) return status;

    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long deadline = now.tv_sec * 1000 + now.tv_nsec / 1000000 + timeout_ms;
    struct reply answer;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = deadline - (now.tv_sec * 1000 + now.tv_nsec / 1000000);
        if (left <= 0) return ETIMEDOUT;
        struct pollfd ready = {.fd = socket, .events = POLLIN};
        int polled = poll(&ready, 1, (int)left);
        if (polled < 0 && errno != EINTR) return errno;
        if (polled <= 0) continue;
        ssize_t count = recv(socket, &answer, sizeof answer, 0);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) return errno;
        if (count != sizeof answer) return ECONNRESET;
        break;
    }
    if (answer.error != 0) return answer.error;
    *pid = answer.pid;
    return 0;
}

int authdeck_fork_server_request(int socket, char *const argv[], char *const envp[], const char *slave_path, int channel, int timeout_ms, pid_t *pid) {
    // Held open until the console has it, so the master never reads EIO (no slave yet) in between.
    int slave = open(slave_path, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) return errno;
    int status = request_console(socket, argv, envp, slave, channel, timeout_ms, pid);
    close(slave);
    return status;
}

int authdeck_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : errno;
}

int authdeck_pidfd_open(pid_t pid) {
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    return fd < 0 ? -errno : fd;
}

int authdeck_pidfd_reap(int pidfd) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    while (waitid(P_PIDFD, (id_t)pidfd, &info, WEXITED) != 0) {
        if (errno != EINTR) return -errno;
    }
    return info.si_code == CLD_EXITED ? (info.si_status & 0xff) : 128 + info.si_status;
}
