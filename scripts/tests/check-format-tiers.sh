#!/usr/bin/env bash
# Shows that scripts/check-format.sh enforces the tiers (decision 0033): in a throwaway repository laid out like
# this one, it must reject a plug-in that imports another plug-in and an import of the above-pipeline tier (in
# the Swift files and in the manifest), and a C shim outside Plugins/Shims; and it must pass the same tree once
# those are gone, so the rejections come from the rules and not from a broken tree.
#
# Usage: scripts/tests/check-format-tiers.sh      (run by .ci/run after check-format.sh; a few seconds)
set -euo pipefail

here="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

# write PATH LINE...: a file of the fake tree.
write() { mkdir -p "$work/$(dirname "$1")" && local f="$1" && shift && printf '%s\n' "$@" >"$work/$f"; }

mkdir -p "$work/scripts"
cp "$here/scripts/check-format.sh" "$work/scripts/"
write Modules/HTTPCore/Core.swift 'struct Core {}'
write Plugins/Alpha/Alpha.swift 'import Beta' 'import HTTPCore' '' 'struct Alpha {}'
write Plugins/Beta/Beta.swift 'import HTTPCore' '' 'struct Beta {}'
write Plugins/Gamma/Gamma.swift 'import HTTPCore' 'import Top' '' 'struct Gamma {}'
write Plugins/Shims/CGood/module.modulemap 'module CGood [system] {' '    header "shim.h"' '}'
write Plugins/Shims/CGood/shim.h '#include <stdio.h>'
write Plugins/CStray/module.modulemap 'module CStray [system] {' '    header "shim.h"' '}'
write Plugins/CStray/shim.h '#include <stdio.h>'
write Modules/AbovePipeline/Top/Top.swift 'import HTTPCore' '' 'struct Top {}'
manifest() {
    write Package.swift '// swift-tools-version: 6.2' 'import PackageDescription' '' \
        'let package = Package(' \
        '    name: "Tiers",' \
        '    targets: [' \
        '        .target(name: "HTTPCore", path: "Modules/HTTPCore"),' \
        '        .systemLibrary(name: "CGood", path: "Plugins/Shims/CGood"),' \
        "$@" \
        '        .target(name: "Beta", dependencies: ["HTTPCore"], path: "Plugins/Beta"),' \
        '        .target(name: "Top", dependencies: ["HTTPCore", "Beta"], path: "Modules/AbovePipeline/Top"),' \
        '    ]' \
        ')'
}
manifest \
    '        .systemLibrary(name: "CStray", path: "Plugins/CStray"),' \
    '        .target(name: "Alpha", dependencies: ["HTTPCore", "Beta", "CGood"], path: "Plugins/Alpha"),' \
    '        .target(name: "Gamma", dependencies: ["HTTPCore", "Top"], path: "Plugins/Gamma"),'
(cd "$work" && git init -q && git add -A)

output="$(cd "$work" && SCRATCH_PATH="$work/.build" scripts/check-format.sh 2>&1)" && fail "check-format passed a tree that breaks the tiers"
expect() { grep -qF -- "$1" <<<"$output" || fail "no error: $1"; }
expect 'Plugins/Alpha/Alpha.swift: plug-in imports Beta'
expect 'Plugins/Gamma/Gamma.swift: imports Top, of the above-pipeline tier'
expect 'Package.swift: plug-in Alpha depends on Beta (plug-in)'
expect 'Package.swift: Gamma depends on Top, of the above-pipeline tier'
expect 'Plugins/CStray: a C shim outside Plugins/Shims'
expect 'Package.swift: C shim CStray is at Plugins/CStray'
# Allowed edges stay allowed: a plug-in on its shim, an above-pipeline module on a plug-in.
grep -E 'imports CGood|on CGood \(|Top depends on Beta|Top\.swift' <<<"$output" && fail "an allowed dependency was reported"

# The same tree without the three faults passes.
(cd "$work" && git rm -rq --cached Plugins/CStray && rm -rf Plugins/CStray)
write Plugins/Alpha/Alpha.swift 'import HTTPCore' '' 'struct Alpha {}'
write Plugins/Gamma/Gamma.swift 'import HTTPCore' '' 'struct Gamma {}'
manifest \
    '        .target(name: "Alpha", dependencies: ["HTTPCore", "CGood"], path: "Plugins/Alpha"),' \
    '        .target(name: "Gamma", dependencies: ["HTTPCore"], path: "Plugins/Gamma"),'
(cd "$work" && git add -A)
clean="$(cd "$work" && SCRATCH_PATH="$work/.build" scripts/check-format.sh 2>&1)" ||
    fail "check-format failed the tree without faults: $(grep '^error' <<<"$clean")"

if [ "$failures" -gt 0 ]; then
    printf '%s\n' "--- check-format's output on the faulty tree:" "$output"
    echo "FAIL check-format-tiers ($failures)"
    exit 1
fi
echo "PASS check-format-tiers (a plug-in importing a plug-in, an import of the above-pipeline tier and a stray C shim are rejected)"
