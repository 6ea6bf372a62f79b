import FoundationEssentials
import HTTPCore
import Testing

/// RFC 6797 §8's matching and update rules in ``HSTSStorage``.
@Suite struct HSTSStorageTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func entry(_ host: String, subdomains: Bool = false, in seconds: Double = 60) -> HSTSEntry {
        HSTSEntry(host: host, includesSubdomains: subdomains, expires: now.addingTimeInterval(seconds))
    }

    @Test func congruentAndSuperdomainMatches() {
        var storage = HSTSStorage()
        storage.update(Self.entry("example.com", subdomains: true), at: Self.now)
        storage.update(Self.entry("only.example.org"), at: Self.now)
        #expect(storage.entry(covering: "EXAMPLE.com.", at: Self.now)?.host == "example.com")
        #expect(storage.entry(covering: "a.b.example.com", at: Self.now)?.host == "example.com")
        #expect(storage.entry(covering: "badexample.com", at: Self.now) == nil)
        #expect(storage.entry(covering: "only.example.org", at: Self.now) != nil)
        #expect(storage.entry(covering: "sub.only.example.org", at: Self.now) == nil)
        #expect(storage.entry(covering: "example.com", at: Self.now.addingTimeInterval(60)) == nil, "expired")
    }

    @Test func aNearerHostWithoutSubdomainsDoesNotHideAFartherOneWithThem() {
        var storage = HSTSStorage()
        storage.update(Self.entry("example.com", subdomains: true), at: Self.now)
        storage.update(Self.entry("b.example.com"), at: Self.now)
        #expect(storage.entry(covering: "a.b.example.com", at: Self.now)?.host == "example.com")
    }

    @Test func updatesReplaceExpiredEntriesRemoveAndTheLimitDropsTheSoonest() {
        var storage = HSTSStorage(maxEntries: 2)
        storage.update(Self.entry("a.example", in: 10), at: Self.now)
        storage.update(Self.entry("b.example", in: 20), at: Self.now)
        let revision = storage.revision
        storage.update(Self.entry("b.example", in: 20), at: Self.now)
        #expect(storage.revision == revision, "the same entry again changes nothing")
        storage.update(Self.entry("c.example", in: 30), at: Self.now)
        #expect(Set(storage.entries.keys) == ["b.example", "c.example"])
        storage.update(Self.entry("c.example", in: 0), at: Self.now)
        #expect(Set(storage.entries.keys) == ["b.example"])
        storage.removeExpired(at: Self.now.addingTimeInterval(25))
        #expect(storage.isEmpty)
    }
}
