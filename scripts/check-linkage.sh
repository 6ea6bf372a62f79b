#!/usr/bin/env bash
# Checks that executables built on ASIKit do not load full Foundation (libFoundation.so, or its Networking
# and XML parts); FoundationEssentials is fine (STYLE §1). Builds and checks:
#   - a probe executable, made here in a temporary package, that links only HTTPCore, HTTPPipeline,
#     SocketTransport, DiskCache, AmazonS3 (with the S3 plug-in, whose XML is libxml2's, not FoundationXML) and
#     CloudFiles (whose JSON is FoundationEssentials' JSONDecoder), and runs it once;
#   - the README's first Swift example, in a new package that depends on the ASIKit product only (built, not run);
#   - the README's blocking-and-async main.swift, in the same package, run against a local python3 http.server;
#   - the Tour and cloudfiles examples, and every other executable product named as an argument;
#   - Examples/OpenAPIClient, a separate package that depends on this one by path and on the ecosystem packages
#     the adapters adapt (a generated OpenAPI client through OpenAPIASIKit, with ASIKitObservability): built, not
#     run here (`.ci/run` runs it).
# It also enforces the adapter exception to the dependency rule (Docs/Architecture.md, decision 0018):
#   - in the manifest, a library target (Modules/, Plugins/) depends on no outside package but the core's own
#     (swift-http-types, swift-log), except an adapter on the ecosystem packages it adapts: OpenAPIASIKit on
#     swift-openapi-runtime, ASIKitObservability on swift-distributed-tracing and swift-metrics,
#     ASIKitServiceLifecycle on swift-service-lifecycle;
#   - in the binaries, the probe and the README example (which do not use the adapters) contain no code of those
#     packages, so apps that do not use the adapters never link them, while the OpenAPI example does.
# Prints what each binary loads, then a PASS or FAIL line; exits non-zero on failure.
#
# Usage: scripts/check-linkage.sh [PRODUCT...]
# Environment: SCRATCH_PATH (default .build), the build folder to use for the package's own products.
set -euo pipefail

cd "$(dirname "$0")/.."
repo="$(pwd)"
scratch="${SCRATCH_PATH:-.build}"
forbidden='lib(Foundation|FoundationNetworking|FoundationXML)\.so'
failures=0

check_binary() { # check_binary NAME PATH
    local name="$1" binary="$2" libraries
    if ! libraries="$(ldd "$binary" 2>&1)"; then
        echo "FAIL $name: ldd failed: $libraries"
        failures=$((failures + 1))
        return
    fi
    echo "== $name ($binary) loads:"
    awk '{ print "   " $1 }' <<<"$libraries" | sort
    if grep -Eq "$forbidden" <<<"$libraries"; then
        echo "FAIL $name loads full Foundation: $(grep -Eo "$forbidden" <<<"$libraries" | sort -u | tr '\n' ' ')"
        failures=$((failures + 1))
    else
        echo "ok   $name does not load libFoundation.so"
    fi
    if grep -Eq 'libFoundationInternationalization\.so|lib_FoundationICU\.so' <<<"$libraries"; then
        echo "note $name loads FoundationInternationalization/ICU (allowed, but large)"
    fi
}

# Swift symbol prefixes of the adapted ecosystem packages' modules (mangled module names).
ecosystem_symbols='\$s(14OpenAPIRuntime|7Tracing|15Instrumentation|20ServiceContextModule|11CoreMetrics|7Metrics|16ServiceLifecycle)'

# check_ecosystem NAME PATH EXPECTED: whether the binary contains code of the adapted packages ("yes" or "no").
check_ecosystem() {
    local name="$1" binary="$2" expected="$3" found
    found="$( (nm --defined-only "$binary" 2>/dev/null || true) | { grep -Eo "$ecosystem_symbols" || true; } \
        | sed -E 's/^[$]s[0-9]+//' | sort -u | tr '\n' ' ')"
    if [ "$expected" = no ] && [ -n "$found" ]; then
        echo "FAIL $name links adapted ecosystem packages it does not use: $found"
        failures=$((failures + 1))
    elif [ "$expected" = yes ] && [ -z "$found" ]; then
        echo "FAIL $name should contain the adapters' ecosystem packages (is the symbol check still right?)"
        failures=$((failures + 1))
    else
        echo "ok   $name ecosystem packages linked: ${found:-none}"
    fi
}

# ---------------------------------------------------------------- manifest: the adapter exception
echo "== the dependency rule's adapter exception (manifest)"
manifest_json="$(mktemp)"
if swift package --scratch-path "$scratch" dump-package >"$manifest_json" 2>/dev/null; then
    while IFS= read -r line; do
        echo "FAIL $line"
        failures=$((failures + 1))
    done < <(python3 - "$manifest_json" <<'PY'
import json, sys
core = {"swift-http-types", "swift-log"}
adapters = {
    "OpenAPIASIKit": {"swift-openapi-runtime"},
    "ASIKitObservability": {"swift-distributed-tracing", "swift-metrics"},
    "ASIKitServiceLifecycle": {"swift-service-lifecycle"},
}
for t in json.load(open(sys.argv[1]))["targets"]:
    path = t.get("path") or ""
    if t["type"] != "regular" or not (path.startswith("Modules/") or path.startswith("Plugins/")):
        continue
    allowed = core | adapters.get(t["name"], set())
    for d in t["dependencies"]:
        if "product" in d and d["product"][1] not in allowed:
            print(f"{t['name']} depends on {d['product'][0]} from {d['product'][1]}; a library target may use "
                  f"{', '.join(sorted(allowed))} only (decision 0018)")
PY
    )
    echo "ok   manifest checked"
else
    echo "FAIL could not read Package.swift with 'swift package dump-package'"
    failures=$((failures + 1))
fi
rm -f "$manifest_json"

# ---------------------------------------------------------------- probe: HTTPCore + HTTPPipeline + SocketTransport + DiskCache
probe="$(mktemp -d "${TMPDIR:-/tmp}/asikit-linkage.XXXXXX")"
server_pid=""
trap 'if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi; rm -rf "$probe"' EXIT
identity="$(basename "$repo")"
# write_probe_package DIR NAME PRODUCT...: a package at DIR with one executable NAME that depends on the products.
write_probe_package() {
    local directory="$1" name="$2" product dependencies=""
    shift 2
    for product in "$@"; do
        dependencies+="                .product(name: \"$product\", package: \"$identity\"),"$'\n'
    done
    mkdir -p "$directory/Sources/$name"
    cat >"$directory/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "$name",
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(
            name: "$name",
            dependencies: [
$dependencies            ]
        )
    ]
)
EOF
}
write_probe_package "$probe" LinkageProbe HTTPCore HTTPPipeline SocketTransport DiskCache S3 AmazonS3 CloudFiles
cat >"$probe/Sources/LinkageProbe/main.swift" <<'EOF'
import AmazonS3
import CloudFiles
import DiskCache
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import SocketTransport

// Uses every library so the linker keeps them: builds a client on the socket transport with a disk cache (which
// touches its directory only when a request uses it), sends a request when given a URL, and shuts down.
let client = Client(transport: .posix(), cache: .disk("/tmp/asikit-linkage-probe-cache"))
if CommandLine.arguments.count > 1, let url = URL(string: CommandLine.arguments[1]) {
    _ = try await client.send(Request(url: url))
}
try await client.shutdown()
// S3: a client that signs, and an XML answer parsed with libxml2.
let s3 = S3Client(transport: .posix(), endpoint: .aws(region: "us-east-1"),
                  credentials: AWSCredentials(accessKeyID: "probe", secretAccessKey: "probe"))
_ = S3ResponseParser.error(status: 404, body: Array("<Error><Code>NoSuchKey</Code></Error>".utf8))
try await s3.shutdown()
// CloudFiles: /info's JSON read with FoundationEssentials' JSONDecoder, and a temp URL signed with OpenSSL.
_ = try CloudFilesInfo(json: Array(#"{"swift": {"container_listing_limit": 10000}}"#.utf8))
_ = CloudFilesTempURL.signature(method: "GET", path: "/v1/AUTH_a/c/o", expires: 1, key: "probe")
print("linkage probe ran")
EOF
echo "== building the linkage probe (HTTPCore + HTTPPipeline + SocketTransport + DiskCache + AmazonS3 + CloudFiles)"
case "$scratch" in /*) probe_scratch="$scratch-linkage" ;; *) probe_scratch="$repo/$scratch-linkage" ;; esac
swift build --package-path "$probe" --scratch-path "$probe_scratch" --product LinkageProbe
probe_binary="$(swift build --package-path "$probe" --scratch-path "$probe_scratch" --show-bin-path)/LinkageProbe"
check_binary "LinkageProbe" "$probe_binary"
check_ecosystem "LinkageProbe" "$probe_binary" no
if ! "$probe_binary"; then
    echo "FAIL LinkageProbe did not run"
    failures=$((failures + 1))
fi

# ---------------------------------------------------------------- probe: the README's first example on ASIKit
# The README promises that its first Swift example compiles in a new package that depends on the ASIKit product
# only; this builds that example as it stands in README.md (it is not run: it talks to example.com).
readme_probe="$probe/readme"
write_probe_package "$readme_probe" ReadmeExample ASIKit
awk '/^```swift$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' README.md \
    >"$readme_probe/Sources/ReadmeExample/main.swift"
if ! grep -q '^import ASIKit$' "$readme_probe/Sources/ReadmeExample/main.swift"; then
    echo "FAIL the README's first Swift example does not import ASIKit"
    failures=$((failures + 1))
fi
echo "== building the README's first example against the ASIKit product"
readme_scratch="$probe_scratch-readme"
if swift build --package-path "$readme_probe" --scratch-path "$readme_scratch" --product ReadmeExample; then
    readme_binary="$(swift build --package-path "$readme_probe" --scratch-path "$readme_scratch" --show-bin-path)"
    check_binary "ReadmeExample" "$readme_binary/ReadmeExample"
    check_ecosystem "ReadmeExample" "$readme_binary/ReadmeExample" no
else
    echo "FAIL the README's first example does not compile against ASIKit"
    failures=$((failures + 1))
fi

# ---------------------------------------------------------------- probe: the README's blocking-and-async main.swift
# The README's "Blocking and async in one program" example, built on the ASIKit product in the same new package
# (a second executable) and run against a python3 http.server on a free port: it must print its blocking line and
# its async line and exit 0, not deadlock (a `Task { }` there would wait for the blocked main thread).
mixed_source="$readme_probe/Sources/MixedExample/main.swift"
mkdir -p "$(dirname "$mixed_source")"
awk '/^### Blocking and async in one program$/ { section = 1; next } section && /^```swift$/ { inside = 1; next }
    inside && /^```$/ { exit } inside { print }' README.md >"$mixed_source"
cat >>"$readme_probe/Package.swift" <<EOF
package.targets.append(
    .executableTarget(name: "MixedExample", dependencies: [.product(name: "ASIKit", package: "$identity")]))
EOF
echo "== building and running the README's blocking-and-async example against the ASIKit product"
if [ ! -s "$mixed_source" ]; then
    echo "FAIL README.md has no swift block under '### Blocking and async in one program'"
    failures=$((failures + 1))
elif swift build --package-path "$readme_probe" --scratch-path "$readme_scratch" --product MixedExample; then
    mixed_binary="$(swift build --package-path "$readme_probe" --scratch-path "$readme_scratch" --show-bin-path)"
    mixed_binary+="/MixedExample"
    check_binary "MixedExample" "$mixed_binary"
    server_log="$probe/http-server.log"
    python3 -u -m http.server --bind 127.0.0.1 0 --directory "$probe" >"$server_log" 2>&1 &
    server_pid=$!
    port=""
    for _ in $(seq 1 300); do
        port="$(sed -nE 's/.*port ([0-9]+).*/\1/p' "$server_log" | head -1)"
        [ -n "$port" ] && break
        sleep 0.1
    done
    mixed_status=0
    mixed_output="$(timeout 120 "$mixed_binary" "http://127.0.0.1:$port/" 2>&1)" || mixed_status=$?
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    sed 's/^/   /' <<<"$mixed_output"
    if [ "$mixed_status" != 0 ] || ! grep -q '^blocking: 200' <<<"$mixed_output" \
        || ! grep -q '^async: 200 200$' <<<"$mixed_output"; then
        echo "FAIL the README's blocking-and-async example did not run to its end (exit $mixed_status)"
        failures=$((failures + 1))
    else
        echo "ok   the README's blocking-and-async example ran"
    fi
else
    echo "FAIL the README's blocking-and-async example does not compile against ASIKit"
    failures=$((failures + 1))
fi

# ---------------------------------------------------------------- Examples/OpenAPIClient: a new package on the adapters
# Built in its own folder (.build-openapi-example by default); `.ci/run` runs the binary afterwards.
case "$scratch" in /*) example_scratch="$scratch-openapi-example" ;; *) example_scratch="$repo/$scratch-openapi-example" ;; esac
echo "== building Examples/OpenAPIClient (ASIKit, OpenAPIASIKit and ASIKitObservability from a new package)"
if swift build --package-path Examples/OpenAPIClient --scratch-path "$example_scratch" --product OpenAPIClient; then
    example_binary="$(swift build --package-path Examples/OpenAPIClient --scratch-path "$example_scratch" \
        --show-bin-path)/OpenAPIClient"
    check_binary "OpenAPIClient" "$example_binary"
    check_ecosystem "OpenAPIClient" "$example_binary" yes
else
    echo "FAIL Examples/OpenAPIClient does not build"
    failures=$((failures + 1))
fi

# ---------------------------------------------------------------- the package's own executables
products=(Tour cloudfiles "$@")
for product in "${products[@]}"; do
    echo "== building $product"
    if ! swift build --scratch-path "$scratch" --product "$product"; then
        echo "FAIL $product did not build"
        failures=$((failures + 1))
        continue
    fi
    check_binary "$product" "$(swift build --scratch-path "$scratch" --show-bin-path)/$product"
done

if [ "$failures" -gt 0 ]; then
    echo "FAIL check-linkage: $failures problem(s)"
    exit 1
fi
echo "PASS check-linkage: $((${#products[@]} + 4)) executable(s) without libFoundation.so; adapters linked only where used"
