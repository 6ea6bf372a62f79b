import FoundationEssentials
import Glibc
import GzipCodec
import TestSupport

/// A real nginx on 127.0.0.1 for the cache tests, with an access log that proves which requests reached it:
/// - `/fresh/1k.bin`: ``NginxPeer/oneKiB`` with `Cache-Control: max-age=3600` (nginx's `expires 1h`), an `ETag`
///   and a `Last-Modified`.
/// - `/stale/1k.bin`: the same bytes with `Cache-Control: max-age=0`, so every use is revalidated; nginx answers
///   `If-None-Match` / `If-Modified-Since` with 304.
/// - `/slow/512k.bin`: ``slowBody`` (512 KiB) with `max-age=3600`, sent at 256 KiB/s. A request with an `X-Crawl`
///   header gets the first 256 KiB at that rate and the rest at 4 KiB/s, so a test can kill its client mid-body
///   with a minute to spare; the header is not part of the cache key.
/// - `/gz/text.txt`: ``gzipText``, with `max-age=0`; nginx's `gzip_static` sends the precompressed
///   `text.txt.gz` (`Content-Encoding: gzip`, its own `ETag`) to a request that accepts gzip.
///
/// Use ``withCacheNginx(_:)``; skipped like ``NginxPeer`` when nginx is missing.
final class CacheNginxPeer {
    /// The temporary directory with the configuration, document root, logs and pid file.
    var directory: String { home.directory }
    /// The port.
    let port: Int
    private let home: PeerHome

    /// The body of `/slow/512k.bin`: 512 KiB, `i % 253` for each index.
    static let slowBody: [UInt8] = (0..<(1 << 19)).map { UInt8($0 % 253) }

    /// The decoded body of `/gz/text.txt`: 64 KiB of text.
    static let gzipText: [UInt8] = Array(
        String(repeating: "served by gzip_static, kept decoded by the cache\n", count: 1338).utf8.prefix(1 << 16))

    private init(directory: String, port: Int) {
        home = PeerHome(directory: directory)
        self.port = port
    }

    /// Starts nginx.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when nginx is missing, fails to start, or does not listen
    ///   within ``PeerEnvironment/startupTimeout``.
    static func start() throws -> CacheNginxPeer {
        guard let executable = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        return try PeerLaunch.retryingPortConflicts(
            "nginx", portCount: 1, directoryPrefix: "asikit-cache-nginx",
            make: { CacheNginxPeer(directory: $1, port: $0[0]) },
            launch: { peer in
                try peer.writeFiles()
                try peer.launch(executable: executable)
            },
            stop: { $0.stop() })
    }

    /// A URL on the server.
    /// - Parameter path: The path, starting with `/`.
    /// - Returns: The URL.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The requests nginx answered so far, one `METHOD URI STATUS` line each.
    var accessLog: [String] {
        let text = FileManager.default.contents(atPath: directory + "/access.log").map {
            String(decoding: $0, as: UTF8.self)
        } ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops nginx but keeps its directory (the access log stays readable); connections are then refused.
    func stopServer() {
        home.stopProcess()
    }

    /// Stops nginx and deletes the directory; safe to call more than once.
    func stop() {
        home.stop()
    }

    private var configuration: String {
        """
        \(NginxPeer.commonSettings(directory: directory))
            log_format cache '$request_method $request_uri $status';
            server {
                listen 127.0.0.1:\(port);
                root \(directory)/www;
                access_log \(directory)/access.log cache;
                location /fresh/ { expires 1h; }
                location /stale/ { add_header Cache-Control "max-age=0"; }
                location /slow/ {
                    expires 1h;
                    limit_rate 256k;
                    if ($http_x_crawl) { set $limit_rate 4k; }
                    limit_rate_after 256k;
                }
                location /gz/ { gzip_static on; add_header Cache-Control "max-age=0"; }
            }
        }

        """
    }

    private func writeFiles() throws {
        try PeerLaunch.makeFolders(["www", "www/fresh", "www/stale", "www/slow", "www/gz", "temp"], in: directory,
                                   mode: 0o777)
        for path in ["www/fresh/1k.bin", "www/stale/1k.bin"] { try write(NginxPeer.oneKiB, to: path) }
        try write(Self.slowBody, to: "www/slow/512k.bin")
        try write(Self.gzipText, to: "www/gz/text.txt")
        try write(try ZlibContentCodec().compress(Self.gzipText), to: "www/gz/text.txt.gz")
        try write(Array(configuration.utf8), to: "nginx.conf")
    }

    private func write(_ bytes: [UInt8], to relativePath: String) throws {
        try PeerLaunch.write(bytes, to: relativePath, in: directory)
    }

    private func launch(executable: String) throws {
        home.process = try NginxProcess.start(executable: executable, directory: directory, ports: [port])
    }
}

/// Starts the cache nginx, runs `body`, and stops nginx, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: What `body` or the start throws.
func withCacheNginx<Result>(_ body: (CacheNginxPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try CacheNginxPeer.start() }, stop: { $0.stop() }, body)
}
