// swift-tools-version: 6.2
// Side-by-side benchmarks: ASIKit against AsyncHTTPClient and URLSession (libcurl's bench is C, built by run.sh),
// and PAC evaluation against pacparser (pac.sh).
// Kept out of the root package so the library never depends on AsyncHTTPClient. Run `./run.sh`.
import PackageDescription

let package = Package(
    name: "ASIKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ASIKit", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        .executableTarget(
            name: "asikit-bench",
            dependencies: [
                .product(name: "HTTPCore", package: "ASIKit"),
                .product(name: "HTTPPipeline", package: "ASIKit"),
                .product(name: "SocketTransport", package: "ASIKit"),
                .product(name: "GzipCodec", package: "ASIKit"),
                .product(name: "BrotliCodec", package: "ASIKit"),
                .product(name: "ZstdCodec", package: "ASIKit"),
                .product(name: "DiskCache", package: "ASIKit"),
                .product(name: "ASIKitObservability", package: "ASIKit"),
                .product(name: "HTTP2", package: "ASIKit"),
            ]
        ),
        .executableTarget(
            name: "ahc-bench",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]
        ),
        // PAC evaluations per second (pac.sh runs it beside pacparser).
        .executableTarget(
            name: "pac-bench",
            dependencies: [
                .product(name: "HTTPCore", package: "ASIKit"),
                .product(name: "ProxyPAC", package: "ASIKit"),
            ]
        ),
        // Full Foundation only here: the library targets never link it.
        .executableTarget(name: "urlsession-bench"),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
