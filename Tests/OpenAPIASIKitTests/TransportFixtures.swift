import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import HTTPTypes
import OpenAPIASIKit
import OpenAPIRuntime
import SocketTransport
import Synchronization

/// Helpers shared by the transport tests.
enum Fixture {
    /// A transport on a fresh client over the POSIX transport.
    static func transport() -> (ASIKitTransport, Client) {
        let client = Client(transport: POSIXTransport())
        return (ASIKitTransport(client: client), client)
    }

    /// A request for `path` with `method`, as a generated client makes it.
    static func request(_ method: HTTPRequest.Method, _ path: String, fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: method, scheme: nil, authority: nil, path: path, headerFields: fields)
    }

    /// A request body of `chunks` with `behavior`, counting how often it was iterated.
    static func body(_ chunks: [String], behavior: IterationBehavior, iterations: IterationCounter) -> HTTPBody {
        let length = Int64(chunks.joined().utf8.count)
        return HTTPBody(
            CountedChunks(chunks: chunks.map { Array($0.utf8) }, iterations: iterations), length: .known(length),
            iterationBehavior: behavior)
    }

    /// The whole body as text.
    static func text(_ body: HTTPBody?) async throws -> String {
        guard let body else { return "" }
        return try await String(collecting: body, upTo: 64 << 20)
    }
}

/// Counts how many iterators a body made.
final class IterationCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

/// Chunks that count how many iterators were made.
struct CountedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let chunks: [[UInt8]]
    let iterations: IterationCounter

    func makeAsyncIterator() -> Iterator {
        iterations.increment()
        return Iterator(chunks: chunks[...])
    }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: ArraySlice<[UInt8]>
        mutating func next() async throws -> ArraySlice<UInt8>? { chunks.popFirst()?[...] }
    }
}
