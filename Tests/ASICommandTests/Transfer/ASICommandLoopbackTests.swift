import FoundationEssentials
import Glibc
import HTTPTesting
import Synchronization
import TestSupport
import Testing

/// `asi` flags whose proof needs a server that misbehaves or counts on cue (LoopbackServer): `--connect-timeout`,
/// `--parallel-max`, `-m` in `-Z` mode, and `-#` for a single transfer.
@Suite("asi: loopback")
struct ASICommandLoopbackTests {
    @Test func connectTimeoutLimitsTheHandshakeAndNotTheWholeTransfer() async throws {
        // The server reads the ClientHello as an unfinished HTTP head and never answers: the handshake hangs.
        let server = try LoopbackServer { _ in .stall }
        defer { server.shutdown() }
        let url = "https://127.0.0.1:\(server.port)/"
        let run = try await ASICommandRun.run(["-k", "--connect-timeout", "1", "-y", "60", "-m", "30", url])
        #expect(run.status == 28, "\(run.stderr)")
        #expect(run.stderr.contains("TLS handshake"), "the connect timeout fired, not -m: \(run.stderr)")
        #expect(!run.stderr.contains("-m "))
    }

    @Test func parallelMaxBoundsTheTransfersInFlight() async throws {
        let counts = Mutex((now: 0, peak: 0))
        let server = try LoopbackServer { request in
            counts.withLock {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
            }
            usleep(300_000)
            counts.withLock { $0.now -= 1 }
            return .ok(request.path)
        }
        defer { server.shutdown() }
        let urls = (0..<6).map { server.url("/\($0)").absoluteString }
        let run = try await ASICommandRun.run(["-Z", "--parallel-max", "2", "-w", "\\n"] + urls)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Set(run.output.split(separator: "\n").map(String.init)) == Set((0..<6).map { "/\($0)" }))
        #expect(counts.withLock { $0.peak } <= 2)
        #expect(server.requests.count == 6)

        counts.withLock { $0 = (0, 0) }
        let wide = try await ASICommandRun.run(["-Z", "--parallel-max", "6"] + urls)
        #expect(wide.status == 0, "\(wide.stderr)")
        #expect(counts.withLock { $0.peak } > 2, "without the bound more run at once")
    }

    @Test func maxTimeInParallelModeEndsTheRunWith28() async throws {
        let server = try LoopbackServer { request in request.path == "/fast" ? .ok("fast") : .stall }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run([
            // -m long enough that /fast finishes in it on a loaded machine; /stalled never does.
            "-Z", "-m", "15", "-w", "%{url} %{exitcode}\\n", server.url("/fast").absoluteString,
            server.url("/stalled").absoluteString,
        ])
        #expect(run.status == 28, "\(run.stderr)")
        #expect(run.output.contains("fast\(server.url("/fast").absoluteString) 0\n"))
        #expect(run.output.contains("\(server.url("/stalled").absoluteString) 28\n"))
    }

    @Test func progressBarDrawsOnStderrOnlyWhenAskedAndNeverWhenSilent() async throws {
        let body = [UInt8](repeating: 7, count: 300_000)
        let server = try LoopbackServer { _ in .ok(bytes: body) }
        defer { server.shutdown() }
        let url = server.url("/report.bin").absoluteString
        let bar = try await ASICommandRun.run(["-#", url])
        #expect(bar.status == 0)
        #expect(LargeBytes.equal(bar.stdout, body))
        #expect(bar.stderr.contains("report.bin"), "the line is named after the file: \(bar.stderr)")
        #expect(bar.stderr.contains("100%"))

        let quiet = try await ASICommandRun.run(["-#", "-s", url])
        #expect(LargeBytes.equal(quiet.stdout, body))
        #expect(quiet.stderr.isEmpty)
    }
}
