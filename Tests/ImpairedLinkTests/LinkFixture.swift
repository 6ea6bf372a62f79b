import FoundationEssentials
import Glibc
import HTTPCore
import HTTPPipeline
import SocketTransport
import Testing
import TestSupport

/// What every impaired-link test shares: the programs it runs, the bodies it serves and a scratch directory.
enum LinkFixture {
    /// The `asi` binary beside the test executable.
    static let asi = siblingExecutable("asi")
    /// curl, run beside asi in every case.
    static let curl = ChildProcess.find("curl") ?? "/usr/bin/curl"

    /// Why the suites skip, shown by swift-testing: the helper's own reason.
    static var skipReason: Comment {
        Comment(
            rawValue: "impaired-link tests skipped: "
                + (ImpairedLink.unavailableReason ?? (NginxPeer.executable == nil ? "nginx is not installed" : "")))
    }

    /// Whether the suites run: namespaces and TUN devices work, and nginx is installed.
    static var canRun: Bool { ImpairedLink.isAvailable && NginxPeer.executable != nil }

    /// `count` bytes that do not compress (nginx sends them as they are), the same on every run.
    static func body(_ count: Int, seed: UInt64 = 0x33) -> [UInt8] {
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return bytes
    }

    /// A plain URL on the link's nginx.
    static func url(_ path: String) -> String { "http://\(ImpairedLink.serverAddress)\(path)" }

    /// An HTTPS URL on the link's nginx, addressed as `localhost` (the certificate's name) with `--resolve`.
    static func tlsURL(_ path: String) -> String { "https://localhost\(path)" }

    /// `--resolve` and `--cacert` for ``tlsURL(_:)``; asi and curl spell them the same.
    static func tlsArguments(_ nginx: LinkNginx) -> [String] {
        ["--resolve", "localhost:443:\(ImpairedLink.serverAddress)", "--cacert", nginx.certificates.caPath]
    }

    /// Runs asi, then curl, with the same arguments in the client namespace; each writes to its own `-o` file.
    /// - Returns: Each program's run and the bytes it saved.
    static func both(
        _ link: ImpairedLink, _ arguments: [String], in directory: String, limit: Duration = .seconds(120)
    ) async throws -> [(name: String, run: LinkCommand, saved: [UInt8])] {
        var results: [(name: String, run: LinkCommand, saved: [UInt8])] = []
        for (name, program) in [("asi", asi), ("curl", curl)] {
            let output = directory + "/\(name).out"
            let run = try await LinkCommand.run(
                link.launcher(.client) + [program, "-s", "-S", "-o", output] + arguments, limit: limit)
            let saved = FileManager.default.contents(atPath: output).map(Array.init) ?? []
            results.append((name, run, saved))
        }
        return results
    }
}

extension LinkFixture {
    /// A transport whose loop thread (one, the default) lives in the client namespace of `link`.
    static func clientSideTransport(
        _ link: ImpairedLink, configuration: POSIXTransport.Configuration = POSIXTransport.Configuration()
    ) throws -> POSIXTransport {
        try link.on(.client) {
            let transport = POSIXTransport(configuration: configuration)
            _ = transport.taskExecutor  // starts the loop thread here, in the client namespace
            return transport
        }
    }

    /// Sends `request` on the transport's loop thread, after checking that the thread is in `namespace` (from the
    /// host's namespace 10.33.0.1 could be routed off the machine, so nothing is sent then).
    static func send(_ request: Request, _ client: Client, _ transport: POSIXTransport, namespace: String?)
        async throws -> ClientResponse
    {
        try await withTaskExecutorPreference(transport.taskExecutor) {
            let here = currentThreadNamespace()
            try #require(namespace != nil && here == namespace, "the request would leave from \(here ?? "?")")
            return try await client.send(request)
        }
    }
}

extension Duration {
    /// Seconds as a `Double`, for messages.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
