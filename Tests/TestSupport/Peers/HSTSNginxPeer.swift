import FoundationEssentials
import Glibc

/// A real nginx for the HSTS tests, on two ports of 127.0.0.1 (and `::1` when the machine has it):
/// - ``tlsPort``, HTTPS with the test certificate (`localhost`): `/sts` sends
///   `Strict-Transport-Security: max-age=3600; includeSubDomains`, `/clear` sends `max-age=0`, everything else
///   answers `secure` (and no field). A plain-HTTP request to this port gets nginx's 400.
/// - ``plainPort``, HTTP: `/to-tls-port` redirects (302) to `http://localhost:<tlsPort>/`, everything else answers
///   `plain`.
///
/// Use ``withHSTSNginx(_:)``; skipped like ``NginxPeer`` when nginx is missing.
package final class HSTSNginxPeer {
    /// The temporary directory with the configuration, logs and pid file.
    package var directory: String { home.directory }
    /// The HTTPS port.
    package let tlsPort: Int
    /// The HTTP port.
    package let plainPort: Int
    /// The certificates; the CA file to trust is ``TestCertificates/caPath``.
    package let certificates: TestCertificates
    private let home: PeerHome

    private init(directory: String, ports: [Int], certificates: TestCertificates) {
        home = PeerHome(directory: directory)
        tlsPort = ports[0]
        plainPort = ports[1]
        self.certificates = certificates
    }

    /// Starts nginx.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when nginx is missing, fails to start, or does not listen in time.
    package static func start() throws -> HSTSNginxPeer {
        guard let executable = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        let certificates = try TestCertificates.shared()
        return try PeerLaunch.retryingPortConflicts(
            "nginx", portCount: 2, directoryPrefix: "asikit-hsts-nginx",
            make: { HSTSNginxPeer(directory: $1, ports: $0, certificates: certificates) },
            launch: { peer in
                try PeerLaunch.makeFolders(["temp"], in: peer.directory, mode: 0o777)
                try PeerLaunch.write(Array(peer.configuration.utf8), to: "nginx.conf", in: peer.directory)
                peer.home.process = try NginxProcess.start(
                    executable: executable, directory: peer.directory, ports: [peer.tlsPort, peer.plainPort])
            },
            stop: { $0.stop() })
    }

    /// The requests nginx answered so far, one `SCHEME PORT METHOD URI STATUS` line each.
    package var accessLog: [String] {
        let text = FileManager.default.contents(atPath: directory + "/access.log").map {
            String(decoding: $0, as: UTF8.self)
        } ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops nginx and deletes the directory; safe to call more than once.
    package func stop() {
        home.stop()
    }

    private func listen(_ port: Int, ssl: Bool) -> String {
        var lines = ["listen 127.0.0.1:\(port)\(ssl ? " ssl" : "");"]
        if LoopbackPorts.hasIPv6Loopback { lines.append("listen [::1]:\(port)\(ssl ? " ssl" : "");") }
        return lines.joined(separator: " ")
    }

    private var configuration: String {
        """
        \(NginxPeer.commonSettings(directory: directory))
            log_format hsts '$scheme $server_port $request_method $request_uri $status';
            server {
                \(listen(tlsPort, ssl: true))
                access_log \(directory)/access.log hsts;
                ssl_certificate \(certificates.serverCertificatePath);
                ssl_certificate_key \(certificates.serverKeyPath);
                location = /sts {
                    add_header Strict-Transport-Security "max-age=3600; includeSubDomains" always;
                    default_type text/plain; return 200 "sts\\n";
                }
                location = /clear {
                    add_header Strict-Transport-Security "max-age=0" always;
                    default_type text/plain; return 200 "clear\\n";
                }
                location / { default_type text/plain; return 200 "secure\\n"; }
            }
            server {
                \(listen(plainPort, ssl: false))
                access_log \(directory)/access.log hsts;
                location = /to-tls-port { return 302 http://localhost:\(tlsPort)/; }
                location / { default_type text/plain; return 200 "plain\\n"; }
            }
        }

        """
    }
}

/// Starts the HSTS nginx, runs `body`, and stops nginx, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: What `body` or the start throws.
package func withHSTSNginx<Result>(_ body: (HSTSNginxPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try HSTSNginxPeer.start() }, stop: { $0.stop() }, body)
}
