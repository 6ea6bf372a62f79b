import FoundationEssentials
import HTTPCore
@testable import SocketTransport
import TestSupport
import Testing

/// `RequestTarget` reads each URL part once and builds the `Host` value from those parts (PROFILE.md fix 5);
/// the result must equal what the serializer derives from the whole URL.
@Suite struct RequestTargetTests {
    @Test(arguments: HTTP1RequestSerializerTests.targets)
    func hostFieldAndPathMatchTheSerializer(_ test: HTTP1RequestSerializerTests.TargetCase) throws {
        let target = try RequestTarget(url: #require(URL(string: test.url)))
        #expect(target.hostField == test.host)
        #expect(target.path == test.origin)
    }

    @Test func partsOfAMixedCaseURL() throws {
        let target = try RequestTarget(url: #require(URL(string: "HTTP://Example.COM:8080/x")))
        #expect(target.scheme == "http")
        #expect(target.host == "example.com")
        #expect(target.port == 8080)
        #expect(target.hostField == "Example.COM:8080")
        #expect(!target.isSecure)
    }

    @Test func percentEncodedHostIsDecodedForThePoolAndSentAsWritten() throws {
        let target = try RequestTarget(url: #require(URL(string: "http://b%C3%BCcher.example/")))
        #expect(target.host == "bücher.example")
        #expect(target.hostField == "b%C3%BCcher.example")
        #expect(target.port == 80)
    }

    @Test func ipv6LiteralWithZoneKeepsItsBracketsInTheHostField() throws {
        let target = try RequestTarget(url: #require(URL(string: "http://[fe80::1%25eth0]:81/")))
        #expect(target.host == "fe80::1%eth0")
        #expect(target.hostField == "[fe80::1%25eth0]:81")
    }

    @Test func httpsDefaultPortIsLeftOutOfTheHostField() throws {
        let target = try RequestTarget(url: #require(URL(string: "https://h.example:443/")))
        #expect(target.port == 443)
        #expect(target.hostField == "h.example")
        #expect(target.isSecure)
    }
}
