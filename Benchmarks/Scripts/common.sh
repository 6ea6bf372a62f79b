# Sourced by every benchmark script: the one `median`, and the preamble the nginx benchmarks share (release asi,
# a work directory, the small nginx, and one trap that stops nginx and removes the directory).
# Before sourcing: HERE (the Benchmarks folder). Sets ROOT (the repository).
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=small-nginx.sh
. "$HERE/Scripts/small-nginx.sh"

# median [NUMBER...]: the median of the arguments, or of stdin's lines when there are none; the mean of the two
# middle values for an even count, "n/a" for none.
median() {
    { if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi; } | sort -g | awk '
        { v[NR] = $1 }
        END { if (NR == 0) print "n/a"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# release_asi: builds the release asi unless SKIP_BUILD=1, then sets `asi` to ASI or to that build's asi.
release_asi() {
    if [ "${SKIP_BUILD:-0}" != 1 ]; then (cd "$ROOT" && swift build -c release --product asi >&2); fi
    asi="${ASI:-$(cd "$ROOT" && swift build -c release --show-bin-path)/asi}"
}

# work_with_nginx NAME: a fresh WORK directory (/tmp/NAME.XXXXXX), the small nginx started in it (NGINX_PID, URL),
# and an EXIT trap that stops nginx and removes WORK.
work_with_nginx() {
    WORK="$(mktemp -d "/tmp/$1.XXXXXX")"
    chmod 755 "$WORK"
    NGINX_PID=""
    trap '[ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
    start_small_nginx "$WORK"
}
