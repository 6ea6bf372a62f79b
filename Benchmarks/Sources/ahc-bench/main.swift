// AsyncHTTPClient's side of the benchmarks (driven by ../../run.sh).
// Usage: ahc-bench MODE URL [ARGS]; modes as in asikit-bench: seq URL N | conc URL N C | handshake URL N |
// download URL [PATH] | gzip URL. Prints one line `RESULT client=ahc mode=... key=value ...`.
// Environment: BENCH_CA_FILE, a PEM file to trust for https URLs.
import AsyncHTTPClient
import Glibc
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func fail(_ message: String) -> Never {
    let line = "ahc-bench: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

struct BenchFailure: Error { let message: String }

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: ahc-bench seq|conc|handshake|download|gzip URL [N [C] | PATH]") }
let mode = arguments[1]
let url = arguments[2]

func count(_ index: Int, _ name: String) -> Int {
    guard arguments.count > index, let value = Int(arguments[index]), value > 0 else { fail("\(mode) needs \(name)") }
    return value
}

var configuration = HTTPClient.Configuration()
configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
if mode == "gzip" { configuration.decompression = .enabled(limit: .none) }
if let caFile = getenv("BENCH_CA_FILE").map({ String(cString: $0) }), !caFile.isEmpty {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(caFile)
    configuration.tlsConfiguration = tls
}
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

/// One GET, body counted chunk by chunk (nothing kept).
func get(closing: Bool = false) async throws -> Int {
    var request = HTTPClientRequest(url: url)
    if closing { request.headers.add(name: "Connection", value: "close") }
    let response = try await client.execute(request, timeout: .seconds(60))
    guard response.status == .ok else { throw BenchFailure(message: "status \(response.status.code)") }
    var bytes = 0
    for try await chunk in response.body { bytes += chunk.readableBytes }
    return bytes
}

func concurrent(_ n: Int, _ width: Int) async throws -> Int {
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

/// One GET streamed to `path` with write(2); gzip mode asks for gzip and lets the client inflate.
func stream(to path: String) async throws -> (Int, String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw BenchFailure(message: "cannot open \(path)") }
    defer { close(fd) }
    var request = HTTPClientRequest(url: url)
    if mode == "gzip" { request.headers.add(name: "Accept-Encoding", value: "gzip") }
    let response = try await client.execute(request, timeout: .seconds(300))
    guard response.status == .ok else { throw BenchFailure(message: "status \(response.status.code)") }
    var bytes = 0
    for try await chunk in response.body {
        bytes += chunk.readableBytes
        try chunk.withUnsafeReadableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { throw BenchFailure(message: "write failed") }
                offset += written
            }
        }
    }
    return (bytes, response.headers.first(name: "content-encoding") ?? "identity")
}

func report(_ fields: String) { print("RESULT client=ahc mode=\(fields)") }

do {
    switch mode {
    case "seq":
        let n = count(3, "N")
        _ = try await get()  // warm-up: opens the keep-alive connection
        let start = now()
        var bytes = 0
        for _ in 0..<n { bytes += try await get() }
        let seconds = now() - start
        report("seq requests=\(n) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "conc":
        let (n, c) = (count(3, "N"), count(4, "C"))
        _ = try await concurrent(c, c)  // warm-up: opens C connections
        let start = now()
        let bytes = try await concurrent(n, c)
        let seconds = now() - start
        report("conc requests=\(n) concurrency=\(c) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "handshake":
        let n = count(3, "N")
        let start = now()
        var bytes = 0
        for _ in 0..<n { bytes += try await get(closing: true) }
        let seconds = now() - start
        report("handshake requests=\(n) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "download", "gzip":
        let start = now()
        let (bytes, encoding) = try await stream(to: arguments.count > 3 ? arguments[3] : "/dev/null")
        let seconds = now() - start
        report("\(mode) bytes=\(bytes) encoding=\(encoding) seconds=\(seconds) MBps=\(Double(bytes) / seconds / 1e6)")
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    await shutDown()
    fail("\(mode) failed: \(error)")
}
await shutDown()

/// Inside a function the async `shutdown()` is picked (top-level code would pick the future-returning one).
func shutDown() async {
    try? await client.shutdown()
}
