#!/usr/bin/env bash
# Throttle accuracy: `asi --limit-rate R` (ASIKit's Throttle plug-in) beside `curl --limit-rate R`, downloading a
# file of DURATION × R bytes from a local nginx, for each rate in RATES. The figure is the achieved average rate
# (bytes / total time, as `-w '%{size_download} %{time_total}'` reports) over the asked one: 1.00 is exact,
# below is slower than asked. Each client runs in turn, RUNS times; the table shows medians. curl 7.88 holds
# its "current speed" (averaged over at least 3 s) to the rate, so a short transfer overshoots (curl/curl#10173).
#
# Usage: Benchmarks/throttle.sh     Environment: RATES ["256K 1M 4M"], DURATION [10], RUNS [3], SKIP_BUILD [0],
#        ASI [the release build's asi]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RATES="${RATES:-256K 1M 4M}"
SECONDS_EACH="${DURATION:-10}"
RUNS="${RUNS:-3}"
# shellcheck source=Scripts/common.sh
. "$HERE/Scripts/common.sh"

release_asi
work_with_nginx asi-throttle
base="${URL%/1k.bin}"

bytes_of() { # 256K -> 262144, 1M -> 1048576
    awk -v r="$1" 'BEGIN { n = r + 0; u = substr(r, length(r))
        if (u == "K") n *= 1024
        if (u == "M") n *= 1048576
        printf "%d", n }'
}

echo "Throttle accuracy, $(date -u '+%Y-%m-%d %H:%M UTC'), medians of $RUNS runs of about $SECONDS_EACH s"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| %-10s | %10s | %12s | %12s | %8s | %8s |\n' "rate" "bytes" "asi B/s" "curl B/s" "asi/R" "curl/R"
printf '|%s|%s|%s|%s|%s|%s|\n' "------------" "------------" "--------------" "--------------" "----------" "----------"
for rate in $RATES; do
    per_second="$(bytes_of "$rate")"
    size=$((per_second * SECONDS_EACH))
    head -c "$size" /dev/urandom >"$WORK/www/r$rate.bin"
    chmod a+r "$WORK/www/r$rate.bin"
    asi_rates=() curl_rates=()
    for _ in $(seq "$RUNS"); do
        for client in asi curl; do
            bin="$asi"
            [ "$client" = curl ] && bin="$(command -v curl)"
            out="$("$bin" -s -o /dev/null --limit-rate "$rate" -w '%{size_download} %{time_total}' "$base/r$rate.bin")"
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
