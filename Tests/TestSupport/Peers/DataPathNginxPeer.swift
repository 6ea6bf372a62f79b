package import FoundationEssentials
import Glibc

/// A real nginx on 127.0.0.1 for the data-path tests, with one plain HTTP server on a port picked at run time:
/// - `/files/<name>`: static files (Range support, `sendfile`), from ``files``.
/// - `/gz/<name>`: `gzip_static on` — a request with `Accept-Encoding: gzip` gets the precompressed
///   `<name>.gz` (``precompressed``) with `Content-Encoding: gzip`, Range applying to the compressed bytes.
/// - `/dyn/<name>`: the same files gzip-compressed on the fly (no Range, chunked).
/// - `/norange/<name>`: `max_ranges 0`, so a `Range` is ignored and the whole file comes with 200.
/// - `/coded/<coding>/<name>`: a file served as it is, with `Content-Encoding: <coding>` (nginx has no brotli or
///   zstd module: the bodies are compressed by the tests, see ``serve(_:as:coding:)``).
/// - `/dav/<name>`: WebDAV `PUT` stores the request body as a file (no size limit), readable with `GET`.
///
/// Use ``withDataNginx(files:precompressed:_:)``; skipped like ``NginxPeer`` when nginx is missing.
package final class DataPathNginxPeer {
    /// The temporary directory with the configuration, document root (`www/`), logs and pid file.
    package var directory: String { home.directory }
    /// The port.
    package let port: Int
    private let home: PeerHome

    private init(directory: String, port: Int) {
        home = PeerHome(directory: directory)
        self.port = port
    }

    /// Starts nginx serving `files` (name to contents) under `/files/`, `/dyn/` and `/norange/`, and `files` plus
    /// their gzip forms `precompressed` (name to `.gz` contents) under `/gz/`.
    package static func start(files: [String: [UInt8]], precompressed: [String: [UInt8]]) throws -> DataPathNginxPeer {
        guard let executable = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        return try PeerLaunch.retryingPortConflicts(
            "nginx", portCount: 1, directoryPrefix: "asikit-data-nginx",
            make: { DataPathNginxPeer(directory: $1, port: $0[0]) },
            launch: { peer in
                try peer.writeFiles(files, precompressed: precompressed)
                try peer.launch(executable: executable)
            },
            stop: { $0.stop() })
    }

    /// A URL on the server.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The path of a file under the document root, for example `dav/upload.bin`.
    package func documentPath(_ relative: String) -> String {
        directory + "/www/" + relative
    }

    /// Serves `bytes` as they are at `/coded/<coding>/<name>`, with `Content-Encoding: <coding>`.
    /// - Parameters:
    ///   - bytes: The body, already encoded.
    ///   - name: The file name.
    ///   - coding: The `Content-Encoding` value, such as `br` or `gzip,br` (no spaces).
    /// - Returns: The file's URL.
    package func serve(_ bytes: [UInt8], as name: String, coding: String) throws -> URL {
        let folder = directory + "/www/coded/" + coding
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(directory + "/www/coded", 0o755)
        chmod(folder, 0o755)
        try write(bytes, to: "www/coded/\(coding)/\(name)")
        return url("/coded/\(coding)/\(name)")
    }

    /// Stops nginx and deletes the directory; safe to call more than once.
    package func stop() {
        home.stop()
    }

    private var configuration: String {
        """
        \(NginxPeer.commonSettings(directory: directory))
            sendfile on;
            keepalive_requests 1000;
            server {
                listen 127.0.0.1:\(port);
                root \(directory)/www;
                location /files/ { }
                location /gz/ { gzip_static on; }
                location /dyn/ { alias \(directory)/www/files/; gzip on; gzip_types *; gzip_min_length 0; }
                location /norange/ { alias \(directory)/www/files/; max_ranges 0; }
                location ~ ^/coded/(?<coding>[^/]+)/ { add_header Content-Encoding $coding; }
                location /dav/ {
                    dav_methods PUT DELETE;
                    create_full_put_path on;
                    client_max_body_size 0;
                    client_body_buffer_size 128k;
                }
            }
        }

        """
    }

    private func writeFiles(_ files: [String: [UInt8]], precompressed: [String: [UInt8]]) throws {
        try PeerLaunch.makeFolders(["www", "www/files", "www/gz", "www/dav", "temp"], in: directory, mode: 0o777)
        for (name, bytes) in files {
            try write(bytes, to: "www/files/" + name)
            try write(bytes, to: "www/gz/" + name)
        }
        for (name, bytes) in precompressed { try write(bytes, to: "www/gz/" + name + ".gz") }
        try write(Array(configuration.utf8), to: "nginx.conf")
    }

    private func write(_ bytes: [UInt8], to relativePath: String) throws {
        try PeerLaunch.write(bytes, to: relativePath, in: directory)
    }

    private func launch(executable: String) throws {
        home.process = try NginxProcess.start(executable: executable, directory: directory, ports: [port])
    }
}

/// Starts the data-path nginx, runs `body`, and stops nginx, also when `body` throws.
package func withDataNginx<Result>(
    files: [String: [UInt8]] = [:],
    precompressed: [String: [UInt8]] = [:],
    _ body: (DataPathNginxPeer) async throws -> Result
) async throws -> Result {
    try await withPeer(start: { try DataPathNginxPeer.start(files: files, precompressed: precompressed) }, stop: { $0.stop() }, body)
}
