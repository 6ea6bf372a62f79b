#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of a request: bytes in memory, a file streamed from disk, or a caller's asynchronous stream.
///
/// A body knows its length when it can (the transport then sends `Content-Length`; otherwise it uses chunked
/// transfer encoding) and whether it can be sent again, which redirects (307/308), authentication retries and
/// timeout retries need. Memory and file bodies are replayable; a stream body is replayable only when its
/// factory can make a fresh stream each time.
public struct RequestBody: Sendable {
    /// Where the bytes come from. Transports may switch on this to send files without copying.
    public enum Content: Sendable {
        /// Bytes held in memory.
        case bytes([UInt8])
        /// The whole file at `path`, whose size was `length` when the body was made.
        case file(path: String, length: Int64)
        /// A stream made by a factory each time the body is sent.
        case stream(@Sendable () -> Chunks)
    }

    /// Where the bytes come from.
    public let content: Content
    /// The number of bytes, or `nil` when unknown (sent with chunked transfer encoding).
    public let length: Int64?
    /// Whether the body can be sent more than once.
    public let isReplayable: Bool

    /// The size of the pieces a file body is read in.
    public static let fileChunkSize = 256 * 1024

    /// A body made of bytes in memory.
    /// - Parameter bytes: The bytes to send.
    /// - Returns: A replayable body of known length.
    public static func bytes(_ bytes: some Sequence<UInt8>) -> RequestBody {
        let array = Array(bytes)
        return RequestBody(content: .bytes(array), length: Int64(array.count), isReplayable: true)
    }

    /// A body made of a string's UTF-8 bytes.
    /// - Parameter string: The text to send.
    /// - Returns: A replayable body of known length.
    public static func string(_ string: String) -> RequestBody {
        .bytes(Array(string.utf8))
    }

    /// A body streamed from a file in constant memory (ASIHTTPRequest's `postBodyFilePath`).
    ///
    /// The file's size is read now and sent as `Content-Length`; the file must not change size before it is sent.
    /// - Parameter path: The file to send.
    /// - Returns: A replayable body of known length.
    /// - Throws: ``ClientError`` with code ``ClientError/Code/storageFailed`` when the file cannot be read or is a
    ///   directory.
    public static func file(atPath path: String) throws -> RequestBody {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ClientError(.storageFailed, message: "No file exists at \(path)", underlying: SyscallError.last("stat"))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ClientError(.storageFailed, message: "Not a regular file: \(path)")
        }
        return RequestBody(content: .file(path: path, length: Int64(info.st_size)), length: Int64(info.st_size),
                           isReplayable: true)
    }

    /// A body produced by an asynchronous stream.
    /// - Parameters:
    ///   - length: The exact number of bytes the stream yields, or `nil` to send chunked.
    ///   - isReplayable: Whether `makeStream` returns a fresh, complete stream on every call.
    ///   - makeStream: Makes the stream of chunks to send.
    /// - Returns: A body that pulls from the stream while sending.
    public static func stream(
        length: Int64?,
        isReplayable: Bool = false,
        _ makeStream: @escaping @Sendable () -> Chunks
    ) -> RequestBody {
        RequestBody(content: .stream(makeStream), length: length, isReplayable: isReplayable)
    }

    /// Makes a fresh stream over the body's bytes.
    /// - Returns: The chunks of the body, in order.
    public func makeChunks() -> Chunks {
        switch content {
        case .bytes(let bytes):
            return Chunks(bytes.isEmpty ? [] : [bytes])
        case .file(let path, let length):
            return Chunks(FileChunkReader(path: path, length: length, chunkSize: Self.fileChunkSize))
        case .stream(let make):
            return make()
        }
    }
}

extension RequestBody {
    /// An asynchronous sequence of byte chunks, the shape every body is sent in.
    public struct Chunks: AsyncSequence, Sendable {
        /// One chunk of bytes.
        public typealias Element = [UInt8]
        /// Reading may fail, for example when a file disappears mid-upload.
        public typealias Failure = any Error

        private let next: @Sendable () async throws -> [UInt8]?

        /// Wraps a "next chunk" function; `nil` ends the sequence.
        /// - Parameter next: Returns the next chunk, or `nil` at the end. Called by one consumer at a time.
        public init(next: @escaping @Sendable () async throws -> [UInt8]?) {
            self.next = next
        }

        /// A sequence over chunks already in memory.
        /// - Parameter chunks: The chunks, in order.
        public init(_ chunks: [[UInt8]]) {
            let box = ChunkList(chunks)
            self.next = { box.pop() }
        }

        init(_ reader: FileChunkReader) {
            self.next = { try reader.read() }
        }

        /// Makes the iterator.
        /// - Returns: An iterator that pulls chunks in order.
        public func makeAsyncIterator() -> Iterator { Iterator(next: next) }

        /// Iterates the chunks.
        public struct Iterator: AsyncIteratorProtocol {
            let next: @Sendable () async throws -> [UInt8]?

            /// Returns the next chunk, or `nil` at the end.
            /// - Returns: The next chunk.
            /// - Throws: Whatever the source throws.
            public mutating func next() async throws -> [UInt8]? { try await next() }
        }
    }
}
