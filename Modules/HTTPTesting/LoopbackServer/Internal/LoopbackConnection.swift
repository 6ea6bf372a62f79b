import Glibc

/// Serves one accepted connection on its own thread: reads requests, runs the handler's scripts, and closes.
///
/// Owns the descriptor; confined to its thread.
final class LoopbackConnection {
    /// How the connection ends.
    private enum Ending {
        /// Half-close, drain what the client still sends, then close: a clean FIN, no reset.
        case graceful
        /// Reset: `SO_LINGER` 0, then close.
        case reset
        /// Close at once (the client is gone, a write failed, or the server is shutting down).
        case immediate
    }

    private enum Read<Value> {
        case value(Value)
        case end
        case malformed
    }

    /// The largest request head accepted, and the longest chunk-size or trailer line.
    static let headLimit = 64 * 1024

    private let core: LoopbackCore
    private let fd: Int32
    private let index: Int
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    init(core: LoopbackCore, fd: Int32, index: Int) {
        self.core = core
        self.fd = fd
        self.index = index
    }

    /// Serves requests until the connection ends, then closes it.
    func run() {
        let ending = serve()
        switch ending {
        case .graceful:
            core.forget(connection: index)
            _ = shutdown(fd, Int32(SHUT_WR))
            drain()
            _ = close(fd)
        case .reset:
            LoopbackSocket.setLingerZero(fd)
            core.closeConnection(index, fd: fd)
        case .immediate:
            core.closeConnection(index, fd: fd)
        }
    }

    private func serve() -> Ending {
        var requestCount = 0
        while true {
            let head: LoopbackRequestHead
            let framing: LoopbackRequestHead.Framing
            switch readHead() {
            case .end: return .immediate
            case .malformed: return badRequest()
            case .value(let value): head = value
            }
            do { framing = try head.framing() } catch { return badRequest() }
            if head.expectsContinue && core.sendsContinue && framing != .none {
                guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .immediate }
            }
            var body: [UInt8] = []
            var trailers: [RecordedRequest.HeaderField] = []
            switch framing {
            case .none: break
            case .length(let length):
                guard let bytes = read(count: length) else { return .immediate }
                body = bytes
            case .chunked:
                switch readChunkedBody() {
                case .end: return .immediate
                case .malformed: return badRequest()
                case .value(let value): (body, trailers) = value
                }
            }
            let request = RecordedRequest(
                method: head.method, target: head.target, version: head.version, headers: head.headers,
                trailers: trailers, body: body, bodyWasChunked: framing == .chunked, connectionIndex: index,
                indexOnConnection: requestCount)
            requestCount += 1
            core.record(request)
            let response = core.handler(request)
            if let ending = perform(response.actions, isHead: head.method == "HEAD") { return ending }
            guard response.keepAlive && head.isPersistent else { return .graceful }
        }
    }

    /// Runs a script; returns how the connection ends, or `nil` to go on.
    private func perform(_ actions: [LoopbackResponse.Action], isHead: Bool) -> Ending? {
        for action in actions {
            switch action {
            case .write(let bytes):
                guard send(bytes) else { return .immediate }
            case .body(let bytes):
                guard isHead || send(bytes) else { return .immediate }
            case .sleep(let duration):
                guard core.sleep(duration) else { return .immediate }
            case .close:
                return .graceful
            case .reset:
                return .reset
            case .stall:
                drain(timeoutMilliseconds: -1)
                return .immediate
            }
        }
        return nil
    }

    private func badRequest() -> Ending {
        let text = "HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\nConnection: close\r\n\r\nBad Request"
        _ = send(Array(text.utf8))
        return .graceful
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        bytes.isEmpty || LoopbackSocket.sendAll(fd, bytes)
    }

    /// Reads and discards until the client closes, shutdown starts, or `timeoutMilliseconds` pass with nothing.
    private func drain(timeoutMilliseconds: Int32 = 1000) {
        while LoopbackSocket.wait(readable: fd, stop: core.stopReader, timeoutMilliseconds: timeoutMilliseconds)
            == .readable, LoopbackSocket.receive(fd, into: &scratch) > 0
        {}
    }

    /// Appends what the socket has to `buffer`.
    /// - Returns: `false` at end of stream, on error, or when shutdown starts.
    private func fill() -> Bool {
        guard LoopbackSocket.wait(readable: fd, stop: core.stopReader, timeoutMilliseconds: -1) == .readable
        else { return false }
        let count = LoopbackSocket.receive(fd, into: &scratch)
        guard count > 0 else { return false }
        buffer.append(contentsOf: scratch[..<count])
        return true
    }

    private func read(count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads one line and drops its CR LF (or bare LF).
    private func readLine() -> Read<ArraySlice<UInt8>> {
        var searched = 0
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                defer { buffer.removeFirst(newline + 1) }
                return .value(ArraySlice(Array(line)))
            }
            guard buffer.count <= Self.headLimit else { return .malformed }
            searched = buffer.count
            guard fill() else { return .end }
        }
    }

    private func readHead() -> Read<LoopbackRequestHead> {
        var searched = 0
        while true {
            // RFC 9112 §2.2: ignore empty lines before the request line.
            while buffer.first == UInt8(ascii: "\n") || buffer.starts(with: [13, 10]) {
                buffer.removeFirst(buffer.first == 13 ? 2 : 1)
            }
            if let (headEnd, next) = headTerminator(from: searched) {
                guard headEnd <= Self.headLimit else { return .malformed }
                defer { buffer.removeFirst(next) }
                guard let head = try? LoopbackRequestHead.parse(buffer[..<headEnd]) else { return .malformed }
                return .value(head)
            }
            guard buffer.count <= Self.headLimit else { return .malformed }
            searched = max(0, buffer.count - 2)
            guard fill() else { return .end }
        }
    }

    /// Finds the empty line ending a head: where the head stops and where the next bytes start.
    private func headTerminator(from start: Int) -> (Int, Int)? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 10 {
                if buffer[index + 1] == 10 { return (index, index + 2) }
                if buffer[index + 1] == 13 && index + 2 < buffer.count && buffer[index + 2] == 10 {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    private func readChunkedBody() -> Read<([UInt8], [RecordedRequest.HeaderField])> {
        var body: [UInt8] = []
        while true {
            let line: ArraySlice<UInt8>
            switch readLine() {
            case .end: return .end
            case .malformed: return .malformed
            case .value(let value): line = value
            }
            let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 32 && $0 != 9 }
            guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isHexDigit),
                let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
            else { return .malformed }
            if size == 0 { break }
            guard let data = read(count: size + 2) else { return .end }
            guard data[size] == 13 && data[size + 1] == 10 else { return .malformed }
            body.append(contentsOf: data[..<size])
        }
        var trailers: [RecordedRequest.HeaderField] = []
        while true {
            switch readLine() {
            case .end: return .end
            case .malformed: return .malformed
            case .value(let line) where line.isEmpty: return .value((body, trailers))
            case .value(let line):
                guard let field = try? LoopbackRequestHead.field(line) else { return .malformed }
                trailers.append(field)
            }
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self)
    }
}
