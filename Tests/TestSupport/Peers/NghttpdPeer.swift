package import FoundationEssentials
import Glibc

/// A real `nghttpd` (Debian's nghttp2-server: nghttp2's own HTTP/2 server) on 127.0.0.1, started for one test and
/// stopped after it: TLS with ALPN `h2` and the test CA's `localhost` certificate, or cleartext HTTP/2 with prior
/// knowledge. It serves a directory (`/1k.bin`, `/big.bin` as ``HTTP2NginxPeer``'s) and echoes uploads
/// (`--echo-upload`).
package final class NghttpdPeer {
    /// Where nghttpd is installed, or `nil`.
    package static let executable: String? = ChildProcess.find("nghttpd")
    /// Whether the tests can run: nghttpd and openssl are installed, or `ASI_REQUIRE_PEERS=1` asks for a failure.
    package static let shouldRun = (executable != nil && TestCertificates.canGenerate) || PeerEnvironment.peersRequired

    /// The port.
    package let port: Int
    /// Whether it speaks TLS.
    package let usesTLS: Bool
    /// The TLS fixtures.
    package let certificates: TestCertificates
    private var directory: String { home.directory }
    private let home: PeerHome

    private init(port: Int, usesTLS: Bool, certificates: TestCertificates, directory: String) {
        self.port = port
        self.usesTLS = usesTLS
        self.certificates = certificates
        home = PeerHome(directory: directory)
    }

    /// Starts nghttpd and waits until it accepts connections.
    /// - Parameter usesTLS: TLS with ALPN, or cleartext with prior knowledge.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when nghttpd is missing or does not start.
    package static func start(usesTLS: Bool) throws -> NghttpdPeer {
        guard let executable else { throw PeerError.notInstalled("nghttpd (Debian's nghttp2-server)") }
        let certificates = try TestCertificates.shared()
        return try PeerLaunch.retryingPortConflicts(
            "nghttpd", portCount: 1, directoryPrefix: "asikit-nghttpd",
            make: { NghttpdPeer(port: $0[0], usesTLS: usesTLS, certificates: certificates, directory: $1) },
            launch: { try $0.launch(executable: executable) },
            stop: { $0.stop() })
    }

    /// A URL on the server.
    /// - Parameter path: The path, starting with `/`.
    /// - Returns: `https://localhost:PORT/path`, or `http://127.0.0.1:PORT/path` without TLS.
    package func url(_ path: String) -> URL {
        URL(string: "\(usesTLS ? "https://localhost" : "http://127.0.0.1"):\(port)\(path)")!
    }

    /// Stops nghttpd and deletes its directory. Safe to call more than once.
    package func stop() {
        home.stop()
    }

    private func launch(executable: String) throws {
        let www = directory + "/www"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        try Data(NginxPeer.oneKiB).write(to: URL(filePath: www + "/1k.bin"))
        var big = Data(capacity: HTTP2NginxPeer.bigSize)
        for _ in 0..<(HTTP2NginxPeer.bigSize / HTTP2NginxPeer.bigBlock.count) {
            big.append(contentsOf: HTTP2NginxPeer.bigBlock)
        }
        try big.write(to: URL(filePath: www + "/big.bin"))
        var arguments = ["--htdocs=" + www, "--echo-upload", "--address=127.0.0.1", "--workers=1"]
        if usesTLS {
            arguments += [String(port), certificates.serverKeyPath, certificates.serverCertificatePath]
        } else {
            arguments += ["--no-tls", String(port)]
        }
        home.process = try PeerLaunch(name: "nghttpd", executable: executable, arguments: arguments,
                                 directory: directory, ports: [port]).start()
    }
}

/// Starts nghttpd, runs `body`, and stops it, also when `body` throws.
/// - Parameters:
///   - usesTLS: TLS with ALPN, or cleartext with prior knowledge.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when nghttpd cannot be started, or what `body` throws.
package func withNghttpd<Result>(usesTLS: Bool, _ body: (NghttpdPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try NghttpdPeer.start(usesTLS: usesTLS) }, stop: { $0.stop() }, body)
}
