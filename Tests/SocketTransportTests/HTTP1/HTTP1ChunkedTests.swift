import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// The chunked transfer coding and trailers; every input is fed in every split.
struct HTTP1ChunkedTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var chunks: String
        var eof = false
        var expected: [ParsedItem]
        var testDescription: String { name }
    }

    static let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    static let parsedHead = ParsedItem.head(ParsedItem.Head(fields: ["Transfer-Encoding: chunked"], framing: .chunked))

    static let cases: [Case] = [
        Case(
            name: "two chunks", chunks: "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
            expected: [.body("hello world"), .end(trailers: nil)]),
        Case(name: "empty body", chunks: "0\r\n\r\n", expected: [.end(trailers: nil)]),
        Case(
            name: "upper and lower case hex", chunks: "A\r\n0123456789\r\na\r\nabcdefghij\r\n0\r\n\r\n",
            expected: [.body("0123456789abcdefghij"), .end(trailers: nil)]),
        Case(
            name: "leading zeros", chunks: "0003\r\nabc\r\n000\r\n\r\n", expected: [.body("abc"), .end(trailers: nil)]),
        Case(
            name: "extensions ignored", chunks: "3;name=value;flag\r\nabc\r\n0;last=\"yes\"\r\n\r\n",
            expected: [.body("abc"), .end(trailers: nil)]),
        Case(
            name: "whitespace around extensions", chunks: "3 ;x = y ; z=\"q\\\"r\"\r\nabc\r\n0\t;end\r\n\r\n",
            expected: [.body("abc"), .end(trailers: nil)]),
        // RFC 9112 §7.1.1: whitespace only before a `;`, and a name after every `;` (llhttp's response cases).
        Case(
            name: "whitespace after the size without an extension", chunks: "3  \r\nabc\r\n0\r\n\r\n",
            expected: [.violation("invalid chunk size line")]),
        Case(name: "a semicolon without a name", chunks: "2;\r\naa\r\n0\r\n\r\n",
             expected: [.violation("invalid chunk size line")]),
        Case(name: "an extension value missing", chunks: "2;a=\r\naa\r\n0\r\n\r\n",
             expected: [.violation("invalid chunk size line")]),
        Case(name: "an unterminated quoted value", chunks: "2;a=\"b\r\naa\r\n0\r\n\r\n",
             expected: [.violation("invalid chunk size line")]),
        Case(name: "a control byte after a backslash", chunks: "2;a=\"\\\r\"\r\naa\r\n0\r\n\r\n",
             expected: [.violation("invalid chunk size line")]),
        Case(name: "junk after the size", chunks: "2 x\r\naa\r\n0\r\n\r\n",
             expected: [.violation("invalid chunk size line")]),
        Case(name: "bare LF framing", chunks: "3\nabc\n0\n\n", expected: [.body("abc"), .end(trailers: nil)]),
        Case(
            name: "CRLF inside chunk data is data", chunks: "4\r\n\r\n\r\n\r\n0\r\n\r\n",
            expected: [.body("\r\n\r\n"), .end(trailers: nil)]),
        Case(
            name: "trailers", chunks: "3\r\nabc\r\n0\r\nExpires: never\r\nX-Checksum:  abc \r\n\r\n",
            expected: [.body("abc"), .end(trailers: ["Expires: never", "X-Checksum: abc"])]),
        Case(name: "folded trailer", chunks: "0\r\nX-T: a\r\n b\r\n\r\n", expected: [.end(trailers: ["X-T: a b"])]),
        Case(
            name: "bad trailer", chunks: "0\r\nX-T : a\r\n\r\n",
            expected: [.violation("whitespace between a trailer field name and its colon")]),
        Case(
            name: "size overflow", chunks: "8000000000000000\r\n",
            expected: [.violation("chunk size overflows")]),
        Case(
            name: "largest size accepted", chunks: "7fffffffffffffff\r\nab",
            expected: [.body("ab")]),
        Case(name: "missing size", chunks: "\r\nabc\r\n", expected: [.violation("invalid chunk size line")]),
        Case(name: "negative size", chunks: "-1\r\n", expected: [.violation("invalid chunk size line")]),
        Case(name: "0x prefix", chunks: "0x3\r\nabc\r\n", expected: [.violation("invalid chunk size line")]),
        Case(name: "junk after size", chunks: "3 z\r\nabc\r\n", expected: [.violation("invalid chunk size line")]),
        Case(
            name: "missing CRLF after data", chunks: "3\r\nabcd\r\n0\r\n\r\n",
            expected: [.violation("missing CRLF after chunk data")]),
        Case(
            name: "CR without LF after data", chunks: "3\r\nabc\rX0\r\n\r\n",
            expected: [.violation("missing CRLF after chunk data")]),
        Case(
            name: "closed in chunk data", chunks: "5\r\nhel", eof: true,
            expected: [.incomplete("connection closed in the middle of a chunked body after 3 bytes")]),
        Case(
            name: "closed before last chunk", chunks: "3\r\nabc\r\n", eof: true,
            expected: [.incomplete("connection closed in the middle of a chunked body after 3 bytes")]),
        Case(
            name: "closed in trailers", chunks: "0\r\nX: 1\r\n", eof: true,
            expected: [.incomplete("connection closed in the middle of the trailer section")]),
        Case(
            name: "close after last chunk is fine", chunks: "1\r\nx\r\n0\r\n\r\n", eof: true,
            expected: [.body("x"), .end(trailers: nil)]),
    ]

    @Test(arguments: cases)
    func chunked(_ test: Case) {
        let driver = ParserDriver(eof: test.eof)
        #expect(driver.runAllSplits(Self.head + test.chunks) == [Self.parsedHead] + test.expected)
    }

    @Test func manySmallChunksInOneFeedBecomeOneBodyEvent() throws {
        let body = (0..<200).map { UInt8(truncatingIfNeeded: $0) }
        var wire = Array(Self.head.utf8)
        for byte in body { wire += Array("1\r\n".utf8) + [byte] + Array("\r\n".utf8) }
        wire += Array("0\r\n\r\n".utf8)
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        let events = try wire.withUnsafeBytes { try parser.feed($0) }
        #expect(events.count == 3)
        if case .body(let bytes) = events[1] { #expect(bytes == body) } else { Issue.record("no body") }
    }

    @Test func serializerChunksRoundTripThroughTheParser() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), [], Array(repeating: 0x0D, count: 17), Array(0...255),
            Array(repeating: 0x41, count: 4096),
        ]
        var wire = Array(Self.head.utf8)
        for piece in pieces { wire += HTTP1RequestSerializer.chunk(piece) }
        wire += HTTP1RequestSerializer.lastChunk
        let items = ParserDriver().runAllSplits(wire)
        #expect(items == [Self.parsedHead, .body(pieces.flatMap { $0 }), .end(trailers: nil)])
    }
}
