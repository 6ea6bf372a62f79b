import FoundationEssentials
import HTTPTesting
import Synchronization
import TestSupport
import Testing

/// `asi`'s exit codes are curl's for the same failures, and `-s`/`-S` decide whether the message is printed.
/// Servers: LoopbackServer for stalls and refusals, httpbin for redirect loops, nginx for certificates.
@Suite("asi: exit codes")
struct ASICommandExitCodeTests {
    @Test func aMalformedURLExits3AndAnUnknownFlagExits2() async throws {
        let malformed = try await ASICommandRun.run(["http://"])
        #expect(malformed.status == 3)
        #expect(malformed.stderr.contains("(3)"))

        let usage = try await ASICommandRun.run(["--no-such-flag", "http://127.0.0.1/"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--no-such-flag"))
    }

    @Test func anUnresolvableHostExits6() async throws {
        let run = try await ASICommandRun.run(["http://asikit-test.invalid/"])
        #expect(run.status == 6, "\(run.stderr)")
        #expect(run.stderr.contains("(6) nameResolutionFailed"))
    }

    @Test func aRefusedPortExits7AndSilentHidesTheMessage() async throws {
        let refusing = RefusingPort()
        let url = "http://127.0.0.1:\(refusing.port)/"
        let run = try await ASICommandRun.run([url])
        #expect(run.status == 7)
        #expect(run.stderr.contains("(7) connectFailed"))

        let silent = try await ASICommandRun.run(["-s", url])
        #expect(silent.status == 7)
        #expect(silent.stderr.isEmpty)

        let shown = try await ASICommandRun.run(["-s", "-S", url])
        #expect(shown.status == 7)
        #expect(shown.stderr.contains("(7)"))
        withExtendedLifetime(refusing) {}
    }

    @Test func failOnA404Exits22() async throws {
        let server = try LoopbackServer(routes: [:])
        defer { server.shutdown() }
        let run = try await ASICommandRun.run(["--fail", server.url("/missing").absoluteString])
        #expect(run.status == 22)
        #expect(run.stdout.isEmpty)
    }

    @Test func maxTimeOnAStalledServerExits28() async throws {
        let server = try LoopbackServer { _ in .stall }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run([
            "-m", "1", "-w", "%{http_code} %{exitcode}", server.url("/").absoluteString,
        ])
        #expect(run.status == 28, "\(run.stderr)")
        #expect(run.output == "000 28")
        #expect(run.stderr.contains("(28)"))
    }

    @Test func maxTimeCoversTheWholeTransferNotJustSilence() async throws {
        // The body trickles: never silent for a whole second, but longer than -m in total.
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 8)
        let actions: [LoopbackResponse.Action] =
            [.write(Array("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n".utf8))]
            + body.flatMap { [LoopbackResponse.Action.body([$0]), .sleep(.milliseconds(400))] }
        let server = try LoopbackServer { _ in LoopbackResponse(actions: actions) }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run(["-m", "1.5", "-y", "1", server.url("/").absoluteString])
        #expect(run.status == 28, "\(run.stderr)")
        #expect(run.stdout.count < 8)
    }

    @Test func speedTimeIsTheInactivityTimeoutAndRetrySendsAgain() async throws {
        let requests = Mutex(0)
        let server = try LoopbackServer { _ in
            requests.withLock { count in
                count += 1
                return count == 1 ? .stall : .ok("second time lucky")
            }
        }
        defer { server.shutdown() }
        let url = server.url("/").absoluteString
        let gaveUp = try await ASICommandRun.run(["-y", "1", url])
        #expect(gaveUp.status == 28, "\(gaveUp.stderr)")

        requests.withLock { $0 = 0 }
        let retried = try await ASICommandRun.run(["-y", "1", "--retry", "1", url])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.output == "second time lucky")
        #expect(requests.withLock { $0 } == 2)
    }

    @Test(.enabled(if: NginxPeer.shouldRun)) func httpsToAPlainHTTPPortExits35() async throws {
        try await withNginx { nginx in
            let run = try await ASICommandRun.run(["-k", "https://127.0.0.1:\(nginx.port(.plain))/hello.txt"])
            #expect(run.status == 35, "\(run.stderr)")
            #expect(run.stderr.contains("tlsHandshakeFailed"))
        }
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun)) func aRedirectLoopPastMaxRedirsExits47() async throws {
        try await withHttpbin { httpbin in
            let url = httpbin.url("/redirect/10").absoluteString
            let run = try await ASICommandRun.run(["-L", "--max-redirs", "2", url])
            #expect(run.status == 47, "\(run.stderr)")
            #expect(run.stderr.contains("tooManyRedirects"))

            let enough = try await ASICommandRun.run(["-L", "--max-redirs", "10", "-o", "/dev/stdout", url])
            #expect(enough.status == 0, "\(enough.stderr)")
            #expect(enough.output.contains("\"url\": \"\(httpbin.url("/get").absoluteString)\""))
        }
    }

    @Test(.enabled(if: NginxPeer.shouldRun)) func anUntrustedCertificateExits60() async throws {
        try await withNginx { nginx in
            let run = try await ASICommandRun.run([nginx.url("/hello.txt", on: .tls).absoluteString])
            #expect(run.status == 60, "\(run.stderr)")
            #expect(run.stderr.contains("certificateInvalid"))
        }
    }

    @Test func unreadableUploadsExit26AndUnwritableOutputsExit23() async throws {
        let server = try LoopbackServer { _ in .ok("saved") }
        defer { server.shutdown() }
        let url = server.url("/upload").absoluteString
        let read = try await ASICommandRun.run(["-T", "/nonexistent/asikit-upload", url])
        #expect(read.status == 26, "\(read.stderr)")
        #expect(server.requests.isEmpty)

        let write = try await ASICommandRun.run(["-o", "/nonexistent/asikit-output", url])
        #expect(write.status == 23, "\(write.stderr)")
    }
}
