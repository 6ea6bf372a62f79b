import Synchronization

/// A response body that arrives in chunks. It can be read once.
///
/// Read it with `for try await chunk in body`, collect it with ``collect(upTo:)``, or give it up with
/// ``discard()`` so the transport can reuse or close the connection. A transport produces it from a
/// ``ResponseBodySource``; the pipeline wraps sources to count progress or decode content.
public struct ResponseBody: AsyncSequence, Sendable {
    /// One chunk of bytes.
    public typealias Element = [UInt8]
    /// Reading fails with ``ClientError`` when the connection breaks or the peer lies about the length.
    public typealias Failure = any Error

    /// The length the server announced (`Content-Length`), or `nil` when unknown.
    public var expectedLength: Int64? { length == Self.unknownLength ? nil : length }
    /// The announced length, ``unknownLength`` for none: without an optional's extra byte, the body is as large as
    /// it was before it could hold bytes (every async frame that keeps a response keeps one).
    private let length: Int64
    private static var unknownLength: Int64 { .min }
    /// The bytes themselves, or where the chunks come from.
    private let storage: Storage

    /// A body in memory is held as it is, with no source object: a small response that came whole with its head
    /// costs no allocation for its body beyond its bytes.
    fileprivate enum Storage: Sendable {
        case bytes([UInt8])
        case source(any ResponseBodySource)
    }

    /// Where the chunks come from.
    ///
    /// For a body made from bytes in memory (``init(bytes:)``), each read of this property makes a new source over
    /// them: read the body through one source, as the body itself may be read only once.
    public var source: any ResponseBodySource {
        switch storage {
        case .bytes(let bytes): BufferedBodySource(bytes.isEmpty ? [] : [bytes])
        case .source(let source): source
        }
    }

    /// Creates a body over a source.
    /// - Parameters:
    ///   - expectedLength: The announced length, if any.
    ///   - source: Produces the chunks.
    public init(expectedLength: Int64?, source: any ResponseBodySource) {
        length = expectedLength ?? Self.unknownLength
        storage = .source(source)
    }

    /// A body over bytes already in memory.
    /// - Parameter bytes: The whole body.
    public init(bytes: [UInt8]) {
        self.init(bytes: bytes, expectedLength: Int64(bytes.count))
    }

    /// A body over bytes already in memory whose length was not announced (a chunked or close-delimited body that
    /// a transport read whole with its head) or was announced as it is.
    /// - Parameters:
    ///   - bytes: The whole body.
    ///   - expectedLength: The announced length, if any.
    public init(bytes: [UInt8], expectedLength: Int64?) {
        length = expectedLength ?? Self.unknownLength
        storage = .bytes(bytes)
    }

    /// An empty body.
    public static var empty: ResponseBody { ResponseBody(bytes: []) }

    /// Makes the iterator; a body has only one.
    /// - Returns: An iterator over the chunks.
    public func makeAsyncIterator() -> Iterator { Iterator(storage: storage) }

    /// Reads the whole body into memory.
    /// - Parameter maxBytes: The most bytes accepted.
    /// - Returns: The body.
    /// - Throws: ``ClientError`` with ``ClientError/Code/protocolViolation`` when the body is longer than
    ///   `maxBytes`, or whatever reading throws.
    public func collect(upTo maxBytes: Int) async throws -> [UInt8] {
        if case .bytes = storage { return try held(upTo: maxBytes) }
        return try await collectFromSource(upTo: maxBytes)
    }

    /// Reads a body that comes from a source; its own async step, so a body held in memory allocates no frame
    /// for the loop.
    @inline(never)
    private func collectFromSource(upTo maxBytes: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let expectedLength, expectedLength <= maxBytes { bytes.reserveCapacity(Int(expectedLength)) }
        for try await chunk in self {
            guard bytes.count + chunk.count <= maxBytes else {
                await discard()
                throw ClientError(.protocolViolation, message: "Response body is larger than \(maxBytes) bytes")
            }
            if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
        }
        return bytes
    }

    /// The bytes of a body held in memory; synchronous and out of line, so its temporaries stay out of the async
    /// frame of ``collect(upTo:)``.
    @inline(never)
    private func held(upTo maxBytes: Int) throws -> [UInt8] {
        guard case .bytes(let bytes) = storage else { return [] }
        guard bytes.count <= maxBytes else {
            throw ClientError(.protocolViolation, message: "Response body is larger than \(maxBytes) bytes")
        }
        return bytes
    }

    /// Gives up the rest of the body; the transport drains or closes the connection. A body held in memory
    /// (``init(bytes:expectedLength:)``) has nothing to give up.
    public func discard() async {
        if case .source(let source) = storage { await source.discard() }
    }

    /// The trailer fields that followed the body (an HTTP/1.1 chunked body's trailer section, an HTTP/2 `HEADERS`
    /// frame after the `DATA`), once the body has been read to its end; `nil` before that, when there were none,
    /// and for a body whose source does not deliver them (a cached body, a discarded one).
    ///
    /// Delivered also when the response has a `Content-Length` (HTTP/2 allows that; curl 7.88 drops them there).
    /// Trailers are not merged into the header fields: a field that matters only after the body (a checksum, a
    /// gRPC status) stays apart from those the pipeline acted on.
    public var trailers: HTTPFields? {
        if case .source(let source) = storage { return source.trailers }
        return nil
    }

    /// Iterates the chunks.
    public struct Iterator: AsyncIteratorProtocol {
        /// The source, or the bytes of a body in memory until they are returned (then none).
        fileprivate var storage: Storage

        /// Returns the next chunk, or `nil` at the end.
        /// - Returns: The next chunk.
        /// - Throws: ``ClientError`` when the body cannot be read completely.
        public mutating func next() async throws -> [UInt8]? {
            if case .source(let source) = storage { return try await source.next() }
            return takeBytes()
        }

        /// The bytes of a body in memory the first time, then `nil`.
        @inline(never)
        private mutating func takeBytes() -> [UInt8]? {
            guard case .bytes(let bytes) = storage, !bytes.isEmpty else { return nil }
            storage = .bytes([])
            return bytes
        }
    }
}

/// Produces a response body's chunks. Transports implement it; the pipeline wraps it.
///
/// ## Implementation requirements
/// - ``next()`` is called by one consumer at a time and returns `nil` exactly when the body is complete. A body
///   shorter than announced, a malformed chunk or a dropped connection throws ``ClientError``; it is never
///   reported as a normal end.
/// - ``discard()`` may be called at any time, also after the end; it must free the connection (drain it for
///   reuse, or close it) and make later ``next()`` calls return `nil`.
/// - Honour task cancellation in ``next()``.
/// - ``trailers`` answers the trailer fields once ``next()`` has returned `nil`, and `nil` before that or when there
///   were none. A source that wraps another (decoding, progress, caching) answers its base's; the default is `nil`.
public protocol ResponseBodySource: Sendable {
    /// Returns the next chunk, or `nil` when the body is complete.
    /// - Returns: The next chunk.
    /// - Throws: ``ClientError`` when the body cannot be read completely.
    func next() async throws -> [UInt8]?
    /// Gives up the rest of the body.
    func discard() async
    /// The trailer fields that followed the body, once ``next()`` has returned `nil`; `nil` otherwise.
    var trailers: HTTPFields? { get }
}

extension ResponseBodySource {
    /// No trailers: the default for sources that carry none.
    public var trailers: HTTPFields? { nil }
}

/// A source over chunks already in memory.
public final class BufferedBodySource: ResponseBodySource {
    // The chunks and the next one's index, in the source itself: one allocation per body, not two.
    private let state: Mutex<(chunks: [[UInt8]], index: Int)>
    private let trailerFields: HTTPFields?

    /// Creates the source.
    /// - Parameters:
    ///   - chunks: The chunks, in order.
    ///   - trailers: The trailer fields that followed them, if any; delivered once the last chunk has been read.
    public init(_ chunks: [[UInt8]], trailers: HTTPFields? = nil) {
        self.state = Mutex((chunks, 0))
        self.trailerFields = trailers
    }

    /// The trailer fields given at creation, once no chunk is left to read; `nil` before that.
    public var trailers: HTTPFields? {
        guard let trailerFields else { return nil }
        return state.withLock { $0.index >= $0.chunks.count } ? trailerFields : nil
    }

    /// Returns the next chunk.
    /// - Returns: The next chunk, or `nil` at the end.
    public func next() async throws -> [UInt8]? { pop() }

    /// Drops the remaining chunks.
    public func discard() async {
        state.withLock { state in
            state.chunks = []
            state.index = 0
        }
    }

    private func pop() -> [UInt8]? {
        state.withLock { state in
            guard state.index < state.chunks.count else { return nil }
            defer { state.index += 1 }
            return state.chunks[state.index]
        }
    }
}
