import Glibc

/// Why a real peer (nginx, httpbin) could not be used.
package enum PeerError: Error, CustomStringConvertible {
    /// The program is not installed; only thrown when ``PeerEnvironment/peersRequired`` is set, since the tests
    /// are skipped otherwise.
    case notInstalled(String)
    /// The program could not be started or exited early; `log` is the end of its output.
    case startFailed(String, log: String)
    /// The program started but did not answer in time.
    case notReady(String, log: String)

    package var description: String {
        switch self {
        case .notInstalled(let what):
            "\(what) is not installed, and ASI_REQUIRE_PEERS=1 requires the interop peers (.ci/run installs them)"
        case .startFailed(let what, let log):
            "could not start \(what)" + (log.isEmpty ? "" : "; its output ends with:\n\(log)")
        case .notReady(let what, let log):
            "\(what) did not become ready in time" + (log.isEmpty ? "" : "; its output ends with:\n\(log)")
        }
    }
}

/// How the interop tests decide whether to run.
package enum PeerEnvironment {
    /// `ASI_REQUIRE_PEERS=1`: a missing peer fails the tests instead of skipping them. CI sets it.
    package static let peersRequired: Bool = {
        guard let value = getenv("ASI_REQUIRE_PEERS") else { return false }
        return String(cString: value) == "1"
    }()

    /// How long a peer may take to start before the test fails: generous, because the parallel suite starts many
    /// peers at once on a machine whose cores may be busy, yet finite, so a peer that never starts still fails.
    package static let startupTimeout: Duration = .seconds(60)
}

extension PeerError {
    /// What the peers print when a port they were given is taken: the kernel's `EADDRINUSE` text (nginx, squid,
    /// Apache, moto), gunicorn's "Connection in use" (httpbin), tinyproxy's "Could not create listening sockets" and
    /// OpenStack Swift's "Could not bind to 127.0.0.1:PORT after trying for 30 seconds".
    static let portConflictMarkers = [
        "Address already in use", "Connection in use", "Could not create listening sockets", "Could not bind to",
    ]

    /// Whether a peer's log says that a port it was given is taken.
    static func reportsPortConflict(_ log: some StringProtocol) -> Bool {
        portConflictMarkers.contains { log.contains($0) }
    }

    /// Whether this is a failure to start because a port was taken between being picked and being bound.
    var isPortConflict: Bool {
        guard case .startFailed(_, let log) = self else { return false }
        return Self.reportsPortConflict(log)
    }

    /// Makes and launches a peer, trying again with a fresh one (fresh ports) when a port was taken between being
    /// picked and being bound (``isPortConflict``); any other failure is thrown at once.
    /// - Parameters:
    ///   - name: The program, for the error when every attempt fails.
    ///   - attempts: How many peers to try.
    ///   - make: Makes a peer on freshly picked ports.
    ///   - launch: Starts it and waits until it is ready.
    ///   - stop: Stops a peer that failed to start.
    /// - Returns: The running peer.
    /// - Throws: The last ``PeerError``, or what `make` throws.
    package static func retryingPortConflicts<Peer>(
        _ name: String,
        attempts: Int,
        make: () throws -> Peer,
        launch: (Peer) throws -> Void,
        stop: (Peer) -> Void
    ) throws -> Peer {
        var lastError: PeerError?
        for _ in 0..<attempts {
            let peer = try make()
            do {
                try launch(peer)
                return peer
            } catch let error as PeerError {
                lastError = error
                stop(peer)
                guard error.isPortConflict else { throw error }
            }
        }
        throw lastError ?? PeerError.startFailed(name, log: "")
    }
}
