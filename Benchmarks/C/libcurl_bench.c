/* libcurl's side of the benchmarks (built by ../run.sh: cc -O2 libcurl_bench.c -lcurl).
 * Usage: libcurl-bench MODE URL [ARGS]; modes as in asikit-bench:
 *   seq URL N          one easy handle, N GETs on its keep-alive connection
 *   conc URL N C       one multi handle driving C easy handles, each re-added until N transfers are done
 *   handshake URL N    N GETs, each on a fresh connection that is closed afterwards
 *   download URL [PATH] one GET written to PATH (default /dev/null)
 *   gzip URL           one GET with Accept-Encoding: gzip, inflated by libcurl, decoded bytes to /dev/null
 *   br URL, zstd URL   the same with Accept-Encoding: br or zstd (libcurl's brotli and zstd decoders)
 * Prints one line: RESULT client=libcurl mode=... key=value ...
 * Environment: BENCH_CA_FILE, a PEM file to trust for https URLs; BENCH_HTTP2=1 asks for HTTP/2 over TLS
 * (CURL_HTTP_VERSION_2TLS) and, in conc mode, multiplexes every transfer on one connection (CURLOPT_PIPEWAIT,
 * CURLMOPT_MAX_HOST_CONNECTIONS 1), as curl --parallel does. */
#include <curl/curl.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int out_fd = -1;       /* where download bodies go; -1 = only counted */
static long long received = 0; /* body bytes (decoded) */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, int code) {
    fprintf(stderr, "libcurl-bench: %s failed: %d\n", what, code);
    exit(2);
}

static size_t on_body(char *data, size_t size, size_t count, void *unused) {
    (void)unused;
    size_t n = size * count, done = 0;
    received += (long long)n;
    while (out_fd >= 0 && done < n) {
        ssize_t w = write(out_fd, data + done, n - done);
        if (w <= 0) return 0;
        done += (size_t)w;
    }
    return n;
}

static int http2(void) {
    const char *value = getenv("BENCH_HTTP2");
    return value && !strcmp(value, "1");
}

/* The HTTP version the last transfer of `h` used: 2 or 1.1, for the RESULT line. */
static const char *version_of(CURL *h) {
    long version = 0;
    curl_easy_getinfo(h, CURLINFO_HTTP_VERSION, &version);
    return version == CURL_HTTP_VERSION_2_0 ? "2" : "1.1";
}

static CURL *new_handle(const char *url) {
    CURL *h = curl_easy_init();
    const char *ca = getenv("BENCH_CA_FILE");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 300L);
    if (ca && *ca) curl_easy_setopt(h, CURLOPT_CAINFO, ca);
    if (http2()) {
        curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(h, CURLOPT_PIPEWAIT, 1L);
    }
    return h;
}

static void perform(CURL *h) {
    CURLcode rc = curl_easy_perform(h);
    if (rc != CURLE_OK) fail("transfer", rc);
}

/* The number of threads this process has now (/proc/self/status), for the 1,000-connection row. */
static int threads(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int count = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &count) == 1) break;
    if (f) fclose(f);
    return count;
}

/* Runs `target` transfers over `width` easy handles of one multi handle; returns the seconds taken. */
static double run_multi(CURLM *m, CURL **handles, const char *url, long target, long width) {
    long started = 0, done = 0;
    double t0 = now();
    for (long i = 0; i < width && started < target; i++, started++) {
        if (!handles[i]) handles[i] = new_handle(url);
        curl_multi_add_handle(m, handles[i]);
    }
    while (done < target) {
        int running = 0, queued = 0;
        curl_multi_perform(m, &running);
        CURLMsg *msg;
        while ((msg = curl_multi_info_read(m, &queued))) {
            if (msg->msg != CURLMSG_DONE) continue;
            if (msg->data.result != CURLE_OK) fail("transfer", msg->data.result);
            CURL *h = msg->easy_handle;
            curl_multi_remove_handle(m, h);
            done++;
            if (started < target) {
                curl_multi_add_handle(m, h);
                started++;
            }
        }
        if (done < target) curl_multi_poll(m, NULL, 0, 100, NULL);
    }
    return now() - t0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: libcurl-bench seq|conc|handshake|download|gzip|br|zstd URL [N [C] | PATH]\n");
        return 2;
    }
    const char *mode = argv[1], *url = argv[2];
    long n = argc > 3 ? atol(argv[3]) : 0;
    curl_global_init(CURL_GLOBAL_ALL);
    if (!strcmp(mode, "seq") || !strcmp(mode, "handshake")) {
        int fresh = !strcmp(mode, "handshake");
        if (n <= 0) fail("argument N", 0);
        CURL *h = new_handle(url);
        if (fresh) {
            curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
            curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
        } else {
            perform(h); /* warm-up: opens the keep-alive connection */
        }
        received = 0;
        double t0 = now();
        for (long i = 0; i < n; i++) perform(h);
        double dt = now() - t0;
        printf("RESULT client=libcurl mode=%s requests=%ld bytes=%lld seconds=%f rps=%f\n", mode, n, received, dt, n / dt);
        curl_easy_cleanup(h);
    } else if (!strcmp(mode, "conc")) {
        long width = argc > 4 ? atol(argv[4]) : 0;
        if (n <= 0 || width <= 0) fail("arguments N C", 0);
        CURLM *m = curl_multi_init();
        curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, http2() ? 1L : width);
        CURL **handles = calloc((size_t)width, sizeof(CURL *));
        run_multi(m, handles, url, width, width); /* warm-up: opens C connections */
        received = 0;
        double dt = run_multi(m, handles, url, n, width);
        printf("RESULT client=libcurl mode=conc requests=%ld concurrency=%ld bytes=%lld seconds=%f rps=%f threads=%d "
               "http=%s\n", n, width, received, dt, n / dt, threads(), version_of(handles[0]));
        for (long i = 0; i < width; i++) curl_easy_cleanup(handles[i]);
        curl_multi_cleanup(m);
        free(handles);
    } else if (!strcmp(mode, "download") || !strcmp(mode, "gzip") || !strcmp(mode, "br") || !strcmp(mode, "zstd")) {
        const char *path = argc > 3 ? argv[3] : "/dev/null";
        out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out_fd < 0) fail("open", 0);
        CURL *h = new_handle(url);
        if (strcmp(mode, "download")) curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, mode); /* gzip, br or zstd */
        double t0 = now();
        perform(h);
        double dt = now() - t0;
        close(out_fd);
        struct curl_header *encoding = NULL;
        const char *coding = "identity";
        if (curl_easy_header(h, "Content-Encoding", 0, CURLH_HEADER, -1, &encoding) == CURLHE_OK) coding = encoding->value;
        printf("RESULT client=libcurl mode=%s bytes=%lld encoding=%s seconds=%f MBps=%f http=%s\n", mode, received,
               coding, dt, received / dt / 1e6, version_of(h));
        curl_easy_cleanup(h);
    } else {
        fprintf(stderr, "libcurl-bench: unknown mode %s\n", mode);
        return 2;
    }
    curl_global_cleanup();
    return 0;
}
