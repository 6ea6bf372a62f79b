import FoundationEssentials
import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// Exact bytes of request heads and chunk framing, header injection, and request targets from URLs.
struct HTTP1RequestSerializerTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func head(
        method: HTTPRequest.Method = .get, target: String = "/", version: HTTPVersion = .http1_1,
        host: String = "example.com", fields: HTTPFields = [:], framing: BodyFraming = .none
    ) throws -> String {
        text(
            try HTTP1RequestSerializer.head(
                method: method, target: target, version: version, host: host, fields: fields, framing: framing))
    }

    @Test func minimalGet() throws {
        #expect(try Self.head() == "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n")
    }

    @Test func hostFirstThenFieldsInOrderWithTheirSpelling() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("x-zeta")!, value: "1"))
        fields.append(HTTPField(name: .accept, value: "*/*"))
        fields.append(HTTPField(name: HTTPField.Name("X-Alpha")!, value: "a, b"))
        fields.append(HTTPField(name: .accept, value: "text/html"))
        let head = try Self.head(target: "/a/b?c=d", host: "example.com:8080", fields: fields)
        #expect(
            head == "GET /a/b?c=d HTTP/1.1\r\nHost: example.com:8080\r\nx-zeta: 1\r\nAccept: */*\r\n"
                + "X-Alpha: a, b\r\nAccept: text/html\r\n\r\n")
    }

    @Test func cookiesGoOnOneLine() throws {
        var fields = HTTPFields()
        fields[.cookie] = "a=1; b=2"  // HTTPFields stores one field per cookie
        fields.append(HTTPField(name: .accept, value: "*/*"))
        fields.append(HTTPField(name: .cookie, value: "c=3"))
        #expect(fields[values: .cookie].count == 3)
        #expect(try Self.head(fields: fields) == "GET / HTTP/1.1\r\nHost: example.com\r\nCookie: a=1; b=2; c=3\r\n"
            + "Accept: */*\r\n\r\n")
    }

    @Test func callersHostIsKeptInPlace() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .userAgent, value: "ASIKit"))
        fields.append(HTTPField(name: HTTPField.Name("host")!, value: "virtual.test"))
        #expect(
            try Self.head(fields: fields)
                == "GET / HTTP/1.1\r\nUser-Agent: ASIKit\r\nhost: virtual.test\r\n\r\n")
    }

    @Test func http10AndCustomMethod() throws {
        let method = try #require(HTTPRequest.Method("PROPFIND"))
        #expect(
            try Self.head(method: method, version: .http1_0)
                == "PROPFIND / HTTP/1.0\r\nHost: example.com\r\n\r\n")
    }

    @Test func contentLengthReplacesCallerFramingFields() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .contentLength, value: "999"))
        fields.append(HTTPField(name: .contentType, value: "text/plain"))
        fields.append(HTTPField(name: .transferEncoding, value: "chunked"))
        #expect(
            try Self.head(method: .post, target: "/upload", fields: fields, framing: .contentLength(5))
                == "POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n"
        )
    }

    @Test func zeroContentLengthForAnEmptyPut() throws {
        #expect(
            try Self.head(method: .put, framing: .contentLength(0))
                == "PUT / HTTP/1.1\r\nHost: example.com\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func chunkedFraming() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("content-length")!, value: "1"))
        #expect(
            try Self.head(method: .post, fields: fields, framing: .chunked)
                == "POST / HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n")
    }

    @Test func noFramingDropsCallerFramingFields() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .contentLength, value: "0"))
        #expect(try Self.head(fields: fields) == "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n")
    }

    @Test func absoluteFormTargetForAProxy() throws {
        let url = try #require(URL(string: "http://user:pw@example.com:8080/p%20q?x=1#frag"))
        let target = HTTP1RequestSerializer.absoluteForm(of: url)
        #expect(target == "http://example.com:8080/p%20q?x=1")
        #expect(
            try Self.head(target: target, host: HTTP1RequestSerializer.hostFieldValue(for: url))
                == "GET http://example.com:8080/p%20q?x=1 HTTP/1.1\r\nHost: example.com:8080\r\n\r\n")
    }

    @Test func proxyAuthorizationIsDroppedUnlessKept() throws {
        var fields = HTTPFields()
        fields[.proxyAuthorization] = "Basic dTpw"
        fields[.accept] = "*/*"
        #expect(try Self.head(fields: fields) == "GET / HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n")
        let kept = Self.text(
            try HTTP1RequestSerializer.head(
                method: .get, target: "http://example.com/", version: .http1_1, host: "example.com", fields: fields,
                framing: .none, keepsProxyAuthorization: true))
        #expect(
            kept == "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nProxy-Authorization: Basic dTpw\r\n"
                + "Accept: */*\r\n\r\n")
    }

    @Test func authorityFormForConnect() throws {
        let url = try #require(URL(string: "https://example.com/x"))
        #expect(HTTP1RequestSerializer.authorityForm(of: url) == "example.com:443")
        let ipv6 = try #require(URL(string: "https://[::1]:8443/"))
        #expect(HTTP1RequestSerializer.authorityForm(of: ipv6) == "[::1]:8443")
        #expect(
            try Self.head(method: .connect, target: "example.com:443", host: "example.com:443")
                == "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
    }

    struct TargetCase: CustomTestStringConvertible, Sendable {
        var url: String
        var origin: String
        var host: String
        var testDescription: String { url }
    }

    static let targets: [TargetCase] = [
        TargetCase(url: "http://example.com", origin: "/", host: "example.com"),
        TargetCase(url: "http://example.com/", origin: "/", host: "example.com"),
        TargetCase(url: "http://example.com?q=1", origin: "/?q=1", host: "example.com"),
        TargetCase(url: "http://example.com/a/b/", origin: "/a/b/", host: "example.com"),
        TargetCase(url: "http://example.com/a?", origin: "/a?", host: "example.com"),
        TargetCase(
            url: "http://example.com/a%2Fb?x=%20y&z=%C3%A9#top", origin: "/a%2Fb?x=%20y&z=%C3%A9",
            host: "example.com"),
        TargetCase(url: "http://example.com:80/x", origin: "/x", host: "example.com"),
        TargetCase(url: "https://example.com:443/x", origin: "/x", host: "example.com"),
        TargetCase(url: "http://example.com:443/x", origin: "/x", host: "example.com:443"),
        TargetCase(url: "https://example.com:8443/x", origin: "/x", host: "example.com:8443"),
        TargetCase(url: "http://127.0.0.1:8080/x", origin: "/x", host: "127.0.0.1:8080"),
        TargetCase(url: "http://[::1]:8080/x", origin: "/x", host: "[::1]:8080"),
        TargetCase(url: "http://[::1]/x", origin: "/x", host: "[::1]"),
        TargetCase(url: "http://u:p@example.com/secret", origin: "/secret", host: "example.com"),
    ]

    @Test(arguments: targets)
    func requestTargetFromURL(_ test: TargetCase) throws {
        let url = try #require(URL(string: test.url))
        #expect(HTTP1RequestSerializer.originForm(of: url) == test.origin)
        #expect(HTTP1RequestSerializer.hostFieldValue(for: url) == test.host)
    }

    static let injections: [String] = ["\r\n", "\r", "\n", "\u{0}", "\u{7F}"]

    @Test(arguments: injections)
    func controlBytesInTargetOrHostAreRejected(_ bad: String) {
        for (target, host) in [("/a\(bad)b", "example.com"), ("/", "example.com\(bad)X-Injected: 1")] {
            let error = #expect(throws: ClientError.self) { try Self.head(target: target, host: host) }
            #expect(error?.code == .invalidRequest)
        }
    }

    @Test func spaceOrNonASCIIInTargetIsRejected() {
        for target in ["/a b", "/caf\u{E9}", ""] {
            let error = #expect(throws: ClientError.self) { try Self.head(target: target) }
            #expect(error?.code == .invalidRequest)
        }
    }

    @Test func fieldValuesCannotCarryLineBreaks() throws {
        // HTTPTypes replaces CR and LF in values with spaces before they reach the serializer, so no field can
        // inject a header line; the serializer checks again anyway.
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "a\r\nX-Injected: 1"))
        let head = try Self.head(fields: fields)
        #expect(!head.contains("\r\nX-Injected"))
        #expect(head.split(separator: "\r\n" as Character, omittingEmptySubsequences: false).count == 5)
    }

    @Test func chunkFraming() {
        #expect(Self.text(HTTP1RequestSerializer.chunk(Array("hello".utf8))) == "5\r\nhello\r\n")
        #expect(Self.text(HTTP1RequestSerializer.chunk([UInt8](repeating: 0x61, count: 255))).hasPrefix("FF\r\naaa"))
        #expect(HTTP1RequestSerializer.chunk([UInt8](repeating: 0, count: 4096)).count == 4 + 2 + 4096 + 2)
        #expect(HTTP1RequestSerializer.chunk([]) == [])
        #expect(Self.text(HTTP1RequestSerializer.lastChunk) == "0\r\n\r\n")
        #expect(Self.text(HTTP1RequestSerializer.chunkPrefix(count: 0x1A2B)) == "1A2B\r\n")
        #expect(Self.text(HTTP1RequestSerializer.chunkSuffix) == "\r\n")
    }
}
