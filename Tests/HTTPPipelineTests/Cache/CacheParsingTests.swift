import FoundationEssentials
import HTTPCore
import Testing

@testable import HTTPPipeline

/// The strict HTTP date parser and the `Cache-Control` directive parser, as pure values.
@Suite struct CacheParsingTests {
    static let reference = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "SUN, 06 NOV 1994 08:49:37 gmt",
    ])
    func theThreeHTTPDateFormsParse(_ text: String) {
        #expect(HTTPDate.parse(text) == Self.reference)
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 94 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
        "Sun, 06  Nov 1994 08:49:37 GMT", "Sun, 06-Nov-1994 08:49:37 GMT", "Sun, 06 Nov 1994 08.49.37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT", "0", "", "Sun, 32 Nov 1994 08:49:37 GMT",
    ])
    func anythingElseIsInvalid(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func directivesSplitOutsideQuotesAndTheFirstWins() {
        let directives = CacheDirectives([
            "Public, foo=\"max-age=5, no-store\", MAX-AGE=60", "max-age=1, no-cache=\"a, b\"",
        ])
        #expect(directives.contains("public") && !directives.contains("no-store"))
        #expect(directives.seconds("max-age") == .value(60))
        #expect(directives.argument("no-cache") == "a, b")
        #expect(CacheDirectives(["max-age=-1"]).seconds("max-age") == .invalid)
        #expect(CacheDirectives(["max-age=3600.5"]).seconds("max-age") == .invalid)
        #expect(CacheDirectives(["max-age=99999999999"]).seconds("max-age") == .value(1 << 31))
        #expect(CacheDirectives(["max-age=003600"]).seconds("max-age") == .value(3_600))
        #expect(CacheDirectives(["no-cache"]).seconds("max-age") == nil)
    }
}
