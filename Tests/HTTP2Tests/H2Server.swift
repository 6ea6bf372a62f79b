import FoundationEssentials
import HTTPCore
import TestSupport
import Testing

/// A real HTTP/2 server the shared cases of ``HTTP2ServerTests`` run against: nginx (`listen … http2`) or nghttpd
/// (nghttp2's own server). Each is started for one case and stopped after it.
struct H2Server: Sendable, CustomTestStringConvertible {
    /// Which server.
    enum Kind: Sendable { case nginx, nghttpd }

    /// Which server.
    let kind: Kind

    var testDescription: String { kind == .nginx ? "nginx" : "nghttpd" }

    /// The servers installed here (or every one when `ASI_REQUIRE_PEERS=1` asks for a failure).
    static let available: [H2Server] = [
        HTTP2NginxPeer.shouldRun ? H2Server(kind: .nginx) : nil,
        NghttpdPeer.shouldRun ? H2Server(kind: .nghttpd) : nil,
    ].compactMap { $0 }

    /// Starts the server, runs `body` with its origin, and stops the server, also when `body` throws.
    /// - Parameters:
    ///   - cleartext: HTTP/2 over cleartext with prior knowledge (h2c) instead of TLS with ALPN.
    ///   - body: The test.
    /// - Throws: ``PeerError`` when the server cannot start, or what `body` throws.
    func run(cleartext: Bool = false, _ body: (H2Origin) async throws -> Void) async throws {
        switch kind {
        case .nginx:
            try await withHTTP2Nginx { nginx in
                try await body(H2Origin(nginx: nginx, on: cleartext ? .cleartext : .tls))
            }
        case .nghttpd:
            try await withNghttpd(usesTLS: !cleartext) { server in try await body(H2Origin(nghttpd: server)) }
        }
    }
}

/// One running h2 server as the shared cases see it: its URLs, its certificates, where an upload goes and how to
/// read it back, and (where the server logs it) which connections served a path.
struct H2Origin {
    /// The TLS fixtures (the test CA).
    let certificates: TestCertificates
    /// The URL of a path, starting with `/`.
    let url: (String) -> URL
    /// Where and how a body is uploaded: nginx stores a `PUT` (`201`), nghttpd echoes a `POST` (`200`).
    let upload: (method: HTTPRequest.Method, path: String, status: HTTPResponse.Status)
    /// The uploaded body's length and whether every byte is the upload's: the stored file's (nginx) or the echoed
    /// body's (nghttpd); `nil` when it cannot be read.
    let readUpload: (Response) async throws -> (count: Int, intact: Bool)?
    /// What the server logged for the requests whose line holds the given text, once at least `count` are logged
    /// (or a generous deadline passed): how many, and the distinct connections that served them; `nil` from a
    /// server without an access log (nghttpd).
    let logged: (_ text: String, _ count: Int) async -> (requests: Int, connections: Set<String>)?

    init(nginx: HTTP2NginxPeer, on server: HTTP2NginxPeer.Server) {
        certificates = nginx.certificates
        url = { nginx.url($0, on: server) }
        upload = (.put, "/uploads/twenty.bin", .created)
        readUpload = { _ in readTwentyMiB(atPath: nginx.directory + "/www/uploads/twenty.bin") }
        logged = { text, count in
            _ = await eventually { nginx.accessLog.filter { $0.contains(text) }.count >= count }
            return (nginx.accessLog.filter { $0.contains(text) }.count, nginx.connections(servingPath: text))
        }
    }

    init(nghttpd: NghttpdPeer) {
        certificates = nghttpd.certificates
        url = { nghttpd.url($0) }
        upload = (.post, "/echo", .ok)
        readUpload = { response in
            var count = 0
            var intact = true
            for try await chunk in response.body {
                if intact && !matchesTwentyMiB(chunk, at: count) { intact = false }
                count += chunk.count
            }
            return (count, intact)
        }
        logged = { _, _ in nil }
    }
}
