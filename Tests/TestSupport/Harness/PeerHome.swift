import FoundationEssentials

/// A peer's temporary directory and the process that runs in it, stopped and deleted together: when the peer stops
/// and, at the latest, when the peer is released, so a server never outlives the test that started it.
package final class PeerHome {
    /// The temporary directory with the peer's configuration, documents and logs.
    package let directory: String
    /// The running program, once ``PeerLaunch/start()`` has returned it.
    package var process: ChildProcess?

    /// A home in a directory the peer has just made.
    /// - Parameter directory: The temporary directory.
    package init(directory: String) {
        self.directory = directory
    }

    deinit {
        stop()
    }

    /// Stops the program (`SIGTERM`, then `SIGKILL` after `grace`) and keeps the directory, so its logs stay
    /// readable. Safe to call more than once.
    /// - Parameter grace: How long the program may take to exit cleanly.
    package func stopProcess(grace: Duration = .seconds(5)) {
        process?.terminate(grace: grace)
        process = nil
    }

    /// Stops the program and deletes the directory. Safe to call more than once.
    /// - Parameter grace: How long the program may take to exit cleanly.
    package func stop(grace: Duration = .seconds(5)) {
        stopProcess(grace: grace)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
