public import HTTPCore

/// Checks that a ``CredentialStore`` keys credentials as the pipeline expects (scheme, host, port, realm,
/// target). Run it from your adapter's tests with a fresh store each time.
public enum CredentialStoreConformance {
    /// Runs every check, each on a fresh store.
    /// - Parameter makeStore: Makes an empty store.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the store throws.
    public static func run(_ makeStore: () async throws -> any CredentialStore) async throws {
        var checker = ConformanceChecker(suite: "CredentialStoreConformance")
        let alice = Credential(user: "alice", password: "secret-1")
        let bob = Credential(user: "bob", password: "secret-2")
        let realmA = CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "A")
        let realmB = CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "B")
        let noRealm = CredentialScope(scheme: "https", host: "example.com", port: 443)

        checker.check = "missingIsNil"
        var store = try await makeStore()
        var found = try await store.credential(for: realmA)
        try checker.expect(found == nil, "an empty store returned a credential")

        checker.check = "exactRealm"
        try await store.save(alice, for: realmA)
        try await store.save(bob, for: realmB)
        found = try await store.credential(for: realmA)
        try checker.expect(found == alice, "realm A must give alice")
        found = try await store.credential(for: realmB)
        try checker.expect(found == bob, "realm B must give bob")

        checker.check = "noRealmMatchesAnyRealm"
        found = try await store.credential(for: noRealm)
        try checker.expect(found == alice || found == bob, "a scope without realm must match a saved realm")

        checker.check = "keyedByHostPortSchemeAndTarget"
        for other in [
            CredentialScope(scheme: "http", host: "example.com", port: 443, realm: "A"),
            CredentialScope(scheme: "https", host: "example.org", port: 443, realm: "A"),
            CredentialScope(scheme: "https", host: "example.com", port: 8443, realm: "A"),
            CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "A", target: .proxy),
        ] {
            found = try await store.credential(for: other)
            try checker.expect(found == nil, "\(other) must not match a credential saved for \(realmA)")
        }

        checker.check = "realmlessSaveServesRealms"
        store = try await makeStore()
        try await store.save(alice, for: noRealm)
        found = try await store.credential(for: realmA)
        try checker.expect(found == alice, "a credential saved without realm must serve a realm's lookup")

        checker.check = "remove"
        try await store.removeCredential(for: noRealm)
        found = try await store.credential(for: realmA)
        try checker.expect(found == nil, "a removed credential was still returned")
        try await store.removeCredential(for: realmB)  // removing a missing entry is not an error
    }
}
