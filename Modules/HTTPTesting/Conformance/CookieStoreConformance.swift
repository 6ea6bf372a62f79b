import FoundationEssentials
public import HTTPCore

/// Checks that a ``CookieStore`` behaves as the pipeline expects: RFC 6265's storage model as ``CookieStorage``
/// keeps it (matching, replacement, expiry, order, limits), removal, and a truthful `isKnownEmpty`. Run it from
/// your adapter's tests:
///
/// ```swift
/// @Test func conforms() async throws {
///     try await CookieStoreConformance.run { MyCookieStore(path: tempPath()) }
/// }
/// ```
///
/// Every domain the checks use is `example.com` or below it, so a store that keeps only that site's cookies
/// passes too.
public enum CookieStoreConformance {
    /// Runs every check, each on a fresh store.
    /// - Parameters:
    ///   - limits: The limits the stores were made with; browsers' by default. They must allow at least 16 bytes
    ///     per cookie, 3 cookies per domain and 4 in all; checks of limits above 100 000 cookies or 1 MiB per
    ///     cookie are skipped.
    ///   - makeStore: Makes an empty store.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the store throws.
    public static func run(
        limits: CookieStorage.Limits = .standard,
        _ makeStore: () async throws -> any CookieStore
    ) async throws {
        precondition(limits.maxCookieSize >= 16 && limits.maxCookiesPerDomain >= 3 && limits.maxCookies >= 4,
                     "CookieStoreConformance needs limits of at least 16 bytes, 3 per domain and 4 in all")
        var checker = ConformanceChecker(suite: "CookieStoreConformance")
        try await checkMatching(&checker, makeStore)
        try await checkReplacement(&checker, makeStore)
        try await checkOrder(&checker, limits, makeStore)
        try await checkRemoval(&checker, makeStore)
        try await checkSizeLimit(&checker, limits, makeStore)
        try await checkDomainLimit(&checker, limits, makeStore)
        try await checkTotalLimit(&checker, limits, makeStore)
    }

    static let url = URL(string: "https://www.example.com/account/settings")!

    static func names(_ store: any CookieStore, _ url: URL = CookieStoreConformance.url) async throws -> [String] {
        try await store.cookies(for: url).map(\.name)
    }

    private static func checkMatching(
        _ checker: inout ConformanceChecker, _ makeStore: () async throws -> any CookieStore
    ) async throws {
        checker.check = "storesAndMatches"
        var store = try await makeStore()
        try await store.store([Cookie(name: "a", value: "1", domain: "www.example.com")], receivedFrom: url)
        var found = try await names(store)
        try checker.expect(found == ["a"], "expected [a], got \(found)")
        found = try await names(store, URL(string: "https://other.example.com/")!)
        try checker.expect(found.isEmpty, "a host-only cookie matched another host")

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
            let actual = Set(try await names(store, probe))
            try checker.expect(expected == actual, "for \(probe) expected \(expected.sorted()), got \(actual.sorted())")
        }
    }

    private static func checkReplacement(
        _ checker: inout ConformanceChecker, _ makeStore: () async throws -> any CookieStore
    ) async throws {
        let now = Date()
        checker.check = "replacesSameIdentityKeepingCreation"
        let store = try await makeStore()
        let first = Cookie(name: "a", value: "1", domain: "example.com", isHostOnly: false, created: now - 60)
        let second = Cookie(name: "b", value: "1", domain: "example.com", isHostOnly: false, created: now - 30)
        try await store.store([first, second], receivedFrom: url)
        try await store.store([Cookie(name: "a", value: "2", domain: "example.com", isHostOnly: false, created: now)],
                              receivedFrom: url)
        let found = try await store.cookies(for: url)
        try checker.expect(found.map(\.name) == ["a", "b"], "the replaced a must keep its place, got \(found)")
        try checker.expect(found.first?.value == "2", "expected a=2 after the replacement")
        try checker.expect(found.first.map { abs($0.created.timeIntervalSince(first.created)) < 1 } ?? false,
                           "a replaced cookie must keep its creation date")

        checker.check = "expiredCookieRemoves"
        try await store.store([Cookie(name: "a", value: "", domain: "example.com", isHostOnly: false,
                                      expires: Date(timeIntervalSince1970: 0))], receivedFrom: url)
        let left = try await names(store)
        try checker.expect(left == ["b"], "an expired cookie must remove the stored one, got \(left)")

        checker.check = "expiredOnArrivalIsNotKept"
        let empty = try await makeStore()
        let answersEmpty = empty.isKnownEmpty
        try await empty.store([Cookie(name: "gone", value: "", domain: "www.example.com", expires: now - 1)],
                              receivedFrom: url)
        try checker.expect(try await names(empty).isEmpty, "an expired cookie was returned")
        try checker.expect(!answersEmpty || empty.isKnownEmpty,
                           "an empty store that received only an expired cookie must still be known empty")
    }

    private static func checkOrder(
        _ checker: inout ConformanceChecker, _ limits: CookieStorage.Limits,
        _ makeStore: () async throws -> any CookieStore
    ) async throws {
        let now = Date()
        checker.check = "ordersLongerPathsFirst"
        var store = try await makeStore()
        try await store.store([
            Cookie(name: "short", value: "1", domain: "www.example.com", path: "/", created: now - 10),
            Cookie(name: "long", value: "1", domain: "www.example.com", path: "/account", created: now),
        ], receivedFrom: url)
        var found = try await names(store)
        try checker.expect(found == ["long", "short"], "expected [long, short], got \(found)")

        checker.check = "keepsTheOrderOfOneResponse"
        store = try await makeStore()
        let room = min(limits.maxCookiesPerDomain, limits.maxCookies)
        let batch = (0..<min(20, room)).map {
            Cookie(name: "c\(($0 * 7) % 20)", value: "1", domain: "www.example.com", created: now)
        }
        let later = (0..<min(5, room - batch.count)).map {
            Cookie(name: "d\(4 - $0)", value: "1", domain: "www.example.com", created: now)
        }
        try await store.store(batch, receivedFrom: url)
        try await store.store(later, receivedFrom: url)
        found = try await names(store)
        let expected = (batch + later).map(\.name)
        try checker.expect(found == expected, "cookies with one creation date must come back in the order stored: "
                                              + "expected \(expected), got \(found)")
    }
}
