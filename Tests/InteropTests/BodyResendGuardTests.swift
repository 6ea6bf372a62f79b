import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import Synchronization
import TestSupport
import Testing

/// A body that cannot arrive whole is never sent short: a one-time stream that a challenge needs again, and a
/// chunked body for a server that answered with HTTP/1.0, end with `uploadFailed` (real transport, loopback server).
@Suite struct BodyResendGuardTests {
    static let challenge = LoopbackResponse.status(
        401, headers: [("WWW-Authenticate", "Basic realm=\"r\""), ("Content-Length", "0")])

    static func oneTimeBody(_ chunks: [[UInt8]], length: Int64?) -> RequestBody {
        .stream(length: length, isReplayable: false) { RequestBody.Chunks(chunks) }
    }

    static func request(_ url: URL, body: RequestBody) -> Request {
        var request = Request(url: url, method: .put, body: body)
        request.options.credential = Credential(user: "u", password: "p")
        request.options.timeout = generousTimeout
        return request
    }

    @Test func aChallengeForAOneTimeStreamFailsInsteadOfSendingItEmpty() async throws {
        let server = try LoopbackServer { request in
            request.headers.contains { $0.name.lowercased() == "authorization" } ? .ok("stored") : Self.challenge
        }
        defer { server.shutdown() }
        let body = Self.oneTimeBody([Array("first ".utf8), Array("and last".utf8)], length: 14)
        let error = await #expect(throws: ClientError.self) {
            _ = try await Client(transport: .posix()).send(Self.request(server.url("/put"), body: body))
        }
        #expect(error?.code == .uploadFailed, "\(String(describing: error))")
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.body == Array("first and last".utf8))
    }

    @Test func aReplayableStreamIsSentWholeAgainAfterTheChallenge() async throws {
        let server = try LoopbackServer { request in
            request.headers.contains { $0.name.lowercased() == "authorization" } ? .ok("stored") : Self.challenge
        }
        defer { server.shutdown() }
        let body = RequestBody.stream(length: nil, isReplayable: true) { RequestBody.Chunks([Array("again".utf8)]) }
        let response = try await Client(transport: .posix()).send(Self.request(server.url("/put"), body: body))
        #expect(response.status == .ok)
        #expect(server.requests.map(\.body) == [Array("again".utf8), Array("again".utf8)])
    }

    @Test func aChunkedBodyIsNotSentToAServerThatAnsweredWithHTTP10() async throws {
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.0 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"r\"\r\nContent-Length: 0\r\n\r\n")
        }
        defer { server.shutdown() }
        // Replayable, so only the HTTP/1.0 rule can stop the second attempt.
        let body = RequestBody.stream(length: nil, isReplayable: true) { RequestBody.Chunks([Array("data".utf8)]) }
        let request = Self.request(server.url("/put"), body: body)
        let error = await #expect(throws: ClientError.self) {
            _ = try await Client(transport: .posix()).send(request)
        }
        #expect(error?.code == .uploadFailed, "\(String(describing: error))")
        #expect(error?.message.contains("HTTP/1.0") == true)
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.body == Array("data".utf8))
        #expect(server.requests.first?.bodyWasChunked == true)
    }
}
