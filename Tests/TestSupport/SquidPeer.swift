import FoundationEssentials
import Glibc
package import HTTPCore

/// A real squid (Debian package `squid`) on 127.0.0.1 as an authenticating forward proxy, started for one test
/// from a temporary configuration and stopped after it. It offers Basic (`basic_ncsa_auth`), Digest
/// (`digest_file_auth`) and NTLM (`ntlm_fake_auth`, which accepts any password for a `DOMAIN\user` name) and lets
/// through only authenticated requests from 127.0.0.1. ``user`` and ``password`` pass Basic and Digest.
///
/// Use ``withSquid(_:)``. Skipped when squid is not installed, unless `ASI_REQUIRE_PEERS=1`.
package final class SquidPeer {
    /// The user the proxy accepts (Basic and Digest).
    package static let user = "proxyuser"
    /// That user's password.
    package static let password = "proxy pass"
    /// The realm of the Digest challenge.
    package static let digestRealm = "asikit-squid-digest"

    /// The port it listens on.
    package let port: Int
    /// The temporary directory with its configuration and logs.
    package let directory: String
    private var process: ChildProcess?

    /// Where squid is installed, or `nil`.
    package static let executable: String? = ChildProcess.find("squid")
    private static let helpers = "/usr/lib/squid"

    /// Whether the squid tests should run: squid and its helpers are installed (and `htpasswd` from
    /// apache2-utils), or `ASI_REQUIRE_PEERS=1` asks for a failure when they are not.
    package static let shouldRun =
        executable != nil && FileManager.default.fileExists(atPath: helpers + "/ntlm_fake_auth")
        && ChildProcess.find("htpasswd") != nil || PeerEnvironment.peersRequired

    private init(port: Int, directory: String) {
        self.port = port
        self.directory = directory
    }

    deinit {
        stop()
    }

    /// Starts squid and waits until it accepts connections.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when squid is missing, fails to start or is not ready within thirty seconds.
    package static func start() throws -> SquidPeer {
        guard let executable, let htpasswd = ChildProcess.find("htpasswd") else {
            throw PeerError.notInstalled("squid and htpasswd (apt-get install squid apache2-utils)")
        }
        return try PeerError.retryingPortConflicts(
            "squid", attempts: 5,
            make: { SquidPeer(port: LoopbackPorts.pick(1)[0],
                              directory: try makeTemporaryDirectory(prefix: "asikit-squid")) },
            launch: { try $0.launch(executable: executable, htpasswd: htpasswd) },
            stop: { $0.stop() })
    }

    /// The route to this proxy.
    /// - Parameter credential: The credential to configure the route with, if any.
    /// - Returns: An ``HTTPCore/ProxyRoute/Kind/http`` route to 127.0.0.1 and ``port``.
    package func route(credential: Credential? = nil) -> ProxyRoute {
        .http(host: "127.0.0.1", port: port, credential: credential)
    }

    /// The access log so far: one line per request, with the authenticated user.
    package var accessLog: String {
        String(decoding: FileManager.default.contents(atPath: directory + "/access.log") ?? Data(), as: UTF8.self)
    }

    /// Stops squid and deletes the temporary directory. Safe to call more than once.
    package func stop() {
        process?.terminate(grace: .seconds(3))
        process = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var configuration: String {
        let helpers = Self.helpers
        return """
            http_port 127.0.0.1:\(port)
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
        // squid drops to the `proxy` user when started as root: it must read and write here.
        _ = try? ChildProcess.run("/bin/chown", ["-R", "proxy:proxy", directory], logPath: "/dev/null")
        chmod(directory, 0o755)
        let child = try ChildProcess(executable: executable, arguments: ["-N", "-f", directory + "/squid.conf"],
                                     logPath: directory + "/output.log")
        process = child
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let log = String(decoding: FileManager.default.contents(atPath: directory + "/cache.log") ?? Data(),
                             as: UTF8.self)
            guard child.isRunning else {
                throw PeerError.startFailed("squid (\(child.exitDescription ?? "exited"))",
                                            log: child.logTail + log.suffix(2048))
            }
            if log.contains("Accepting HTTP Socket connections"), LoopbackPorts.accepts(port),
                ListeningSocketOwner.holds(port: port, pid: child.pid)
            {
                return
            }
            usleep(50_000)
        }
        throw PeerError.notReady("squid", log: child.logTail)
    }
}

/// Starts squid, runs `body`, and stops squid, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when squid cannot be started, or what `body` throws.
package func withSquid<Result>(_ body: (SquidPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try SquidPeer.start() }, stop: { $0.stop() }, body)
}
