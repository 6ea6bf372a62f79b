#!/usr/bin/env bash
# Happy Eyeballs: the cost of a blackholed IPv6 address. In a private network namespace (unshare -rnm) the name
# happy.test resolves to fd00::2, whose frames go to a MAC nobody owns on a veth pair (silently dropped), and to
# 10.200.0.1, where a python HTTP server answers. `asi` and `curl` fetch http://happy.test:PORT/hello.txt with
# the same attempt delay, RUNS times each in turn, and the table shows the median and the largest
# `-w %{time_total}` in seconds. Without the race the first attempt would wait out the connect timeout.
#
# Usage: Benchmarks/happy-eyeballs.sh   Environment: RUNS [10], DELAY_MS [250], ASI [the debug build's asi]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=Scripts/common.sh
. "$HERE/Scripts/common.sh"
RUNS="${RUNS:-10}"
DELAY_MS="${DELAY_MS:-250}"
asi="${ASI:-$(cd "$ROOT" && swift build --show-bin-path)/asi}"
curl="$(command -v curl)"
WORK="$(mktemp -d /tmp/asi-he.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

cat > "$WORK/run.sh" <<SCRIPT
set -e
ip link set lo up
ip link add veth0 type veth peer name veth1
ip link set veth0 up; ip link set veth1 up
ip -6 addr add fd00::1/64 dev veth0 nodad
ip addr add 10.200.0.1/24 dev veth0
ip neigh add fd00::2 lladdr 02:00:00:00:00:99 dev veth0 nud permanent
printf 'fd00::2 happy.test\n10.200.0.1 happy.test\n' > $WORK/hosts
mount --bind $WORK/hosts /etc/hosts
printf 'hello\n' > $WORK/hello.txt
cd $WORK
python3 -c 'import http.server as h, os
class Q(h.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
s = h.HTTPServer(("10.200.0.1", 0), Q); open("port.tmp", "w").write(str(s.server_address[1])); os.rename("port.tmp", "port"); s.serve_forever()' &
server=\$!
for _ in \$(seq 1 600); do [ -f port ] && break; sleep 0.1; done
url="http://happy.test:\$(cat port)/hello.txt"
for i in \$(seq 1 $RUNS); do
    $asi -s -o /dev/null -w '%{time_total}\n' --happy-eyeballs-timeout-ms $DELAY_MS "\$url" >> asi.times
    $curl -s -o /dev/null -w '%{time_total}\n' --happy-eyeballs-timeout-ms $DELAY_MS "\$url" >> curl.times
done
kill \$server
SCRIPT
unshare -rnm /bin/sh "$WORK/run.sh"
stats() { printf '%8.3f %8.3f' "$(median <"$1")" "$(sort -g "$1" | tail -1)"; }
printf '| client | median s | max s |\n|---|---|---|\n'
printf '| asi  | %s |\n' "$(stats "$WORK/asi.times" | awk '{ print $1 " | " $2 }')"
printf '| curl | %s |\n' "$(stats "$WORK/curl.times" | awk '{ print $1 " | " $2 }')"
