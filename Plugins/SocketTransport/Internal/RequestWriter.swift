#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// Sends a request head and body on a connection, in constant memory, reporting upload progress and asking the
/// bandwidth limiter before each body write.
///
/// With a limiter, a file is read in pieces no larger than the grant, just before they are sent; a stream's next
/// chunk is pulled only once the previous one was sent, so the source is read no faster than the limit allows (at
/// most one chunk is held). Each write is settled with the bytes that went out.
struct RequestWriter {
    /// Pieces of a body are written (and reported) this big at most.
    static let pieceSize = 64 * 1024

    let plan: ExchangePlan
    let connection: Connection
    let context: RequestContext
    private let meter: BandwidthMeter?
    private var progress: ProgressCounter

    init(plan: ExchangePlan, connection: Connection, context: RequestContext) {
        self.plan = plan
        self.connection = connection
        self.context = context
        meter = BandwidthMeter(context, direction: .upload)
        progress = ProgressCounter(context: context, direction: .upload, expected: plan.request.body?.length)
    }

    /// Writes the whole request of `plan` on `connection`: the head, then the body. The writer lives in the frame of
    /// ``writeWithBody(_:head:on:context:)``, which a request without a body never allocates, and which ends with the
    /// write, not in the frame of the exchange that goes on to wait for the response.
    /// - Throws: ``ClientError`` (`sendFailed`, `timedOut`, `storageFailed`, `invalidRequest`) or
    ///   `CancellationError`.
    static func write(_ plan: ExchangePlan, on connection: Connection, context: RequestContext) async throws {
        // The head is built in the connection's reused buffer: no allocation per request.
        var message = connection.takeWriteBuffer()
        try plan.appendHead(to: &message)
        guard plan.request.body != nil else {
            try await connection.write(message)
            connection.keepWriteBuffer(message)
            return
        }
        try await writeWithBody(plan, head: message, on: connection, context: context)
    }

    /// Writes `head` and then the body of `plan`. Out of line: its frame, with the writer and the body's cases
    /// (1,872 bytes together with the head's write before it was split out), is allocated only for a request that
    /// has a body; every task keeps the largest frames it ever allocated until it ends, so a `GET`'s chain stays
    /// small (decision 0038's addendum).
    @inline(never)
    private static func writeWithBody(
        _ plan: ExchangePlan, head: [UInt8], on connection: Connection, context: RequestContext
    ) async throws {
        guard let body = plan.request.body else { preconditionFailure("only a request with a body comes here") }
        var message = head
        var writer = RequestWriter(plan: plan, connection: connection, context: context)
        if case .bytes(let bytes) = body.content, bytes.count <= Self.pieceSize && writer.meter == nil {
            // One send for head and body: one syscall, one TCP segment for small requests.
            message.append(contentsOf: bytes)
            try await connection.write(message)
            connection.keepWriteBuffer(message)
            writer.progress.add(bytes.count)
            return
        }
        try await connection.write(message)
        connection.keepWriteBuffer(message)
        switch body.content {
        case .bytes(let bytes):
            try await writer.writePieces(of: bytes, chunked: false)
        case .file(let path, let length):
            try await writer.writeFile(path, length: length)
        case .stream:
            try await writer.writeStream(body)
        }
    }

    /// How many of `wanted` bytes may go out now: the limiter's grant, or all of them without a limiter.
    private func allowance(_ wanted: Int) async throws -> Int {
        try Task.checkCancellation()
        guard let meter else { return wanted }
        return try await meter.grant(upTo: wanted)
    }

    /// Settles a grant of `count` bytes: all of it after the write, none when it failed (the request fails then,
    /// and the connection is closed).
    private func settle(_ count: Int, sent: Bool) {
        meter?.settle(used: sent ? count : 0, granted: count)
    }

    private mutating func writePieces(of bytes: [UInt8], chunked: Bool) async throws {
        var offset = 0
        while offset < bytes.count {
            let count = try await allowance(min(Self.pieceSize, bytes.count - offset))
            do {
                if chunked {
                    try await connection.write(HTTP1RequestSerializer.chunkPrefix(count: count))
                    try await connection.write(bytes, range: offset..<offset + count)
                    try await connection.write(HTTP1RequestSerializer.chunkSuffix)
                } else {
                    try await connection.write(bytes, range: offset..<offset + count)
                }
            } catch {
                settle(count, sent: false)
                throw error
            }
            settle(count, sent: true)
            offset += count
            progress.add(count)
        }
    }

    private mutating func writeStream(_ body: RequestBody) async throws {
        let chunked = plan.framing == .chunked
        var sent: Int64 = 0
        var chunks = body.makeChunks().makeAsyncIterator()
        while true {
            let chunk: [UInt8]?
            do {
                chunk = try await chunks.next()
            } catch let error as ClientError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw ClientError(.storageFailed, stage: .transport, message: "The request body stream failed",
                                  underlying: error)
            }
            guard let chunk else { break }
            if let length = body.length, sent + Int64(chunk.count) > length {
                throw ClientError(.invalidRequest, stage: .transport,
                                  message: "The body stream yielded more than its declared \(length) bytes")
            }
            try await writePieces(of: chunk, chunked: chunked)
            sent += Int64(chunk.count)
        }
        if chunked {
            try await connection.write(HTTP1RequestSerializer.lastChunk)
        } else if let length = body.length, sent != length {
            throw ClientError(.invalidRequest, stage: .transport,
                              message: "The body stream yielded \(sent) of its declared \(length) bytes")
        }
    }

    private mutating func writeFile(_ path: String, length: Int64) async throws {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            throw ClientError(.storageFailed, stage: .transport, message: "Cannot open \(path)",
                              underlying: SyscallError.last("open"))
        }
        defer { _ = Glibc.close(file) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.pieceSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < length {
            let count = try await allowance(Int(min(Int64(Self.pieceSize), length - offset)))
            do {
                try PositionalRead.fill(
                    file, buffer.baseAddress!, count: count, at: offset, path: path, stage: .transport)
                try await connection.write(buffer.baseAddress!, count: count)
            } catch {
                settle(count, sent: false)
                throw error
            }
            settle(count, sent: true)
            offset += Int64(count)
            progress.add(count)
        }
    }
}
