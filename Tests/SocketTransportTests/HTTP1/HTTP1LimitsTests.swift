import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// ``HTTP1Limits`` for heads, lines, field counts and trailers, and large bodies.
struct HTTP1LimitsTests {
    static func response(fieldCount: Int, valueLength: Int = 1) -> String {
        var text = "HTTP/1.1 200 OK\r\n"
        for index in 0..<fieldCount { text += "X-\(index): \(String(repeating: "v", count: valueLength))\r\n" }
        return text + "Content-Length: 0\r\n\r\n"
    }

    @Test func headerCountAtTheLimitIsAccepted() {
        let driver = ParserDriver(limits: HTTP1Limits(maxHeaderCount: 5))
        let items = driver.runAllSplits(Self.response(fieldCount: 4))
        #expect(ParsedItem.firstHead(items)?.fields.count == 5)
        #expect(ParsedItem.error(in: items) == nil)
    }

    @Test func tooManyHeaderFields() {
        let driver = ParserDriver(limits: HTTP1Limits(maxHeaderCount: 5))
        #expect(driver.runAllSplits(Self.response(fieldCount: 5)) == [.violation("more than 5 header fields")])
    }

    @Test func defaultHeaderCountLimit() {
        let items = ParserDriver().run(Array(Self.response(fieldCount: 100).utf8), cuts: [])
        #expect(items == [.violation("more than 100 header fields")])
        #expect(ParsedItem.error(in: ParserDriver().run(Array(Self.response(fieldCount: 99).utf8), cuts: [])) == nil)
    }

    @Test func lineAtTheLimitIsAcceptedWithEitherEnding() {
        let driver = ParserDriver(limits: HTTP1Limits(maxLineLength: 20))
        let line = "X: " + String(repeating: "a", count: 17)  // 20 bytes
        for ending in ["\r\n", "\n"] {
            let items = driver.runAllSplits(
                "HTTP/1.1 200 OK" + ending + line + ending + "Content-Length: 0" + ending + ending)
            #expect(ParsedItem.error(in: items) == nil)
        }
    }

    @Test func lineOverTheLimit() {
        let driver = ParserDriver(limits: HTTP1Limits(maxLineLength: 20))
        let line = "X: " + String(repeating: "a", count: 18)  // 21 bytes
        for ending in ["\r\n", "\n"] {
            #expect(
                driver.runAllSplits("HTTP/1.1 200 OK\r\n" + line + ending + "\r\n")
                    == [.violation("line longer than 20 bytes")])
        }
    }

    @Test func longLineWithoutTerminatorFailsEarly() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        let junk = [UInt8](repeating: UInt8(ascii: "a"), count: 16 * 1024 + 2)
        let error = try #require(throws: ClientError.self) { try junk.withUnsafeBytes { try parser.feed($0) } }
        #expect(error.message == "line longer than 16384 bytes")
        #expect(error.code == .protocolViolation)
    }

    @Test func headOverTheLimit() {
        let driver = ParserDriver(limits: HTTP1Limits(maxHeadBytes: 100))
        let input = Self.response(fieldCount: 10, valueLength: 5)  // about 170 bytes
        #expect(driver.runAllSplits(input) == [.violation("response head exceeds 100 bytes")])
    }

    @Test func defaultHeadLimitMessage() {
        let input = Self.response(fieldCount: 9, valueLength: 8000)
        #expect(ParserDriver().run(Array(input.utf8), cuts: []) == [.violation("response head exceeds 65536 bytes")])
    }

    @Test func headExactlyAtTheLimit() {
        let input = Self.response(fieldCount: 2)
        let driver = ParserDriver(limits: HTTP1Limits(maxHeadBytes: input.utf8.count))
        #expect(ParsedItem.error(in: driver.runAllSplits(input)) == nil)
        let smaller = ParserDriver(limits: HTTP1Limits(maxHeadBytes: input.utf8.count - 1))
        #expect(
            ParsedItem.error(in: smaller.runAllSplits(input))?.message
                == "response head exceeds \(input.utf8.count - 1) bytes")
    }

    @Test func eachInterimHeadHasItsOwnBudget() {
        let interim = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n"
        let final = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        let driver = ParserDriver(limits: HTTP1Limits(maxHeadBytes: interim.utf8.count))
        let items = driver.runAllSplits(interim + interim + interim + final)
        #expect(ParsedItem.error(in: items) == nil)
        #expect(items.count == 5)
    }

    @Test func trailerLimits() {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        let driver = ParserDriver(limits: HTTP1Limits(maxHeadBytes: 50, maxHeaderCount: 2, maxLineLength: 30))
        let tooMany = ParsedItem.error(in: driver.runAllSplits(head + "A: 1\r\nB: 2\r\nC: 3\r\n\r\n"))
        #expect(tooMany?.message == "more than 2 trailer fields")
        let tooLong = ParsedItem.error(
            in: driver.runAllSplits(head + "A: " + String(repeating: "x", count: 28) + "\r\n\r\n"))
        #expect(tooLong?.message == "line longer than 30 bytes")
        let tooBig = ParsedItem.error(
            in: driver.runAllSplits(head + "A: 12345678901234567890\r\nB: 1234567890123456789\r\n\r\n"))
        #expect(tooBig?.message == "trailer section exceeds 50 bytes")
    }

    @Test func chunkSizeLineLimit() {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        let driver = ParserDriver(limits: HTTP1Limits(maxLineLength: 30))
        let items = driver.runAllSplits(head + "1;" + String(repeating: "e", count: 40) + "\r\nx\r\n0\r\n\r\n")
        #expect(ParsedItem.error(in: items)?.message == "line longer than 30 bytes")
    }

    @Test func unexpectedBytesBeyondTheHeadLimitFailTheNextResponse() throws {
        var parser = HTTP1ResponseParser(limits: HTTP1Limits(maxHeadBytes: 64))
        parser.expectResponse(toMethod: .get)
        let first = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8) + [UInt8](repeating: 0x41, count: 100)
        let events = try first.withUnsafeBytes { try parser.feed($0) }
        #expect(events.count == 2)
        #expect(parser.hasBufferedBytes)
        parser.expectResponse(toMethod: .get)
        let error = try #require(throws: ClientError.self) {
            try parser.feed(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        #expect(error.message == "more than 64 bytes arrived before the response was expected")
    }

    @Test func oneMebibyteBodyIn16KiBFeeds() throws {
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        for chunked in [false, true] {
            var wire: [UInt8]
            if chunked {
                wire = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
                var offset = 0
                while offset < body.count {
                    let size = min(3000 + offset % 7000, body.count - offset)
                    wire += HTTP1RequestSerializer.chunk(Array(body[offset..<(offset + size)]))
                    offset += size
                }
                wire += HTTP1RequestSerializer.lastChunk
            } else {
                wire = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
            }
            var parser = HTTP1ResponseParser()
            parser.expectResponse(toMethod: .get)
            var received: [UInt8] = []
            var ended = false
            var events: [HTTP1Event] = []
            var offset = 0
            while offset < wire.count {
                let end = min(offset + 16 * 1024, wire.count)
                events.removeAll(keepingCapacity: true)
                try wire[offset..<end].withUnsafeBytes { try parser.feed($0, into: &events) }
                for event in events {
                    switch event {
                    case .head: break
                    case .body(let bytes):
                        #expect(bytes.count <= 16 * 1024)
                        received += bytes
                    case .end: ended = true
                    }
                }
                offset = end
            }
            #expect(ended)
            #expect(received == body, "chunked: \(chunked)")
            #expect(parser.isIdle)
        }
    }
}
