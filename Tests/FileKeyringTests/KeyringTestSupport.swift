import FileKeyring
import FoundationEssentials
import Glibc
import HTTPCore
import TestSupport

/// Shared helpers: temporary keyrings with the smallest work factor, the file's bytes, and the writer child.
enum KeyringTestSupport {
    static let passphrase = "correct horse battery staple"
    static let fast = FileCredentialStore.WorkFactor(log2N: 10)

    static func directory() throws -> String { try makeTemporaryDirectory(prefix: "asikit-keyring") }

    static func store(_ path: String, passphrase: String = passphrase) throws -> FileCredentialStore {
        try FileCredentialStore(configuration: .init(path: path, key: .passphrase(passphrase), workFactor: fast))
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func scope(_ host: String) -> CredentialScope { CredentialScope(scheme: "https", host: host, port: 443) }

    /// The `KeyringWriter` test executable beside the running test binary.
    static let writer: String = siblingExecutable("KeyringWriter")

    static func startWriter(_ arguments: [String], log: String) throws -> ChildProcess {
        try ChildProcess(
            executable: writer, arguments: arguments, logPath: log,
            environment: ["KEYRING_WRITER_PASSPHRASE": passphrase])
    }

    /// The child's exit status, waited for without blocking a cooperative thread (the pool has one thread per
    /// core, and other suites run beside this one).
    static func exitStatus(of child: ChildProcess) async -> Int32 {
        while child.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        return child.waitForExit()
    }

    /// Polls `condition` every 10 ms until it holds or `limit` passes (a safety net, not a timing assertion).
    static func waitUntil(limit: Duration = .seconds(60), _ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the bytes.
    func contains(bytes needle: some StringProtocol) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, count >= pattern.count else { return false }
        return (0...(count - pattern.count)).contains { Array(self[$0..<$0 + pattern.count]) == pattern }
    }
}
