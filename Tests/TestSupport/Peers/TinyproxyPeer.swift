import FoundationEssentials
import Glibc
package import HTTPCore

/// A real tinyproxy (Debian package `tinyproxy`) on 127.0.0.1, started for one test and stopped after it: a plain
/// HTTP forward proxy, optionally asking for Basic authentication (`BasicAuth user password`).
///
/// Use ``withTinyproxy(basicAuth:_:)`` so the proxy stops even when the test throws. When tinyproxy is not
/// installed the tests are skipped (see ``shouldRun``), unless `ASI_REQUIRE_PEERS=1`, which makes ``start(basicAuth:)``
/// throw instead. Its log (``log``) names every request it forwarded, which proves the bytes went through it.
package final class TinyproxyPeer {
    /// The port it listens on.
    package let port: Int
    /// The temporary directory with its configuration and log.
    package var directory: String { home.directory }
    private let basicAuth: Credential?
    private let home: PeerHome

    /// Where tinyproxy is installed, or `nil`.
    package static let executable: String? = ChildProcess.find("tinyproxy")

    /// Whether the tinyproxy tests should run: tinyproxy is installed, or `ASI_REQUIRE_PEERS=1` asks for a failure
    /// when it is not. Use with `.enabled(if: TinyproxyPeer.shouldRun)`.
    package static let shouldRun = executable != nil || PeerEnvironment.peersRequired

    private init(port: Int, directory: String, basicAuth: Credential?) {
        self.port = port
        home = PeerHome(directory: directory)
        self.basicAuth = basicAuth
    }

    /// Starts tinyproxy and waits until it accepts connections. Tries again on a fresh port when the port was
    /// taken between being picked and being bound (tinyproxy then exits with "Could not create listening sockets").
    /// - Parameter basicAuth: The user and password the proxy asks for, or `nil` for an open proxy.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when tinyproxy is missing, fails to start, or does not listen
    ///   within ``PeerEnvironment/startupTimeout``.
    package static func start(basicAuth: Credential? = nil) throws -> TinyproxyPeer {
        guard let executable else { throw PeerError.notInstalled("tinyproxy (apt-get install tinyproxy)") }
        return try PeerLaunch.retryingPortConflicts(
            "tinyproxy", portCount: 1, directoryPrefix: "asikit-tinyproxy",
            make: { TinyproxyPeer(port: $0[0], directory: $1, basicAuth: basicAuth) },
            launch: { try $0.launch(executable: executable) },
            stop: { $0.stop() })
    }

    /// The route to this proxy.
    /// - Parameter credential: The credential to configure the route with, if any.
    /// - Returns: An ``HTTPCore/ProxyRoute/Kind/http`` route to 127.0.0.1 and ``port``.
    package func route(credential: Credential? = nil) -> ProxyRoute {
        .http(host: "127.0.0.1", port: port, credential: credential)
    }

    /// tinyproxy's log so far (connections and request lines; never the request's header fields).
    package var log: String {
        String(decoding: FileManager.default.contents(atPath: directory + "/tinyproxy.log") ?? Data(), as: UTF8.self)
    }

    /// Stops tinyproxy (`SIGTERM`, then `SIGKILL` after five seconds) and deletes the temporary directory.
    /// Safe to call more than once.
    package func stop() {
        home.stop()
    }

    private var configuration: String {
        var lines = [
            "Port \(port)",
            "Listen 127.0.0.1",
            "Timeout 600",  // generousTimeout: a test starved of threads must not find its proxy gone
            "Allow 127.0.0.1",
            "LogFile \"\(directory)/tinyproxy.log\"",
            "MaxClients 20",
        ]
        if let basicAuth { lines.append("BasicAuth \(basicAuth.user) \(basicAuth.password)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private func launch(executable: String) throws {
        let path = directory + "/tinyproxy.conf"
        try Data(configuration.utf8).write(to: URL(filePath: path))
        chmod(path, 0o644)
        var launch = PeerLaunch(name: "tinyproxy", executable: executable, arguments: ["-d", "-c", path],
                                directory: directory, ports: [port])
        // tinyproxy logs this line only after it has bound its port, so a port that accepts before then may
        // belong to another test's server that took the port after it was picked.
        launch.logFile = "tinyproxy.log"
        launch.readyMarker = "Accepting connections"
        home.process = try launch.start()
    }
}

/// Starts tinyproxy, runs `body`, and stops tinyproxy, also when `body` throws.
/// - Parameters:
///   - basicAuth: The user and password the proxy asks for, or `nil` for an open proxy.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when tinyproxy cannot be started, or what `body` throws.
package func withTinyproxy<Result>(
    basicAuth: Credential? = nil,
    _ body: (TinyproxyPeer) async throws -> Result
) async throws -> Result {
    try await withPeer(start: { try TinyproxyPeer.start(basicAuth: basicAuth) }, stop: { $0.stop() }, body)
}
