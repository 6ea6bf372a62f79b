import FoundationEssentials
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What goes on the wire and what comes back for well-behaved exchanges.
@Suite struct POSIXTransportRequestTests {
    @Test func getReturnsStatusHeadersAndBody() async throws {
        let server = try LoopbackServer { _ in .status(201, headers: [("X-Test", "yes")], body: Array("hello".utf8)) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (response, body) = try await fetch(transport, testRequest(server.url("/a?b=c")))
        #expect(response.status.code == 201)
        #expect(response.version == .http1_1)
        #expect(response.headerFields[HTTPField.Name("X-Test")!] == "yes")
        #expect(response.body.expectedLength == 5)
        #expect(body == Array("hello".utf8))
        #expect(response.connectionID != nil)
        let recorded = try #require(server.requests.first)
        #expect(recorded.method == "GET")
        #expect(recorded.target == "/a?b=c")
        #expect(recorded.header("Host") == "127.0.0.1:\(server.port)")
        #expect(recorded.header("Content-Length") == nil)
        #expect(recorded.header("Connection") == nil)
    }

    @Test func postSendsAMemoryBodyWithContentLengthAndConnectionClose() async throws {
        let server = try LoopbackServer { request in .ok("got \(request.body.count)") }
        defer { server.shutdown() }
        let payload = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/p"), method: .post, body: .bytes(payload)))
        #expect(body == Array("got 100000".utf8))
        let recorded = try #require(server.requests.first)
        #expect(recorded.body == payload)
        #expect(recorded.header("Content-Length") == "100000")
        #expect(recorded.header("Connection") == "close")
        #expect(!recorded.bodyWasChunked)
    }

    @Test func postWithoutBodySendsContentLengthZero() async throws {
        let server = try LoopbackServer { _ in .ok("ok") }
        defer { server.shutdown() }
        _ = try await fetch(POSIXTransport(), testRequest(server.url("/p"), method: .post))
        #expect(server.requests.first?.header("Content-Length") == "0")
    }

    @Test func fileBodyIsStreamedWithUploadProgress() async throws {
        let server = try LoopbackServer { request in .ok("\(request.body.count)") }
        defer { server.shutdown() }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = try temporaryFile(bytes)
        defer { unlink(path) }
        let progress = RecordingProgressSink()
        let request = testRequest(server.url("/upload"), method: .put, body: try .file(atPath: path))
        let (_, body) = try await fetch(POSIXTransport(), request, context: testContext(progress: progress))
        #expect(body == Array("300000".utf8))
        #expect(server.requests.first?.body == bytes)
        #expect(server.requests.first?.header("Content-Length") == "300000")
        let uploads = progress.events(.upload)
        #expect(uploads.count >= 2)
        #expect(uploads.last?.completedBytes == 300_000)
        #expect(uploads.allSatisfy { $0.expectedBytes == 300_000 })
        #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
    }

    @Test func streamWithoutLengthIsSentChunked() async throws {
        let server = try LoopbackServer { request in .ok(request.bodyText) }
        defer { server.shutdown() }
        let body = RequestBody.stream(length: nil) { RequestBody.Chunks([Array("ab".utf8), [], Array("cde".utf8)]) }
        let (_, echoed) = try await fetch(POSIXTransport(), testRequest(server.url("/s"), method: .post, body: body))
        #expect(echoed == Array("abcde".utf8))
        let recorded = try #require(server.requests.first)
        #expect(recorded.bodyWasChunked)
        #expect(recorded.header("Transfer-Encoding") == "chunked")
    }

    @Test func streamWithLengthIsSentPlain() async throws {
        let server = try LoopbackServer { request in .ok(request.bodyText) }
        defer { server.shutdown() }
        let body = RequestBody.stream(length: 5) { RequestBody.Chunks([Array("ab".utf8), Array("cde".utf8)]) }
        let (_, echoed) = try await fetch(POSIXTransport(), testRequest(server.url("/s"), method: .post, body: body))
        #expect(echoed == Array("abcde".utf8))
        #expect(server.requests.first?.bodyWasChunked == false)
        #expect(server.requests.first?.header("Content-Length") == "5")
    }

    @Test func streamShorterThanItsLengthFails() async throws {
        let server = try LoopbackServer { _ in .ok("") }
        defer { server.shutdown() }
        let body = RequestBody.stream(length: 10) { RequestBody.Chunks([Array("ab".utf8)]) }
        await expectClientError(.invalidRequest) {
            _ = try await fetch(POSIXTransport(), testRequest(server.url("/s"), method: .post, body: body))
        }
    }

    @Test func headHasNoBodyAndKeepsTheConnection() async throws {
        let server = try LoopbackServer { _ in .ok("hello") }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (head, body) = try await fetch(transport, testRequest(server.url("/h"), method: .head))
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentLength] == "5")
        #expect(head.body.expectedLength == 0)
        #expect(body.isEmpty)
        let (get, getBody) = try await fetch(transport, testRequest(server.url("/h")))
        #expect(getBody == Array("hello".utf8))
        #expect(get.connectionID == head.connectionID)
    }

    @Test(arguments: [204, 304])
    func bodylessStatusesHaveNoBody(code: Int) async throws {
        let server = try LoopbackServer { _ in .status(code) }
        defer { server.shutdown() }
        let transport = POSIXTransport()
        let (first, body) = try await fetch(transport, testRequest(server.url("/n")))
        #expect(first.status.code == code)
        #expect(body.isEmpty)
        let (second, _) = try await fetch(transport, testRequest(server.url("/n")))
        #expect(second.connectionID == first.connectionID)
    }

    @Test func interimContinueIsSkipped() async throws {
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", thenClose: false)
        }
        defer { server.shutdown() }
        let (response, body) = try await fetch(POSIXTransport(), testRequest(server.url("/c")))
        #expect(response.status == .ok)
        #expect(body == Array("ok".utf8))
    }

    @Test func chunkedResponseWithPausesArrivesWhole() async throws {
        let chunks = (0..<5).map { Array(repeating: UInt8(65 + $0), count: 1000 * ($0 + 1)) }
        let server = try LoopbackServer { _ in .chunked(chunks: chunks, chunkDelay: .milliseconds(5)) }
        defer { server.shutdown() }
        let (response, body) = try await fetch(POSIXTransport(), testRequest(server.url("/c")))
        #expect(response.body.expectedLength == nil)
        #expect(body == chunks.flatMap { $0 })
    }

    @Test func closeDelimitedBodyEndsAtClose() async throws {
        let server = try LoopbackServer { _ in .raw("HTTP/1.1 200 OK\r\n\r\nuntil the end", thenClose: true) }
        defer { server.shutdown() }
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/c")))
        #expect(body == Array("until the end".utf8))
    }

    @Test func downloadProgressIsMonotoneAndEndsAtTheLength() async throws {
        let payload = (0..<500_000).map { UInt8(truncatingIfNeeded: $0) }
        let server = try LoopbackServer { _ in .slowBody(payload, firstPart: 1000, pause: .milliseconds(20)) }
        defer { server.shutdown() }
        let progress = RecordingProgressSink()
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/d")),
                                        context: testContext(progress: progress))
        #expect(body == payload)
        let downloads = progress.events(.download)
        #expect(downloads.count >= 2)
        #expect(downloads.last?.completedBytes == 500_000)
        #expect(downloads.allSatisfy { $0.expectedBytes == 500_000 })
        #expect(zip(downloads, downloads.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
    }

    @Test func http10ModeSendsAnHTTP10RequestLine() async throws {
        let server = try LoopbackServer { _ in .ok("old") }
        defer { server.shutdown() }
        var request = testRequest(server.url("/v"))
        request.options.httpVersion = .http1_0
        let (_, body) = try await fetch(POSIXTransport(), request)
        #expect(body == Array("old".utf8))
        #expect(server.requests.first?.version == "HTTP/1.0")
        #expect(server.requests.first?.header("Connection") == "keep-alive")
    }

    @Test func http10ModeRejectsABodyOfUnknownLength() async throws {
        var request = testRequest(URL(string: "http://127.0.0.1:1/")!, method: .post,
                                  body: .stream(length: nil) { RequestBody.Chunks([[1]]) })
        request.options.httpVersion = .http1_0
        await expectClientError(.invalidRequest) { _ = try await fetch(POSIXTransport(), request) }
    }

    @Test func ipv6LoopbackWorks() async throws {
        guard let server = try? LoopbackServer(host: "::1", handler: { _ in .ok("six") }) else { return }
        defer { server.shutdown() }
        let (_, body) = try await fetch(POSIXTransport(), testRequest(server.url("/6")))
        #expect(body == Array("six".utf8))
        #expect(server.requests.first?.header("Host") == "[::1]:\(server.port)")
    }
}

/// Writes `bytes` to a new temporary file and returns its path.
func temporaryFile(_ bytes: [UInt8]) throws -> String {
    var template = Array("/tmp/socket-transport-test-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw SyscallError.last("mkstemp") }
    defer { close(fd) }
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
        guard result > 0 else { throw SyscallError.last("write") }
        written += result
    }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
