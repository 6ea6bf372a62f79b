#!/usr/bin/env bash
# Profiles ASIKit's 1 KiB GET against a local nginx with perf, next to libcurl.
#
# Usage: Benchmarks/profile.sh     (env: MODE=seq|conc|queue [seq], N [30000], C [16], SKIP_BUILD [1 if built])
# Prints, per request: CPU time, context switches and malloc calls (by the difference between a short and a long
# run, so start-up cancels out) for asikit (pipeline), asikit seq-raw (transport only), libcurl and AHC; then a
# cpu-clock profile of asikit split into categories, the kernel time per system call, the time per thread and
# the hottest user-space symbols. perf.data stays in Benchmarks/.profile/ for `perf report`.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODE="${MODE:-seq}"
N="${N:-30000}"
C="${C:-16}"
SHORT=1000

command -v perf >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends linux-perf >&2
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx >&2

SWIFT_FLAGS=(-c release --package-path "$HERE" --scratch-path "$HERE/.build" -Xswiftc -g)
BIN="$(swift build "${SWIFT_FLAGS[@]}" --show-bin-path)"
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -x "$BIN/asikit-bench" ]; then swift build "${SWIFT_FLAGS[@]}" >&2; fi
OUT="$HERE/.profile"
mkdir -p "$OUT"
WORK="$(mktemp -d /tmp/asikit-profile.XXXXXX)"
chmod 755 "$WORK"
cc -O2 -o "$WORK/libcurl-bench" "$HERE/C/libcurl_bench.c" -lcurl

PROBE=0
NGINX_PID=""
finish() {
    [ -z "$NGINX_PID" ] || kill -TERM "$NGINX_PID" 2>/dev/null || true
    [ "$PROBE" = 0 ] || perf probe -q -d probe_libc:malloc 2>/dev/null || true
    rm -rf "$WORK"
}
trap finish EXIT

. "$(dirname "${BASH_SOURCE[0]}")/Scripts/small-nginx.sh"
start_small_nginx "$WORK"

# malloc calls through a uprobe on libc's malloc, when the kernel allows uprobes.
LIBC="$(ldd "$BIN/asikit-bench" | awk '/libc.so.6/ { print $3 }')"
EVENTS="task-clock,context-switches"
if perf probe -q -x "$LIBC" malloc 2>/dev/null; then PROBE=1; fi
if perf list 2>/dev/null | grep 'probe_libc:malloc' >/dev/null; then EVENTS+=",probe_libc:malloc"; fi

args() { # args COUNT : the bench arguments for MODE
    case "$MODE" in seq) echo "$URL $1" ;; *) echo "$URL $1 $C" ;; esac
}
counters() { # counters COUNT CMD... : task-clock ms, context switches, mallocs
    taskset -c 1 perf stat -x, -e "$EVENTS" "$@" 2>&1 >/dev/null | awk -F, 'NF > 2 { printf "%s ", $1 } END { print "" }'
}
echo "Per request, $MODE, from runs of $SHORT and $N requests (start-up cancels out):"
printf '  %-22s %12s %18s %14s\n' client "CPU us" "context switches" "malloc calls"
modes=("asikit-bench $MODE")
[ "$MODE" = seq ] && modes+=("asikit-bench seq-raw")
[ "$MODE" = queue ] || modes+=("libcurl-bench $MODE" "ahc-bench $MODE")
for entry in "${modes[@]}"; do
    set -- $entry
    exe="$BIN/$1"
    [ "$1" = libcurl-bench ] && exe="$WORK/libcurl-bench"
    read -r -a short <<<"$(counters "$exe" "$2" $(args "$SHORT"))"
    read -r -a long <<<"$(counters "$exe" "$2" $(args "$N"))"
    awk -v name="$1 $2" -v n=$((N - SHORT)) -v t0="${short[0]}" -v t1="${long[0]}" -v c0="${short[1]}" \
        -v c1="${long[1]}" -v m0="${short[2]:-}" -v m1="${long[2]:-}" 'BEGIN {
        m = (m0 == "" || m0 ~ /not/) ? "n/a" : sprintf("%.1f", (m1 - m0) / n)
        printf "  %-22s %12.1f %18.2f %14s\n", name, (t1 - t0) * 1000 / n, (c1 - c0) / n, m }'
done

echo
echo "cpu-clock profile of asikit-bench $MODE ($N requests):"
taskset -c 1 perf record -q -e cpu-clock -F 9999 -g -o "$OUT/perf-$MODE.data" -- "$BIN/asikit-bench" "$MODE" $(args "$N") >/dev/null
python3 "$HERE/Scripts/perf_categories.py" "$OUT/perf-$MODE.data" "$N"
echo
echo "Kernel time by system call (inclusive, % of all samples):"
perf report -i "$OUT/perf-$MODE.data" --children --sort sym --stdio -g none 2>/dev/null |
    grep -E '\] (__x64_sys_[a-z_0-9]+|handle_softirqs|schedule)$' | head -8 | sed 's/^/  /'
echo
echo "By thread (asi-loop-* is the transport's event loop):"
perf report -i "$OUT/perf-$MODE.data" --sort comm --stdio -g none 2>/dev/null | grep -v '^#' | grep . | head -5 | sed 's/^/  /'
echo
echo "Hottest user-space symbols (self):"
perf report -i "$OUT/perf-$MODE.data" --no-children --sort dso,sym --stdio -g none 2>/dev/null | grep -v '^#' | grep . |
    grep -v 'kernel.kallsyms' | head -30 | swift demangle --simplified | cut -c1-150 | sed 's/^/  /'
