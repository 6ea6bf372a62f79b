#!/usr/bin/env bash
# PAC evaluations per second: ASIKit's ProxyPAC (Duktape) beside pacparser (PyPI, QuickJS) on the same 50-rule
# PAC file (Data/fifty-rules.pac) and URLs (Data/pac-urls.txt). Both load the file once and then call
# FindProxyForURL EVALS times; ASIKit's figure includes the hop to the engine's thread and parsing the answer into
# routes, pacparser's is its in-process find_proxy call from Python. The answers are checked equal first.
#
# Usage: Benchmarks/pac.sh        Environment: EVALS [20000], RUNS [5], SKIP_BUILD [0], ASI [a debug build of asi]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=Scripts/common.sh
. "$HERE/Scripts/common.sh"
EVALS="${EVALS:-20000}"
RUNS="${RUNS:-5}"
PAC="$HERE/Data/fifty-rules.pac"
URLS="$HERE/Data/pac-urls.txt"
python3 -c 'import pacparser' 2>/dev/null || python3 -m pip install -q pacparser || python3 -m pip install -q pacparser --break-system-packages
cd "$HERE"
if [ "${SKIP_BUILD:-0}" != 1 ]; then swift build -c release --product pac-bench >&2; fi
bench="$(swift build -c release --show-bin-path)/pac-bench"
if [ -z "${ASI:-}" ]; then (cd .. && swift build --product asi >&2); fi
asi="${ASI:-$(cd .. && swift build --show-bin-path)/asi}"

# Same answers first.
while read -r url; do
    [ -n "$url" ] || continue
    ours="$("$asi" --pac "$PAC" --pac-test "$url")"
    theirs="$(python3 -c 'import sys, pacparser; print(pacparser.just_find_proxy(sys.argv[1], sys.argv[2]))' "$PAC" "$url")"
    if [ "$ours" != "$theirs" ]; then echo "answers differ for $url: asi '$ours', pacparser '$theirs'" >&2; exit 1; fi
done <"$URLS"

ours=() theirs=()
for _ in $(seq "$RUNS"); do
    line="$("$bench" "$PAC" "$URLS" "$EVALS")"
    echo "$line" >&2
    ours+=("$(sed -n 's/.*evals_per_s=\([0-9]*\).*/\1/p' <<<"$line")")
    line="$(python3 - "$PAC" "$URLS" "$EVALS" <<'PY'
import sys, time, pacparser
pac, urls, n = sys.argv[1], [u for u in open(sys.argv[2]).read().split() if u], int(sys.argv[3])
pacparser.init()
pacparser.parse_pac_file(pac)
for u in urls: pacparser.find_proxy(u)
start = time.monotonic()
for i in range(n): pacparser.find_proxy(urls[i % len(urls)])
seconds = time.monotonic() - start
print(f"RESULT client=pacparser evals={n} seconds={seconds} evals_per_s={int(n / seconds)}")
PY
)"
    echo "$line" >&2
    theirs+=("$(sed -n 's/.*evals_per_s=\([0-9]*\).*/\1/p' <<<"$line")")
done
a="$(printf '%s\n' "${ours[@]}" | median)"
b="$(printf '%s\n' "${theirs[@]}" | median)"
echo "PAC evaluations, $(date -u '+%Y-%m-%d %H:%M UTC'): medians of $RUNS runs of $EVALS; load average $(cut -d' ' -f1 /proc/loadavg)"
echo "pacparser $(python3 -c 'import pacparser; print(pacparser.version())')"
echo
echo "| row (higher is better)                          |   ASIKit | pacparser | x pacparser |"
echo "|-------------------------------------------------|----------|-----------|-------------|"
printf '| 50-rule PAC, FindProxyForURL evaluations/s      | %8s | %9s | %10sx |\n' "$a" "$b" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
