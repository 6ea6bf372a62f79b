import FoundationEssentials
import Glibc
import TestSupport

/// Runs the `asi` binary (the `ASICommand` example) and captures what it did: exit status, stdout bytes, stderr
/// text and peak memory.
///
/// The binary is found next to the test executable (`.build/<triple>/debug/asi`, beside the test bundle), which
/// `swift build --build-tests` and `swift build` both produce; a missing binary fails the test with a message
/// saying so rather than skipping it.
struct ASICommandRun {
    /// The exit status, or 128 + the signal number when it was killed.
    var status: Int32
    /// Everything written to stdout.
    var stdout: [UInt8]
    /// Everything written to stderr.
    var stderr: String
    /// The child's peak resident memory in KiB, as last seen in `/proc/<pid>/status` (`VmHWM`) while it ran.
    /// (`ru_maxrss` would not do: `posix_spawn`'s vfork child records the test process's peak when it execs.)
    var maxResidentKiB: Int

    /// stdout as text.
    var output: String { String(decoding: stdout, as: UTF8.self) }

    /// Why `asi` could not be run.
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "the asi binary is not at \(path): build it first (swift build --build-tests builds every product; "
                + "or swift build --product asi)"
        }
    }

    /// The `asi` binary beside the running test executable.
    static let binary: String = siblingExecutable("asi")

    /// Runs `asi` with `arguments` and waits for it, killing it after `limit`.
    /// - Parameters:
    ///   - arguments: The command line after `asi`.
    ///   - directory: The working directory; the test's when `nil`.
    ///   - limit: How long it may run before it is killed (a hang then fails the test's assertions).
    ///   - environment: Variables set on top of this process's environment.
    ///   - standardInput: A file to read as standard input; `/dev/null` when `nil`.
    ///   - launcher: A command line that runs `asi` as its last arguments, such as
    ///     `["/bin/sh", "-c", "ulimit -f 8; exec \"$@\"", "sh"]`; its first element is an absolute path.
    /// - Returns: What it did.
    /// - Throws: ``Missing`` when the binary is not built, or `PeerError` when it cannot be started.
    static func run(
        _ arguments: [String], in directory: String? = nil, limit: Duration = .seconds(60),
        environment: [String: String] = [:], standardInput: String? = nil, launcher: [String] = []
    ) async throws -> ASICommandRun {
        guard access(binary, X_OK) == 0 else { throw Missing(path: binary) }
        let scratch = try makeTemporaryDirectory(prefix: "asikit-asi-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, scratch + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        closeInheritedDescriptors(&actions)
        // A working directory goes through `sh -c 'cd DIR && exec asi ...'` (exec keeps the pid).
        let argv =
            launcher
            + (directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, binary] + arguments }
                ?? [binary] + arguments)
        let program = argv[0]
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        let cEnvironment =
            ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.map { strdup("\($0)=\($1)") }
            + [nil]
        defer { for pointer in cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, program, &actions, nil, cArguments, cEnvironment)
        guard started == 0 else {
            throw PeerError.startFailed("asi: \(String(cString: strerror(started)))", log: "")
        }
        var status: Int32 = 0
        var peak = 0
        let deadline = ContinuousClock.now + limit
        while true {
            peak = max(peak, highWaterMarkKiB(of: pid))
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR { break }
            if ContinuousClock.now > deadline { kill(pid, SIGKILL) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        let signal = status & 0x7f
        return ASICommandRun(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
            stdout: FileManager.default.contents(atPath: scratch + "/stdout").map(Array.init) ?? [],
            stderr: String(
                decoding: FileManager.default.contents(atPath: scratch + "/stderr") ?? Data(), as: UTF8.self),
            maxResidentKiB: peak)
    }

    /// `VmHWM` of a running process, in KiB; 0 when it cannot be read.
    private static func highWaterMarkKiB(of pid: pid_t) -> Int {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return 0 }
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
