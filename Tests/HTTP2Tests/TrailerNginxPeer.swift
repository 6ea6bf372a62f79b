import FoundationEssentials
import TestSupport

/// A real nginx that sends trailer fields (`add_trailer`) on 127.0.0.1, started for one test: over HTTP/2 (TLS by
/// ALPN, and cleartext with prior knowledge) and over HTTP/1.1, where nginx switches a static file to chunked
/// transfer coding to carry them. Over HTTP/2 nginx keeps the file's `Content-Length` beside the trailers, the
/// case curl 7.88 drops them in.
///
/// `/t.txt` is ``body`` with the trailers `X-Checksum: abc123` and `X-Other: two words`; `/plain.txt` has none;
/// `/payload.bin` is ``payload`` (300 KiB, for the throttled transfers) and `PUT /uploads/NAME` stores a file.
final class TrailerNginxPeer {
    /// The servers nginx runs.
    enum Server: CaseIterable {
        case h2TLS, h2Cleartext, http1
    }

    /// The body of `/t.txt` and `/plain.txt`.
    static let body = Array("hello trailers\n".utf8)
    /// The body of `/payload.bin`: 300 KiB of a pattern that does not repeat within a frame.
    static let payload: [UInt8] = (0..<(300 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }

    let certificates: TestCertificates
    private let ports: [Server: Int]
    private let home: PeerHome

    static var shouldRun: Bool { NginxPeer.shouldRun }

    private init(certificates: TestCertificates, directory: String, ports: [Server: Int]) {
        self.certificates = certificates
        self.ports = ports
        home = PeerHome(directory: directory)
    }

    /// Starts nginx and waits until every server accepts connections.
    static func start() throws -> TrailerNginxPeer {
        guard let executable = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        let certificates = try TestCertificates.shared()
        return try PeerLaunch.retryingPortConflicts(
            "nginx", servers: Server.self, directoryPrefix: "asikit-h2-trailers",
            make: { TrailerNginxPeer(certificates: certificates, directory: $1, ports: $0) },
            launch: { peer in
                try peer.writeFiles()
                peer.home.process = try NginxProcess.start(
                    executable: executable, directory: peer.home.directory, ports: Array(peer.ports.values))
            },
            stop: { $0.stop() })
    }

    /// A URL on one server.
    func url(_ path: String, on server: Server) -> URL {
        switch server {
        case .h2TLS: URL(string: "https://localhost:\(ports[server]!)\(path)")!
        case .h2Cleartext, .http1: URL(string: "http://127.0.0.1:\(ports[server]!)\(path)")!
        }
    }

    /// The bytes of an uploaded file, or `nil`.
    func uploaded(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: home.directory + "/www/uploads/" + name).map { [UInt8]($0) }
    }

    func stop() {
        home.stop()
    }

    private func writeFiles() throws {
        let directory = home.directory
        try PeerLaunch.makeFolders(["www", "www/uploads", "temp"], in: directory, mode: 0o777)
        try PeerLaunch.write(Self.payload, to: "www/payload.bin", in: directory)
        try PeerLaunch.write(Self.body, to: "www/t.txt", in: directory)
        try PeerLaunch.write(Self.body, to: "www/plain.txt", in: directory)
        let trailers = #"location = /t.txt { add_trailer X-Checksum abc123; add_trailer X-Other "two words"; }"#
        func server(_ which: Server, listen: String, tls: Bool) -> String {
            """
                server {
                    listen 127.0.0.1:\(ports[which]!)\(listen);
                    \(tls ? "ssl_certificate \(certificates.serverCertificatePath);" : "")
                    \(tls ? "ssl_certificate_key \(certificates.serverKeyPath);" : "")
                    root \(directory)/www;
                    client_max_body_size 16m;
                    location /uploads/ { dav_methods PUT; create_full_put_path on; }
                    \(trailers)
                }
            """
        }
        let configuration = """
            \(NginxPeer.commonSettings(directory: directory))
                keepalive_requests 1000;
                ssl_protocols TLSv1.2 TLSv1.3;
            \(server(.h2TLS, listen: " ssl http2", tls: true))
            \(server(.h2Cleartext, listen: " http2", tls: false))
            \(server(.http1, listen: "", tls: false))
            }
            """
        try Data(configuration.utf8).write(to: URL(filePath: directory + "/nginx.conf"))
    }
}

/// Starts the trailer nginx, runs `body`, and stops nginx, also when `body` throws.
func withTrailerNginx<Result>(_ body: (TrailerNginxPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try TrailerNginxPeer.start() }, stop: { $0.stop() }, body)
}
