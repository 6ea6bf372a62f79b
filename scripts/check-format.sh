#!/usr/bin/env bash
# Cheap checks of the rules in STYLE.md that a compiler does not enforce. Prints one line per problem, then a
# PASS or FAIL line; exits non-zero on any error.
#
# Errors (fail):
#   - tabs, trailing whitespace, CR line endings, or a missing final newline in Swift, shell and Markdown files
#   - a Swift file over 600 lines (STYLE §2: past 600 needs a reason in review)
#   - full `import Foundation` in Modules/ or Plugins/ (library targets use FoundationEssentials only)
#   - the tiers and the dependency rule (STYLE §1, decision 0033; the table is below, at "The tiers"): HTTPCore
#     depends on none of ours; HTTPPipeline only on HTTPCore; a plugin only on HTTPCore and C shims, never on
#     HTTPPipeline, HTTPTesting or another plugin; nothing depends on the above-pipeline tier; C shims live in
#     Plugins/Shims (checked in the manifest and in every library target's imports)
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

# The tiers (Docs/Architecture.md "The tiers"; decision 0033), by folder:
#   core            Modules/HTTPCore                 imports none of our modules
#   pipeline        Modules/HTTPPipeline             HTTPCore
#   testing         Modules/HTTPTesting              HTTPCore (so a plug-in's tests do not link the pipeline)
#   plug-in         Plugins/<Name>                   HTTPCore and C shims; never HTTPPipeline, HTTPTesting or
#                                                    another plug-in (two plug-ins meet at a protocol in HTTPCore)
#   C shim          Plugins/Shims/C<Lib>             a module map (or a C target with include/module.modulemap)
#   above-pipeline  Modules/AbovePipeline/<Name>     core, pipeline, plug-ins and shims; not HTTPTesting
# Nothing in Modules/ or Plugins/ imports the above-pipeline tier, not even another module of that tier: only
# apps, Examples/ and Tests/ do. A C shim anywhere but Plugins/Shims, or a folder of Modules/ that is in no tier,
# is an error too.
is_shim() { [ -f "$1/module.modulemap" ] || [ -f "$1/include/module.modulemap" ]; }
plugins=() shims=() above=()
for d in Plugins/*/; do
    d="${d%/}"
    [ "$d" = Plugins/Shims ] && continue
    if is_shim "$d"; then error "$d: a C shim outside Plugins/Shims (move it to Plugins/Shims/${d#Plugins/})"; continue; fi
    [ -n "$(git ls-files "$d")" ] && plugins+=("${d#Plugins/}")
done
for d in Plugins/Shims/*/; do d="${d%/}"; shims+=("${d#Plugins/Shims/}"); done
for d in Modules/AbovePipeline/*/; do d="${d%/}"; [ -n "$(git ls-files "$d")" ] && above+=("${d#Modules/AbovePipeline/}"); done
for d in Modules/*/; do
    case "${d%/}" in Modules/HTTPCore | Modules/HTTPPipeline | Modules/HTTPTesting | Modules/AbovePipeline) ;; *)
        [ -n "$(git ls-files "$d")" ] && error "${d%/}: in no tier (core, pipeline, testing, or Modules/AbovePipeline/)" ;;
    esac
done
ours=(HTTPCore HTTPPipeline HTTPTesting "${plugins[@]}" "${shims[@]}" "${above[@]}")

module_re='import[[:space:]]+((struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)'
declare -A is_ours=() is_above=()
for module in "${ours[@]}"; do is_ours[$module]=1; done
for module in "${above[@]}"; do is_above[$module]=1; done
# check_imports FOLDER TIER ALLOWED...: every import of one of our modules in FOLDER's Swift files is ALLOWED
# (one grep per folder: every import line, then its module name).
check_imports() {
    local folder="$1" tier="$2" list f line module
    shift 2
    local -A allowed=()
    for module in "$@"; do allowed[$module]=1; done
    list="$(printf '%s, ' "$@")" && list="${list%, }"
    local -a mine=()
    for f in "${swift_files[@]}"; do case "$f" in "$folder/"*) mine+=("$f") ;; esac; done
    [ ${#mine[@]} -gt 0 ] || return 0
    while IFS= read -r line; do
        f="${line%%:*}"
        [[ "${line#*:}" =~ $module_re ]] || continue
        module="${BASH_REMATCH[3]}"
        [ -n "${is_ours[$module]:-}" ] || continue
        [ -n "${allowed[$module]:-}" ] && continue
        [ "${folder##*/}" = "$module" ] && continue
        if [ -n "${is_above[$module]:-}" ]; then
            error "$f: imports $module, of the above-pipeline tier (only apps, examples and tests may)"
        else
            error "$f: $tier imports $module (a $tier may import ${list:-none of our modules})"
        fi
    done < <(grep -HE "${import_re}[A-Za-z_]" "${mine[@]}" || true)
}
check_imports Modules/HTTPCore core
check_imports Modules/HTTPPipeline pipeline HTTPCore
check_imports Modules/HTTPTesting testing HTTPCore
for plugin in "${plugins[@]}"; do check_imports "Plugins/$plugin" plug-in HTTPCore "${shims[@]}"; done
for module in "${above[@]}"; do
    check_imports "Modules/AbovePipeline/$module" "above-pipeline module" HTTPCore HTTPPipeline "${plugins[@]}" "${shims[@]}"
done

# The same rules in the manifest.
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
def shim(t):
    return t["type"] == "system" or os.path.exists(os.path.join(path(t), "include", "module.modulemap"))
def tier(t):
    p = path(t)
    if shim(t):
        return "C shim"
    if p == "Modules/HTTPCore": return "core"
    if p == "Modules/HTTPPipeline": return "pipeline"
    if p == "Modules/HTTPTesting": return "testing"
    if p.startswith("Modules/AbovePipeline/"): return "above-pipeline"
    if p.startswith("Plugins/") and not p.startswith("Plugins/Shims/"): return "plug-in"
    if p.startswith("Modules/") or p.startswith("Plugins/"): return "none"
    return None  # examples, tests, benchmarks: may depend on anything
allowed = {
    "core": set(), "pipeline": {"core"}, "testing": {"core"}, "plug-in": {"core", "C shim"},
    "above-pipeline": {"core", "pipeline", "plug-in", "C shim"}, "C shim": set(),
}
def deps(t):
    for d in t["dependencies"]:
        for kind in ("byName", "target"):
            if kind in d and d[kind][0] in by_name:
                yield by_name[d[kind][0]]
for t in targets:
    mine = tier(t)
    if mine is None:
        continue
    if shim(t) and not path(t).startswith("Plugins/Shims/"):
        print(f"C shim {t['name']} is at {path(t)}; C shims live in Plugins/Shims")
        continue
    if mine == "none":
        print(f"{t['name']} ({path(t)}) is in no tier: core, pipeline, testing, Plugins/, Plugins/Shims/ or Modules/AbovePipeline/")
        continue
    for d in deps(t):
        theirs = tier(d)
        if theirs == "above-pipeline":
            print(f"{t['name']} depends on {d['name']}, of the above-pipeline tier; only apps, examples and tests may")
        elif theirs not in allowed[mine]:
            print(f"{mine} {t['name']} depends on {d['name']} ({theirs}); a {mine} may depend on "
                  + (", ".join(sorted(allowed[mine])) or "none of our targets"))
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
    enforced='\[(AllPublicDeclarationsHaveDocumentation|ValidateDocumentationComments|UseTripleSlashForDocumentationComments|NoBlockComments|OrderedImports)\]'
    # One lint over every file: the enforced rules are read from the library files' lines of the same output.
    all_findings="$("${lint[@]}" --parallel "${swift_files[@]}" 2>&1 || true)"
    while IFS= read -r line; do
        [ -n "$line" ] && error "${line#*warning: }  (${line%%: warning:*})"
    done < <(grep -E '^(Modules|Plugins)/' <<<"$all_findings" | grep -E "$enforced" |
        grep -v 'place imports at the top of the file' || true)
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
