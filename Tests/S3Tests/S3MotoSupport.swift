import AmazonS3
import Foundation
import Glibc
import HTTPCore
import HTTPPipeline
import HTTPTesting
import S3
import SocketTransport
import Synchronization
import TestSupport

/// Helpers for the tests against moto.
enum S3Moto {
    /// An S3 client for the peer, path style, signing with its key (or a wrong secret).
    static func client(
        _ peer: MotoPeer, secret: String? = nil, style: S3Endpoint.AddressingStyle = .path,
        host: String = "127.0.0.1", middleware: [any Middleware] = [], overrides: [String: String] = [:]
    ) throws -> S3Client {
        try client(
            port: peer.port, accessKeyID: peer.accessKeyID, secretAccessKey: secret ?? peer.secretAccessKey,
            style: style, host: host, middleware: middleware, overrides: overrides)
    }

    /// An S3 client for moto at `port` with the given key: what an exit test's child process, which gets only
    /// `Codable` values from its parent, can build.
    static func client(
        port: Int, accessKeyID: String, secretAccessKey: String, style: S3Endpoint.AddressingStyle = .path,
        host: String = "127.0.0.1", middleware: [any Middleware] = [], overrides: [String: String] = [:]
    ) throws -> S3Client {
        let endpoint = try S3Endpoint(
            url: URL(string: "http://\(host):\(port)")!, region: "us-east-1", addressingStyle: style)
        let credentials = AWSCredentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey)
        // A generous inactivity timeout, retried once: moto (Python) can be slow to answer an 8 MiB part when the
        // whole suite runs on two busy cores.
        var options = RequestOptions()
        options.timeout = generousTimeout
        options.retriesOnTimeout = 1
        return S3Client(
            transport: .posix(.init(addressOverrides: overrides)), endpoint: endpoint, credentials: credentials,
            middleware: middleware, options: options)
    }

    /// Writes `size` bytes of a repeating, position-dependent pattern to a new file, 1 MiB at a time.
    static func writeFile(_ path: String, size: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(filePath: path))
        defer { try? handle.close() }
        var written = 0
        var block = 0
        let pattern = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        while written < size {
            let count = min(1 << 20, size - written)
            var chunk = Array(pattern[..<count])
            chunk[0] = UInt8(truncatingIfNeeded: block)  // every MiB differs from the others
            chunk[count - 1] = UInt8(truncatingIfNeeded: block >> 8)
            try handle.write(contentsOf: chunk)
            written += count
            block += 1
        }
    }

    /// Whether two files hold the same bytes, compared 1 MiB at a time.
    static func sameFiles(_ a: String, _ b: String) throws -> Bool {
        let first = try FileHandle(forReadingFrom: URL(filePath: a))
        let second = try FileHandle(forReadingFrom: URL(filePath: b))
        defer {
            try? first.close()
            try? second.close()
        }
        while true {
            let x = try first.read(upToCount: 1 << 20) ?? Data()
            let y = try second.read(upToCount: 1 << 20) ?? Data()
            if x != y { return false }
            if x.isEmpty { return true }
        }
    }

    /// Resets the process's peak resident size to its current resident size (`echo 5 > /proc/self/clear_refs`),
    /// so a later ``peakResidentBytes()`` measures the peak since now.
    static func resetPeakResidentBytes() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Uploads `file` to `asi-big/big.bin` with progress.
    /// - Returns: `uploaded=BYTES etag=ETAG` (the most bytes the aggregate progress reported, and the ETag), and the
    ///   ETag.
    static func upload(_ s3: S3Client, file: String) async throws -> (report: String, eTag: String) {
        let progress = RecordingProgressSink()
        let eTag = try await s3.uploadFile(bucket: "asi-big", key: "big.bin", fromFile: file, progress: progress)
        let uploaded = progress.events(.upload).filter(\.isAggregate).map(\.completedBytes).max() ?? 0
        return ("uploaded=\(uploaded) etag=\(eTag)", eTag)
    }

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer (`scripts/sanitize.sh`).
    static let runsUnderSanitizer: Bool = {
        let everything = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        return dlsym(everything, "__asan_init") != nil || dlsym(everything, "__tsan_init") != nil
    }()

    /// The `name=value` fields of a line a child process printed.
    static func fields(_ report: String) -> [String: String] {
        var fields: [String: String] = [:]
        for word in report.split(whereSeparator: \.isWhitespace) {
            guard let equals = word.firstIndex(of: "=") else { continue }
            fields[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return fields
    }

    /// The process's peak resident size (`VmHWM`), in bytes.
    static func peakResidentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}

/// Fails chosen multipart parts (by the `partNumber` query parameter) with a connection error, counting every
/// attempt, and records the methods and queries of the requests it sees.
final class PartFaults: Middleware, Sendable {
    private struct State {
        var attempts: [Int: Int] = [:]
        var seen: [String] = []
    }

    private let failures: [Int: Int]
    private let state = Mutex(State())

    /// - Parameter failures: Part number → how many first attempts fail (`Int.max`: all).
    init(failures: [Int: Int]) {
        self.failures = failures
    }

    var attempts: [Int: Int] { state.withLock { $0.attempts } }
    var seen: [String] { state.withLock { $0.seen } }

    func intercept(
        _ request: Request, context: RequestContext, next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        let query = request.url.query ?? ""
        let part = query.split(separator: "&").first { $0.hasPrefix("partNumber=") }
            .flatMap { Int($0.dropFirst("partNumber=".count)) }
        let attempt = state.withLock { state -> Int in
            state.seen.append(request.method.rawValue + " " + query)
            guard let part else { return 0 }
            state.attempts[part, default: 0] += 1
            return state.attempts[part]!
        }
        if let part, let failing = failures[part], attempt <= failing {
            throw ClientError(.connectFailed, message: "injected failure of part \(part), attempt \(attempt)")
        }
        let response = try await next(request, context)
        state.withLock { $0.seen.append("-> \(response.status.code)") }
        return response
    }
}
