#!/usr/bin/env bash
# A/B comparison of asikit-bench builds (or any client with the same modes) against one local nginx.
#
# Usage: Benchmarks/compare.sh LABEL=BINARY [LABEL=BINARY ...]
# Environment (defaults in brackets): MODE [seq] (seq|seq-raw|conc|queue), ROUNDS [5], N [20000], SHORT [1000],
#   C [16], STRACE [1] (system calls per request), PROBES [1] (uprobe counts per request).
# Each round runs every binary in turn (so a drift in the machine's load hits each alike) with N and with SHORT
# requests; per-request figures are the difference, so start-up cancels out. Prints medians of CPU time,
# context switches and requests/s, then counts that do not move with load: malloc, swift_task_switch and
# swift_task_alloc calls (uprobes), and system calls (strace -c). nginx runs on CPU 0, the clients on CPU 1.
#
# To build a "before" binary, export the old revision and build it beside the current one, for example:
#   git archive REV | tar -x -C /tmp/asikit-REV && cp -a Benchmarks/.build /tmp/asikit-REV/Benchmarks/ &&
#   swift build -c release --package-path /tmp/asikit-REV/Benchmarks --product asikit-bench
# (the copied .build already holds the checkouts). Set ASIKIT_TASK_EXECUTOR=1 in a wrapper script to measure
# a binary with POSIXTransport.taskExecutor.
set -euo pipefail

MODE="${MODE:-seq}" ROUNDS="${ROUNDS:-5}" N="${N:-20000}" SHORT="${SHORT:-1000}" C="${C:-16}"
[ $# -gt 0 ] || { echo "usage: $0 LABEL=BINARY ..." >&2; exit 2; }
command -v perf >/dev/null ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-perf >&2

WORK="$(mktemp -d /tmp/asikit-compare.XXXXXX)"
chmod 755 "$WORK"
NGINX_PID="" CREATED=()
finish() {
    [ -z "$NGINX_PID" ] || kill -TERM "$NGINX_PID" 2>/dev/null || true
    for probe in "${CREATED[@]}"; do perf probe -q -d "$probe" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap finish EXIT

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=Scripts/common.sh
. "$HERE/Scripts/common.sh"
start_small_nginx "$WORK"

args() { case "$MODE" in seq | seq-raw) echo "$URL $1" ;; *) echo "$URL $1 $C" ;; esac; }

# run BINARY COUNT EVENTS -> the counter values, space-separated, then requests/s
run() {
    local out
    out="$(taskset -c 1 perf stat -x, -o "$WORK/stat" -e "$3" "$1" "$MODE" $(args "$2"))"
    awk -F, 'NF > 2 { printf "%s ", $1 }' "$WORK/stat"
    sed -n 's/.*rps=\([0-9.]*\).*/\1/p' <<<"$out"
}

declare -A CPU CS RPS
for round in $(seq 1 "$ROUNDS"); do
    for spec in "$@"; do
        label="${spec%%=*}" bin="${spec#*=}"
        read -r t0 c0 _ <<<"$(run "$bin" "$SHORT" task-clock,context-switches)"
        read -r t1 c1 rps <<<"$(run "$bin" "$N" task-clock,context-switches)"
        n=$((N - SHORT))
        CPU[$label]+=" $(python3 -c "print(($t1 - $t0) * 1000 / $n)")"
        CS[$label]+=" $(python3 -c "print(($c1 - $c0) / $n)")"
        RPS[$label]+=" $rps"
    done
done
echo "$MODE, $ROUNDS rounds of $N minus $SHORT requests, medians per request:"
for spec in "$@"; do
    label="${spec%%=*}"
    printf '  %-14s CPU %6.2f us   context switches %5.3f   %8.0f requests/s\n' "$label" \
        "$(median ${CPU[$label]})" "$(median ${CS[$label]})" "$(median ${RPS[$label]})"
done

SPECS=("$@")
if [ "${PROBES:-1}" = 1 ]; then
    first="${1#*=}"
    LIBC="$(ldd "$first" | awk '/libc.so.6/ { print $3 }')"
    CONC="$(ldd "$first" | awk '/libswift_Concurrency.so/ { print $3 }')"
    EVENTS=""
    for probe in "probe_libc:malloc $LIBC malloc" \
        "probe_libswift_Concurrency:swift_task_switch $CONC swift_task_switch" \
        "probe_libswift_Concurrency:swift_task_alloc $CONC swift_task_alloc"; do
        read -r name library symbol <<<"$probe"
        if perf probe -q -x "$library" "$symbol" 2>/dev/null; then CREATED+=("$name"); fi
        # (not `perf list | grep -q`: grep's early exit fails the pipeline under pipefail)
        if [[ "$(perf probe -l 2>/dev/null)" == *"$name "* ]]; then EVENTS+="${EVENTS:+,}$name"; fi
    done
    if [ -n "$EVENTS" ]; then
        echo "Per request, from runs of 5000 minus $SHORT requests: ${EVENTS//,/, }" | sed 's/probe_[A-Za-z_]*://g'
        for spec in "${SPECS[@]}"; do
            label="${spec%%=*}" bin="${spec#*=}"
            read -r -a a <<<"$(run "$bin" "$SHORT" "$EVENTS")"
            read -r -a b <<<"$(run "$bin" 5000 "$EVENTS")"
            python3 -c 'import sys; n = int(sys.argv[2]); a = sys.argv[3].split(); b = sys.argv[4].split()
print("  %-14s " % sys.argv[1] + "  ".join("%7.2f" % ((float(y) - float(x)) / n) for x, y in zip(a, b)))' \
                "$label" $((5000 - SHORT)) "${a[*]:0:3}" "${b[*]:0:3}"
        done
    fi
fi
if [ "${STRACE:-1}" = 1 ] && command -v strace >/dev/null; then
    echo "System calls per request (strace -c -f, $SHORT requests; errors in brackets):"
    for spec in "${SPECS[@]}"; do
        label="${spec%%=*}" bin="${spec#*=}"
        taskset -c 1 strace -f -c -o "$WORK/strace" "$bin" "$MODE" $(args "$SHORT") >/dev/null
        printf '  %-14s' "$label"
        awk -v n="$SHORT" '$NF ~ /^(recvfrom|sendto|epoll_wait|futex)$/ {
            printf " %s %.2f (%s)", $NF, $4 / n, ($5 ~ /^[0-9]+$/ ? $5 : 0) } END { print "" }' "$WORK/strace"
    done
fi
