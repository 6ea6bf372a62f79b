import FoundationEssentials
import Glibc

/// A command line run to its end (asi or curl inside a namespace of an ``ImpairedLink``): its exit status, stdout
/// bytes, stderr text and how long it ran, from its start to the moment a thread of its own saw it end (reported,
/// and bounded only from above).
package struct LinkCommand: Sendable {
    /// The exit status, or 128 + the signal number when it was killed.
    package var status: Int32
    /// Everything written to stdout.
    package var stdout: [UInt8]
    /// Everything written to stderr.
    package var stderr: String
    /// How long it ran.
    package var elapsed: Duration

    /// Runs `argv` and waits for it, killing it after `limit`.
    /// - Parameters:
    ///   - argv: The command line; its first element is an absolute path.
    ///   - limit: How long it may run before it is killed.
    /// - Returns: What it did.
    /// - Throws: ``PeerError`` when it cannot be started.
    package static func run(_ argv: [String], limit: Duration = .seconds(120))
        async throws -> LinkCommand
    {
        let scratch = try makeTemporaryDirectory(prefix: "asikit-link-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, scratch + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        closeInheritedDescriptors(&actions)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let result = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard result == 0 else {
            throw PeerError.startFailed("\(argv[0]): \(String(cString: strerror(result)))", log: "")
        }
        // The wait runs on a thread of its own, not the cooperative pool: a test that polled from the pool measured
        // the pool's delays (77 s for a 2 s timeout while the whole suite ran), not the command's.
        let child = pid
        let (status, ended) = try await offPool { () -> (Int32, ContinuousClock.Instant) in
            var status: Int32 = 0
            let deadline = started + limit
            while true {
                let reaped = waitpid(child, &status, WNOHANG)
                if reaped == child || (reaped == -1 && errno != EINTR) { return (status, ContinuousClock.now) }
                if ContinuousClock.now > deadline { kill(child, SIGKILL) }
                usleep(2_000)
            }
        }
        let elapsed = ended - started
        let signal = status & 0x7f
        return LinkCommand(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
            stdout: FileManager.default.contents(atPath: scratch + "/stdout").map(Array.init) ?? [],
            stderr: String(
                decoding: FileManager.default.contents(atPath: scratch + "/stderr") ?? Data(), as: UTF8.self),
            elapsed: elapsed)
    }
}
