import OpenAPIRuntime
import Synchronization

/// Pulls a request body's chunks from an `HTTPBody` iterator for the transport.
///
/// `@unchecked Sendable`: the iterator is used by one consumer at a time, the contract of
/// `RequestBody.Chunks(next:)` (the transport reads the body in one task), so it needs no lock.
final class HTTPBodyIterator: @unchecked Sendable {
    private var iterator: HTTPBody.Iterator

    init(_ iterator: HTTPBody.Iterator) {
        self.iterator = iterator
    }

    /// The next chunk, copied out of the body's slice; `nil` at the end.
    func next() async throws -> [UInt8]? {
        // Skip empty chunks: an empty chunk is not the end of the body.
        while let chunk = try await iterator.next() {
            if !chunk.isEmpty { return Array(chunk) }
        }
        return nil
    }
}

/// Counts how often a request body was opened, so a body that iterates once is opened once only.
final class IterationGuard: Sendable {
    private let allowsMore: Bool
    private let opened = Mutex(false)

    init(allowsMore: Bool) {
        self.allowsMore = allowsMore
    }

    /// Whether the body may be opened now; records that it was.
    func begin() -> Bool {
        opened.withLock { opened in
            defer { opened = true }
            return allowsMore || !opened
        }
    }
}
