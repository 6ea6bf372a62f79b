import CloudFiles
import Foundation
import HTTPCore
import HTTPPipeline
import SocketTransport
import Synchronization
import TestSupport

/// Helpers for the tests against a real OpenStack Swift.
enum SwiftTestSupport {
    /// A client of the peer as `test:tester` (or another tempauth user), with generous timeouts.
    static func client(
        _ peer: OpenStackSwiftPeer, user: String = "test:tester", key: String = "testing",
        credentialStore: (any CredentialStore)? = nil, middleware: [any Middleware] = []
    ) -> CloudFilesClient {
        var options = RequestOptions()
        options.timeout = generousTimeout
        return CloudFilesClient(
            transport: .posix(), authentication: .v1(url: peer.authURL, user: user, key: key),
            credentialStore: credentialStore, middleware: middleware, options: options)
    }

    /// Writes `size` bytes where every MiB differs from the others.
    static func writeFile(_ path: String, size: Int) throws {
        var bytes = [UInt8](repeating: 0, count: size)
        for index in 0..<size { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 20 &+ index >> 9) }
        try Data(bytes).write(to: URL(filePath: path))
    }

    /// Whether two files hold the same bytes.
    static func sameFiles(_ a: String, _ b: String) -> Bool {
        guard let x = FileManager.default.contents(atPath: a), let y = FileManager.default.contents(atPath: b) else {
            return false
        }
        return x == y
    }
}

/// Records the method and path of every request the client sends (after the token middleware), and whether it
/// carried a token.
final class RequestLog: Middleware, Sendable {
    private let entries = Mutex<[String]>([])

    /// `METHOD /path?query` of each attempt, in order.
    var lines: [String] { entries.withLock { $0 } }

    func intercept(
        _ request: Request, context: RequestContext, next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        let line =
            request.method.rawValue + " " + request.url.path(percentEncoded: true)
            + (request.url.query.map { "?" + $0 } ?? "")
        entries.withLock { $0.append(line) }
        return try await next(request, context)
    }
}
