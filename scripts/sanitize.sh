#!/usr/bin/env bash
# Builds the package and its tests with a sanitizer into its own scratch path (.build-tsan or .build-asan, so the
# normal .build is untouched) and runs the test suite, or the part of it FILTER selects (a `swift test --filter`
# regular expression), under it with the suppressions in scripts/sanitizers/. Exits non-zero when the build or a
# test fails or when the sanitizer reported anything, in the test process or in any sanitized child it started
# (asi, KeyringWriter): reports go to files (log_path), which are printed at the end. See Docs/Sanitizers.md.
#
# Usage: scripts/sanitize.sh thread|address [FILTER]
# Environment:
#   ASI_REQUIRE_PEERS   defaults to 1 here: the real peers (nginx, httpbin, tinyproxy, apache2, squid, microsocks,
#                       moto) must run
#   SANITIZE_OUT        where the test log and the reports go (default <scratch>/sanitize)
#   SANITIZE_PARALLEL   0 runs the tests one at a time (default 1: --parallel)
set -euo pipefail

cd "$(dirname "$0")/.."
kind="${1:-}"
filter="${2:-}"
case "$kind" in
    thread) scratch=.build-tsan ;;
    address) scratch=.build-asan ;;
    *)
        echo "usage: scripts/sanitize.sh thread|address [FILTER]" >&2
        exit 2
        ;;
esac
root="$(pwd)"
out="${SANITIZE_OUT:-$root/$scratch/sanitize}"
rm -rf "$out"
mkdir -p "$out/reports"
export ASI_REQUIRE_PEERS="${ASI_REQUIRE_PEERS:-1}"
# Swift's backtracer would print its own report over the sanitizer's after a crash.
export SWIFT_BACKTRACE=enable=no

started=$(date +%s)
echo "== swift build --build-tests --sanitize=$kind --scratch-path $scratch"
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"
built=$(date +%s)
echo "== built in $((built - started)) s"

suppressions="$root/scripts/sanitizers"
if [ "$kind" = thread ]; then
    # Synchronization.Mutex's contended paths, made visible to TSan (scripts/sanitizers/tsan-mutex.c).
    clang="$(dirname "$(readlink -f "$(command -v swift)")")/clang"
    [ -x "$clang" ] || clang=clang
    "$clang" -O2 -fPIC -shared -o "$root/$scratch/libtsan-mutex.so" "$suppressions/tsan-mutex.c" -ldl
    export LD_PRELOAD="$root/$scratch/libtsan-mutex.so${LD_PRELOAD:+:$LD_PRELOAD}"
    export TSAN_OPTIONS="suppressions=$suppressions/tsan.supp log_path=$out/reports/tsan history_size=4 \
halt_on_error=0 second_deadlock_stack=1${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
else
    export ASAN_OPTIONS="suppressions=$suppressions/asan.supp log_path=$out/reports/asan detect_leaks=1 \
detect_stack_use_after_return=1 strict_string_checks=1 check_initialization_order=1${ASAN_OPTIONS:+ $ASAN_OPTIONS}"
    export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp print_suppressions=0${LSAN_OPTIONS:+ $LSAN_OPTIONS}"
fi

arguments=(--skip-build --sanitize="$kind" --scratch-path "$scratch")
if [ "${SANITIZE_PARALLEL:-1}" != 0 ]; then arguments+=(--parallel); fi
if [ -n "$filter" ]; then arguments+=(--filter "$filter"); fi
echo "== swift test ${arguments[*]}"
tested=0
swift test "${arguments[@]}" 2>&1 | tee "$out/test.log" || tested=$?
finished=$(date +%s)

reports=("$out"/reports/*)
[ -e "${reports[0]}" ] || reports=()
echo
echo "== $kind: build $((built - started)) s, tests $((finished - built)) s, swift test exit $tested," \
    "${#reports[@]} report file(s) in $out/reports"
for report in "${reports[@]}"; do
    echo "---- $report"
    head -120 "$report"
done
if [ "${#reports[@]}" -gt 0 ]; then
    echo "FAIL: the $kind sanitizer reported (see above)"
    exit 1
fi
if [ "$tested" != 0 ]; then
    echo "FAIL: swift test exited $tested"
    grep -E -A12 '✘|error:|Fatal error' "$out/test.log" | grep -v -E '^.{0,4}[✔◇]' | head -200 || true
    exit "$tested"
fi
echo "PASS: no $kind sanitizer reports"
