import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental HTTP/1.1 response parser: bytes in, ``HTTP1Event``s out. It does no I/O.
///
/// Call ``expectResponse(toMethod:)`` before each response, then ``feed(_:into:)`` with whatever arrived, split
/// anywhere, and ``feedEOF(into:)`` when the peer closes. Only a line that is split across feeds is buffered, so
/// the parser holds at most one line (bounded by ``HTTP1Limits``); body bytes are copied once, straight from the
/// fed buffer into the `.body` event. After any thrown error the parser stays failed.
///
/// Leniency and strictness, decided here:
/// - A bare LF ends a line like CRLF does (as curl accepts). A bare CR inside a line, a NUL in a header value,
///   whitespace before a header's colon, and a malformed name are protocol violations.
/// - Obsolete line folding (a header line starting with SP or HTAB) is unfolded into one space, as RFC 9112 §5.2
///   requires of a user agent; folding right after the status line is a violation.
/// - Empty lines before a status line are skipped (they count toward ``HTTP1Limits/maxHeadBytes``).
/// - Other control bytes in a header value become spaces (`HTTPTypes` legalizes values).
/// Framing follows ``HTTP1FramingRules``.
///
/// Bytes that arrive when no response is expected (after a response ended, or after a 101 or a successful
/// `CONNECT`) are kept: ``hasBufferedBytes`` reports them, ``takeBufferedBytes()`` hands them over, and after the
/// next ``expectResponse(toMethod:)`` they are parsed by the next `feed` (call it with an empty buffer if no more
/// bytes are coming).
struct HTTP1ResponseParser {
    enum State: Equatable {
        case awaitingRequest
        case statusLine
        case headerLines
        case fixedBody(remaining: Int64)
        case chunkSize
        case chunkData(remaining: Int64)
        case chunkDataCR
        case chunkDataLF
        case trailers
        case closeDelimited
        case upgraded
        case closed
        case failed
    }

    let limits: HTTP1Limits
    var state: State = .awaitingRequest
    var requestMethod: HTTPRequest.Method = .get
    /// Whether the request asked for a protocol upgrade; a 101 answers nothing else.
    var upgradeRequested = false
    /// The start of a line that was split across feeds.
    var lineBuffer: [UInt8] = []
    /// Bytes that arrived while no response was expected.
    var stash: [UInt8] = []
    var stashOverflowed = false
    /// Whether any byte of the current response (including interim heads) has been consumed.
    var receivedResponseBytes = false
    /// Bytes of the current head or trailer section so far, terminators included.
    var sectionBytes = 0
    /// Interim (1xx) heads of the current response so far.
    var interimCount = 0
    var headVersion = HTTPVersion.http1_1
    var headStatus = HTTPResponse.Status.ok
    /// The fields of the head or trailer section being parsed. A plain array (not `HTTPFields`, whose generic
    /// `replaceSubrange` is not specialized across modules), cleared with its capacity kept.
    var sectionFields: [HTTPField] = []
    /// The framing fields of the head being parsed, summarized as they arrive (``HTTP1FramingRules``).
    var framingSummary = HTTP1FramingRules.FieldSummary()
    /// Whether an obs-fold continuation changed a field after it was summarized: the head is summarized again.
    var framingSummaryIsStale = false
    /// The last final head on this connection. A head that repeats it (a keep-alive connection's next answer from
    /// the same server) reuses its status, its fields' strings, and its whole field list when every field repeats,
    /// instead of allocating them again, as HPACK's dynamic table spares HTTP/2 the bytes.
    var previousHead: HTTPResponse?
    /// The status of ``previousHead``, kept apart: `HTTPResponse.status` parses its pseudo-header field at each read.
    var previousStatus: HTTPResponse.Status?
    /// The fields of ``previousHead``, kept apart (sharing its storage) so that comparing a field with them does
    /// not copy `HTTPResponse`'s fields at each line.
    var previousFields = HTTPFields()
    /// Whether the head being parsed has the previous head's status line.
    var statusRepeats = false
    /// Whether every field of the head so far is the previous head's field at the same position.
    var fieldsRepeat = false
    /// The trailer section of the last response that had one, kept for the body source until the next
    /// ``expectResponse(toMethod:upgradeRequested:)`` (the `.end` event carries them too).
    var trailers: HTTPFields?
    var bodyBytesReceived: Int64 = 0
    var announcedLength: Int64 = 0
    /// Body bytes gathered in this feed and not yet emitted (several small chunks become one event).
    var pendingBody: [UInt8] = []

    /// Creates a parser for one connection.
    /// - Parameter limits: Size limits for heads, lines and trailers.
    init(limits: HTTP1Limits = .init()) {
        self.limits = limits
    }

    /// Prepares for the response to a request that was (or is being) sent.
    ///
    /// Call it once per request before feeding its response. The method matters: a response to `HEAD` has no
    /// body, and a 2xx response to `CONNECT` turns the connection into a tunnel. A 101 is a violation unless the
    /// request asked for an upgrade (RFC 9110 §15.2.2): a server must not switch protocols unasked.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - upgradeRequested: Whether the request carried `Upgrade`.
    mutating func expectResponse(toMethod method: HTTPRequest.Method, upgradeRequested: Bool = false) {
        let between =
            state == .awaitingRequest
            || (state == .statusLine && !receivedResponseBytes && lineBuffer.isEmpty)
        precondition(between, "expectResponse(toMethod:) called while a response is in progress (\(state))")
        requestMethod = method
        self.upgradeRequested = upgradeRequested
        state = .statusLine
        sectionBytes = 0
        interimCount = 0
        sectionFields.removeAll(keepingCapacity: true)
        if trailers != nil { trailers = nil }
    }

    /// Whether no part of a response is buffered or in progress: the connection is between messages.
    var isIdle: Bool {
        switch state {
        case .awaitingRequest, .closed: stash.isEmpty && lineBuffer.isEmpty
        case .statusLine: !receivedResponseBytes && stash.isEmpty && lineBuffer.isEmpty
        default: false
        }
    }

    /// Whether bytes are held that no event has reported yet: the start of a split line, or bytes that arrived
    /// when no response was expected. A transport should not reuse a connection that has them after `.end`.
    var hasBufferedBytes: Bool { !stash.isEmpty || !lineBuffer.isEmpty }

    /// Hands over the bytes that arrived when no response was expected, for example the first bytes of the
    /// tunnelled protocol after a 101 or a `CONNECT`, and forgets them.
    /// - Returns: The bytes, possibly empty.
    mutating func takeBufferedBytes() -> [UInt8] {
        defer { stash = [] }
        return stash
    }

    /// Parses `bytes` and returns the events found.
    /// - Parameter bytes: The bytes that arrived, any amount.
    /// - Returns: The events, in order.
    /// - Throws: ``ClientError`` with ``ClientError/Code/protocolViolation`` when the response is malformed or
    ///   breaks a limit.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws -> [HTTP1Event] {
        var events: [HTTP1Event] = []
        try feed(bytes, into: &events)
        return events
    }

    /// Parses `bytes` and appends the events found to `events`; reuse one array to avoid allocations.
    /// - Parameters:
    ///   - bytes: The bytes that arrived, any amount (empty to parse bytes held from earlier).
    ///   - events: Receives the events, in order. On a throw it may hold events from before the error.
    /// - Throws: ``ClientError`` with ``ClientError/Code/protocolViolation`` when the response is malformed or
    ///   breaks a limit.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into events: inout [HTTP1Event]) throws {
        try guardNotFailed()
        do {
            try replayStashIfExpected(into: &events)
            try parse(bytes, into: &events)
            flushBody(into: &events)
        } catch {
            fail()
            throw error
        }
    }

    /// Tells the parser the peer closed the connection.
    /// - Returns: `.end` when the body was delimited by the close; otherwise nothing.
    /// - Throws: ``ClientError`` when a response was in progress: ``ClientError/Code/emptyResponse`` if none of
    ///   it had arrived yet (the request may be retried on a new connection), otherwise
    ///   ``ClientError/Code/protocolViolation`` naming what was cut short, such as
    ///   "connection closed after 10 of 100 body bytes".
    mutating func feedEOF() throws -> [HTTP1Event] {
        var events: [HTTP1Event] = []
        try feedEOF(into: &events)
        return events
    }

    /// Tells the parser the peer closed the connection, appending any final events to `events`.
    /// - Parameter events: Receives `.end` for a close-delimited body.
    /// - Throws: As ``feedEOF()``.
    mutating func feedEOF(into events: inout [HTTP1Event]) throws {
        try guardNotFailed()
        do {
            try replayStashIfExpected(into: &events)
            try finishAtEOF(into: &events)
        } catch {
            fail()
            throw error
        }
    }

    // MARK: - Main loop

    private mutating func parse(_ bytes: UnsafeRawBufferPointer, into events: inout [HTTP1Event]) throws {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        while index < count {
            switch state {
            case .statusLine, .headerLines, .trailers, .chunkSize:
                if state == .statusLine { receivedResponseBytes = true }
                index = try consumeLine(base, from: index, count: count, into: &events)
            case .fixedBody(let remaining):
                let take = Int(min(Int64(count - index), remaining))
                appendBody(base + index, take)
                index += take
                if remaining == Int64(take) {
                    finishMessage(trailers: nil, into: &events)
                } else {
                    state = .fixedBody(remaining: remaining - Int64(take))
                }
            case .chunkData(let remaining):
                let take = Int(min(Int64(count - index), remaining))
                appendBody(base + index, take)
                index += take
                state = remaining == Int64(take) ? .chunkDataCR : .chunkData(remaining: remaining - Int64(take))
            case .chunkDataCR, .chunkDataLF:
                let byte = bytes[index]
                index += 1
                if byte == HTTP1Syntax.lf {
                    state = .chunkSize
                } else if byte == HTTP1Syntax.cr && state == .chunkDataCR {
                    state = .chunkDataLF
                } else {
                    throw HTTP1Syntax.violation("missing CRLF after chunk data")
                }
            case .closeDelimited:
                appendBody(base + index, count - index)
                index = count
            case .awaitingRequest, .upgraded, .closed:
                stashBytes(base + index, count - index)
                index = count
            case .failed:
                throw HTTP1Syntax.violation("the response parser already failed")
            }
        }
    }

    /// Consumes one line (or the start of one) from `base[index..<count]`; returns the new index.
    private mutating func consumeLine(
        _ base: UnsafeRawPointer, from index: Int, count: Int, into events: inout [HTTP1Event]
    ) throws -> Int {
        let start = base + index
        let available = count - index
        guard let found = memchr(start, Int32(HTTP1Syntax.lf), available) else {
            try checkPartialLine(adding: available)
            lineBuffer.append(
                contentsOf: UnsafeBufferPointer(
                    start: start.assumingMemoryBound(to: UInt8.self),
                    count: available))
            return count
        }
        let length = UnsafeRawPointer(found) - start
        if lineBuffer.isEmpty {
            try handleLine(UnsafeRawBufferPointer(start: start, count: length), into: &events)
        } else {
            try checkPartialLine(adding: length)
            lineBuffer.append(
                contentsOf: UnsafeBufferPointer(
                    start: start.assumingMemoryBound(to: UInt8.self),
                    count: length))
            var line: [UInt8] = []
            swap(&line, &lineBuffer)
            try line.withUnsafeBytes { try handleLine($0, into: &events) }
            if line.capacity <= 4096 {
                line.removeAll(keepingCapacity: true)
                swap(&line, &lineBuffer)
            }
        }
        return index + length + 1
    }

    private mutating func checkPartialLine(adding count: Int) throws {
        let total = lineBuffer.count + count
        // One extra byte may be the CR of a CRLF.
        if total > limits.maxLineLength + 1 {
            throw lineTooLong()
        }
        if state != .chunkSize && sectionBytes + total > limits.maxHeadBytes {
            throw sectionTooLarge()
        }
    }

    /// Handles one complete line, without its LF.
    private mutating func handleLine(_ rawLine: UnsafeRawBufferPointer, into events: inout [HTTP1Event]) throws {
        var line = rawLine
        if let last = line.last, last == HTTP1Syntax.cr {
            line = UnsafeRawBufferPointer(rebasing: line.dropLast())
        }
        guard line.count <= limits.maxLineLength else { throw lineTooLong() }
        if state != .chunkSize {
            sectionBytes += rawLine.count + 1
            guard sectionBytes <= limits.maxHeadBytes else { throw sectionTooLarge() }
        }
        switch state {
        case .statusLine:
            if !line.isEmpty { try parseStatusLine(line) }
        case .headerLines:
            if line.isEmpty { try finishHead(into: &events) } else { try parseFieldLine(line, trailer: false) }
        case .trailers:
            if line.isEmpty { finishTrailers(into: &events) } else { try parseFieldLine(line, trailer: true) }
        case .chunkSize:
            try parseChunkSizeLine(line, into: &events)
        default:
            preconditionFailure("handleLine in state \(state)")
        }
    }

    // MARK: - Body and message helpers

    @inline(__always)
    private mutating func appendBody(_ start: UnsafeRawPointer, _ count: Int) {
        guard count > 0 else { return }
        bodyBytesReceived += Int64(count)
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
        if pendingBody.isEmpty {
            pendingBody = Array(bytes)
        } else {
            pendingBody.append(contentsOf: bytes)
        }
    }

    mutating func flushBody(into events: inout [HTTP1Event]) {
        guard !pendingBody.isEmpty else { return }
        events.append(.body(pendingBody))
        pendingBody = []
    }

    /// Emits `.end` and gets ready for the next request.
    mutating func finishMessage(trailers: HTTPFields?, into events: inout [HTTP1Event]) {
        flushBody(into: &events)
        events.append(.end(trailers: trailers))
        state = .awaitingRequest
        receivedResponseBytes = false
        bodyBytesReceived = 0
        announcedLength = 0
        sectionBytes = 0
        interimCount = 0
    }

    private mutating func stashBytes(_ start: UnsafeRawPointer, _ count: Int) {
        let room = max(0, limits.maxHeadBytes - stash.count)
        if count > room { stashOverflowed = true }
        stash.append(
            contentsOf: UnsafeBufferPointer(
                start: start.assumingMemoryBound(to: UInt8.self),
                count: min(count, room)))
    }

    private mutating func replayStashIfExpected(into events: inout [HTTP1Event]) throws {
        guard !stash.isEmpty, state == .statusLine else { return }
        guard !stashOverflowed else {
            throw HTTP1Syntax.violation(
                "more than \(limits.maxHeadBytes) bytes arrived before the response was expected")
        }
        var stashed: [UInt8] = []
        swap(&stashed, &stash)
        try stashed.withUnsafeBytes { try parse($0, into: &events) }
    }

    private mutating func finishAtEOF(into events: inout [HTTP1Event]) throws {
        switch state {
        case .awaitingRequest, .upgraded, .closed:
            state = .closed
        case .statusLine where !receivedResponseBytes && lineBuffer.isEmpty:
            throw ClientError(
                .emptyResponse, stage: .transport,
                message: "connection closed before any response bytes arrived")
        case .statusLine, .headerLines:
            throw HTTP1Syntax.violation("connection closed in the middle of the response head")
        case .fixedBody:
            throw HTTP1Syntax.incomplete(
                "connection closed after \(bodyBytesReceived) of \(announcedLength) body bytes")
        case .chunkSize, .chunkData, .chunkDataCR, .chunkDataLF:
            throw HTTP1Syntax.incomplete(
                "connection closed in the middle of a chunked body after \(bodyBytesReceived) bytes")
        case .trailers:
            throw HTTP1Syntax.incomplete("connection closed in the middle of the trailer section")
        case .closeDelimited:
            finishMessage(trailers: nil, into: &events)
            state = .closed
        case .failed:
            throw HTTP1Syntax.violation("the response parser already failed")
        }
    }

    private func guardNotFailed() throws {
        if state == .failed { throw HTTP1Syntax.violation("the response parser already failed") }
    }

    private mutating func fail() {
        state = .failed
        pendingBody = []
        lineBuffer = []
    }

    private func lineTooLong() -> ClientError {
        HTTP1Syntax.violation("line longer than \(limits.maxLineLength) bytes")
    }

    private func sectionTooLarge() -> ClientError {
        let what = state == .trailers ? "trailer section" : "response head"
        return HTTP1Syntax.violation("\(what) exceeds \(limits.maxHeadBytes) bytes")
    }
}
