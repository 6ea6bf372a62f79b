import FoundationEssentials

/// Starts and waits for one nginx in the foreground, for the peers that each write their own configuration
/// (``NginxPeer``, ``DataPathNginxPeer``, ``CacheNginxPeer``), through the one ``PeerLaunch``.
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
        var launch = PeerLaunch(
            name: "nginx", executable: executable,
            arguments: [
                "-p", directory, "-e", directory + "/error.log", "-c", directory + "/nginx.conf",
                "-g", "daemon off;",
            ],
            directory: directory, ports: ports)
        launch.logFile = "error.log"
        launch.isReady = { _ in FileManager.default.fileExists(atPath: directory + "/nginx.pid") }
        return try launch.start()
    }
}
