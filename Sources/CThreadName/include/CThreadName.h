#ifndef AUTHDECK_CTHREADNAME_H
#define AUTHDECK_CTHREADNAME_H

/// Names the calling thread as `top -H`, `ps -L` and perf show it (the kernel keeps 15 bytes; a
/// longer name is cut). Swift's Glibc module has neither pthread_setname_np (a GNU extension) nor a
/// usable prctl (variadic), and Foundation's `Thread.name` does not reach the kernel on Linux.
void authdeck_name_thread(const char *name);

#endif
