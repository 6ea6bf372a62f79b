import FileKeyring
import FoundationEssentials
import HTTPCore
import Testing

/// Hostile text in every field of a saved credential reads back from the file byte for byte (issue 33: the
/// siblings of the cookie file's lossy round trip). The payload stores each string as a length and its UTF-8
/// bytes, so no separator can be smuggled in and nothing is decoded leniently.
@Suite struct KeyringRoundTripTests {
    static let hostile = [
        "", "\u{0}", "a\r\nb", "tab\there", "\u{FFFD}", "\u{301}mark", "é🍪", "\u{7F}\u{1B}[31m",
        String(repeating: "long", count: 256 * 1024),
    ]

    static func bytes(_ credential: Credential?) -> [[UInt8]]? {
        credential.map { [Array($0.user.utf8), Array($0.password.utf8), Array(($0.domain ?? "-").utf8)] }
    }

    @Test func hostileTextInEveryFieldReadsBackByteForByte() async throws {
        let directory = try KeyringTestSupport.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/keyring"
        let writer = try KeyringTestSupport.store(path)
        var saved: [(CredentialScope, Credential)] = []
        for (index, text) in Self.hostile.enumerated() {
            let scope = CredentialScope(
                scheme: "https", host: "host\(index)\(text.prefix(64))", port: 443 + index, realm: text,
                target: index % 2 == 0 ? .server : .proxy)
            var credential = Credential(user: text, password: text + "\u{0}" + text, domain: text)
            credential.kind = index % 3 == 0 ? .bearerToken : .password
            try await writer.save(credential, for: scope)
            saved.append((scope, credential))
        }
        let reader = try KeyringTestSupport.store(path)
        for (scope, credential) in saved {
            let found = try await reader.credential(for: scope)
            #expect(Self.bytes(found) == Self.bytes(credential), "\(scope.port)")
            #expect(found?.kind == credential.kind)
        }
        // Saving the same credentials again changes nothing: what was read compares equal to what is saved.
        let before = KeyringTestSupport.bytes(path)
        for (scope, credential) in saved { try await reader.save(credential, for: scope) }
        #expect(KeyringTestSupport.bytes(path) == before)
    }

    /// The payload keeps a port in 32 bits; a port no URL can have (`CredentialScope.port` is an `Int`) would
    /// come back as another number, so the credential could never be found or replaced again. Refused instead.
    @Test func aPortOutsideZeroToFFFFIsRefused() async throws {
        let directory = try KeyringTestSupport.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/keyring"
        let store = try KeyringTestSupport.store(path)
        for port in [0, 65_535] {
            let scope = CredentialScope(scheme: "https", host: "example.com", port: port)
            try await store.save(Credential(user: "u", password: "p"), for: scope)
            #expect(try await store.credential(for: scope)?.user == "u")
        }
        for port in [-1, 65_536, 1 << 32, Int.max] {
            let scope = CredentialScope(scheme: "https", host: "example.com", port: port)
            await #expect(throws: (any Error).self, "\(port)") {
                try await store.save(Credential(user: "u", password: "p"), for: scope)
            }
        }
    }
}

/// The keyring is read only up to 64 MiB; a save that would pass it is refused, so one huge secret cannot make
/// every other entry unreadable on the next open.
@Suite struct KeyringSizeRoundTripTests {
    @Test func aSaveThatWouldPassTheReadLimitIsRefused() async throws {
        let directory = try KeyringTestSupport.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/keyring"
        let store = try KeyringTestSupport.store(path)
        let kept = KeyringTestSupport.scope("kept.example")
        try await store.save(Credential(user: "u", password: "p"), for: kept)
        let before = KeyringTestSupport.bytes(path)
        let huge = Credential(user: "u", password: String(repeating: "x", count: 64 << 20))
        let error = try await #require(throws: ClientError.self) {
            try await store.save(huge, for: KeyringTestSupport.scope("huge.example"))
        }
        #expect(error.code == .storageFailed)
        #expect(KeyringTestSupport.bytes(path) == before)
        #expect(try await KeyringTestSupport.store(path).credential(for: kept)?.password == "p")
    }
}
