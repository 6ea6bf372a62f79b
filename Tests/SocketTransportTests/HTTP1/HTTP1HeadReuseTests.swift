import HTTPCore
import Testing

@testable import SocketTransport

/// A head that repeats the previous one on the same connection reuses its status, its fields and its field list
/// (``HTTP1ResponseParser/previousHead``); whatever differs must come out as sent, at every split of the bytes.
struct HTTP1HeadReuseTests {
    typealias Head = ParsedItem.Head

    static let first = "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nContent-Type: application/octet-stream\r\n"
        + "Content-Length: 2\r\nETag: \"6565a8f0-400\"\r\n\r\nab"

    static let firstHead = Head(
        fields: ["Server: nginx/1.22.1", "Content-Type: application/octet-stream", "Content-Length: 2",
                 "ETag: \"6565a8f0-400\""],
        framing: .contentLength(2))

    /// The items of `first` followed by `second` on one connection.
    func parse(_ second: String) -> [ParsedItem] {
        ParserDriver(methods: [.get, .get]).runAllSplits(Self.first + second)
    }

    @Test func aRepeatedHeadIsParsedAsSent() {
        #expect(parse(Self.first) == [.head(Self.firstHead), .body("ab"), .end(trailers: nil),
                                      .head(Self.firstHead), .body("ab"), .end(trailers: nil)])
    }

    @Test func aChangedValueAtTheSamePlaceIsTheNewOne() {
        let second = Self.first.replacing("Length: 2\r\n", with: "Length: 3\r\n")
            .replacing("\r\n\r\nab", with: "\r\n\r\nxyz")
        var head = Self.firstHead
        head.fields[2] = "Content-Length: 3"
        head.framing = .contentLength(3)
        #expect(parse(second).suffix(3) == [.head(head), .body("xyz"), .end(trailers: nil)])
    }

    @Test func aNameSpelledAnotherWayKeepsItsSpelling() {
        let second = Self.first.replacing("Server:", with: "server:")
        var head = Self.firstHead
        head.fields[0] = "server: nginx/1.22.1"
        #expect(parse(second).suffix(3) == [.head(head), .body("ab"), .end(trailers: nil)])
    }

    @Test func fewerAndMoreFieldsAreNotTakenFromThePreviousHead() {
        let fewer = "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nContent-Length: 0\r\n\r\n"
        #expect(parse(fewer).suffix(2)
            == [.head(Head(fields: ["Server: nginx/1.22.1", "Content-Length: 0"])), .end(trailers: nil)])
        let more = Self.first.replacing("\r\n\r\nab", with: "\r\nX-Extra: 1\r\n\r\nab")
        var head = Self.firstHead
        head.fields.append("X-Extra: 1")
        #expect(parse(more).suffix(3) == [.head(head), .body("ab"), .end(trailers: nil)])
    }

    @Test func theStatusLineIsTheNewOne() {
        for (line, code, reason) in [("HTTP/1.1 200 Fine", 200, "Fine"), ("HTTP/1.1 200", 200, ""),
                                     ("HTTP/1.1 201 OK", 201, "OK"), ("HTTP/1.0 200 OK", 200, "OK")] {
            let second = Self.first.replacing("HTTP/1.1 200 OK", with: line)
            var head = Self.firstHead
            head.code = code
            head.reason = reason
            if line.hasPrefix("HTTP/1.0") {
                head.version = "HTTP/1.0"
                head.keepAlive = false
            }
            #expect(parse(second).suffix(3) == [.head(head), .body("ab"), .end(trailers: nil)], "\(line)")
        }
    }

    @Test func aFoldedRepeatOfAFieldIsUnfolded() {
        let second = Self.first.replacing("nginx/1.22.1\r\n", with: "nginx/1.22.1\r\n (x)\r\n")
        var head = Self.firstHead
        head.fields[0] = "Server: nginx/1.22.1 (x)"
        #expect(parse(second).suffix(3) == [.head(head), .body("ab"), .end(trailers: nil)])
    }

    @Test func trailersAndInterimHeadsAreTheirOwn() {
        let second = "HTTP/1.1 100 Continue\r\nServer: nginx/1.22.1\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "2\r\nab\r\n0\r\nServer: trailer\r\n\r\n"
        let items = parse(second)
        #expect(items.suffix(4) == [
            .head(Head(code: 100, reason: "Continue", fields: ["Server: nginx/1.22.1"], framing: .none,
                       keepAlive: false, isInformational: true)),
            .head(Head(fields: ["Server: nginx/1.22.1", "Transfer-Encoding: chunked"], framing: .chunked)),
            .body("ab"), .end(trailers: ["Server: trailer"]),
        ])
    }

    /// What the reuse is for: the second head's fields are the first head's, storage and all, so a repeated head
    /// allocates no strings and no list.
    @Test func aRepeatedHeadSharesTheFirstHeadsStorage() throws {
        var parser = HTTP1ResponseParser()
        var heads: [HTTP1ResponseHead] = []
        for _ in 0..<2 {
            parser.expectResponse(toMethod: .get)
            let events = try Array(Self.first.utf8).withUnsafeBytes { try parser.feed($0) }
            for case .head(let head) in events { heads.append(head) }
        }
        try #require(heads.count == 2)
        func address(_ head: HTTP1ResponseHead, _ index: Int) -> UnsafeRawPointer? {
            var value = head.fields[index].value
            return value.withUTF8 { UnsafeRawPointer($0.baseAddress) }
        }
        // "application/octet-stream" is too long for a small string: equal addresses mean one shared buffer.
        #expect(address(heads[0], 1) == address(heads[1], 1))
        #expect(heads[0].fields == heads[1].fields)

        // A changed head gets fields of its own; the unchanged long value is still shared.
        parser.expectResponse(toMethod: .get)
        let changed = Self.first.replacing("nginx/1.22.1", with: "nginx/1.22.2")
        let events = try Array(changed.utf8).withUnsafeBytes { try parser.feed($0) }
        for case .head(let head) in events { heads.append(head) }
        try #require(heads.count == 3)
        #expect(heads[2].fields[0].value == "nginx/1.22.2")
        #expect(heads[0].fields[0].value == "nginx/1.22.1")
        #expect(address(heads[0], 1) == address(heads[2], 1))
    }
}
