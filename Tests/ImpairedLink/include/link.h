// ImpairedLink's shared declarations: the impairments of a direction, the packets in flight, the two namespaces.
// See main.c for what the program does and its control commands.
#ifndef IMPAIRED_LINK_H
#define IMPAIRED_LINK_H
#include <stddef.h>
#include <stdint.h>

#define MAX_PACKET 65536
#define CROSSING_STEP 16384
#define CROSSINGS 16384

enum { C2S = 0, S2C = 1 };

struct impairment {
    double delay_ms, jitter_ms, loss, dup, corrupt, reorder, reorder_ms;
    double rate;  // bytes per second, 0 = none
    double queue;  // bytes
    int blackhole;
    long long blackhole_after;
    int max_packet;  // drops longer packets without a word (a path-MTU blackhole); 0 = none
    int drop_fin;    // drops TCP segments that carry FIN (a middlebox that lost a close); 0 = off
};

struct direction {
    struct impairment imp;
    int in_fd, out_fd;
    int64_t next_free_ns;  // when the rate's "wire" is free again
    long long packets, payload, forwarded, dropped, corrupted, duplicated, reordered;
    long long largest;  // the longest packet that arrived since the last `mtu` command
    int64_t crossing[CROSSINGS];
};

struct packet {
    int64_t release_ns;
    uint64_t order;
    int dir;
    int length;
    int payload;  // TCP payload bytes, counted when the packet leaves (0 for a duplicate)
    unsigned char *bytes;
};

extern struct direction directions[2];
extern uint64_t rng_state;
extern int64_t start_ns;
extern int ctl_fd_server, ctl_fd_client;  // AF_INET sockets for SIOCSIF* in each namespace
extern int ns_fd_server, ns_fd_client;    // the namespaces, open for `nsenter --net=/proc/PID/fd/N`

// main.c
int64_t now_ns(void);
void skip(const char *what);
void default_impairment(struct impairment *imp);
// queue.c: the delay queue and what happens to a packet
size_t queued_packets(void);
int64_t next_release(void);
void arrive(int dir, unsigned char *bytes, int length);
void release_due(void);
// devices.c: TUN devices and namespaces
int set_flags(int sock, const char *name, int up);
int set_mtu(int sock, const char *name, int mtu);
int make_namespace(const char *name, const char *address, int *ns_fd, int *ctl_fd);
// control.c: the control socket's commands
void serve_control(int listener);

#endif
