#!/usr/bin/env bash
# The soak of issue 33: drives mixed traffic (keep-alive and new connections, TLS through nginx, gzip, redirects,
# a Basic challenge, cookies, the disk cache, a proxy through tinyproxy, a throttled transfer, cancellations and
# timeouts) through one long-lived Client for MINUTES, samples its resident memory, open descriptors, threads and
# requests in flight once a second, and fails when a linear fit over the second half shows any of them growing
# (memory by more than 4 MiB or 10 %, the others by more than 2). The samples go to a CSV; a line every 30 s and
# the verdict to stdout. TLS and the proxy are skipped (said so) when nginx or tinyproxy are missing.
#
# Usage: scripts/soak.sh MINUTES          e.g. scripts/soak.sh 30; under load: nice -n 19 scripts/soak.sh 30
# Environment:
#   SOAK_CSV   where the samples go (default .build/soak/samples-MINUTES.csv)
set -euo pipefail

cd "$(dirname "$0")/.."
minutes="${1:-}"
[[ "$minutes" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "usage: scripts/soak.sh MINUTES" >&2; exit 2; }
csv="${SOAK_CSV:-.build/soak/samples-$minutes.csv}"
mkdir -p "$(dirname "$csv")"
echo "== building ASISoak"
swift build --product ASISoak
bin="$(swift build --show-bin-path)"
echo "== soaking for $minutes min"
"$bin/ASISoak" "$minutes" "$csv"
