package import FoundationEssentials
import Glibc

/// A real httpbin (`python3 -m gunicorn httpbin:app`) on 127.0.0.1, started for one test and stopped after it.
///
/// Use ``withHttpbin(_:)`` so the server stops even when the test throws. When httpbin or gunicorn is not
/// installed the tests are skipped (see ``shouldRun``), unless `ASI_REQUIRE_PEERS=1`, which makes ``start()``
/// throw instead. Starting takes a second or two (Python imports Flask), so share one peer within a test.
package final class HttpbinPeer {
    /// The port it listens on.
    package let port: Int
    /// The temporary directory with its log.
    package let directory: String
    private var process: ChildProcess?

    /// The Python interpreter, or `nil`.
    package static let python: String? = ChildProcess.find("python3")

    /// Whether `python3` finds httpbin and gunicorn.
    package static let isInstalled: Bool = {
        guard let python, let directory = try? makeTemporaryDirectory(prefix: "asikit-httpbin-probe") else {
            return false
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let status = try? ChildProcess.run(python, ["-c", PythonModules.probe(["httpbin", "gunicorn"])],
                                           logPath: directory + "/log")
        return status == 0
    }()

    /// Whether the httpbin tests should run: httpbin is installed, or `ASI_REQUIRE_PEERS=1` asks for a failure
    /// when it is not. Use with `.enabled(if: HttpbinPeer.shouldRun)`.
    package static let shouldRun = isInstalled || PeerEnvironment.peersRequired

    private init(port: Int, directory: String) {
        self.port = port
        self.directory = directory
    }

    deinit {
        stop()
    }

    /// Starts httpbin and waits until `GET /get` answers 200. Retries with a fresh port when the port was
    /// taken in the meantime.
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when httpbin is missing, fails to start, or does not answer
    ///   within ``PeerEnvironment/startupTimeout``.
    package static func start() throws -> HttpbinPeer {
        guard let python, isInstalled else {
            throw PeerError.notInstalled("httpbin or gunicorn (pip install httpbin gunicorn)")
        }
        return try PeerLaunch.retryingPortConflicts(
            "httpbin", attempts: 3, portCount: 1, directoryPrefix: "asikit-httpbin",
            make: { HttpbinPeer(port: $0[0], directory: $1) },
            launch: { try $0.launch(python: python) },
            stop: { $0.stop() })
    }

    /// A URL on the server.
    /// - Parameter path: The path, starting with `/`, with any query.
    /// - Returns: The URL.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops gunicorn (`SIGTERM`, then `SIGKILL` after five seconds) and deletes the temporary directory.
    /// Safe to call more than once.
    ///
    /// gunicorn logs only warnings and worse, so a log naming an error means httpbin failed a request (its
    /// answer was a 500) or a worker died; that log is written to standard error first, where the test run's
    /// output keeps it next to the failing test.
    package func stop() {
        if let process {
            process.terminate()
            let log = process.logTail
            if log.contains("[ERROR]") || log.contains("[CRITICAL]") || log.contains("Traceback") {
                let report = Array("httpbin on port \(port) logged errors:\n\(log)\n".utf8)
                _ = report.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            }
        }
        process = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func launch(python: String) throws {
        var launch = PeerLaunch(
            name: "httpbin", executable: python,
            arguments: [
                // --timeout: gunicorn aborts a worker that has not reported for 30 s, and its sync worker answers
                // the request it was serving with a 500; on a loaded test machine that is scheduling, not a fault.
                "-m", "gunicorn", "-b", "127.0.0.1:\(port)", "-w", "2", "--graceful-timeout", "1", "--timeout", "600",
                "--log-level", "warning", "--no-control-socket", "httpbin:app",
            ],
            directory: directory, ports: [port])
        launch.environment = ["PYTHONDONTWRITEBYTECODE": "1"]
        launch.isReady = { [port] _ in LoopbackPorts.statusCode(port: port, path: "/get") == 200 }
        launch.pollMicroseconds = 50_000
        process = try launch.start()
    }
}

/// Starts httpbin, runs `body`, and stops httpbin, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when httpbin cannot be started, or what `body` throws.
package func withHttpbin<Result>(_ body: (HttpbinPeer) async throws -> Result) async throws -> Result {
    try await withPeer(start: { try HttpbinPeer.start() }, stop: { $0.stop() }, body)
}
