import Glibc

/// Why a real peer (nginx, httpbin) could not be used.
enum PeerError: Error, CustomStringConvertible {
    /// The program is not installed; only thrown when ``PeerEnvironment/peersRequired`` is set, since the tests
    /// are skipped otherwise.
    case notInstalled(String)
    /// The program could not be started or exited early; `log` is the end of its output.
    case startFailed(String, log: String)
    /// The program started but did not answer in time.
    case notReady(String, log: String)

    var description: String {
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
enum PeerEnvironment {
    /// `ASI_REQUIRE_PEERS=1`: a missing peer fails the tests instead of skipping them. CI sets it.
    static let peersRequired: Bool = {
        guard let value = getenv("ASI_REQUIRE_PEERS") else { return false }
        return String(cString: value) == "1"
    }()
}
