import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@testable import HTTPAuthentication

/// The cap on challenges one negotiation goes on from within a request (`Docs/Limits.md`): a Digest server that
/// answers every request with `stale=true` and a new nonce stops the request after four such answers.
@Suite struct NegotiationStepLimitTests {
    /// Answers 401 without `Authorization`, `stale=true` with a fresh nonce to the first `staleAnswers` answered
    /// requests, and 200 after that.
    static func staleServer(staleAnswers: Int) -> ScriptedTransport {
        let answered = Mutex(0)
        return ScriptedTransport { request, _ in
            let authorized = request.headerFields[.authorization] != nil
            let count = answered.withLock { state -> Int in
                if authorized { state += 1 }
                return state
            }
            if authorized && count > staleAnswers { return .text("welcome") }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Digest realm=\"api\", qop=\"auth\", nonce=\"n\(count)\""
                + (authorized ? ", stale=true" : "")
            return .text("denied", status: 401, headerFields: fields)
        }
    }

    static func send(to transport: ScriptedTransport) async throws -> ClientResponse {
        let client = Client(transport: transport, authenticators: [DigestAuthenticator()])
        var request = Request(url: URL(string: "http://a.example/")!)
        request.options.credential = Credential(user: "u", password: "p")
        return try await client.send(request)
    }

    @Test func fourStaleAnswersInARowAreFollowed() async throws {
        let transport = Self.staleServer(staleAnswers: 4)
        #expect(try await Self.send(to: transport).text() == "welcome")
        #expect(transport.requests.count == 6)  // unauthenticated, then five answers: four stale, one accepted
    }

    @Test func theFifthStaleAnswerFailsTheRequest() async throws {
        let transport = Self.staleServer(staleAnswers: 5)
        let error = try await #require(throws: ClientError.self) { _ = try await Self.send(to: transport) }
        #expect(error.code == .authenticationFailed)
        #expect(error.stage == .credentials)
        #expect(error.message.contains("more than 4 challenges"))
        #expect(transport.requests.count == 6)
    }

    /// The cap counts challenges in a row: each accepted hop ends the row. Six same-origin redirects whose every
    /// hop refuses the nonce once (a server with single-use nonces) spend one step each and still succeed.
    @Test func anAcceptedHopEndsTheRow() async throws {
        let used = Mutex(Set<String>())
        let issued = Mutex(0)
        let transport = ScriptedTransport { request, _ in
            let hop = Int(request.url.path.dropFirst(2)) ?? 1
            func challenge(stale: Bool) -> Response {
                let nonce = issued.withLock { count -> Int in
                    count += 1
                    return count
                }
                var fields = HTTPFields()
                fields[.wwwAuthenticate] = "Digest realm=\"api\", qop=\"auth\", nonce=\"n\(nonce)\""
                    + (stale ? ", stale=true" : "")
                return .text("denied", status: 401, headerFields: fields)
            }
            let parts = request.headerFields[.authorization]?.split(separator: "\"", omittingEmptySubsequences: false)
            guard let parts, let at = parts.firstIndex(where: { $0.hasSuffix("nonce=") && !$0.hasSuffix("cnonce=") }),
                at + 1 < parts.count
            else { return challenge(stale: false) }
            let fresh = used.withLock { $0.insert(String(parts[at + 1])).inserted }
            guard fresh else { return challenge(stale: true) }
            guard hop < 7 else { return .text("welcome") }
            var fields = HTTPFields()
            fields[.location] = "/h\(hop + 1)"
            return .text("", status: 302, headerFields: fields)
        }
        let client = Client(transport: transport, authenticators: [DigestAuthenticator()])
        var request = Request(url: URL(string: "http://a.example/h1")!)
        request.options.credential = Credential(user: "u", password: "p")
        request.options.maxRedirects = 10
        #expect(try await client.send(request).text() == "welcome")
        #expect(issued.withLock { $0 } >= 7)  // every hop after the first refused its nonce once
    }

    @Test func aServerThatIsAlwaysStaleCannotLoop() async throws {
        let transport = Self.staleServer(staleAnswers: .max)
        await #expect(throws: ClientError.self) { _ = try await Self.send(to: transport) }
        #expect(transport.requests.count == 6)
    }
}
