import FoundationEssentials
import Glibc

/// nginx inside an ``ImpairedLink``'s server namespace, on ``ImpairedLink/serverAddress`` port 80 (plain) and
/// 443 (TLS, the test certificate, reached as `localhost` through `--resolve`). Serves `www/` and takes `PUT`
/// uploads into `www/upload/` (the DAV module Debian builds in).
///
/// Not `Sendable`: one test owns it; stopped on deinit.
package final class LinkNginx {
    /// The peer's temporary directory.
    package let directory: String
    /// The TLS fixtures.
    package let certificates: TestCertificates
    private var process: ChildProcess?

    /// Starts nginx in `link`'s server namespace and waits (up to 20 s) for its pid file, which nginx writes once
    /// its sockets listen.
    /// - Parameters:
    ///   - link: The link.
    ///   - files: Files to serve, by name under `www/`.
    ///   - keepaliveTimeout: How long nginx keeps an idle connection open before it closes it (nginx's default,
    ///     75 s, unless a test needs the close to happen).
    /// - Throws: ``PeerError`` when nginx is missing or does not start.
    package init(on link: ImpairedLink, files: [String: [UInt8]], keepaliveTimeout: Int = 75) throws {
        guard let nginx = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        certificates = try TestCertificates.shared()
        directory = try makeTemporaryDirectory(prefix: "asikit-link-nginx")
        let fileManager = FileManager.default
        for subdirectory in ["www", "www/upload", "temp"] {
            try fileManager.createDirectory(atPath: directory + "/" + subdirectory, withIntermediateDirectories: true)
            chmod(directory + "/" + subdirectory, 0o777)  // the worker runs as nobody when the tests run as root
        }
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(filePath: directory + "/www/" + name))
            chmod(directory + "/www/" + name, 0o644)
        }
        let address = ImpairedLink.serverAddress
        let configuration = """
            \(NginxPeer.commonSettings(directory: directory))
                keepalive_requests 1000;
                keepalive_timeout \(keepaliveTimeout)s;
                ssl_protocols TLSv1.2 TLSv1.3;
                log_format ranges '$status "$http_range" $body_bytes_sent "$http_user_agent"';
                server {
                    access_log \(directory)/access.log ranges;
                    listen \(address):80;
                    listen \(address):443 ssl;
                    ssl_certificate \(certificates.serverCertificatePath);
                    ssl_certificate_key \(certificates.serverKeyPath);
                    root \(directory)/www;
                    location /upload/ { dav_methods PUT; client_max_body_size 256m; }
                }
            }
            """
        try Data(configuration.utf8).write(to: URL(filePath: directory + "/nginx.conf"))
        let child = try ChildProcess(
            executable: link.launcher(.server)[0],
            arguments: Array(link.launcher(.server).dropFirst())
                + [nginx, "-p", directory, "-c", directory + "/nginx.conf", "-g", "daemon off;"],
            logPath: directory + "/stdout.log")
        process = child
        let deadline = ContinuousClock.now + .seconds(20)
        while access(directory + "/nginx.pid", F_OK) != 0 {
            guard child.isRunning, ContinuousClock.now < deadline else {
                let log = String(decoding: fileManager.contents(atPath: directory + "/error.log") ?? Data(),
                                 as: UTF8.self)
                throw PeerError.startFailed("nginx in the server namespace", log: child.logTail + log)
            }
            usleep(20_000)
        }
    }

    deinit {
        process?.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The requests nginx has finished, one line each: `STATUS "RANGE" BODY_BYTES_SENT "USER_AGENT"` (a request
    /// is logged when nginx is done with it, so one cut off by a dead link may be missing for a while).
    /// - Returns: The lines, oldest first.
    package func accessLog() -> [String] {
        let bytes = FileManager.default.contents(atPath: directory + "/access.log") ?? Data()
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The bytes a `PUT` to `/upload/NAME` stored, or `nil`.
    /// - Parameter name: The file's name.
    /// - Returns: Its contents.
    package func uploaded(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: directory + "/www/upload/" + name).map(Array.init)
    }
}
