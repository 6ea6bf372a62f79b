import HTTPCore
import Testing

@testable import SocketTransport

/// ``HTTP1Limits/maxInterimResponses`` and ``HTTP1Limits/maxChunkSizeDigits`` at their boundaries, over every
/// split of the input.
struct HTTP1InterimAndChunkLimitTests {
    static let interim = "HTTP/1.1 102 Processing\r\n\r\n"
    static let final = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

    @Test func interimResponsesUpToTheLimitAreSkipped() {
        let driver = ParserDriver(limits: HTTP1Limits(maxInterimResponses: 3))
        let items = driver.runAllSplits(String(repeating: Self.interim, count: 3) + Self.final)
        #expect(ParsedItem.error(in: items) == nil)
        #expect(items.count == 3 + 2 + 1)  // three interim heads, the final head, its body, the end
    }

    @Test func oneInterimResponseMoreFails() {
        let driver = ParserDriver(limits: HTTP1Limits(maxInterimResponses: 3))
        let items = driver.runAllSplits(String(repeating: Self.interim, count: 4) + Self.final)
        #expect(ParsedItem.error(in: items)?.message == "more than 3 interim (1xx) responses")
    }

    @Test func theDefaultIsAHundredPerResponse() {
        let under = String(repeating: Self.interim, count: 100) + Self.final
        #expect(ParsedItem.error(in: ParserDriver().run(Array(under.utf8), cuts: [])) == nil)
        let over = String(repeating: Self.interim, count: 101) + Self.final
        #expect(
            ParsedItem.error(in: ParserDriver().run(Array(over.utf8), cuts: []))?.message
                == "more than 100 interim (1xx) responses")
    }

    @Test func theCountStartsAgainForEachResponse() {
        var driver = ParserDriver(limits: HTTP1Limits(maxInterimResponses: 2))
        driver.methods = [.get, .get]
        let response = String(repeating: Self.interim, count: 2) + Self.final
        #expect(ParsedItem.error(in: driver.runAllSplits(response + response)) == nil)
    }

    @Test func sixteenHexDigitsAreAcceptedSeventeenAreNot() {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        let driver = ParserDriver()
        let sixteen = driver.runAllSplits(head + "0000000000000002\r\nok\r\n0\r\n\r\n")
        #expect(ParsedItem.error(in: sixteen) == nil)
        #expect(sixteen.contains(.body("ok")))
        let seventeen = driver.runAllSplits(head + "00000000000000002\r\nok\r\n0\r\n\r\n")
        #expect(ParsedItem.error(in: seventeen)?.message == "chunk size longer than 16 hex digits")
    }
}
