import FoundationEssentials
import HTTPCore
import Testing

@Suite struct CookieStorageTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let site = URL(string: "https://www.example.com/account/settings")!

    func cookie(
        _ name: String, domain: String = "www.example.com", hostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, created: Date = CookieStorageTests.now
    ) -> Cookie {
        Cookie(name: name, value: "v", domain: domain, isHostOnly: hostOnly, path: path, expires: expires,
               created: created)
    }

    @Test func emptyStorageAnswersNothing() {
        let storage = CookieStorage()
        #expect(storage.isEmpty && storage.count == 0 && storage.allCookies.isEmpty)
        #expect(storage.cookies(for: Self.site, at: Self.now).isEmpty)
        #expect(storage.limits == .standard)
    }

    @Test func lookupsAgreeWithMatches() {
        let cookies = [
            cookie("host"), cookie("parent", domain: "example.com", hostOnly: false),
            cookie("parentHostOnly", domain: "example.com"), cookie("deep", path: "/account"),
            cookie("other", path: "/admin"), cookie("trailing", path: "/account/"),
            Cookie(name: "secure", value: "v", domain: "www.example.com", isSecure: true, created: Self.now),
            cookie("expired", expires: Self.now + 10), cookie("sub", domain: "a.www.example.com"),
        ]
        var storage = CookieStorage()
        storage.store(cookies.filter { $0.domain != "a.www.example.com" && $0.name != "parentHostOnly" },
                      receivedFrom: Self.site, at: Self.now)
        storage.store(cookies.filter { $0.name == "parentHostOnly" }, receivedFrom: URL(string: "http://example.com/")!,
                      at: Self.now)
        storage.store(cookies.filter { $0.domain == "a.www.example.com" },
                      receivedFrom: URL(string: "http://a.www.example.com/")!, at: Self.now)
        #expect(storage.count == cookies.count)
        let probes = [
            "https://www.example.com/account/settings", "http://www.example.com/account/", "https://example.com/",
            "https://a.www.example.com/account", "http://WWW.Example.com/admin", "https://www.example.com",
            "https://badexample.com/", "https://www.example.com./",
        ]
        for probe in probes.map({ URL(string: $0)! }) {
            for time in [Self.now, Self.now + 20] {
                let expected = cookies.filter { $0.matches(probe, at: time) }.map(\.name)
                let found = storage.cookies(for: probe, at: time).map(\.name)
                #expect(Set(found) == Set(expected), "\(probe) at \(time)")
                #expect(found.count == expected.count)
            }
        }
    }

    @Test func ordersByPathLengthThenCreationThenArrival() {
        var storage = CookieStorage()
        let sameDate = (0..<20).map { cookie("c\(($0 * 7) % 20)") }
        storage.store(sameDate, receivedFrom: Self.site, at: Self.now)
        storage.store([cookie("older", created: Self.now - 5), cookie("deeper", path: "/account")],
                      receivedFrom: Self.site, at: Self.now)
        let names = storage.cookies(for: Self.site, at: Self.now).map(\.name)
        #expect(names == ["deeper", "older"] + sameDate.map(\.name))
        #expect(storage.allCookies.map(\.name) == ["older"] + sameDate.map(\.name) + ["deeper"])
    }

    @Test func replacementKeepsCreationAndPlace() {
        var storage = CookieStorage()
        storage.store([cookie("a", created: Self.now - 60), cookie("b", created: Self.now - 60)],
                      receivedFrom: Self.site, at: Self.now)
        let revision = storage.revision
        var newer = cookie("a", created: Self.now)
        newer.value = "2"
        storage.store([newer], receivedFrom: Self.site, at: Self.now)
        let found = storage.cookies(for: Self.site, at: Self.now)
        #expect(found.map(\.name) == ["a", "b"] && found.first?.value == "2")
        #expect(found.first?.created == Self.now - 60)
        #expect(storage.count == 2 && storage.revision > revision)
    }

    @Test func expiredArrivalRemovesAndIsNotKept() {
        var storage = CookieStorage()
        storage.store([cookie("a"), cookie("b", path: "/x")], receivedFrom: Self.site, at: Self.now)
        storage.store([cookie("a", expires: Self.now), cookie("new", expires: Self.now - 1)],
                      receivedFrom: Self.site, at: Self.now)
        #expect(storage.allCookies.map(\.name) == ["b"])
        #expect(storage.count == 1)
    }

    @Test func refusesCookiesForAnotherHost() {
        var storage = CookieStorage()
        storage.store([cookie("other", domain: "evil.example"), cookie("parentHostOnly", domain: "example.com"),
                       cookie("ok", domain: "example.com", hostOnly: false)],
                      receivedFrom: Self.site, at: Self.now)
        #expect(storage.allCookies.map(\.name) == ["ok"])
    }

    @Test func restoreRoundTripsTheOrder() {
        var storage = CookieStorage()
        storage.store((0..<10).map { cookie("c\(9 - $0)") }, receivedFrom: Self.site, at: Self.now)
        storage.store([cookie("gone", expires: Self.now + 1), cookie("kept", expires: Self.now + 100)],
                      receivedFrom: Self.site, at: Self.now)
        var restored = CookieStorage()
        restored.restore(storage.allCookies, at: Self.now + 10)
        #expect(restored.count == 11)
        let expected = storage.cookies(for: Self.site, at: Self.now + 10)
        #expect(restored.cookies(for: Self.site, at: Self.now + 10) == expected)
    }

    @Test func removals() {
        var storage = CookieStorage()
        storage.store([cookie("session"), cookie("soon", expires: Self.now + 1),
                       cookie("later", expires: Self.now + 9)], receivedFrom: Self.site, at: Self.now)
        #expect(storage.removeExpired(at: Self.now + 5) == 1)
        #expect(storage.removeSessionCookies() == 1)
        #expect(storage.allCookies.map(\.name) == ["later"])
        let revision = storage.revision
        #expect(storage.removeAll() == 1 && storage.isEmpty && storage.revision > revision)
        #expect(storage.removeAll() == 0 && storage.revision == revision + 1)
        storage.store([cookie("again")], receivedFrom: Self.site, at: Self.now)
        #expect(storage.cookies(for: Self.site, at: Self.now).map(\.name) == ["again"])
    }

    @Test func crossesIntoADetachedTask() async throws {
        var storage = CookieStorage(limits: try CookieStorage.Limits(maxCookies: 10))
        storage.store([cookie("a")], receivedFrom: Self.site, at: Self.now)
        let copy = storage
        let names = await Task.detached { copy.cookies(for: Self.site, at: Self.now).map(\.name) }.value
        #expect(names == ["a"])
    }
}
