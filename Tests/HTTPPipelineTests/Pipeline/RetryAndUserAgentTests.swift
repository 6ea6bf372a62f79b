import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

@Suite struct RetryTests {
    /// Times out the first `failures` requests, then answers.
    static func flaky(failures: Int) -> ScriptedTransport {
        let count = Atomic<Int>(0)
        return ScriptedTransport { _, _ in
            if count.add(1, ordering: .relaxed).newValue <= failures {
                throw ClientError(.timedOut, message: "scripted timeout")
            }
            return .text("ok")
        }
    }

    @Test(arguments: [(0, 0), (1, 3), (3, 3), (5, 5)])
    func retriesUpToTheLimit(failures: Int, retries: Int) async throws {
        var request = Request("http://a.example/")
        request.options.retriesOnTimeout = retries
        let response = try await Client(transport: Self.flaky(failures: failures)).send(request)
        #expect(response.info.retryCount == failures)
    }

    @Test(arguments: [0, 1, 5])
    func failsWithTimeoutWhenRetriesRunOut(retries: Int) async throws {
        let transport = Self.flaky(failures: .max)
        var request = Request("http://a.example/")
        request.options.retriesOnTimeout = retries
        let error = await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(error?.code == .timedOut)
        #expect(error?.stage == .transport)
        #expect(transport.requests.count == retries + 1)
    }

    @Test func otherErrorsAreNotRetried() async throws {
        let transport = ScriptedTransport.failing(.connectFailed)
        var request = Request("http://a.example/")
        request.options.retriesOnTimeout = 3
        await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(transport.requests.count == 1)
    }

    @Test func bodyTimeoutIsRetriedToo() async throws {
        let attempts = Atomic<Int>(0)
        let transport = ScriptedTransport { _, _ in
            let attempt = attempts.add(1, ordering: .relaxed).newValue
            let source = StallingBodySource(failsWithTimeout: attempt == 1)
            return Response(status: .ok, body: ResponseBody(expectedLength: 2, source: source))
        }
        var request = Request("http://a.example/")
        request.options.retriesOnTimeout = 1
        let response = try await Client(transport: transport).send(request)
        #expect(response.body == [1, 2])
        #expect(response.info.retryCount == 1)
    }

    /// One loop counts head and body timeouts together and resends the hop it had reached, not the original URL.
    @Test func headAndBodyTimeoutsShareOneBudgetAndResendTheRedirectedHop() async throws {
        let finalAttempts = Atomic<Int>(0)
        let transport = ScriptedTransport { request, _ in
            if request.url.path() == "/old" { return Response.redirect(302, to: "/new") }
            switch finalAttempts.add(1, ordering: .relaxed).newValue {
            case 1: throw ClientError(.timedOut, message: "no head")
            case 2:
                return Response(status: .ok, body: ResponseBody(expectedLength: 2,
                                                                source: StallingBodySource(failsWithTimeout: true)))
            default:
                return Response(status: .ok, body: ResponseBody(expectedLength: 2,
                                                                source: StallingBodySource(failsWithTimeout: false)))
            }
        }
        var request = Request("http://a.example/old")
        request.options.retriesOnTimeout = 2
        let response = try await Client(transport: transport).send(request)
        #expect(response.body == [1, 2])
        #expect(response.info.retryCount == 2)
        #expect(transport.requests.map { $0.url.path() } == ["/old", "/new", "/new", "/new"])

        finalAttempts.store(0, ordering: .relaxed)
        request.options.retriesOnTimeout = 1
        let error = await #expect(throws: ClientError.self) { try await Client(transport: transport).send(request) }
        #expect(error?.code == .timedOut)
    }
}

/// Yields one chunk, then either times out or yields the second.
final class StallingBodySource: ResponseBodySource {
    private let failsWithTimeout: Bool
    private let step = Atomic<Int>(0)
    init(failsWithTimeout: Bool) { self.failsWithTimeout = failsWithTimeout }
    func next() async throws -> [UInt8]? {
        switch step.add(1, ordering: .relaxed).newValue {
        case 1: return [1]
        case 2:
            if failsWithTimeout { throw ClientError(.timedOut, message: "stalled") }
            return [2]
        default: return nil
        }
    }
    func discard() async {}
}

@Suite struct UserAgentTests {
    static let echo = ScriptedTransport { request, _ in .text(request.headerFields[.userAgent] ?? "none") }

    @Test func defaultNamesTheFrameworkAndLinux() async throws {
        let agent = try await Client(transport: Self.echo).send(Request("http://a.example/")).text()
        #expect(agent.hasSuffix(" ASIKit/\(Client.frameworkVersion)"), "the one version constant: \(agent)")
        #expect(agent.contains("Linux"))
    }

    @Test func precedenceHeaderThenRequestThenClient() async throws {
        let client = Client(transport: Self.echo, configuration: Client.Configuration(userAgent: "client/1"))
        var request = Request("http://a.example/")
        #expect(try await client.send(request).text() == "client/1")
        request.options.userAgent = "request/2"
        #expect(try await client.send(request).text() == "request/2")
        request.headerFields[.userAgent] = "header/3"
        #expect(try await client.send(request).text() == "header/3")
    }

    @Test func keptAcrossRedirects() async throws {
        let transport = ScriptedTransport { request, _ in
            request.url.path() == "/r" ? .redirect(303, to: "http://b.example/") : .text(request.headerFields[.userAgent] ?? "")
        }
        var request = Request("http://a.example/r")
        request.options.userAgent = "mine"
        #expect(try await Client(transport: transport).send(request).text() == "mine")
    }
}
