// The soak of issue 33: mixed traffic through one long-lived Client for MINUTES, sampling the process's resident
// memory, open descriptors, threads and requests in flight once a second; fails when a linear fit over the
// second half says one of them grows. Run it with scripts/soak.sh MINUTES.
//
//   ASISoak MINUTES CSV_PATH
import DiskCache
import FoundationEssentials
import Glibc
import GzipCodec
import HTTPCore
import HTTPPipeline
import SocketTransport
import Synchronization
import TestSupport
import Throttle

let arguments = CommandLine.arguments
guard arguments.count == 3, let minutes = Double(arguments[1]), minutes > 0 else {
    print("usage: ASISoak MINUTES CSV_PATH")
    exit(2)
}
let csvPath = arguments[2]
let duration = Duration.milliseconds(Int64(minutes * 60_000))

let servers = try SoakServers()
let tinyproxy = TinyproxyPeer.shouldRun ? try? TinyproxyPeer.start() : nil
let traffic = SoakTraffic(
    plain: URL(string: "http://127.0.0.1:\(servers.plainPort)")!,
    tls: URL(string: "https://localhost:\(servers.tlsPort)")!,
    stall: URL(string: "http://127.0.0.1:\(servers.stallPort)")!, caFile: servers.certificates.caPath,
    proxy: tinyproxy?.route())
let cacheDirectory = try makeTemporaryDirectory(prefix: "asikit-soak-cache")
let client = Client(
    transport: .posix(), cache: .disk(cacheDirectory), codecs: [.zlib()], bandwidth: try .throttle(bytesPerSecond: nil))
print("soak: \(minutes) min against nginx; proxy \(tinyproxy == nil ? "skipped (no tinyproxy)" : "via tinyproxy"); "
      + "samples in \(csvPath)")

let counters = Mutex((requests: 0, failures: 0, inFlight: 0, firstFailures: [String]()))
let started = ContinuousClock.now
var samples: [ResourceSample] = []
try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await client.run() }
    for worker in 0..<4 {
        group.addTask {
            var kind = worker * 3
            while ContinuousClock.now - started < duration {
                counters.withLock { $0.inFlight += 1 }
                let failure = await traffic.send(client, kind: kind % SoakTraffic.kinds)
                counters.withLock {
                    $0.inFlight -= 1
                    $0.requests += 1
                    if let failure {
                        $0.failures += 1
                        if $0.firstFailures.count < 5 { $0.firstFailures.append(failure) }
                    }
                }
                kind += 1
            }
        }
    }
    var csv = "second,rss_kib,fds,threads,in_flight\n"
    while ContinuousClock.now - started < duration {
        try await Task.sleep(for: .seconds(1))
        let second = (ContinuousClock.now - started) / .seconds(1)
        let sample = ResourceSample.now(second: second, tasks: counters.withLock { $0.inFlight })
        samples.append(sample)
        csv += "\(Int(second)),\(Int(sample.rssKiB)),\(Int(sample.descriptors)),\(Int(sample.threads)),"
            + "\(Int(sample.tasks))\n"
        if samples.count % 30 == 0 {
            let done = counters.withLock { $0.requests }
            print("t=\(Int(second)) s  rss \(Int(sample.rssKiB)) KiB  fds \(Int(sample.descriptors))  threads "
                  + "\(Int(sample.threads))  in flight \(Int(sample.tasks))  requests \(done)")
        }
    }
    try Data(csv.utf8).write(to: URL(filePath: csvPath))
    // The workers end at the deadline; the client's background work is cancelled after them.
    while counters.withLock({ $0.inFlight }) > 0 { try await Task.sleep(for: .milliseconds(50)) }
    group.cancelAll()
}
try await client.shutdown()

let totals = counters.withLock { $0 }
let secondHalf = Array(samples.suffix(samples.count / 2))
let span = (secondHalf.last?.second ?? 0) - (secondHalf.first?.second ?? 0)
let meanRSS = secondHalf.map(\.rssKiB).reduce(0, +) / Double(max(1, secondHalf.count))
// Growth over the second half by the fitted line, and what it may be: memory 4 MiB or 10 %, whichever is more
// (allocator noise), descriptors, threads and requests in flight 2 (one in flight as a sample is taken).
let checks: [(String, Double, Double)] = [
    ("rss KiB", ResourceSample.slope(secondHalf, \.rssKiB) * span, max(4096, meanRSS * 0.10)),
    ("fds", ResourceSample.slope(secondHalf, \.descriptors) * span, 2),
    ("threads", ResourceSample.slope(secondHalf, \.threads) * span, 2),
    ("in flight", ResourceSample.slope(secondHalf, \.tasks) * span, 2),
]
print("\n\(totals.requests) requests, \(totals.failures) unexpected outcomes")
for failure in totals.firstFailures { print("  e.g. \(failure)") }
print("growth over the second half (\(Int(span)) s, linear fit):")
var failed = false
for (name, growth, allowed) in checks {
    let ok = growth <= allowed
    failed = failed || !ok
    print("  \(name + String(repeating: " ", count: max(0, 10 - name.count))) \(Int(growth.rounded())) "
          + "(allowed \(Int(allowed)))  \(ok ? "flat" : "GROWS")")
}
if Double(totals.failures) > Double(totals.requests) * 0.01 {
    print("more than 1 % of requests had an unexpected outcome")
    failed = true
}
tinyproxy?.stop()
try? FileManager.default.removeItem(atPath: cacheDirectory)
servers.stop()
print(failed ? "FAIL" : "PASS")
exit(failed ? 1 : 0)
