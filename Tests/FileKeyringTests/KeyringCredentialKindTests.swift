import FileKeyring
import FoundationEssentials
import HTTPCore
import Testing

/// The keyring keeps `Credential.kind` (format version 2), so a bearer token comes back as a bearer token, and
/// still reads version 1 files, whose entries are all passwords.
@Suite struct KeyringCredentialKindTests {
    typealias Support = KeyringTestSupport

    @Test func aBearerTokenComesBackAsABearerToken() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let token = Credential.bearer("token-123")
        let password = Credential(user: "", password: "token-123")
        try await Support.store(path).save(token, for: Support.scope("a.example"))
        try await Support.store(path).save(password, for: Support.scope("b.example"))
        let reopened = try Support.store(path)
        let found = try #require(try await reopened.credential(for: Support.scope("a.example")))
        #expect(found.kind == .bearerToken)
        #expect(found == token)
        #expect(try await reopened.credential(for: Support.scope("b.example"))?.kind == .password)
        #expect(try #require(Support.bytes(path))[8] == 2, "format version 2")
    }

    @Test func savingTheSameBearerTokenAgainDoesNotRewriteTheFile() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        try await Support.store(path).save(.bearer("token-123"), for: Support.scope("a.example"))
        let before = try #require(Support.bytes(path))
        try await Support.store(path).save(.bearer("token-123"), for: Support.scope("a.example"))
        let unchanged = Support.bytes(path) == before
        #expect(unchanged, "a rewrite draws a new nonce, so the bytes would differ")
    }

    /// A version 1 keyring written before kinds were stored (by `KeyringWriter PATH save fixture 2`, passphrase
    /// `KeyringTestSupport.passphrase`, N = 2^10): it opens, its entries are passwords, and the next save writes
    /// version 2 with the same salt and entries.
    @Test func aVersion1KeyringStillOpensAndIsUpgradedOnTheNextSave() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let fixture = try #require(Self.version1Fixture)
        #expect(fixture[8] == 1)
        try Data(fixture).write(to: URL(filePath: path))
        let store = try Support.store(path)
        let first = try #require(try await store.credential(for: Support.scope("fixture-0.example")))
        #expect(first == Credential(user: "user-0", password: "pw-fixture-0"))
        #expect(first.kind == .password)
        try await store.save(.bearer("token-9"), for: Support.scope("c.example"))
        let upgraded = try #require(Support.bytes(path))
        #expect(upgraded[8] == 2)
        #expect(upgraded[16..<32] == fixture[16..<32], "the salt is kept")
        let reopened = try Support.store(path)
        #expect(
            try await reopened.credential(for: Support.scope("fixture-1.example"))
                == Credential(user: "user-1", password: "pw-fixture-1"))
        #expect(try await reopened.credential(for: Support.scope("c.example")) == .bearer("token-9"))
    }

    static let version1Fixture: [UInt8]? = hex(
        """
        4153494b4559524701010a08010000005fb0c6918a0808628bcbff918269d0fdec0edd77bfd2625ddd31e8a115f775af
        8822f6d575bd9b0297a404a1000000821ee4514429145b746b9ddf3b67105dee590aeb200d344f45cd762c32a3c57e51
        7eff503377ce6798d59651056892cd7f744a21fc9d2099e24b0704b60cb69b0f185e5b36e504f85e9167c8bfe363e504
        95fbc616c44b26fcf8f3e4c24fc7c532390e4b516799a6989a03d399d9e43e9930bacb22e34200049d400bc4b34081c5
        5267901cd96d8f89031cba8790689081a41c
        """)

    private static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.filter(\.isHexDigit))
        guard digits.count.isMultiple(of: 2) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16) ?? 0 }
    }
}
