#ifndef AUTHDECK_CTHREADS_H
#define AUTHDECK_CTHREADS_H

/// Names the calling thread as `top -H`, `ps -L` and perf show it (the kernel keeps 15 bytes; a
/// longer name is cut). Swift's Glibc module has neither pthread_setname_np (a GNU extension) nor a
/// usable prctl (variadic), and Foundation's `Thread.name` does not reach the kernel on Linux.
void authdeck_name_thread(const char *name);

/// Starts a detached thread running `body(context)` on another core than the caller's, when the
/// process may use more than one; once running, the thread may go anywhere the process may. Left
/// to the scheduler, a thread started while its starter keeps working is often queued behind it on
/// the same core, and the two run one after the other instead of side by side. Until it first runs,
/// the thread waits for one of the other cores even if the caller's falls idle. 0, or an error number.
int authdeck_start_thread_beside(void *(*body)(void *), void *context);

#endif
