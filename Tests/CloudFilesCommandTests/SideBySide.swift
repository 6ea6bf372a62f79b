import Foundation
import Glibc
import TestSupport

/// Runs `cloudfiles` (the `CloudFilesCommand` example, beside the test executable) and python-swiftclient with the
/// same arguments against the shared ``OpenStackSwiftPeer``, capturing exit status, stdout and stderr apart.
struct SideBySide {
    /// What one program did.
    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        /// stdout's lines.
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        var description: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    let peer: OpenStackSwiftPeer
    /// The tempauth user (an account no other test uses).
    let user: String
    /// The working directory of both programs.
    let directory: String

    /// The `cloudfiles` binary beside the running test executable.
    static let binary: String = siblingExecutable("cloudfiles")

    /// Runs `cloudfiles ARGS` with the credentials in `ST_AUTH`/`ST_USER`/`ST_KEY`.
    func ours(_ arguments: [String], key: String = "testing") async throws -> Run {
        try await Self.spawn(
            [Self.binary] + arguments, in: directory,
            environment: ["ST_AUTH": peer.authURL.absoluteString, "ST_USER": user, "ST_KEY": key])
    }

    /// Runs `swiftclient -A … -U … -K … ARGS`.
    func theirs(_ arguments: [String], key: String = "testing") async throws -> Run {
        guard let python = OpenStackSwiftPeer.python, let program = OpenStackSwiftPeer.swiftclient else {
            throw PeerError.notInstalled("python-swiftclient")
        }
        return try await Self.spawn(
            [python, program, "-A", peer.authURL.absoluteString, "-U", user, "-K", key] + arguments, in: directory,
            environment: [:])
    }

    /// Spawns a program in a directory and waits for it (killing it after two minutes).
    static func spawn(_ argv: [String], in directory: String, environment: [String: String]) async throws -> Run {
        let scratch = try makeTemporaryDirectory(prefix: "asikit-cloudfiles-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, scratch + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        closeInheritedDescriptors(&actions)
        let line = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory] + argv
        let cArguments = line.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        for name in ["ST_AUTH", "ST_USER", "ST_KEY", "ST_AUTH_VERSION"] where environment[name] == nil {
            variables[name] = nil
        }
        let cEnvironment = variables.map { strdup("\($0)=\($1)") } + [nil]
        defer { for pointer in cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/sh", &actions, nil, cArguments, cEnvironment)
        guard started == 0 else { throw PeerError.startFailed("spawn: \(String(cString: strerror(started)))", log: "") }
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(120)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline { kill(pid, SIGKILL) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        let read = { (name: String) in
            String(decoding: FileManager.default.contents(atPath: scratch + "/" + name) ?? Data(), as: UTF8.self)
        }
        let signal = status & 0x7f
        return Run(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, stdout: read("stdout"), stderr: read("stderr"))
    }

    /// `swift stat`'s lines without the ones that differ per request (transaction IDs).
    static func stable(_ run: Run) -> [String] {
        run.lines.filter { !$0.contains("X-Trans-Id:") && !$0.contains("X-Openstack-Request-Id:") }
    }
}
