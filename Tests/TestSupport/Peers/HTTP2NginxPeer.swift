package import FoundationEssentials
import Glibc

/// A real nginx speaking HTTP/2 on 127.0.0.1, started for one test and stopped after it.
///
/// Three servers on ports picked at run time:
/// - ``Server/tls``: HTTPS with `http2` (ALPN `h2,http/1.1`) and the test CA's `localhost` certificate.
/// - ``Server/cleartext``: `http2` without TLS: HTTP/2 with prior knowledge only (h2c).
/// - ``Server/goaway``: like ``Server/tls`` but with `keepalive_requests 50`, so nginx sends `GOAWAY` after the 50th
///   request of a connection.
/// - ``Server/http1``: HTTPS without `http2`: an HTTP/1.1-only origin beside the h2 ones.
/// - ``Server/clientAuth``: like ``Server/tls`` but asking for a client certificate the test CA signed
///   (`ssl_verify_client on`); `/whoami` answers its subject (`$ssl_client_s_dn`).
///
/// For the pipeline's features over h2, ``Server/tls`` and ``Server/http1`` also serve: `/to-http1` (a `302` to
/// ``Server/http1``'s `/to-h2`, which redirects back to ``Server/tls``'s `/1k.bin?back`), `/set-cookie` (sets
/// `h2=over-h2`), `/echo-cookie` (answers the request's `Cookie`) and `/revalidate.bin` (`/1k.bin` with `Cache-Control: no-cache`, so a
/// cache revalidates it every time).
///
/// Every server serves `/1k.bin` (1,024 bytes), `/big.bin` (``bigSize`` bytes: ``bigBlock`` repeated), takes `PUT`
/// into `/uploads/` (nginx's DAV module), and logs `$connection $status $request` per request to `access.log`, so
/// tests count the connections the server saw.
package final class HTTP2NginxPeer {
    /// The servers nginx runs.
    package enum Server: CaseIterable {
        case tls, cleartext, goaway, http1, clientAuth
    }


    /// The size of `/big.bin`: 100 MiB.
    package static let bigSize = 100 * 1024 * 1024

    /// `/big.bin` is this 1 MiB block, repeated.
    package static let bigBlock: [UInt8] = (0..<(1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }

    /// Whether `chunk` is the part of `/big.bin` that starts at `offset`.
    package static func matchesBig(_ chunk: [UInt8], at offset: Int) -> Bool {
        var position = 0
        while position < chunk.count {
            let inBlock = (offset + position) % bigBlock.count
            let length = min(chunk.count - position, bigBlock.count - inBlock)
            let equal = chunk.withUnsafeBytes { bytes in
                bigBlock.withUnsafeBytes { block in
                    memcmp(bytes.baseAddress! + position, block.baseAddress! + inBlock, length) == 0
                }
            }
            guard equal else { return false }
            position += length
        }
        return true
    }

    /// The TLS fixtures.
    package let certificates: TestCertificates
    /// The temporary directory with the configuration, documents, logs and uploads.
    package var directory: String { home.directory }
    private let ports: [Server: Int]
    private let home: PeerHome

    /// Whether the tests can run: nginx and openssl are installed, or `ASI_REQUIRE_PEERS=1` asks for a failure.
    package static let shouldRun = NginxPeer.shouldRun

    private init(certificates: TestCertificates, directory: String, ports: [Server: Int]) {
        self.certificates = certificates
        home = PeerHome(directory: directory)
        self.ports = ports
    }

    /// Starts nginx and waits until every server accepts connections.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when nginx is missing or does not start.
    package static func start() throws -> HTTP2NginxPeer {
        guard let executable = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        let certificates = try TestCertificates.shared()
        return try PeerLaunch.retryingPortConflicts(
            "nginx", servers: Server.self, directoryPrefix: "asikit-h2-nginx",
            make: { HTTP2NginxPeer(certificates: certificates, directory: $1, ports: $0) },
            launch: { peer in
                try peer.writeFiles()
                peer.home.process = try NginxProcess.start(
                    executable: executable, directory: peer.directory, ports: Array(peer.ports.values))
            },
            stop: { $0.stop() })
    }

    /// A URL on one server: `https://localhost:PORT/path`, or `http://127.0.0.1:PORT/path` for the cleartext one.
    /// - Parameters:
    ///   - path: The path, starting with `/`.
    ///   - server: The server.
    /// - Returns: The URL.
    package func url(_ path: String, on server: Server = .tls) -> URL {
        let base = server == .cleartext ? "http://127.0.0.1" : "https://localhost"
        return URL(string: "\(base):\(ports[server]!)\(path)")!
    }

    /// The access log so far: `CONNECTION STATUS REQUEST-LINE PROTOCOL` per request.
    package var accessLog: [String] {
        let text = String(decoding: FileManager.default.contents(atPath: directory + "/access.log") ?? Data(),
                          as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }

    /// The distinct connections (`$connection`) of the logged requests whose line contains `path`.
    /// - Parameter path: A part of the request line.
    /// - Returns: The connection numbers.
    package func connections(servingPath path: String) -> Set<String> {
        Set(accessLog.filter { $0.contains(path) }.compactMap { $0.split(separator: " ").first.map(String.init) })
    }

    /// Stops (`SIGSTOP`) or continues (`SIGCONT`) nginx's processes. While they are stopped the kernel still
    /// completes TCP handshakes into the listen queue, but no TLS handshake is answered: the connections a client
    /// opens pile up where ``establishedConnections(to:)`` counts them.
    /// - Parameter suspended: Stop, or continue.
    package func suspend(_ suspended: Bool) {
        guard let process = home.process, process.isRunning else { return }
        kill(-process.pid, suspended ? SIGSTOP : SIGCONT)
    }

    /// How many TCP connections to a server this machine's clients hold established, as the kernel lists them
    /// (`/proc/net/tcp` and `tcp6`, where an IPv6 socket's IPv4-mapped connection is: the client ends, whose remote
    /// port is the server's).
    /// - Parameter server: The server.
    /// - Returns: The count.
    package func establishedConnections(to server: Server) -> Int {
        let table = ["/proc/net/tcp", "/proc/net/tcp6"].map(Self.readProcFile).joined(separator: "\n")
        return table.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            guard fields.count > 3, let port = fields[2].split(separator: ":").last else { return false }
            return fields[3] == "01" && Int(port, radix: 16) == ports[server]
        }.count
    }

    /// A `/proc` file's text, read to its end: `/proc` reports a size of 0, so nothing that trusts the size will do.
    private static func readProcFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of an uploaded file.
    /// - Parameter name: The name under `/uploads/`.
    /// - Returns: Its bytes, or `nil` when it does not exist.
    package func uploaded(_ name: String) -> Data? {
        FileManager.default.contents(atPath: directory + "/www/uploads/" + name)
    }

    /// Stops nginx and deletes the temporary directory. Safe to call more than once.
    package func stop() {
        home.stop()
    }

    private func writeFiles() throws {
        try PeerLaunch.makeFolders(["www", "www/uploads", "temp"], in: directory, mode: 0o777)
        try Data(NginxPeer.oneKiB).write(to: URL(filePath: directory + "/www/1k.bin"))
        var big = Data(capacity: Self.bigSize)
        for _ in 0..<(Self.bigSize / Self.bigBlock.count) { big.append(contentsOf: Self.bigBlock) }
        try big.write(to: URL(filePath: directory + "/www/big.bin"))
        try Data(configuration.utf8).write(to: URL(filePath: directory + "/nginx.conf"))
        // Basic's users for `/basic/` (nginx's `{PLAIN}` scheme), readable by nginx's unprivileged worker.
        let users = directory + "/basic-users"
        try Data("\(Self.basicUser):{PLAIN}\(Self.basicPassword)\n".utf8).write(to: URL(filePath: users))
        chmod(users, 0o644)
    }

    /// The user `/basic/` accepts (Basic, realm "h2 basic").
    package static let basicUser = "alice"
    /// That user's password.
    package static let basicPassword = "wonder land"

    private var configuration: String {
        let certs = certificates
        let features = """
                    location = /set-cookie { add_header Set-Cookie "h2=over-h2; Path=/; Secure"; return 200 "set"; }
                    location = /echo-cookie { return 200 "$http_cookie"; }
                    location = /revalidate.bin { add_header Cache-Control "no-cache"; alias \(directory)/www/1k.bin; }
                    location /basic/ {
                        auth_basic "h2 basic"; auth_basic_user_file \(directory)/basic-users; alias \(directory)/www/;
                    }
            """
        func server(_ which: Server, tls: Bool, http2: Bool = true, extra: String = "") -> String {
            """
                server {
                    listen 127.0.0.1:\(ports[which]!)\(tls ? " ssl" : "")\(http2 ? " http2" : "");
                    \(tls ? "ssl_certificate \(certs.serverCertificatePath);" : "")
                    \(tls ? "ssl_certificate_key \(certs.serverKeyPath);" : "")
                    access_log \(directory)/access.log h2peer;
                    root \(directory)/www;
                    client_max_body_size 64m;
                    location /uploads/ { dav_methods PUT; create_full_put_path on; }
                    \(extra)
                }
            """
        }
        return """
            \(NginxPeer.commonSettings(directory: directory))
                log_format h2peer '$connection $status "$request"';
                keepalive_requests 1000;
                ssl_protocols TLSv1.2 TLSv1.3;
                http2_max_concurrent_streams 128;
            \(server(.tls, tls: true, extra: features + """
                    location = /to-http1 { return 302 https://localhost:\(ports[.http1]!)/to-h2; }
            """))
            \(server(.cleartext, tls: false))
            \(server(.goaway, tls: true, extra: "keepalive_requests 50;"))
            \(server(.http1, tls: true, http2: false, extra: features + """
                    location = /to-h2 { return 302 https://localhost:\(ports[.tls]!)/1k.bin?back; }
            """))
            \(server(.clientAuth, tls: true, extra: """
                    ssl_verify_client on;
                    ssl_client_certificate \(certs.caPath);
                    location = /whoami { default_type text/plain; return 200 "$ssl_client_s_dn"; }
            """))
            }
            """
    }
}

/// Starts an HTTP/2 nginx, runs `body`, and stops nginx, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when nginx cannot be started, or what `body` throws.
package func withHTTP2Nginx<Result>(_ body: (HTTP2NginxPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try HTTP2NginxPeer.start() }, stop: { $0.stop() }, body)
}
