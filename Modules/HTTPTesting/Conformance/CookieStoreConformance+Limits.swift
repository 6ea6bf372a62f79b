import FoundationEssentials
import HTTPCore

extension CookieStoreConformance {
    static func checkRemoval(
        _ checker: inout ConformanceChecker, _ makeStore: () async throws -> any CookieStore
    ) async throws {
        checker.check = "isKnownEmptyIsTruthful"
        let store = try await makeStore()
        if store.isKnownEmpty {
            try checker.expect(try await names(store).isEmpty, "a store known empty returned cookies")
        }
        let session = Cookie(name: "session", value: "1", domain: "www.example.com")
        let persistent = Cookie(name: "persistent", value: "1", domain: "www.example.com",
                                expires: Date() + 86_400)
        try await store.store([session, persistent], receivedFrom: url)
        try checker.expect(!store.isKnownEmpty, "a store holding cookies claimed to be empty")

        checker.check = "removesSessionCookies"
        try await store.removeSessionCookies()
        var found = try await names(store)
        try checker.expect(found == ["persistent"], "expected only [persistent] left, got \(found)")

        checker.check = "removesAll"
        try await store.removeAll()
        found = try await names(store)
        try checker.expect(found.isEmpty, "expected no cookie after removeAll, got \(found)")
        try await store.store([session], receivedFrom: url)
        found = try await names(store)
        try checker.expect(found == ["session"], "a store must keep cookies again after removeAll, got \(found)")
    }

    static func checkSizeLimit(
        _ checker: inout ConformanceChecker, _ limits: CookieStorage.Limits,
        _ makeStore: () async throws -> any CookieStore
    ) async throws {
        guard limits.maxCookieSize <= 1 << 20 else { return }
        checker.check = "refusesOversizedCookies"
        let store = try await makeStore()
        let fits = String(repeating: "v", count: limits.maxCookieSize - "fits".utf8.count)
        let tooLarge = String(repeating: "v", count: limits.maxCookieSize - "a".utf8.count + 1)
        try await store.store([Cookie(name: "a", value: "1", domain: "www.example.com"),
                               Cookie(name: "fits", value: fits, domain: "www.example.com")], receivedFrom: url)
        try await store.store([Cookie(name: "a", value: tooLarge, domain: "www.example.com"),
                               Cookie(name: "big", value: tooLarge, domain: "www.example.com")], receivedFrom: url)
        let found = try await store.cookies(for: url)
        try checker.expect(found.map(\.name) == ["a", "fits"],
                           "expected [a, fits] (a cookie of \(limits.maxCookieSize) bytes fits), got \(found)")
        try checker.expect(found.first?.value == "1", "an oversized cookie must leave the stored one alone")
    }

    static func checkDomainLimit(
        _ checker: inout ConformanceChecker, _ limits: CookieStorage.Limits,
        _ makeStore: () async throws -> any CookieStore
    ) async throws {
        let perDomain = limits.maxCookiesPerDomain
        guard perDomain <= 100_000, perDomain < limits.maxCookies else { return }
        checker.check = "evictsTheOldestOfAFullDomain"
        let now = Date()
        let store = try await makeStore()
        let site = URL(string: "https://full.example.com/")!
        let full = (0..<perDomain).map {
            Cookie(name: "n\($0)", value: "1", domain: "full.example.com", created: now - Double(perDomain - $0))
        }
        try await store.store(full, receivedFrom: site)
        try await store.store([Cookie(name: "new", value: "1", domain: "full.example.com", created: now)],
                              receivedFrom: site)
        let found = try await names(store, site)
        let expected = full.dropFirst().map(\.name) + ["new"]
        try checker.expect(found == expected, "a full domain must drop its oldest cookie (n0) for a new one; "
                                              + "got \(found.count) cookies starting with \(found.prefix(3))")
    }

    static func checkTotalLimit(
        _ checker: inout ConformanceChecker, _ limits: CookieStorage.Limits,
        _ makeStore: () async throws -> any CookieStore
    ) async throws {
        guard limits.maxCookies <= 100_000 else { return }
        checker.check = "capsTheTotalEvictingTheOldest"
        let now = Date()
        let store = try await makeStore()
        let perDomain = min(limits.maxCookiesPerDomain, limits.maxCookies)
        let domains = limits.maxCookies / perDomain + 1
        let total = domains * perDomain
        for domain in 0..<domains {
            let site = URL(string: "https://d\(domain).example.com/")!
            let cookies = (0..<perDomain).map { index in
                let order = domain * perDomain + index
                return Cookie(name: "k\(order)", value: "1", domain: "d\(domain).example.com",
                              created: now - Double(total - order))
            }
            try await store.store(cookies, receivedFrom: site)
        }
        var kept = Set<String>()
        for domain in 0..<domains {
            kept.formUnion(try await names(store, URL(string: "https://d\(domain).example.com/")!))
        }
        let excess = total - limits.maxCookies
        let expected = Set((excess..<total).map { "k\($0)" })
        try checker.expect(kept == expected, "expected the \(limits.maxCookies) newest of \(total) cookies, got "
                                             + "\(kept.count), missing \(expected.subtracting(kept).count) of them")
    }
}
