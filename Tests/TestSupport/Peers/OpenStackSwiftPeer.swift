package import FoundationEssentials
import Glibc
import Synchronization

/// A real OpenStack Swift object store (Debian's `swift-proxy`, `swift-account`, `swift-container`,
/// `swift-object`, with `memcached`) on 127.0.0.1, the way `shared/recipes/openstack-swift.sh` starts one: one
/// replica, rings in a temporary directory, tempauth, and a proxy pipeline with bulk, tempurl, slo, dlo and copy.
///
/// Users (tempauth): `test:tester`/`testing` (admin of `AUTH_test`), `test:tester3`/`testing3` (plain member),
/// `test2:tester2`/`testing2`. Listings return at most ``listingLimit`` names (1,000), so paging is needed early.
/// python-swiftclient, the reference client, is ``swiftclient`` (Debian installs it as `/usr/bin/swift`; the
/// installer diverts it to `/usr/bin/swiftclient` so that it never shadows the Swift toolchain).
///
/// Use ``withOpenStackSwift(_:)``: it shares one server per test process (started on first use, stopped at exit),
/// and each test uses an account of its own. Skipped when the packages are not installed unless
/// `ASI_REQUIRE_PEERS=1`. Starting takes 10 to 60 seconds on a busy machine (rings, Python imports).
// @unchecked: shared by the tests of one process; after `start()` only `stop()` changes it, at exit.
package final class OpenStackSwiftPeer: @unchecked Sendable {
    /// The proxy's port.
    package let port: Int
    /// The temporary directory: `etc/` (configs and rings), `srv/d1` (the device) and `log/`.
    package let directory: String
    /// Names one listing `GET` returns at most (`container_listing_limit`).
    package let listingLimit = 1000
    private let ports: [Int]
    private var processes: [ChildProcess] = []

    /// Debian's `/usr/bin/python3`, which has the `swift` and `swiftclient` packages (a `python3` earlier in `PATH`,
    /// from pip or a virtual environment, may not), or `nil`.
    package static let python: String? = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : nil
    /// python-swiftclient's CLI, diverted to `swiftclient`, or `nil`.
    package static let swiftclient: String? = ["/usr/bin/swiftclient", "/usr/local/bin/swiftclient"].first {
        access($0, X_OK) == 0
    }

    /// Whether every program the peer needs is installed.
    package static let isInstalled: Bool = {
        python != nil && swiftclient != nil
            && [
                "swift-ring-builder", "swift-proxy-server", "swift-account-server", "swift-container-server",
                "swift-object-server", "memcached",
            ].allSatisfy { ChildProcess.find($0) != nil }
    }()

    /// Whether the Swift tests should run: installed, or `ASI_REQUIRE_PEERS=1` asks for a failure when not.
    package static let shouldRun = isInstalled || PeerEnvironment.peersRequired

    private init(ports: [Int], directory: String) {
        self.ports = ports
        self.port = ports[0]
        self.directory = directory
    }

    deinit { stop() }

    /// The v1 auth URL, `http://127.0.0.1:<port>/auth/v1.0`.
    package var authURL: URL { URL(string: "http://127.0.0.1:\(port)/auth/v1.0")! }

    /// The proxy's base URL, `http://127.0.0.1:<port>`.
    package var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts memcached and the four servers and waits until each answers `/healthcheck`.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when a program is missing, fails, or is not healthy within
    ///   ``PeerEnvironment/startupTimeout``.
    package static func start() throws -> OpenStackSwiftPeer {
        guard let python, isInstalled else {
            throw PeerError.notInstalled("OpenStack Swift (scripts/install-dependencies.sh installs swift-proxy, …)")
        }
        return try PeerLaunch.retryingPortConflicts(
            "OpenStack Swift", attempts: 3, portCount: 6, directoryPrefix: "asikit-swift",
            make: { OpenStackSwiftPeer(ports: $0, directory: $1) },
            launch: { try $0.launch(python: python) },
            stop: { $0.stop() })
    }

    /// Stops every process (`SIGTERM`, then `SIGKILL`) and deletes the temporary directory.
    package func stop() {
        for process in processes.reversed() { process.terminate() }
        processes = []
        if ProcessInfo.processInfo.environment["ASI_KEEP_SWIFT"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Runs python-swiftclient (`swiftclient -A … -U test:tester -K testing ARGS`) and returns its exit status and
    /// output (stdout and stderr together).
    /// - Parameters:
    ///   - user: The tempauth user.
    ///   - key: Its key.
    ///   - workingDirectory: Where it runs (downloads land there); the peer's directory by default.
    ///   - arguments: The subcommand and its arguments.
    /// - Returns: The status and output.
    /// - Throws: ``PeerError`` when it cannot be started.
    package func swiftclient(
        user: String = "test:tester", key: String = "testing", workingDirectory: String? = nil, _ arguments: [String]
    ) throws -> (status: Int32, output: String) {
        guard let program = Self.swiftclient, let python = Self.python else {
            throw PeerError.notInstalled("python-swiftclient")
        }
        let log = directory + "/log/swiftclient-\(UInt32.random(in: 0...UInt32.max)).log"
        // Through a shell line so the child runs in the chosen directory.
        let cd = workingDirectory ?? directory
        let script =
            "import os, sys, runpy; os.chdir(sys.argv[1]); sys.argv = sys.argv[2:]; "
            + "runpy.run_path(sys.argv[0], run_name='__main__')"
        let status = try ChildProcess.run(
            python, ["-c", script, cd, program, "-A", authURL.absoluteString, "-U", user, "-K", key] + arguments,
            logPath: log)
        let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        try? FileManager.default.removeItem(atPath: log)
        return (status, output)
    }

    private func launch(python: String) throws {
        let etc = directory + "/etc"
        for sub in ["etc", "srv/d1", "log"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        let (proxy, account, container, object, memcached, syslog) = (
            ports[0], ports[1], ports[2], ports[3], ports[4], ports[5]
        )
        try write(etc + "/swift.conf", Self.swiftConf(listingLimit: listingLimit))
        for (ring, ringPort) in [("account", account), ("container", container), ("object", object)] {
            let builder = "\(etc)/\(ring).builder"
            for arguments in [
                [builder, "create", "10", "1", "1"],
                [
                    builder, "add", "--region", "1", "--zone", "1", "--ip", "127.0.0.1", "--port", String(ringPort),
                    "--device", "d1", "--weight", "100",
                ],
                [builder, "rebalance"],
            ] {
                let log = "\(directory)/log/ring-\(ring).log"
                let status = try ChildProcess.run(ChildProcess.find("swift-ring-builder")!, arguments, logPath: log)
                guard status == 0 || (arguments[1] == "rebalance" && status == 1) else {
                    throw PeerError.startFailed("swift-ring-builder \(ring)", log: tail(log))
                }
            }
        }
        let common = Self.common(directory: directory, syslogPort: syslog)
        for (server, serverPort) in [("account", account), ("container", container), ("object", object)] {
            try write(
                "\(etc)/\(server)-server.conf", Self.backendConf(common: common, server: server, port: serverPort))
        }
        try write("\(etc)/proxy-server.conf", Self.proxyConf(common: common, port: proxy, memcached: memcached))
        let memcachedProcess = try ChildProcess(
            executable: ChildProcess.find("memcached")!,
            arguments: ["-l", "127.0.0.1", "-p", String(memcached), "-U", "0", "-m", "64", "-u", Self.userName],
            logPath: directory + "/log/memcached.log")
        processes.append(memcachedProcess)
        // Each server is its packaged script run by a Python line that first points Swift at this swift.conf.
        let run = """
            import runpy, sys
            import swift.common.utils as u
            u.SWIFT_CONF_FILE = sys.argv.pop(1)
            sys.argv.pop(0)
            runpy.run_path(sys.argv[0], run_name="__main__")
            """
        var servers: [(ChildProcess, Int)] = []
        for (server, serverPort) in [
            ("account", account), ("container", container), ("object", object), ("proxy", proxy),
        ] {
            let child = try ChildProcess(
                executable: python,
                arguments: [
                    "-c", run, etc + "/swift.conf", ChildProcess.find("swift-\(server)-server")!,
                    "\(etc)/\(server)-server.conf", "-v",
                ],
                logPath: "\(directory)/log/\(server).log", environment: ["PYTHONDONTWRITEBYTECODE": "1"])
            processes.append(child)
            servers.append((child, serverPort))
        }
        // Three minutes at least: five Python servers import Swift at once, beside the rest of the parallel suite.
        let deadline = ContinuousClock.now + max(PeerEnvironment.startupTimeout, .seconds(180))
        var waiting = servers
        while ContinuousClock.now < deadline {
            for (child, _) in servers where !child.isRunning {
                let log = child.logTail
                throw PeerError.startFailed(
                    "OpenStack Swift (\(child.commandLine.suffix(60)): \(child.exitDescription ?? "ended"))", log: log)
            }
            waiting.removeAll { child, serverPort in
                LoopbackPorts.statusCode(port: serverPort, path: "/healthcheck") == 200
                    && ListeningSocketOwner.holds(port: serverPort, pid: child.pid)
            }
            if waiting.isEmpty { return }
            usleep(100_000)
        }
        throw PeerError.notReady("OpenStack Swift", log: waiting.first?.0.logTail ?? "")
    }

    private func write(_ path: String, _ text: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw PeerError.startFailed("writing \(path)", log: "")
        }
    }

    private func tail(_ path: String) -> String {
        String(decoding: (FileManager.default.contents(atPath: path) ?? Data()).suffix(2000), as: UTF8.self)
    }

    static var userName: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "root" }
        return String(cString: name)
    }
}

/// Runs `body` with the process's one OpenStack Swift, started on first use and stopped when the process exits.
///
/// One server is shared because five Python processes per test, started at once by the parallel suite on a
/// two-core machine, did not become healthy within a minute. Tests stay independent by using an account of their
/// own (``OpenStackSwiftPeer/extraAccounts``, `tN:tester`/`testing`), never `AUTH_test` together.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when Swift cannot be started (every later caller gets the same error), or what `body`
///   throws.
package func withOpenStackSwift<Result>(_ body: (OpenStackSwiftPeer) async throws -> Result) async throws -> Result {
    let peer = try await offPool { try SharedOpenStackSwift.peer() }
    return try await body(peer)
}

/// The shared server: started once under a lock (other callers wait), its outcome kept.
private enum SharedOpenStackSwift {
    private static let outcome = Mutex<Result<OpenStackSwiftPeer, PeerError>?>(nil)

    static func peer() throws -> OpenStackSwiftPeer {
        try outcome.withLock { outcome -> Result<OpenStackSwiftPeer, PeerError> in
            if let outcome { return outcome }
            let made: Result<OpenStackSwiftPeer, PeerError>
            do {
                made = .success(try OpenStackSwiftPeer.start())
                atexit { SharedOpenStackSwift.stopAtExit() }
            } catch let error as PeerError {
                made = .failure(error)
            } catch {
                made = .failure(.startFailed("OpenStack Swift", log: "\(error)"))
            }
            outcome = made
            return made
        }.get()
    }

    static func stopAtExit() {
        if case .success(let peer)? = outcome.withLock({ $0 }) { peer.stop() }
    }
}
