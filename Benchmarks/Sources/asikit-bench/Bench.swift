import Glibc
import HTTPCore
import HTTPPipeline

/// The measured operations: each returns the body bytes it received, so a run that silently got less fails
/// the harness's check instead of looking fast.
struct Bench: Sendable {
    let client: Client
    let template: Request
    /// The executor the request loops prefer (`POSIXTransport.taskExecutor`), or `nil` for the default.
    let executor: (any TaskExecutor)?

    /// One GET through the whole pipeline, body collected in memory.
    func get(_ request: Request? = nil) async throws -> Int {
        let response = try await client.send(request ?? template)
        guard response.status == .ok else { throw BenchFailure("status \(response.status.code)") }
        return response.body.count
    }

    /// One GET straight through the transport: no redirects, cookies, cache or decoding.
    func getRaw() async throws -> Int {
        let context = RequestContext(logger: client.configuration.logger)
        let response = try await client.transport.send(template, context: context)
        guard response.status == .ok else { throw BenchFailure("status \(response.status.code)") }
        var bytes = 0
        for try await chunk in response.body { bytes += chunk.count }
        return bytes
    }

    func sequential(_ n: Int) async throws -> Int {
        try await withTaskExecutorPreference(executor) {
            var bytes = 0
            for _ in 0..<n { bytes += try await get() }
            return bytes
        }
    }

    /// `n` GETs one after another that the client's cache must answer without the network.
    func cached(_ n: Int) async throws -> Int {
        var bytes = 0
        for _ in 0..<n {
            let response = try await client.send(template)
            guard response.status == .ok, response.info.isFromCache else { throw BenchFailure("not from the cache") }
            bytes += response.body.count
        }
        return bytes
    }

    func sequentialRaw(_ n: Int) async throws -> Int {
        try await withTaskExecutorPreference(executor) {
            var bytes = 0
            for _ in 0..<n { bytes += try await getRaw() }
            return bytes
        }
    }

    /// `n` GETs over `width` tasks, each sending its share one after another.
    func concurrent(_ n: Int, _ width: Int) async throws -> Int {
        try await withTaskExecutorPreference(executor) { try await concurrentGroup(n, width) }
    }

    private func concurrentGroup(_ n: Int, _ width: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<width {
                let share = n / width + (worker < n % width ? 1 : 0)
                group.addTask {
                    var bytes = 0
                    for _ in 0..<share { bytes += try await get() }
                    return bytes
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// `n` GETs added to one RequestQueue of width `width`, counted as their results arrive.
    func queue(_ n: Int, _ width: Int) async throws -> Int {
        let queue = RequestQueue(client: client, configuration: .init(maxConcurrentRequests: width))
        let results = queue.results  // before go(), to see every result
        for _ in 0..<n { queue.add(template) }
        queue.go()
        var bytes = 0
        var finished = 0
        for await result in results {
            let response = try result.response()
            guard response.status == .ok else { throw BenchFailure("status \(response.status.code)") }
            bytes += response.body.count
            finished += 1
        }
        guard finished == n else { throw BenchFailure("\(finished) of \(n) results") }
        return bytes
    }

    /// `n` GETs, each asking the server to close, so each opens a new connection (and does a TLS handshake).
    func handshakes(_ n: Int) async throws -> Int {
        var request = template
        request.options.persistentConnection = false
        var bytes = 0
        for _ in 0..<n { bytes += try await get(request) }
        return bytes
    }

    /// One GET whose body streams to `path` chunk by chunk; `inflating` names the coding (`gzip`, `br`, `zstd`)
    /// that must come back and is decoded on the fly.
    func stream(to path: String, inflating: String? = nil) async throws -> Int {
        try await withTaskExecutorPreference(executor) { try await streamHere(to: path, inflating: inflating) }
    }

    private func streamHere(to path: String, inflating: String?) async throws -> Int {
        var request = template
        request.options.inflatesWhenComplete = inflating == nil
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchFailure("cannot open \(path)") }
        defer { close(fd) }
        let response = try await client.stream(request)
        guard response.status == .ok else { throw BenchFailure("status \(response.status.code)") }
        if let inflating, response.head.headerFields[.contentEncoding] != inflating {
            throw BenchFailure("the response was not \(inflating)-encoded")
        }
        var bytes = 0
        for try await chunk in response.body {
            bytes += chunk.count
            try writeAll(fd, chunk)
        }
        return bytes
    }

    /// One GET saved to `path` by the pipeline's own download option (ASIHTTPRequest's
    /// `downloadDestinationPath`).
    func download(to path: String) async throws -> Int {
        var request = template
        request.options.download = DownloadOptions(destinationPath: path)
        let response = try await client.send(request)
        guard response.status == .ok else { throw BenchFailure("status \(response.status.code)") }
        var info = stat()
        guard stat(path, &info) == 0 else { throw BenchFailure("no file at \(path)") }
        return Int(info.st_size)
    }
}

private func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        guard written > 0 else { throw BenchFailure("write failed: errno \(errno)") }
        offset += written
    }
}
