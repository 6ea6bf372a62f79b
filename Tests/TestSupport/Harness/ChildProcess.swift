import FoundationEssentials
package import Glibc

/// A child process started with `posix_spawn`, in its own process group, with stdin from `/dev/null` and
/// stdout and stderr appended to a log file. Used by the interop harnesses to run real servers.
///
/// Not `Sendable`: one test owns it. ``terminate(grace:signal:)`` runs on deinit, so a server never outlives
/// the harness that started it.
package final class ChildProcess {
    /// The child's process ID, which is also its process group ID.
    package let pid: pid_t
    /// The command line, for error messages.
    package let commandLine: String
    /// Where stdout and stderr go.
    package let logPath: String
    private var exitStatus: Int32?

    /// Starts a program.
    /// - Parameters:
    ///   - executable: An absolute path, or a name looked up in `PATH`.
    ///   - arguments: The arguments after the program name.
    ///   - logPath: The file that receives stdout and stderr (created or appended to).
    ///   - environment: Variables to set on top of this process's environment.
    /// - Throws: ``PeerError/startFailed(_:log:)`` when the program cannot be started.
    package init(executable: String, arguments: [String], logPath: String, environment: [String: String] = [:]) throws {
        let argv = [executable] + arguments
        commandLine = argv.joined(separator: " ")
        self.logPath = logPath
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeInheritedDescriptors(&actions)

        // Own process group (so the whole server can be killed at once), default signal dispositions and an
        // empty signal mask (ignored signals such as SIGPIPE would otherwise be inherited across exec).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var child: pid_t = 0
        let result =
            executable.contains("/")
            ? posix_spawn(&child, executable, &actions, &attributes, cArguments, cEnvironment)
            : posix_spawnp(&child, executable, &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else {
            throw PeerError.startFailed("\(commandLine): \(String(cString: strerror(result)))", log: "")
        }
        pid = child
    }

    deinit {
        terminate()
    }

    /// Whether the child is still running; reaps it when it has exited.
    package var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid || (result == -1 && errno == ECHILD) {
            exitStatus = status
            return false
        }
        return true
    }

    /// How the child ended, for error messages; `nil` while it runs.
    package var exitDescription: String? {
        guard !isRunning, let status = exitStatus else { return nil }
        let signal = status & 0x7f
        return signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "killed by signal \(signal)"
    }

    /// Waits for the child to end without blocking a cooperative thread (the pool has one thread per core, and
    /// other suites run beside the caller): polls every 10 ms.
    /// - Returns: The exit status, as ``waitForExit()`` gives it.
    package func exited() async -> Int32 {
        while isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        return waitForExit()
    }

    /// The exit status, waiting for the child to end. For short-lived helper commands: it blocks the calling
    /// thread (async tests use ``exited()``).
    /// - Returns: The exit status, or 128 + the signal number when it was killed.
    package func waitForExit() -> Int32 {
        while isRunning { usleep(10_000) }
        let status = exitStatus ?? 0
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Stops the child: sends `signal` to its process group, waits up to `grace`, then sends `SIGKILL` to the
    /// group and reaps the child. Safe to call more than once.
    /// - Parameters:
    ///   - grace: How long the child may take to exit cleanly.
    ///   - signal: The polite signal.
    package func terminate(grace: Duration = .seconds(5), signal: Int32 = SIGTERM) {
        guard isRunning else { return }
        kill(-pid, signal)
        let deadline = ContinuousClock.now + grace
        while isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if isRunning {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exitStatus = status
        }
    }

    /// Sends `signal` to the child, but only while it has not been reaped: once ``isRunning`` has reaped it, its pid
    /// is free and may already belong to another test's server (pids wrap at 32768 here), which a bare
    /// `kill(pid, …)` would hit.
    /// - Parameter signal: The signal.
    /// - Returns: Whether the signal was sent.
    @discardableResult
    package func send(_ signal: Int32) -> Bool {
        guard isRunning else { return false }
        return kill(pid, signal) == 0
    }

    /// The log's contents, for error messages; at most the last 4 KiB.
    package var logTail: String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "" }
        return String(decoding: data.suffix(4096), as: UTF8.self)
    }

    /// Finds an executable by name in `PATH` and the usual system directories.
    /// - Parameter name: The program's name.
    /// - Returns: Its absolute path, or `nil` when it is not installed.
    package static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin"]
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs a command to completion.
    /// - Parameters:
    ///   - executable: An absolute path, or a name looked up in `PATH`.
    ///   - arguments: The arguments.
    ///   - logPath: Where its output goes.
    /// - Returns: The exit status.
    /// - Throws: ``PeerError/startFailed(_:log:)`` when it cannot be started.
    package static func run(_ executable: String, _ arguments: [String], logPath: String) throws -> Int32 {
        try ChildProcess(executable: executable, arguments: arguments, logPath: logPath).waitForExit()
    }
}
