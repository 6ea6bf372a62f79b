import FoundationEssentials
import HTTPCore
import Testing

@Suite struct CookieStorageLimitsTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    func cookie(_ name: String, domain: String = "a.example", value: String = "v", expires: Date? = nil,
                created: Date = CookieStorageLimitsTests.now) -> Cookie {
        Cookie(name: name, value: value, domain: domain, expires: expires, created: created)
    }

    func site(_ domain: String = "a.example") -> URL { URL(string: "http://\(domain)/")! }

    @Test func standardLimitsAreTheBrowsers() throws {
        let limits = CookieStorage.Limits.standard
        #expect(limits.maxCookieSize == 4096 && limits.maxCookiesPerDomain == 50 && limits.maxCookies == 3000)
        #expect(try CookieStorage.Limits() == .standard)
    }

    @Test(arguments: [(0, 1, 1), (1, 0, 1), (1, 1, 0), (-1, 50, 3000)])
    func limitsBelowOneThrow(size: Int, perDomain: Int, total: Int) {
        #expect(throws: ClientError.self) {
            try CookieStorage.Limits(maxCookieSize: size, maxCookiesPerDomain: perDomain, maxCookies: total)
        }
    }

    @Test func oversizedCookiesAreRefusedAndLeaveTheStoredOne() throws {
        var storage = CookieStorage(limits: try .init(maxCookieSize: 10))
        storage.store([cookie("a", value: "1"), cookie("fits", value: "123456")], receivedFrom: site(), at: Self.now)
        storage.store([cookie("a", value: "1234567890"), cookie("big", value: "12345678")], receivedFrom: site(),
                      at: Self.now)
        #expect(storage.allCookies.map(\.name) == ["a", "fits"])
        #expect(storage.allCookies.first?.value == "1")
        // UTF-8 bytes count, not characters: "é" is two bytes.
        storage.store([cookie("u", value: String(repeating: "é", count: 5))], receivedFrom: site(), at: Self.now)
        #expect(storage.count == 2)
    }

    @Test func aFullDomainEvictsExpiredFirstThenTheOldest() throws {
        var storage = CookieStorage(limits: try .init(maxCookiesPerDomain: 3, maxCookies: 100))
        storage.store([cookie("old", created: Self.now - 30),
                       cookie("soon", expires: Self.now + 5, created: Self.now - 20),
                       cookie("mid", created: Self.now - 10)], receivedFrom: site(), at: Self.now)
        storage.store([cookie("other", domain: "b.example", created: Self.now - 100)], receivedFrom: site("b.example"),
                      at: Self.now)
        // At +10 "soon" has expired: it goes first, although "old" is older.
        storage.store([cookie("new1", created: Self.now + 10)], receivedFrom: site(), at: Self.now + 10)
        #expect(storage.allCookies.map(\.name) == ["other", "old", "mid", "new1"])
        // Nothing expired now: the least recently created of the domain goes, never another domain's.
        storage.store([cookie("new2", created: Self.now + 11)], receivedFrom: site(), at: Self.now + 11)
        #expect(storage.allCookies.map(\.name) == ["other", "mid", "new1", "new2"])
    }

    @Test func oneBatchOverTheDomainLimitKeepsTheLastOnesInOrder() throws {
        var storage = CookieStorage(limits: try .init(maxCookiesPerDomain: 5, maxCookies: 100))
        let batch = (0..<8).map { cookie("c\($0)") }
        storage.store(batch, receivedFrom: site(), at: Self.now)
        #expect(storage.cookies(for: site(), at: Self.now).map(\.name) == ["c3", "c4", "c5", "c6", "c7"])
    }

    @Test func theTotalCapEvictsExpiredFirstThenTheOldestAcrossDomains() throws {
        var storage = CookieStorage(limits: try .init(maxCookiesPerDomain: 10, maxCookies: 4))
        storage.store([cookie("a1", created: Self.now - 50), cookie("a2", expires: Self.now + 1, created: Self.now)],
                      receivedFrom: site(), at: Self.now)
        storage.store([cookie("b1", domain: "b.example", created: Self.now - 40),
                       cookie("b2", domain: "b.example", created: Self.now - 30)],
                      receivedFrom: site("b.example"), at: Self.now)
        #expect(storage.count == 4)
        storage.store([cookie("c1", domain: "c.example", created: Self.now + 5)], receivedFrom: site("c.example"),
                      at: Self.now + 5)
        #expect(storage.allCookies.map(\.name) == ["a1", "b1", "b2", "c1"])  // the expired a2 went first
        storage.store([cookie("c2", domain: "c.example", created: Self.now + 6),
                       cookie("c3", domain: "c.example", created: Self.now + 7)],
                      receivedFrom: site("c.example"), at: Self.now + 7)
        #expect(storage.allCookies.map(\.name) == ["b2", "c1", "c2", "c3"])  // then the oldest, a1 and b1
        #expect(storage.cookies(for: site(), at: Self.now + 7).isEmpty)
    }

    @Test func restoreAppliesTheLimitsToo() throws {
        var storage = CookieStorage(limits: try .init(maxCookiesPerDomain: 2, maxCookies: 100))
        storage.restore([cookie("x", created: Self.now - 2), cookie("y", created: Self.now - 1),
                         cookie("z", created: Self.now), cookie("dead", expires: Self.now - 1)], at: Self.now)
        #expect(storage.allCookies.map(\.name) == ["y", "z"])
    }
}
