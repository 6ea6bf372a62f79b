import FoundationEssentials
import HTTPCore
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// ``POSIXTransport/Configuration/responseLimits`` over a real socket: each limit at its boundary against the
/// loopback server, and a configured limit reaching the parser.
@Suite struct POSIXTransportLimitsTests {
    static let interim = "HTTP/1.1 102 Processing\r\n\r\n"
    static let final = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

    /// A head of exactly `size` bytes: the status line, padding fields of at most 16,020 bytes each (under the
    /// line limit), `Content-Length: 0` and the empty line.
    static func head(size: Int) -> String {
        let start = "HTTP/1.1 200 OK\r\n"
        let end = "Content-Length: 0\r\n\r\n"
        var remaining = size - start.utf8.count - end.utf8.count
        var lines = ""
        while remaining > 0 {
            let prefix = "X-P\(lines.count): "
            let take = remaining > 16_020 ? 16_000 : remaining
            lines += prefix + String(repeating: "p", count: take - prefix.utf8.count - 2) + "\r\n"
            remaining -= take
        }
        return start + lines + end
    }

    static func server(_ text: String) throws -> LoopbackServer {
        try LoopbackServer { _ in .raw(text) }
    }

    @Test func aHundredInterimResponsesAreSkippedTheHundredAndFirstFails() async throws {
        let under = try Self.server(String(repeating: Self.interim, count: 100) + Self.final)
        defer { under.shutdown() }
        let (response, body) = try await fetch(POSIXTransport(), testRequest(under.url("/interim")))
        #expect(response.status == .ok)
        #expect(body == Array("ok".utf8))

        let over = try Self.server(String(repeating: Self.interim, count: 101) + Self.final)
        defer { over.shutdown() }
        let error = await expectClientError(.protocolViolation) {
            _ = try await fetch(POSIXTransport(), testRequest(over.url("/interim")))
        }
        #expect(error?.message == "more than 100 interim (1xx) responses")
        #expect(error?.stage == .transport)
    }

    @Test func theInterimLimitIsConfigurable() async throws {
        let server = try Self.server(String(repeating: Self.interim, count: 101) + Self.final)
        defer { server.shutdown() }
        let transport = POSIXTransport(
            configuration: .init(responseLimits: HTTP1Limits(maxInterimResponses: 101)))
        #expect(try await fetch(transport, testRequest(server.url("/interim"))).1 == Array("ok".utf8))
    }

    @Test func aHeadOfExactly64KiBIsAcceptedOneByteMoreIsNot() async throws {
        let under = try Self.server(Self.head(size: 64 * 1024))
        defer { under.shutdown() }
        #expect(try await fetch(POSIXTransport(), testRequest(under.url("/head"))).0.status == .ok)

        let over = try Self.server(Self.head(size: 64 * 1024 + 1))
        defer { over.shutdown() }
        let error = await expectClientError(.protocolViolation) {
            _ = try await fetch(POSIXTransport(), testRequest(over.url("/head")))
        }
        #expect(error?.message == "response head exceeds 65536 bytes")
    }

    @Test func aRaisedHeadLimitReachesTheParser() async throws {
        let server = try Self.server(Self.head(size: 64 * 1024 + 1))
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(responseLimits: HTTP1Limits(maxHeadBytes: 128 * 1024)))
        #expect(try await fetch(transport, testRequest(server.url("/head"))).0.status == .ok)
        let small = try Self.server(Self.head(size: 2048))
        defer { small.shutdown() }
        let strict = POSIXTransport(configuration: .init(responseLimits: HTTP1Limits(maxHeadBytes: 2047)))
        let error = await expectClientError(.protocolViolation) {
            _ = try await fetch(strict, testRequest(small.url("/head")))
        }
        #expect(error?.message == "response head exceeds 2047 bytes")
    }

    @Test func aHundredHeaderFieldsAreAcceptedTheHundredAndFirstFails() async throws {
        func response(fields: Int) -> String {
            (0..<fields - 1).reduce("HTTP/1.1 200 OK\r\n") { $0 + "X-\($1): v\r\n" } + "Content-Length: 0\r\n\r\n"
        }
        let under = try Self.server(response(fields: 100))
        defer { under.shutdown() }
        #expect(try await fetch(POSIXTransport(), testRequest(under.url("/fields"))).0.headerFields.count == 100)
        let over = try Self.server(response(fields: 101))
        defer { over.shutdown() }
        let error = await expectClientError(.protocolViolation) {
            _ = try await fetch(POSIXTransport(), testRequest(over.url("/fields")))
        }
        #expect(error?.message == "more than 100 header fields")
    }

    @Test func aChunkSizeOfSeventeenDigitsFailsFromTheBody() async throws {
        let server = try Self.server(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000002\r\nok\r\n0\r\n\r\n")
        defer { server.shutdown() }
        let error = await expectClientError(.protocolViolation) {
            _ = try await fetch(POSIXTransport(), testRequest(server.url("/chunk")))
        }
        #expect(error?.message == "chunk size longer than 16 hex digits")
    }

    // MARK: CONNECT answers

    static func tunnel(through proxy: LoopbackServer) -> POSIXTransport {
        let route = ProxyRoute.http(host: "127.0.0.1", port: proxy.port)
        return POSIXTransport(configuration: .init(proxyResolver: ScriptedProxyResolver { _ in [route] }))
    }

    static let origin = URL(string: "https://origin.example:8443/")!

    @Test func aProxyChallengeBodyOf64KiBIsKeptALargerOneIsDropped() async throws {
        for (size, kept) in [(64 * 1024, true), (64 * 1024 + 1, false)] {
            let body = [UInt8](repeating: UInt8(ascii: "b"), count: size)
            let proxy = try LoopbackServer { _ in
                .status(407, headers: [("Proxy-Authenticate", "Basic realm=\"p\"")], body: body)
            }
            defer { proxy.shutdown() }
            let (response, received) = try await fetch(Self.tunnel(through: proxy), testRequest(Self.origin))
            #expect(response.status == .proxyAuthenticationRequired)
            #expect(received == (kept ? body : []), "\(size) bytes")
        }
    }

    @Test func aCONNECTAnswerHasTheSameInterimLimit() async throws {
        let proxy = try Self.server(String(repeating: Self.interim, count: 101) + "HTTP/1.1 200 OK\r\n\r\n")
        defer { proxy.shutdown() }
        let error = await expectClientError(.protocolViolation) {
            _ = try await fetch(Self.tunnel(through: proxy), testRequest(Self.origin))
        }
        #expect(error?.message == "more than 100 interim (1xx) responses")
    }
}
