import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The client's bandwidth limiter and a request's own limit reach the transport; the client reads the average.
@Suite struct BandwidthPipelineTests {
    /// Records what the transport saw in each context.
    final class SeenContexts: Sendable {
        let contexts = Mutex<[RequestContext]>([])
    }

    @Test func limiterAndRequestLimitReachTheTransport() async throws {
        let seen = SeenContexts()
        let transport = ScriptedTransport { request, context in
            seen.contexts.withLock { $0.append(context) }
            return request.url.path() == "/old" ? .redirect(302, to: "/new") : Response(status: .ok)
        }
        let limiter = RecordingBandwidthLimiter.unlimited
        let client = Client(transport: transport, bandwidth: limiter)
        var request = Request("http://example.com/old")
        request.options.maxBandwidthPerSecond = 14_800
        _ = try await client.send(request)

        let contexts = seen.contexts.withLock { $0 }
        #expect(contexts.count == 2)
        for context in contexts {
            #expect((context.bandwidth as? RecordingBandwidthLimiter) === limiter)
            #expect(context.bandwidthLimit == 14_800)
            #expect(context.bandwidthTransfer(.download)
                == BandwidthTransfer(requestID: context.requestID, direction: .download, limit: 14_800))
        }
        #expect(contexts.first?.requestID == contexts.last?.requestID)
    }

    @Test func withoutALimiterTheContextHasNone() async throws {
        let seen = SeenContexts()
        let transport = ScriptedTransport { _, context in
            seen.contexts.withLock { $0.append(context) }
            return Response(status: .ok)
        }
        let client = Client(transport: transport)
        _ = try await client.send(Request("http://example.com/"))
        let context = try #require(seen.contexts.withLock { $0.first })
        #expect(context.bandwidth == nil)
        #expect(context.bandwidthLimit == nil)
        #expect(client.averageBandwidthPerSecond == 0)
    }

    @Test func clientReportsTheLimitersAverage() {
        let limiter = RecordingBandwidthLimiter.unlimited
        let client = Client(transport: ScriptedTransport.ok, bandwidth: limiter)
        #expect(client.averageBandwidthPerSecond == 0)
        limiter.average = 14_800
        #expect(client.averageBandwidthPerSecond == 14_800)
        #expect(client.plugins.contains { ($0 as? RecordingBandwidthLimiter) === limiter })
    }
}
