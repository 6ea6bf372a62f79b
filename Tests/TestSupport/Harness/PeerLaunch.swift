import FoundationEssentials
import Glibc

/// How one real peer (nginx, squid, Apache, tinyproxy, microsocks, nghttpd) is started: the one launcher every peer
/// configures, with one readiness loop and one port-conflict check.
///
/// The peer writes its configuration into its temporary directory first; ``start()`` then starts the program and
/// polls until it is ready: every port in ``ports`` accepts and belongs to the child (another test's server may
/// have taken a port after it was picked), ``readyMarker`` is in ``logFile`` when set, and ``isReady`` holds. A child
/// that exits is a ``PeerError/startFailed(_:log:)``, and so is a log that reports a taken port (squid goes on
/// running without it), which ``PeerLaunch/retryingPortConflicts(_:attempts:portCount:directoryPrefix:make:launch:stop:)``
/// answers with fresh ports. On any failure the child is stopped and the error carries the end of both logs.
package struct PeerLaunch {
    /// The program's name, for error messages.
    package var name: String
    /// The program: an absolute path, or a name looked up in `PATH`.
    package var executable: String
    /// Its arguments.
    package var arguments: [String]
    /// The peer's temporary directory; its output goes to `output.log` there.
    package var directory: String
    /// The ports it must serve before it counts as ready.
    package var ports: [Int]
    /// Variables set on top of this process's environment.
    package var environment: [String: String] = [:]
    /// A log the program writes itself (relative to ``directory``), read for ``readyMarker``, for port conflicts
    /// and for error messages; `nil` when its output is its only log.
    package var logFile: String?
    /// A line the program writes to ``logFile`` only once it is ready.
    package var readyMarker: String?
    /// A further readiness check, such as a pid file or an answer to an HTTP request.
    package var isReady: (ChildProcess) -> Bool = { _ in true }
    /// How long to wait between two checks, in microseconds.
    package var pollMicroseconds: UInt32 = 20_000
    /// How long a child that failed to start may take to exit after `SIGTERM`.
    package var grace: Duration = .seconds(5)

    /// Describes a launch.
    /// - Parameters:
    ///   - name: The program's name, for error messages.
    ///   - executable: The program.
    ///   - arguments: Its arguments.
    ///   - directory: The peer's temporary directory.
    ///   - ports: The ports it must serve.
    package init(name: String, executable: String, arguments: [String], directory: String, ports: [Int]) {
        self.name = name
        self.executable = executable
        self.arguments = arguments
        self.directory = directory
        self.ports = ports
    }

    /// Starts the program and waits until it is ready.
    /// - Returns: The running child.
    /// - Throws: ``PeerError/startFailed(_:log:)`` when it exits or reports a taken port,
    ///   ``PeerError/notReady(_:log:)`` when it is not ready within ``PeerEnvironment/startupTimeout``.
    package func start() throws -> ChildProcess {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, logPath: directory + "/output.log", environment: environment)
        let deadline = ContinuousClock.now + PeerEnvironment.startupTimeout
        while ContinuousClock.now < deadline {
            let log = ownLog
            guard child.isRunning else {
                throw PeerError.startFailed("\(name) (\(child.exitDescription ?? "exited"))", log: tail(child, log))
            }
            if PeerError.reportsPortConflict(log) {
                child.terminate(grace: grace)
                throw PeerError.startFailed("\(name) (a port was taken)", log: tail(child, log))
            }
            if readyMarker.map({ log.contains($0) }) ?? true,
                ports.allSatisfy({ LoopbackPorts.accepts($0) && ListeningSocketOwner.holds(port: $0, pid: child.pid) }),
                isReady(child)
            {
                return child
            }
            usleep(pollMicroseconds)
        }
        child.terminate(grace: grace)
        throw PeerError.notReady(name, log: tail(child, ownLog))
    }

    /// What the program wrote to ``logFile`` so far.
    private var ownLog: String {
        guard let logFile else { return "" }
        return String(decoding: FileManager.default.contents(atPath: directory + "/" + logFile) ?? Data(),
                      as: UTF8.self)
    }

    /// The end of its output and of its own log.
    private func tail(_ child: ChildProcess, _ log: String) -> String {
        child.logTail + log.suffix(4096)
    }
}

extension PeerLaunch {
    /// Makes and launches a peer on freshly picked ports in a fresh temporary directory, trying again (up to
    /// `attempts` peers) when a port was taken between being picked and being bound; any other failure is thrown at once.
    /// - Parameters:
    ///   - name: The program, for the error when every attempt fails.
    ///   - attempts: How many peers to try.
    ///   - portCount: How many ports the peer needs.
    ///   - directoryPrefix: The prefix of its temporary directory.
    ///   - make: Makes a peer from its ports and directory.
    ///   - launch: Writes its files, starts it and waits until it is ready.
    ///   - stop: Stops a peer that failed to start and deletes its directory.
    /// - Returns: The running peer.
    /// - Throws: The last ``PeerError``, or what `make` throws.
    package static func retryingPortConflicts<Peer>(
        _ name: String,
        attempts: Int = 5,
        portCount: Int,
        directoryPrefix: String,
        make: ([Int], String) throws -> Peer,
        launch: (Peer) throws -> Void,
        stop: (Peer) -> Void
    ) throws -> Peer {
        try PeerError.retryingPortConflicts(
            name, attempts: attempts,
            make: { try make(LoopbackPorts.pick(portCount), try makeTemporaryDirectory(prefix: directoryPrefix)) },
            launch: launch, stop: stop)
    }

    /// The same for a peer that runs several servers, one port each: `make` gets each server's port.
    /// - Parameters:
    ///   - name: The program, for the error when every attempt fails.
    ///   - servers: The peer's servers.
    ///   - directoryPrefix: The prefix of its temporary directory.
    ///   - make: Makes a peer from its servers' ports and its directory.
    ///   - launch: Writes its files, starts it and waits until it is ready.
    ///   - stop: Stops a peer that failed to start and deletes its directory.
    /// - Returns: The running peer.
    /// - Throws: The last ``PeerError``, or what `make` throws.
    package static func retryingPortConflicts<Peer, Server: CaseIterable & Hashable>(
        _ name: String,
        servers: Server.Type,
        directoryPrefix: String,
        make: ([Server: Int], String) throws -> Peer,
        launch: (Peer) throws -> Void,
        stop: (Peer) -> Void
    ) throws -> Peer {
        try retryingPortConflicts(
            name, portCount: Server.allCases.count, directoryPrefix: directoryPrefix,
            make: { try make(Dictionary(uniqueKeysWithValues: zip(Server.allCases, $0)), $1) },
            launch: launch, stop: stop)
    }

    /// Writes a file of a peer's directory, readable by a server that drops privileges (mode 0644).
    /// - Parameters:
    ///   - bytes: The contents.
    ///   - relativePath: The path below `directory`.
    ///   - directory: The peer's directory.
    /// - Throws: What writing throws.
    package static func write(_ bytes: some Sequence<UInt8>, to relativePath: String, in directory: String) throws {
        let path = directory + "/" + relativePath
        try Data(bytes).write(to: URL(filePath: path))
        chmod(path, 0o644)
    }

    /// Creates folders of a peer's directory with a mode a server that drops privileges can use.
    /// - Parameters:
    ///   - relativePaths: The folders below `directory`, parents first.
    ///   - directory: The peer's directory.
    ///   - mode: Their mode.
    /// - Throws: What creating them throws.
    package static func makeFolders(_ relativePaths: [String], in directory: String, mode: Int) throws {
        for relative in relativePaths {
            let path = directory + "/" + relative
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            chmod(path, mode_t(mode))
        }
    }
}
