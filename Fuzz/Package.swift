// swift-tools-version: 6.2
// libFuzzer targets for ASIKit's parsers. A separate package so the main build never sees fuzzer flags:
// build and run it with `scripts/fuzz.sh` (see Docs/Fuzzing.md). Targets use `@testable import`, which needs a
// debug build (SwiftPM compiles debug builds with -enable-testing).
import PackageDescription

/// One libFuzzer executable: `Sources/<name>/main.swift` hands its test function to `runLibFuzzer`.
///
/// SwiftPM renames an executable's entry point (`<name>_main`, aliased to `main` at link time) so the program's
/// own top-level code is what runs; libFuzzer's `main` is not used, the top-level code calls libFuzzer's driver.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies)
}

func asikit(_ product: String) -> Target.Dependency { .product(name: product, package: "ASIKit") }

let package = Package(
    name: "ASIKitFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "ASIKit", path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver", asikit("HTTPCore")]),
        fuzzTarget("FuzzHTTP1Response", [asikit("HTTPCore"), asikit("SocketTransport")]),
        fuzzTarget("FuzzGzip", [asikit("HTTPCore"), asikit("GzipCodec")]),
        fuzzTarget("FuzzSetCookie", [asikit("HTTPCore"), asikit("HTTPPipeline")]),
        fuzzTarget("FuzzCookieFile", [asikit("HTTPCore"), asikit("CookieFile")]),
        fuzzTarget("FuzzChallenge", [asikit("HTTPCore"), asikit("HTTPPipeline"), asikit("HTTPAuthentication")]),
        fuzzTarget("FuzzNTLM", [asikit("HTTPCore"), asikit("HTTPAuthentication")]),
        fuzzTarget("FuzzNetrc", [asikit("HTTPCore"), asikit("FileKeyring")]),
        fuzzTarget("FuzzKeyringFile", [asikit("HTTPCore"), asikit("FileKeyring")]),
        fuzzTarget("FuzzCacheHead", [asikit("HTTPCore"), asikit("DiskCache")]),
        fuzzTarget("FuzzWebPage", [asikit("WebPage")]),
        fuzzTarget("FuzzPACAnswer", [asikit("HTTPCore"), asikit("ProxyPAC")]),
        fuzzTarget("FuzzS3XML", [asikit("HTTPCore"), asikit("S3")]),
    ]
)
