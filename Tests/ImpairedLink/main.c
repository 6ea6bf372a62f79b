// ImpairedLink: two network namespaces joined by a userspace link that delays, drops, reorders, duplicates,
// corrupts, rate-limits and blackholes packets on command (decision 0029, Docs/FaultMatrix.md).
//
//   ImpairedLink CONTROL_SOCKET [LIFETIME_SECONDS]
//   ImpairedLink --probe        exits 0 when namespaces and TUN devices can be made here, 77 (with why) when not
//
// It makes namespace S (TUN "srv0", 10.33.0.1/24) and namespace C (TUN "cli0", 10.33.0.2/24), each with "lo" up,
// then forwards every IP packet read from one TUN device to the other through the impairments of its direction
// (c2s: client to server, s2c: server to client). 10.33.0.3 is routed to the link but nobody has it: a blackholed
// address. Other processes join a namespace with `nsenter --net=PATH`, PATH as the `info` command answers
// (/proc/PID/fd/N of the namespace handles this process holds). Nothing leaves the machine: the namespaces have no
// other interface.
//
// Control: connect to CONTROL_SOCKET (AF_UNIX stream), send one command line, read the answer until EOF.
//   info                                  "server PATH client PATH"
//   set DIR KEY=VALUE ...                 DIR is c2s, s2c or both. Keys: delay_ms jitter_ms loss dup corrupt
//                                          reorder (percentages, 0-100), reorder_ms (extra hold of a reordered
//                                          packet, default 20), rate (bytes per second of IP packets, 0 = no cap),
//                                          queue (bytes the rate's queue holds before it drops, default 262144),
//                                          blackhole (1 drops everything), blackhole_after (drop everything once
//                                          this many TCP payload bytes have passed; -1 = off), max_packet (drop
//                                          packets longer than this without an ICMP: a path-MTU blackhole; 0 = off),
//                                          drop_fin (1 drops TCP segments carrying FIN: a close that never arrives)
//   reset                                 every impairment off, counters kept
//   mtu N                                 both TUN devices' MTU (and restarts the "largest" counters)
//   link up|down                          both TUN devices up or down (a flap)
//   seed N                                the random generator's seed (default 33)
//   stats DIR                             "packets N payload N forwarded N dropped N corrupted N duplicated N
//                                          reordered N largest N elapsed_ns N" for that direction (payload: TCP
//                                          payload bytes that arrived; forwarded: that left; largest: the longest
//                                          packet since the last mtu command)
//   crossing DIR BYTES                    link time (ns since start) when DIR's forwarded TCP payload first reached
//                                          BYTES (16 KiB resolution, up to 256 MiB), or -1
//   quit                                  exits
// A command's answer starts with "ok" or "error: WHY".
//
// Written in C, not Swift: TUNSETIFF and SIOCSIF* are variadic ioctls Swift cannot call, and a forwarder that must
// keep a 100 ms queue of 35,000 packets a second wants plain arrays and no runtime. Files: main.c (setup and the
// poll loop), queue.c (what happens to each packet), devices.c (TUN devices, namespaces), control.c (commands).
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "link.h"

struct direction directions[2];
uint64_t rng_state = 33;
int64_t start_ns;
int ctl_fd_server = -1, ctl_fd_client = -1;
int ns_fd_server = -1, ns_fd_client = -1;

int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void skip(const char *what) {
    printf("SKIP: %s: %s\n", what, strerror(errno));
    fflush(stdout);
    exit(77);
}

void default_impairment(struct impairment *imp) {
    memset(imp, 0, sizeof *imp);
    imp->reorder_ms = 20;
    imp->queue = 262144;
    imp->blackhole_after = -1;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: ImpairedLink CONTROL_SOCKET [LIFETIME_SECONDS] | --probe\n");
        return 2;
    }
    int probe = !strcmp(argv[1], "--probe");
    int lifetime = argc > 2 ? atoi(argv[2]) : 900;
    signal(SIGPIPE, SIG_IGN);
    start_ns = now_ns();
    for (int d = 0; d < 2; d++) {
        default_impairment(&directions[d].imp);
        for (int i = 0; i < CROSSINGS; i++) directions[d].crossing[i] = -1;
        directions[d].crossing[0] = 0;
    }
    int tun_server = make_namespace("srv0", "10.33.0.1", &ns_fd_server, &ctl_fd_server);
    int tun_client = make_namespace("cli0", "10.33.0.2", &ns_fd_client, &ctl_fd_client);
    if (probe) {
        printf("ok: namespaces and TUN devices work here\n");
        return 0;
    }
    directions[C2S].in_fd = tun_client;
    directions[C2S].out_fd = tun_server;
    directions[S2C].in_fd = tun_server;
    directions[S2C].out_fd = tun_client;

    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof address.sun_path) { fprintf(stderr, "control path too long\n"); return 2; }
    strcpy(address.sun_path, argv[1]);
    unlink(argv[1]);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 16) < 0) {
        perror("control socket");
        return 1;
    }
    alarm(lifetime);  // a test that died without stopping the link does not leave it running
    printf("ready server /proc/%d/fd/%d client /proc/%d/fd/%d\n", getpid(), ns_fd_server, getpid(), ns_fd_client);

    static unsigned char buffer[MAX_PACKET];
    struct pollfd fds[3] = {{tun_client, POLLIN, 0}, {tun_server, POLLIN, 0}, {listener, POLLIN, 0}};
    for (;;) {
        int timeout = -1;
        if (queued_packets() > 0) {
            int64_t wait = next_release() - now_ns();
            timeout = wait <= 0 ? 0 : (int)((wait + 999999) / 1000000);
        }
        int ready = poll(fds, 3, timeout);
        if (ready < 0 && errno != EINTR) { perror("poll"); return 1; }
        for (int dir = 0; dir < 2; dir++) {
            if (!(fds[dir].revents & POLLIN)) continue;
            for (int burst = 0; burst < 64; burst++) {
                ssize_t n = read(fds[dir].fd, buffer, sizeof buffer);
                if (n <= 0) break;
                arrive(dir, buffer, (int)n);
            }
        }
        if (fds[2].revents & POLLIN) serve_control(listener);
        release_due();
    }
}
