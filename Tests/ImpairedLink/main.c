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
//                                          this many TCP payload bytes have passed; -1 = off)
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
// keep a 100 ms queue of 35,000 packets a second wants plain arrays and no runtime.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

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

static struct direction directions[2];
static struct packet *heap;
static size_t heap_count, heap_capacity;
static uint64_t order_counter;
static uint64_t rng_state = 33;
static int64_t start_ns;
static int ctl_fd_server = -1, ctl_fd_client = -1;  // AF_INET sockets for SIOCSIF* in each namespace
static int ns_fd_server = -1, ns_fd_client = -1;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double uniform(void) {  // xorshift64*, in [0, 1)
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static int chance(double percent) { return percent > 0 && uniform() * 100.0 < percent; }

static void skip(const char *what) {
    printf("SKIP: %s: %s\n", what, strerror(errno));
    fflush(stdout);
    exit(77);
}

static void default_impairment(struct impairment *imp) {
    memset(imp, 0, sizeof *imp);
    imp->reorder_ms = 20;
    imp->queue = 262144;
    imp->blackhole_after = -1;
}

// ---- the delay queue: a binary min-heap on (release time, arrival order)

static int earlier(const struct packet *a, const struct packet *b) {
    return a->release_ns < b->release_ns || (a->release_ns == b->release_ns && a->order < b->order);
}

static void heap_push(struct packet p) {
    if (heap_count == heap_capacity) {
        heap_capacity = heap_capacity ? heap_capacity * 2 : 1024;
        heap = realloc(heap, heap_capacity * sizeof *heap);
        if (!heap) abort();
    }
    size_t i = heap_count++;
    heap[i] = p;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!earlier(&heap[i], &heap[parent])) break;
        struct packet t = heap[i]; heap[i] = heap[parent]; heap[parent] = t;
        i = parent;
    }
}

static struct packet heap_pop(void) {
    struct packet top = heap[0];
    heap[0] = heap[--heap_count];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < heap_count && earlier(&heap[l], &heap[m])) m = l;
        if (r < heap_count && earlier(&heap[r], &heap[m])) m = r;
        if (m == i) break;
        struct packet t = heap[i]; heap[i] = heap[m]; heap[m] = t;
        i = m;
    }
    return top;
}

// ---- packets

// TCP payload bytes of an IPv4 packet (0 for anything else).
static int tcp_payload(const unsigned char *p, int length) {
    if (length < 20 || (p[0] >> 4) != 4 || p[9] != 6) return 0;
    int ihl = (p[0] & 0x0f) * 4;
    int total = (p[2] << 8) | p[3];
    if (total > length || ihl + 20 > total) return 0;
    int data_offset = (p[ihl + 12] >> 4) * 4;
    return total - ihl - data_offset > 0 ? total - ihl - data_offset : 0;
}

static void count_crossings(struct direction *d, long long before, long long after, int64_t t) {
    for (long long b = (before / CROSSING_STEP + 1) * CROSSING_STEP; b <= after; b += CROSSING_STEP) {
        long long index = b / CROSSING_STEP;
        if (index < CROSSINGS && d->crossing[index] < 0) d->crossing[index] = t - start_ns;
    }
}

static void enqueue(int dir, const unsigned char *bytes, int length, int payload, int64_t release) {
    struct packet p = {release, order_counter++, dir, length, payload, malloc(length)};
    if (!p.bytes) abort();
    memcpy(p.bytes, bytes, length);
    heap_push(p);
}

static void arrive(int dir, unsigned char *bytes, int length) {
    struct direction *d = &directions[dir];
    struct impairment *imp = &d->imp;
    int64_t t = now_ns();
    d->packets++;
    if (length > d->largest) d->largest = length;
    int payload = tcp_payload(bytes, length);
    if (imp->blackhole || (imp->blackhole_after >= 0 && d->payload >= imp->blackhole_after) || chance(imp->loss)) {
        d->dropped++;
        return;
    }
    int64_t release = t;
    if (imp->rate > 0) {
        int64_t start = d->next_free_ns > t ? d->next_free_ns : t;
        if ((double)(start - t) * imp->rate / 1e9 > imp->queue) {  // the bottleneck's queue is full: tail drop
            d->dropped++;
            return;
        }
        d->next_free_ns = start + (int64_t)(length * 1e9 / imp->rate);
        release = d->next_free_ns;
    }
    double delay = imp->delay_ms;
    if (imp->jitter_ms > 0) delay += (uniform() * 2 - 1) * imp->jitter_ms;
    if (delay < 0) delay = 0;
    if (chance(imp->reorder)) {
        delay += imp->reorder_ms;
        d->reordered++;
    }
    release += (int64_t)(delay * 1e6);
    if (chance(imp->corrupt) && length > 20) {
        int ihl = (bytes[0] & 0x0f) * 4;
        if (ihl < length) {  // flip one bit past the IP header: TCP's (or UDP's) checksum no longer holds
            int at = ihl + (int)(uniform() * (length - ihl));
            bytes[at] ^= (unsigned char)(1u << (int)(uniform() * 8));
            d->corrupted++;
        }
    }
    d->payload += payload;
    enqueue(dir, bytes, length, payload, release);
    if (chance(imp->dup)) {
        d->duplicated++;
        enqueue(dir, bytes, length, 0, release + 1000);
    }
}

static void release_due(void) {
    int64_t t = now_ns();
    while (heap_count > 0 && heap[0].release_ns <= t) {
        struct packet p = heap_pop();
        struct direction *d = &directions[p.dir];
        long long before = d->forwarded;
        d->forwarded += p.payload;
        count_crossings(d, before, d->forwarded, t);
        // A down device (a flap) refuses the write with EIO: the packet is lost, as on a real link.
        if (write(d->out_fd, p.bytes, p.length) < 0) d->dropped++;
        free(p.bytes);
    }
}

// ---- devices and namespaces

static int open_tun(const char *name) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) skip("open /dev/net/tun");
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) skip("TUNSETIFF");
    return fd;
}

static int set_flags(int sock, const char *name, int up) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0) return -1;
    if (up) ifr.ifr_flags |= IFF_UP | IFF_RUNNING; else ifr.ifr_flags &= ~IFF_UP;
    return ioctl(sock, SIOCSIFFLAGS, &ifr);
}

static int set_mtu(int sock, const char *name, int mtu) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    ifr.ifr_mtu = mtu;
    return ioctl(sock, SIOCSIFMTU, &ifr);
}

static void configure(int sock, const char *name, const char *address) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
    sin->sin_family = AF_INET;
    inet_pton(AF_INET, address, &sin->sin_addr);
    if (ioctl(sock, SIOCSIFADDR, &ifr) < 0) skip("SIOCSIFADDR");
    inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
    if (ioctl(sock, SIOCSIFNETMASK, &ifr) < 0) skip("SIOCSIFNETMASK");
    if (set_flags(sock, name, 1) < 0) skip("SIOCSIFFLAGS");
    if (set_flags(sock, "lo", 1) < 0) skip("SIOCSIFFLAGS lo");
}

// Makes a namespace, its TUN device and its control socket; returns the TUN fd.
static int make_namespace(const char *name, const char *address, int *ns_fd, int *ctl_fd) {
    if (unshare(CLONE_NEWNET) < 0) skip("unshare(CLONE_NEWNET)");
    *ns_fd = open("/proc/self/ns/net", O_RDONLY);  // not O_CLOEXEC: `nsenter` children find it by /proc/PID/fd
    if (*ns_fd < 0) skip("open /proc/self/ns/net");
    *ctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (*ctl_fd < 0) skip("socket");
    int tun = open_tun(name);
    configure(*ctl_fd, name, address);
    return tun;
}

// ---- control

static int parse_direction(const char *word, int *first, int *last) {
    if (!word) return -1;
    if (!strcmp(word, "c2s")) { *first = *last = C2S; return 0; }
    if (!strcmp(word, "s2c")) { *first = *last = S2C; return 0; }
    if (!strcmp(word, "both")) { *first = C2S; *last = S2C; return 0; }
    return -1;
}

static int set_key(struct impairment *imp, const char *key, const char *value) {
    char *end;
    double v = strtod(value, &end);
    if (*end || end == value) return -1;
    if (!strcmp(key, "delay_ms")) imp->delay_ms = v;
    else if (!strcmp(key, "jitter_ms")) imp->jitter_ms = v;
    else if (!strcmp(key, "loss")) imp->loss = v;
    else if (!strcmp(key, "dup")) imp->dup = v;
    else if (!strcmp(key, "corrupt")) imp->corrupt = v;
    else if (!strcmp(key, "reorder")) imp->reorder = v;
    else if (!strcmp(key, "reorder_ms")) imp->reorder_ms = v;
    else if (!strcmp(key, "rate")) imp->rate = v;
    else if (!strcmp(key, "queue")) imp->queue = v;
    else if (!strcmp(key, "blackhole")) imp->blackhole = v != 0;
    else if (!strcmp(key, "blackhole_after")) imp->blackhole_after = (long long)v;
    else return -1;
    return 0;
}

static void reply(int fd, const char *format, ...) {
    char buffer[512];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    if (n > (int)sizeof buffer - 1) n = sizeof buffer - 1;
    ssize_t ignored = write(fd, buffer, n);
    (void)ignored;
}

static void command(int fd, char *line) {
    char *words[32];
    int count = 0;
    for (char *save, *w = strtok_r(line, " \t\r\n", &save); w && count < 32; w = strtok_r(NULL, " \t\r\n", &save))
        words[count++] = w;
    if (count == 0) { reply(fd, "error: empty command\n"); return; }
    int first, last;
    if (!strcmp(words[0], "info")) {
        reply(fd, "ok server /proc/%d/fd/%d client /proc/%d/fd/%d\n", getpid(), ns_fd_server, getpid(), ns_fd_client);
    } else if (!strcmp(words[0], "set")) {
        if (count < 2 || parse_direction(words[1], &first, &last) < 0) {
            reply(fd, "error: set DIR KEY=VALUE\n");
            return;
        }
        for (int d = first; d <= last; d++) {
            struct impairment updated = directions[d].imp;
            for (int i = 2; i < count; i++) {
                char *eq = strchr(words[i], '=');
                if (!eq) { reply(fd, "error: %s is not KEY=VALUE\n", words[i]); return; }
                *eq = 0;
                int bad = set_key(&updated, words[i], eq + 1);
                *eq = '=';
                if (bad) { reply(fd, "error: unknown key or bad value %s\n", words[i]); return; }
            }
            directions[d].imp = updated;
        }
        reply(fd, "ok\n");
    } else if (!strcmp(words[0], "reset")) {
        for (int d = 0; d < 2; d++) default_impairment(&directions[d].imp);
        reply(fd, "ok\n");
    } else if (!strcmp(words[0], "mtu") && count == 2) {
        int mtu = atoi(words[1]);
        if (set_mtu(ctl_fd_server, "srv0", mtu) < 0 || set_mtu(ctl_fd_client, "cli0", mtu) < 0)
            reply(fd, "error: SIOCSIFMTU %d: %s\n", mtu, strerror(errno));
        else {
            directions[C2S].largest = directions[S2C].largest = 0;
            reply(fd, "ok\n");
        }
    } else if (!strcmp(words[0], "link") && count == 2) {
        int up = !strcmp(words[1], "up");
        if (set_flags(ctl_fd_server, "srv0", up) < 0 || set_flags(ctl_fd_client, "cli0", up) < 0)
            reply(fd, "error: SIOCSIFFLAGS: %s\n", strerror(errno));
        else reply(fd, "ok\n");
    } else if (!strcmp(words[0], "seed") && count == 2) {
        rng_state = strtoull(words[1], NULL, 10) | 1;
        reply(fd, "ok\n");
    } else if (!strcmp(words[0], "stats") && count == 2 && parse_direction(words[1], &first, &last) == 0 &&
               first == last) {
        struct direction *d = &directions[first];
        reply(fd, "ok packets %lld payload %lld forwarded %lld dropped %lld corrupted %lld duplicated %lld "
              "reordered %lld largest %lld elapsed_ns %lld\n", d->packets, d->payload, d->forwarded, d->dropped,
              d->corrupted, d->duplicated, d->reordered, d->largest, (long long)(now_ns() - start_ns));
    } else if (!strcmp(words[0], "crossing") && count == 3 && parse_direction(words[1], &first, &last) == 0 &&
               first == last) {
        long long bytes = atoll(words[2]);
        long long index = (bytes + CROSSING_STEP - 1) / CROSSING_STEP;
        reply(fd, "ok %lld\n", index < CROSSINGS ? (long long)directions[first].crossing[index] : -1LL);
    } else if (!strcmp(words[0], "quit")) {
        reply(fd, "ok\n");
        exit(0);
    } else {
        reply(fd, "error: unknown command %s\n", words[0]);
    }
}

static void serve_control(int listener) {
    int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) return;
    struct timeval tv = {1, 0};  // a client that never sends its line does not stop the link for long
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char line[1024];
    size_t used = 0;
    while (used < sizeof line - 1) {
        ssize_t n = read(fd, line + used, sizeof line - 1 - used);
        if (n <= 0) break;
        used += n;
        if (memchr(line, '\n', used)) break;
    }
    line[used] = 0;
    command(fd, line);
    close(fd);
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
        if (heap_count > 0) {
            int64_t wait = heap[0].release_ns - now_ns();
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
