package import FoundationEssentials
import Glibc

/// A real Apache httpd (Debian package `apache2`) on 127.0.0.1 with `mod_auth_digest`, started for one test from a
/// temporary configuration and stopped after it. `/digest/` asks for Digest (MD5, qop `auth`) in realm
/// ``realm`` for ``user`` and ``password``; `/open/` needs nothing. The access log (``accessLog``: request line
/// and status) shows every exchange. Started with `speaksH2c`, it also speaks cleartext
/// HTTP/2 with prior knowledge (`mod_http2`, `Protocols h2c http/1.1`).
///
/// Use ``withApache(speaksH2c:_:)``. Skipped when apache2 is not installed, unless `ASI_REQUIRE_PEERS=1`.
package final class ApachePeer {
    /// The realm of `/digest/`.
    package static let realm = "asikit digest"
    /// The user `/digest/` accepts.
    package static let user = "mufasa"
    /// That user's password.
    package static let password = "Circle of Life"

    /// The port it listens on.
    package let port: Int
    /// Whether it speaks cleartext HTTP/2 with prior knowledge beside HTTP/1.1.
    package let speaksH2c: Bool
    /// The temporary directory with its configuration, documents and logs.
    package var directory: String { home.directory }
    private let home: PeerHome

    /// Where apache2 is installed, or `nil`.
    package static let executable: String? = ChildProcess.find("apache2")
    private static let modules = "/usr/lib/apache2/modules"

    /// Whether the Apache tests should run: apache2 and its digest module are installed, or
    /// `ASI_REQUIRE_PEERS=1` asks for a failure when they are not.
    package static let shouldRun =
        executable != nil && FileManager.default.fileExists(atPath: modules + "/mod_auth_digest.so")
        || PeerEnvironment.peersRequired

    private init(port: Int, directory: String, speaksH2c: Bool) {
        self.port = port
        self.speaksH2c = speaksH2c
        home = PeerHome(directory: directory)
    }

    /// Starts Apache and waits until `/open/` answers.
    /// - Parameter speaksH2c: Whether it also speaks cleartext HTTP/2 with prior knowledge (`mod_http2`).
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when apache2 is missing, fails to start or does not answer
    ///   within ``PeerEnvironment/startupTimeout``.
    package static func start(speaksH2c: Bool = false) throws -> ApachePeer {
        guard let executable else { throw PeerError.notInstalled("apache2 (apt-get install apache2 apache2-utils)") }
        return try PeerLaunch.retryingPortConflicts(
            "apache2", portCount: 1, directoryPrefix: "asikit-apache",
            make: { ApachePeer(port: $0[0], directory: $1, speaksH2c: speaksH2c) },
            launch: { try $0.launch(executable: executable) },
            stop: { $0.stop() })
    }

    /// The URL of a path on this server.
    /// - Parameter path: The path, starting with `/`.
    /// - Returns: `http://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The access log so far: one `"<request line>" <status>` line per exchange.
    package var accessLog: String {
        String(decoding: FileManager.default.contents(atPath: directory + "/access.log") ?? Data(), as: UTF8.self)
    }

    /// Stops Apache and deletes the temporary directory. Safe to call more than once.
    package func stop() {
        home.stop()
    }

    private var configuration: String {
        let modules = Self.modules
        return """
            ServerRoot \(directory)
            PidFile \(directory)/httpd.pid
            ErrorLog \(directory)/error.log
            Timeout 600
            Listen 127.0.0.1:\(port)
            LoadModule mpm_event_module \(modules)/mod_mpm_event.so
            LoadModule authz_core_module \(modules)/mod_authz_core.so
            LoadModule authn_core_module \(modules)/mod_authn_core.so
            LoadModule authn_file_module \(modules)/mod_authn_file.so
            LoadModule authz_user_module \(modules)/mod_authz_user.so
            LoadModule auth_digest_module \(modules)/mod_auth_digest.so
            LoadModule mime_module \(modules)/mod_mime.so
            \(speaksH2c ? "LoadModule http2_module \(modules)/mod_http2.so\nProtocols h2c http/1.1" : "")
            TypesConfig /etc/mime.types
            ServerName localhost
            LogFormat "\\"%r\\" %>s" short
            CustomLog \(directory)/access.log short
            DocumentRoot \(directory)/www
            <Directory \(directory)/www>
                Require all granted
            </Directory>
            <Location /digest>
                AuthType Digest
                AuthName "\(Self.realm)"
                AuthDigestProvider file
                AuthUserFile \(directory)/digest.pw
                AuthDigestQop auth
                Require valid-user
            </Location>

            """
    }

    private func launch(executable: String) throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: directory + "/www/digest", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: directory + "/www/open", withIntermediateDirectories: true)
        try Data("digest secret\n".utf8).write(to: URL(filePath: directory + "/www/digest/index.txt"))
        try Data("open\n".utf8).write(to: URL(filePath: directory + "/www/open/index.txt"))
        let ha1 = Self.md5Hex("\(Self.user):\(Self.realm):\(Self.password)")
        try Data("\(Self.user):\(Self.realm):\(ha1)\n".utf8).write(to: URL(filePath: directory + "/digest.pw"))
        try Data(configuration.utf8).write(to: URL(filePath: directory + "/httpd.conf"))
        for path in [directory, directory + "/www", directory + "/www/digest", directory + "/www/open"] {
            chmod(path, 0o755)
        }
        for path in ["/digest.pw", "/httpd.conf", "/www/digest/index.txt", "/www/open/index.txt"] {
            chmod(directory + path, 0o644)
        }
        var launch = PeerLaunch(name: "apache2", executable: executable,
                                arguments: ["-f", directory + "/httpd.conf", "-DFOREGROUND"],
                                directory: directory, ports: [port])
        launch.logFile = "error.log"
        launch.isReady = { [port] _ in LoopbackPorts.statusCode(port: port, path: "/open/index.txt") == 200 }
        launch.pollMicroseconds = 50_000
        home.process = try launch.start()
    }

    /// The MD5 of a text, in hex, by `md5sum` (the test support does not link OpenSSL).
    private static func md5Hex(_ text: String) -> String {
        let input = (try? makeTemporaryDirectory(prefix: "asikit-md5")) ?? "/tmp"
        defer { try? FileManager.default.removeItem(atPath: input) }
        try? Data(text.utf8).write(to: URL(filePath: input + "/in"))
        _ = try? ChildProcess.run("/bin/sh", ["-c", "md5sum < \(input)/in | cut -c1-32 > \(input)/out"],
                                  logPath: input + "/log")
        let out = String(decoding: FileManager.default.contents(atPath: input + "/out") ?? Data(), as: UTF8.self)
        return out.filter { $0.isHexDigit }
    }
}

/// Starts Apache, runs `body`, and stops Apache, also when `body` throws.
/// - Parameters:
///   - speaksH2c: Whether it also speaks cleartext HTTP/2 with prior knowledge (`mod_http2`).
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when Apache cannot be started, or what `body` throws.
package func withApache<Result>(
    speaksH2c: Bool = false, _ body: (ApachePeer) async throws -> Result
) async throws -> Result {
    try await withPeer(start: { try ApachePeer.start(speaksH2c: speaksH2c) }, stop: { $0.stop() }, body)
}
