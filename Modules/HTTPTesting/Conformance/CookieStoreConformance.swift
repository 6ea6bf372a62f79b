import FoundationEssentials
public import HTTPCore

/// Checks that a ``CookieStore`` behaves as the pipeline expects. Run it from your adapter's tests:
///
/// ```swift
/// @Test func conforms() async throws {
///     try await CookieStoreConformance.run { MyCookieStore(path: tempPath()) }
/// }
/// ```
public enum CookieStoreConformance {
    /// Runs every check, each on a fresh store.
    /// - Parameter makeStore: Makes an empty store.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the store throws.
    public static func run(_ makeStore: () async throws -> any CookieStore) async throws {
        var checker = ConformanceChecker(suite: "CookieStoreConformance")
        let url = URL(string: "https://www.example.com/account/settings")!
        let now = Date()

        checker.check = "storesAndMatches"
        var store = try await makeStore()
        try await store.store([Cookie(name: "a", value: "1", domain: "www.example.com")], receivedFrom: url)
        var found = try await store.cookies(for: url)
        try checker.expect(found.map(\.name) == ["a"], "expected [a], got \(found.map(\.name))")
        found = try await store.cookies(for: URL(string: "https://other.example.com/")!)
        try checker.expect(found.isEmpty, "a host-only cookie matched another host")

        checker.check = "replacesSameIdentity"
        store = try await makeStore()
        let first = Cookie(name: "a", value: "1", domain: "example.com", isHostOnly: false, created: now - 60)
        try await store.store([first], receivedFrom: url)
        try await store.store([Cookie(name: "a", value: "2", domain: "example.com", isHostOnly: false)], receivedFrom: url)
        found = try await store.cookies(for: url)
        try checker.expect(found.count == 1 && found.first?.value == "2", "expected one cookie a=2, got \(found.count)")
        try checker.expect(found.first.map { abs($0.created.timeIntervalSince(first.created)) < 1 } ?? false,
                           "a replaced cookie must keep its creation date")

        checker.check = "expiredCookieRemoves"
        try await store.store([Cookie(name: "a", value: "", domain: "example.com", isHostOnly: false,
                                      expires: Date(timeIntervalSince1970: 0))], receivedFrom: url)
        found = try await store.cookies(for: url)
        try checker.expect(found.isEmpty, "an expired cookie must remove the stored one")

        checker.check = "filtersWithMatches"
        store = try await makeStore()
        let cookies = [
            Cookie(name: "secure", value: "1", domain: "www.example.com", isSecure: true),
            Cookie(name: "path", value: "1", domain: "www.example.com", path: "/account"),
            Cookie(name: "otherPath", value: "1", domain: "www.example.com", path: "/admin"),
            Cookie(name: "domain", value: "1", domain: "example.com", isHostOnly: false),
        ]
        try await store.store(cookies, receivedFrom: url)
        for probe in [url, URL(string: "http://www.example.com/admin/x")!, URL(string: "https://example.com/")!] {
            let expected = Set(cookies.filter { $0.matches(probe, at: Date()) }.map(\.name))
            let actual = Set(try await store.cookies(for: probe).map(\.name))
            try checker.expect(expected == actual, "for \(probe) expected \(expected.sorted()), got \(actual.sorted())")
        }

        checker.check = "ordersLongerPathsFirst"
        store = try await makeStore()
        try await store.store([
            Cookie(name: "short", value: "1", domain: "www.example.com", path: "/", created: now - 10),
            Cookie(name: "long", value: "1", domain: "www.example.com", path: "/account", created: now),
        ], receivedFrom: url)
        found = try await store.cookies(for: url)
        try checker.expect(found.map(\.name) == ["long", "short"], "expected [long, short], got \(found.map(\.name))")
    }
}
