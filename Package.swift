// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ASIKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ASIKit", targets: ["ASIKit"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "HTTPPipeline", targets: ["HTTPPipeline"]),
        .library(name: "HTTPTesting", targets: ["HTTPTesting"]),
        .library(name: "SocketTransport", targets: ["SocketTransport"]),
        .library(name: "GzipCodec", targets: ["GzipCodec"]),
        .library(name: "BrotliCodec", targets: ["BrotliCodec"]),
        .library(name: "ZstdCodec", targets: ["ZstdCodec"]),
        .library(name: "FileKeyring", targets: ["FileKeyring"]),
        .library(name: "Throttle", targets: ["Throttle"]),
        .library(name: "TerminalProgress", targets: ["TerminalProgress"]),
        .library(name: "PublicSuffix", targets: ["PublicSuffix"]),
        .library(name: "CookieFile", targets: ["CookieFile"]),
        .library(name: "HSTSFile", targets: ["HSTSFile"]),
        .library(name: "HTTPAuthentication", targets: ["HTTPAuthentication"]),
        .library(name: "DiskCache", targets: ["DiskCache"]),
        .library(name: "ProxyPAC", targets: ["ProxyPAC"]),
        .library(name: "S3", targets: ["S3"]),
        .library(name: "AmazonS3", targets: ["AmazonS3"]),
        .library(name: "WebPage", targets: ["WebPage"]),
        .library(name: "WebPageArchiving", targets: ["WebPageArchiving"]),
        .library(name: "CloudFiles", targets: ["CloudFiles"]),
        .library(name: "HTTP2", targets: ["HTTP2"]),
        // Ecosystem adapters (issue 20): each links its ecosystem package only into the apps that use it.
        .library(name: "OpenAPIASIKit", targets: ["OpenAPIASIKit"]),
        .library(name: "ASIKitObservability", targets: ["ASIKitObservability"]),
        .library(name: "ASIKitServiceLifecycle", targets: ["ASIKitServiceLifecycle"]),
        .executable(name: "Tour", targets: ["Tour"]),
        .executable(name: "asi", targets: ["ASICommand"]),
        .executable(name: "cloudfiles", targets: ["CloudFilesCommand"]),
        .executable(name: "CustomAdapters", targets: ["CustomAdapters"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Adapted by OpenAPIASIKit and ASIKitObservability only (decision 0018). The runtime's default trait
        // FullFoundation is left off, so it builds on FoundationEssentials.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4", traits: []),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // Adapted by ASIKitServiceLifecycle only (decision 0033): a Client as a swift-service-lifecycle Service.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // Core: plug-in protocols and value types. Depends on nothing of ours.
        .target(
            name: "HTTPCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Modules/HTTPCore"
        ),
        // Composition root and the request pipeline (redirects, cookies, auth, cache hooks, retry).
        .target(name: "HTTPPipeline", dependencies: ["HTTPCore"], path: "Modules/HTTPPipeline"),
        // Fakes, conformance suites and the loopback test server.
        .target(name: "HTTPTesting", dependencies: ["HTTPCore"], path: "Modules/HTTPTesting"),

        // Plugins: each depends on HTTPCore and its own C shim only.
        .systemLibrary(
            name: "COpenSSL",
            path: "Plugins/Shims/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(name: "CLinuxSystem", path: "Plugins/Shims/CLinuxSystem"),
        .target(
            name: "SocketTransport",
            dependencies: ["HTTPCore", "COpenSSL", "CLinuxSystem"],
            path: "Plugins/SocketTransport"
        ),
        .systemLibrary(
            name: "CZlib", path: "Plugins/Shims/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "GzipCodec", dependencies: ["HTTPCore", "CZlib"], path: "Plugins/GzipCodec"),
        // br and zstd decoding. Opened with dlopen (decision 0024): the runtime libbrotli1 and libzstd1 are on a fresh
        // machine, their -dev packages are not, so nothing links them or reads their headers.
        .systemLibrary(name: "CBrotli", path: "Plugins/Shims/CBrotli", providers: [.apt(["libbrotli1"])]),
        .target(name: "BrotliCodec", dependencies: ["HTTPCore", "CBrotli"], path: "Plugins/BrotliCodec"),
        .systemLibrary(name: "CZstd", path: "Plugins/Shims/CZstd", providers: [.apt(["libzstd1"])]),
        .target(name: "ZstdCodec", dependencies: ["HTTPCore", "CZstd"], path: "Plugins/ZstdCodec"),
        // An encrypted credential file (ASIHTTPRequest's Keychain on Linux) and a read-only .netrc source.
        .target(name: "FileKeyring", dependencies: ["HTTPCore", "COpenSSL"], path: "Plugins/FileKeyring"),
        // Bandwidth throttling: a `BandwidthLimiter` with ASIHTTPRequest's shared budget (issue 14).
        .target(name: "Throttle", dependencies: ["HTTPCore"], path: "Plugins/Throttle"),
        // A progress bar on a terminal (a `ProgressSink`): ASIHTTPRequest's progress delegate for command-line tools.
        .target(name: "TerminalProgress", dependencies: ["HTTPCore"], path: "Plugins/TerminalProgress"),
        .systemLibrary(
            // Opened with dlopen (decision 0023): the runtime libpsl5 is on every Debian machine, libpsl-dev is not.
            name: "CLibPSL", path: "Plugins/Shims/CLibPSL", providers: [.apt(["libpsl5"])]
        ),
        .target(name: "PublicSuffix", dependencies: ["HTTPCore", "CLibPSL"], path: "Plugins/PublicSuffix"),
        .target(
            name: "CookieFile",
            dependencies: ["HTTPCore", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/CookieFile"
        ),
        // An HSTSStore in curl's HSTS cache file (`curl --hsts FILE`), written atomically as CookieFile writes its jar.
        .target(name: "HSTSFile", dependencies: ["HTTPCore"], path: "Plugins/HSTSFile"),
        // Digest (RFC 7616) and NTLMv2 (MS-NLMP) authenticators; hashes from OpenSSL, MD4 written out.
        .target(name: "HTTPAuthentication", dependencies: ["HTTPCore", "COpenSSL"], path: "Plugins/HTTPAuthentication"),
        // HTTP/2 on nghttp2 (issue 31, decision 0031): a MultiplexedProtocol the transport speaks on the connections
        // it opens. Needs libnghttp2-dev to build (the runtime libnghttp2-14 is on a fresh machine); not in the
        // umbrella, so only apps that use it need the package.
        .systemLibrary(
            name: "CNGHTTP2", path: "Plugins/Shims/CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]
        ),
        .target(name: "HTTP2", dependencies: ["HTTPCore", "CNGHTTP2"], path: "Plugins/HTTP2"),
        .target(name: "DiskCache", dependencies: ["HTTPCore", "COpenSSL"], path: "Plugins/DiskCache"),
        // Proxy auto-config: PAC files evaluated in Duktape, compiled from Debian's duktape-dev sources with an
        // execution-time limit (decision 0016).
        .target(name: "CDuktape", path: "Plugins/Shims/CDuktape", cSettings: [.define("_GNU_SOURCE")]),
        .target(name: "ProxyPAC", dependencies: ["HTTPCore", "CDuktape"], path: "Plugins/ProxyPAC"),
        // Amazon S3 (issue 17): SigV4 signing, S3 requests and XML (libxml2). AmazonS3 runs them through a Client.
        .systemLibrary(
            // Opened with dlopen (decision 0021): no pkg-config, so nothing links libxml2 or reads its headers.
            name: "CLibXML2", path: "Plugins/Shims/CLibXML2", providers: [.apt(["libxml2"])]
        ),
        .target(name: "S3", dependencies: ["HTTPCore", "COpenSSL", "CLibXML2"], path: "Plugins/S3"),
        .target(
            name: "AmazonS3", dependencies: ["HTTPCore", "HTTPPipeline", "S3"], path: "Modules/AbovePipeline/AmazonS3"),
        // A web page and everything it needs, saved for offline use (issue 29, ASIWebPageRequest's heir; decision
        // 0025): WebPage finds and rewrites references at byte offsets; WebPageArchiving fetches them through a Client.
        .target(name: "WebPage", dependencies: ["HTTPCore"], path: "Plugins/WebPage"),
        .target(
            name: "WebPageArchiving", dependencies: ["HTTPCore", "HTTPPipeline", "WebPage"],
            path: "Modules/AbovePipeline/WebPageArchiving"),
        // OpenStack Swift / Rackspace Cloud Files (issue 30): above the pipeline like AmazonS3; temp URL HMACs and
        // segment MD5s from OpenSSL through the COpenSSL shim (decision 0026).
        .target(
            name: "CloudFiles", dependencies: ["HTTPCore", "HTTPPipeline", "COpenSSL"],
            path: "Modules/AbovePipeline/CloudFiles"),

        // Ecosystem adapters (decision 0018). OpenAPIASIKit sits above the pipeline, like the umbrella: it adapts a
        // `Client` to swift-openapi-runtime's `ClientTransport`. ASIKitObservability is a plugin (a `Middleware`)
        // that may also depend on the ecosystem packages it adapts, swift-distributed-tracing and swift-metrics.
        .target(
            name: "OpenAPIASIKit",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "SocketTransport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Modules/AbovePipeline/OpenAPIASIKit"
        ),
        .target(
            name: "ASIKitObservability",
            dependencies: [
                "HTTPCore",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Plugins/ASIKitObservability"
        ),

        // A Client as a swift-service-lifecycle `Service` (decision 0033): above the pipeline, like OpenAPIASIKit, so
        // only the apps that run their clients in a ServiceGroup link the package.
        .target(
            name: "ASIKitServiceLifecycle",
            dependencies: [
                "HTTPCore", "HTTPPipeline",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Modules/AbovePipeline/ASIKitServiceLifecycle"
        ),

        // The umbrella: re-exports the everyday stack for apps that want one import (decision 0007).
        .target(
            name: "ASIKit",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "SocketTransport", "GzipCodec", "BrotliCodec", "ZstdCodec",
                "HTTPAuthentication", "Throttle", "PublicSuffix", "TerminalProgress",
            ],
            path: "Modules/AbovePipeline/ASIKit"
        ),

        // Examples.
        .executableTarget(
            name: "Tour",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "SocketTransport", "GzipCodec", "HTTPTesting", "TerminalProgress",
            ],
            path: "Examples/Tour"
        ),
        .executableTarget(
            name: "CustomAdapters",
            dependencies: ["HTTPCore", "HTTPPipeline", "SocketTransport", "HTTPTesting"],
            path: "Examples/CustomAdapters"
        ),
        .executableTarget(
            name: "ASICommand",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "SocketTransport", "GzipCodec", "BrotliCodec", "ZstdCodec",
                "HTTPAuthentication", "FileKeyring", "Throttle", "PublicSuffix", "CookieFile", "DiskCache", "ProxyPAC",
                "S3", "HSTSFile", "WebPage", "WebPageArchiving", "TerminalProgress", "HTTP2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/asi",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "CloudFilesCommand",
            dependencies: [
                "HTTPCore", "SocketTransport", "CloudFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/cloudfiles"
        ),

        // Tests.
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore", "HTTPTesting"], path: "Tests/HTTPCoreTests"),
        .testTarget(
            name: "HTTPPipelineTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting", "TerminalProgress"],
            path: "Tests/HTTPPipelineTests"
        ),
        .testTarget(
            name: "TerminalProgressTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting", "TerminalProgress"],
            path: "Tests/TerminalProgressTests"
        ),
        .testTarget(
            name: "HTTPTestingTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting"],
            path: "Tests/HTTPTestingTests"
        ),
        .testTarget(
            name: "SocketTransportTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "GzipCodec", "TestSupport"],
            path: "Tests/SocketTransportTests"
        ),
        // Full-stack tests against real peers (nginx, httpbin) and the loopback server.
        .testTarget(
            name: "InteropTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "GzipCodec", "BrotliCodec", "ZstdCodec",
                "HTTPAuthentication", "TestSupport", "CodecTestSupport",
            ],
            path: "Tests/InteropTests"
        ),
        // The `asi` executable, run as a child process against the loopback server and real peers.
        .testTarget(
            name: "ASICommandTests",
            dependencies: [
                "HTTPCore", "HTTPTesting", "GzipCodec", "TestSupport", "CodecTestSupport", "ASICommand", "DiskCache",
                "WebPage",
            ],
            path: "Tests/ASICommandTests"
        ),
        // The `cloudfiles` executable and python-swiftclient, side by side against a real OpenStack Swift.
        .testTarget(
            name: "CloudFilesCommandTests",
            dependencies: ["TestSupport", "CloudFilesCommand"],
            path: "Tests/CloudFilesCommandTests"
        ),
        // Helpers the test targets share, in folders by role: the peer harness and the real peers it starts on
        // free ports, the scripted servers, ports, certificates, temporary files, the impaired link, and the
        // transport helpers. HTTPCore only, so a test target that needs a peer or a scratch directory does not
        // link the pipeline, the transport or a codec. Not a product.
        .target(
            name: "TestSupport",
            dependencies: ["HTTPCore", "CSpawnActions", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport"
        ),
        // The helpers that need a codec of the library's own (gzip and gunzip by GzipCodec), for the asi and
        // data-path interop tests. Not a product.
        .target(
            name: "CodecTestSupport",
            dependencies: ["HTTPCore", "GzipCodec", "TestSupport"],
            path: "Tests/CodecTestSupport"
        ),
        .testTarget(
            name: "GzipCodecTests", dependencies: ["HTTPCore", "GzipCodec", "TestSupport"],
            path: "Tests/GzipCodecTests"),
        .testTarget(
            name: "BrotliCodecTests", dependencies: ["HTTPCore", "BrotliCodec", "TestSupport"],
            path: "Tests/BrotliCodecTests"),
        .testTarget(
            name: "ZstdCodecTests", dependencies: ["HTTPCore", "ZstdCodec", "TestSupport"],
            path: "Tests/ZstdCodecTests"),
        .testTarget(
            name: "FileKeyringTests",
            dependencies: ["HTTPCore", "HTTPTesting", "FileKeyring", "TestSupport", "KeyringWriter"],
            path: "Tests/FileKeyringTests"
        ),
        // The request budget tests: a child process that counts what each request allocates (CAllocationCounter
        // replaces malloc and swift_task_alloc in the process that links it, so only RequestBudget links it).
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        // glibc's `posix_spawn_file_actions_addclosefrom_np` for TestSupport's spawns: peers inherit no test socket.
        .target(name: "CSpawnActions", path: "Tests/CSpawnActions"),
        .executableTarget(
            name: "RequestBudget",
            dependencies: ["CAllocationCounter", "HTTPCore", "HTTPPipeline", "SocketTransport"],
            path: "Tests/RequestBudget"),
        // RequestBudget's twin for HTTP/2 (cleartext with prior knowledge), run by HTTP2Tests' budget tests.
        .executableTarget(
            name: "HTTP2RequestBudget",
            dependencies: ["CAllocationCounter", "HTTPCore", "HTTPPipeline", "SocketTransport", "HTTP2"],
            path: "Tests/HTTP2RequestBudget"),
        // Not a dependency on RequestBudget: a test target links the code of the executables it depends on, and
        // CAllocationCounter's malloc would then replace the test process's own (and break AddressSanitizer's).
        // `swift test` builds every executable anyway; the tests run the one beside them.
        .testTarget(
            name: "BudgetTests", dependencies: ["HTTPCore", "TestSupport"],
            path: "Tests/BudgetTests"),
        // A child process for the keyring's kill -9 and two-writer tests.
        .executableTarget(
            name: "KeyringWriter", dependencies: ["HTTPCore", "FileKeyring"], path: "Tests/KeyringWriter"),
        // The userspace link between two network namespaces that the impaired-link tests drive (decision 0029):
        // C, because TUNSETIFF and SIOCSIF* are variadic ioctls.
        .executableTarget(name: "ImpairedLink", path: "Tests/ImpairedLink"),
        // The soak (scripts/soak.sh): mixed traffic through one Client for minutes, sampling RSS, descriptors,
        // threads and requests in flight.
        .executableTarget(
            name: "ASISoak",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "SocketTransport", "GzipCodec", "DiskCache", "Throttle", "TestSupport",
            ],
            path: "Tests/Soak"
        ),
        // asi and curl over a link with delay, loss, reordering, duplication, corruption, a bandwidth cap, a
        // blackhole and MTU changes, against nginx and the loopback server in network namespaces.
        .testTarget(
            name: "ImpairedLinkTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "TestSupport"],
            path: "Tests/ImpairedLinkTests"
        ),
        .testTarget(
            name: "ThrottleTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "Throttle", "TestSupport",
                "ThrottleTestSupport",
            ],
            path: "Tests/ThrottleTests"
        ),
        // What the throttle's tests over HTTP/1.1 and over HTTP/2 share: a limiter that records its grants.
        .target(
            name: "ThrottleTestSupport",
            dependencies: ["HTTPCore", "Throttle"],
            path: "Tests/ThrottleTestSupport"
        ),
        .testTarget(
            name: "PublicSuffixTests",
            dependencies: ["ASIKit", "HTTPCore", "HTTPPipeline", "PublicSuffix"],
            path: "Tests/PublicSuffixTests"
        ),
        .testTarget(
            name: "CookieFileTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "CookieFile", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/CookieFileTests"
        ),
        .testTarget(
            name: "HSTSFileTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting", "HSTSFile", "SocketTransport", "TestSupport"],
            path: "Tests/HSTSFileTests"
        ),
        .testTarget(
            name: "HTTPAuthenticationTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting", "HTTPAuthentication"],
            path: "Tests/HTTPAuthenticationTests"
        ),
        .testTarget(
            name: "OpenAPIASIKitTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "OpenAPIASIKit", "TestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/OpenAPIASIKitTests"
        ),
        .testTarget(
            name: "ASIKitServiceLifecycleTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "ASIKitServiceLifecycle",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ASIKitServiceLifecycleTests"
        ),
        .testTarget(
            name: "ASIKitObservabilityTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "OpenAPIASIKit", "ASIKitObservability",
                "TestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/ASIKitObservabilityTests"
        ),
        .testTarget(
            name: "DiskCacheTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "DiskCache", "GzipCodec", "TestSupport",
            ],
            path: "Tests/DiskCacheTests"
        ),
        .testTarget(
            name: "ProxyPACTests",
            dependencies: [
                "HTTPCore", "HTTPTesting", "SocketTransport", "ProxyPAC", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ProxyPACTests",
            exclude: ["Corpus"]
        ),
        .testTarget(
            name: "WebPageTests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "WebPage", "WebPageArchiving",
                "TestSupport",
            ],
            path: "Tests/WebPageTests"
        ),
        .testTarget(
            name: "S3Tests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "S3", "AmazonS3", "TestSupport",
            ],
            path: "Tests/S3Tests"
        ),
        // Against a real OpenStack Swift (Debian's packages, tempauth) and python-swiftclient; Keystone v3 and
        // Rackspace identity against the loopback server.
        // The HTTP2 plug-in against nginx, nghttpd and a scripted h2 server (python's h2).
        .testTarget(
            name: "HTTP2Tests",
            dependencies: [
                "HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "HTTP2", "HTTPAuthentication", "Throttle",
                "TestSupport", "ThrottleTestSupport",
            ],
            path: "Tests/HTTP2Tests"
        ),
        .testTarget(
            name: "CloudFilesTests",
            dependencies: ["HTTPCore", "HTTPPipeline", "HTTPTesting", "SocketTransport", "CloudFiles", "TestSupport"],
            path: "Tests/CloudFilesTests"
        ),
    ]
)

// Settings shared by every Swift target (STYLE.md §5).
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
