package import FoundationEssentials
import Glibc

/// A real nginx on 127.0.0.1 serving ``WebPageSite`` on two ports: the page host (``pagePort``) and a "CDN" host
/// (``cdnPort``). `/start` answers 301 to `/pages/start.html`, `/redirect-img` 302 to `/site/img/redirected.png`,
/// `/to-cdn.png` 302 to the CDN's `/img/cdn.png`,
/// `/latin/` is served as ISO-8859-1, and every request is logged (`METHOD URI STATUS`) in ``accessLog``.
///
/// Use ``withWebPageNginx(_:)``; skipped like ``NginxPeer`` when nginx is missing.
package final class WebPageNginxPeer {
    /// The temporary directory with the configuration, document roots, logs and pid file.
    package var directory: String { home.directory }
    /// The page host's port.
    package let pagePort: Int
    /// The CDN host's port.
    package let cdnPort: Int
    private let home: PeerHome

    private init(directory: String, ports: [Int]) {
        home = PeerHome(directory: directory)
        self.pagePort = ports[0]
        self.cdnPort = ports[1]
    }

    /// Starts nginx.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when nginx is missing, fails to start, or does not listen in time.
    package static func start() throws -> WebPageNginxPeer {
        guard let executable = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        return try PeerLaunch.retryingPortConflicts(
            "nginx", portCount: 2, directoryPrefix: "asikit-webpage-nginx",
            make: { WebPageNginxPeer(directory: $1, ports: $0) },
            launch: { peer in
                try peer.writeFiles()
                peer.home.process = try NginxProcess.start(
                    executable: executable, directory: peer.directory, ports: [peer.pagePort, peer.cdnPort])
            },
            stop: { $0.stop() })
    }

    /// A URL on the page host.
    /// - Parameter path: The path, starting with `/`.
    /// - Returns: The URL.
    package func url(_ path: String) -> URL { URL(string: origin + path)! }

    /// `http://127.0.0.1:<page port>`.
    package var origin: String { "http://127.0.0.1:\(pagePort)" }
    /// `http://127.0.0.1:<CDN port>`.
    package var cdnOrigin: String { "http://127.0.0.1:\(cdnPort)" }

    /// A file as served, with `{CDN}` replaced.
    /// - Parameter path: The path on the page host, without the leading `/`.
    /// - Returns: Its bytes.
    package func served(_ path: String) -> [UInt8]? { WebPageSite.pageFiles[path].map(substituted) }

    /// The requests nginx answered so far on both hosts, one `PORT METHOD URI STATUS` line each.
    package var accessLog: [String] {
        let text =
            FileManager.default.contents(atPath: directory + "/access.log").map {
                String(decoding: $0, as: UTF8.self)
            } ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops nginx and deletes the directory; safe to call more than once.
    package func stop() {
        home.stop()
    }

    private func substituted(_ bytes: [UInt8]) -> [UInt8] {
        let marker = Array("{CDN}".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i...].starts(with: marker) {
                out += Array(cdnOrigin.utf8)
                i += marker.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private var configuration: String {
        let types = """
            types { text/html html; text/css css; image/png png; image/svg+xml svg; text/javascript js;
                    video/webm webm; font/woff woff; }
            """
        return """
            \(NginxPeer.commonSettings(directory: directory))
                log_format site '$server_port $request_method $request_uri $status';
                server {
                    listen 127.0.0.1:\(pagePort);
                    access_log \(directory)/access.log site;
                    root \(directory)/www;
                    \(types)
                    location = /start { return 301 /pages/start.html; }
                    location = /redirect-img { return 302 /site/img/redirected.png; }
                    location = /to-cdn.png { return 302 \(cdnOrigin)/img/cdn.png; }
                    location /latin/ { charset iso-8859-1; }
                }
                server {
                    listen 127.0.0.1:\(cdnPort);
                    access_log \(directory)/access.log site;
                    root \(directory)/cdn;
                    \(types)
                }
            }

            """
    }

    private func writeFiles() throws {
        for (root, files) in [("www", WebPageSite.pageFiles), ("cdn", WebPageSite.cdnFiles)] {
            for (path, bytes) in files {
                let full = directory + "/" + root + "/" + path
                let parent = String(full[..<full.lastIndex(of: "/")!])
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                try Data(substituted(bytes)).write(to: URL(filePath: full))
                chmod(full, 0o644)
            }
        }
        try PeerLaunch.makeFolders(["www", "cdn", "temp"], in: directory, mode: 0o777)
        try PeerLaunch.write(Array(configuration.utf8), to: "nginx.conf", in: directory)
    }
}

/// Starts the WebPage nginx, runs `body`, and stops nginx, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: What `body` or the start throws.
package func withWebPageNginx<Result>(_ body: (WebPageNginxPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try WebPageNginxPeer.start() }, stop: { $0.stop() }, body)
}
