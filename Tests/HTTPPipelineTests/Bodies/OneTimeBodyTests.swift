import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// A body that can be sent once (a non-replayable stream, such as an OpenAPI `HTTPBody` that iterates once) is
/// never sent again: not to answer a challenge, not after a timeout (decision 0018), as a 307 already refused.
@Suite struct OneTimeBodyTests {
    static func oneTimeRequest(opened: OpenCounter) -> Request {
        var request = Request("http://a.example/upload")
        request.method = .put
        request.body = .stream(length: 3) {
            opened.increment()
            return RequestBody.Chunks([[1, 2, 3]])
        }
        request.options.credential = Credential(user: "alice", password: "wonderland")
        return request
    }

    @Test func aChallengeIsNotAnsweredByResendingAOneTimeBody() async throws {
        let opened = OpenCounter()
        let transport = ScriptedTransport { request, _ in
            if let body = request.body { for try await _ in body.makeChunks() {} }
            guard request.headerFields[.authorization] == nil else { return .text("welcome") }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"r\""
            return .text("denied", status: 401, headerFields: fields)
        }
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: transport).send(Self.oneTimeRequest(opened: opened))
        }
        #expect(error?.code == .uploadFailed)
        #expect(error?.message.contains("one-time stream") == true)
        #expect(transport.requests.count == 1)
        #expect(opened.value == 1)
    }

    @Test func aReplayableBodyAnswersTheChallenge() async throws {
        let transport = ScriptedTransport { request, _ in
            guard request.headerFields[.authorization] == nil else { return .text("welcome") }
            var fields = HTTPFields()
            fields[.wwwAuthenticate] = "Basic realm=\"r\""
            return .text("denied", status: 401, headerFields: fields)
        }
        var request = Self.oneTimeRequest(opened: OpenCounter())
        request.body = .bytes([1, 2, 3])
        #expect(try await Client(transport: transport).send(request).text() == "welcome")
        #expect(transport.requests.count == 2)
    }

    @Test func aTimeoutIsNotRetriedWithAOneTimeBody() async throws {
        let opened = OpenCounter()
        let transport = ScriptedTransport { _, _ in throw ClientError(.timedOut, message: "scripted timeout") }
        var request = Self.oneTimeRequest(opened: opened)
        request.options.retriesOnTimeout = 2
        let error = await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(error?.code == .timedOut)
        #expect(transport.requests.count == 1)
    }
}

/// Counts calls from any task.
final class OpenCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
