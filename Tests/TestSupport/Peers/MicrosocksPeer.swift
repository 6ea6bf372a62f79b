import FoundationEssentials
import Glibc
package import HTTPCore

/// A real microsocks (Debian package `microsocks`) on 127.0.0.1: a SOCKS5 proxy, with or without a user name and
/// password (RFC 1929), that resolves names itself when asked for a domain name.
///
/// Its outgoing connections are bound to 127.0.0.2 (`-b`), so an origin that reports the client's address
/// (nginx's `/remote-addr`) proves that the bytes went through it. Use ``withMicrosocks(credential:_:)``; skipped
/// when microsocks is not installed, unless `ASI_REQUIRE_PEERS=1`.
package final class MicrosocksPeer {
    /// The address its outgoing connections come from.
    package static let outgoingAddress = "127.0.0.2"

    /// The port it listens on.
    package let port: Int
    private var directory: String { home.directory }
    private let home: PeerHome

    /// Where microsocks is installed, or `nil`.
    package static let executable: String? = ChildProcess.find("microsocks")

    /// Whether the microsocks tests should run: it is installed, or `ASI_REQUIRE_PEERS=1` asks for a failure when
    /// it is not.
    package static let shouldRun = executable != nil || PeerEnvironment.peersRequired

    private init(port: Int, directory: String) {
        self.port = port
        home = PeerHome(directory: directory)
    }

    /// Starts microsocks and waits until it listens.
    /// - Parameter credential: The user name and password it asks for, or `nil` for none.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when microsocks is missing, fails to start or does not listen
    ///   within ``PeerEnvironment/startupTimeout``.
    package static func start(credential: Credential? = nil) throws -> MicrosocksPeer {
        guard let executable else { throw PeerError.notInstalled("microsocks (apt-get install microsocks)") }
        return try PeerLaunch.retryingPortConflicts(
            "microsocks", portCount: 1, directoryPrefix: "asikit-microsocks",
            make: { MicrosocksPeer(port: $0[0], directory: $1) },
            launch: { try $0.launch(executable: executable, credential: credential) },
            stop: { $0.stop() })
    }

    /// A SOCKS5 route to this proxy.
    /// - Parameters:
    ///   - credential: The credential to configure the route with, if any.
    ///   - remoteNames: Whether the proxy resolves host names (`socks5h`).
    /// - Returns: The route.
    package func route(credential: Credential? = nil, remoteNames: Bool) -> ProxyRoute {
        .socks5(host: "127.0.0.1", port: port, credential: credential, resolvesNamesRemotely: remoteNames)
    }

    /// Stops microsocks and deletes its directory. Safe to call more than once.
    package func stop() {
        home.stop(grace: .seconds(2))
    }

    private func launch(executable: String, credential: Credential?) throws {
        var arguments = ["-i", "127.0.0.1", "-p", String(port), "-b", Self.outgoingAddress]
        if let credential { arguments += ["-u", credential.user, "-P", credential.password] }
        var launch = PeerLaunch(name: "microsocks", executable: executable, arguments: arguments,
                                directory: directory, ports: [port])
        launch.grace = .seconds(2)
        home.process = try launch.start()
    }
}

/// Starts microsocks, runs `body`, and stops microsocks, also when `body` throws.
/// - Parameters:
///   - credential: The user name and password it asks for, or `nil` for none.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when microsocks cannot be started, or what `body` throws.
package func withMicrosocks<Result>(
    credential: Credential? = nil,
    _ body: (MicrosocksPeer) async throws -> Result
) async throws -> Result {
    try await withPeer(start: { try MicrosocksPeer.start(credential: credential) }, stop: { $0.stop() }, body)
}
