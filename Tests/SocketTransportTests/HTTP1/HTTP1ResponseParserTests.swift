import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// Status line, header fields, line endings and limits; every input is fed in every split.
struct HTTP1ResponseParserTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var expected: [ParsedItem]
        var eof = false
        var testDescription: String { name }
    }

    typealias Head = ParsedItem.Head

    static let statusLines: [Case] = [
        Case(
            name: "plain 200", input: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(fields: ["Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "reason with spaces", input: "HTTP/1.1 404 Not Found Here\r\nContent-Length: 0\r\n\r\n",
            expected: [
                .head(Head(code: 404, reason: "Not Found Here", fields: ["Content-Length: 0"])),
                .end(trailers: nil),
            ]),
        Case(
            name: "empty reason after space", input: "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(reason: "", fields: ["Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "no reason, no space", input: "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(reason: "", fields: ["Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "HTTP/1.0", input: "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",
            expected: [
                .head(Head(version: "HTTP/1.0", fields: ["Content-Length: 0"], keepAlive: false)),
                .end(trailers: nil),
            ]),
        Case(
            name: "bare LF line endings", input: "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi",
            expected: [
                .head(Head(fields: ["Content-Length: 2"], framing: .contentLength(2))), .body("hi"),
                .end(trailers: nil),
            ]),
        Case(
            name: "mixed line endings", input: "HTTP/1.1 200 OK\r\nA: 1\nContent-Length: 0\r\n\n",
            expected: [.head(Head(fields: ["A: 1", "Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "leading empty lines skipped", input: "\r\n\nHTTP/1.1 204 No Content\r\n\r\n",
            expected: [.head(Head(code: 204, reason: "No Content", framing: .none)), .end(trailers: nil)]),
        Case(
            name: "HTTP/2 rejected", input: "HTTP/2.0 200 OK\r\n\r\n",
            expected: [.violation("unsupported version HTTP/2.0 in the status line")]),
        Case(name: "not HTTP", input: "ICY 200 OK\r\n\r\n", expected: [.violation("malformed status line")]),
        Case(name: "lowercase http", input: "http/1.1 200 OK\r\n\r\n", expected: [.violation("malformed status line")]),
        Case(
            name: "two-digit status", input: "HTTP/1.1 20 OK\r\n\r\n", expected: [.violation("malformed status line")]),
        Case(
            name: "four-digit status", input: "HTTP/1.1 2000 OK\r\n\r\n",
            expected: [.violation("malformed status line")]),
        Case(
            name: "non-digit status", input: "HTTP/1.1 2x0 OK\r\n\r\n",
            expected: [.violation("the status code is not three digits")]),
        Case(
            name: "status below 100", input: "HTTP/1.1 099 Odd\r\n\r\n",
            expected: [.violation("status code 099 is out of range")]),
        Case(
            name: "tab instead of space", input: "HTTP/1.1\t200 OK\r\n\r\n",
            expected: [.violation("malformed status line")]),
        Case(
            name: "HTTP/0.9 style body", input: "<html>hello</html>\r\n",
            expected: [.violation("malformed status line")]),
        Case(
            name: "bare CR in reason", input: "HTTP/1.1 200 O\rK\r\n\r\n",
            expected: [.violation("the reason phrase contains a CR or NUL byte")]),
    ]

    @Test(arguments: statusLines)
    func statusLine(_ test: Case) {
        let driver = ParserDriver(eof: test.eof)
        #expect(driver.runAllSplits(test.input) == test.expected)
    }

    static let headerLines: [Case] = [
        Case(
            name: "order and case kept, OWS trimmed",
            input: "HTTP/1.1 200 OK\r\nX-B:  two \t\r\nx-a:one\r\nEtag: \"v1\"\r\nContent-Length: 0\r\n\r\n",
            expected: [
                .head(Head(fields: ["X-B: two", "x-a: one", "Etag: \"v1\"", "Content-Length: 0"])),
                .end(trailers: nil),
            ]),
        Case(
            name: "empty value", input: "HTTP/1.1 200 OK\r\nX-Empty:\r\nX-Blank:   \r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(fields: ["X-Empty: ", "X-Blank: ", "Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "repeated fields kept",
            input: "HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n",
            expected: [
                .head(Head(fields: ["Set-Cookie: a=1", "Set-Cookie: b=2", "Content-Length: 0"])),
                .end(trailers: nil),
            ]),
        Case(
            name: "colon in value", input: "HTTP/1.1 200 OK\r\nLocation: http://x:80/a\r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(fields: ["Location: http://x:80/a", "Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "obs-fold unfolded with one space",
            input: "HTTP/1.1 200 OK\r\nX-Long: part one\r\n  part two\r\n\tpart three\r\nContent-Length: 0\r\n\r\n",
            expected: [
                .head(Head(fields: ["X-Long: part one part two part three", "Content-Length: 0"])),
                .end(trailers: nil),
            ]),
        Case(
            name: "obs-fold onto an empty value",
            input: "HTTP/1.1 200 OK\r\nX-Long:\r\n value\r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(fields: ["X-Long: value", "Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "folded Content-Length is honoured",
            input: "HTTP/1.1 200 OK\r\nContent-Length:\r\n 3\r\n\r\nabc",
            expected: [
                .head(Head(fields: ["Content-Length: 3"], framing: .contentLength(3))), .body("abc"),
                .end(trailers: nil),
            ]),
        Case(
            name: "fold right after the status line",
            input: "HTTP/1.1 200 OK\r\n X: 1\r\n\r\n",
            expected: [.violation("the header section starts with whitespace")]),
        Case(
            name: "space before colon", input: "HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello",
            expected: [.violation("whitespace between a header field name and its colon")]),
        Case(
            name: "tab before colon", input: "HTTP/1.1 200 OK\r\nX\t: 5\r\n\r\n",
            expected: [.violation("whitespace between a header field name and its colon")]),
        Case(
            name: "no colon", input: "HTTP/1.1 200 OK\r\nNoColonHere\r\n\r\n",
            expected: [.violation("header line without a colon")]),
        Case(
            name: "empty name", input: "HTTP/1.1 200 OK\r\n: value\r\n\r\n",
            expected: [.violation("invalid character in a header field name")]),
        Case(
            name: "non-token name", input: "HTTP/1.1 200 OK\r\nX(y): 1\r\n\r\n",
            expected: [.violation("invalid character in a header field name")]),
        Case(
            name: "non-ASCII name", input: "HTTP/1.1 200 OK\r\nXé: 1\r\n\r\n",
            expected: [.violation("invalid character in a header field name")]),
        Case(
            name: "bare CR in value", input: "HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n",
            expected: [.violation("a header field value contains a CR or NUL byte")]),
        Case(
            name: "NUL in value", input: "HTTP/1.1 200 OK\r\nX: a\u{0}b\r\n\r\n",
            expected: [.violation("a header field value contains a CR or NUL byte")]),
        Case(
            name: "other control byte becomes a space",
            input: "HTTP/1.1 200 OK\r\nX: a\u{1}b\r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(fields: ["X: a b", "Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "UTF-8 value kept", input: "HTTP/1.1 200 OK\r\nX: café\r\nContent-Length: 0\r\n\r\n",
            expected: [.head(Head(fields: ["X: café", "Content-Length: 0"])), .end(trailers: nil)]),
        Case(
            name: "closed before any byte", input: "",
            expected: [.error(code: "emptyResponse", message: "connection closed before any response bytes arrived")],
            eof: true),
        Case(
            name: "closed in the head", input: "HTTP/1.1 200 OK\r\nX: 1\r\n",
            expected: [.violation("connection closed in the middle of the response head")], eof: true),
    ]

    @Test(arguments: headerLines)
    func headerLine(_ test: Case) {
        let driver = ParserDriver(eof: test.eof)
        #expect(driver.runAllSplits(test.input) == test.expected)
    }

    @Test func knownFieldNamesKeepTheirSpellingAndCompareCaseInsensitively() throws {
        let input =
            "HTTP/1.1 200 OK\r\ncontent-type: a\r\nContent-Type: b\r\nCONTENT-TYPE: c\r\nContent-Length: 0\r\n\r\n"
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        let events = try Array(input.utf8).withUnsafeBytes { try parser.feed($0) }
        guard case .head(let head) = events.first else {
            Issue.record("no head")
            return
        }
        #expect(head.fields.map(\.name.rawName) == ["content-type", "Content-Type", "CONTENT-TYPE", "Content-Length"])
        #expect(head.fields[values: .contentType] == ["a", "b", "c"])
        #expect(head.fields[.contentLength] == "0")
    }
}
