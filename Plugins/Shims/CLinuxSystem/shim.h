#ifndef C_LINUX_SYSTEM_SHIM_H
#define C_LINUX_SYSTEM_SHIM_H

// Linux system calls that Swift's Glibc module does not export; SocketTransport's event loop needs them.
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Names the calling thread (at most 15 bytes are kept).
static inline void c_socket_transport_set_thread_name(const char *name) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

/// The calling thread's kernel id (`gettid`), as `/proc/self/task/<id>` names it.
static inline int c_socket_transport_thread_id(void) {
    return (int)syscall(SYS_gettid);
}
#endif

#endif
