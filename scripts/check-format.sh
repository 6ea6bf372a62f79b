#!/usr/bin/env bash
# Cheap checks of the rules in STYLE.md that a compiler does not enforce. Prints one line per problem, then a
# PASS or FAIL line; exits non-zero on any error.
#
# Errors (fail):
#   - tabs, trailing whitespace, CR line endings, or a missing final newline in Swift, shell and Markdown files
#   - a Swift file over 600 lines (STYLE §2: past 600 needs a reason in review)
#   - full `import Foundation` in Modules/ or Plugins/ (library targets use FoundationEssentials only)
#   - the dependency rule (STYLE §1): HTTPCore depends on none of ours; HTTPPipeline only on HTTPCore; a plugin
#     only on HTTPCore and C shims, never on HTTPPipeline, HTTPTesting or another plugin (checked in the
#     manifest and in each plugin's imports)
#   - a committed `_Bootstrap.swift`
#   - swift-format's documentation and comment rules in Modules/ and Plugins/: AllPublicDeclarationsHaveDocumentation,
#     ValidateDocumentationComments, UseTripleSlashForDocumentationComments, NoBlockComments, OrderedImports
#     (only when swift-format is installed; the Swift 6 toolchain ships it). OrderedImports' "place imports at
#     the top of the file" is not enforced: it fires on every import after an `#if canImport(Glibc)` block.
# Warnings (reported, do not fail): lines over 120 columns, and how many other swift-format findings there are
# (run `swift format lint -r Modules Plugins Tests Examples` to see them).
#
# Usage: scripts/check-format.sh        (from anywhere inside the repository)
set -euo pipefail

cd "$(dirname "$0")/.."
errors=0
warnings=0
error() { printf 'error: %s\n' "$*"; errors=$((errors + 1)); }
warning() { printf 'warning: %s\n' "$*"; warnings=$((warnings + 1)); }

# Tracked files plus new ones not ignored, so the check also works before a commit.
mapfile -t files < <(git ls-files --cached --others --exclude-standard | sort -u | while read -r f; do
    [ -f "$f" ] && printf '%s\n' "$f"
done)
swift_files=()
text_files=()
for f in "${files[@]}"; do
    case "$f" in
        *.swift) swift_files+=("$f"); text_files+=("$f") ;;
        *.sh | *.md | .ci/run | .swift-format | .editorconfig | *.modulemap | *.h) text_files+=("$f") ;;
    esac
done

# ---------------------------------------------------------------- whitespace
for f in "${text_files[@]}"; do
    case "$f" in *.swift | *.sh | .ci/run)
        if grep -nP '\t' "$f" >/dev/null; then error "$f:$(grep -nP '\t' "$f" | head -1 | cut -d: -f1): tab character"; fi ;;
    esac
    if grep -nP '[ \t]+$' "$f" >/dev/null; then
        error "$f:$(grep -nP '[ \t]+$' "$f" | head -1 | cut -d: -f1): trailing whitespace"
    fi
    if grep -q $'\r' "$f"; then error "$f: CR line endings"; fi
    if [ -s "$f" ] && [ -n "$(tail -c 1 "$f")" ]; then error "$f: no newline at the end of the file"; fi
done

# ---------------------------------------------------------------- file size and line length
long_lines=0
long_files=()
for f in "${swift_files[@]}"; do
    lines=$(wc -l <"$f")
    if [ "$lines" -gt 600 ]; then error "$f: $lines lines (split it; STYLE allows 600 at most)"; fi
    long=$(awk 'length($0) > 120 { n++ } END { print n + 0 }' "$f")
    if [ "$long" -gt 0 ]; then long_lines=$((long_lines + long)) && long_files+=("$f"); fi
done
if [ "$long_lines" -gt 0 ]; then
    warning "$long_lines line(s) over 120 columns in ${#long_files[@]} file(s), e.g. ${long_files[*]:0:3}"
fi

# ---------------------------------------------------------------- bootstrap placeholders
for f in $(git ls-files '*_Bootstrap.swift'); do error "$f: placeholder committed (delete it once the target has files)"; done

# ---------------------------------------------------------------- imports in library targets
import_re='^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+((struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+)?'
for f in "${swift_files[@]}"; do
    case "$f" in Modules/* | Plugins/*) ;; *) continue ;; esac
    if grep -nE "${import_re}Foundation([.[:space:]]|$)" "$f" >/dev/null; then
        error "$f: imports Foundation; library targets may import FoundationEssentials only"
    fi
done

# Plugins: no HTTPPipeline, HTTPTesting, or another plugin (Swift targets in Plugins/ that are not C shims: a
# shim is a system library with a module.modulemap, or a C target with include/module.modulemap, like CDuktape).
plugins=()
for d in Plugins/*/; do
    d="${d%/}"
    [ -f "$d/module.modulemap" ] || [ -f "$d/include/module.modulemap" ] || plugins+=("${d#Plugins/}")
done
for plugin in "${plugins[@]}"; do
    forbidden=(HTTPPipeline HTTPTesting)
    for other in "${plugins[@]}"; do [ "$other" = "$plugin" ] || forbidden+=("$other"); done
    for f in "${swift_files[@]}"; do
        case "$f" in "Plugins/$plugin/"*) ;; *) continue ;; esac
        for module in "${forbidden[@]}"; do
            if grep -nE "${import_re}${module}([.[:space:]]|$)" "$f" >/dev/null; then
                error "$f: plugin $plugin imports $module (a plugin depends on HTTPCore and its own C shim only)"
            fi
        done
    done
done

# The same rule in the manifest.
if command -v swift >/dev/null && command -v python3 >/dev/null; then
    manifest_json="$(mktemp)"
    trap 'rm -f "$manifest_json"' EXIT
    if swift package --scratch-path "${SCRATCH_PATH:-.build}" dump-package >"$manifest_json" 2>/dev/null; then
        while IFS= read -r line; do error "Package.swift: $line"; done < <(python3 - "$manifest_json" <<'PY'
import json, os, sys
targets = json.load(open(sys.argv[1]))["targets"]
by_name = {t["name"]: t for t in targets}
def path(t):
    return t.get("path") or ""
def deps(t):
    for d in t["dependencies"]:
        for kind in ("byName", "target"):
            if kind in d and d[kind][0] in by_name:
                yield by_name[d[kind][0]]
for t in targets:
    p = path(t)
    # C shims: system libraries, and C targets with a module map (CDuktape, decision 0016).
    ours = [d for d in deps(t) if d["type"] != "system"
            and not os.path.exists(os.path.join(path(d), "include", "module.modulemap"))]
    if p.startswith("Modules/HTTPCore") and ours:
        print(f"HTTPCore depends on {', '.join(d['name'] for d in ours)}; it must depend on none of our targets")
    elif p.startswith("Modules/HTTPPipeline"):
        bad = [d["name"] for d in ours if d["name"] != "HTTPCore"]
        if bad: print(f"HTTPPipeline depends on {', '.join(bad)}; it may depend on HTTPCore only")
    elif p.startswith("Plugins/") and t["type"] == "regular":
        bad = [d["name"] for d in ours if d["name"] != "HTTPCore"]
        if bad: print(f"plugin {t['name']} depends on {', '.join(bad)}; a plugin depends on HTTPCore and C shims only")
PY
        )
    else
        warning "could not read Package.swift with 'swift package dump-package'; manifest rule not checked"
    fi
fi

# ---------------------------------------------------------------- swift-format rules
if command -v swift-format >/dev/null || swift format --version >/dev/null 2>&1; then
    lint=(swift format lint)
    command -v swift-format >/dev/null && lint=(swift-format lint)
    library_files=()
    for f in "${swift_files[@]}"; do case "$f" in Modules/* | Plugins/*) library_files+=("$f") ;; esac; done
    enforced='\[(AllPublicDeclarationsHaveDocumentation|ValidateDocumentationComments|UseTripleSlashForDocumentationComments|NoBlockComments|OrderedImports)\]'
    if [ ${#library_files[@]} -gt 0 ]; then
        findings="$("${lint[@]}" --parallel "${library_files[@]}" 2>&1 || true)"
        while IFS= read -r line; do
            [ -n "$line" ] && error "${line#*warning: }  (${line%%: warning:*})"
        done < <(grep -E "$enforced" <<<"$findings" | grep -v 'place imports at the top of the file' || true)
    fi
    all_findings="$("${lint[@]}" --parallel "${swift_files[@]}" 2>&1 || true)"
    other=$(grep -E 'warning: \[' <<<"$all_findings" | grep -cvE "$enforced" || true)
    if [ "$other" -gt 0 ]; then
        warning "$other other swift-format finding(s) (layout); see: swift format lint -r Modules Plugins Tests Examples"
    fi
else
    warning "swift-format not found; documentation rules not checked"
fi

# ---------------------------------------------------------------- verdict
echo "check-format: ${#swift_files[@]} Swift files, $errors error(s), $warnings warning(s)"
if [ "$errors" -gt 0 ]; then
    echo "FAIL check-format"
    exit 1
fi
echo "PASS check-format"
