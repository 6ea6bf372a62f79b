#!/usr/bin/env bash
# How `asi` scales with the number of URLs on its command line, beside curl: `asi -s URL×N` and `curl -s URL×N`
# (and the same URLs from a `-K` config file of `url = ...` lines), for N in COUNTS, against a keep-alive nginx
# serving 1 KiB on 127.0.0.1. Each client runs in turn, RUNS times; the table shows the median wall time, the time
# per 1,000 URLs (flat when the growth is linear) and asi's time over curl's.
#
# Usage: Benchmarks/asi-scaling.sh     Environment: COUNTS ["1000 3000 10000"], RUNS [3], SKIP_BUILD [0],
#        FORMS ["arguments config"],
#        ASI [the release build's asi] (another binary, e.g. one built from an older revision)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
COUNTS="${COUNTS:-1000 3000 10000}"
RUNS="${RUNS:-3}"
FORMS="${FORMS:-arguments config}"
# shellcheck source=Scripts/common.sh
. "$HERE/Scripts/common.sh"

curl_bin="$(command -v curl)"

release_asi
work_with_nginx asi-scaling

# seconds CMD...: wall time of one run in seconds (stdout to /dev/null); fails the script when the command fails.
seconds() {
    local start end
    start="$(date +%s.%N)"
    taskset -c 1 "$@" >/dev/null || { echo "failed: $1 (exit $?)" >&2; exit 1; }
    end="$(date +%s.%N)"
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", e - s }'
}

echo "asi scaling with its arguments, $(date -u '+%Y-%m-%d %H:%M UTC'), medians of $RUNS runs"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); asi $(git -C "$ROOT" rev-parse --short HEAD)," \
    "$("$curl_bin" --version | head -1 | cut -d' ' -f1-2)"
echo
printf '| %-26s | %6s | %8s | %8s | %10s | %10s | %8s |\n' \
    "form" "URLs" "asi s" "curl s" "asi ms/1k" "curl ms/1k" "x curl"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' "----------------------------" "--------" "----------" "----------" \
    "------------" "------------" "----------"
for n in $COUNTS; do
    mapfile -t urls < <(for i in $(seq "$n"); do echo "$URL?$i"; done)
    for i in $(seq "$n"); do echo "url = \"$URL?$i\""; done >"$WORK/urls.cfg"
    for form in $FORMS; do
        asi_times=() curl_times=()
        for _ in $(seq "$RUNS"); do
            if [ "$form" = arguments ]; then
                asi_times+=("$(seconds "$asi" -s "${urls[@]}")")
                curl_times+=("$(seconds "$curl_bin" -s "${urls[@]}")")
            else
                asi_times+=("$(seconds "$asi" -s -K "$WORK/urls.cfg")")
                curl_times+=("$(seconds "$curl_bin" -s -K "$WORK/urls.cfg")")
            fi
        done
        echo "raw $form $n: asi ${asi_times[*]}; curl ${curl_times[*]}" >&2
        a="$(printf '%s\n' "${asi_times[@]}" | median)"
        c="$(printf '%s\n' "${curl_times[@]}" | median)"
        label="asi -s URL x N"
        [ "$form" = config ] && label="asi -s -K FILE (url = ...)"
        awk -v l="$label" -v n="$n" -v a="$a" -v c="$c" 'BEGIN {
            printf "| %-26s | %6d | %8.3f | %8.3f | %10.1f | %10.1f | %7.2fx |\n",
                l, n, a, c, a * 1000000 / n, c * 1000000 / n, a / c }'
    done
done
echo
echo "x curl: asi's time over curl's (below 1 is faster); ms/1k: milliseconds per 1,000 URLs (flat = linear)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
