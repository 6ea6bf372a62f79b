// The delay queue (a binary min-heap on release time, then arrival order) and the fate of each packet: loss,
// the rate's bottleneck queue, delay and jitter, reordering, corruption and duplication.
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "link.h"

static struct packet *heap;
static size_t heap_count, heap_capacity;
static uint64_t order_counter;

static double uniform(void) {  // xorshift64*, in [0, 1)
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static int chance(double percent) { return percent > 0 && uniform() * 100.0 < percent; }

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

// TCP payload bytes of an IPv4 packet (0 for anything else).
static int tcp_payload(const unsigned char *p, int length) {
    if (length < 20 || (p[0] >> 4) != 4 || p[9] != 6) return 0;
    int ihl = (p[0] & 0x0f) * 4;
    int total = (p[2] << 8) | p[3];
    if (total > length || ihl + 20 > total) return 0;
    int data_offset = (p[ihl + 12] >> 4) * 4;
    return total - ihl - data_offset > 0 ? total - ihl - data_offset : 0;
}

// Whether an IPv4 packet is a TCP segment with FIN set.
static int tcp_fin(const unsigned char *p, int length) {
    if (length < 20 || (p[0] >> 4) != 4 || p[9] != 6) return 0;
    int ihl = (p[0] & 0x0f) * 4;
    return ihl + 14 <= length && (p[ihl + 13] & 0x01);
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

void arrive(int dir, unsigned char *bytes, int length) {
    struct direction *d = &directions[dir];
    struct impairment *imp = &d->imp;
    int64_t t = now_ns();
    d->packets++;
    if (length > d->largest) d->largest = length;
    int payload = tcp_payload(bytes, length);
    // A hop with a smaller MTU that sends no ICMP "fragmentation needed" drops what is too big for it.
    int too_big = imp->max_packet > 0 && length > imp->max_packet;
    int lost_close = imp->drop_fin && tcp_fin(bytes, length);
    if (imp->blackhole || (imp->blackhole_after >= 0 && d->payload >= imp->blackhole_after) || too_big ||
        lost_close || chance(imp->loss)) {
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

void release_due(void) {
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

size_t queued_packets(void) { return heap_count; }

int64_t next_release(void) { return heap[0].release_ns; }
