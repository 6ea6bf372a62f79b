#!/usr/bin/env bash
# ASIKit beside libcurl, AsyncHTTPClient and URLSession, measured in one run against one local nginx.
#
# Usage: Benchmarks/run.sh
# Environment (defaults in brackets):
#   RUNS [5]        runs per request-rate row; the table shows the median
#   DL_RUNS [9]     runs per download row (they are short, so more of them)
#   BIG_RUNS [5]    runs of the 1 GiB download to a file
#   N [10000]       requests per 1 KiB row;  C [16] connections / queue width
#   HS_N [1000]     requests of the TLS full-handshake row;  TLS_N [5000] of the one-TLS-connection row
#   WRK_SECONDS [2] per wrk run (the server's ceiling)
#   CLIENTS ["asikit asikit-loop asikit-caller asikit-obs asikit-static libcurl ahc urlsession"]   the clients;
#                   asikit-loop is asikit-bench inside withTaskExecutorPreference(transport.taskExecutor) (opt-in,
#                   decision 0006), measured on the seq, conc and tls rows only; asikit-caller is asikit-bench with
#                   Client.Configuration.runsOnTransportExecutor off (the default before decision 0022), on the
#                   conc, queue and c1k rows only; asikit-obs is asikit-bench with ObservabilityMiddleware and no
#                   backend (decision 0018), on the seq, conc and dl rows only; asikit-static is asikit-bench linked
#                   with --static-swift-stdlib (built into .build-static), on the seq, conc, dl, gzip and tls rows;
#                   asikit-poll is asikit-bench with POSIXTransport.Configuration.busyPoll 200 µs (the loop polls
#                   before it sleeps, decision 0037), on the seq, conc and tls rows (not in the default list)
#   ROWS ["seq conc queue dl gzip br zstd hs tls file cache c1k"] which rows to measure (br and zstd: ASIKit
#                   and libcurl only; AsyncHTTPClient and URLSession decode neither)
#   C1K [1000]      connections of the c1k row (N GETs over C1K connections at once)
#   PIN [1]         nginx on CPU 0, clients (and wrk) on CPU 1
#   SKIP_BUILD [0]  reuse the last release build (asikit-static too, when built from the same revision)
#   OUT [unset]     also write the table to this file
# Every raw RESULT line, with the TCP connections nginx accepted for it, goes to stderr.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=Scripts/common.sh
. "$HERE/Scripts/common.sh"
RUNS="${RUNS:-5}"
DL_RUNS="${DL_RUNS:-9}"
BIG_RUNS="${BIG_RUNS:-5}"
N="${N:-10000}"
C="${C:-16}"
C1K="${C1K:-1000}"
HS_N="${HS_N:-1000}"
TLS_N="${TLS_N:-5000}"
WRK_SECONDS="${WRK_SECONDS:-2}"
CLIENTS="${CLIENTS:-asikit asikit-loop asikit-caller asikit-obs asikit-static libcurl ahc urlsession}"
ROWS="${ROWS:-seq conc queue dl gzip br zstd hs tls file cache c1k}"
LIMIT=300 # seconds, per client command
ulimit -n 8192 2>/dev/null || true # the c1k row's 1,000 connections
SERVER_CPU=() CLIENT_CPU=()
if [ "${PIN:-1}" = 1 ] && [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
    SERVER_CPU=(taskset -c 0) CLIENT_CPU=(taskset -c 1)
fi

say() { printf '%s\n' "$*" >&2; }
wants() { [[ " $ROWS " == *" $1 "* ]]; }

# ---------------------------------------------------------------------------------------------- tools
need=()
[ -x /usr/sbin/nginx ] || need+=(nginx)
command -v wrk >/dev/null || need+=(wrk)
command -v curl >/dev/null || need+=(curl)
command -v cc >/dev/null || need+=(gcc)
command -v openssl >/dev/null || need+=(openssl)
command -v brotli >/dev/null || need+=(brotli)
command -v zstd >/dev/null || need+=(zstd)
command -v python3 >/dev/null || need+=(python3)
[ -x /usr/bin/time ] || need+=(time)
echo '#include <curl/curl.h>' | cc -E - >/dev/null 2>&1 || need+=(libcurl4-openssl-dev)
if [ ${#need[@]} -gt 0 ]; then
    say "installing: ${need[*]}"
    policy=0 # keep Debian's postinst from starting a system nginx on port 80
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=1
    fi
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2
    [ "$policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
fi

# ---------------------------------------------------------------------------------------------- build
WORK="$(mktemp -d /tmp/asikit-bench.XXXXXX)"
chmod 755 "$WORK" # nginx workers run as nobody
NGINX_PID=""
stop() {
    if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
        kill -TERM "$NGINX_PID" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$NGINX_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap stop EXIT
trap 'exit 130' INT TERM

SWIFT_FLAGS=(-c release --package-path "$HERE" --scratch-path "$HERE/.build" -Xswiftc -g)
revision() { git -C "$HERE/.." describe --always --dirty 2>/dev/null || echo unknown; }
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    say "building (release, with debug info for profilers)"
    swift build "${SWIFT_FLAGS[@]}" >&2
    revision >"$HERE/.build/asikit-revision"
fi
BIN="$(swift build "${SWIFT_FLAGS[@]}" --show-bin-path)"
# The same ASIKit client with the Swift runtime and Foundation linked in (how a server app is often deployed).
STATIC_FLAGS=(-c release --package-path "$HERE" --scratch-path "$HERE/.build-static" -Xswiftc -g --static-swift-stdlib
    --product asikit-bench)
STATIC_BIN=""
if [[ " $CLIENTS " == *" asikit-static "* ]]; then
    STATIC_BIN="$(swift build "${STATIC_FLAGS[@]}" --show-bin-path)"
    # SKIP_BUILD reuses the static client only when it was built from the revision the other ASIKit clients were.
    if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -x "$STATIC_BIN/asikit-bench" ] ||
        ! cmp -s "$HERE/.build/asikit-revision" "$HERE/.build-static/asikit-revision"; then
        say "building asikit-static (release, --static-swift-stdlib)"
        swift build "${STATIC_FLAGS[@]}" >&2
        revision >"$HERE/.build-static/asikit-revision"
        cmp -s "$HERE/.build/asikit-revision" "$HERE/.build-static/asikit-revision" ||
            say "warning: asikit-static is built from $(cat "$HERE/.build-static/asikit-revision"), the other ASIKit" \
                "clients from $(cat "$HERE/.build/asikit-revision" 2>/dev/null || echo '?'); run without SKIP_BUILD"
    fi
fi
cc -O2 -o "$WORK/libcurl-bench" "$HERE/C/libcurl_bench.c" -lcurl

# ---------------------------------------------------------------------------------------------- content
say "writing the files nginx serves"
mkdir -p "$WORK/www/static"
head -c 1024 /dev/urandom >"$WORK/www/1k.bin"
head -c $((100 << 20)) /dev/urandom >"$WORK/www/100m.bin"
if wants file; then
    for _ in $(seq 1 10); do cat "$WORK/www/100m.bin"; done >"$WORK/www/1g.bin"
    head -c $((24 << 20)) "$WORK/www/100m.bin" >>"$WORK/www/1g.bin"
fi
# 10 MiB of log-like text (gzip -6 shrinks it about 9x), served precompressed by gzip_static. Same generator
# and seed as the anchors measured for issue 7 (shared/bench/anchors.sh), so the gzip row compares with them.
awk -v limit=$((10 << 20)) 'BEGIN { srand(42); for (i = 0; total < limit; i++) {
    line = sprintf("2026-01-01T00:%02d:%02d.%03dZ INFO http request id=%08d method=GET path=/api/v1/items/%d status=%d bytes=%d ua=\"probe/1.0\"",
        (i / 60000) % 60, (i / 1000) % 60, i % 1000, i, int(rand() * 100000), (rand() < 0.9 ? 200 : 404), int(rand() * 50000))
    print line; total += length(line) + 1 } }' >"$WORK/www/static/text10m.txt"
truncate -s $((10 << 20)) "$WORK/www/static/text10m.txt"
gzip -6 -k "$WORK/www/static/text10m.txt"
# The same text as br and zstd at the levels of decision 0024 (brotli -q 5, zstd -3), served as files with their
# Content-Encoding (Debian's nginx has no brotli or zstd module).
brotli -q 5 -k -o "$WORK/www/static/text10m.txt.br" "$WORK/www/static/text10m.txt"
zstd -3 -q -k -o "$WORK/www/static/text10m.txt.zst" "$WORK/www/static/text10m.txt"
chmod -R a+rX "$WORK/www"
TEXT_BYTES=$(stat -c %s "$WORK/www/static/text10m.txt")
GZ_BYTES=$(stat -c %s "$WORK/www/static/text10m.txt.gz")
BR_BYTES=$(stat -c %s "$WORK/www/static/text10m.txt.br")
ZST_BYTES=$(stat -c %s "$WORK/www/static/text10m.txt.zst")
BIG_BYTES=$(stat -c %s "$WORK/www/1g.bin" 2>/dev/null || echo 0)

# A private CA and a server certificate for 127.0.0.1 (ECDSA P-256).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=ASIKit bench CA" \
    -keyout "$WORK/ca.key" -out "$WORK/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$WORK/server.key" -out "$WORK/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$WORK/ext.cnf"
openssl x509 -req -in "$WORK/server.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca.key" -CAcreateserial -days 2 \
    -extfile "$WORK/ext.cnf" -out "$WORK/server.pem" 2>/dev/null
# URLSession on Linux reads only the system bundle: its TLS runs see this one mounted over it, privately.
SYSTEM_BUNDLE=/etc/ssl/certs/ca-certificates.crt
cat "$SYSTEM_BUNDLE" "$WORK/ca.pem" >"$WORK/bundle.pem" 2>/dev/null || cp "$WORK/ca.pem" "$WORK/bundle.pem"

# ---------------------------------------------------------------------------------------------- server
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT="$(free_port)"
TLS_PORT="$(free_port)"
cat >"$WORK/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
worker_rlimit_nofile 8192;
events { worker_connections 4096; } # the c1k row opens 1,000 client connections
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    types { text/plain txt; }
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$PORT;
        listen 127.0.0.1:$TLS_PORT ssl;
        ssl_certificate $WORK/server.pem;
        ssl_certificate_key $WORK/server.key;
        ssl_session_cache off;   # every new connection is a full handshake:
        ssl_session_tickets off; # no resumption, whatever the client offers
        root $WORK/www;
        location /static/ { gzip_static on; }
        location /br/ { alias $WORK/www/static/; default_type text/plain; add_header Content-Encoding br; }
        location /zstd/ { alias $WORK/www/static/; default_type text/plain; add_header Content-Encoding zstd; }
        location /fresh/ { alias $WORK/www/; expires 1h; } # the 1 KiB file, fresh for an hour (the cache row)
        location = /nginx_status { stub_status; }
    }
}
EOF
"${SERVER_CPU[@]}" /usr/sbin/nginx -p "$WORK" -c "$WORK/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
BASE="http://127.0.0.1:$PORT"
TLS_BASE="https://127.0.0.1:$TLS_PORT"
for _ in $(seq 1 50); do curl -sf -o /dev/null "$BASE/1k.bin" && break; sleep 0.1; done
curl -sf -o /dev/null "$BASE/1k.bin" || { say "nginx did not start"; cat "$WORK/error.log" >&2; exit 1; }
curl -sf --cacert "$WORK/ca.pem" -o /dev/null "$TLS_BASE/1k.bin" || { say "nginx TLS does not answer"; exit 1; }
[ "$(curl -s -H 'Accept-Encoding: gzip' -o /dev/null -w '%{size_download}' "$BASE/static/text10m.txt")" = "$GZ_BYTES" ] ||
    { say "gzip_static is not in effect"; exit 1; }

# ---------------------------------------------------------------------------------------------- measuring
LOAD_START="$(cut -d' ' -f1 /proc/loadavg)"
awk -v l="$LOAD_START" 'BEGIN { exit !(l > 1.0) }' && say "warning: load average $LOAD_START: other work on this machine will make the numbers noisy"
accepted() { curl -s "$BASE/nginx_status" | awk 'NR == 3 { print $1 }'; }
declare -A VALUES RSS NOTE THREADS # VALUES[row,client] = newline-separated results; RSS[row,client] = peak RSS in MiB

binary() {
    case "$1" in
        asikit | asikit-loop | asikit-obs | asikit-caller | asikit-poll) echo "$BIN/asikit-bench" ;;
        asikit-static) echo "$STATIC_BIN/asikit-bench" ;;
        libcurl) echo "$WORK/libcurl-bench" ;;
        ahc) echo "$BIN/ahc-bench" ;;
        urlsession) echo "$BIN/urlsession-bench" ;;
    esac
}

# measure ROW CLIENT KEY EXPECT_BYTES ARGS... : one run of CLIENT's bench; keeps KEY of its RESULT line and the
# peak RSS. EXPECT_BYTES (when not 0) must match the bytes the client reports.
measure() {
    local row="$1" client="$2" key="$3" expect="$4"; shift 4
    local prefix=() out a0 a1 result value bytes
    if [ "$client" = urlsession ] && [[ "$*" == *https://* ]]; then
        prefix=(unshare -m sh -c 'mount --bind "$0" '"$SYSTEM_BUNDLE"' && exec "$@"' "$WORK/bundle.pem")
    fi
    a0="$(accepted)"
    local executor=0
    [ "$client" = asikit-loop ] && executor=1
    local observability=0
    [ "$client" = asikit-obs ] && observability=1
    local transport_executor=1
    [ "$client" = asikit-caller ] && transport_executor=0
    local busy_poll=""
    [ "$client" = asikit-poll ] && busy_poll=200
    if ! out="$(ASIKIT_TASK_EXECUTOR="$executor" ASIKIT_OBSERVABILITY="$observability" \
        ASIKIT_TRANSPORT_EXECUTOR="$transport_executor" ASIKIT_BUSY_POLL_US="$busy_poll" BENCH_CA_FILE="$WORK/ca.pem" timeout "$LIMIT" /usr/bin/time -f 'RSSKB %M' -o "$WORK/time.txt" \
        "${prefix[@]}" "${CLIENT_CPU[@]}" "$(binary "$client")" "$@" 2>"$WORK/err.txt")"; then
        say "  $row $client FAILED: $(tail -c 300 "$WORK/err.txt")"
        return 0
    fi
    a1="$(accepted)"
    result="$(grep '^RESULT' <<<"$out" || true)"
    value="$(tr ' ' '\n' <<<"$result" | awk -F= -v k="$key" '$1 == k { print $2 }')"
    bytes="$(tr ' ' '\n' <<<"$result" | awk -F= '$1 == "bytes" { print $2 }')"
    if [ "$expect" != 0 ] && [ "$bytes" != "$expect" ]; then
        say "  $row $client WRONG BYTES: $bytes, expected $expect: $result"
        return 0
    fi
    VALUES["$row,$client"]+="$value"$'\n'
    THREADS["$row,$client"]+="$(tr ' ' '\n' <<<"$result" | awk -F= '$1 == "threads" { print $2 }')"$'\n'
    RSS["$row,$client"]+="$(awk '/^RSSKB/ { printf "%.1f", $2 / 1024 }' "$WORK/time.txt")"$'\n'
    say "  $row $client: $result rss_mib=$(awk '/^RSSKB/ { printf "%.1f", $2 / 1024 }' "$WORK/time.txt") tcp_accepted=$((a1 - a0 - 1))"
}

# wrk_rate ROW CONNECTIONS URL [ARGS] : the server's ceiling, requests/s
wrk_rate() {
    local row="$1" conns="$2" url="$3"; shift 3
    local rate
    rate="$(timeout "$LIMIT" "${CLIENT_CPU[@]}" wrk -t1 -c"$conns" -d"${WRK_SECONDS}s" "$@" "$url" |
        awk '/^Requests\/sec/ { print $2 }')"
    VALUES["$row,wrk"]+="$rate"$'\n'
    say "  $row wrk: $rate req/s"
}

# measured CLIENT ROW : whether ROW measures CLIENT. The queue and cache rows are ASIKit's own; each ASIKit
# variant runs only on the rows that show what it changes.
measured() {
    local rows
    case "$1" in
        asikit) return 0 ;;
        asikit-loop) rows="seq conc tls" ;;
        asikit-obs) rows="seq conc dl" ;;
        asikit-caller) rows="conc queue c1k" ;;
        asikit-poll) rows="seq conc tls" ;;
        asikit-static) rows="seq conc dl gzip tls" ;;
        ahc | urlsession) [ "$2" != queue ] && [ "$2" != cache ] && [ "$2" != br ] && [ "$2" != zstd ]; return ;;
        *) [ "$2" != queue ] && [ "$2" != cache ]; return ;;
    esac
    [[ " $rows " == *" $2 "* ]]
}

# Each row runs its clients in turn, run after run, so slow drifts in the machine's load hit all of them alike.
row_runs() { # row_runs ROW RUNS KEY EXPECT ARGS...
    local row="$1" runs="$2" key="$3" expect="$4"; shift 4
    local i client
    say "$row"
    for i in $(seq 1 "$runs"); do
        for client in $CLIENTS; do
            measured "$client" "$row" || continue
            measure "$row" "$client" "$key" "$expect" "$@"
            if [ "$row" = file ]; then rm -f "$WORK/out.bin" && sync; fi
            if [ "$row" = cache ]; then rm -rf "$WORK/cache"; fi
        done
    done
}

U1K="$BASE/1k.bin"
TLS_1K="$TLS_BASE/1k.bin"
wants seq && { row_runs seq "$RUNS" rps $((N * 1024)) seq "$U1K" "$N"; for _ in $(seq 1 "$RUNS"); do wrk_rate seq 1 "$U1K"; done; }
wants conc && { row_runs conc "$RUNS" rps $((N * 1024)) conc "$U1K" "$N" "$C"; for _ in $(seq 1 "$RUNS"); do wrk_rate conc "$C" "$U1K"; done; }
wants queue && row_runs queue "$RUNS" rps $((N * 1024)) queue "$U1K" "$N" "$C"
wants dl && { row_runs dl "$DL_RUNS" MBps $((100 << 20)) download "$BASE/100m.bin"
    for _ in $(seq 1 "$RUNS"); do wrk_rate dl 1 "$BASE/100m.bin"; done; }
wants gzip && row_runs gzip "$DL_RUNS" MBps "$TEXT_BYTES" gzip "$BASE/static/text10m.txt"
wants br && row_runs br "$DL_RUNS" MBps "$TEXT_BYTES" br "$BASE/br/text10m.txt.br"
wants zstd && row_runs zstd "$DL_RUNS" MBps "$TEXT_BYTES" zstd "$BASE/zstd/text10m.txt.zst"
# No wrk ceiling for handshakes: wrk reconnects slowly after `Connection: close` (about 150/s here).
wants hs && row_runs hs "$RUNS" rps $((HS_N * 1024)) handshake "$TLS_1K" "$HS_N"
wants tls && { row_runs tls "$RUNS" rps $((TLS_N * 1024)) seq "$TLS_1K" "$TLS_N"; for _ in $(seq 1 "$RUNS"); do wrk_rate tls 1 "$TLS_1K"; done; }
wants file && row_runs file "$BIG_RUNS" MBps "$BIG_BYTES" download "$BASE/1g.bin" "$WORK/out.bin"
wants c1k && row_runs c1k "$RUNS" rps $((N * 1024)) conc "$U1K" "$N" "$C1K"
wants cache && row_runs cache "$RUNS" rps $((N * 1024)) cache "$BASE/fresh/1k.bin" "$N" "$WORK/cache"

# ---------------------------------------------------------------------------------------------- table
med() { { grep . <<<"${VALUES[$1]:-}" || true; } | median; }
thr() { { grep . <<<"${THREADS[$1]:-}" || true; } | median; }
medrss() { { grep . <<<"${RSS[$1]:-}" || true; } | median; }
fmt() { # fmt VALUE DECIMALS
    case "$1" in "" | n/a) printf 'n/a' ;; *) printf "%.${2}f" "$1" ;; esac
}
ratio() { # ratio A B : A / B, or n/a
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "n/a" || b == "n/a" || a == "" || b == "" || b == 0) print "n/a"; else printf "%.2fx", a / b }'
}
# wrk's MB/s for the download row: requests/s times the file size.
if [ -n "${VALUES[dl,wrk]:-}" ]; then
    VALUES["dl,wrk"]="$(grep . <<<"${VALUES[dl,wrk]}" | awk '{ printf "%.1f\n", $1 * 104857600 / 1e6 }')"
fi

line() { printf '| %-44s | %8s | %8s | %8s | %8s | %10s | %8s | %8s |\n' "$@"; }
rule() { printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" "$(printf -- '-%.0s' {1..10})" \
    "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})" \
    "$(printf -- '-%.0s' {1..12})" "$(printf -- '-%.0s' {1..10})" "$(printf -- '-%.0s' {1..10})"; }
# table_row ROW LABEL DECIMALS [PEER_ROW] : medians per client; PEER_ROW names the row the peers' figures come from
table_row() {
    local row="$1" label="$2" d="$3" peer="${4:-$1}"
    wants "$row" || return 0
    local a l h u w
    a="$(med "$row,asikit")" l="$(med "$peer,libcurl")" h="$(med "$peer,ahc")" u="$(med "$peer,urlsession")"
    w="$(med "$row,wrk")"
    line "$label" "$(fmt "$w" "$d")" "$(fmt "$a" "$d")" "$(fmt "$l" "$d")" "$(fmt "$h" "$d")" "$(fmt "$u" "$d")" \
        "$(ratio "$a" "$l")" "$(ratio "$a" "$h")"
}
loop_row() { # loop_row ROW LABEL [CLIENT [PEER_ROW]] : an ASIKit variant (default asikit-loop, ASIKit on its
    # transport's task executor), against the peers of PEER_ROW (default ROW)
    local row="$1" label="$2" variant="${3:-asikit-loop}" peer="${4:-$1}"
    wants "$row" && [[ " $CLIENTS " == *" $variant "* ]] || return 0
    local a l h
    a="$(med "$row,$variant")" l="$(med "$peer,libcurl")" h="$(med "$peer,ahc")"
    line "$label" "-" "$(fmt "$a" 0)" "-" "-" "-" "$(ratio "$a" "$l")" "$(ratio "$a" "$h")"
}
rss_row() { # rss_row ROW LABEL
    local row="$1" label="$2"
    wants "$row" || return 0
    local a l h u
    a="$(medrss "$row,asikit")" l="$(medrss "$row,libcurl")" h="$(medrss "$row,ahc")" u="$(medrss "$row,urlsession")"
    line "$label" "-" "$(fmt "$a" 1)" "$(fmt "$l" 1)" "$(fmt "$h" 1)" "$(fmt "$u" 1)" "$(ratio "$a" "$l")" "$(ratio "$a" "$h")"
}

rss_variant_row() { # rss_variant_row ROW LABEL CLIENT : an ASIKit variant's peak RSS against the row's peers
    local row="$1" label="$2" variant="$3"
    wants "$row" && [[ " $CLIENTS " == *" $variant "* ]] || return 0
    local a l h
    a="$(medrss "$row,$variant")" l="$(medrss "$row,libcurl")" h="$(medrss "$row,ahc")"
    line "$label" "-" "$(fmt "$a" 1)" "-" "-" "-" "$(ratio "$a" "$l")" "$(ratio "$a" "$h")"
}

threads_row() { # threads_row ROW LABEL : the median thread count each client reported
    local row="$1" label="$2"
    wants "$row" || return 0
    local a l h u
    a="$(thr "$row,asikit")" l="$(thr "$row,libcurl")" h="$(thr "$row,ahc")" u="$(thr "$row,urlsession")"
    line "$label" "-" "$(fmt "$a" 0)" "$(fmt "$l" 0)" "$(fmt "$h" 0)" "$(fmt "$u" 0)" "$(ratio "$a" "$l")" "$(ratio "$a" "$h")"
}

ahc_version() {
    awk '/"identity" : "async-http-client"/ { found = 1 } found && /"version"/ { gsub(/[",]/, "", $3); print $3; exit }' \
        "$HERE/Package.resolved" 2>/dev/null || echo "?"
}

table() {
    echo "ASIKit benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'): medians of $RUNS runs (downloads $DL_RUNS, 1 GiB $BIG_RUNS)"
    echo "nginx $(/usr/sbin/nginx -v 2>&1 | sed 's/.*nginx\///'), 1 worker, keep-alive, access log off, 127.0.0.1;" \
        "$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
    echo "load average (1 min) at the start: $LOAD_START, at the end: $(cut -d' ' -f1 /proc/loadavg)"
    if [ ${#CLIENT_CPU[@]} -gt 0 ]; then echo "pinned: nginx on CPU 0; every client and wrk on CPU 1"; fi
    echo "ASIKit $(cat "$HERE/.build/asikit-revision" 2>/dev/null || echo '?') (as built);" \
        "$(swift --version 2>&1 | head -1 | sed 's/ (.*//'); libcurl $(curl-config --version | cut -d' ' -f2);" \
        "AsyncHTTPClient $(ahc_version); URLSession: swift-corelibs-foundation"
    echo
    line "row (higher is better, but RSS)" "wrk" "ASIKit" "libcurl" "AHC" "URLSess." "x libcurl" "x AHC"
    rule
    table_row seq "1 KiB GET, sequential keep-alive, req/s" 0
    loop_row seq "  same, on transport.taskExecutor (**)"
    loop_row seq "  same, observability, no backend (****)" asikit-obs
    loop_row seq "  same, --static-swift-stdlib (*******)" asikit-static
    loop_row seq "  same, busyPoll 200 µs (********)" asikit-poll
    table_row conc "1 KiB GET, $C connections, req/s" 0
    loop_row conc "  same, on transport.taskExecutor (**)"
    loop_row conc "  same, runsOnTransportExecutor off (******)" asikit-caller
    loop_row conc "  same, --static-swift-stdlib (*******)" asikit-static
    loop_row conc "  same, observability, no backend (****)" asikit-obs
    loop_row conc "  same, busyPoll 200 µs (********)" asikit-poll
    table_row queue "$N-request queue, width $C, req/s (*)" 0 conc
    loop_row queue "  same, runsOnTransportExecutor off (******)" asikit-caller conc
    table_row dl "100 MiB download to /dev/null, MB/s" 0
    loop_row dl "  same, observability, no backend (****)" asikit-obs
    loop_row dl "  same, --static-swift-stdlib (*******)" asikit-static
    table_row gzip "gzip_static 10 MiB, decoded MB/s" 0
    loop_row gzip "  same, --static-swift-stdlib (*******)" asikit-static
    table_row br "brotli -q 5, 10 MiB, decoded MB/s" 0
    table_row zstd "zstd -3, 10 MiB, decoded MB/s" 0
    table_row hs "TLS full handshakes/s (1 KiB GET each)" 0
    table_row tls "TLS 1 KiB GET over one connection, req/s" 0
    loop_row tls "  same, on transport.taskExecutor (**)"
    loop_row tls "  same, --static-swift-stdlib (*******)" asikit-static
    loop_row tls "  same, busyPoll 200 µs (********)" asikit-poll
    table_row file "1 GiB download to a file, MB/s" 0
    table_row cache "1 KiB GET answered by DiskCache, req/s (***)" 0 seq
    table_row c1k "1 KiB GET, $C1K connections, req/s (*****)" 0
    loop_row c1k "  same, runsOnTransportExecutor off (******)" asikit-caller
    rss_row c1k "  peak RSS, 1 KiB GET x$C1K, MiB"
    threads_row c1k "  threads at the end, 1 KiB GET x$C1K"
    rss_row file "  peak RSS during the 1 GiB download, MiB"
    rss_row conc "  peak RSS, 1 KiB GET x$C, MiB"
    rss_variant_row conc "    same, --static-swift-stdlib (*******)" asikit-static
    rss_variant_row dl "  peak RSS, 100 MiB, static (*******)" asikit-static
    echo
    echo "(*) ASIKit: RequestQueue (HTTPPipeline) with maxConcurrentRequests $C; the peers have no such queue, so their"
    echo "    cells repeat their $C-connection figures. MB = 1e6 bytes; gzip, br and zstd MB/s count decoded bytes"
    echo "    ($TEXT_BYTES bytes from $GZ_BYTES gzip, $BR_BYTES br, $ZST_BYTES zstd; AHC and URLSession decode neither br"
    echo "    nor zstd). TLS: TLS 1.3 (or what the client picks), ECDSA P-256, nginx session cache and"
    echo "    tickets off. wrk decodes nothing; its download cell is requests/s x file size. Ratios: ASIKit / peer."
    echo "(**) The same requests inside withTaskExecutorPreference(transport.taskExecutor): the opt-in of decision"
    echo "    0006, which runs them on the transport's event-loop thread (one context switch per wait instead of two)."
    echo "(***) ASIKit with a DiskCacheStore: the same 1 KiB file, served fresh (Expires), read from the disk cache"
    echo "    without the network (a lookup, a head check, a body read); the peers' cells repeat their network"
    echo "    round trips of the first row, so the ratios compare a cache hit with a keep-alive GET."
    echo "(****) ASIKit with ObservabilityMiddleware (ASIKitObservability) installed and no tracer or metrics backend"
    echo "    bootstrapped (client asikit-obs, ASIKIT_OBSERVABILITY=1): the cost of the middleware when it has nothing"
    echo "    to record; compare with the ASIKit cell of the row above."
    echo "(*****) $N GETs over $C1K connections at once: ASIKit's one event-loop thread (POSIXTransport) with $C1K tasks,"
    echo "    libcurl's one multi handle; the threads row counts the process's threads when the run ends."
    echo "(******) ASIKit with Client.Configuration.runsOnTransportExecutor false (client asikit-caller): every request"
    echo "    on the caller's executor, the default before decision 0022; the ASIKit cell above is the default."
    echo "(*******) The same ASIKit client linked with swift build --static-swift-stdlib (client asikit-static): the"
    echo "    Swift runtime and Foundation inside the executable instead of shared libraries; ratios against the peers"
    echo "    as they are (libcurl shared)."
    echo "(********) ASIKit with POSIXTransport.Configuration.busyPoll 200 µs (client asikit-poll): the event loop"
    echo "    polls its sockets before it sleeps while at most one request waits (decision 0037)."
}
echo
table
[ -z "${OUT:-}" ] || table >"$OUT"
