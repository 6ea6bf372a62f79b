#!/usr/bin/env bash
# The README's test command: installs what is missing (scripts/install-dependencies.sh: Debian's packages with
# sudo when not root, and the Python peers), then runs the whole suite in parallel with every real peer required
# (ASI_REQUIRE_PEERS=1: a peer that does not start fails its tests instead of skipping them). .ci/run calls this
# same script, so CI proves the README.
#
# Usage: scripts/test.sh [swift test arguments...]   e.g. scripts/test.sh --filter RequestQueueTests
# Environment: ASI_REQUIRE_PEERS (default 1; 0 lets the peer tests skip when a peer is missing);
#   ASI_BUDGET_BINARY (default: built here) the release RequestBudget that the request budget tests run, since
#   allocations per request are counted as apps ship: optimised (Tests/BudgetTests)
set -euo pipefail

cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
export ASI_REQUIRE_PEERS="${ASI_REQUIRE_PEERS:-1}"
if [ -z "${ASI_BUDGET_BINARY:-}" ]; then
    swift build -c release --product RequestBudget
    ASI_BUDGET_BINARY="$(swift build -c release --show-bin-path)/RequestBudget"
fi
export ASI_BUDGET_BINARY

# The log is kept so that a failure's own lines (the runner prints them where they happen, maybe thousands of lines
# before the end) are repeated after the runner's closing line, where a reader of the log's tail sees them.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
swift test --parallel "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" != 0 ]; then
    printf '\n==== the failures again (from swift test'"'"'s log above)\n'
    grep -E -A8 '✘ .*recorded an issue|logged errors|Fatal error|Crashed|exited with signal|error:' "$log" \
        | grep -v -E '^.{0,4}[✔◇]|^\[[0-9]+/[0-9]+\]' | head -400 || true
fi
exit "$status"
