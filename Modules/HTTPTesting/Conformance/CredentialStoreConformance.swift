public import HTTPCore

/// Checks that a ``CredentialStore`` keys credentials as the pipeline expects: scheme, host, port, realm and
/// target, ranked by the core's rule (``CredentialScope/bestMatch(among:scope:)``); proxy and server credentials
/// kept apart; exact removal and ``CredentialStore/removeAll()``; a truthful ``CredentialStore/isKnownEmpty``.
/// Run it from your adapter's tests with a fresh store each time.
public enum CredentialStoreConformance {
    static let alice = Credential(user: "alice", password: "secret-1")
    static let bob = Credential(user: "bob", password: "secret-2")
    static let carol = Credential(user: "carol", password: "secret-3", domain: "CORP")
    static let realmA = CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "A")
    static let realmB = CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "B")
    static let noRealm = CredentialScope(scheme: "https", host: "example.com", port: 443)
    static let proxy = CredentialScope(proxy: .https(host: "example.com", port: 443))

    /// Runs every check, each on a fresh store.
    /// - Parameter makeStore: Makes an empty store.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the store throws.
    public static func run(_ makeStore: () async throws -> any CredentialStore) async throws {
        var checker = ConformanceChecker(suite: "CredentialStoreConformance")

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

        checker.check = "noRealmPrefersRealmless"
        try await store.save(carol, for: noRealm)
        found = try await store.credential(for: noRealm)
        try checker.expect(found == carol, "a lookup without realm must prefer the credential saved without one")
        found = try await store.credential(for: realmA)
        try checker.expect(found == alice, "an exact realm must beat a credential saved without realm")

        checker.check = "keyedByHostPortSchemeAndTarget"
        for other in [
            CredentialScope(scheme: "http", host: "example.com", port: 443, realm: "A"),
            CredentialScope(scheme: "https", host: "example.org", port: 443, realm: "A"),
            CredentialScope(scheme: "https", host: "example.com", port: 8443, realm: "A"),
            CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "A", target: .proxy),
            proxy,
        ] {
            found = try await store.credential(for: other)
            try checker.expect(found == nil, "\(other) must not match a credential saved for \(realmA)")
        }

        checker.check = "saveReplaces"
        try await store.save(bob, for: realmA)
        found = try await store.credential(for: realmA)
        try checker.expect(found == bob, "a second save for a scope must replace the first")

        checker.check = "realmlessSaveServesRealms"
        store = try await makeStore()
        try await store.save(alice, for: noRealm)
        found = try await store.credential(for: realmA)
        try checker.expect(found == alice, "a credential saved without realm must serve a realm's lookup")

        checker.check = "remove"
        try await store.removeCredential(for: realmA)  // removes exactly that scope: nothing here
        found = try await store.credential(for: realmA)
        try checker.expect(found == alice, "removing realm A must not remove the credential saved without realm")
        try await store.removeCredential(for: noRealm)
        found = try await store.credential(for: realmA)
        try checker.expect(found == nil, "a removed credential was still returned")
        try await store.removeCredential(for: realmB)  // removing a missing entry is not an error

        try await checkProxiesApart(makeStore, &checker)
        try await checkCoreRule(makeStore, &checker)
        try await checkRemoveAllAndKnownEmpty(makeStore, &checker)
    }

    private static func checkProxiesApart(
        _ makeStore: () async throws -> any CredentialStore,
        _ checker: inout ConformanceChecker
    ) async throws {
        checker.check = "proxyAndServerApart"
        let store = try await makeStore()
        try await store.save(alice, for: noRealm)
        var found = try await store.credential(for: proxy)
        try checker.expect(found == nil, "a server credential answered a proxy lookup")
        try await store.save(bob, for: CredentialScope(proxy: .https(host: "example.com", port: 443), realm: "P"))
        found = try await store.credential(for: proxy)
        try checker.expect(found == bob, "a proxy lookup without realm must find the proxy's credential")
        found = try await store.credential(for: realmA)
        try checker.expect(found == alice, "a proxy credential answered a server lookup")
        try await store.removeCredential(for: noRealm)
        found = try await store.credential(for: realmA)
        try checker.expect(found == nil, "a proxy credential answered a server lookup once the server's was gone")
    }

    /// Every lookup answers with a credential saved for one of the scopes the core's rule ranks best.
    private static func checkCoreRule(
        _ makeStore: () async throws -> any CredentialStore,
        _ checker: inout ConformanceChecker
    ) async throws {
        checker.check = "followsCoreRule"
        let store = try await makeStore()
        let saved: [(scope: CredentialScope, credential: Credential)] = [
            (realmA, alice), (CredentialScope(scheme: "http", host: "example.com", port: 80), bob),
            (CredentialScope(proxy: .http(host: "example.com", port: 80), realm: "A"), carol),
            (CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "C"), bob),
        ]
        for entry in saved { try await store.save(entry.credential, for: entry.scope) }
        let queries = saved.map(\.scope) + [
            noRealm, realmB, CredentialScope(scheme: "http", host: "example.com", port: 80, realm: "Z"),
            CredentialScope(proxy: .http(host: "example.com", port: 80)),
            CredentialScope(proxy: .http(host: "example.com", port: 80), realm: "B"),
            CredentialScope(proxy: .https(host: "example.com", port: 80), realm: "A"),
        ]
        for query in queries {
            let best = saved.compactMap { $0.scope.match(against: query) }.max()
            let allowed = saved.filter { best != nil && $0.scope.match(against: query) == best }.map(\.credential)
            let found = try await store.credential(for: query)
            try checker.expect(
                allowed.isEmpty ? found == nil : found.map(allowed.contains) == true,
                "\(query) was answered against CredentialScope.bestMatch (\(allowed.count) allowed)")
        }
    }

    private static func checkRemoveAllAndKnownEmpty(
        _ makeStore: () async throws -> any CredentialStore,
        _ checker: inout ConformanceChecker
    ) async throws {
        checker.check = "isKnownEmptyTruthful"
        let store = try await makeStore()
        try await store.save(alice, for: realmA)
        try checker.expect(!store.isKnownEmpty, "isKnownEmpty was true with a credential saved")
        try await store.save(bob, for: proxy)
        try await store.removeCredential(for: realmA)
        try checker.expect(!store.isKnownEmpty, "isKnownEmpty was true with a proxy credential saved")

        checker.check = "removeAll"
        try await store.save(alice, for: realmA)
        try await store.removeAll()
        for scope in [realmA, noRealm, proxy] {
            let found = try await store.credential(for: scope)
            try checker.expect(found == nil, "\(scope) was still answered after removeAll")
        }
        try await store.save(carol, for: noRealm)
        let found = try await store.credential(for: realmB)
        try checker.expect(found == carol, "the store must keep working after removeAll")
        try checker.expect(!store.isKnownEmpty, "isKnownEmpty was true after a save following removeAll")
    }
}
