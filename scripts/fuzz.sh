#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (a separate package, so the main build never sees fuzzer flags) and runs
# each one for SECONDS (default 60) on a copy of its seed corpus (Fuzz/Corpus/<target>/). Prints a table of
# executions per target and exits non-zero when any target crashed, broke an invariant, timed out or ran out of
# memory; the input that did it is left in Fuzz/.build/fuzz/<target>/crashes/ (the path is printed).
# See Docs/Fuzzing.md.
#
# Usage: scripts/fuzz.sh [SECONDS]
# Environment:
#   FUZZ_TARGETS   space-separated targets to run (default: every Fuzz/Sources/Fuzz* directory)
#   FUZZ_RSS_MB    libFuzzer's -rss_limit_mb (default 2048)
#   FUZZ_TIMEOUT   libFuzzer's -timeout in seconds for one input (default 10; generous for a busy machine)
#   FUZZ_OUT       where corpora, logs and crashes go (default Fuzz/.build/fuzz)
set -euo pipefail

cd "$(dirname "$0")/.."
seconds="${1:-60}"
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2; }
rss="${FUZZ_RSS_MB:-2048}"
timeout="${FUZZ_TIMEOUT:-10}"
out="${FUZZ_OUT:-Fuzz/.build/fuzz}"
if [ -n "${FUZZ_TARGETS:-}" ]; then
    read -r -a targets <<<"$FUZZ_TARGETS"
else
    targets=()
    for directory in Fuzz/Sources/Fuzz*/; do
        name="$(basename "$directory")"
        [ "$name" = FuzzSupport ] || targets+=("$name")
    done
fi

# -sanitize=fuzzer,address through -Xswiftc is enough: SwiftPM passes it to every Swift compile and to the link,
# which brings libFuzzer and the ASan runtime (SwiftPM's --sanitize=address is not needed on top).
echo "== building Fuzz/ (debug, -sanitize=fuzzer,address)"
build_start=$(date +%s)
swift build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address
bin="$(swift build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address --show-bin-path)"
echo "== built in $(($(date +%s) - build_start)) s"

failures=0
rows=()
for target in "${targets[@]}"; do
    work="$out/$target"
    rm -rf "$work"
    mkdir -p "$work/corpus" "$work/crashes"
    if [ -d "Fuzz/Corpus/$target" ]; then cp -R "Fuzz/Corpus/$target/." "$work/corpus/"; fi
    echo "== $target: ${seconds} s"
    status=0
    # Swift's backtracer would run inside ASan after a trap and report itself; libFuzzer prints the stack.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$bin/$target" "$work/corpus" \
        -max_total_time="$seconds" -rss_limit_mb="$rss" -timeout="$timeout" -print_final_stats=1 \
        -artifact_prefix="$work/crashes/" >"$work/log.txt" 2>&1 || status=$?
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log.txt" | tail -1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log.txt" | tail -1)"
    units="$(find "$work/corpus" -type f | wc -l)"
    if [ "$status" -eq 0 ]; then
        result="ok"
    else
        result="FAILED (exit $status)"
        failures=$((failures + 1))
        echo "   $target failed; log: $work/log.txt"
        grep -E "invariant broken|Fatal error|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY" "$work/log.txt" | head -5 |
            sed 's/^/   /' || true
        for crash in "$work/crashes"/*; do [ -e "$crash" ] && echo "   input: $crash"; done
    fi
    rows+=("$(printf '%-20s %12s %10s %8s  %s' "$target" "${execs:-?}" "${rate:-?}" "$units" "$result")")
done

echo
printf '%-20s %12s %10s %8s  %s\n' "target" "executions" "exec/s" "corpus" "result"
for row in "${rows[@]}"; do echo "$row"; done
echo "($seconds s per target; load average $(cut -d' ' -f1-3 /proc/loadavg))"
if [ "$failures" -gt 0 ]; then
    echo "FAIL: $failures target(s) failed; inputs are in $out/<target>/crashes/"
    exit 1
fi
echo "PASS: no crashes"
