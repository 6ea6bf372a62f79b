#!/usr/bin/env bash
# ASIKit over HTTP/2 (the HTTP2 plug-in) beside libcurl over HTTP/2 (Debian's libcurl links nghttp2), in one run
# against one local nginx with `listen ... ssl http2` (decision 0031).
#
# Rows: 1 KiB GETs, 100 streams on one connection (N GETs by 100 workers; libcurl with CURLOPT_PIPEWAIT and one
# connection per host, ASIKit with its default pool: the HTTP2 plug-in puts every request on the one connection);
# and one 100 MiB download over one stream. Each client runs in turn, RUNS times; the table shows medians. Every
# run is checked: every byte arrived, every request was HTTP/2 (nginx's access log, `$server_protocol`), and the
# 1 KiB row used one connection (`$connection`).
#
# Clients: asikit (the default Client), asikit-loop (the same inside withTaskExecutorPreference(transport.taskExecutor),
# so the readers run on the event-loop thread that drives the connection: no hand-over between threads per socket
# read; decision 0031's fifth addendum) and libcurl.
#
# Usage: Benchmarks/http2.sh
# Environment: RUNS [5], N [10000], STREAMS [100], PIN [1] (nginx on CPU 0, clients on CPU 1), SKIP_BUILD [0],
#              CLIENTS ["asikit asikit-loop libcurl"], OUT [unset] (also write the table there).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNS="${RUNS:-5}"
read -r -a CLIENTS <<<"${CLIENTS:-asikit asikit-loop libcurl}"
N="${N:-10000}"
STREAMS="${STREAMS:-100}"
SERVER_CPU=() CLIENT_CPU=()
if [ "${PIN:-1}" = 1 ] && [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
    SERVER_CPU=(taskset -c 0) CLIENT_CPU=(taskset -c 1)
fi
say() { printf '%s\n' "$*" >&2; }

WORK="$(mktemp -d /tmp/asikit-h2-bench.XXXXXX)"
cleanup() {
    [ -n "${NGINX_PID:-}" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    (cd "$HERE" && swift build -c release --product asikit-bench >&2)
fi
ASIKIT="$(cd "$HERE" && swift build -c release --show-bin-path)/asikit-bench"
cc -O2 -o "$WORK/libcurl-bench" "$HERE/C/libcurl_bench.c" -lcurl

mkdir -p "$WORK/www"
head -c 1024 /dev/urandom >"$WORK/www/1k.bin"
head -c $((100 * 1024 * 1024)) /dev/urandom >"$WORK/www/100m.bin"
chmod 755 "$WORK" "$WORK/www" && chmod 644 "$WORK"/www/* # nginx's worker runs as nobody
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=ASIKit bench CA" \
    -keyout "$WORK/ca.key" -out "$WORK/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$WORK/server.key" -out "$WORK/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$WORK/ext.cnf"
openssl x509 -req -in "$WORK/server.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca.key" -CAcreateserial -days 2 \
    -extfile "$WORK/ext.cnf" -out "$WORK/server.pem" 2>/dev/null

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cat >"$WORK/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
events { worker_connections 1024; }
http {
    log_format h2 '\$connection \$server_protocol \$status';
    access_log $WORK/access.log h2 buffer=1m;
    sendfile on;
    keepalive_requests 1000000;
    http2_max_concurrent_streams 128;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$PORT ssl http2;
        ssl_certificate $WORK/server.pem;
        ssl_certificate_key $WORK/server.key;
        root $WORK/www;
    }
}
EOF
"${SERVER_CPU[@]}" /usr/sbin/nginx -p "$WORK" -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
BASE="https://127.0.0.1:$PORT"
for _ in $(seq 1 50); do curl -sf --cacert "$WORK/ca.pem" -o /dev/null "$BASE/1k.bin" && break; sleep 0.1; done
[ "$(curl -s --cacert "$WORK/ca.pem" -o /dev/null -w '%{http_version}' "$BASE/1k.bin")" = 2 ] ||
    { say "nginx does not speak h2"; exit 1; }
export BENCH_CA_FILE="$WORK/ca.pem" BENCH_HTTP2=1 ASIKIT_HTTP2=1

# run CLIENT ARGS...: one measured run; prints its figure (rps or MBps), or nothing when it failed a check.
run() {
    local client="$1"
    shift
    local binary="$ASIKIT" loop=0
    [ "$client" = libcurl ] && binary="$WORK/libcurl-bench"
    [ "$client" = asikit-loop ] && loop=1
    # Flush what nginx buffered of earlier requests (the probes, the previous run) before emptying the log.
    kill -USR1 "$NGINX_PID"
    sleep 0.3
    : >"$WORK/access.log"
    local line
    line="$(ASIKIT_TASK_EXECUTOR=$loop "${CLIENT_CPU[@]}" timeout 600 "$binary" "$@" 2>>"$WORK/client.err" |
        grep '^RESULT' || true)"
    kill -USR1 "$NGINX_PID"
    sleep 0.3 # nginx flushes its log buffer when it reopens the log
    local h1 connections
    h1="$(grep -vc ' HTTP/2.0 ' "$WORK/access.log" || true)"
    connections="$(cut -d' ' -f1 "$WORK/access.log" | sort -u | wc -l)"
    say "$client $1: $line h1_requests=$h1 connections=$connections"
    if [ -z "$line" ]; then
        say "  failed: $(tail -3 "$WORK/client.err")"
        return 0
    fi
    [ "$h1" = 0 ] || return 0
    case "$1" in
    conc)
        [[ "$line" == *"bytes=$((N * 1024)) "* ]] || return 0
        [ "$connections" -le 1 ] || return 0 # the warm-up and the measured part share the one connection
        sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line"
        ;;
    download)
        [[ "$line" == *"bytes=$((100 * 1024 * 1024)) "* ]] || return 0
        sed -E 's/.* MBps=([0-9.]+).*/\1/' <<<"$line"
        ;;
    esac
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

declare -A figures
for _ in $(seq 1 "$RUNS"); do
    for client in "${CLIENTS[@]}"; do
        figures[$client-conc]+="$(run "$client" conc "$BASE/1k.bin" "$N" "$STREAMS") "
        figures[$client-dl]+="$(run "$client" download "$BASE/100m.bin") "
    done
done

LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
{
    others=()
    for client in "${CLIENTS[@]}"; do [ "$client" = libcurl ] || others+=("$client"); done
    printf '| HTTP/2 row (median of %s) |' "$RUNS"
    for client in "${CLIENTS[@]}"; do printf ' %s |' "$client"; done
    for client in "${others[@]}"; do printf ' %s / libcurl |' "$client"; done
    printf '\n|%s\n' "$(printf ' --- |%.0s' $(seq 0 $((${#CLIENTS[@]} + ${#others[@]}))))"
    for row in conc dl; do
        name="1 KiB GET, $STREAMS streams on one connection (requests/s)"
        [ "$row" = dl ] && name="100 MiB download, one stream (MB/s)"
        declare -A med=()
        printf '| %s |' "$name"
        for client in "${CLIENTS[@]}"; do
            med[$client]="$(tr ' ' '\n' <<<"${figures[$client-$row]:-}" | { grep . || true; } | median)"
            printf ' %s |' "${med[$client]}"
        done
        l="${med[libcurl]:--}"
        for client in "${others[@]}"; do
            printf ' %s× |' "$(awk -v a="${med[$client]}" -v l="$l" \
                'BEGIN { if (a == "-" || l == "-" || l == 0) print "-"; else printf "%.2f", a / l }')"
        done
        printf '\n'
    done
    printf '\nnginx %s, %s runs per client, N=%s; load average %s; libcurl %s.\n' \
        "$(/usr/sbin/nginx -v 2>&1 | sed 's/.*\///')" "$RUNS" "$N" "$LOAD" "$(curl -V | head -1 | cut -d' ' -f2)"
} | tee "${OUT:-/dev/null}"
