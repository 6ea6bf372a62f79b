import FileKeyring
import FoundationEssentials
import HTTPCore
import Testing

/// The derived key is cached only once a file's key check matched, so a tampered header never lends its salt or
/// cost to a keyring the store writes later.
@Suite struct KeyringKeyCacheTests {
    typealias Support = KeyringTestSupport

    @Test func aTamperedHeadersSaltAndCostNeverReachANewKeyring() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let configured = FileCredentialStore.WorkFactor(log2N: 11)
        let store = try FileCredentialStore(
            configuration: .init(path: path, key: .passphrase(Support.passphrase), workFactor: configured))
        // An attacker plants a keyring with their own salt and the smallest cost the format allows.
        let attackerSalt = [UInt8](repeating: 0xA5, count: 16)
        var planted = [UInt8](repeating: 0, count: 64 + 16)
        planted.replaceSubrange(0..<8, with: Array("ASIKEYRG".utf8))
        planted.replaceSubrange(8..<13, with: [1, 1, 10, 8, 1])
        planted.replaceSubrange(16..<32, with: attackerSalt)
        try Data(planted).write(to: URL(filePath: path))
        let error = await #expect(throws: ClientError.self) { try await store.validate() }
        #expect((error?.underlying as? KeyringError)?.code == .wrongKey)
        // The planted file goes away; the next save creates a keyring of the store's own.
        try FileManager.default.removeItem(atPath: path)
        try await store.save(Credential(user: "u", password: "p"), for: Support.scope("a.example"))
        let bytes = try #require(Support.bytes(path))
        #expect(Array(bytes[16..<32]) != attackerSalt, "the new keyring reuses the planted salt")
        #expect(Array(bytes[10..<13]) == [11, 8, 1], "the new keyring has the configured cost")
        let reopened = try FileCredentialStore(
            configuration: .init(path: path, key: .passphrase(Support.passphrase), workFactor: configured))
        #expect(try await reopened.credential(for: Support.scope("a.example")) == Credential(user: "u", password: "p"))
    }

    @Test func aKeyFromAFileThatVerifiedKeepsItsSaltAcrossRewrites() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        try await Support.store(path).save(Credential(user: "u", password: "p"), for: Support.scope("a.example"))
        let salt = try #require(Support.bytes(path)).dropFirst(16).prefix(16)
        let store = try Support.store(path)
        try await store.save(Credential(user: "v", password: "q"), for: Support.scope("b.example"))
        #expect(try #require(Support.bytes(path)).dropFirst(16).prefix(16) == salt)
    }
}
