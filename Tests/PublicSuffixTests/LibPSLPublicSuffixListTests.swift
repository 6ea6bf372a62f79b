import ASIKit
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import PublicSuffix
import Testing

@Suite struct LibPSLPublicSuffixListTests {
    let list = LibPSLPublicSuffixList()
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func knowsICANNAndPrivateSuffixes() {
        #expect(list.isLoaded)
        for suffix in ["com", "co.uk", "github.io", "org", "foo.ck"] {
            #expect(list.isPublicSuffix(suffix), "\(suffix)")
        }
        for domain in ["example.co.uk", "example.com", "user.github.io", "www.ck"] {
            #expect(!list.isPublicSuffix(domain), "\(domain)")
        }
    }

    @Test func aCookieForCoUKSetByACoUKIsRefused() throws {
        let url = try #require(URL(string: "http://a.co.uk/"))
        #expect(SetCookieParser.parse("id=1; Domain=co.uk", from: url, at: now, publicSuffixes: list) == nil)
        #expect(SetCookieParser.parse("id=1; Domain=.CO.UK", from: url, at: now, publicSuffixes: list) == nil)
        // Without a list only single-label domains are refused: this is what a Client without one accepts.
        #expect(SetCookieParser.parse("id=1; Domain=co.uk", from: url, at: now) != nil)
    }

    @Test func aCookieForExampleCoUKSetByWwwIsKept() throws {
        let url = try #require(URL(string: "http://www.example.co.uk/"))
        let cookie = try #require(SetCookieParser.parse(
            "id=1; Domain=example.co.uk", from: url, at: now, publicSuffixes: list))
        #expect(cookie.domain == "example.co.uk" && !cookie.isHostOnly)
        var storage = CookieStorage()
        storage.store([cookie], receivedFrom: url, at: now)
        let sibling = try #require(URL(string: "http://shop.example.co.uk/"))
        #expect(storage.cookies(for: sibling, at: now).map(\.name) == ["id"])
    }

    @Test func aSuffixThatIsTheHostItselfGivesAHostOnlyCookie() throws {
        let url = try #require(URL(string: "http://github.io/"))
        let cookie = try #require(SetCookieParser.parse(
            "id=1; Domain=github.io", from: url, at: now, publicSuffixes: list))
        #expect(cookie.isHostOnly && cookie.domain == "github.io")
    }

    @Test func theStandardClientRefusesPublicSuffixCookies() async throws {
        let client = Client.standard()
        #expect(client.configuration.publicSuffixes is LibPSLPublicSuffixList)
        let own = Client.standard(configuration: .init(publicSuffixes: list))
        #expect((own.configuration.publicSuffixes as? LibPSLPublicSuffixList) === list, "a list you bring is kept")
        try await client.shutdown()
        try await own.shutdown()
    }

    @Test func aFullyQualifiedSuffixIsStillASuffix() throws {
        let url = try #require(URL(string: "http://firsthost.me./"))
        #expect(SetCookieParser.parse("a=b; Domain=.me.", from: url, at: now, publicSuffixes: list) == nil)
    }
}
