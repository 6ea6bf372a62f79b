import HTTPCore

/// A response body as the byte chunks an `HTTPBody` is made of. Each chunk is read from the client's body when
/// the generated client asks for it, so nothing is buffered here.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    typealias Failure = any Error

    let body: ResponseBody

    func makeAsyncIterator() -> Iterator { Iterator(source: body.source) }

    struct Iterator: AsyncIteratorProtocol {
        let source: any ResponseBodySource

        mutating func next() async throws -> ArraySlice<UInt8>? {
            try await source.next().map { $0[...] }
        }
    }
}
