#!/usr/bin/env bash
# The one throttle-accuracy script: `asi`'s bandwidth limits (the Throttle plug-in) against nginx on 127.0.0.1, in
# one of two modes.
#
# `check` (the default; .ci/run runs it) prints each figure beside the one expected (bytes / rate), with its
# deviation; issue 14 asks for each within 5 %:
#   1. one 5 MiB download at --limit-rate 500K                                    10.24 s
#   2. four parallel downloads (-Z) of 1.25 MiB each sharing --max-bandwidth 500K   10.24 s
#   3. 148,000 bytes at --max-bandwidth 14800 (ASIHTTPRequest's WWAN figure)        10.00 s
#   4. a 2 MiB upload (-T, WebDAV PUT) at --limit-rate 200K, compared after         10.24 s
# and, for comparison, curl's time for the first one when curl is installed. The figure is the wall-clock time of
# the whole `asi` process (start-up, connect and head included); beside it, the slowest transfer's own
# `-w %{time_total}`. Every body is compared with its source.
# Exits 2 when a transfer ran more than 5 % faster than its limit allows or a body differs (a bug), 1 when one ran
# more than 5 % slower (a busy machine can do that), 0 when every figure is within 5 %.
#
# `compare` (a benchmark; Benchmarks/README.md) runs `asi --limit-rate R` beside `curl --limit-rate R`, downloading
# a file of DURATION x R bytes for each rate in RATES. The figure is the achieved average rate (bytes / total time,
# as `-w '%{size_download} %{time_total}'` reports) over the asked one: 1.00 is exact, below is slower than asked.
# Each client runs in turn, RUNS times; the table shows medians. curl 7.88 holds its "current speed" (averaged
# over at least 3 s) to the rate, so a short transfer overshoots (curl/curl#10173).
#
# Usage: scripts/measure-throttle.sh [check|compare]
#   check env:   ASI=path/to/asi to skip the (debug) build; ROWS="1 2 3 4"
#   compare env: ASI [the release build's asi], SKIP_BUILD [0], RATES ["256K 1M 4M"], DURATION [10], RUNS [3]
set -euo pipefail

cd "$(dirname "$0")/.."
MODE="${1:-check}"
case "$MODE" in
check)
    ROWS="${ROWS:-1 2 3 4}"
    if [ -z "${ASI:-}" ]; then
        swift build --product asi >&2
        ASI="$(swift build --show-bin-path)/asi"
    fi
    ;;
compare)
    # The benchmarks' one `median` and release build.
    HERE="$PWD/Benchmarks"
    # shellcheck source=../Benchmarks/Scripts/common.sh
    . "$HERE/Scripts/common.sh"
    release_asi
    ASI="$asi"
    ;;
*)
    echo "usage: scripts/measure-throttle.sh [check|compare]" >&2
    exit 64
    ;;
esac
NGINX="${NGINX:-/usr/sbin/nginx}"
[ -x "$NGINX" ] || { echo "nginx not found (apt-get install nginx)" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/asikit-throttle.XXXXXX")"
cleanup() {
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/www/files" "$work/www/dav" "$work/temp" "$work/out"
# nginx's workers run as an unprivileged user when it is started as root: they must reach the files and write
# uploads and their temporary files.
chmod 755 "$work" "$work/www" "$work/www/files"
chmod 777 "$work/www/dav" "$work/temp"
if [ "$MODE" = check ]; then
    head -c $((5 * 1024 * 1024)) /dev/urandom >"$work/www/files/5m.bin"
    for i in 1 2 3 4; do head -c $((1280 * 1024)) /dev/urandom >"$work/www/files/q$i.bin"; done
    head -c 148000 /dev/urandom >"$work/www/files/148k.bin"
    head -c $((2 * 1024 * 1024)) /dev/urandom >"$work/upload.bin"
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $work/temp/client_body;
    proxy_temp_path $work/temp/proxy;
    fastcgi_temp_path $work/temp/fastcgi;
    uwsgi_temp_path $work/temp/uwsgi;
    scgi_temp_path $work/temp/scgi;
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
        root $work/www;
        location /files/ { }
        location /dav/ { dav_methods PUT; client_max_body_size 0; client_body_buffer_size 128k; }
    }
}
CONF
"$NGINX" -p "$work" -e "$work/error.log" -c "$work/nginx.conf"
for _ in $(seq 100); do [ -f "$work/nginx.pid" ] && break; sleep 0.05; done
base="http://127.0.0.1:$port"

if [ "$MODE" = compare ]; then
    bytes_of() { # 256K -> 262144, 1M -> 1048576
        awk -v r="$1" 'BEGIN { n = r + 0; u = substr(r, length(r))
            if (u == "K") n *= 1024
            if (u == "M") n *= 1048576
            printf "%d", n }'
    }
    rates="${RATES:-256K 1M 4M}"
    seconds_each="${DURATION:-10}"
    runs="${RUNS:-3}"
    echo "Throttle accuracy, $(date -u '+%Y-%m-%d %H:%M UTC'), medians of $runs runs of about $seconds_each s"
    echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    printf '| %-10s | %10s | %12s | %12s | %8s | %8s |\n' "rate" "bytes" "asi B/s" "curl B/s" "asi/R" "curl/R"
    printf '|%s|%s|%s|%s|%s|%s|\n' "------------" "------------" "--------------" "--------------" "----------" \
        "----------"
    for rate in $rates; do
        per_second="$(bytes_of "$rate")"
        size=$((per_second * seconds_each))
        head -c "$size" /dev/urandom >"$work/www/files/r$rate.bin"
        chmod a+r "$work/www/files/r$rate.bin"
        asi_rates=() curl_rates=()
        for _ in $(seq "$runs"); do
            for client in asi curl; do
                bin="$ASI"
                [ "$client" = curl ] && bin="$(command -v curl)"
                out="$("$bin" -s -o /dev/null --limit-rate "$rate" -w '%{size_download} %{time_total}' \
                    "$base/files/r$rate.bin")"
                got="$(awk -v o="$out" -v s="$size" \
                    'BEGIN { split(o, f, " "); if (f[1] != s) print "bad"; else printf "%.0f", f[1] / f[2] }')"
                [ "$got" = bad ] && { echo "$client got '$out', expected $size bytes" >&2; exit 1; }
                echo "raw $rate $client: $out -> $got B/s" >&2
                if [ "$client" = asi ]; then asi_rates+=("$got"); else curl_rates+=("$got"); fi
            done
        done
        a="$(printf '%s\n' "${asi_rates[@]}" | median)"
        c="$(printf '%s\n' "${curl_rates[@]}" | median)"
        awk -v r="$rate" -v s="$size" -v a="$a" -v c="$c" -v p="$per_second" 'BEGIN {
            printf "| %-10s | %10d | %12.0f | %12.0f | %8.3f | %8.3f |\n", r "/s", s, a, c, a / p, c / p }'
    done
    echo
    echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi

failures=0
broken=0
now() { date +%s.%N; }
# report NAME EXPECTED_SECONDS STARTED ENDED COMMAND...
report() {
    local name="$1" expected="$2" started="$3" ended="$4"
    shift 4
    local line
    line="$(python3 - "$name" "$expected" "$started" "$ended" "$work/times" <<'PY'
import sys
name, expected, started, ended = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
times = [float(t) for t in open(sys.argv[5]).read().split()]
took = ended - started
off = (took - expected) / expected * 100
verdict = "ok" if abs(off) <= 5 else "FAST" if off < 0 else "SLOW"
transfer = f"transfer {max(times):.2f} s, " if times else ""
print(f"{verdict:4} {name:58} {took:6.2f} s  ({transfer}expected {expected:.2f} s, {off:+.1f} %)")
PY
)"
    local display="$*"
    display="${display//$ASI/asi}"
    echo "$line"
    echo "     \$ ${display//$work/\$TMP}"
    [[ "$line" == ok* ]] || failures=$((failures + 1))
    [[ "$line" == FAST* ]] && broken=$((broken + 1))
    return 0
}
same() { # same FILE FILE LABEL
    if cmp -s "$1" "$2"; then return 0; fi
    echo "FAIL $3: the body differs from its source"
    failures=$((failures + 1))
    broken=$((broken + 1))
}
wants() { [[ " $ROWS " == *" $1 "* ]]; }

echo "asi: $ASI"
echo "nginx: $("$NGINX" -v 2>&1 | sed 's/^nginx version: //') on $base"
if wants 1; then
    command=("$ASI" -s --limit-rate 500K -o "$work/out/5m.bin" "$base/files/5m.bin")
    started="$(now)"; "${command[@]}" -w '%{time_total}\n' >"$work/times"; ended="$(now)"
    report "5 MiB download, --limit-rate 500K" 10.24 "$started" "$ended" "${command[@]}"
    same "$work/out/5m.bin" "$work/www/files/5m.bin" "5 MiB download"
    if command -v curl >/dev/null; then
        started="$(now)"; curl -s --limit-rate 500K -o "$work/out/curl.bin" "$base/files/5m.bin"; ended="$(now)"
        echo "     (curl $(curl --version | awk 'NR == 1 { print $2 }') for comparison: the same download in" \
            "$(python3 -c "print(f'{$ended - $started:.2f}')") s)"
    fi
fi
if wants 2; then
    command=("$ASI" -s -Z --max-bandwidth 500K)
    for i in 1 2 3 4; do command+=(-o "$work/out/q$i.bin" "$base/files/q$i.bin"); done
    started="$(now)"; "${command[@]}" -w '%{time_total}\n' >"$work/times"; ended="$(now)"
    report "4 x 1.25 MiB in parallel (-Z), --max-bandwidth 500K" 10.24 "$started" "$ended" "${command[@]}"
    for i in 1 2 3 4; do same "$work/out/q$i.bin" "$work/www/files/q$i.bin" "parallel download $i"; done
fi
if wants 3; then
    command=("$ASI" -s --max-bandwidth 14800 -o "$work/out/148k.bin" "$base/files/148k.bin")
    started="$(now)"; "${command[@]}" -w '%{time_total}\n' >"$work/times"; ended="$(now)"
    report "148,000 bytes, --max-bandwidth 14800 (ASI's WWAN figure)" 10.00 "$started" "$ended" "${command[@]}"
    same "$work/out/148k.bin" "$work/www/files/148k.bin" "148,000-byte download"
fi
if wants 4; then
    command=("$ASI" -s --fail --limit-rate 200K -T "$work/upload.bin" -o /dev/null "$base/dav/upload.bin")
    started="$(now)"; "${command[@]}" -w '%{time_total}\n' >"$work/times"; ended="$(now)"
    report "2 MiB upload (-T, PUT), --limit-rate 200K" 10.24 "$started" "$ended" "${command[@]}"
    same "$work/www/dav/upload.bin" "$work/upload.bin" "2 MiB upload"
fi
if [ "$broken" -gt 0 ]; then
    echo "FAIL measure-throttle: $broken transfer(s) faster than the limit allows or bodies that differ"
    exit 2
fi
if [ "$failures" -gt 0 ]; then
    echo "SLOW measure-throttle: $failures figure(s) more than 5 % slower than the limit (a busy machine?)"
    exit 1
fi
echo "PASS measure-throttle: every figure within 5 %, every body intact"
