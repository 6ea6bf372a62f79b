import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import HTTPTypes
import OpenAPIASIKit
import OpenAPIRuntime
import TestSupport
import Testing

/// Cancelling the calling task reaches the transport at each point of an exchange (swift-openapi-urlsession's
/// `TaskCancellationTests` points), over real sockets.
@Suite("ASIKitTransport cancellation")
struct TransportCancellationTests {
    static let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n".utf8)

    /// A server that answers `/partial` with a head and the first 1,000 of 100,000 bytes, then stalls; `/stall`
    /// with nothing; anything else with the whole body.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/stall": LoopbackResponse(actions: [.stall])
            case "/partial":
                LoopbackResponse(actions: [.write(Self.head), .body(Array(repeating: 7, count: 1000)), .stall])
            default: .ok(bytes: Array(repeating: 7, count: 100_000))
            }
        }
    }

    static func send(_ transport: ASIKitTransport, _ path: String, to server: LoopbackServer, body: HTTPBody? = nil)
        async throws -> (HTTPResponse, HTTPBody?)
    {
        try await transport.send(
            HTTPRequest(method: body == nil ? .get : .post, scheme: nil, authority: nil, path: path), body: body,
            baseURL: server.baseURL, operationID: "cancel")
    }

    @Test func beforeSendingTheHead() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Self.send(transport, "/full", to: server)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try await client.shutdown()
    }

    @Test func whileWaitingForTheHead() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let task = Task { try await Self.send(transport, "/stall", to: server) }
        #expect(await eventually { server.requests.count == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await client.shutdown()
    }

    @Test func partwayThroughSendingTheRequestBody() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let pulls = IterationCounter()
        let body = HTTPBody(
            GatedChunks(pulls: pulls), length: .known(2_000_000), iterationBehavior: .single)
        let task = Task { try await Self.send(transport, "/upload", to: server, body: body) }
        #expect(await eventually { pulls.value >= 2 })  // the first chunk went out; the second is awaited
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await client.shutdown()
    }

    @Test func beforeConsumingTheResponseBody() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let (response, body) = try await Self.send(transport, "/partial", to: server)
        #expect(response.status == .ok)
        let reader = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Array(collecting: try #require(body), upTo: 1 << 20)
        }
        await #expect(throws: CancellationError.self) { try await reader.value }
        try await client.shutdown()
    }

    @Test func partwayThroughConsumingTheResponseBody() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let (_, body) = try await Self.send(transport, "/partial", to: server)
        let body1 = try #require(body)
        let firstChunk = Locked(0)
        let reader = Task {
            for try await chunk in body1 {
                firstChunk.withLock { $0 += chunk.count }
            }
        }
        #expect(await eventually { firstChunk.withLock { $0 } == 1000 })
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        try await client.shutdown()
    }

    @Test func afterConsumingTheResponseBody() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let task = Task {
            let (_, body) = try await Self.send(transport, "/full", to: server)
            let bytes = try await Array(collecting: try #require(body), upTo: 1 << 20)
            withUnsafeCurrentTask { $0?.cancel() }
            return bytes.count
        }
        #expect(try await task.value == 100_000)
        try await client.shutdown()
    }
}

/// A request body whose first chunk comes at once and whose second never comes (until the task is cancelled).
struct GatedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let pulls: IterationCounter

    func makeAsyncIterator() -> Iterator { Iterator(pulls: pulls) }

    struct Iterator: AsyncIteratorProtocol {
        let pulls: IterationCounter

        mutating func next() async throws -> ArraySlice<UInt8>? {
            pulls.increment()
            if pulls.value == 1 { return Array(repeating: 1, count: 1000)[...] }
            try await Task.sleep(for: .seconds(3600))
            return nil
        }
    }
}
