import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import Testing
import WebPageArchiving

/// Faults only the loopback server can inject: a resource that never answers, and a reset.
struct WebPageArchiverLoopbackTests {
    static let page = #"<img src="/reset.png"><img src="/stall.png"><img src="/ok.png">"#

    @Test func cancellingTheTaskStopsTheArchiveWithCancellationError() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/": .ok(bytes: Array(Self.page.utf8), contentType: "text/html")
            case "/stall.png": .stall
            case "/reset.png": .resetWithoutResponse
            default: .ok(bytes: [1, 2, 3], contentType: "image/png")
            }
        }
        defer { server.shutdown() }
        let client = Client(transport: POSIXTransport())
        defer { Task { try? await client.shutdown() } }
        let archiver = WebPageArchiver(client: client, configuration: try .init(maxConcurrentRequests: 1))
        let task = Task { try await archiver.archive(server.url("/"), mode: .dataURIs) }
        // Wait by signal: the stalled request has reached the server (the reset one came before it).
        let deadline = ContinuousClock.now + .seconds(600)  // generous: with four builds beside the suite it once took 266 s
        while !server.requests.contains(where: { $0.path == "/stall.png" }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.requests.contains { $0.path == "/stall.png" })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!server.requests.contains { $0.path == "/ok.png" }, "nothing is sent after the cancel")
    }

    @Test func aResetResourceIsRecordedAndTheRestIsSaved() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/": .ok(bytes: Array(#"<img src="/reset.png"><img src="/ok.png">"#.utf8), contentType: "text/html")
            case "/reset.png": .resetWithoutResponse
            default: .ok(bytes: [1, 2, 3], contentType: "image/png")
            }
        }
        defer { server.shutdown() }
        let client = Client(transport: POSIXTransport())
        defer { Task { try? await client.shutdown() } }
        let page = try await WebPageArchiver(client: client).archive(server.url("/"), mode: .dataURIs)
        #expect(page.resources.count == 2)
        guard case .failed = page.resources[0].outcome else {
            Issue.record("the reset resource is \(page.resources[0].outcome)")
            return
        }
        #expect(page.resources[1].outcome == .saved)
        #expect(String(decoding: page.bytes, as: UTF8.self).contains("data:image/png;base64,AQID"))
        #expect(String(decoding: page.bytes, as: UTF8.self).contains(server.url("/reset.png").absoluteString))
    }
}
