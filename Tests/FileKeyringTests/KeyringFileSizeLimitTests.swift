import FileKeyring
import FoundationEssentials
import Glibc
import HTTPCore
import Testing

/// The 64 MiB cap on a keyring or `.netrc` file (`Docs/Limits.md`): a larger file is refused from its size alone,
/// before any byte is read. The files here are sparse, so the test writes nothing.
@Suite struct KeyringFileSizeLimitTests {
    /// A sparse file of `size` bytes; returns its path.
    static func sparseFile(size: Int, in directory: String, named name: String) throws -> String {
        let path = directory + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(size)) == 0)
        close(descriptor)
        return path
    }

    @Test func aNetrcFileOverTheCapIsRefused() throws {
        let directory = try KeyringTestSupport.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.sparseFile(size: (64 << 20) + 1, in: directory, named: "netrc")
        let error = try #require(throws: KeyringError.self) { _ = try NetrcFile.load(path: path) }
        #expect(error.code == .damaged)
        #expect(error.message == "the file is larger than 64 MiB")
    }

    @Test func aNetrcFileAtTheCapIsRead() throws {
        let directory = try KeyringTestSupport.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 64 MiB of NUL bytes: read whole (what the parser makes of them does not matter here), not refused.
        let path = try Self.sparseFile(size: 64 << 20, in: directory, named: "netrc")
        do {
            _ = try NetrcFile.load(path: path)
        } catch let error as KeyringError {
            Issue.record("refused by size: \(error)")
        } catch {}
    }

    @Test func aKeyringFileOverTheCapIsRefused() async throws {
        let directory = try KeyringTestSupport.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.sparseFile(size: (64 << 20) + 1, in: directory, named: "keyring")
        let store = try KeyringTestSupport.store(path)
        let error = try await #require(throws: ClientError.self) {
            _ = try await store.credential(for: KeyringTestSupport.scope("a.example"))
        }
        #expect(error.code == .storageFailed)
        #expect(error.message.hasSuffix("the file is larger than 64 MiB"))
    }
}
