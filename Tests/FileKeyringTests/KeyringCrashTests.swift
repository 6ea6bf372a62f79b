import FileKeyring
import FoundationEssentials
import Glibc
import HTTPCore
import TestSupport
import Testing

/// Other processes writing the same keyring: a writer killed with SIGKILL mid-write, and two writers at once. The
/// writer is the `KeyringWriter` test executable.
@Suite struct KeyringCrashTests {
    typealias Support = KeyringTestSupport

    /// The hosts saved in the keyring, in order (it decrypts, or the test fails).
    /// How many of `h-0`, `h-1`, … the file holds. The writer saves them in order, so they form a prefix; its
    /// length is found by doubling, then bisecting: a few reads whatever the length. (Each read decrypts the whole
    /// file, and on a loaded machine the writer runs thousands of saves ahead of the test, so reading every entry
    /// took minutes of a cooperative thread.)
    private func savedCount(_ path: String) async throws -> Int {
        let store = try Support.store(path)
        func has(_ index: Int) async throws -> Bool {
            try await store.credential(for: Support.scope("h-\(index).example")) != nil
        }
        guard try await has(0) else { return 0 }
        var (low, high) = (0, 1)  // has(low), and high is to be tried
        while try await has(high) { (low, high) = (high, high * 2) }
        while high - low > 1 {
            let middle = (low + high) / 2
            if try await has(middle) { low = middle } else { high = middle }
        }
        return low + 1
    }

    /// A writer stopped at a fixed point of its fourth save (half the temporary file written, or all of it synced
    /// but not renamed) and killed there: the keyring holds exactly the three earlier saves, and the next writer
    /// clears the leftover temporary file.
    @Test(arguments: ["halfWritten", "beforeRename"])
    func killDuringAWriteLeavesThePreviousFile(_ stage: String) async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let marker = "\(directory)/stopped"
        let writer = try Support.startWriter([path, "stop-at", "3", stage, marker], log: "\(directory)/log")
        let stopped = await Support.waitUntil { access(marker, F_OK) == 0 || !writer.isRunning }
        #expect(stopped && writer.isRunning, "the writer did not reach its stop: \(writer.logTail)")
        writer.send(SIGKILL)
        #expect(await Support.exitStatus(of: writer) == 128 + SIGKILL)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp.") }
        #expect(leftovers.count == 1, "the killed writer's temporary file: \(leftovers)")
        #expect(try await savedCount(path) == 3)
        try await Support.store(path).save(Credential(user: "u", password: "p"), for: Support.scope("h-3.example"))
        #expect(try await savedCount(path) == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp.") }.isEmpty)
    }

    /// A writer saving in a loop, killed wherever it happens to be: the file always opens and holds a complete
    /// earlier state (a prefix h-0 ... h-k of what it saved).
    @Test func killAnywhereInALoopLeavesACompleteState() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let writer = try Support.startWriter([path, "loop"], log: "\(directory)/log")
        let store = try Support.store(path)
        let progressed = await Support.waitUntil {
            (try? await store.credential(for: Support.scope("h-4.example"))) != nil || !writer.isRunning
        }
        #expect(progressed && writer.isRunning, "the writer made no progress: \(writer.logTail)")
        writer.send(SIGKILL)
        _ = await Support.exitStatus(of: writer)
        try await store.validate()
        let saved = try await savedCount(path)
        #expect(saved >= 5)
        // A complete earlier state: its first, middle and last entries are there, and nothing after them.
        for index in [0, saved / 2, saved - 1] {
            #expect(try await store.credential(for: Support.scope("h-\(index).example")) != nil)
        }
        #expect(try await store.credential(for: Support.scope("h-\(saved).example")) == nil)
        #expect(try await store.credential(for: Support.scope("h-\(saved + 1).example")) == nil)
    }

    /// Two processes (umask 0) saving 15 entries each at the same time: every one of the 30 is in the file
    /// afterwards, and the file and its lock file are 0600.
    @Test func twoWritersAtOnceKeepBothEntries() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let first = try Support.startWriter([path, "save", "a", "15"], log: "\(directory)/log-a")
        let second = try Support.startWriter([path, "save", "b", "15"], log: "\(directory)/log-b")
        #expect(await Support.exitStatus(of: first) == 0, "\(first.logTail)")
        #expect(await Support.exitStatus(of: second) == 0, "\(second.logTail)")
        #expect(Support.mode(path) == 0o600, "made 0600 under umask 0")
        #expect(Support.mode(path + ".lock") == 0o600)
        let store = try Support.store(path)
        for prefix in ["a", "b"] {
            for index in 0..<15 {
                let found = try await store.credential(for: Support.scope("\(prefix)-\(index).example"))
                #expect(found == Credential(user: "user-\(index)", password: "pw-\(prefix)-\(index)"))
            }
        }
    }
}
