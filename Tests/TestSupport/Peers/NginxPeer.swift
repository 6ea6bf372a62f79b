package import FoundationEssentials
import Glibc

/// A real nginx on 127.0.0.1 (and `::1` when the machine has it), started for one test and stopped after it.
///
/// It serves four servers on ports picked at run time:
/// - ``Server/plain``: HTTP, with `/hello.txt` (`hello\n`), `/1k.bin` (``oneKiB``), `/cafe.json` (``cafeJSON``),
///   `/cafe-latin1.xml` (``cafeLatin1XML``) and `/conn`, which answers
///   `"$connection $connection_requests"` to prove keep-alive.
/// - ``Server/tls``: the same over HTTPS with the test CA's `localhost` certificate.
/// - ``Server/wrongName``: HTTPS with a certificate for `wrong.example` only, signed by the same CA.
/// - ``Server/clientAuth``: HTTPS with `ssl_verify_client on`; every path answers the client certificate's
///   subject (`$ssl_client_s_dn`), or nginx's 400 "No required SSL certificate was sent".
///
/// Use ``withNginx(_:)`` so the server stops even when the test throws. When nginx is not installed the tests
/// are skipped (see ``shouldRun``), unless `ASI_REQUIRE_PEERS=1`, which makes ``start()`` throw instead.
package final class NginxPeer {
    /// The servers nginx runs.
    package enum Server: CaseIterable {
        case plain, tls, wrongName, clientAuth
    }

    /// The TLS fixtures the servers use.
    package let certificates: TestCertificates
    /// The temporary directory with the configuration, document root, logs and pid file.
    package var directory: String { home.directory }
    private let ports: [Server: Int]
    private let home: PeerHome

    /// The body of `/1k.bin`: 1,024 bytes, `i % 251` for each index.
    package static let oneKiB: [UInt8] = (0..<1024).map { UInt8($0 % 251) }

    /// The body of `/cafe.json` (`application/json`, no charset, as nginx serves it): `{"name":"café"}` in UTF-8.
    package static let cafeJSON: [UInt8] = Array(#"{"name":"café"}"#.utf8)
    /// The body of `/cafe-latin1.xml` (`application/xml`, no charset): a document whose declaration says
    /// ISO-8859-1, with `café` in that encoding.
    package static let cafeLatin1XML: [UInt8] =
        Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><name>caf"#.utf8) + [0xE9] + Array("</name>".utf8)

    /// Where nginx is installed, or `nil`.
    package static let executable: String? = ChildProcess.find("nginx")

    /// Whether the interop tests should run: nginx and openssl are installed, or `ASI_REQUIRE_PEERS=1` asks
    /// for a failure when they are not. Use with `.enabled(if: NginxPeer.shouldRun)`.
    package static let shouldRun = (executable != nil && TestCertificates.canGenerate) || PeerEnvironment.peersRequired

    private init(certificates: TestCertificates, directory: String, ports: [Server: Int]) {
        self.certificates = certificates
        home = PeerHome(directory: directory)
        self.ports = ports
    }

    /// Starts nginx and waits until every server accepts connections. Retries with fresh ports when a port was
    /// taken in the meantime.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when nginx is missing, fails to start, or does not listen
    ///   within ``PeerEnvironment/startupTimeout``.
    package static func start() throws -> NginxPeer {
        guard let executable else { throw PeerError.notInstalled("nginx") }
        let certificates = try TestCertificates.shared()
        return try PeerLaunch.retryingPortConflicts(
            "nginx", servers: Server.self, directoryPrefix: "asikit-nginx",
            make: { NginxPeer(certificates: certificates, directory: $1, ports: $0) },
            launch: { try $0.launch(executable: executable) },
            stop: { $0.stop() })
    }

    /// The port of one server.
    /// - Parameter server: The server.
    /// - Returns: Its port on 127.0.0.1.
    package func port(_ server: Server) -> Int { ports[server]! }

    /// A URL on one server. HTTPS servers are addressed as `localhost`, the name in their certificate.
    /// - Parameters:
    ///   - path: The path, starting with `/`.
    ///   - server: The server.
    ///   - host: The host name to use instead of the default (`127.0.0.1` for HTTP, `localhost` for HTTPS).
    /// - Returns: The URL.
    package func url(_ path: String, on server: Server = .plain, host: String? = nil) -> URL {
        let scheme = server == .plain ? "http" : "https"
        let name = host ?? (server == .plain ? "127.0.0.1" : "localhost")
        return URL(string: "\(scheme)://\(name):\(port(server))\(path)")!
    }

    /// The access log of the ``Server/plain`` and ``Server/tls`` servers so far: one line per request,
    /// `ADDRESS "REQUEST LINE" via="VIA FIELD"` (a proxy adds `Via`, so a direct request shows `via=""`).
    package var accessLog: String {
        String(decoding: FileManager.default.contents(atPath: directory + "/access.log") ?? Data(), as: UTF8.self)
    }

    /// Stops nginx (`SIGTERM`, then `SIGKILL` after five seconds) and deletes the temporary directory.
    /// Safe to call more than once.
    package func stop() {
        home.stop()
    }

    private func launch(executable: String) throws {
        try writeFiles()
        home.process = try NginxProcess.start(
            executable: executable, directory: directory, ports: Array(ports.values))
    }

    private func writeFiles() throws {
        try PeerLaunch.makeFolders(["www", "temp"], in: directory, mode: 0o755)
        try write(Array("hello\n".utf8), to: "www/hello.txt")
        try write(Self.oneKiB, to: "www/1k.bin")
        try write(Self.cafeJSON, to: "www/cafe.json")
        try write(Self.cafeLatin1XML, to: "www/cafe-latin1.xml")
        try write(Array(configuration.utf8), to: "nginx.conf")
    }

    private func write(_ bytes: [UInt8], to relativePath: String) throws {
        try PeerLaunch.write(bytes, to: relativePath, in: directory)
    }
}

/// Starts nginx, runs `body`, and stops nginx, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when nginx cannot be started, or what `body` throws.
package func withNginx<Result>(_ body: (NginxPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try NginxPeer.start() }, stop: { $0.stop() }, body)
}
