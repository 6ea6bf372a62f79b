import FoundationEssentials
import Glibc
import HTTPTesting
import Testing

/// Drives `LoopbackServer` with raw blocking sockets written here, never with a transport from this project.
@Suite(.timeLimit(.minutes(10)))  // a hang guard: a full parallel run on a loaded machine once held these for 146 s
struct LoopbackServerTests {
    @Test func portsAreRealAndDistinct() throws {
        let first = try LoopbackServer { _ in .ok("1") }
        let second = try LoopbackServer { _ in .ok("2") }
        #expect(first.port > 0)
        #expect(second.port > 0)
        #expect(first.port != second.port)
        #expect(first.baseURL.absoluteString == "http://127.0.0.1:\(first.port)")
        #expect(first.url("/a/b?x=1").absoluteString == "http://127.0.0.1:\(first.port)/a/b?x=1")
        #expect(first.url("c").absoluteString == "http://127.0.0.1:\(first.port)/c")
    }

    @Test func getReceivesScriptedBytesExactlyAndIsRecorded() throws {
        let reply = "HTTP/1.1 200 OK\r\nX-Dup: 1\r\nX-Dup: 2\r\nContent-Length: 2\r\n\r\nhi"
        let server = try LoopbackServer { _ in .raw(reply) }
        let client = try RawClient(port: server.port)
        try client.send(
            "GET /path/x?q=1&r=2 HTTP/1.1\r\nHost: example\r\nX-Custom:  Value  \r\nx-custom: second\r\n\r\n")
        #expect(try client.readToEnd() == Array(reply.utf8))

        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/path/x?q=1&r=2")
        #expect(request.path == "/path/x")
        #expect(request.query == "q=1&r=2")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers.map(\.name) == ["Host", "X-Custom", "x-custom"])
        #expect(request.header("X-CUSTOM") == "Value")
        #expect(request.headers(named: "x-custom") == ["Value", "second"])
        #expect(request.header("Missing") == nil)
        #expect(request.body.isEmpty)
        #expect(!request.bodyWasChunked)
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let server = try LoopbackServer { request in .ok(request.path) }
        let client = try RawClient(port: server.port)
        try client.send("GET /one HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().body == Array("/one".utf8))
        try client.send("GET /two HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().body == Array("/two".utf8))

        #expect(server.connectionCount == 1)
        #expect(server.requests.map(\.connectionIndex) == [0, 0])
        #expect(server.requests.map(\.indexOnConnection) == [0, 1])
    }

    @Test func separateConnectionsAreCountedInOrder() throws {
        let server = try LoopbackServer { _ in .ok("x") }
        for _ in 0..<2 {
            let client = try RawClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            _ = try client.readResponse()
        }
        #expect(server.connectionCount == 2)
        #expect(server.requests.map(\.connectionIndex) == [0, 1])
    }

    @Test func contentLengthBodyIsRecorded() throws {
        let server = try LoopbackServer { _ in .status(201) }
        let client = try RawClient(port: server.port)
        try client.send("POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello")
        try client.send(" world")
        #expect(try client.readResponse().head.hasPrefix("HTTP/1.1 201 Created\r\n"))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.bodyText == "hello world")
        #expect(!request.bodyWasChunked)
    }

    @Test func chunkedBodyIsDechunkedWithTrailers() throws {
        let server = try LoopbackServer { _ in .status(204) }
        let client = try RawClient(port: server.port)
        try client.send("PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send("5\r\nhello\r\nA;ext=1\r\n, chunked!\r\n0\r\nX-Sum: 42\r\n\r\n")
        #expect(try client.readResponse().head == "HTTP/1.1 204 No Content\r\n\r\n")
        let request = try #require(server.requests.first)
        #expect(request.bodyText == "hello, chunked!")
        #expect(request.bodyWasChunked)
        #expect(request.trailers == [.init(name: "X-Sum", value: "42")])
    }

    @Test func closeWithoutResponseGivesEndOfStream() throws {
        let server = try LoopbackServer { _ in .closeWithoutResponse }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(client.readOnce() == .endOfStream)
    }

    @Test func resetGivesConnectionReset() throws {
        let server = try LoopbackServer { _ in .resetWithoutResponse }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(client.readOnce() == .failed(ECONNRESET))
    }

    @Test func stallSendsNothing() throws {
        let server = try LoopbackServer { _ in .stall }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        client.setReceiveTimeout(milliseconds: 300)
        // A fault check, not a speed test: the read must time out rather than see bytes or an end of stream.
        #expect(client.readOnce() == .failed(EAGAIN))
        #expect(server.requests.count == 1)
    }

    @Test func chunkedFactoryWritesExactWireBytes() throws {
        let response = LoopbackResponse.chunked(
            headers: [("Content-Type", "text/plain")],
            chunks: [Array("hello".utf8), [], Array(" world, sixteen+".utf8)],
            trailers: [("X-Checksum", "abc")])
        let server = try LoopbackServer { _ in response }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        let expected =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n10\r\n world, sixteen+\r\n0\r\nX-Checksum: abc\r\n\r\n"
        #expect(try client.readToEnd() == Array(expected.utf8))
    }

    @Test func headGetsHeadWithoutBody() throws {
        let server = try LoopbackServer { _ in .ok("hello") }
        let client = try RawClient(port: server.port)
        try client.send("HEAD / HTTP/1.1\r\nHost: h\r\n\r\n")
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n\r\n"
        // The next request on the same connection proves no body bytes followed the HEAD response.
        try client.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try client.readToEnd() == Array((head + head + "hello").utf8))
    }

    @Test func ipv6LoopbackWorksWhenAvailable() throws {
        guard let server = try? LoopbackServer(host: "::1", handler: { _ in .ok("six") }) else {
            return  // This machine has no IPv6 loopback; nothing to check.
        }
        #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
        let client = try RawClient(port: server.port, ipv6: true)
        try client.send("GET / HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        #expect(try client.readResponse().body == Array("six".utf8))
    }

    @Test func shutdownEndsAStalledConnectionAndStopsListening() throws {
        let server = try LoopbackServer { _ in .stall }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        server.shutdown()
        let result = client.readOnce()
        #expect(result == .endOfStream || result == .failed(ECONNRESET))
        #expect(throws: RawClient.Failure.self) { try RawClient(port: server.port) }
        server.shutdown()  // Idempotent.
    }

    @Test func releasingTheServerShutsItDown() throws {
        var server: LoopbackServer? = try LoopbackServer { _ in .stall }
        let client = try RawClient(port: try #require(server).port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        server = nil
        let result = client.readOnce()
        #expect(result == .endOfStream || result == .failed(ECONNRESET))
    }

    @Test(arguments: [
        "GET /\r\n\r\n",
        "GET / HTTP/1.1\r\n Folded: value\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ])
    func malformedRequestGets400AndClose(request: String) throws {
        let server = try LoopbackServer { _ in .ok("unreachable") }
        let client = try RawClient(port: server.port)
        try client.send(request)
        let reply = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(server.requests.isEmpty)
    }

    @Test func oversizedHeadGets400() throws {
        let server = try LoopbackServer { _ in .ok("unreachable") }
        let client = try RawClient(port: server.port)
        let filler = String(repeating: "a", count: 70 * 1024)
        try client.send("GET / HTTP/1.1\r\nX-Big: \(filler)\r\n\r\n")
        let reply = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() throws {
        let server = try LoopbackServer { request in .ok(request.bodyText) }
        let client = try RawClient(port: server.port)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        #expect(try client.read(count: interim.count) == interim)
        try client.send("data")
        #expect(try client.readResponse().body == Array("data".utf8))
    }

    @Test func continueCanBeWithheld() throws {
        let configuration = LoopbackServer.Configuration(sendsContinue: false)
        let server = try LoopbackServer(configuration: configuration) { request in .ok(request.bodyText) }
        let client = try RawClient(port: server.port)
        try client.send("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        client.setReceiveTimeout(milliseconds: 300)
        #expect(client.readOnce() == .failed(EAGAIN))
        client.setReceiveTimeout(milliseconds: 10_000)
        try client.send("data")
        let response = try client.readResponse()
        #expect(response.head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.body == Array("data".utf8))
    }

    @Test func writingToAClosedClientDoesNotKillTheProcess() throws {
        let big = [UInt8](repeating: 65, count: 4 * 1024 * 1024)
        let server = try LoopbackServer { request in
            request.path == "/big" ? .ok(bytes: big).delayed(by: .milliseconds(50)) : .ok("alive")
        }
        do {
            let leaving = try RawClient(port: server.port)
            try leaving.send("GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
        }  // Closed before the answer: the server's writes fail with EPIPE, which must not raise SIGPIPE.
        while server.requests.isEmpty || server.openConnectionCount > 0 { usleep(1000) }  // The writes are over.
        let client = try RawClient(port: server.port)
        try client.send("GET /after HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().body == Array("alive".utf8))
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() throws {
        let server = try LoopbackServer { _ in .ok("x") }
        let keeping = try RawClient(port: server.port)
        try keeping.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        _ = try keeping.readResponse()
        try keeping.send("GET / HTTP/1.0\r\n\r\n")
        let reply = try keeping.readToEnd()
        #expect(String(decoding: reply, as: UTF8.self).hasSuffix("\r\n\r\nx"))
        #expect(server.requests.map(\.version) == ["HTTP/1.0", "HTTP/1.0"])
        #expect(server.connectionCount == 1)
    }

    @Test func routesAnswerByPathWith404Fallback() throws {
        let server = try LoopbackServer(routes: ["/a": .ok("A"), "/old": .redirect(301, to: "/a")])
        let client = try RawClient(port: server.port)
        try client.send("GET /a?ignored HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().body == Array("A".utf8))
        try client.send("GET /old HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().head.contains("\r\nLocation: /a\r\n"))
        try client.send("GET /nope HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().head.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    }

    @Test func slowAndDelayedBodiesArriveWhole() throws {
        let body = Array("0123456789".utf8)
        let server = try LoopbackServer { request in
            request.path == "/slow"
                ? .slowBody(body, firstPart: 3, pause: .milliseconds(20))
                : .ok(bytes: body).delayed(by: .milliseconds(20))
        }
        let client = try RawClient(port: server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().body == body)
        try client.send("GET /delayed HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().body == body)
    }

    @Test func truncatedBodyEndsEarly() throws {
        let server = try LoopbackServer { _ in .truncated(body: Array("abc".utf8), announcedLength: 10) }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        let reply = String(decoding: try client.readToEnd(), as: UTF8.self)
        #expect(reply == "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
    }

    @Test func responseKeepAliveDefaults() {
        #expect(LoopbackResponse.ok("x").keepAlive)
        #expect(!LoopbackResponse.raw("x").keepAlive)
        #expect(LoopbackResponse.raw("x", thenClose: false).keepAlive)
        #expect(!LoopbackResponse.stall.keepAlive)
        #expect(!LoopbackResponse.status(200, headers: [("Connection", "close")]).keepAlive)
        #expect(!LoopbackResponse.ok("x").followed(by: .reset).keepAlive)
    }
}

/// A blocking TCP client socket with a receive timeout, so a broken server fails a test instead of hanging it.
final class RawClient {
    /// A socket call failed.
    struct Failure: Error {
        let operation: String
        let errno: Int32
    }

    /// What one `recv` returned.
    enum ReadResult: Equatable {
        case bytes([UInt8])
        case endOfStream
        case failed(Int32)
    }

    private let fd: Int32
    private var pending: [UInt8] = []

    init(port: Int, ipv6: Bool = false) throws {
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(operation: "socket", errno: errno) }
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_loopback
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let failure = Failure(operation: "connect", errno: errno)
            close(fd)
            throw failure
        }
        setReceiveTimeout(milliseconds: 10_000)
    }

    deinit { close(fd) }

    func setReceiveTimeout(milliseconds: Int) {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, 0) }
            guard sent > 0 else { throw Failure(operation: "send", errno: errno) }
            offset += sent
        }
    }

    /// One `recv`, after any bytes already buffered by the other readers.
    func readOnce() -> ReadResult {
        if !pending.isEmpty {
            defer { pending = [] }
            return .bytes(pending)
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        if count == 0 { return .endOfStream }
        return .failed(errno == EWOULDBLOCK ? EAGAIN : errno)
    }

    /// Reads until the server closes the connection.
    func readToEnd() throws -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            switch readOnce() {
            case .bytes(let more): bytes += more
            case .endOfStream: return bytes
            case .failed(let code): throw Failure(operation: "recv", errno: code)
            }
        }
    }

    /// Reads exactly `count` bytes.
    func read(count: Int) throws -> [UInt8] {
        while pending.count < count {
            let before = pending
            pending = []
            switch readOnce() {
            case .bytes(let more): pending = before + more
            case .endOfStream: throw Failure(operation: "recv (early end)", errno: 0)
            case .failed(let code): throw Failure(operation: "recv", errno: code)
            }
        }
        defer { pending.removeFirst(count) }
        return Array(pending[..<count])
    }

    /// Reads one response framed by `Content-Length` (absent means none): the head as text and the body.
    func readResponse() throws -> (head: String, body: [UInt8]) {
        var head: [UInt8] = []
        while !head.suffix(4).elementsEqual([13, 10, 13, 10]) { head += try read(count: 1) }
        let text = String(decoding: head, as: UTF8.self)
        let lengthLine = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        let length = lengthLine.flatMap { Int($0.dropFirst("content-length:".count).filter { $0 != " " }) } ?? 0
        return (text, try read(count: length))
    }
}
