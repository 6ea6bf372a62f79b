#!/usr/bin/env bash
# Cold start of `asi` beside curl: one small GET (1 KiB from a keep-alive nginx on 127.0.0.1) per process, the
# two in turn, RUNS times each, pinned to CPU 1. Prints the median CPU time (user + system, from getrusage), the
# median and lowest wall time, and the peak RSS of one run, then the dynamic loader's figures for asi
# (LD_DEBUG=statistics). CPU time moves least with the machine's load; wall time on a busy machine means little.
#
# Usage: Benchmarks/cold-start.sh   Environment: RUNS [80], SKIP_BUILD [0], ASI [the release build's asi],
#        OTHER [unset] (a second asi binary to measure beside it, e.g. one built from an older revision)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUNS="${RUNS:-80}"
# shellcheck source=Scripts/common.sh
. "$HERE/Scripts/common.sh"

release_asi
work_with_nginx asi-cold

echo "asi cold start, $(date -u '+%Y-%m-%d %H:%M UTC'), $RUNS runs each; load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$URL" "$RUNS" "asi=$asi" "curl=$(command -v curl)" ${OTHER:+"other=$OTHER"} <<'PY'
import resource, statistics, subprocess, sys, time
url, runs, clients = sys.argv[1], int(sys.argv[2]), [a.split("=", 1) for a in sys.argv[3:]]
cpu = {name: [] for name, _ in clients}
wall = {name: [] for name, _ in clients}
for _ in range(runs):
    for name, binary in clients:
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        subprocess.run(["taskset", "-c", "1", binary, "-s", url], stdout=subprocess.DEVNULL, check=True)
        end, after = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[name].append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
        wall[name].append((end - start) * 1000)
for name, binary in clients:
    rss = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "-s", url], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr.split()[-1]
    print(f"{name:6} CPU {statistics.median(cpu[name]):5.1f} ms   wall {statistics.median(wall[name]):6.1f} ms "
          f"(lowest {min(wall[name]):5.1f})   peak RSS {int(rss) / 1024:5.1f} MiB")
PY
for binary in "$asi" ${OTHER:+"$OTHER"}; do
    LD_DEBUG=statistics "$binary" -s "$URL" 2>&1 >/dev/null |
        awk -v b="$(basename "$binary")" '/total startup time/ { c = $(NF - 1) }
            /final number of relocations:/ { r = $NF }
            END { printf "%s: dynamic loader %.2f M cycles, %d relocations\n", b, c / 1e6, r }'
done
