import FileKeyring
import FoundationEssentials
import Glibc
import HTTPCore
import HTTPTesting
import Testing

@Suite struct FileCredentialStoreTests {
    typealias Support = KeyringTestSupport

    @Test func passesTheConformanceSuite() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var made = 0
        try await CredentialStoreConformance.run {
            made += 1
            return try Support.store("\(directory)/conformance-\(made)")
        }
    }

    @Test func fileAndLockAre0600AndHoldNoPlaintext() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let store = try Support.store(path)
        let credential = Credential(user: "alice-the-user", password: "plaintext-password-42", domain: "CORPDOMAIN")
        try await store.save(
            credential, for: CredentialScope(scheme: "https", host: "secret-host.example", port: 8443, realm: "Realm X")
        )
        #expect(Support.mode(path) == 0o600)
        #expect(Support.mode(path + ".lock") == 0o600)
        let bytes = try #require(Support.bytes(path))
        for secret in [
            "alice-the-user", "plaintext-password-42", "CORPDOMAIN", "secret-host", "Realm X", Support.passphrase,
        ] {
            #expect(!bytes.contains(bytes: secret), "\(secret) appears in the file")
        }
        #expect(bytes.starts(with: Array("ASIKEYRG".utf8)))
        let reopened = try Support.store(path)
        let found = try await reopened.credential(
            for: CredentialScope(scheme: "https", host: "secret-host.example", port: 8443, realm: "Realm X"))
        #expect(found == credential)
    }

    @Test func wrongPassphraseIsTypedAndLeavesTheFileUntouched() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        try await Support.store(path).save(Credential(user: "u", password: "p"), for: Support.scope("a.example"))
        let before = try #require(Support.bytes(path))
        let wrong = try Support.store(path, passphrase: "not the passphrase")
        for operation in 0..<4 {
            let error = await #expect(throws: ClientError.self) {
                switch operation {
                case 0: _ = try await wrong.credential(for: Support.scope("a.example"))
                case 1: try await wrong.save(Credential(user: "x", password: "y"), for: Support.scope("b.example"))
                case 2: try await wrong.removeAll()
                default: try await wrong.validate()
                }
            }
            #expect(error?.code == .invalidConfiguration)
            #expect((error?.underlying as? KeyringError)?.code == .wrongKey)
            #expect(error?.message.contains("wrong passphrase") == true)
            #expect(error.map { "\($0)" }?.contains("not the passphrase") == false)
        }
        #expect(Support.bytes(path) == before)
    }

    @Test(arguments: ["ciphertext", "tag", "nonce", "length", "truncated", "magic", "version"])
    func tamperedFileIsRefusedUntouched(_ part: String) async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        try await Support.store(path).save(Credential(user: "u", password: "p"), for: Support.scope("a.example"))
        var bytes = try #require(Support.bytes(path))
        switch part {
        case "ciphertext": bytes[66] ^= 0x01
        case "tag": bytes[bytes.count - 1] ^= 0x80
        case "nonce": bytes[50] ^= 0x01
        case "length": bytes[63] ^= 0x01
        case "truncated": bytes.removeLast(5)
        case "magic": bytes[0] = UInt8(ascii: "X")
        default: bytes[8] = 3
        }
        try Data(bytes).write(to: URL(filePath: path))
        let store = try Support.store(path)
        let error = await #expect(throws: ClientError.self) { try await store.validate() }
        let expected: KeyringError.Code = part == "version" ? .unsupportedVersion : .damaged
        #expect((error?.underlying as? KeyringError)?.code == expected)
        #expect(error?.code == .storageFailed)
        await #expect(throws: ClientError.self) {
            try await store.save(Credential(user: "x", password: "y"), for: Support.scope("b.example"))
        }
        #expect(Support.bytes(path) == bytes)
    }

    @Test func keyFileOpensAndAPassphraseDoesNot() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        try Data((0..<32).map { UInt8($0 * 7 & 0xFF) }).write(to: URL(filePath: "\(directory)/key"))
        try Data((0..<32).map { UInt8($0) }).write(to: URL(filePath: "\(directory)/other-key"))
        let store = try FileCredentialStore(configuration: .init(path: path, key: .keyFile(path: "\(directory)/key")))
        try await store.save(Credential(user: "u", password: "p"), for: Support.scope("a.example"))
        let again = try FileCredentialStore(configuration: .init(path: path, key: .keyFile(path: "\(directory)/key")))
        #expect(try await again.credential(for: Support.scope("a.example")) == Credential(user: "u", password: "p"))
        for wrong in [
            try FileCredentialStore(configuration: .init(path: path, key: .keyFile(path: "\(directory)/other-key"))),
            try Support.store(path),
        ] {
            let error = await #expect(throws: ClientError.self) { try await wrong.validate() }
            #expect((error?.underlying as? KeyringError)?.code == .wrongKey)
        }
    }

    @Test func theDefaultWorkFactorIsStoredInTheHeader() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let store = try FileCredentialStore(configuration: .init(path: path, key: .passphrase(Support.passphrase)))
        try await store.save(Credential(user: "u", password: "p"), for: Support.scope("a.example"))
        let bytes = try #require(Support.bytes(path))
        #expect(Array(bytes[8..<13]) == [2, 1, 14, 8, 1], "version 2, scrypt, N = 2^14, r = 8, p = 1")
    }

    @Test func descriptionsNeverShowSecrets() throws {
        let secret = "hunter2-passphrase"
        let configuration = FileCredentialStore.Configuration(path: "/tmp/x", key: .passphrase(secret))
        let store = try FileCredentialStore(configuration: configuration)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [
            "\(configuration)", "\(configuration.key)", String(reflecting: configuration.key), "\(store)", dumped,
        ] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(throws: ClientError.self) {
            _ = try FileCredentialStore(configuration: .init(path: "/tmp/x", key: .passphrase("")))
        }
    }
}
