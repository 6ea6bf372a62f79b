import FoundationEssentials
import Glibc
package import HTTPCore

/// A real squid (Debian package `squid`) on 127.0.0.1 as an authenticating forward proxy, started for one test
/// from a temporary configuration and stopped after it. It offers Basic (`basic_ncsa_auth`), Digest
/// (`digest_file_auth`) and NTLM (`ntlm_fake_auth`, which accepts any password for a `DOMAIN\user` name) and lets
/// through only authenticated requests from 127.0.0.1. ``user`` and ``password`` pass Basic and Digest.
///
/// With TLS fixtures it also listens with TLS (`https_port`, ``httpsPort``): an HTTPS proxy, whose certificate is the
/// fixtures' `localhost` one. Use ``withSquid(tls:_:)``. Skipped when squid is not installed, unless
/// `ASI_REQUIRE_PEERS=1`.
package final class SquidPeer {
    /// The user the proxy accepts (Basic and Digest).
    package static let user = "proxyuser"
    /// That user's password.
    package static let password = "proxy pass"
    /// The realm of the Digest challenge.
    package static let digestRealm = "asikit-squid-digest"

    /// The port it listens on.
    package let port: Int
    /// The port it listens on with TLS, when started with TLS fixtures.
    package let httpsPort: Int?
    private let certificates: TestCertificates?
    /// The temporary directory with its configuration and logs.
    package var directory: String { home.directory }
    private let home: PeerHome

    /// Where squid is installed, or `nil`.
    package static let executable: String? = ChildProcess.find("squid")
    private static let helpers = "/usr/lib/squid"

    /// Whether the squid tests should run: squid and its helpers are installed (and `htpasswd` from
    /// apache2-utils), or `ASI_REQUIRE_PEERS=1` asks for a failure when they are not.
    package static let shouldRun =
        executable != nil && FileManager.default.fileExists(atPath: helpers + "/ntlm_fake_auth")
        && ChildProcess.find("htpasswd") != nil || PeerEnvironment.peersRequired

    private init(ports: [Int], directory: String, certificates: TestCertificates?) {
        port = ports[0]
        httpsPort = certificates == nil ? nil : ports[1]
        home = PeerHome(directory: directory)
        self.certificates = certificates
    }

    /// Starts squid and waits until it accepts connections.
    /// - Parameter tls: The TLS fixtures for an HTTPS port too, or `nil` for the plain port only.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when squid is missing, fails to start or is not ready
    ///   within ``PeerEnvironment/startupTimeout``.
    package static func start(tls: TestCertificates? = nil) throws -> SquidPeer {
        guard let executable, let htpasswd = ChildProcess.find("htpasswd") else {
            throw PeerError.notInstalled("squid and htpasswd (apt-get install squid apache2-utils)")
        }
        return try PeerLaunch.retryingPortConflicts(
            "squid", portCount: 2, directoryPrefix: "asikit-squid",
            make: { SquidPeer(ports: $0, directory: $1, certificates: tls) },
            launch: { try $0.launch(executable: executable, htpasswd: htpasswd) },
            stop: { $0.stop() })
    }

    /// The route to this proxy.
    /// - Parameter credential: The credential to configure the route with, if any.
    /// - Returns: An ``HTTPCore/ProxyRoute/Kind/http`` route to 127.0.0.1 and ``port``.
    package func route(credential: Credential? = nil) -> ProxyRoute {
        .http(host: "127.0.0.1", port: port, credential: credential)
    }

    /// The route to this proxy's HTTPS port (nil without TLS fixtures).
    /// - Parameter credential: The credential to configure the route with, if any.
    /// - Returns: An ``HTTPCore/ProxyRoute/Kind/https`` route to `localhost` (the name its certificate is for).
    package func httpsRoute(credential: Credential? = nil) -> ProxyRoute? {
        httpsPort.map { .https(host: "localhost", port: $0, credential: credential) }
    }

    /// The access log so far: one line per request, with the authenticated user.
    package var accessLog: String {
        String(decoding: FileManager.default.contents(atPath: directory + "/access.log") ?? Data(), as: UTF8.self)
    }

    /// Stops squid and deletes the temporary directory. Safe to call more than once.
    package func stop() {
        home.stop(grace: .seconds(3))
    }

    private var configuration: String {
        let helpers = Self.helpers
        let httpsLine = httpsPort.map {
            "https_port 127.0.0.1:\($0) tls-cert=\(directory)/proxy.pem tls-key=\(directory)/proxy.key"
        }
        return """
            http_port 127.0.0.1:\(port)
            \(httpsLine ?? "")
            pid_filename \(directory)/squid.pid
            cache_log \(directory)/cache.log
            access_log stdio:\(directory)/access.log
            coredump_dir \(directory)
            cache deny all
            shutdown_lifetime 0 seconds
            auth_param basic program \(helpers)/basic_ncsa_auth \(directory)/basic.pw
            auth_param basic realm asikit-squid-basic
            auth_param digest program \(helpers)/digest_file_auth \(directory)/digest.pw
            auth_param digest realm \(Self.digestRealm)
            auth_param ntlm program \(helpers)/ntlm_fake_auth
            acl authed proxy_auth REQUIRED
            acl loopback src 127.0.0.1/32
            http_access allow loopback authed
            http_access deny all

            """
    }

    private func launch(executable: String, htpasswd: String) throws {
        let status = try ChildProcess.run(htpasswd, ["-b", "-c", directory + "/basic.pw", Self.user, Self.password],
                                          logPath: directory + "/htpasswd.log")
        guard status == 0 else { throw PeerError.startFailed("htpasswd", log: "exit \(status)") }
        try Data("\(Self.user):\(Self.password)\n".utf8).write(to: URL(filePath: directory + "/digest.pw"))
        try Data(configuration.utf8).write(to: URL(filePath: directory + "/squid.conf"))
        if let certificates {
            // Copied here, where the `proxy` user squid runs as can read them.
            try FileManager.default.copyItem(atPath: certificates.serverCertificatePath,
                                             toPath: directory + "/proxy.pem")
            try FileManager.default.copyItem(atPath: certificates.serverKeyPath, toPath: directory + "/proxy.key")
        }
        // squid drops to the `proxy` user when started as root: it must read and write here.
        _ = try? ChildProcess.run("/bin/chown", ["-R", "proxy:proxy", directory], logPath: "/dev/null")
        chmod(directory, 0o755)
        // A service name of its own (-n): squid names its shared-memory segments after it, and two squids of the
        // parallel suite starting at once under the default name collided ("shm_open(/squid-cf__metadata.shm):
        // File exists").
        var launch = PeerLaunch(
            name: "squid", executable: executable,
            arguments: ["-N", "-n", "asikit\(port)", "-f", directory + "/squid.conf"],
            directory: directory, ports: [port] + (httpsPort.map { [$0] } ?? []))
        // squid goes on running without a port it could not bind ("commBind Cannot bind socket … Address already
        // in use"): the launcher reads that in cache.log as a port conflict, tried again on fresh ports.
        launch.logFile = "cache.log"
        launch.readyMarker = "Accepting HTTP Socket connections"
        launch.pollMicroseconds = 50_000
        launch.grace = .seconds(3)
        home.process = try launch.start()
    }
}

/// Starts squid, runs `body`, and stops squid, also when `body` throws.
/// - Parameters:
///   - tls: The TLS fixtures for an HTTPS port too, or `nil` for the plain port only.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when squid cannot be started, or what `body` throws.
package func withSquid<Result>(
    tls: TestCertificates? = nil,
    _ body: (SquidPeer) async throws -> Result
) async throws -> Result {
    try await withPeer(start: { try SquidPeer.start(tls: tls) }, stop: { $0.stop() }, body)
}
