import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// Body framing (RFC 9112 §6.3), interim responses and connection reuse; every input is fed in every split.
struct HTTP1FramingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var methods: [HTTPRequest.Method] = [.get]
        var upgradeRequested = false
        var input: String
        var eof = false
        var expected: [ParsedItem]
        var testDescription: String { name }
    }

    typealias Head = ParsedItem.Head

    static let cases: [Case] = [
        // Content-Length
        Case(
            name: "content-length body", input: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
            expected: [
                .head(Head(fields: ["Content-Length: 5"], framing: .contentLength(5))), .body("hello"),
                .end(trailers: nil),
            ]),
        Case(
            name: "identical duplicate Content-Length fields",
            input: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
            expected: [
                .head(Head(fields: ["Content-Length: 5", "Content-Length: 5"], framing: .contentLength(5))),
                .body("hello"), .end(trailers: nil),
            ]),
        Case(
            name: "identical Content-Length list", input: "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello",
            expected: [
                .head(Head(fields: ["Content-Length: 5, 5"], framing: .contentLength(5))), .body("hello"),
                .end(trailers: nil),
            ]),
        Case(
            name: "differing Content-Length fields",
            input: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            expected: [.violation("conflicting Content-Length values")]),
        Case(
            name: "differing Content-Length list", input: "HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello",
            expected: [.violation("conflicting Content-Length values")]),
        Case(
            name: "negative Content-Length", input: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            expected: [.violation("invalid Content-Length")]),
        Case(
            name: "plus sign Content-Length", input: "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello",
            expected: [.violation("invalid Content-Length")]),
        Case(
            name: "non-numeric Content-Length", input: "HTTP/1.1 200 OK\r\nContent-Length: five\r\n\r\n",
            expected: [.violation("invalid Content-Length")]),
        Case(
            name: "hex Content-Length", input: "HTTP/1.1 200 OK\r\nContent-Length: 0x5\r\n\r\n",
            expected: [.violation("invalid Content-Length")]),
        Case(
            name: "overflowing Content-Length",
            input: "HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775808\r\n\r\n",
            expected: [.violation("invalid Content-Length")]),
        Case(
            name: "empty Content-Length", input: "HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n",
            expected: [.violation("empty Content-Length")]),
        Case(
            name: "largest Content-Length accepted",
            input: "HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nab",
            expected: [
                .head(
                    Head(
                        fields: ["Content-Length: 9223372036854775807"],
                        framing: .contentLength(Int64.max))), .body("ab"),
            ]),
        Case(
            name: "leading zeros", input: "HTTP/1.1 200 OK\r\nContent-Length: 007\r\n\r\nabcdefg",
            expected: [
                .head(Head(fields: ["Content-Length: 007"], framing: .contentLength(7))), .body("abcdefg"),
                .end(trailers: nil),
            ]),
        Case(
            name: "short body then close", input: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", eof: true,
            expected: [
                .head(Head(fields: ["Content-Length: 10"], framing: .contentLength(10))),
                .incomplete("connection closed after 5 of 10 body bytes"),
            ]),
        Case(
            name: "no body bytes then close", input: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n", eof: true,
            expected: [
                .head(Head(fields: ["Content-Length: 3"], framing: .contentLength(3))),
                .incomplete("connection closed after 0 of 3 body bytes"),
            ]),
        Case(
            name: "close after complete body is fine",
            input: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", eof: true,
            expected: [
                .head(Head(fields: ["Content-Length: 2"], framing: .contentLength(2))), .body("ok"),
                .end(trailers: nil),
            ]),

        // No body
        Case(
            name: "HEAD ignores Content-Length", methods: [.head],
            input: "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n",
            expected: [.head(Head(fields: ["Content-Length: 1000"], framing: .none)), .end(trailers: nil)]),
        Case(
            name: "HEAD ignores chunked", methods: [.head],
            input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
            expected: [.head(Head(fields: ["Transfer-Encoding: chunked"], framing: .none)), .end(trailers: nil)]),
        Case(
            name: "HEAD ignores an invalid Content-Length", methods: [.head],
            input: "HTTP/1.1 200 OK\r\nContent-Length: nope\r\n\r\n",
            expected: [.head(Head(fields: ["Content-Length: nope"], framing: .none)), .end(trailers: nil)]),
        Case(
            name: "204 ignores Content-Length", input: "HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n",
            expected: [
                .head(Head(code: 204, reason: "No Content", fields: ["Content-Length: 7"], framing: .none)),
                .end(trailers: nil),
            ]),
        Case(
            name: "304 ignores Content-Length", input: "HTTP/1.1 304 Not Modified\r\nContent-Length: 7\r\n\r\n",
            expected: [
                .head(Head(code: 304, reason: "Not Modified", fields: ["Content-Length: 7"], framing: .none)),
                .end(trailers: nil),
            ]),
        Case(
            name: "HEAD then GET on one connection", methods: [.head, .get],
            input: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc",
            expected: [
                .head(Head(fields: ["Content-Length: 3"], framing: .none)), .end(trailers: nil),
                .head(Head(fields: ["Content-Length: 3"], framing: .contentLength(3))), .body("abc"),
                .end(trailers: nil),
            ]),
        Case(
            name: "two responses in one read", methods: [.get, .get],
            input: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nb",
            expected: [
                .head(Head(fields: ["Content-Length: 1"], framing: .contentLength(1))), .body("a"),
                .end(trailers: nil),
                .head(
                    Head(
                        code: 201, reason: "Created", fields: ["Content-Length: 1"],
                        framing: .contentLength(1))), .body("b"), .end(trailers: nil),
            ]),

        // Interim responses
        Case(
            name: "100 Continue then final",
            input: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            expected: [
                .head(
                    Head(
                        code: 100, reason: "Continue", framing: .none, keepAlive: false,
                        isInformational: true)),
                .head(Head(fields: ["Content-Length: 2"], framing: .contentLength(2))), .body("ok"),
                .end(trailers: nil),
            ]),
        Case(
            name: "103 Early Hints with fields, twice",
            input: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 103 Early Hints\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\n\r\n",
            expected: [
                .head(
                    Head(
                        code: 103, reason: "Early Hints", fields: ["Link: </a.css>"], framing: .none,
                        keepAlive: false, isInformational: true)),
                .head(
                    Head(
                        code: 103, reason: "Early Hints", framing: .none, keepAlive: false,
                        isInformational: true)),
                .head(Head(code: 204, reason: "No Content", framing: .none)), .end(trailers: nil),
            ]),
        Case(
            name: "1xx ignores Content-Length",
            input: "HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
            expected: [
                .head(
                    Head(
                        code: 100, reason: "Continue", fields: ["Content-Length: 5"], framing: .none,
                        keepAlive: false, isInformational: true)),
                .head(Head(code: 204, reason: "No Content", framing: .none)), .end(trailers: nil),
            ]),
        Case(
            name: "closed after 100 Continue", input: "HTTP/1.1 100 Continue\r\n\r\n", eof: true,
            expected: [
                .head(
                    Head(
                        code: 100, reason: "Continue", framing: .none, keepAlive: false,
                        isInformational: true)),
                .violation("connection closed in the middle of the response head"),
            ]),
        Case(
            name: "101 is final, bytes after it are held", upgradeRequested: true,
            input: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\u{81}\u{0}",
            eof: true,
            expected: [
                .head(
                    Head(
                        code: 101, reason: "Switching Protocols",
                        fields: ["Upgrade: websocket", "Connection: Upgrade"], framing: .none,
                        keepAlive: false)), .end(trailers: nil),
            ]),
        Case(
            name: "101 to a request that asked for no upgrade",
            input: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nContent-Length: 4\r\n\r\nbody",
            expected: [.violation("a 101 (Switching Protocols) answers a request that asked for no upgrade")]),
        Case(
            name: "CONNECT 200 is a tunnel", methods: [.connect],
            input: "HTTP/1.1 200 Connection established\r\n\r\n",
            expected: [
                .head(Head(reason: "Connection established", framing: .none, keepAlive: false)),
                .end(trailers: nil),
            ]),
        Case(
            name: "CONNECT 407 has a body", methods: [.connect],
            input: "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 2\r\n\r\nno",
            expected: [
                .head(
                    Head(
                        code: 407, reason: "Proxy Authentication Required", fields: ["Content-Length: 2"],
                        framing: .contentLength(2))), .body("no"), .end(trailers: nil),
            ]),

        // Transfer-Encoding and close-delimited bodies
        Case(
            name: "chunked wins over Content-Length and disables reuse",
            input: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
            expected: [
                .head(
                    Head(
                        fields: ["Content-Length: 100", "Transfer-Encoding: chunked"],
                        framing: .chunked, keepAlive: false)), .body("ok"), .end(trailers: nil),
            ]),
        Case(
            name: "chunked wins over an invalid Content-Length",
            input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: x\r\n\r\n0\r\n\r\n",
            expected: [
                .head(
                    Head(
                        fields: ["Transfer-Encoding: chunked", "Content-Length: x"],
                        framing: .chunked, keepAlive: false)), .end(trailers: nil),
            ]),
        Case(
            name: "chunked in an HTTP/1.0 response disables reuse",
            input: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            expected: [
                .head(
                    Head(
                        version: "HTTP/1.0",
                        fields: ["Connection: keep-alive", "Transfer-Encoding: chunked"],
                        framing: .chunked, keepAlive: false)), .end(trailers: nil),
            ]),
        Case(
            name: "gzip, chunked is chunked",
            input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n",
            expected: [
                .head(Head(fields: ["Transfer-Encoding: gzip, Chunked"], framing: .chunked)), .body("z"),
                .end(trailers: nil),
            ]),
        Case(
            name: "codings split over two fields",
            input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            expected: [
                .head(
                    Head(
                        fields: ["Transfer-Encoding: gzip", "Transfer-Encoding: chunked"],
                        framing: .chunked)), .end(trailers: nil),
            ]),
        Case(
            name: "final coding not chunked is close-delimited",
            input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\nContent-Length: 3\r\n\r\nabcdef", eof: true,
            expected: [
                .head(
                    Head(
                        fields: ["Transfer-Encoding: chunked, gzip", "Content-Length: 3"],
                        framing: .closeDelimited, keepAlive: false)), .body("abcdef"),
                .end(trailers: nil),
            ]),
        Case(
            name: "empty Transfer-Encoding counts as absent",
            input: "HTTP/1.1 200 OK\r\nTransfer-Encoding: \r\nContent-Length: 1\r\n\r\nx",
            expected: [
                .head(Head(fields: ["Transfer-Encoding: ", "Content-Length: 1"], framing: .contentLength(1))),
                .body("x"), .end(trailers: nil),
            ]),
        Case(
            name: "no framing reads to close", input: "HTTP/1.1 200 OK\r\n\r\nall of it", eof: true,
            expected: [
                .head(Head(framing: .closeDelimited, keepAlive: false)), .body("all of it"),
                .end(trailers: nil),
            ]),
        Case(
            name: "close-delimited empty body", input: "HTTP/1.0 200 OK\r\n\r\n", eof: true,
            expected: [
                .head(Head(version: "HTTP/1.0", framing: .closeDelimited, keepAlive: false)),
                .end(trailers: nil),
            ]),
    ]

    @Test(arguments: cases)
    func framing(_ test: Case) {
        let driver = ParserDriver(methods: test.methods, eof: test.eof, upgradeRequested: test.upgradeRequested)
        #expect(driver.runAllSplits(test.input) == test.expected)
    }

    @Test func heldBytesAfterAResponseAreReported() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        #expect(parser.isIdle)
        #expect(!parser.hasBufferedBytes)
        let input = Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 408 Timeout\r\n".utf8)
        let events = try input.withUnsafeBytes { try parser.feed($0) }
        guard case .end = events.last else {
            Issue.record("no end: \(events)")
            return
        }
        #expect(parser.hasBufferedBytes)
        #expect(!parser.isIdle)
        #expect(parser.takeBufferedBytes() == Array("HTTP/1.1 408 Timeout\r\n".utf8))
        #expect(!parser.hasBufferedBytes)
        #expect(parser.isIdle)
    }

    @Test func idleOnlyBetweenMessages() throws {
        var parser = HTTP1ResponseParser()
        #expect(parser.isIdle)
        parser.expectResponse(toMethod: .get)
        #expect(parser.isIdle)
        _ = try Array("HTTP/1.1 200 O".utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(!parser.isIdle)
        #expect(parser.hasBufferedBytes)
        _ = try Array("K\r\nContent-Length: 2\r\n\r\na".utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(!parser.isIdle)
        #expect(!parser.hasBufferedBytes)
        _ = try Array("b".utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(parser.isIdle)
        #expect(try parser.feedEOF().isEmpty)
        #expect(parser.isIdle)
    }

    @Test func failedParserStaysFailed() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        #expect(throws: ClientError.self) {
            try Array("HTTP/9.9 200 OK\r\n".utf8).withUnsafeBytes { try parser.feed($0) }
        }
        #expect(throws: ClientError.self) {
            try Array("HTTP/1.1 200 OK\r\n\r\n".utf8).withUnsafeBytes { try parser.feed($0) }
        }
        #expect(throws: ClientError.self) { try parser.feedEOF() }
    }

    @Test func bytesAfter101AreHandedOverNotParsed() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get, upgradeRequested: true)
        let input = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\nHTTP/1.1 200 OK\r\n\r\n".utf8)
        let events = try input.withUnsafeBytes { try parser.feed($0) }
        #expect(events.count == 2)
        let more = try Array("tail".utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(more.isEmpty)
        #expect(parser.takeBufferedBytes() == Array("HTTP/1.1 200 OK\r\n\r\ntail".utf8))
        #expect(try parser.feedEOF().isEmpty)
    }

    @Test func bytesBeforeTheFirstRequestAreParsedOnceExpected() throws {
        var parser = HTTP1ResponseParser()
        let early = try Array("HTTP/1.1 204 No Content\r\n\r\n".utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(early.isEmpty)
        #expect(parser.hasBufferedBytes)
        parser.expectResponse(toMethod: .get)
        let events = try parser.feed(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(events.count == 2)
        if case .head(let head) = events.first { #expect(head.status.code == 204) } else { Issue.record("no head") }
        #expect(parser.isIdle)
    }

    @Test func nonUTF8FieldValueKeepsItsBytes() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        let input =
            Array("HTTP/1.1 200 OK\r\nX-Latin1: caf".utf8) + [0xE9] + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        let events = try input.withUnsafeBytes { try parser.feed($0) }
        guard case .head(let head) = events.first else {
            Issue.record("no head")
            return
        }
        let raw = head.fields[0].withUnsafeBytesOfValue { Array($0) }
        #expect(raw == Array("caf".utf8) + [0xE9])
    }
}
