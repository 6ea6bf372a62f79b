import FoundationEssentials
import Glibc

/// Starts and waits for one nginx in the foreground, for the peers that each write their own configuration
/// (``NginxPeer``, ``DataPathNginxPeer``, ``CacheNginxPeer``).
package enum NginxProcess {
    /// Starts nginx with `directory` as its prefix (`nginx.conf`, `error.log` and `nginx.pid` there) and waits
    /// until it serves every port in `ports`.
    ///
    /// nginx writes its pid file only after it has bound every listener; the ports must also accept and belong to
    /// this nginx, since another test's server may have taken a port after it was picked.
    /// - Parameters:
    ///   - executable: The nginx binary.
    ///   - directory: The prefix directory holding `nginx.conf`.
    ///   - ports: The ports the configuration listens on.
    /// - Returns: The running nginx.
    /// - Throws: ``PeerError/startFailed(_:log:)`` when nginx exits, ``PeerError/notReady(_:log:)`` when it is not
    ///   ready within ``PeerEnvironment/startupTimeout``; both carry the end of its logs.
    package static func start(executable: String, directory: String, ports: [Int]) throws -> ChildProcess {
        let child = try ChildProcess(
            executable: executable,
            arguments: [
                "-p", directory, "-e", directory + "/error.log", "-c", directory + "/nginx.conf",
                "-g", "daemon off;",
            ],
            logPath: directory + "/output.log")
        let deadline = ContinuousClock.now + PeerEnvironment.startupTimeout
        while ContinuousClock.now < deadline {
            guard child.isRunning else {
                throw PeerError.startFailed(
                    "nginx (\(child.exitDescription ?? "exited"))", log: logTail(directory: directory, child: child))
            }
            if FileManager.default.fileExists(atPath: directory + "/nginx.pid"),
                ports.allSatisfy({ LoopbackPorts.accepts($0) && ListeningSocketOwner.holds(port: $0, pid: child.pid) })
            {
                return child
            }
            usleep(20_000)
        }
        child.terminate()
        throw PeerError.notReady("nginx", log: logTail(directory: directory, child: child))
    }

    /// The end of nginx's error log and of its output.
    static func logTail(directory: String, child: ChildProcess?) -> String {
        let error = FileManager.default.contents(atPath: directory + "/error.log") ?? Data()
        return String(decoding: error.suffix(4096), as: UTF8.self) + (child?.logTail ?? "")
    }
}
