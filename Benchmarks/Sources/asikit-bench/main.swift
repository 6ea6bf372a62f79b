// ASIKit's side of the benchmarks (driven by ../../run.sh).
// Usage: asikit-bench MODE URL [ARGS]; each mode prints one line `RESULT client=asikit mode=... key=value ...`.
//   seq URL N            N GETs one after another through Client.send (one keep-alive connection)
//   seq-raw URL N        the same straight through POSIXTransport.send, without the pipeline (for profiling)
//   conc URL N C         N GETs split over C tasks, each sending its share one after another
//   queue URL N C        N GETs in one RequestQueue of width C
//   handshake URL N      N GETs each on a new connection (Connection: close), for full TLS handshakes
//   download URL [PATH]  one GET streamed to PATH (default /dev/null); with a real PATH, the pipeline's
//                        download-to-file option writes it
//   gzip URL             one GET with Accept-Encoding: gzip, inflated as it streams, decoded bytes to /dev/null
//   br URL, zstd URL     the same with BrotliCodec or ZstdCodec (Accept-Encoding: br or zstd)
//   cache URL N DIR      one GET stores a fresh response in a DiskCacheStore at DIR, then N GETs answered by it
// Environment: BENCH_CA_FILE, a PEM file to trust for https URLs; ASIKIT_TASK_EXECUTOR=1 runs seq, seq-raw, conc
// and the streamed download (to /dev/null) inside withTaskExecutorPreference(transport.taskExecutor) (the requests
// and the body's reads run on the event-loop thread);
// ASIKIT_OBSERVABILITY=1 installs ObservabilityMiddleware with no tracer or metrics backend bootstrapped;
// ASIKIT_TRANSPORT_EXECUTOR=0 turns Client.Configuration.runsOnTransportExecutor off; ASIKIT_HTTP2=1 configures the
// HTTP2 plug-in, so https URLs go over HTTP/2 (h2 by ALPN), many requests multiplexed on one connection;
// ASIKIT_BUSY_POLL_US sets POSIXTransport.Configuration.busyPoll in microseconds (0 turns the loop's polling off).
import ASIKitObservability
import BrotliCodec
import DiskCache
import FoundationEssentials
import Glibc
import GzipCodec
import HTTP2
import HTTPCore
import HTTPPipeline
import SocketTransport
import ZstdCodec

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[2]) else {
    fail("usage: asikit-bench seq|seq-raw|conc|queue|handshake|download|gzip|br|zstd|cache URL [N [C|DIR] | PATH]")
}
let mode = arguments[1]

func count(_ index: Int, _ name: String) -> Int {
    guard arguments.count > index, let value = Int(arguments[index]), value > 0 else { fail("\(mode) needs \(name)") }
    return value
}

// At least 64 connections, and as many as `conc` asks for (the 1,000-connection row).
let width = mode == "conc" && arguments.count > 4 ? Int(arguments[4]) ?? 0 : 0
let http2 = getenv("ASIKIT_HTTP2").map { String(cString: $0) == "1" } ?? false
var transportConfiguration = POSIXTransport.Configuration(
    maxConnectionsPerHost: max(64, width), protocols: http2 ? [HTTP2Protocol()] : [])
if let busyPoll = getenv("ASIKIT_BUSY_POLL_US").flatMap({ Int(String(cString: $0)) }) {
    transportConfiguration.busyPoll = .microseconds(busyPoll)
}
let transport = POSIXTransport(configuration: transportConfiguration)
let cacheDirectory = mode == "cache" && arguments.count > 4 ? arguments[4] : nil
var configuration = Client.Configuration()
configuration.runsOnTransportExecutor = getenv("ASIKIT_TRANSPORT_EXECUTOR").map { String(cString: $0) != "0" } ?? true
let client = Client(
    transport: transport,
    cache: cacheDirectory.map { DiskCacheStore(configuration: .init(directory: $0)) },
    middleware: getenv("ASIKIT_OBSERVABILITY").map { String(cString: $0) == "1" } ?? false
        ? [ObservabilityMiddleware()] : [],
    codecs: mode == "gzip" ? [.zlib()] : mode == "br" ? [.brotli()] : mode == "zstd" ? [.zstd()] : [],
    configuration: configuration
)
let onLoop = getenv("ASIKIT_TASK_EXECUTOR").map { String(cString: $0) == "1" } ?? false
let bench = Bench(client: client, template: BenchRequest.make(url), executor: onLoop ? transport.taskExecutor : nil)

do {
    switch mode {
    case "seq":
        let n = count(3, "N")
        _ = try await bench.get()  // warm-up: opens the keep-alive connection
        let (bytes, seconds) = try await timed { try await bench.sequential(n) }
        report("seq requests=\(n) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "seq-raw":
        let n = count(3, "N")
        _ = try await bench.getRaw()
        let (bytes, seconds) = try await timed { try await bench.sequentialRaw(n) }
        report("seq-raw requests=\(n) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "conc":
        let (n, c) = (count(3, "N"), count(4, "C"))
        _ = try await bench.concurrent(c, c)  // warm-up: opens C connections
        let (bytes, seconds) = try await timed { try await bench.concurrent(n, c) }
        report(
            "conc requests=\(n) concurrency=\(c) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds) "
                + "threads=\(threadCount())")
    case "queue":
        let (n, c) = (count(3, "N"), count(4, "C"))
        _ = try await bench.concurrent(c, c)
        let (bytes, seconds) = try await timed { try await bench.queue(n, c) }
        report("queue requests=\(n) width=\(c) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "handshake":
        let n = count(3, "N")
        let (bytes, seconds) = try await timed { try await bench.handshakes(n) }
        report("handshake requests=\(n) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "download":
        let path = arguments.count > 3 ? arguments[3] : "/dev/null"
        let (bytes, seconds) = try await timed {
            path == "/dev/null" ? try await bench.stream(to: path) : try await bench.download(to: path)
        }
        report("download bytes=\(bytes) seconds=\(seconds) MBps=\(Double(bytes) / seconds / 1e6)")
    case "gzip", "br", "zstd":
        let (bytes, seconds) = try await timed { try await bench.stream(to: "/dev/null", inflating: mode) }
        report("\(mode) bytes=\(bytes) seconds=\(seconds) MBps=\(Double(bytes) / seconds / 1e6)")
    case "cache":
        let n = count(3, "N")
        guard cacheDirectory != nil else { fail("cache needs DIR") }
        _ = try await bench.get()  // stores the entry (the response must be fresh: max-age or Expires)
        let (bytes, seconds) = try await timed { try await bench.cached(n) }
        report("cache requests=\(n) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("\(mode) failed: \(error)")
}
try await client.shutdown()

func report(_ fields: String) {
    print("RESULT client=asikit mode=\(fields)")
}
