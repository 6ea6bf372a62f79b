// The control socket: one command line per connection, answered with "ok ..." or "error: ...".
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "link.h"

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
    else if (!strcmp(key, "max_packet")) imp->max_packet = (int)v;
    else if (!strcmp(key, "drop_fin")) imp->drop_fin = v != 0;
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

void serve_control(int listener) {
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
